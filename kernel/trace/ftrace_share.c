// SPDX-License-Identifier: GPL-2.0
/*
 * How direct ops and IPMODIFY ops (live patches) share call sites: the
 * checks registration makes, the requests to the direct ops' ops_func,
 * and direct_mutex, which is held across those requests.  See
 * Documentation/trace/ftrace-core-design.rst.
 */
#include <linux/ftrace.h>
#include <linux/mutex.h>

#include "trace.h"
#include "ftrace_internal.h"

static DEFINE_MUTEX(direct_mutex);

/**
 * ftrace_direct_lock - take the outermost lock of direct calls
 *
 * Held around a registration and the requests to direct ops it causes,
 * and by every call of the direct-call API.
 */
void ftrace_direct_lock(void)
{
	mutex_lock(&direct_mutex);
}

/**
 * ftrace_direct_unlock - release what ftrace_direct_lock() took
 */
void ftrace_direct_unlock(void)
{
	mutex_unlock(&direct_mutex);
}

/**
 * ftrace_direct_assert_locked - lockdep: the caller holds direct_mutex
 */
void ftrace_direct_assert_locked(void)
{
	lockdep_assert_held(&direct_mutex);
}

/**
 * ftrace_direct_check_filter - may a registered ops take this filter?
 * @ops: the ops, registered
 * @filter: its new filter
 *
 * A direct ops wants exactly the sites that have its function: an empty
 * filter would want every site, and a site without one would call nothing.
 *
 * Context: ftrace_lock held.
 * Return: 0 (always for an ops of another role), -EINVAL.
 */
int ftrace_direct_check_filter(struct ftrace_ops *ops, struct ftrace_hash *filter)
{
	struct ftrace_func_entry *entry;
	unsigned long i;

	ftrace_assert_locked();
	if (ops->role != FTRACE_ROLE_DIRECT)
		return 0;
	if (ftrace_hash_empty(filter))
		return -EINVAL;
	ftrace_hash_for_each(filter, i, entry)
		if (!ftrace_find_rec_direct(entry->ip))
			return -EINVAL;
	return 0;
}

static bool shares_site(struct ftrace_ops *op, struct ftrace_hash *filter,
			struct ftrace_hash *notr)
{
	struct ftrace_hash *of = rcu_dereference_protected(op->func_hash->filter_hash, 1);
	struct ftrace_func_entry *entry;
	unsigned long i;

	if (ftrace_hash_empty(filter) && ftrace_hash_empty(of))
		return true;
	if (ftrace_hash_empty(filter)) {
		ftrace_hash_for_each(of, i, entry)
			if (!ftrace_lookup_ip(notr, entry->ip) && ftrace_ops_wants(op, entry->ip))
				return true;
		return false;
	}
	ftrace_hash_for_each(filter, i, entry)
		if (!ftrace_lookup_ip(notr, entry->ip) && ftrace_ops_wants(op, entry->ip))
			return true;
	return false;
}

/**
 * ftrace_direct_check_share - may an ops with these hashes join the sites it wants?
 * @list: the registered ops (ftrace_ops_list, or a test's own list)
 * @ops: a DIRECT or IPMODIFY ops being registered or given new hashes
 * @filter: its filter hash (empty: every site)
 * @notr: its notrace hash
 *
 * A direct ops joining an IPMODIFY ops' site needs its ops_func to agree;
 * the reverse needs the direct ops to have an ops_func.
 *
 * Context: ftrace_lock held.
 * Return: 0, -EBUSY, or what ops_func returned.
 */
int ftrace_direct_check_share(struct ftrace_ops *list, struct ftrace_ops *ops,
			      struct ftrace_hash *filter, struct ftrace_hash *notr)
{
	bool direct = ops->role == FTRACE_ROLE_DIRECT;
	struct ftrace_ops *op;

	ftrace_assert_locked();
	if (!direct && !(ops->flags & FTRACE_OPS_FL_IPMODIFY))
		return 0;
	for_each_ftrace_op(op, list) {
		if (op == ops)
			continue;
		if (direct ? !(op->flags & FTRACE_OPS_FL_IPMODIFY) :
			     op->role != FTRACE_ROLE_DIRECT)
			continue;
		if (!shares_site(op, filter, notr))
			continue;
		if (!direct)
			return op->ops_func ? 0 : -EBUSY;
		if (!ops->ops_func)
			return -EBUSY;
		/* One answer covers every shared site. */
		return ops->ops_func(ops, FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_SELF);
	}
	return 0;
}

static struct ftrace_ops *next_peer(struct ftrace_ops *ops, struct ftrace_ops *after)
{
	struct ftrace_hash *filter, *notr;
	struct ftrace_ops *op;
	bool passed = !after;

	mutex_lock(&ftrace_lock);
	filter = rcu_dereference_protected(ops->func_hash->filter_hash, 1);
	notr = rcu_dereference_protected(ops->func_hash->notrace_hash, 1);
	for_each_ftrace_op(op, ftrace_ops_list) {
		if (!passed) {
			passed = op == after;
			continue;
		}
		if (op != ops && op->role == FTRACE_ROLE_DIRECT &&
		    shares_site(op, filter, notr))
			goto out;
	}
	op = NULL;
out:
	mutex_unlock(&ftrace_lock);
	return op;
}

/*
 * Then @peer must keep sharing, whatever another IPMODIFY ops did (one
 * refused for that very site, or registered twice).
 */
static bool ipmodify_remains(struct ftrace_ops *peer)
{
	struct ftrace_hash *filter, *notr;
	struct ftrace_ops *op;
	bool ret = false;

	mutex_lock(&ftrace_lock);
	filter = rcu_dereference_protected(peer->func_hash->filter_hash, 1);
	notr = rcu_dereference_protected(peer->func_hash->notrace_hash, 1);
	for_each_ftrace_op(op, ftrace_ops_list) {
		if (op != peer && (op->flags & FTRACE_OPS_FL_IPMODIFY) &&
		    shares_site(op, filter, notr)) {
			ret = true;
			break;
		}
	}
	mutex_unlock(&ftrace_lock);
	return ret;
}

/**
 * ftrace_direct_tell_peers - tell the direct ops on an IPMODIFY ops' sites
 * @ops: an IPMODIFY ops about to be registered (ENABLE) or just gone (DISABLE)
 * @cmd: FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER or _DISABLE_
 *
 * Outside ftrace_lock, since the handler may re-patch its sites; direct
 * ops cannot come or go meanwhile.  DISABLE skips a peer an IPMODIFY ops
 * still shares a site with: a live patch must not lose a BPF
 * trampoline's sharing.
 *
 * Context: ftrace_direct_lock() held, ftrace_lock not.
 * Return: 0, or for ENABLE -EBUSY or a peer's error (the peers told
 * before are told DISABLE).
 */
int ftrace_direct_tell_peers(struct ftrace_ops *ops, enum ftrace_ops_cmd cmd)
{
	bool enable = cmd == FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER;
	struct ftrace_ops *peer = NULL;
	int ret = 0;

	if (!(ops->flags & FTRACE_OPS_FL_IPMODIFY))
		return 0;
	ftrace_direct_assert_locked();
	/* The peers are asked without it: their handlers re-patch. */
	lockdep_assert_not_held(&ftrace_lock);
	while ((peer = next_peer(ops, peer))) {
		if (!enable && ipmodify_remains(peer))
			continue;
		if (!peer->ops_func) {
			if (!enable)
				continue;
			ret = -EBUSY;
			break;
		}
		ret = peer->ops_func(peer, cmd);
		if (ret && enable)
			break;
		ret = 0;
	}
	if (ret)
		ftrace_direct_tell_peers(ops, FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER);
	return ret;
}
