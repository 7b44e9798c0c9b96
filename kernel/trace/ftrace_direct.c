// SPDX-License-Identifier: GPL-2.0
/*
 * Direct calls: a call site that calls its owner's own trampoline instead
 * of ftrace's.  One hash maps each such site to its function; a site that
 * only its direct ops wants calls the function itself, a shared one goes
 * through ftrace_regs_caller, whose callback "returns" into the function.
 * The hash is replaced, never edited, except that an entry may be retired
 * in place (address 0) where removal must not fail.  direct_mutex is held
 * across ops_func requests; see Documentation/trace/ftrace-core-design.rst.
 */
#include <linux/ftrace.h>
#include <linux/rcupdate.h>

#include "trace.h"
#include "ftrace_internal.h"

int ftrace_direct_func_count;

/* PERMANENT: a direct function must not stop with kernel.ftrace_enabled. */
static struct ftrace_ops direct_ops = {
	.func		= ftrace_direct_call,
	.flags		= FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_PERMANENT,
	.role		= FTRACE_ROLE_DIRECT,
	.local_hash.regex_lock = __MUTEX_INITIALIZER(direct_ops.local_hash.regex_lock),
	.func_hash	= &direct_ops.local_hash,
};

/* A copy of @src with @ip added (to @addr) or, for @addr 0, removed. */
static struct ftrace_hash *hash_with(struct ftrace_hash *src, unsigned long ip,
				     unsigned long addr)
{
	struct ftrace_hash *hash;
	struct ftrace_func_entry *entry;
	unsigned long i;

	hash = ftrace_hash_alloc(ftrace_hash_bits_for((src ? src->count : 0) + 1));
	if (!hash)
		return NULL;
	ftrace_hash_for_each(src, i, entry) {
		if (entry->ip == ip || !entry->direct)
			continue;
		if (ftrace_hash_add(hash, entry->ip))
			goto nomem;
		ftrace_lookup_ip(hash, entry->ip)->direct = entry->direct;
	}
	if (addr) {
		if (ftrace_hash_add(hash, ip))
			goto nomem;
		ftrace_lookup_ip(hash, ip)->direct = addr;
	}
	return hash;
nomem:
	ftrace_hash_free(hash);
	return NULL;
}

static void publish(struct ftrace_hash *hash)
{
	struct ftrace_hash *old = rcu_dereference_protected(ftrace_direct_funcs, 1);

	rcu_assign_pointer(ftrace_direct_funcs, hash);
	synchronize_rcu_tasks_rude();
	ftrace_hash_free(old);
}

/* An empty filter would mean every site: unregister direct_ops instead. */
static int set_direct_filter(struct ftrace_hash *filter)
{
	bool live = ftrace_ops_registered(&direct_ops);
	int ret;

	if (ftrace_hash_empty(filter)) {
		if (live)
			ftrace_shutdown(&direct_ops, 0);
		return ftrace_ops_set_hashes(&direct_ops, filter, NULL);
	}
	ret = ftrace_ops_set_hashes(&direct_ops, filter, NULL);
	if (!ret && !live)
		ret = ftrace_startup(&direct_ops, 0);
	return ret;
}

static struct ftrace_hash *direct_filter(void)
{
	return rcu_dereference_protected(direct_ops.func_hash->filter_hash, 1);
}

/**
 * register_ftrace_direct - make a call site call a function of its own
 * @ip: the call site, or the start of its function
 * @addr: the function; entered as if the site called it
 *
 * Return: 0, -ENODEV if @ip has no call site (or ftrace is dead),
 * -EBUSY if it has a direct function already, -ENOMEM.
 */
int register_ftrace_direct(unsigned long ip, unsigned long addr)
{
	struct ftrace_hash *funcs, *filter;
	int ret;

	ip = ftrace_location(ip);
	if (!ip || !addr)
		return -ENODEV;
	ftrace_direct_lock();
	mutex_lock(&ftrace_lock);
	ret = -ENODEV;
	if (ftrace_dead)
		goto out;
	ret = -EBUSY;
	if (ftrace_find_rec_direct(ip))
		goto out;
	ret = -ENOMEM;
	funcs = hash_with(rcu_dereference_protected(ftrace_direct_funcs, 1), ip, addr);
	/* In the filter only the address counts: any nonzero value adds it. */
	filter = hash_with(direct_filter(), ip, 1);
	if (!funcs || !filter) {
		ftrace_hash_free(funcs);
		ftrace_hash_free(filter);
		goto out;
	}
	/* The function is known before any site can call for it. */
	publish(funcs);
	ret = set_direct_filter(filter);
	if (ret) {
		ftrace_unpatch_dead_direct(NULL, ip, addr);
		filter = hash_with(direct_filter(), ip, 0);
		if (filter)
			set_direct_filter(filter);
		funcs = hash_with(rcu_dereference_protected(ftrace_direct_funcs, 1), ip, 0);
		if (funcs)
			publish(funcs);
		goto out;
	}
	ftrace_direct_func_count++;
out:
	mutex_unlock(&ftrace_lock);
	ftrace_direct_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(register_ftrace_direct);

/**
 * unregister_ftrace_direct - give a call site back to ftrace
 * @ip: the call site, or the start of its function
 * @addr: its direct function
 *
 * A CPU may still run in @addr on return: its owner must wait for
 * tasks-RCU before freeing it.
 *
 * Return: 0, -ENODEV if @ip has no direct function, -EINVAL if it is
 * not @addr, -ENOMEM.
 */
int unregister_ftrace_direct(unsigned long ip, unsigned long addr)
{
	struct ftrace_hash *funcs, *filter;
	unsigned long cur;
	int ret;

	ip = ftrace_location(ip);
	ftrace_direct_lock();
	mutex_lock(&ftrace_lock);
	cur = ip ? ftrace_find_rec_direct(ip) : 0;
	ret = -ENODEV;
	if (!cur)
		goto out;
	ret = -EINVAL;
	if (cur != addr)
		goto out;
	ret = -ENOMEM;
	filter = hash_with(direct_filter(), ip, 0);
	funcs = hash_with(rcu_dereference_protected(ftrace_direct_funcs, 1), ip, 0);
	if (!filter || !funcs) {
		ftrace_hash_free(filter);
		ftrace_hash_free(funcs);
		goto out;
	}
	/* The site moves off the function first: patching reads it here. */
	ret = set_direct_filter(filter);
	ftrace_unpatch_dead_direct(NULL, ip, addr);
	publish(funcs);
	ftrace_direct_func_count--;
out:
	mutex_unlock(&ftrace_lock);
	ftrace_direct_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_direct);

/**
 * modify_ftrace_direct - change a call site's direct function
 * @ip: the call site, or the start of its function
 * @old_addr: its direct function now
 * @new_addr: the one it must have
 *
 * Return: 0, -ENODEV if @ip has no direct function (or ftrace died on
 * the way), -EINVAL if it is not @old_addr.
 */
int modify_ftrace_direct(unsigned long ip, unsigned long old_addr,
			 unsigned long new_addr)
{
	struct ftrace_func_entry *entry;
	int ret = 0;

	ip = ftrace_location(ip);
	if (!new_addr)
		return -EINVAL;
	ftrace_direct_lock();
	mutex_lock(&ftrace_lock);
	entry = ip ? ftrace_lookup_ip(rcu_dereference_protected(ftrace_direct_funcs, 1), ip) :
		     NULL;
	if (!entry || !entry->direct || ftrace_dead) {
		ret = -ENODEV;
		goto out;
	}
	if (entry->direct != old_addr) {
		ret = -EINVAL;
		goto out;
	}
	ret = ftrace_retarget_direct(NULL, ip, rcu_dereference_protected(ftrace_direct_funcs, 1),
				     new_addr);
	if (ret)
		goto out;
	WRITE_ONCE(entry->direct, new_addr);
out:
	mutex_unlock(&ftrace_lock);
	ftrace_direct_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct);

/* ---- The multi-site API: the caller's ops, its filter's sites ---- */

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
 * register_ftrace_direct_multi - make the sites of an ops call a function
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
int register_ftrace_direct_multi(struct ftrace_ops *ops, unsigned long addr)
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
	ret = ftrace_startup(ops, 0);
	if (ret) {
	/* If ftrace died on the way, undo what its patching did. */
		ftrace_unpatch_dead_direct(sites, 0, addr);
		ops->func = NULL;
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
EXPORT_SYMBOL_GPL(register_ftrace_direct_multi);

/**
 * unregister_ftrace_direct_multi - give the sites of a direct ops back
 * @ops: an ops registered by register_ftrace_direct_multi()
 * @addr: its function
 *
 * A CPU may still run in @addr on return: the owner waits for tasks-RCU
 * before freeing it.  Nothing here may fail for want of memory: BPF frees
 * its trampoline whatever this returns.
 *
 * Return: 0, -EINVAL if @ops is not a registered direct ops, -ENODEV if
 * ftrace died on the way.
 */
int unregister_ftrace_direct_multi(struct ftrace_ops *ops, unsigned long addr)
{
	struct ftrace_hash *sites, *funcs;
	int ret;

	if (ops == &direct_ops || ops->role != FTRACE_ROLE_DIRECT)
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
out:
	mutex_unlock(&ftrace_lock);
	ftrace_direct_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_direct_multi);

/**
 * modify_ftrace_direct_multi_nolock - move the sites of a direct ops to another function
 * @ops: an ops registered by register_ftrace_direct_multi()
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
int modify_ftrace_direct_multi_nolock(struct ftrace_ops *ops, unsigned long addr)
{
	struct ftrace_func_entry *site, *entry;
	struct ftrace_hash *sites, *funcs;
	unsigned long i;
	int ret = 0;

	ftrace_direct_assert_locked();
	if (!addr || ops == &direct_ops || ops->role != FTRACE_ROLE_DIRECT)
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
	/* Cleared by BPF before it retried. */
	ops->func = ftrace_direct_call;
out:
	mutex_unlock(&ftrace_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct_multi_nolock);

/**
 * modify_ftrace_direct_multi - move the sites of a direct ops to another function
 * @ops: an ops registered by register_ftrace_direct_multi()
 * @addr: the new function
 *
 * Return: as modify_ftrace_direct_multi_nolock().
 */
int modify_ftrace_direct_multi(struct ftrace_ops *ops, unsigned long addr)
{
	int ret;

	ftrace_direct_lock();
	ret = modify_ftrace_direct_multi_nolock(ops, addr);
	ftrace_direct_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct_multi);
