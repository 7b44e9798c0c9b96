// SPDX-License-Identifier: GPL-2.0
/*
 * Per-ops trampolines: a site that exactly one ops wants calls that ops'
 * own copy of the shared trampoline, skipping the list function.  An ops
 * without a free slot uses the shared trampolines until one is freed.
 * A slot is reused only after synchronize_rcu_tasks() and
 * synchronize_rcu_tasks_rude(): a task may be preempted inside it, and
 * address lookups are lockless.  See Documentation/trace/ftrace-core-design.rst.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "ftrace_internal.h"

struct ftrace_tramp {
	unsigned long		addr;		/* published: lookups see it */
	unsigned long		mem;		/* 0: slot free */
	unsigned long		size;		/* 0: no code of its own */
	ftrace_func_t		func;		/* what it calls now */
	struct ftrace_ops	*ops;		/* owner; NULL once let go */
	unsigned int		sites;		/* sites calling it now */
	bool			reaping;
	unsigned int		slot;
	struct ftrace_ops	desc;		/* what the unwinder is told */
};

/* The name kallsyms and perf give every trampoline. */
#define TRAMP_SYM	"ftrace_trampoline"

/*
 * Slot 0 means "none" in a record.  Entries 1..tramps_hi are allocated;
 * neither an entry nor tramps_hi ever goes back, so lockless walks are safe.
 */
static struct ftrace_tramp *tramps[FTRACE_TRAMP_SLOTS + 1];
static unsigned int tramps_hi;

/*
 * Every trampoline with code ever published lies in [tramps_lo, tramps_end),
 * which only grows.  Most lookups are for user addresses at the end of
 * stack traces: turn them away without walking the slots.
 */
static unsigned long tramps_lo = ULONG_MAX;
static unsigned long tramps_end;

static inline struct ftrace_tramp *tramp_next(unsigned int *i)
{
	/* Pairs with tramp_free_slot(): a walk sees every entry below the bound. */
	if (++*i > smp_load_acquire(&tramps_hi))
		return NULL;
	return tramps[*i];
}

#define for_each_tramp(t)						\
	for (unsigned int __slot = 0; (t = tramp_next(&__slot)); )

/* The first free slot, allocating it if need be; or ERR_PTR(-ENOSPC/-ENOMEM). */
static struct ftrace_tramp *tramp_free_slot(void)
{
	struct ftrace_tramp *t;

	BUILD_BUG_ON(FIELD_MAX(FTRACE_REC_TRAMP) != FTRACE_REC_SLOT_FAR);
	BUILD_BUG_ON(FIELD_MAX(FTRACE_REC_TRAMP_EN) != FTRACE_REC_SLOT_FAR);
	BUILD_BUG_ON(FTRACE_TRAMP_SLOTS < FTRACE_REC_SLOT_FAR);
	for_each_tramp(t)
		if (!t->mem)
			return t;
	if (tramps_hi == FTRACE_TRAMP_SLOTS)
		return ERR_PTR(-ENOSPC);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->slot = tramps_hi + 1;
	tramps[t->slot] = t;
	/* A lockless walk that sees the new bound sees the entry. */
	smp_store_release(&tramps_hi, t->slot);
	return t;
}

/**
 * ftrace_tramp_get - give an ops a trampoline of its own
 * @ops: the ops, about to go on the list or on it without a trampoline
 *
 * Without a free slot or memory the ops' sites call the shared trampolines.
 *
 * Context: ftrace_lock held.
 * Return: 0 if @ops has a trampoline now or needs none, -ENOSPC or -ENOMEM.
 */
int ftrace_tramp_get(struct ftrace_ops *ops)
{
	ftrace_func_t func = ftrace_ops_get_func(ops);
	unsigned long addr, size = 0;
	struct ftrace_tramp *t;

	ftrace_assert_locked();
	if (ops->tramp_slot || ops->role == FTRACE_ROLE_SITES || ops->role == FTRACE_ROLE_DIRECT)
		return 0;
	t = tramp_free_slot();
	if (IS_ERR(t))
		return PTR_ERR(t);
	addr = ftrace_arch_tramp_create(ops, func, t->slot, &size);
	if (!addr)
		return -ENOMEM;
	t->mem = addr;
	t->size = size;
	t->func = func;
	t->ops = ops;
	t->sites = 0;
	t->reaping = false;
	memset(&t->desc, 0, sizeof(t->desc));
	t->desc.flags = ops->flags & FTRACE_OPS_FL_SAVE_REGS;
	t->desc.func = func;
	t->desc.trampoline = addr;
	t->desc.trampoline_size = size;
	/*
	 * A lookup that saw the old span cannot be unwinding this code: no
	 * site calls it until patching has synchronized every CPU.
	 */
	if (size) {
		WRITE_ONCE(tramps_lo, min(tramps_lo, addr));
		WRITE_ONCE(tramps_end, max(tramps_end, addr + size));
	}
	/* The description is complete before a lookup can find the slot. */
	smp_store_release(&t->addr, addr);
	if (size)
		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, addr, size, false,
				   TRAMP_SYM);

	ops->trampoline = addr;
	ops->trampoline_size = size;
	ops->tramp_slot = t->slot;
	return 0;
}

static int tramp_set(struct ftrace_tramp *t, ftrace_func_t func)
{
	bool regs = t->desc.flags & FTRACE_OPS_FL_SAVE_REGS;
	int ret;

	ret = ftrace_arch_tramp_set_callback(t->mem, regs, t->func, func);
	if (!ret) {
		t->func = func;
		t->desc.func = func;
	}
	return ret;
}

/* Its memory goes after the grace periods (ftrace_tramps_reap()). */
static void tramp_release(struct ftrace_tramp *t)
{
	t->ops = NULL;
	if (t->sites)
		return;		/* ftrace died with sites on it: kept */
	if (t->size)
		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, t->addr, t->size, true,
				   TRAMP_SYM);
	WRITE_ONCE(t->addr, 0);
}

static void tramp_free(struct ftrace_tramp *t)
{
	ftrace_arch_tramp_free(t->mem);
	t->mem = 0;
	t->reaping = false;
}

/*
 * A task preempted inside @t before loading the callback may resume long
 * after unregistration; it must not call the ops then, whose tracer may
 * be back on with another filter.  Never inside a batch: x86 patches the
 * call under text_mutex, which a batch holds.
 */
static int tramp_stop(struct ftrace_tramp *t)
{
	int ret;

	if (t->func == ftrace_stub || (t->sites && !ftrace_dead))
		return 0;
	ret = tramp_set(t, ftrace_stub);
	/* x86's ftrace_graph_caller calls a fixed function: -EOPNOTSUPP. */
	if (ftrace_dead || ret == -EOPNOTSUPP)
		return 0;
	return ret;
}

/**
 * ftrace_tramp_put - an unregistered ops lets go of its trampoline
 * @ops: the ops, off the list, with its sites already moved
 * @where: set to the trampoline's address
 *
 * Its memory is freed by ftrace_tramps_reap() after the grace periods.
 *
 * Context: ftrace_lock held.
 * Return: 0, or the arch's error while pointing it at ftrace_stub (an
 * anomaly at @where).
 */
int ftrace_tramp_put(struct ftrace_ops *ops, unsigned long *where)
{
	unsigned int slot = ops->tramp_slot;
	int ret;

	ftrace_assert_locked();
	if (!slot)
		return 0;
	ops->tramp_slot = 0;
	ops->trampoline = 0;
	ops->trampoline_size = 0;
	*where = tramps[slot]->mem;
	ret = tramp_stop(tramps[slot]);
	tramp_release(tramps[slot]);
	return ret;
}

/**
 * ftrace_tramps_reap - free every trampoline let go of so far
 *
 * Context: ftrace_lock held since the last ftrace_tramp_put(), then
 * synchronize_rcu_tasks_rude() and, with CONFIG_PREEMPTION,
 * synchronize_rcu_tasks().
 * Return: how many were freed.
 */
unsigned int ftrace_tramps_reap(void)
{
	struct ftrace_tramp *t;
	unsigned int n = 0;

	ftrace_assert_locked();
	for_each_tramp(t) {
		if (t->mem && !t->addr) {
			tramp_free(t);
			n++;
		}
	}
	return n;
}

/**
 * ftrace_tramps_mark - note the trampolines let go of so far
 *
 * For a reaper that waits for the grace periods without ftrace_lock, then
 * frees what it marked with ftrace_tramps_reap_marked().
 *
 * Context: ftrace_lock held.
 */
void ftrace_tramps_mark(void)
{
	struct ftrace_tramp *t;

	ftrace_assert_locked();
	for_each_tramp(t)
		if (t->mem && !t->addr)
			t->reaping = true;
}

/**
 * ftrace_tramps_reap_marked - free what ftrace_tramps_mark() marked
 * @more: set if a trampoline was let go of since, and waits for its own reap
 *
 * Context: ftrace_lock held, after synchronize_rcu_tasks_rude() and
 * synchronize_rcu_tasks() since the marking.
 * Return: how many were freed.
 */
unsigned int ftrace_tramps_reap_marked(bool *more)
{
	struct ftrace_tramp *t;
	unsigned int n = 0;

	ftrace_assert_locked();
	*more = false;
	for_each_tramp(t) {
		if (!t->reaping) {
			*more |= t->mem && !t->addr;
			continue;
		}
		tramp_free(t);
		n++;
	}
	return n;
}

/**
 * ftrace_tramps_pending - is a trampoline let go of and not yet being reaped?
 *
 * Context: ftrace_lock held.
 * Return: true if one is.
 */
bool ftrace_tramps_pending(void)
{
	struct ftrace_tramp *t;

	ftrace_assert_locked();
	for_each_tramp(t)
		if (t->mem && !t->addr && !t->reaping)
			return true;
	return false;
}

/**
 * ftrace_tramps_refresh - make each trampoline call what its ops needs now
 * @where: set to the trampoline's address on an error
 *
 * An ops' callback can change while registered (a pid filter wraps it).
 * A trampoline whose call cannot change is given up: its ops' sites go
 * back to the shared trampolines, so every site must be recounted, and
 * the trampoline waits for ftrace_tramps_reap().
 *
 * Context: ftrace_lock held, before the sites are recounted.
 * Return: 0, FTRACE_TRAMPS_GAVE_UP, or the arch's error (an anomaly at
 * @where).
 */
int ftrace_tramps_refresh(unsigned long *where)
{
	struct ftrace_tramp *t;
	ftrace_func_t func;
	int ret, gave_up = 0;

	ftrace_assert_locked();
	for_each_tramp(t) {
		if (!t->ops)
			continue;
		func = ftrace_ops_get_func(t->ops);
		if (func == t->func)
			continue;
		ret = tramp_set(t, func);
		if (ret == -EOPNOTSUPP) {
			ret = ftrace_tramp_put(t->ops, where);
			gave_up = FTRACE_TRAMPS_GAVE_UP;
		}
		if (ret) {
			*where = t->mem;
			return ret;
		}
	}
	return gave_up;
}

/**
 * ftrace_tramps_stop - point every tracer's trampoline at ftrace_stub
 *
 * Called once, when ftrace dies; ops that outlive it keep their calls.
 *
 * Context: ftrace_lock held.
 */
void ftrace_tramps_stop(void)
{
	struct ftrace_tramp *t;

	ftrace_assert_locked();
	for_each_tramp(t) {
		if (!t->mem || t->func == ftrace_stub ||
		    (t->ops && ftrace_ops_outlives_death(t->ops)))
			continue;
		tramp_set(t, ftrace_stub);
	}
}

/**
 * ftrace_tramp_addr - the address of slot @slot's trampoline
 * @slot: 1..FTRACE_TRAMP_SLOTS (ftrace_rec_slot() resolves a far value)
 *
 * Context: ftrace_lock held.
 * Return: its address, also while it is being let go; 0 for a free slot.
 */
unsigned long ftrace_tramp_addr(unsigned int slot)
{
	ftrace_assert_locked();
	return tramps[slot] ? tramps[slot]->mem : 0;
}

/**
 * ftrace_tramp_func - what slot @slot's trampoline calls
 * @slot: 1..FTRACE_TRAMP_SLOTS
 *
 * Context: ftrace_lock held.
 * Return: the callback, possibly a wrapper of the ops' own.
 */
ftrace_func_t ftrace_tramp_func(unsigned int slot)
{
	ftrace_assert_locked();
	return tramps[slot]->func;
}

/**
 * ftrace_tramp_ops_func - the callback of slot @slot's ops
 * @slot: 1..FTRACE_TRAMP_SLOTS
 *
 * Context: ftrace_lock held.
 * Return: the ops' callback, or NULL once the ops let go of the slot.
 */
ftrace_func_t ftrace_tramp_ops_func(unsigned int slot)
{
	ftrace_assert_locked();
	return tramps[slot]->ops ? tramps[slot]->ops->func : NULL;
}

/**
 * ftrace_tramp_sites - count sites moving onto or off a trampoline
 * @slot: its slot; 0 (no trampoline) is ignored
 * @delta: how many sites moved onto it (negative: off it)
 *
 * Context: ftrace_lock held.
 * Return: true if a trampoline kept for its sites was let go of, to be
 * freed by ftrace_tramps_reap().
 */
bool ftrace_tramp_sites(unsigned int slot, int delta)
{
	struct ftrace_tramp *t;

	ftrace_assert_locked();
	if (!slot)
		return false;
	t = tramps[slot];
	t->sites += delta;
	if (t->sites || t->ops || !t->addr)
		return false;
	tramp_release(t);
	return true;
}

static struct ftrace_tramp *tramp_find(unsigned long addr)
{
	struct ftrace_tramp *t;

	if (addr < READ_ONCE(tramps_lo) || addr >= READ_ONCE(tramps_end))
		return NULL;
	for_each_tramp(t) {
		/* Pairs with ftrace_tramp_get(): the slot is filled in. */
		unsigned long start = smp_load_acquire(&t->addr);

		if (start && t->size && addr - start < t->size)
			return t;
	}
	return NULL;
}

/**
 * ftrace_ops_trampoline - describe the dynamic trampoline holding @addr
 * @addr: a text address
 *
 * For the ORC unwinder: a copy of the owner's flags and addresses that
 * lives as long as the trampoline, whether or not the owner does.
 *
 * Context: any; lockless.
 * Return: the description, or NULL if @addr is in no dynamic trampoline.
 */
struct ftrace_ops *ftrace_ops_trampoline(unsigned long addr)
{
	struct ftrace_tramp *t = tramp_find(addr);

	return t ? &t->desc : NULL;
}

/**
 * is_ftrace_trampoline - whether @addr is in a dynamic trampoline
 * @addr: a text address
 *
 * Context: any; lockless.
 * Return: true if it is.
 */
bool is_ftrace_trampoline(unsigned long addr)
{
	return tramp_find(addr);
}

#define TRAMP_MOD	"__builtin__ftrace"

/**
 * ftrace_tramp_lookup - name an address in a dynamic trampoline
 * @addr: the address
 * @size: gets the trampoline's size (may be NULL)
 * @off: gets @addr's offset in it (may be NULL)
 * @modname: gets "__builtin__ftrace" (may be NULL)
 * @sym: KSYM_NAME_LEN bytes for the name
 *
 * Context: any; lockless.
 * Return: @sym, or NULL if @addr is in no dynamic trampoline.
 */
const char *ftrace_tramp_lookup(unsigned long addr, unsigned long *size,
				unsigned long *off, char **modname, char *sym)
{
	struct ftrace_tramp *t = tramp_find(addr);

	if (!t)
		return NULL;
	if (size)
		*size = t->size;
	if (off)
		*off = addr - t->desc.trampoline;
	if (modname)
		*modname = TRAMP_MOD;
	return strscpy(sym, TRAMP_SYM, KSYM_NAME_LEN) < 0 ? NULL : sym;
}

/**
 * ftrace_tramp_kallsym - /proc/kallsyms lines of the dynamic trampolines
 * @symnum: which one, from 0
 * @value: gets its address
 * @type: gets 't'
 * @name: KSYM_NAME_LEN bytes for the name
 * @module_name: MODULE_NAME_LEN bytes for the module name
 *
 * Context: any; lockless.
 * Return: 0, or -ERANGE past the last one.
 */
int ftrace_tramp_kallsym(unsigned int symnum, unsigned long *value,
			 char *type, char *name, char *module_name)
{
	struct ftrace_tramp *t;

	for_each_tramp(t) {
		/* Pairs with ftrace_tramp_get(): the slot is filled in. */
		unsigned long start = smp_load_acquire(&t->addr);

		if (!start || !t->size)
			continue;
		if (symnum--)
			continue;
		*value = start;
		*type = 't';
		strscpy(name, TRAMP_SYM, KSYM_NAME_LEN);
		strscpy(module_name, TRAMP_MOD, MODULE_NAME_LEN);
		return 0;
	}
	return -ERANGE;
}
