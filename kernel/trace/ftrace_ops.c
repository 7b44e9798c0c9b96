// SPDX-License-Identifier: GPL-2.0
/*
 * Registration: putting an ops on the list and taking it off, and giving
 * an ops new hashes, with its sites re-patched by the update engine and
 * its trampoline slot taken and let go of.
 * See Documentation/trace/ftrace-core-design.rst.
 */
#include <linux/kallsyms.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <asm/sections.h>

#include "trace.h"
#include "ftrace_internal.h"
#include "ftrace_wants.h"

/* Two handlers rewriting the return address of one call cannot both win. */
static int ipmodify_check(struct ftrace_ops *ops)
{
	if (!(ops->flags & FTRACE_OPS_FL_IPMODIFY))
		return 0;
	return ftrace_check_ipmodify(ops,
				     rcu_dereference_protected(ops->func_hash->filter_hash, 1),
				     rcu_dereference_protected(ops->func_hash->notrace_hash, 1));
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
	unsigned long where;
	int ret;

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
		ftrace_touch_ops(ops);
		ftrace_apply_touched();
	}
	ret = ftrace_tramp_put(ops, &where);
	if (ret)
		ftrace_anomaly("patching a trampoline's callback", where, ret);

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
			ftrace_adopt_slots();
	} else {
		unlinked_unsynced = true;
		ftrace_tramps_reap_later();
	}
	return 0;
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
	ftrace_touch_ops(ops);
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
