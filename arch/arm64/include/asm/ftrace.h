/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 side of dynamic ftrace: the call-site instructions and what the
 * trampolines of arch/arm64/kernel/entry-ftrace.S hand the callbacks.
 * See Documentation/trace/ftrace-core-design.rst, "The arch contract".
 *
 * The compiler opens every traced function with two NOPs and puts a third
 * just before it (-fpatchable-function-entry=3,1, patch 0005).  Before
 * tracing starts (vmlinux: at build time; a module: when it loads) the
 * first NOP of the function becomes "mov x9, x30" for good; the
 * second, the site proper, is toggled between NOP and "bl <trampoline>".
 * A record's address is that second NOP.  The word before the function is
 * never executed: it is the site's slot word, the NOP or the number of the
 * core's trampoline slot whose ops alone wants the site (see
 * arch/arm64/kernel/ftrace.c).
 */
#ifndef __ASM_FTRACE_H
#define __ASM_FTRACE_H

#include <asm/insn.h>

#define MCOUNT_INSN_SIZE	AARCH64_INSN_SIZE

/*
 * The table lists the slot word; the site is two instructions on.  With
 * BTI the pair follows a "bti c", so a site sits at most two instructions
 * into its function: farther in, it is in the body of a weak function
 * that the linker overrode.  (GCC 12 builds 6.1 without kernel BTI.)
 */
#define FTRACE_SITE_MAX_OFFSET	(2 * AARCH64_INSN_SIZE)

/*
 * The build leaves vmlinux's sites ready: each function's first NOP is
 * the mov, the table sorted and without dead sites ('recordmcount -V
 * vmlinux' after the link, which rewrites the table's relocations).
 */
#define FTRACE_SITES_READY_AT_BUILD	1

/* From a site to its slot word, and from ftrace_caller's lr to it */
#define FTRACE_SLOT_WORD_OFFSET		(2 * AARCH64_INSN_SIZE)
#define FTRACE_LR_SLOT_WORD_OFFSET	(3 * AARCH64_INSN_SIZE)
/*
 * Slot entries: the table in ftrace.c has this many (16 KiB), slot 0
 * unused; one per trampoline slot of the core.
 */
#define FTRACE_SLOT_ENTRIES		1024

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
 * @addr: the slot word before a function, as the table lists it
 *
 * Return: the function's second NOP, the one that becomes a "bl".
 */
static inline unsigned long ftrace_call_adjust(unsigned long addr)
{
	return addr + FTRACE_SLOT_WORD_OFFSET;
}

struct ftrace_ops;
struct ftrace_regs;
/* What both trampolines call: an ftrace_func_t (arch/arm64/kernel/ftrace.c). */
extern void (*ftrace_caller_func)(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs);

/*
 * What a site whose slot word holds N calls: ftrace_slot_calls[N].func
 * with ftrace_slot_calls[N].ops (entry-ftrace.S loads both with one ldp).
 */
struct ftrace_slot_call {
	void (*func)(unsigned long ip, unsigned long parent_ip,
		     struct ftrace_ops *op, struct ftrace_regs *fregs);
	struct ftrace_ops *ops;
};

extern struct ftrace_slot_call ftrace_slot_calls[FTRACE_SLOT_ENTRIES];

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

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/*
 * A callback on a site that other ops share with a direct function (or
 * on a site whose direct function is out of bl range) asks the trampoline
 * to enter @addr on its way out, as if the site had called it: x9 holding
 * the traced function's lr, x30 where the traced function resumes.  The
 * trampoline clears pt_regs.orig_x0 on entry and reads it on exit.
 */
#define arch_ftrace_set_direct_caller(regs, addr)	((regs)->orig_x0 = (addr))
#endif

/*
 * Return-stack entries are found by the frame pointer of the traced
 * function's caller, which is what the unwinder holds when it meets
 * return_to_handler in a frame record.
 */
#define HAVE_FUNCTION_GRAPH_RET_ADDR_PTR

/*
 * arm64 builds no trampoline code (a slot is an entry of
 * ftrace_slot_calls), so nothing is left writable at the end of boot.
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
