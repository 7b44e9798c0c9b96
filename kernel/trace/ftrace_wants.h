/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether an ops wants a call site, inline for the two hot loops that ask
 * it per ops: the list function and the recount of every record.
 */
#ifndef _KERNEL_TRACE_FTRACE_WANTS_H
#define _KERNEL_TRACE_FTRACE_WANTS_H

#include "trace.h"
#include "ftrace_internal.h"

/*
 * The body of ftrace_ops_wants().  An ops with empty hashes, the function
 * tracer's usual case, costs only two loads.
 *
 * Context: preemption disabled, or ftrace_lock held.
 */
static __always_inline bool __ftrace_ops_wants(struct ftrace_ops *ops,
					       unsigned long ip)
{
	struct ftrace_hash *filter, *notr;

	if (!ops->func_hash)
		return true;
	filter = rcu_dereference_raw(ops->func_hash->filter_hash);
	notr = rcu_dereference_raw(ops->func_hash->notrace_hash);
	if (!ftrace_hash_empty(filter) && !ftrace_lookup_ip(filter, ip))
		return false;
	return ftrace_hash_empty(notr) || !ftrace_lookup_ip(notr, ip);
}

#endif /* _KERNEL_TRACE_FTRACE_WANTS_H */
