// SPDX-License-Identifier: GPL-2.0
/*
 * Direct calls: a call site that calls a custom trampoline of its owner
 * (a sample module, the graph self-test) instead of ftrace's.
 *
 * One ops, direct_ops, wants every site that has a direct function; a
 * hash maps each such site to its function.  A site that direct_ops alone
 * wants is patched to call the function itself: nothing of ftrace runs
 * (unless the arch cannot reach it from there: arm64 then calls
 * ftrace_caller, where this callback runs alone and sends the call on).
 * A site that other ops want too calls ftrace_regs_caller, whose list
 * function runs direct_ops' callback with the others; that callback
 * stores the function in regs->orig_ax, and ftrace_regs_caller then
 * "returns" into it, so the function runs as if the site had called it.
 *
 * The multi-site API (BPF trampolines) registers the caller's own ops
 * with the same callback: each of its sites maps to the one function in
 * the same hash, and a site with a lone direct ops calls that function.
 *
 * The hash is replaced, never edited, except for entries' addresses in
 * the modify calls: readers are the callback (preemption off) and the
 * core's patching (ftrace_lock).  An entry whose address is 0 is gone:
 * where taking entries out must not fail (an unregistration without
 * memory for the copy, sites whose text went away) they are retired in
 * place, and the next copy leaves them out.
 *
 * Locking: direct_mutex > ftrace_lock.  direct_mutex is held across the
 * ops_func requests to direct ops when an IPMODIFY ops comes or goes
 * (see enum ftrace_ops_cmd): their handlers re-patch their own sites
 * under ftrace_lock meanwhile, and direct ops cannot come or go.
 */
#include <linux/ftrace.h>
#include <linux/rcupdate.h>

#include "trace.h"
#include "ftrace_internal.h"

int ftrace_direct_func_count;

static DEFINE_MUTEX(direct_mutex);

static struct ftrace_hash __rcu *direct_functions;

/**
 * ftrace_direct_call - the callback of every direct ops
 * @ip: the call site
 * @parent_ip: the traced function's return address
 * @op: the direct ops (unused: one hash serves them all)
 * @fregs: the registers the trampoline saved
 *
 * Sends the call on to the site's direct function.  The core calls it
 * for any ops of the direct role instead of ->func: BPF clears ->func of
 * its registered ops before retrying a modify refused with -EAGAIN.
 */
void ftrace_direct_call(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	unsigned long addr;

	/*
	 * Called through the list function, or alone as the site's one
	 * ops (arm64, a direct function out of bl range) with preemption
	 * on: the hash is freed after an RCU-tasks-rude grace period.
	 */
	preempt_disable_notrace();
	addr = ftrace_find_rec_direct(ip);
	preempt_enable_notrace();
	if (addr && regs)
		arch_ftrace_set_direct_caller(regs, addr);
}

/* PERMANENT: a direct function must not stop with kernel.ftrace_enabled. */
static struct ftrace_ops direct_ops = {
	.func		= ftrace_direct_call,
	.flags		= FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_PERMANENT,
	.role		= FTRACE_ROLE_DIRECT,
	.local_hash.regex_lock = __MUTEX_INITIALIZER(direct_ops.local_hash.regex_lock),
	.func_hash	= &direct_ops.local_hash,
};

/**
 * ftrace_find_rec_direct - the direct function of a call site
 * @ip: the call site
 *
 * Context: preemption disabled, or ftrace_lock held.
 * Return: its address, or 0 if the site has none.
 */
unsigned long ftrace_find_rec_direct(unsigned long ip)
{
	struct ftrace_hash *hash = rcu_dereference_check(direct_functions,
				lockdep_is_held(&ftrace_lock) || rcu_read_lock_sched_held());
	struct ftrace_func_entry *entry = ftrace_lookup_ip(hash, ip);

	return entry ? READ_ONCE(entry->direct) : 0;
}

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

/* Publish @hash as the direct functions; free the old one when unused. */
static void publish(struct ftrace_hash *hash)
{
	struct ftrace_hash *old = rcu_dereference_protected(direct_functions, 1);

	rcu_assign_pointer(direct_functions, hash);
	synchronize_rcu_tasks_rude();
	ftrace_hash_free(old);
}

/*
 * Give direct_ops the filter @filter (taken over): registered while it
 * has sites, unregistered (an empty filter would mean every site) when
 * it has none.
 */
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

static void unpatch_dead_site(unsigned long ip, unsigned long addr)
{
	struct dyn_ftrace *rec = ftrace_find_rec(ip, NULL);

	if (rec && (rec->flags & FTRACE_REC_DIRECT_EN) &&
	    !ftrace_arch_patch_site(ip, addr, 0))
		rec->flags &= ~FTRACE_REC_SITE;
}

/*
 * Once ftrace is dead its sites are left alone, with one exception: a
 * site that calls @addr itself must not outlive the registration that
 * put it there, since the owner frees @addr whatever the API returned
 * (BPF does).  Each of @sites (or the one site @ip) that still holds
 * exactly the call to @addr becomes the NOP again; the arch compares
 * before it writes, and a site that does not hold that call is left as
 * it is.  Nothing to do while ftrace lives: patching did it.
 */
static void unpatch_dead(struct ftrace_hash *sites, unsigned long ip, unsigned long addr)
{
	struct ftrace_func_entry *site;
	unsigned long i;

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
 * register_ftrace_direct - make a call site call a function of its own
 * @ip: the call site, or the start of its function
 * @addr: the function; it is entered as if the site called it, and
 *	returns into the traced function
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
	mutex_lock(&direct_mutex);
	mutex_lock(&ftrace_lock);
	ret = -ENODEV;
	if (ftrace_dead)
		goto out;
	ret = -EBUSY;
	if (ftrace_find_rec_direct(ip))
		goto out;
	ret = -ENOMEM;
	funcs = hash_with(rcu_dereference_protected(direct_functions, 1), ip, addr);
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
		unpatch_dead(NULL, ip, addr);
		filter = hash_with(direct_filter(), ip, 0);
		if (filter)
			set_direct_filter(filter);
		funcs = hash_with(rcu_dereference_protected(direct_functions, 1), ip, 0);
		if (funcs)
			publish(funcs);
		goto out;
	}
	ftrace_direct_func_count++;
out:
	mutex_unlock(&ftrace_lock);
	mutex_unlock(&direct_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(register_ftrace_direct);

/**
 * unregister_ftrace_direct - give a call site back to ftrace
 * @ip: the call site, or the start of its function
 * @addr: its direct function
 *
 * When this returns, no CPU calls @addr from the site any more, but one
 * may still run in it: its owner must wait for tasks-RCU before freeing
 * it, as upstream's callers do.
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
	mutex_lock(&direct_mutex);
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
	funcs = hash_with(rcu_dereference_protected(direct_functions, 1), ip, 0);
	if (!filter || !funcs) {
		ftrace_hash_free(filter);
		ftrace_hash_free(funcs);
		goto out;
	}
	/* The site moves off the function first: patching reads it here. */
	ret = set_direct_filter(filter);
	unpatch_dead(NULL, ip, addr);
	publish(funcs);
	ftrace_direct_func_count--;
out:
	mutex_unlock(&ftrace_lock);
	mutex_unlock(&direct_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_direct);

/**
 * modify_ftrace_direct - change a call site's direct function
 * @ip: the call site, or the start of its function
 * @old_addr: its direct function now
 * @new_addr: the one it must have
 *
 * A site that calls its function itself is re-patched from one call to
 * the other in one instruction write; through ftrace_regs_caller the new
 * function is used from the next call.
 *
 * Return: 0, -ENODEV if @ip has no direct function (or ftrace died on
 * the way), -EINVAL if it is not @old_addr.
 */
int modify_ftrace_direct(unsigned long ip, unsigned long old_addr,
			 unsigned long new_addr)
{
	struct ftrace_func_entry *entry;
	struct dyn_ftrace *rec;
	int ret = 0;

	ip = ftrace_location(ip);
	if (!new_addr)
		return -EINVAL;
	mutex_lock(&direct_mutex);
	mutex_lock(&ftrace_lock);
	entry = ip ? ftrace_lookup_ip(rcu_dereference_protected(direct_functions, 1), ip) :
		     NULL;
	if (!entry || !entry->direct || ftrace_dead) {
		ret = -ENODEV;
		goto out;
	}
	if (entry->direct != old_addr) {
		ret = -EINVAL;
		goto out;
	}
	rec = ftrace_find_rec(ip, NULL);
	if (rec && (rec->flags & FTRACE_REC_DIRECT_EN)) {
		ftrace_arch_patch_begin(1);
		ret = ftrace_arch_patch_site(ip, old_addr, new_addr);
		ftrace_arch_patch_end();
		if (ret) {
			ftrace_anomaly("patching a direct call", ip, ret);
			ret = -ENODEV;
			goto out;
		}
	}
	WRITE_ONCE(entry->direct, new_addr);
out:
	mutex_unlock(&ftrace_lock);
	mutex_unlock(&direct_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct);

/* ---- The multi-site API: the caller's ops, its filter's sites ---- */

static struct ftrace_hash *direct_hash(void)
{
	return rcu_dereference_protected(direct_functions, lockdep_is_held(&ftrace_lock));
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

/* Install @hash as the direct functions; return the old one, still live
 * for readers that started before (the caller frees it after a grace
 * period, or puts it back).
 */
static struct ftrace_hash *swap_funcs(struct ftrace_hash *hash)
{
	struct ftrace_hash *old = direct_hash();

	rcu_assign_pointer(direct_functions, hash);
	return old;
}

/*
 * Retire in place the entries of @sites that map to @addr, for want of
 * memory for a copy without them.  A reader sees the old address or 0
 * (no direct function), both of which are right once no site calls for
 * them; the next copy of the hash leaves them out.
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
 * @end: end of the range (exclusive); with @start, 0 and ULONG_MAX for
 *	the whole group
 *
 * The sites' records are FREED and their addresses are being taken out of
 * every ops' filter: their entries are retired too, so that text loaded
 * there later can have a direct function again.
 *
 * Context: ftrace_lock held.
 */
void ftrace_direct_purge(struct ftrace_group *g, unsigned long start, unsigned long end)
{
	struct ftrace_func_entry *entry;
	struct dyn_ftrace *rec;
	unsigned long i;

	ftrace_hash_for_each(direct_hash(), i, entry) {
		if (entry->ip < start || entry->ip >= end)
			continue;
		rec = ftrace_group_find(g, entry->ip, entry->ip);
		if (rec && ftrace_rec_ip(g, rec) == entry->ip)
			WRITE_ONCE(entry->direct, 0);
	}
}

/**
 * ftrace_direct_check_filter - may a registered ops take this filter?
 * @ops: the ops, registered
 * @filter: its new filter
 *
 * A direct ops wants exactly the sites that have its direct function: an
 * empty filter would make it want every site, and a site without a
 * function would be patched to call nothing.  Upstream refuses the first
 * too (-EINVAL).
 *
 * Context: ftrace_lock held.
 * Return: 0 (always for an ops of another role), -EINVAL.
 */
int ftrace_direct_check_filter(struct ftrace_ops *ops, struct ftrace_hash *filter)
{
	struct ftrace_func_entry *entry;
	unsigned long i;

	if (ops->role != FTRACE_ROLE_DIRECT)
		return 0;
	if (ftrace_hash_empty(filter))
		return -EINVAL;
	ftrace_hash_for_each(filter, i, entry)
		if (!ftrace_find_rec_direct(entry->ip))
			return -EINVAL;
	return 0;
}

/**
 * register_ftrace_direct_multi - make the sites of an ops call a function
 * @ops: the caller's ops, its sites set with ftrace_set_filter_ip(s)(),
 *	not registered, ->func and ->trampoline clear
 * @addr: the function (a BPF trampoline); entered as if each site had
 *	called it, it returns into the traced function
 *
 * The ops is registered with ftrace_regs_caller's direct-call callback:
 * a site that only @ops wants calls @addr itself, a shared one goes
 * through ftrace_regs_caller.  If an IPMODIFY ops has one of the sites,
 * @ops->ops_func is asked (ENABLE_SHARE_IPMODIFY_SELF) whether @addr can
 * share it.  Whatever fails, nothing is left: @ops is not registered,
 * ->func is clear again and no site has @addr.
 *
 * Return: 0; -EINVAL for an ops in the wrong state or without sites;
 * -EBUSY if a site has a direct function already, or an IPMODIFY ops has
 * it and @ops cannot share (no ops_func); what ops_func returned
 * (-EAGAIN: rebuild @addr for sharing and register again); -ENODEV once
 * ftrace is dead; -ENOMEM.
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

	mutex_lock(&direct_mutex);
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
		/*
		 * No site calls @addr: ftrace_startup() undid its patching,
		 * or, if ftrace died on the way, this undoes what it did.
		 */
		unpatch_dead(sites, 0, addr);
		ops->func = NULL;
		ops->flags &= ~added;
		ops->role = FTRACE_ROLE_CALLBACK;
		funcs = swap_funcs(old);
		old = funcs;
	}
	ftrace_hash_free_rude(old);
out:
	mutex_unlock(&ftrace_lock);
	mutex_unlock(&direct_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(register_ftrace_direct_multi);

/**
 * unregister_ftrace_direct_multi - give the sites of a direct ops back
 * @ops: an ops registered by register_ftrace_direct_multi()
 * @addr: its function
 *
 * When this returns, no site calls @addr any more, though a CPU may still
 * be running in it: the owner waits for tasks-RCU before freeing it.
 * ->func and ->trampoline are cleared, so @ops can be registered again.
 * It allocates nothing it cannot do without: BPF frees its trampoline
 * whatever this returns.
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
	mutex_lock(&direct_mutex);
	mutex_lock(&ftrace_lock);
	ret = -EINVAL;
	if (!(ops->flags & FTRACE_OPS_FL_ENABLED))
		goto out;
	sites = rcu_dereference_protected(ops->func_hash->filter_hash,
					  lockdep_is_held(&ftrace_lock));
	/* Made first, so that a failure leaves everything as it was. */
	/* The sites move off @addr first: patching reads it in the hash. */
	ret = ftrace_shutdown(ops, 0);
	unpatch_dead(sites, 0, addr);
	funcs = ftrace_direct_funcs_edit(direct_hash(), sites, 0, addr);
	if (funcs)
		ftrace_hash_free_rude(swap_funcs(funcs));
	else
		retire(sites, addr);
	ops->func = NULL;
	ops->trampoline = 0;
out:
	mutex_unlock(&ftrace_lock);
	mutex_unlock(&direct_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_direct_multi);

/**
 * modify_ftrace_direct_multi_nolock - move the sites of a direct ops to another function
 * @ops: an ops registered by register_ftrace_direct_multi()
 * @addr: the new function
 *
 * For an ops_func handler (ENABLE/DISABLE_SHARE_IPMODIFY_PEER), which
 * runs with the direct-call mutex held.  Each site that calls the old
 * function itself is re-patched to call @addr in one instruction write
 * (all in one batch); shared sites use @addr from their next call.  If
 * an IPMODIFY ops has one of the sites, @ops->ops_func is asked first
 * (ENABLE_SHARE_IPMODIFY_SELF), as register_ftrace_direct_multi() asks.
 *
 * Context: direct_mutex held.
 * Return: 0, -EINVAL if @ops is not a registered direct ops, -EBUSY or
 * what ops_func returned (-EAGAIN: rebuild @addr for sharing and modify
 * again; nothing changed), -ENODEV if ftrace is dead (or died on the way).
 */
int modify_ftrace_direct_multi_nolock(struct ftrace_ops *ops, unsigned long addr)
{
	struct ftrace_func_entry *site, *entry;
	struct ftrace_hash *sites, *funcs;
	unsigned long ip = 0, i;
	struct dyn_ftrace *rec;
	int ret = 0;

	lockdep_assert_held(&direct_mutex);
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
	 * A live patch on one of the sites needs @addr built to share it,
	 * as at registration: BPF answers -EAGAIN, rebuilds and comes back.
	 * Without this question its new trampoline would call the function's
	 * own body, not the patched one.
	 */
	ret = ftrace_direct_check_share(rcu_dereference_protected(ftrace_ops_list, 1), ops,
					sites,
					rcu_dereference_protected(ops->func_hash->notrace_hash,
								  lockdep_is_held(&ftrace_lock)));
	if (ret)
		goto out;
	funcs = direct_hash();
	ftrace_arch_patch_begin(sites ? sites->count : 0);
	ftrace_hash_for_each(sites, i, site) {
		entry = ftrace_lookup_ip(funcs, site->ip);
		if (!entry || !entry->direct || entry->direct == addr)
			continue;
		rec = ftrace_find_rec(site->ip, NULL);
		if (!rec || !(rec->flags & FTRACE_REC_DIRECT_EN))
			continue;
		ip = site->ip;
		ret = ftrace_arch_patch_site(ip, entry->direct, addr);
		if (ret)
			goto patched;	/* a break would leave only the bucket */
	}
patched:
	ftrace_arch_patch_end();
	if (ret) {
		ftrace_anomaly("patching a direct call", ip, ret);
		/* The sites moved before the failure: @addr will be freed. */
		unpatch_dead(sites, 0, addr);
		ret = -ENODEV;
		goto out;
	}
	ftrace_hash_for_each(sites, i, site) {
		entry = ftrace_lookup_ip(funcs, site->ip);
		if (entry && entry->direct)
			WRITE_ONCE(entry->direct, addr);
	}
	/* Cleared by BPF before it retried; the core does not call it. */
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
 * modify_ftrace_direct_multi_nolock() with the direct-call mutex taken.
 *
 * Return: as modify_ftrace_direct_multi_nolock().
 */
int modify_ftrace_direct_multi(struct ftrace_ops *ops, unsigned long addr)
{
	int ret;

	mutex_lock(&direct_mutex);
	ret = modify_ftrace_direct_multi_nolock(ops, addr);
	mutex_unlock(&direct_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct_multi);

/* ---- Sharing sites between direct ops and IPMODIFY ops ---- */

/* Whether @op wants a site of @filter minus @notr (empty filter: all). */
static bool shares_site(struct ftrace_ops *op, struct ftrace_hash *filter,
			struct ftrace_hash *notr)
{
	struct ftrace_hash *of = rcu_dereference_protected(op->func_hash->filter_hash, 1);
	struct ftrace_func_entry *entry;
	unsigned long i;

	if (ftrace_hash_empty(filter) && ftrace_hash_empty(of))
		return true;
	/* Walk the non-empty filter: every site it names is a candidate. */
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
 * A direct ops on a site of a registered IPMODIFY ops needs its ops_func
 * to agree (ENABLE_SHARE_IPMODIFY_SELF); an IPMODIFY ops on a site of a
 * registered direct ops needs that ops to have an ops_func (which
 * register_ftrace_function() asked beforehand).
 *
 * Context: ftrace_lock held (for ftrace_ops_list).
 * Return: 0, -EBUSY, or what ops_func returned.
 */
int ftrace_direct_check_share(struct ftrace_ops *list, struct ftrace_ops *ops,
			      struct ftrace_hash *filter, struct ftrace_hash *notr)
{
	bool direct = ops->role == FTRACE_ROLE_DIRECT;
	struct ftrace_ops *op;

	if (!direct && !(ops->flags & FTRACE_OPS_FL_IPMODIFY))
		return 0;
	for_each_ftrace_op(op, list) {
		if (op == ops)
			continue;
		/* A direct ops meets IPMODIFY ones, an IPMODIFY ops direct ones. */
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

/* The next registered direct ops after @after that shares a site with @ops. */
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
 * Whether a registered IPMODIFY ops still has a site of the direct ops
 * @peer: then @peer must keep sharing, whatever another IPMODIFY ops did
 * (one refused for that very site, or registered twice).
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
 * Each direct ops that shares a site with @ops gets @cmd through its
 * ops_func, outside ftrace_lock: the handler may re-patch its sites to
 * a function built for sharing.  Direct ops cannot come or go meanwhile
 * (direct_mutex), so the walk can drop ftrace_lock between requests.
 * DISABLE skips a peer that a registered IPMODIFY ops still shares a
 * site with: after a refused registration that is the ops it collided
 * with, and a live patch must not lose a BPF trampoline's sharing.
 *
 * Context: ftrace_direct_lock() held, ftrace_lock not.
 * Return: 0 for an ops without IPMODIFY or for DISABLE; for ENABLE, -EBUSY
 * if a peer has no ops_func or the first error a peer returned (the
 * peers told before then are told DISABLE).
 */
int ftrace_direct_tell_peers(struct ftrace_ops *ops, enum ftrace_ops_cmd cmd)
{
	bool enable = cmd == FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER;
	struct ftrace_ops *peer = NULL;
	int ret = 0;

	if (!(ops->flags & FTRACE_OPS_FL_IPMODIFY))
		return 0;
	lockdep_assert_held(&direct_mutex);
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

/**
 * ftrace_direct_lock - take the outermost lock of direct calls
 *
 * register_ftrace_function() and unregister_ftrace_function() hold it
 * around the registration and the requests to direct ops it causes.
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
