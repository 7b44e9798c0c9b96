/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 side of dynamic ftrace: the call-site instructions and what the
 * trampolines of arch/arm64/kernel/entry-ftrace.S hand the callbacks.
 * See Documentation/trace/ftrace-core-design.rst, "The arch contract".
 *
 * The compiler opens every traced function with two NOPs
 * (-fpatchable-function-entry=2).  At init the first becomes
 * "mov x9, x30" for good; the second, the site proper, is toggled between
 * NOP and "bl <trampoline>".  A record's address is that second NOP.
 */
#ifndef __ASM_FTRACE_H
#define __ASM_FTRACE_H

#include <asm/insn.h>

#define MCOUNT_INSN_SIZE	AARCH64_INSN_SIZE

/*
 * The table lists the first NOP of each pair; the site is the second.
 * With BTI the pair follows a "bti c", so a site sits at most two
 * instructions into its function: farther in, it is in the body of a
 * weak function that the linker overrode.
 */
#define FTRACE_SITE_MAX_OFFSET	(2 * AARCH64_INSN_SIZE)

/*
 * Module text may be out of "bl" range (+-128 MiB) of the kernel's
 * trampolines; arch/arm64/kernel/module.c then gives each module two PLT
 * entries, one per shared trampoline, in these slots.
 */
#define FTRACE_PLT_IDX		0
#define FTRACE_REGS_PLT_IDX	1
#define NR_FTRACE_PLTS		2
#define FTRACE_ADDR		((unsigned long)ftrace_caller)
#define FTRACE_REGS_ADDR	((unsigned long)ftrace_regs_caller)

/*
 * The stack tracer's frame sizes: a frame record holds the return
 * address at the top of the frame that made the call, one entry off from
 * what trace_stack.c assumes.
 */
#define ARCH_FTRACE_SHIFT_STACK_TRACER 1

#ifndef __ASSEMBLY__
void *return_address(unsigned int level);
#define ftrace_return_address(n) return_address(n)

/**
 * ftrace_call_adjust - the site of a table entry
 * @addr: the first NOP of a patchable entry, as the table lists it
 *
 * Return: the second NOP, the one that becomes a "bl".
 */
static inline unsigned long ftrace_call_adjust(unsigned long addr)
{
	return addr + AARCH64_INSN_SIZE;
}

struct ftrace_ops;
struct ftrace_regs;
/* What both trampolines call: an ftrace_func_t (arch/arm64/kernel/ftrace.c). */
extern void (*ftrace_caller_func)(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs);

#ifdef CONFIG_DYNAMIC_FTRACE
/* Nothing per site beyond the generic record. */
struct dyn_arch_ftrace {
};
#endif

/*
 * Callbacks get a full struct pt_regs (the generic struct ftrace_regs):
 * ftrace_caller fills x0-x9, fp, lr, sp and pc, ftrace_regs_caller every
 * general register.  Both return to regs->pc with lr from regs->regs[30].
 */
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * The graph tracer is an ordinary ops: its callback swaps the lr the
 * trampoline will restore for return_to_handler.
 */
#define ftrace_graph_func ftrace_graph_func
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs);
#endif

/*
 * Return-stack entries are found by the frame pointer of the traced
 * function's caller, which is what the unwinder holds when it meets
 * return_to_handler in a frame record.
 */
#define HAVE_FUNCTION_GRAPH_RET_ADDR_PTR

/*
 * Per-ops trampolines are never built on arm64 (see
 * arch/arm64/kernel/ftrace.c), so nothing is left writable at the end
 * of boot.
 */
static inline void set_ftrace_ops_ro(void) { }

#if defined(CONFIG_FTRACE_SYSCALLS) && !defined(COMPILE_OFFSETS)
#include <linux/compat.h>

/* 32-bit tasks' syscall numbers are not the 64-bit ones: leave them out. */
#define ARCH_TRACE_IGNORE_COMPAT_SYSCALLS
static inline bool arch_trace_is_compat_syscall(struct pt_regs *regs)
{
	return is_compat_task();
}
#endif

/*
 * The syscall tables name sys_foo, the symbols are __arm64_sys_foo (or
 * __arm64_compat_sys_foo): compare what follows the prefix.
 */
#define ARCH_HAS_SYSCALL_MATCH_SYM_NAME
static inline bool arch_syscall_match_sym_name(const char *sym,
					       const char *name)
{
	if (str_has_prefix(sym, "__arm64_"))
		sym += 8;
	return strlen(sym) >= 3 && strlen(name) >= 3 && !strcmp(sym + 3, name + 3);
}
#endif /* !__ASSEMBLY__ */

#endif /* __ASM_FTRACE_H */
