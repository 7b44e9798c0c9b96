// SPDX-License-Identifier: GPL-2.0
/*
 * The direct calls' call path: the hash of each site's direct function
 * and the callback that sends a shared site's call there.  The hash is
 * replaced by ftrace_direct.c, never edited in place except to retire an
 * entry; readers run with preemption disabled or hold ftrace_lock.
 */
#include <linux/ftrace.h>
#include <linux/rcupdate.h>

#include "trace.h"
#include "ftrace_internal.h"

struct ftrace_hash __rcu *ftrace_direct_funcs;

/**
 * ftrace_find_rec_direct - the direct function of a call site
 * @ip: the call site
 *
 * Context: preemption disabled, or ftrace_lock held.
 * Return: its address, or 0 if the site has none.
 */
unsigned long ftrace_find_rec_direct(unsigned long ip)
{
	struct ftrace_hash *hash = rcu_dereference_check(ftrace_direct_funcs,
				lockdep_is_held(&ftrace_lock) || rcu_read_lock_sched_held());
	struct ftrace_func_entry *entry = ftrace_lookup_ip(hash, ip);

	return entry ? READ_ONCE(entry->direct) : 0;
}

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
	unsigned long addr;

	/*
	 * May run with preemption on (arm64, alone on a site out of bl
	 * range); the hash is freed after an RCU-tasks-rude grace period.
	 */
	preempt_disable_notrace();
	addr = ftrace_find_rec_direct(ip);
	preempt_enable_notrace();
	/*
	 * Every trampoline's frame is pt_regs-shaped, so the slot is there
	 * even without SAVE_REGS: arm64's two trampolines both enter the
	 * function set in it; on x86 the core puts direct sites that share
	 * the list function on ftrace_regs_caller, which does.
	 */
	if (addr)
		arch_ftrace_set_direct_caller(fregs, addr);
}
