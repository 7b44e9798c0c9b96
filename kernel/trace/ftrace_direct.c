// SPDX-License-Identifier: GPL-2.0
/*
 * Direct calls: a call site that calls a custom trampoline of its owner
 * (a sample module, the graph self-test) instead of ftrace's.
 *
 * One ops, direct_ops, wants every site that has a direct function; a
 * hash maps each such site to its function.  A site that direct_ops alone
 * wants is patched to call the function itself: nothing of ftrace runs.
 * A site that other ops want too calls ftrace_regs_caller, whose list
 * function runs direct_ops' callback with the others; that callback
 * stores the function in regs->orig_ax, and ftrace_regs_caller then
 * "returns" into it, so the function runs as if the site had called it.
 *
 * The hash is replaced, never edited, except for one entry's address in
 * modify_ftrace_direct(): readers are the callback (preemption off) and
 * the core's patching (ftrace_lock).
 */
#include <linux/ftrace.h>
#include <linux/rcupdate.h>

#include "trace.h"
#include "ftrace_internal.h"

int ftrace_direct_func_count;

static struct ftrace_hash __rcu *direct_functions;

static void call_direct_funcs(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	unsigned long addr = ftrace_find_rec_direct(ip);

	if (addr && regs)
		arch_ftrace_set_direct_caller(regs, addr);
}

/* PERMANENT: a direct function must not stop with kernel.ftrace_enabled. */
static struct ftrace_ops direct_ops = {
	.func		= call_direct_funcs,
	.flags		= FTRACE_OPS_FL_INITIALIZED | FTRACE_OPS_FL_DIRECT |
			  FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_PERMANENT,
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
		if (entry->ip == ip)
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
	publish(funcs);
	ftrace_direct_func_count--;
out:
	mutex_unlock(&ftrace_lock);
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
	mutex_lock(&ftrace_lock);
	entry = ip ? ftrace_lookup_ip(rcu_dereference_protected(direct_functions, 1), ip) :
		     NULL;
	if (!entry || ftrace_dead) {
		ret = -ENODEV;
		goto out;
	}
	if (entry->direct != old_addr) {
		ret = -EINVAL;
		goto out;
	}
	rec = ftrace_find_rec(ip, NULL);
	if (rec && (rec->flags & FTRACE_REC_DIRECT_EN)) {
		ftrace_arch_patch_begin();
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
	return ret;
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct);
