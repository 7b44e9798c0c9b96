// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace_ops registration, the list function that serves several ops on
 * one site, and the wrappers that give an ops called alone recursion
 * protection or pid filtering.  See Documentation/trace/ftrace-core-design.rst.
 */
#include <linux/kallsyms.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <asm/sections.h>

#include "trace.h"
#include "ftrace_internal.h"
#include "ftrace_wants.h"

DEFINE_MUTEX(ftrace_lock);

struct ftrace_ops ftrace_list_end __read_mostly = {
	.func		= ftrace_stub,
	.flags		= FTRACE_OPS_FL_RECURSION,
	.role		= FTRACE_ROLE_SITES,
	.local_hash.regex_lock = __MUTEX_INITIALIZER(ftrace_list_end.local_hash.regex_lock),
};

struct ftrace_ops global_ops = {
	.func		= ftrace_stub,
	.local_hash.regex_lock = __MUTEX_INITIALIZER(global_ops.local_hash.regex_lock),
	.func_hash	= &global_ops.local_hash,
	.role		= FTRACE_ROLE_PID,
};

struct ftrace_ops __rcu *ftrace_ops_list __read_mostly = &ftrace_list_end;

/* The third argument of ftrace_caller's callback (see ftrace_apply()). */
struct ftrace_ops *function_trace_op __read_mostly = &ftrace_list_end;

int ftrace_enabled __read_mostly = 1;
int ftrace_last_enabled;
int ftrace_dead __read_mostly;

/**
 * ftrace_ops_init - set up an ops' hashes on first use
 * @ops: the ops; the core's static ops come with func_hash set
 */
void ftrace_ops_init(struct ftrace_ops *ops)
{
	if (ops->func_hash)
		return;
	mutex_init(&ops->local_hash.regex_lock);
	ops->func_hash = &ops->local_hash;
}

/**
 * ftrace_ops_wants - whether an ops wants a call site
 * @ops: the ops
 * @ip: the call site
 *
 * Context: preemption disabled, or ftrace_lock held.
 * Return: true if @ip passes the filter and not the notrace hash.
 */
bool ftrace_ops_wants(struct ftrace_ops *ops, unsigned long ip)
{
	return __ftrace_ops_wants(ops, ip);
}

/**
 * ftrace_ops_test - ftrace_ops_wants() under the name fgraph uses
 * @ops: the ops
 * @ip: the call site
 * @regs: unused
 *
 * Return: 1 if @ops wants @ip, else 0.
 */
int ftrace_ops_test(struct ftrace_ops *ops, unsigned long ip, void *regs)
{
	return ftrace_ops_wants(ops, ip);
}

/**
 * ftrace_ops_registered - whether an ops is on ftrace_ops_list
 * @ops: the ops
 *
 * Context: ftrace_lock held.
 * Return: true if registered.
 */
bool ftrace_ops_registered(struct ftrace_ops *ops)
{
	ftrace_assert_locked();
	return ops->flags & FTRACE_OPS_FL_ENABLED;
}

/* Callers hold a recursion bit, so preemption is disabled. */
static __always_inline bool pid_ok(struct ftrace_ops *op)
{
	struct trace_array *tr = op->private;

	if (op->role != FTRACE_ROLE_PID || !tr)
		return true;
	return __this_cpu_read(tr->array_buffer.data->ftrace_ignore_pid) !=
		FTRACE_PID_IGNORE;
}

/* @dead (a constant) keeps only the ops that outlive an anomaly. */
static __always_inline void list_walk(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_regs *fregs, bool dead)
{
	struct ftrace_ops *op;
	int bit;

	bit = trace_test_and_set_recursion(ip, parent_ip, TRACE_LIST_START);
	if (bit < 0)
		return;

	for_each_ftrace_op(op, ftrace_ops_list) {
		if (dead && !ftrace_ops_outlives_death(op))
			continue;
		if (op->role != FTRACE_ROLE_SITES && pid_ok(op) &&
		    __ftrace_ops_wants(op, ip))
			ftrace_ops_callback(op)(ip, parent_ip, op, fregs);
	}

	trace_clear_recursion(bit);
}

/**
 * arch_ftrace_ops_list_func - call every ops that wants this site
 * @ip: the call site
 * @parent_ip: the traced function's return address
 * @op: ignored; the list is walked instead
 * @fregs: the registers the trampoline saved
 *
 * Its own recursion bit keeps a callback that traces itself from looping.
 * The linker script also names it ftrace_ops_list_func.
 */
void arch_ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	list_walk(ip, parent_ip, fregs, false);
}

/**
 * ftrace_ops_outlives_death - does an ops keep running once ftrace is dead?
 * @ops: the ops
 *
 * What changes how the kernel runs keeps its calls after an anomaly: live
 * patches, PERMANENT ops and direct calls (BPF may enforce policy).
 *
 * Return: whether @ops is one of those.
 */
bool ftrace_ops_outlives_death(struct ftrace_ops *ops)
{
	return (ops->flags & (FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_PERMANENT)) ||
	       ops->role == FTRACE_ROLE_DIRECT;
}

/**
 * ftrace_ops_any_outlives_death - is an ops registered that outlives death?
 *
 * Context: ftrace_lock held.
 * Return: true if one is.
 */
bool ftrace_ops_any_outlives_death(void)
{
	struct ftrace_ops *op;

	for_each_ftrace_op(op, ftrace_ops_list)
		if (ftrace_ops_outlives_death(op))
			return true;
	return false;
}

/**
 * ftrace_ops_dead_list_func - the list function for ops that outlive an anomaly
 * @ip: the call site
 * @parent_ip: the traced function's return address
 * @op: ignored; the list is walked instead
 * @fregs: the registers the trampoline saved
 */
void ftrace_ops_dead_list_func(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	list_walk(ip, parent_ip, fregs, true);
}

/*
 * A freeable ops needs no RCU wrapper: unregistering waits for
 * synchronize_rcu_tasks() instead.
 */
static void ftrace_ops_assist_func(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (pid_ok(op))
		ftrace_ops_callback(op)(ip, parent_ip, op, fregs);
	ftrace_test_recursion_unlock(bit);
}

static bool ops_pid_filtered(struct ftrace_ops *ops)
{
	struct trace_array *tr = ops->private;

	if (ops->role != FTRACE_ROLE_PID || !tr)
		return false;
	return rcu_access_pointer(tr->function_pids) ||
		rcu_access_pointer(tr->function_no_pids);
}

/**
 * ftrace_ops_get_func - what the trampoline should call for one ops
 * @ops: the ops
 * Return: the ops' own callback, or a wrapper if it needs one.
 */
ftrace_func_t ftrace_ops_get_func(struct ftrace_ops *ops)
{
	if (ops->flags & FTRACE_OPS_FL_RECURSION || ops_pid_filtered(ops))
		return ftrace_ops_assist_func;
	return ftrace_ops_callback(ops);
}

/* Two handlers rewriting the return address of one call cannot both win. */
static int ipmodify_check(struct ftrace_ops *ops)
{
	if (!(ops->flags & FTRACE_OPS_FL_IPMODIFY))
		return 0;
	return ftrace_check_ipmodify(ops,
				     rcu_dereference_protected(ops->func_hash->filter_hash, 1),
				     rcu_dereference_protected(ops->func_hash->notrace_hash, 1));
}

static void touch_ops_sites(struct ftrace_ops *ops)
{
	if (!ops->func_hash)
		ftrace_touch_all();
	else
		ftrace_touch_sites(rcu_dereference_protected(ops->func_hash->filter_hash, 1));
}

/* A static ops was unlinked without a wait: a CPU may still read its hashes. */
static bool unlinked_unsynced;

/**
 * ftrace_sync_unlinked - call before freeing the hashes of an unregistered ops
 * Context: ftrace_lock held.
 */
void ftrace_sync_unlinked(void)
{
	ftrace_assert_locked();
	if (!unlinked_unsynced)
		return;
	synchronize_rcu_tasks_rude();
	unlinked_unsynced = false;
}

/* A freeable ops is not returned until no CPU can still be running it. */
static int ops_unlink(struct ftrace_ops *ops)
{
	struct ftrace_ops __rcu **p;

	for (p = &ftrace_ops_list; *p != &ftrace_list_end;
	     p = &(*p)->next) {
		if (rcu_access_pointer(*p) == ops)
			break;
	}
	if (rcu_access_pointer(*p) != ops)
		return -EINVAL;

	rcu_assign_pointer(*p, rcu_dereference_protected(ops->next, 1));
	ops->flags &= ~FTRACE_OPS_FL_ENABLED;
	if (!ftrace_dead) {
		touch_ops_sites(ops);
		ftrace_apply_touched();
	}
	ftrace_tramp_put(ops, ops->flags & FTRACE_OPS_FL_DYNAMIC);

	/*
	 * A static ops is never freed, so its unlink does not wait;
	 * ftrace_sync_unlinked() covers its hashes.
	 */
	if (ops->flags & FTRACE_OPS_FL_DYNAMIC) {
		synchronize_rcu_tasks_rude();
		unlinked_unsynced = false;
		if (IS_ENABLED(CONFIG_PREEMPTION))
			synchronize_rcu_tasks();
		/* The same wait covers its trampoline: free it now. */
		if (ftrace_tramps_reap())
			ftrace_ops_adopt_slots();
	} else {
		unlinked_unsynced = true;
	}
	return 0;
}

/**
 * ftrace_ops_adopt_slots - give freed trampoline slots to ops without one
 *
 * An ops that registered while no slot was free should not stay on the
 * shared trampolines' slow path for its lifetime.
 *
 * Context: ftrace_lock held, after ftrace_tramps_reap() freed something.
 */
void ftrace_ops_adopt_slots(void)
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
			touch_ops_sites(op);
			moved = true;
		}
	}
	if (moved)
		ftrace_apply_touched();
}

/**
 * ftrace_startup - register an ops and patch the sites it wants
 * @ops: the ops
 * @command: unused; kept for fgraph's calls
 *
 * Context: ftrace_lock held.
 * Return: 0, -ENODEV once ftrace is dead, -EBUSY (already registered,
 * IPMODIFY conflict, PERMANENT while ftrace_enabled is 0), or -EINVAL.
 */
int ftrace_startup(struct ftrace_ops *ops, int command)
{
	int ret;

	ftrace_assert_locked();
	if (ftrace_dead)
		return -ENODEV;
	if (ops->flags & FTRACE_OPS_FL_ENABLED)
		return -EBUSY;

	ftrace_ops_init(ops);
	if (!is_kernel_core_data((unsigned long)ops))
		ops->flags |= FTRACE_OPS_FL_DYNAMIC;
	if (ops->flags & FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED)
		ops->flags |= FTRACE_OPS_FL_SAVE_REGS;
	/*
	 * With ftrace_regs every trampoline returns to the ip the callback
	 * set, so an IPMODIFY ops needs no pt_regs; elsewhere it does.
	 */
	if ((ops->flags & FTRACE_OPS_FL_IPMODIFY) &&
	    !IS_ENABLED(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS) &&
	    !(ops->flags & FTRACE_OPS_FL_SAVE_REGS))
		return -EINVAL;
	if (!ftrace_enabled && (ops->flags & FTRACE_OPS_FL_PERMANENT))
		return -EBUSY;
	ret = ipmodify_check(ops);
	if (ret)
		return ret;
	ret = ftrace_direct_check_share(rcu_dereference_protected(ftrace_ops_list, 1), ops,
					rcu_dereference_protected(ops->func_hash->filter_hash, 1),
					rcu_dereference_protected(ops->func_hash->notrace_hash, 1));
	if (ret)
		return ret;

	/* Clients recognise their ops by it (unregister_fprobe()). */
	ops->saved_func = ops->func;
	ops->flags |= FTRACE_OPS_FL_ENABLED;
	ftrace_tramp_get(ops);
	rcu_assign_pointer(ops->next, ftrace_ops_list);
	rcu_assign_pointer(ftrace_ops_list, ops);
	touch_ops_sites(ops);
	ret = ftrace_apply_touched();
	/*
	 * Patching failed: the caller will not unregister, so the ops must
	 * not stay on the list for its owner to free.
	 */
	if (ret)
		ops_unlink(ops);
	return ret;
}

/**
 * ftrace_shutdown - unregister an ops
 * @ops: the ops; if freeable, no CPU runs it when this returns
 * @command: unused; kept for fgraph's calls
 *
 * Context: ftrace_lock held.
 * Return: 0, or -EINVAL if @ops was not registered.
 */
int ftrace_shutdown(struct ftrace_ops *ops, int command)
{
	ftrace_assert_locked();
	if (!(ops->flags & FTRACE_OPS_FL_ENABLED))
		return -EINVAL;
	return ops_unlink(ops);
}

static int ops_locked(int (*fn)(struct ftrace_ops *ops, int command),
		      struct ftrace_ops *ops)
{
	int ret;

	mutex_lock(&ftrace_lock);
	ret = fn(ops, 0);
	mutex_unlock(&ftrace_lock);
	return ret;
}

/**
 * register_ftrace_function - start calling an ops on the sites it wants
 * @ops: the ops; its filter may be set before or after
 *
 * Direct ops sharing sites with an IPMODIFY @ops are told first, so that
 * they can rebuild for sharing (enum ftrace_ops_cmd).
 *
 * Return: 0, or a negative errno.
 */
int register_ftrace_function(struct ftrace_ops *ops)
{
	int ret;

	ftrace_direct_lock();
	ret = ftrace_direct_tell_peers(ops, FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER);
	if (!ret) {
		ret = ops_locked(ftrace_startup, ops);
		if (ret)
			ftrace_direct_tell_peers(ops, FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER);
	}
	ftrace_direct_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(register_ftrace_function);

/**
 * unregister_ftrace_function - stop calling an ops
 * @ops: the ops
 *
 * A CPU may still be finishing a call of an ops in the kernel image; a
 * freeable @ops is not running when this returns.
 *
 * Return: 0, or -EINVAL if @ops was not registered.
 */
int unregister_ftrace_function(struct ftrace_ops *ops)
{
	int ret;

	ftrace_direct_lock();
	ret = ops_locked(ftrace_shutdown, ops);
	if (!ret)
		ftrace_direct_tell_peers(ops, FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER);
	ftrace_direct_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_function);

/* The graph ops shares global_ops' hashes, live while global_ops is off. */
static bool hashes_live(struct ftrace_ops_hash *h)
{
	struct ftrace_ops *op;

	for (op = rcu_dereference_protected(ftrace_ops_list, 1);
	     op != &ftrace_list_end;
	     op = rcu_dereference_protected(op->next, 1)) {
		if (op->func_hash == h)
			return true;
	}
	return false;
}

/* Keep none for an empty hash: an ops freed without ftrace_free_filter() leaks nothing. */
static struct ftrace_hash *hash_kept(struct ftrace_hash *hash)
{
	return ftrace_hash_empty(hash) ? NULL : hash;
}

/* A live ops' old hash goes after a grace period nobody waits for. */
static void hash_replaced(struct ftrace_hash *old, struct ftrace_hash *new,
			  bool live)
{
	if (live)
		ftrace_hash_free_rude(old);
	else
		ftrace_hash_free(old);
	if (!hash_kept(new))
		ftrace_hash_free(new);
}

/**
 * ftrace_ops_set_hashes - give an ops new filter and notrace hashes
 * @ops: the ops (registered or not)
 * @filter: the new filter hash, or NULL to keep the current one
 * @notr: the new notrace hash, or NULL to keep the current one
 *
 * Takes ownership of the new hashes whatever the result.  Sites are
 * re-patched if a registered ops uses these hashes; the old ones are freed
 * once no CPU can be reading them.
 *
 * Context: ftrace_lock held.
 * Return: 0, -EBUSY on an IPMODIFY conflict, -EINVAL for a filter a
 * registered direct ops cannot have, -ENODEV if ftrace is dead.
 */
int ftrace_ops_set_hashes(struct ftrace_ops *ops, struct ftrace_hash *filter,
			  struct ftrace_hash *notr)
{
	struct ftrace_ops_hash *h = ops->func_hash;
	struct ftrace_hash *old_filter, *old_notrace;
	bool live;
	int ret = 0;

	ftrace_assert_locked();
	live = hashes_live(h);

	old_filter = rcu_dereference_protected(h->filter_hash, 1);
	old_notrace = rcu_dereference_protected(h->notrace_hash, 1);

	if (live && (ops->flags & FTRACE_OPS_FL_IPMODIFY))
		ret = ftrace_check_ipmodify(ops, filter ?: old_filter,
					    notr ?: old_notrace);
	if (live && filter && !ret)
		ret = ftrace_direct_check_filter(ops, filter);
	if (live && !ret)
		ret = ftrace_direct_check_share(rcu_dereference_protected(ftrace_ops_list, 1),
						ops, filter ?: old_filter, notr ?: old_notrace);
	if (ret) {
		ftrace_hash_free(filter);
		ftrace_hash_free(notr);
		return ret;
	}

	if (live) {
		ftrace_touch_sites(old_filter);
		if (filter)
			ftrace_touch_sites(filter);
	}
	if (filter)
		rcu_assign_pointer(h->filter_hash, hash_kept(filter));
	if (notr)
		rcu_assign_pointer(h->notrace_hash, hash_kept(notr));

	if (live) {
		if (!ftrace_dead)
			ret = ftrace_apply_touched();
	} else {
		/* Unregistered, but a CPU may still read the old hashes. */
		ftrace_sync_unlinked();
	}
	if (filter)
		hash_replaced(old_filter, filter, live);
	if (notr)
		hash_replaced(old_notrace, notr, live);
	return ret;
}

/**
 * ftrace_group_hits - a hash's addresses among a group's sites in a range
 * @hash: the hash to look in; NULL or empty finds nothing
 * @g: the group
 * @start: first address
 * @end: end of the range (exclusive)
 *
 * Without memory the result holds what was found so far, so that a purge
 * still takes out what it can.
 *
 * Context: ftrace_lock held.
 * Return: a new hash of those addresses, or NULL if none.
 */
struct ftrace_hash *ftrace_group_hits(struct ftrace_hash *hash,
				      struct ftrace_group *g,
				      unsigned long start, unsigned long end)
{
	struct ftrace_hash *hits = NULL;
	struct dyn_ftrace *rec;

	ftrace_assert_locked();
	if (!hash || !hash->count)
		return NULL;
	for_each_group_rec(g, rec) {
		unsigned long ip = ftrace_rec_ip(g, rec);

		if (ip < start || ip >= end || !ftrace_lookup_ip(hash, ip))
			continue;
		if (!hits)
			hits = ftrace_hash_alloc(1);
		if (!hits || ftrace_hash_add(hits, ip))
			break;
	}
	if (hits && !hits->count) {
		ftrace_hash_free(hits);
		hits = NULL;
	}
	return hits;
}

/**
 * ftrace_hash_purged - a hash without a group's sites in a range
 * @hash: the hash; NULL or empty has none
 * @g: the group
 * @start: first address
 * @end: end of the range (exclusive)
 * @filter: @hash is a filter, not a notrace hash
 *
 * A filter emptied this way must not turn into "trace everything", so it
 * is marked as a filter with nothing in it.
 *
 * Context: ftrace_lock held.
 * Return: the copy, or NULL if @hash had none of them (or no memory).
 */
struct ftrace_hash *ftrace_hash_purged(struct ftrace_hash *hash,
				       struct ftrace_group *g,
				       unsigned long start, unsigned long end,
				       bool filter)
{
	struct ftrace_hash *hits = ftrace_group_hits(hash, g, start, end);
	struct ftrace_hash *copy = NULL;
	struct ftrace_func_entry *entry;
	unsigned long i;

	if (!hits)
		return NULL;
	copy = ftrace_hash_copy(hash);
	if (copy)
		ftrace_hash_for_each(hits, i, entry)
			ftrace_hash_remove(copy, entry->ip);
	ftrace_hash_free(hits);
	if (copy && filter && !copy->count)
		copy->flags |= FTRACE_HASH_FL_MOD;
	return copy;
}

static void purge_ops(struct ftrace_ops *ops, struct ftrace_group *g,
		      unsigned long start, unsigned long end)
{
	struct ftrace_hash *filter, *notr;

	if (!ops->func_hash)
		return;
	filter = ftrace_hash_purged(rcu_dereference_protected(ops->func_hash->filter_hash, 1),
				    g, start, end, true);
	notr = ftrace_hash_purged(rcu_dereference_protected(ops->func_hash->notrace_hash, 1),
				  g, start, end, false);
	if (filter || notr)
		ftrace_ops_set_hashes(ops, filter, notr);
}

/**
 * ftrace_purge_group - forget sites whose text goes away
 * @g: their group; the records in the range are FREED already
 * @start: first address
 * @end: end of the range (exclusive)
 *
 * Drops the addresses from every hash that may hold them (registered ops,
 * instances' unregistered ops, graph filters, filter commands, direct
 * calls), so that text loaded there later is not traced by an old filter.
 *
 * Context: event_mutex, trace_types_lock, ftrace_probes_lock() and
 * ftrace_lock held.
 */
void ftrace_purge_group(struct ftrace_group *g, unsigned long start,
			unsigned long end)
{
	struct trace_array *tr;
	struct ftrace_ops *op;

	lockdep_assert_held(&trace_types_lock);
	ftrace_assert_locked();
	/* Before the ops walk, which would drop only their addresses. */
	list_for_each_entry(tr, &ftrace_trace_arrays, list)
		ftrace_probes_purge(tr, g, start, end);
	ftrace_direct_purge(g, start, end);
	for (op = rcu_dereference_protected(ftrace_ops_list, 1);
	     op != &ftrace_list_end;
	     op = rcu_dereference_protected(op->next, 1))
		purge_ops(op, g, start, end);
	list_for_each_entry(tr, &ftrace_trace_arrays, list)
		if (tr->ops && !ftrace_ops_registered(tr->ops))
			purge_ops(tr->ops, g, start, end);
	fgraph_filter_purge(g, start, end);
}
