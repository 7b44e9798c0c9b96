// SPDX-License-Identifier: GPL-2.0
/*
 * Direct calls: the sites of an ops call its owner's own trampoline
 * instead of ftrace's.  One hash maps each such site to its function; a
 * site that only its direct ops wants calls the function itself, a shared
 * one goes through ftrace_regs_caller, whose callback "returns" into the
 * function.
 * The hash is replaced, never edited, except that an entry may be retired
 * in place (address 0) where removal must not fail.  direct_mutex is held
 * across ops_func requests; see Documentation/trace/ftrace-core-design.rst.
 */
#include <linux/ftrace.h>
#include <linux/rcupdate.h>

#include "trace.h"
#include "ftrace_internal.h"

static struct ftrace_hash *direct_hash(void)
{
	return rcu_dereference_protected(ftrace_direct_funcs, lockdep_is_held(&ftrace_lock));
}

/**
 * ftrace_direct_funcs_edit - a copy of a site-to-function hash, edited
 * @src: the hash (site -> function in each entry's ->direct), or NULL
 * @sites: the sites to edit
 * @addr: map every site of @sites to this function; 0: remove instead
 * @old: with @addr 0, remove only the sites that map to this function
 *
 * Return: the new hash, or NULL (-ENOMEM).
 */
struct ftrace_hash *ftrace_direct_funcs_edit(struct ftrace_hash *src, struct ftrace_hash *sites,
					     unsigned long addr, unsigned long old)
{
	unsigned long count = (src ? src->count : 0) + (addr ? sites->count : 0);
	struct ftrace_func_entry *entry;
	struct ftrace_hash *hash;
	unsigned long i;

	hash = ftrace_hash_alloc(ftrace_hash_bits_for(count));
	if (!hash)
		return NULL;
	ftrace_hash_for_each(src, i, entry) {
		if (!entry->direct ||
		    (!addr && entry->direct == old && ftrace_lookup_ip(sites, entry->ip)))
			continue;
		if (ftrace_hash_add(hash, entry->ip))
			goto nomem;
		ftrace_lookup_ip(hash, entry->ip)->direct = entry->direct;
	}
	if (!addr)
		return hash;
	ftrace_hash_for_each(sites, i, entry) {
		if (ftrace_hash_add(hash, entry->ip))
			goto nomem;
		ftrace_lookup_ip(hash, entry->ip)->direct = addr;
	}
	return hash;
nomem:
	ftrace_hash_free(hash);
	return NULL;
}

/* Return: the old hash, still live for readers that started before. */
static struct ftrace_hash *swap_funcs(struct ftrace_hash *hash)
{
	struct ftrace_hash *old = direct_hash();

	rcu_assign_pointer(ftrace_direct_funcs, hash);
	return old;
}

/*
 * Without memory for a copy: a reader sees the old address or 0, both
 * right once no site calls for them; the next copy leaves them out.
 */
static void retire(struct ftrace_hash *sites, unsigned long addr)
{
	struct ftrace_func_entry *site, *entry;
	unsigned long i;

	ftrace_hash_for_each(sites, i, site) {
		entry = ftrace_lookup_ip(direct_hash(), site->ip);
		if (entry && entry->direct == addr)
			WRITE_ONCE(entry->direct, 0);
	}
}

/**
 * ftrace_direct_purge - forget the direct functions of text that went away
 * @g: the group of the sites
 * @start: first address
 * @end: end of the range (exclusive)
 *
 * So that text loaded there later can have a direct function again.
 *
 * Context: ftrace_lock held.
 */
void ftrace_direct_purge(struct ftrace_group *g, unsigned long start, unsigned long end)
{
	struct ftrace_func_entry *entry;
	struct dyn_ftrace *rec;
	unsigned long i;

	ftrace_assert_locked();
	ftrace_hash_for_each(direct_hash(), i, entry) {
		if (entry->ip < start || entry->ip >= end)
			continue;
		rec = ftrace_group_find(g, entry->ip, entry->ip);
		if (rec && ftrace_rec_ip(g, rec) == entry->ip)
			WRITE_ONCE(entry->direct, 0);
	}
}

/**
 * register_ftrace_direct - make the sites of an ops call a function
 * @ops: the caller's ops, its sites set with ftrace_set_filter_ip(s)(),
 *	not registered, ->func and ->trampoline clear
 * @addr: the function (a BPF trampoline); entered as if each site had
 *	called it
 *
 * If an IPMODIFY ops has one of the sites, @ops->ops_func is asked
 * whether @addr can share it.  On failure nothing is left behind.
 *
 * Return: 0; -EINVAL for an ops in the wrong state or without sites;
 * -EBUSY if a site has a direct function or cannot be shared; what
 * ops_func returned (-EAGAIN: rebuild @addr for sharing and retry);
 * -ENODEV once ftrace is dead; -ENOMEM.
 */
int register_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	struct ftrace_hash *sites, *funcs, *old;
	struct ftrace_func_entry *entry;
	unsigned long added, i;
	int ret;

	if (ops->func || ops->trampoline || !addr)
		return -EINVAL;
	if (!ops->func_hash || (ops->flags & FTRACE_OPS_FL_ENABLED))
		return -EINVAL;

	ftrace_direct_lock();
	mutex_lock(&ftrace_lock);
	sites = rcu_dereference_protected(ops->func_hash->filter_hash,
					  lockdep_is_held(&ftrace_lock));
	ret = -EINVAL;
	if (ftrace_hash_empty(sites))
		goto out;
	ret = -ENODEV;
	if (ftrace_dead)
		goto out;
	ret = -EBUSY;
	ftrace_hash_for_each(sites, i, entry)
		if (ftrace_find_rec_direct(entry->ip))
			goto out;
	ret = -ENOMEM;
	funcs = ftrace_direct_funcs_edit(direct_hash(), sites, addr, 0);
	if (!funcs)
		goto out;
	/* The function is known before any site can call for it. */
	old = swap_funcs(funcs);
	added = FTRACE_OPS_FL_SAVE_REGS & ~ops->flags;
	ops->flags |= added;
	ops->role = FTRACE_ROLE_DIRECT;
	ops->func = ftrace_direct_call;
	WRITE_ONCE(ops->direct_call, addr);
	ret = ftrace_startup(ops, 0);
	if (ret) {
	/* If ftrace died on the way, undo what its patching did. */
		ftrace_unpatch_dead_direct(sites, 0, addr);
		ops->func = NULL;
		WRITE_ONCE(ops->direct_call, 0);
		ops->flags &= ~added;
		ops->role = FTRACE_ROLE_CALLBACK;
		funcs = swap_funcs(old);
		old = funcs;
	}
	ftrace_hash_free_rude(old);
out:
	mutex_unlock(&ftrace_lock);
	ftrace_direct_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(register_ftrace_direct);

/**
 * unregister_ftrace_direct - give the sites of a direct ops back
 * @ops: an ops registered by register_ftrace_direct()
 * @addr: its function
 * @free_filters: free @ops' filter too; without, @ops keeps its sites and
 *	can be registered again (BPF does)
 *
 * A CPU may still run in @addr on return: the owner waits for tasks-RCU
 * before freeing it.  Nothing here may fail for want of memory: BPF frees
 * its trampoline whatever this returns.
 *
 * Return: 0, -EINVAL if @ops is not a registered direct ops, -ENODEV if
 * ftrace died on the way.
 */
int unregister_ftrace_direct(struct ftrace_ops *ops, unsigned long addr,
			     bool free_filters)
{
	struct ftrace_hash *sites, *funcs;
	int ret;

	if (ops->role != FTRACE_ROLE_DIRECT)
		return -EINVAL;
	ftrace_direct_lock();
	mutex_lock(&ftrace_lock);
	ret = -EINVAL;
	if (!(ops->flags & FTRACE_OPS_FL_ENABLED))
		goto out;
	sites = rcu_dereference_protected(ops->func_hash->filter_hash,
					  lockdep_is_held(&ftrace_lock));
	/* The sites move off @addr first: patching reads it in the hash. */
	ret = ftrace_shutdown(ops, 0);
	ftrace_unpatch_dead_direct(sites, 0, addr);
	funcs = ftrace_direct_funcs_edit(direct_hash(), sites, 0, addr);
	if (funcs)
		ftrace_hash_free_rude(swap_funcs(funcs));
	else
		retire(sites, addr);
	ops->func = NULL;
	ops->trampoline = 0;
	WRITE_ONCE(ops->direct_call, 0);
out:
	mutex_unlock(&ftrace_lock);
	ftrace_direct_unlock();
	/* The filter outlives the registration unless the owner says not. */
	if (!ret && free_filters)
		ftrace_free_filter(ops);
	return ret;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_direct);

/**
 * modify_ftrace_direct_nolock - move the sites of a direct ops to another function
 * @ops: an ops registered by register_ftrace_direct()
 * @addr: the new function
 *
 * For an ops_func handler.  As at registration, an IPMODIFY ops on one of
 * the sites makes @ops->ops_func be asked first.
 *
 * Context: direct_mutex held.
 * Return: 0, -EINVAL if @ops is not a registered direct ops, -EBUSY or
 * what ops_func returned (-EAGAIN: nothing changed), -ENODEV if ftrace is
 * dead.
 */
int modify_ftrace_direct_nolock(struct ftrace_ops *ops, unsigned long addr)
{
	struct ftrace_func_entry *site, *entry;
	struct ftrace_hash *sites, *funcs;
	unsigned long i;
	int ret = 0;

	ftrace_direct_assert_locked();
	if (!addr || ops->role != FTRACE_ROLE_DIRECT)
		return -EINVAL;
	mutex_lock(&ftrace_lock);
	if (!(ops->flags & FTRACE_OPS_FL_ENABLED)) {
		ret = -EINVAL;
		goto out;
	}
	if (ftrace_dead) {
		ret = -ENODEV;
		goto out;
	}
	sites = rcu_dereference_protected(ops->func_hash->filter_hash,
					  lockdep_is_held(&ftrace_lock));
	/*
	 * A live patch on a site needs @addr built to share it, or the new
	 * trampoline would call the function's unpatched body.
	 */
	ret = ftrace_direct_check_share(rcu_dereference_protected(ftrace_ops_list, 1), ops,
					sites,
					rcu_dereference_protected(ops->func_hash->notrace_hash,
								  lockdep_is_held(&ftrace_lock)));
	if (ret)
		goto out;
	funcs = direct_hash();
	ret = ftrace_retarget_direct(sites, 0, funcs, addr);
	if (ret) {
		/* The sites moved before the failure: @addr will be freed. */
		ftrace_unpatch_dead_direct(sites, 0, addr);
		goto out;
	}
	ftrace_hash_for_each(sites, i, site) {
		entry = ftrace_lookup_ip(funcs, site->ip);
		if (entry && entry->direct)
			WRITE_ONCE(entry->direct, addr);
	}
	WRITE_ONCE(ops->direct_call, addr);
	ops->func = ftrace_direct_call;
out:
	mutex_unlock(&ftrace_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct_nolock);

/**
 * modify_ftrace_direct - move the sites of a direct ops to another function
 * @ops: an ops registered by register_ftrace_direct()
 * @addr: the new function
 *
 * Return: as modify_ftrace_direct_nolock().
 */
int modify_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	int ret;

	ftrace_direct_lock();
	ret = modify_ftrace_direct_nolock(ops, addr);
	ftrace_direct_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct);
