/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract between the dynamic ftrace core (kernel/trace) and an
 * architecture's back end (arch/<arch>/kernel/ftrace.c): what the core
 * calls to set up and patch call sites and trampolines, and the little of
 * the core a back end may use.  The back end includes this header, never
 * the core's own.  See Documentation/trace/ftrace-core-design.rst.
 */
#ifndef _LINUX_FTRACE_ARCH_H
#define _LINUX_FTRACE_ARCH_H

#include <linux/atomic.h>
#include <linux/ftrace.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>

#ifdef CONFIG_DYNAMIC_FTRACE

/*
 * An arch whose build leaves vmlinux's sites as NOPs, without dead sites,
 * says so in <asm/ftrace.h>, and boot then writes and looks up nothing.
 */
#ifndef FTRACE_SITES_READY_AT_BUILD
#define FTRACE_SITES_READY_AT_BUILD	0
#endif

/* Per-ops trampolines are numbered 1..FTRACE_TRAMP_SLOTS; 0 means none. */
#define FTRACE_TRAMP_SLOTS	1023

/*
 * Called by the core, which holds ftrace_lock except around
 * ftrace_arch_init_begin()/_end(): those may hold the arch's text lock
 * and run before a group of sites is published.  A site's target is 0
 * for a NOP, else the address its call goes to.  Errors are anomalies:
 * -EFAULT for text that cannot be read, -EINVAL for unexpected bytes.
 */
void ftrace_arch_init_begin(void);
int ftrace_arch_init_site(unsigned long ip);
void ftrace_arch_init_end(void);
void ftrace_arch_patch_begin(unsigned int nr);
int ftrace_arch_patch_site(unsigned long ip, unsigned long old_target,
			   unsigned long new_target);
void ftrace_arch_patch_end(void);
int ftrace_arch_set_callback(ftrace_func_t old, ftrace_func_t func);
unsigned long ftrace_arch_tramp_create(struct ftrace_ops *ops, ftrace_func_t func,
				       unsigned int slot, unsigned long *size);
int ftrace_arch_tramp_set_callback(unsigned long tramp, bool regs,
				   ftrace_func_t old, ftrace_func_t func);
void ftrace_arch_tramp_free(unsigned long tramp);

/* The core's lock, held around every call above but init_begin/_end. */
extern struct mutex ftrace_lock;
#define ftrace_arch_assert_locked()	lockdep_assert_held(&ftrace_lock)

/* Mismatches the tests ask the patcher to report (tracefs knob). */
extern atomic_t ftrace_inject_mismatch;

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/* Gives a traced call to the graph user of @op: @slot holds the return address. */
void fgraph_hook_slot(unsigned long ip, unsigned long *slot, unsigned long *retp,
		      struct ftrace_ops *op);
#endif

#endif /* CONFIG_DYNAMIC_FTRACE */

#endif /* _LINUX_FTRACE_ARCH_H */
