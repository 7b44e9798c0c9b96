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

static DEFINE_MUTEX(direct_mutex);

static struct ftrace_hash __rcu *direct_functions;

/**
 * ftrace_direct_call - the callback of every direct ops
 * @ip: the call site
 * @parent_ip: the traced function's return address
 * @op: the direct ops (unused: one hash serves them all)
 * @fregs: the registers the trampoline saved
 *
 * The core calls it for any ops of the direct role instead of ->func,
 * which BPF clears before retrying a modify refused with -EAGAIN.
 */
void ftrace_direct_call(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	unsigned long addr;

	/*
	 * May run with preemption on (arm64, alone on a site out of bl
	 * range); the hash is freed after an RCU-tasks-rude grace period.
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

static void publish(struct ftrace_hash *hash)
{
	struct ftrace_hash *old = rcu_dereference_protected(direct_functions, 1);

	rcu_assign_pointer(direct_functions, hash);
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

static void unpatch_dead_site(unsigned long ip, unsigned long addr)
{
	struct dyn_ftrace *rec = ftrace_find_rec(ip, NULL);

	if (rec && (rec->flags & FTRACE_REC_DIRECT_EN) &&
	    !ftrace_arch_patch_site(ip, addr, 0))
		rec->flags &= ~FTRACE_REC_SITE;
}

/*
 * Once ftrace is dead sites are left alone, except that a site calling
 * @addr must not outlive its registration: the owner frees @addr whatever
 * the API returned.  The arch leaves a site that does not hold that call.
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

/* Return: the old hash, still live for readers that started before. */
static struct ftrace_hash *swap_funcs(struct ftrace_hash *hash)
{
	struct ftrace_hash *old = direct_hash();

	rcu_assign_pointer(direct_functions, hash);
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
	/* If ftrace died on the way, undo what its patching did. */
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
	mutex_lock(&direct_mutex);
	mutex_lock(&ftrace_lock);
	ret = -EINVAL;
	if (!(ops->flags & FTRACE_OPS_FL_ENABLED))
		goto out;
	sites = rcu_dereference_protected(ops->func_hash->filter_hash,
					  lockdep_is_held(&ftrace_lock));
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

	mutex_lock(&direct_mutex);
	ret = modify_ftrace_direct_multi_nolock(ops, addr);
	mutex_unlock(&direct_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct_multi);

/* ---- Sharing sites between direct ops and IPMODIFY ops ---- */

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
 * Held around a registration and the requests to direct ops it causes.
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
