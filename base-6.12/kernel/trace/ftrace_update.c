// SPDX-License-Identifier: GPL-2.0
/*
 * Turning call sites on and off: recount which ops want each record, then
 * patch only the sites whose instruction must change, in one batch of
 * breakpoint-based text patching.  Anything unexpected at a site is an
 * anomaly that stops function tracing for good.
 * See Documentation/trace/ftrace-core-design.rst.
 */
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/timex.h>
#include <linux/workqueue.h>

#include "trace.h"
#include "ftrace_internal.h"
#include "ftrace_wants.h"

static ftrace_func_t cur_callback = ftrace_stub;

/* Set through tracefs; the arch reports that many sites as mismatched. */
atomic_t ftrace_inject_mismatch = ATOMIC_INIT(0);

/**
 * ftrace_check_ipmodify - refuse sites another IPMODIFY ops owns
 * @ops: an IPMODIFY ops
 * @filter: the filter it would have
 * @notr: the notrace hash it would have
 *
 * An empty @filter is refused: it would redirect every function.
 *
 * Context: ftrace_lock held.
 * Return: 0, -EINVAL for an empty @filter, or -EBUSY.
 */
int ftrace_check_ipmodify(struct ftrace_ops *ops, struct ftrace_hash *filter,
			  struct ftrace_hash *notr)
{
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	struct ftrace_ops *op;

	ftrace_assert_locked();
	if (ftrace_hash_empty(filter))
		return -EINVAL;
	for_each_ftrace_group(g) {
		for_each_group_rec(g, rec) {
			unsigned long ip = ftrace_rec_ip(g, rec);

			/* A loading module's records are not counted yet. */
			if (g->ready && !(rec->flags & FTRACE_REC_IPMODIFY))
				continue;
			if (!ftrace_hash_empty(filter) && !ftrace_lookup_ip(filter, ip))
				continue;
			if (ftrace_lookup_ip(notr, ip))
				continue;
			for_each_ftrace_op(op, ftrace_ops_list) {
				if (op != ops && (op->flags & FTRACE_OPS_FL_IPMODIFY) &&
				    ftrace_ops_wants(op, ip))
					return -EBUSY;
			}
		}
	}
	return 0;
}

static __always_inline u32 op_needs(const struct ftrace_ops *op)
{
	return (op->flags & FTRACE_OPS_FL_SAVE_REGS ? FTRACE_REC_REGS : 0) |
	       (op->flags & FTRACE_OPS_FL_IPMODIFY ? FTRACE_REC_IPMODIFY : 0) |
	       (op->role == FTRACE_ROLE_DIRECT ? FTRACE_REC_DIRECT : 0);
}

/* The slot as a record holds it: every slot from FAR on reads as FAR. */
static __always_inline u32 tramp_field(unsigned int slot)
{
	return FIELD_PREP(FTRACE_REC_TRAMP, min_t(u32, slot, FTRACE_REC_SLOT_FAR));
}

static __always_inline u32 rec_recount(u32 flags, unsigned long ip,
				       struct ftrace_ops *list,
				       struct ftrace_ops **only)
{
	struct ftrace_ops *op;
	u32 count = 0;

	*only = NULL;
	flags &= FTRACE_REC_KEEP;
	if (flags & FTRACE_REC_FREED)
		return flags;
	for_each_ftrace_op(op, list) {
		if (op->role == FTRACE_ROLE_SITES || !__ftrace_ops_wants(op, ip))
			continue;
		count++;
		*only = op;
		flags |= op_needs(op);
	}
	if (count == 1 && (*only)->tramp_slot)
		flags |= tramp_field((*only)->tramp_slot);
	return flags | min_t(u32, count, FTRACE_REC_REF_MASK);
}

/**
 * ftrace_rec_recount - a record's flags, recounted against a list of ops
 * @flags: the record's flags now
 * @ip: its call site
 * @list: the ops to count: ftrace_ops_list (or a test's own list)
 *
 * Return: @flags with the count, needs and (for a single ops) trampoline
 * slot recomputed; FTRACE_REC_KEEP's bits kept, TOUCHED cleared.
 */
u32 ftrace_rec_recount(u32 flags, unsigned long ip, struct ftrace_ops *list)
{
	struct ftrace_ops *only;

	return rec_recount(flags, ip, list, &only);
}

/**
 * ftrace_rec_wanted - the state a record's site must be in
 * @flags: the record's flags after ftrace_rec_recount()
 * @enabled: kernel.ftrace_enabled
 *
 * Return: 0 for a NOP, else FTRACE_REC_ENABLED with DIRECT_EN, REGS_EN
 * and TRAMP_EN saying what the call goes to.
 */
u32 ftrace_rec_wanted(u32 flags, bool enabled)
{
	u32 want;

	if (!enabled || !(flags & FTRACE_REC_REF_MASK) || (flags & FTRACE_REC_FREED))
		return 0;
	if ((flags & FTRACE_REC_DIRECT) && (flags & FTRACE_REC_REF_MASK) == 1)
		return FTRACE_REC_ENABLED | FTRACE_REC_DIRECT_EN;
	want = FTRACE_REC_ENABLED | (flags & FTRACE_REC_REGS ? FTRACE_REC_REGS_EN : 0);
	return want | FIELD_PREP(FTRACE_REC_TRAMP_EN, FIELD_GET(FTRACE_REC_TRAMP, flags));
}

/* Set by a change that may alter any site's count; cleared by recount(). */
static bool touched_all = true;

/**
 * ftrace_touch_all - the next ftrace_apply_touched() recounts every site
 *
 * Context: ftrace_lock held.
 */
void ftrace_touch_all(void)
{
	ftrace_assert_locked();
	touched_all = true;
}

/**
 * ftrace_touch_sites - mark the sites an ops' filter can reach, for recounting
 * @filter: the ops' filter hash, before or after a change (call it for both)
 *
 * An empty filter reaches every site.
 *
 * Context: ftrace_lock held.
 */
void ftrace_touch_sites(struct ftrace_hash *filter)
{
	struct ftrace_func_entry *entry;
	struct dyn_ftrace *rec;
	int i;

	ftrace_assert_locked();
	if (ftrace_hash_empty(filter)) {
		touched_all = true;
		return;
	}
	ftrace_hash_for_each(filter, i, entry) {
		rec = ftrace_find_rec(entry->ip, NULL);
		if (rec)
			rec->flags |= FTRACE_REC_TOUCHED;
	}
}

/**
 * ftrace_touch_group - mark every site of a new group for recounting
 * @g: the group
 *
 * Context: ftrace_lock held.
 */
void ftrace_touch_group(struct ftrace_group *g)
{
	struct dyn_ftrace *rec;

	ftrace_assert_locked();
	for_each_group_rec(g, rec)
		rec->flags |= FTRACE_REC_TOUCHED;
}

/*
 * CONFIG_FTRACE_RECOUNT_CHECK (or ftrace_recount_check=): after each
 * recount, check every site against a full recount, so that a partial
 * recount that missed a changed site is caught and put right.
 */
static bool recount_check_on = IS_ENABLED(CONFIG_FTRACE_RECOUNT_CHECK);

static int __init set_recount_check(char *str)
{
	return !kstrtobool(str, &recount_check_on);
}
__setup("ftrace_recount_check=", set_recount_check);

static unsigned int owner_slot(unsigned long ip, struct ftrace_ops **hint);
static unsigned int site_slot(u32 flags, unsigned long ip);

static void recount_check(struct ftrace_ops *list)
{
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	unsigned long ip;
	struct ftrace_ops *hint = NULL;
	u32 full, want;

	for_each_ftrace_group(g) {
		if (!g->ready)
			continue;
		for_each_group_rec(g, rec) {
			ip = ftrace_rec_ip(g, rec);
			full = ftrace_rec_recount(rec->flags, ip, list);
			if (WARN_ONCE(full != rec->flags,
				      "ftrace: stale count at %pS: %#x, recounted %#x\n",
				      (void *)ip, rec->flags, full))
				rec->flags = full;
			/*
			 * The flags cannot tell two far slots apart, so an
			 * untouched far site must call its ops' slot.
			 */
			want = ftrace_rec_wanted(full, ftrace_enabled);
			if (want == (full & FTRACE_REC_SITE) &&
			    FIELD_GET(FTRACE_REC_TRAMP_EN, want) == FTRACE_REC_SLOT_FAR)
				WARN_ONCE(owner_slot(ip, &hint) != site_slot(full, ip),
					  "ftrace: %pS calls far slot %u, its ops has %u\n",
					  (void *)ip, site_slot(full, ip), owner_slot(ip, &hint));
		}
		cond_resched();
	}
}

/* Count @op on @rec as ftrace_rec_recount() would. */
static void rec_add_op(struct dyn_ftrace *rec, struct ftrace_ops *op,
		       struct ftrace_ops **far_owner)
{
	u32 flags = rec->flags, count = flags & FTRACE_REC_REF_MASK;

	flags = (flags & ~FTRACE_REC_TRAMP) | op_needs(op);
	if (!count && op->tramp_slot) {
		flags |= tramp_field(op->tramp_slot);
		if (op->tramp_slot >= FTRACE_REC_SLOT_FAR)
			*far_owner = op;
	}
	rec->flags = flags + (count < FTRACE_REC_REF_MASK);
}

static void add_op_everywhere(struct ftrace_ops *op, struct ftrace_hash *notr,
			      struct ftrace_ops **far_owner)
{
	struct ftrace_group *g;
	struct dyn_ftrace *rec;

	for_each_ftrace_group(g) {
		if (!g->ready)
			continue;
		for_each_group_rec(g, rec) {
			if (rec->flags & FTRACE_REC_FREED)
				continue;
			if (notr && ftrace_lookup_ip(notr, ftrace_rec_ip(g, rec)))
				continue;
			rec_add_op(rec, op, far_owner);
		}
		cond_resched();
	}
}

/*
 * Recount ops by ops rather than record by record: an ops with a filter
 * visits only its filter's records, instead of every record asking every
 * ops.
 */
static void recount_all(struct ftrace_ops *list, struct ftrace_ops **far_owner)
{
	struct ftrace_hash *filter, *notr;
	struct ftrace_func_entry *entry;
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	struct ftrace_ops *op;
	int i;

	for_each_ftrace_group(g) {
		if (!g->ready)
			continue;
		for_each_group_rec(g, rec)
			rec->flags &= FTRACE_REC_KEEP;
	}
	for_each_ftrace_op(op, list) {
		if (op->role == FTRACE_ROLE_SITES)
			continue;
		filter = NULL;
		notr = NULL;
		if (op->func_hash) {
			filter = rcu_dereference_protected(op->func_hash->filter_hash, 1);
			notr = rcu_dereference_protected(op->func_hash->notrace_hash, 1);
		}
		/* An empty hash may still hold a :mod: flag, but no entry. */
		if (ftrace_hash_empty(notr))
			notr = NULL;
		if (ftrace_hash_empty(filter)) {
			add_op_everywhere(op, notr, far_owner);
			continue;
		}
		ftrace_hash_for_each(filter, i, entry) {
			rec = ftrace_find_rec(entry->ip, &g);
			if (!rec || !g->ready || (rec->flags & FTRACE_REC_FREED))
				continue;
			if (notr && ftrace_lookup_ip(notr, entry->ip))
				continue;
			rec_add_op(rec, op, far_owner);
		}
		cond_resched();
	}
}

/*
 * Recount the touched records, or all of them.  Return: how many sites
 * must change.  *@far_owner gets an ops counted for a far slot, or NULL,
 * as owner_slot()'s first guess.
 */
static unsigned int recount(struct ftrace_ops **far_owner)
{
	struct ftrace_group *g;
	struct ftrace_ops *list = rcu_dereference_protected(ftrace_ops_list, 1);
	struct ftrace_ops *only;
	struct dyn_ftrace *rec;
	bool all = touched_all;
	unsigned int changes = 0;
	u32 flags;

	*far_owner = NULL;
	touched_all = false;
	if (all)
		recount_all(list, far_owner);
	for_each_ftrace_group(g) {
		if (!g->ready)
			continue;
		for_each_group_rec(g, rec) {
			if (!all) {
				if (!(rec->flags & FTRACE_REC_TOUCHED))
					continue;
				rec->flags = rec_recount(rec->flags, ftrace_rec_ip(g, rec),
							 list, &only);
				if (FIELD_GET(FTRACE_REC_TRAMP, rec->flags) == FTRACE_REC_SLOT_FAR)
					*far_owner = only;
			}
			flags = rec->flags;
			changes += ftrace_rec_wanted(flags, ftrace_enabled) !=
				   (flags & FTRACE_REC_SITE);
		}
		cond_resched();
	}
	if (recount_check_on)
		recount_check(list);
	return changes;
}

/*
 * ip -> slot (in ->direct) of the sites calling a far slot; patcher only,
 * under ftrace_lock.  A site whose entry cannot be allocated calls the
 * shared trampolines instead, which is always right.
 */
static struct ftrace_hash *far_sites;

/* A far site missing from the table gets 0, so its next patch is an anomaly. */
static unsigned int site_slot(u32 flags, unsigned long ip)
{
	unsigned int slot = FIELD_GET(FTRACE_REC_TRAMP_EN, flags);
	struct ftrace_func_entry *e;

	if (slot != FTRACE_REC_SLOT_FAR)
		return slot;
	e = ftrace_lookup_ip(far_sites, ip);
	return e ? e->direct : 0;
}

/*
 * The slot of the one ops that wants @ip (count 1).  *@hint caches the
 * last owner: sites of one ops come in rows.
 */
static unsigned int owner_slot(unsigned long ip, struct ftrace_ops **hint)
{
	struct ftrace_ops *op = *hint;

	if (op && __ftrace_ops_wants(op, ip))
		return op->tramp_slot;
	for_each_ftrace_op(op, ftrace_ops_list) {
		if (op->role != FTRACE_ROLE_SITES && __ftrace_ops_wants(op, ip)) {
			*hint = op;
			return op->tramp_slot;
		}
	}
	return 0;
}

static int far_site_set(unsigned long ip, unsigned int slot)
{
	struct ftrace_func_entry *e;

	if (!far_sites)
		far_sites = ftrace_hash_alloc(ftrace_hash_bits_for(FTRACE_TRAMP_SLOTS));
	if (!far_sites || ftrace_hash_add(far_sites, ip))
		return -ENOMEM;
	e = ftrace_lookup_ip(far_sites, ip);
	e->direct = slot;
	return 0;
}

static __always_inline unsigned long rec_target(u32 flags, unsigned long ip,
						unsigned int slot)
{
	if (!(flags & FTRACE_REC_ENABLED))
		return 0;
	if (flags & FTRACE_REC_DIRECT_EN)
		return ftrace_find_rec_direct(ip);
	if (slot)
		return ftrace_tramp_addr(slot);
	return flags & FTRACE_REC_REGS_EN ? (unsigned long)ftrace_regs_caller :
					    (unsigned long)ftrace_caller;
}

/**
 * ftrace_rec_slot - the trampoline slot a site in state @flags calls
 * @flags: a record's flags; only FTRACE_REC_SITE counts
 * @ip: the site
 *
 * Context: ftrace_lock held.
 * Return: the slot, also a far one, or 0 if the site calls none.
 */
unsigned int ftrace_rec_slot(u32 flags, unsigned long ip)
{
	ftrace_assert_locked();
	return site_slot(flags, ip);
}

/**
 * ftrace_rec_target - what a site in state @flags calls
 * @flags: a record's flags; only FTRACE_REC_SITE counts
 * @ip: the site (for its direct function)
 *
 * Context: ftrace_lock held.
 * Return: the trampoline's or direct function's address, or 0 for a NOP.
 */
unsigned long ftrace_rec_target(u32 flags, unsigned long ip)
{
	return rec_target(flags, ip, ftrace_rec_slot(flags, ip));
}

/* Per-trampoline site counts, batched over a row of sites on one slot. */
struct slot_moves {
	unsigned int	slot;
	int		n;
};

/* A run of sites on one slot ends: count them, reap a trampoline let go. */
static noinline void slot_moves_flush(struct slot_moves *m, unsigned int slot)
{
	if (ftrace_tramp_sites(m->slot, m->n))
		ftrace_tramps_reap_later();
	m->slot = slot;
	m->n = 0;
}

/* Inline: the patch loop moves every changed site through it twice. */
static __always_inline void slot_move(struct slot_moves *m, unsigned int slot, int delta)
{
	if (unlikely(slot != m->slot))
		slot_moves_flush(m, slot);
	m->n += delta;
}

static void slot_moves_end(struct slot_moves *m)
{
	slot_move(m, 0, 0);
}

/* A record's text is gone: it no longer holds its trampoline. */
static void rec_forget(struct dyn_ftrace *rec, unsigned long ip,
		       struct slot_moves *off)
{
	if (!(rec->flags & FTRACE_REC_SITE))
		return;
	slot_move(off, site_slot(rec->flags, ip), -1);
	if (FIELD_GET(FTRACE_REC_TRAMP_EN, rec->flags) == FTRACE_REC_SLOT_FAR)
		ftrace_hash_remove(far_sites, ip);
	rec->flags &= ~FTRACE_REC_SITE;
}

/*
 * The slot a site must call in state @want.  Without memory for a far
 * site's entry, @want falls back to the shared trampoline.
 */
static unsigned int want_slot(u32 *want, unsigned long ip,
			      struct ftrace_ops **hint)
{
	unsigned int slot = FIELD_GET(FTRACE_REC_TRAMP_EN, *want);

	if (slot != FTRACE_REC_SLOT_FAR)
		return slot;
	slot = owner_slot(ip, hint);
	if (slot >= FTRACE_REC_SLOT_FAR && !far_site_set(ip, slot))
		return slot;
	*want &= ~FTRACE_REC_TRAMP_EN;
	return 0;
}

struct patch_state {
	struct slot_moves	on, off;
	struct ftrace_ops	*hint;
};

/* Kept out of line so as not to slow down the loop over every record. */
static noinline int patch_one(struct dyn_ftrace *rec, unsigned long ip, u32 want,
			      struct patch_state *ps)
{
	unsigned int old_slot = site_slot(rec->flags, ip);
	unsigned int new_slot = want_slot(&want, ip, &ps->hint);
	int ret;

	if (want == (rec->flags & FTRACE_REC_SITE))
		return 0;
	ret = ftrace_arch_patch_site(ip, rec_target(rec->flags, ip, old_slot),
				     rec_target(want, ip, new_slot));
	if (ret)
		return ret;
	if (FIELD_GET(FTRACE_REC_TRAMP_EN, rec->flags) == FTRACE_REC_SLOT_FAR &&
	    FIELD_GET(FTRACE_REC_TRAMP_EN, want) != FTRACE_REC_SLOT_FAR)
		ftrace_hash_remove(far_sites, ip);
	if (old_slot != new_slot) {
		slot_move(&ps->off, old_slot, -1);
		slot_move(&ps->on, new_slot, 1);
	}
	rec->flags = (rec->flags & ~FTRACE_REC_SITE) | want;
	if (want) {
		rec->flags |= FTRACE_REC_USED;
		if (rec->flags & (FTRACE_REC_DIRECT | FTRACE_REC_IPMODIFY))
			rec->flags |= FTRACE_REC_MODIFIED;
	}
	return 0;
}

static int patch_sites(unsigned int changes, struct ftrace_ops *hint)
{
	struct patch_state ps = { .hint = hint };
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	unsigned long ip = 0;
	u32 want;
	int ret = 0;

	ftrace_arch_patch_begin(changes);
	for_each_ftrace_group(g) {
		if (!g->ready)
			continue;
		for_each_group_rec(g, rec) {
			/*
			 * A freed record's text is gone.  Equal flags could hide
			 * a move between two far slots, but an ops hands a site
			 * to another only via a shared or NOP state in between.
			 */
			want = ftrace_rec_wanted(rec->flags, ftrace_enabled);
			if (want == (rec->flags & FTRACE_REC_SITE) ||
			    (rec->flags & FTRACE_REC_FREED))
				continue;
			ip = ftrace_rec_ip(g, rec);
			ret = patch_one(rec, ip, want, &ps);
			if (ret)
				break;
		}
		if (ret)
			break;
	}
	slot_moves_end(&ps.off);
	slot_moves_end(&ps.on);
	ftrace_arch_patch_end();
	if (ret)
		ftrace_anomaly("patching a call site", ip, ret);
	return ret;
}

/**
 * ftrace_set_callback - what ftrace_caller and ftrace_regs_caller call
 * @func: the callback
 *
 * Context: ftrace_lock held.
 * Return: 0, or the arch's error (after ftrace_anomaly()).
 */
int ftrace_set_callback(ftrace_func_t func)
{
	int ret;

	ftrace_assert_locked();
	if (func == cur_callback)
		return 0;
	ret = ftrace_arch_set_callback(cur_callback, func);
	if (ret) {
		ftrace_anomaly("patching the trampoline's callback",
			       (unsigned long)ftrace_caller, ret);
		return ret;
	}
	cur_callback = func;
	return 0;
}

/**
 * ftrace_shared_callback - what the shared trampolines call, and with which op
 * @list: the ops to serve: ftrace_ops_list (or a test's own list)
 * @enabled: kernel.ftrace_enabled
 * @opp: set to the op to publish in function_trace_op
 *
 * Only an ops that is never freed is called directly: a task preempted
 * between the trampoline's loads of the op and of the callback may pair
 * an op with another's callback.  A freeable ops goes through the list
 * function, which ignores function_trace_op.
 *
 * Return: ftrace_stub, ftrace_ops_list_func, or one ops' function.
 */
ftrace_func_t ftrace_shared_callback(struct ftrace_ops *list, bool enabled,
				     struct ftrace_ops **opp)
{
	struct ftrace_ops *op, *only = NULL;
	int n = 0;

	*opp = &ftrace_list_end;
	if (!enabled)
		return ftrace_stub;
	for_each_ftrace_op(op, list) {
		if (op->role == FTRACE_ROLE_SITES)
			continue;
		only = op;
		n++;
	}
	if (!n)
		return ftrace_stub;
	if (n > 1 || (only->flags & FTRACE_OPS_FL_DYNAMIC))
		return ftrace_ops_list_func;
	*opp = only;
	return ftrace_ops_get_func(only);
}

/**
 * ftrace_apply - bring every site and the callback in line with the ops
 *
 * Context: ftrace_lock held.
 * Return: 0, or -ENODEV if ftrace is (or just became) dead.
 */
int ftrace_apply(void)
{
	ftrace_touch_all();
	return ftrace_apply_touched();
}

/**
 * ftrace_apply_touched - ftrace_apply(), recounting only the touched sites
 *
 * For a change to one ops whose filters, before and after, were passed to
 * ftrace_touch_sites().  The list function, right whatever the sites hold,
 * is installed while sites change; a single ops' callback only after.
 *
 * Context: ftrace_lock held.
 * Return: 0, or -ENODEV if ftrace is (or just became) dead.
 */
int ftrace_apply_touched(void)
{
	struct ftrace_ops *op, *far_owner;
	unsigned long where;
	unsigned int changes;
	ftrace_func_t func;
	int ret;

	ftrace_assert_locked();
	if (ftrace_dead)
		return -ENODEV;

	ret = ftrace_tramps_refresh(&where);
	if (ret < 0) {
		ftrace_anomaly("patching a trampoline's callback", where, ret);
		return -ENODEV;
	}
	if (ret == FTRACE_TRAMPS_GAVE_UP) {
		ftrace_touch_all();
		ftrace_tramps_reap_later();
	}
	changes = recount(&far_owner);
	func = ftrace_shared_callback(rcu_dereference_protected(ftrace_ops_list, 1),
				      ftrace_enabled, &op);

	if (cur_callback != func && cur_callback != ftrace_stub &&
	    ftrace_set_callback(ftrace_ops_list_func))
		return -ENODEV;
	if (patch_sites(changes, far_owner))
		return -ENODEV;
	if (func != ftrace_ops_list_func) {
		WRITE_ONCE(function_trace_op, op);
		/* Published before any CPU can reach the new callback. */
		smp_wmb();
	}
	if (ftrace_set_callback(func))
		return -ENODEV;
	ftrace_last_enabled = ftrace_enabled;
	return 0;
}

/**
 * ftrace_touch_ops - the next ftrace_apply_touched() recounts an ops' sites
 * @ops: the ops, with the filter it has had since its sites were counted
 *
 * Context: ftrace_lock held.
 */
void ftrace_touch_ops(struct ftrace_ops *ops)
{
	if (!ops->func_hash)
		ftrace_touch_all();
	else
		ftrace_touch_sites(rcu_dereference_protected(ops->func_hash->filter_hash, 1));
}

/**
 * ftrace_adopt_slots - give freed trampoline slots to ops without one
 *
 * An ops that registered while no slot was free should not stay on the
 * shared trampolines' slow path for its lifetime.
 *
 * Context: ftrace_lock held, after ftrace_tramps_reap() freed something.
 */
void ftrace_adopt_slots(void)
{
	struct ftrace_ops *op;
	bool moved = false;
	int ret = 0;

	ftrace_assert_locked();
	if (ftrace_dead)
		return;
	for (op = rcu_dereference_protected(ftrace_ops_list, 1);
	     op != &ftrace_list_end && ret != -ENOSPC;
	     op = rcu_dereference_protected(op->next, 1)) {
		if (op->tramp_slot)
			continue;
		ret = ftrace_tramp_get(op);
		if (op->tramp_slot) {
			ftrace_touch_ops(op);
			moved = true;
		}
	}
	if (moved)
		ftrace_apply_touched();
}

/* Frees let-go trampolines after the grace periods, without ftrace_lock. */
static void reap_work_fn(struct work_struct *work);
static DECLARE_WORK(reap_work, reap_work_fn);

static void reap_work_fn(struct work_struct *work)
{
	bool more;

	mutex_lock(&ftrace_lock);
	ftrace_tramps_mark();
	mutex_unlock(&ftrace_lock);

	synchronize_rcu_tasks_rude();
	synchronize_rcu_tasks();

	mutex_lock(&ftrace_lock);
	if (ftrace_tramps_reap_marked(&more))
		ftrace_adopt_slots();
	mutex_unlock(&ftrace_lock);
	if (more)
		schedule_work(&reap_work);
}

/**
 * ftrace_tramps_reap_later - free let-go trampolines once it is safe
 *
 * For a caller that does not wait for the grace periods itself.
 *
 * Context: ftrace_lock held.
 */
void ftrace_tramps_reap_later(void)
{
	if (ftrace_tramps_pending())
		schedule_work(&reap_work);
}

/**
 * ftrace_anomaly - code patching went wrong: stop function tracing
 * @what: what was being done
 * @ip: where
 * @err: the arch's error (-EFAULT: unreadable, -EINVAL: unexpected bytes)
 *
 * Marks ftrace dead and points the trampolines at ftrace_stub, except for
 * ops that outlive death (live patches, direct calls).  Sites are never
 * touched again: code that did not look as expected is better left alone.
 *
 * Context: ftrace_lock held.
 */
void ftrace_anomaly(const char *what, unsigned long ip, int err)
{
	ftrace_assert_locked();
	if (ftrace_dead)
		return;
	ftrace_dead = 1;
	ftrace_enabled = 0;
	/* Kprobes on ftrace sites stop too: their handler checks. */
	kprobe_ftrace_kill();
	WARN(1, "ftrace: anomaly while %s at %pS (%px): %s; function tracing is disabled until reboot\n",
	     what, (void *)ip, (void *)ip,
	     err == -EFAULT ? "text not readable" : "unexpected instruction");
	if (cur_callback != ftrace_stub) {
		ftrace_func_t func = ftrace_ops_any_outlives_death() ?
				     ftrace_ops_dead_list_func : ftrace_stub;

		if (!ftrace_arch_set_callback(cur_callback, func))
			cur_callback = func;
	}
	ftrace_tramps_stop();
}

/*
 * One site that calls its direct function itself: from what @funcs says
 * it calls to @addr.  The batch begins at the first site that changes,
 * so a call that changes none takes no text lock.
 */
static int retarget_one(unsigned long ip, struct ftrace_hash *funcs, unsigned long addr,
			unsigned int nr, bool *begun)
{
	struct ftrace_func_entry *entry = ftrace_lookup_ip(funcs, ip);
	struct dyn_ftrace *rec;

	if (!entry || !entry->direct || entry->direct == addr)
		return 0;
	rec = ftrace_find_rec(ip, NULL);
	if (!rec || !(rec->flags & FTRACE_REC_DIRECT_EN))
		return 0;
	if (!*begun) {
		ftrace_arch_patch_begin(nr);
		*begun = true;
	}
	return ftrace_arch_patch_site(ip, entry->direct, addr);
}

/**
 * ftrace_retarget_direct - make sites that call a direct function call another
 * @sites: the sites, or NULL for @ip alone
 * @ip: the site when @sites is NULL
 * @funcs: the direct function each site has now
 * @addr: the function they are to call
 *
 * Only a site that calls its direct function itself is patched; a shared
 * one reaches it through ftrace_regs_caller and @funcs, which the caller
 * then updates.
 *
 * Context: ftrace_lock held.
 * Return: 0, or -ENODEV after ftrace_anomaly(): the sites patched before
 * the failure call @addr.
 */
int ftrace_retarget_direct(struct ftrace_hash *sites, unsigned long ip,
			   struct ftrace_hash *funcs, unsigned long addr)
{
	struct ftrace_func_entry *site;
	bool begun = false;
	unsigned long i;
	int ret = 0;

	ftrace_assert_locked();
	if (!sites) {
		ret = retarget_one(ip, funcs, addr, 1, &begun);
		goto patched;
	}
	ftrace_hash_for_each(sites, i, site) {
		ip = site->ip;
		ret = retarget_one(ip, funcs, addr, sites->count, &begun);
		if (ret)
			goto patched;	/* a break would leave only the bucket */
	}
patched:
	if (begun)
		ftrace_arch_patch_end();
	if (!ret)
		return 0;
	ftrace_anomaly("patching a direct call", ip, ret);
	return -ENODEV;
}

static void unpatch_dead_site(unsigned long ip, unsigned long addr)
{
	struct dyn_ftrace *rec = ftrace_find_rec(ip, NULL);

	if (rec && (rec->flags & FTRACE_REC_DIRECT_EN) &&
	    !ftrace_arch_patch_site(ip, addr, 0))
		rec->flags &= ~FTRACE_REC_SITE;
}

/**
 * ftrace_unpatch_dead_direct - once ftrace is dead, unpatch the calls of @addr
 * @sites: the sites, or NULL for @ip alone
 * @ip: the site when @sites is NULL
 * @addr: a direct function whose owner is about to free it
 *
 * Sites are left alone after an anomaly, except that a call of @addr must
 * not outlive its registration: the owner frees @addr whatever the API
 * returned.  The arch leaves a site that does not hold that call.
 *
 * Context: ftrace_lock held.
 */
void ftrace_unpatch_dead_direct(struct ftrace_hash *sites, unsigned long ip,
				unsigned long addr)
{
	struct ftrace_func_entry *site;
	unsigned long i;

	ftrace_assert_locked();
	if (!ftrace_dead)
		return;
	ftrace_arch_patch_begin(0);
	if (sites) {
		ftrace_hash_for_each(sites, i, site)
			unpatch_dead_site(site->ip, addr);
	} else {
		unpatch_dead_site(ip, addr);
	}
	ftrace_arch_patch_end();
}

/**
 * ftrace_init_group_sites - make a new group's call sites NOPs
 * @g: the group, not published yet; its text is not running yet
 *
 * Context: no ftrace lock held (the arch may take its text lock).
 * Return: 0, or -ENODEV after ftrace_anomaly().
 */
int ftrace_init_group_sites(struct ftrace_group *g)
{
	struct dyn_ftrace *rec;
	int ret = 0;

	lockdep_assert_not_held(&ftrace_lock);
	ftrace_arch_init_begin();
	for_each_group_rec(g, rec) {
		ret = ftrace_arch_init_site(ftrace_rec_ip(g, rec));
		if (ret)
			break;
	}
	ftrace_arch_init_end();
	if (ret) {
		mutex_lock(&ftrace_lock);
		ftrace_anomaly("converting a call site to a NOP", ftrace_rec_ip(g, rec), ret);
		mutex_unlock(&ftrace_lock);
		return -ENODEV;
	}
	return 0;
}

/* FREED, with the flags a recount would give, so none finds it stale. */
static void rec_retire(struct dyn_ftrace *rec)
{
	struct ftrace_ops *only;

	rec->flags = rec_recount(rec->flags | FTRACE_REC_FREED, 0, NULL, &only);
}

/**
 * ftrace_retire_dead_sites - retire the records not at the start of a function
 * @g: the group
 * @syms: if not NULL, @g's module's sorted symbol addresses, merged instead
 *	of asking kallsyms per site
 * @nsyms: how many
 *
 * The body of a weak function the linker overrode keeps its site but not
 * its symbol, so such a record would be listed under the wrong name and
 * never fire.
 *
 * Context: ftrace_lock held, or @g not published yet.
 * Return: how many were retired.
 */
unsigned int ftrace_retire_dead_sites(struct ftrace_group *g,
				      const unsigned long *syms,
				      unsigned long nsyms)
{
	unsigned long size, off = ULONG_MAX, koff, i = 0;
	struct dyn_ftrace *rec;
	unsigned int n = 0;

	for_each_group_rec(g, rec) {
		unsigned long ip = ftrace_rec_ip(g, rec);

		if (syms) {
			while (i < nsyms && syms[i] <= ip)
				i++;
			off = i ? ip - syms[i - 1] : ULONG_MAX;
		}
		if (rec->flags & FTRACE_REC_FREED)
			continue;
		if (!syms || recount_check_on) {
			if (!kallsyms_lookup_size_offset(ip, &size, &koff))
				koff = ULONG_MAX;
			WARN_ONCE(syms && koff != off,
				  "ftrace: %pS: offset %lu by sorted symbols, %lu by kallsyms\n",
				  (void *)ip, off, koff);
			off = koff;
		}
		if (off <= FTRACE_SITE_MAX_OFFSET)
			continue;
		rec_retire(rec);
		g->freed++;
		n++;
	}
	return n;
}

/**
 * ftrace_retire_range - a group's text in a range goes away
 * @g: the group
 * @start: first address
 * @end: end of the range (exclusive)
 *
 * Its records stop counting as sites that call a trampoline and become
 * FREED, before any purge re-patches what it changes, so that no patch
 * touches text about to be freed.
 *
 * Context: ftrace_lock held.
 * Return: how many records were retired.
 */
unsigned int ftrace_retire_range(struct ftrace_group *g, unsigned long start,
				 unsigned long end)
{
	struct slot_moves off = { };
	struct dyn_ftrace *rec;
	unsigned int n = 0;

	ftrace_assert_locked();
	for_each_group_rec(g, rec) {
		unsigned long ip = ftrace_rec_ip(g, rec);

		if (ip >= start && ip < end && !(rec->flags & FTRACE_REC_FREED)) {
			rec_forget(rec, ip, &off);
			rec_retire(rec);
			g->freed++;
			n++;
		}
	}
	slot_moves_end(&off);
	return n;
}
