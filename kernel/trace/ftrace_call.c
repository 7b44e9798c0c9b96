// SPDX-License-Identifier: GPL-2.0
/*
 * The call path: the ops list, the list function that serves several ops
 * on one site, the wrappers that give an ops called alone recursion
 * protection or pid filtering, and the direct calls' callback.  Nothing
 * here takes a lock.  See Documentation/trace/ftrace-core-design.rst.
 */
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "trace.h"
#include "ftrace_internal.h"
#include "ftrace_wants.h"

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

/*
 * An RCU ops' callback reads RCU-protected data; at a site where RCU is
 * not watching (idle, early entry) it must not run at all.
 */
static __always_inline bool rcu_ok(struct ftrace_ops *op)
{
	return !(op->flags & FTRACE_OPS_FL_RCU) || rcu_is_watching();
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
		if (op->role != FTRACE_ROLE_SITES && pid_ok(op) && rcu_ok(op) &&
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

	ftrace_assert_locked();
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
	if (pid_ok(op) && rcu_ok(op))
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
	if (ops->flags & (FTRACE_OPS_FL_RECURSION | FTRACE_OPS_FL_RCU) ||
	    ops_pid_filtered(ops))
		return ftrace_ops_assist_func;
	return ftrace_ops_callback(ops);
}
