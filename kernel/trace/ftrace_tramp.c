// SPDX-License-Identifier: GPL-2.0
/*
 * Per-ops trampolines.
 *
 * A site that exactly one ops wants can call that ops' own trampoline: a
 * copy of the shared one that passes the ops and calls its callback
 * directly.  Such a site skips the list function even while other ops
 * are registered on other sites.  The arch builds and frees trampolines;
 * this file keeps them in a table of FTRACE_TRAMP_SLOTS slots.  A record
 * stores slot numbers in its flags, seven bits for the trampoline its one
 * ops has and seven for the one the site calls now, so records stay
 * 8 bytes; the slots past what seven bits name are all one value there
 * ("far", ftrace_update.c), and a far slot's trampoline is as fast as any
 * other.  A slot's bookkeeping is allocated the first time the slot is
 * taken and kept for reuse, so the table costs a pointer per slot until
 * that many ops are registered at once.  An ops that finds no free slot
 * (the 1024th at once) has no trampoline for the time being: its sites
 * call the shared trampolines and the list function, as every ops' would
 * without this file, until a slot is freed and it is given that one
 * (ftrace_ops_adopt_slots()).
 *
 * Lifetime: an ops takes a slot when it registers and lets go of it once
 * unregistering has moved every site off it.  The slot is reused, and
 * the arch frees what it built, only after synchronize_rcu_tasks() (a
 * task may have been preempted inside the trampoline) and
 * synchronize_rcu_tasks_rude() (idle and offline paths, and the lockless
 * lookups below).  An ops that may be freed waits for both as it
 * unregisters anyway, and its trampoline goes right after that wait; a
 * static ops' unregistration does not wait, so its trampoline goes later,
 * from a work item that waits for them itself.  Meanwhile it calls
 * ftrace_stub, never the ops that let go of it.
 * The wait covers every kind of trampoline: an arch whose sites name
 * their slot by number (arm64) must not see the number reused under a
 * CPU that read it just before its site moved.  A trampoline that sites
 * still call because ftrace died on the way is kept for good, calling
 * ftrace_stub.
 *
 * What the arch builds is code in module memory, named in kallsyms and
 * announced to perf (a size), or has no code of its own (size 0: x86's
 * ftrace_graph_caller, arm64's slot entries).
 *
 * Lookups by address (the ORC unwinder, core_kernel_text(), kallsyms) run
 * locklessly in any context.  They see a slot only while its address is
 * published, and are told about it through a private copy of the ops'
 * flags and addresses, which lives as long as the slot.  perf is told
 * too (PERF_RECORD_KSYMBOL, as for BPF programs), so that a profile names
 * samples that land in a trampoline after it is gone.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "ftrace_internal.h"

struct ftrace_tramp {
	unsigned long		addr;		/* published: lookups see it */
	unsigned long		mem;		/* 0: slot free */
	unsigned long		size;		/* 0: no code of its own */
	ftrace_func_t		func;		/* what it calls now */
	struct ftrace_ops	*ops;		/* owner; NULL once let go */
	unsigned int		sites;		/* sites calling it now */
	bool			reaping;	/* its grace periods have begun */
	unsigned int		slot;		/* its number, fixed */
	struct ftrace_ops	desc;		/* what the unwinder is told */
};

/* The name kallsyms and perf give every trampoline, as upstream does. */
#define TRAMP_SYM	"ftrace_trampoline"

/*
 * Slot 0 is never used: a zero slot number in a record means "none".
 * Entries 1..tramps_hi have been allocated; lockless lookups walk only
 * those.  Neither an entry nor tramps_hi ever goes back.
 */
static struct ftrace_tramp *tramps[FTRACE_TRAMP_SLOTS + 1];
static unsigned int tramps_hi;

/*
 * Every trampoline with code of its own that was ever published lies in
 * [tramps_lo, tramps_end); the span only grows.  Most lookups are for
 * addresses no trampoline holds: every stack trace that ends in user mode
 * (KASAN's and kmemleak's on each allocation, lockdep's, perf's
 * callchains) asks kernel_text_address() about the user address last, so
 * they are turned away here without walking the slots.
 */
static unsigned long tramps_lo = ULONG_MAX;
static unsigned long tramps_end;

static void reap_work_fn(struct work_struct *work);
static DECLARE_WORK(reap_work, reap_work_fn);

/* The entry after slot *@i among those allocated so far, or NULL. */
static inline struct ftrace_tramp *tramp_next(unsigned int *i)
{
	/*
	 * Pairs with the release in tramp_free_slot(): a lockless walk that
	 * sees a bound sees every entry below it.
	 */
	if (++*i > smp_load_acquire(&tramps_hi))
		return NULL;
	return tramps[*i];
}

/* Every slot allocated so far; under ftrace_lock, or lockless. */
#define for_each_tramp(t)						\
	for (unsigned int __slot = 0; (t = tramp_next(&__slot)); )

/*
 * The first free slot, allocating it if need be; ERR_PTR(-ENOSPC) if
 * every slot is taken, ERR_PTR(-ENOMEM).
 */
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
 * Without a free slot or memory the ops goes without: its sites call the
 * shared trampolines.
 *
 * Context: ftrace_lock held.
 * Return: 0 if @ops has a trampoline now or needs none, -ENOSPC if every
 * slot is taken, -ENOMEM if the slot or the arch's code could not be
 * allocated.
 */
int ftrace_tramp_get(struct ftrace_ops *ops)
{
	ftrace_func_t func = ftrace_ops_get_func(ops);
	unsigned long addr, size = 0;
	struct ftrace_tramp *t;

	ftrace_assert_locked();
	/* The direct-call ops' sites call their own functions. */
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
	 * The span covers the code before a lookup can find the slot.  A
	 * lookup that saw the old span cannot be unwinding this code: it
	 * runs only once sites are patched to call it, and patching
	 * synchronizes every CPU after this.
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

/* Point @t's call at @func; 0 or the arch's error. */
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

/*
 * Lookups stop finding @t; its memory goes after the grace periods: the
 * caller's (@waits), or the work item's.
 */
static void tramp_release(struct ftrace_tramp *t, bool waits)
{
	t->ops = NULL;
	if (t->sites)
		return;		/* ftrace died with sites on it: kept */
	if (t->size)
		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, t->addr, t->size, true,
				   TRAMP_SYM);
	WRITE_ONCE(t->addr, 0);
	if (!waits)
		schedule_work(&reap_work);
}

/* Free a released slot's code; the slot can be taken again. */
static void tramp_free(struct ftrace_tramp *t)
{
	ftrace_arch_tramp_free(t->mem);
	t->mem = 0;
	t->reaping = false;
}

/*
 * From now on @t, which no site calls, calls ftrace_stub.  A task
 * preempted inside it before it loaded the callback resumes whenever the
 * scheduler lets it, possibly long after the ops was unregistered; it
 * must not call the ops then: a static ops' tracer may be on again by
 * that time, with another filter, and would record a function it does
 * not trace (the boot self-test's "filter did not filter", which one
 * arm64 boot in 93 failed; this is one reading of it).  Never inside a
 * batch: x86 patches the call under text_mutex, which a batch holds.
 * Dead, its sites call it for good: only the trampoline of an ops that
 * outlived the anomaly still calls its callback (ftrace_tramps_stop()),
 * and that ops' owner may free it once this unregistration returns.
 */
static void tramp_stop(struct ftrace_tramp *t)
{
	int ret;

	if (t->func == ftrace_stub || (t->sites && !ftrace_dead))
		return;
	ret = tramp_set(t, ftrace_stub);
	if (ftrace_dead)
		return;
	/* x86's ftrace_graph_caller calls a fixed function: -EOPNOTSUPP. */
	if (ret && ret != -EOPNOTSUPP)
		ftrace_anomaly("patching a trampoline's callback", t->mem, ret);
}

/**
 * ftrace_tramp_put - an unregistered ops lets go of its trampoline
 * @ops: the ops, off the list, with its sites already moved
 * @waits: the caller waits for the grace periods, then calls
 *	ftrace_tramps_reap(), before it lets go of ftrace_lock
 *
 * Context: ftrace_lock held.
 */
void ftrace_tramp_put(struct ftrace_ops *ops, bool waits)
{
	unsigned int slot = ops->tramp_slot;

	ftrace_assert_locked();
	if (!slot)
		return;
	ops->tramp_slot = 0;
	ops->trampoline = 0;
	ops->trampoline_size = 0;
	tramp_stop(tramps[slot]);
	tramp_release(tramps[slot], waits);
}

/**
 * ftrace_tramps_reap - free every trampoline let go of so far
 *
 * Also frees those the work item is waiting for: the caller's grace
 * periods began after they were let go too.
 *
 * Context: ftrace_lock held since the last ftrace_tramp_put(), then
 * synchronize_rcu_tasks_rude() and, with CONFIG_PREEMPTION,
 * synchronize_rcu_tasks() (without it no task is preempted inside a
 * trampoline).
 * Return: how many were freed (their slots are free now).
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

static void reap_work_fn(struct work_struct *work)
{
	bool again = false, freed = false;
	struct ftrace_tramp *t;

	/* Only slots released before the grace periods begin are freed. */
	mutex_lock(&ftrace_lock);
	for_each_tramp(t)
		if (t->mem && !t->addr)
			t->reaping = true;
	mutex_unlock(&ftrace_lock);

	synchronize_rcu_tasks_rude();
	synchronize_rcu_tasks();

	mutex_lock(&ftrace_lock);
	for_each_tramp(t) {
		if (!t->reaping) {
			again |= t->mem && !t->addr;
			continue;
		}
		tramp_free(t);
		freed = true;
	}
	if (freed)
		ftrace_ops_adopt_slots();
	mutex_unlock(&ftrace_lock);
	if (again)
		schedule_work(&reap_work);
}

/**
 * ftrace_tramps_refresh - make each trampoline call what its ops needs now
 *
 * An ops' callback can change while it is registered (a pid filter set
 * on its trace array wraps it).  A trampoline whose call cannot change
 * (-EOPNOTSUPP from the arch: x86's ftrace_graph_caller) is given up: its
 * ops' sites use the shared trampolines.
 *
 * Context: ftrace_lock held, before the sites are recounted.
 * Return: 0, or the arch's error (after ftrace_anomaly()).
 */
int ftrace_tramps_refresh(void)
{
	struct ftrace_tramp *t;
	ftrace_func_t func;
	int ret;

	ftrace_assert_locked();
	for_each_tramp(t) {
		if (!t->ops)
			continue;
		func = ftrace_ops_get_func(t->ops);
		if (func == t->func)
			continue;
		ret = tramp_set(t, func);
		if (ret == -EOPNOTSUPP) {
			/* Its sites go back to the shared trampolines. */
			ftrace_tramp_put(t->ops, false);
			ftrace_touch_all();
			continue;
		}
		if (ret) {
			ftrace_anomaly("patching a trampoline's callback", t->mem, ret);
			return ret;
		}
	}
	return 0;
}

/**
 * ftrace_tramps_stop - point every tracer's trampoline at ftrace_stub
 *
 * Called once, when ftrace dies.  The trampoline of an ops that outlives
 * it (ftrace_ops_outlives_death()) keeps calling until that ops
 * unregisters.  A trampoline that cannot be changed (a fixed one, or one
 * whose call no longer reads as expected: the anomaly was reported
 * already) is left as it is.
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
 * @slot: a slot number, 1..FTRACE_TRAMP_SLOTS (a record's far value is
 *	not one: ftrace_rec_slot() gives the number)
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
 * @slot: a slot number, 1..FTRACE_TRAMP_SLOTS
 *
 * Context: ftrace_lock held.
 * Return: the callback.
 */
ftrace_func_t ftrace_tramp_func(unsigned int slot)
{
	ftrace_assert_locked();
	return tramps[slot]->func;
}

/**
 * ftrace_tramp_ops_func - the callback of slot @slot's ops
 * @slot: a slot number, 1..FTRACE_TRAMP_SLOTS
 *
 * What the ops asked to be called; the trampoline may call it through a
 * wrapper (ftrace_tramp_func()).
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
 * A trampoline whose ops let go while ftrace was dead is released when
 * its last site leaves it.
 *
 * Context: ftrace_lock held.
 */
void ftrace_tramp_sites(unsigned int slot, int delta)
{
	struct ftrace_tramp *t;

	ftrace_assert_locked();
	if (!slot)
		return;
	t = tramps[slot];
	t->sites += delta;
	if (!t->sites && !t->ops && t->addr)
		tramp_release(t, false);
}

/* The dynamic trampoline holding @addr, or NULL; lockless. */
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
 * The ORC unwinder maps an address in a trampoline to the same offset in
 * the code it was copied from (ftrace_caller, or ftrace_regs_caller with
 * FTRACE_OPS_FL_SAVE_REGS).  What it gets is the core's description of
 * the trampoline, with the owner's flags and addresses, valid for as long
 * as the trampoline exists, whether or not the owner still does.
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
 * @sym: KSYM_NAME_LEN bytes for the name, "ftrace_trampoline"
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
 * @name: KSYM_NAME_LEN bytes for "ftrace_trampoline"
 * @module_name: MODULE_NAME_LEN bytes for "__builtin__ftrace"
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
