/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 side of dynamic ftrace: the call-site instructions and what the
 * trampolines of arch/arm64/kernel/entry-ftrace.S hand the callbacks.
 * See Documentation/trace/ftrace-core-design.rst, "The arch contract".
 *
 * -fpatchable-function-entry=3,1: the first NOP in a function becomes
 * "mov x9, x30" before tracing starts, the second (the site, a record's
 * address) toggles between NOP and "bl <trampoline>", and the word before
 * the function is never executed: it is the site's slot word.
 */
#ifndef __ASM_FTRACE_H
#define __ASM_FTRACE_H

#include <asm/insn.h>

#define MCOUNT_INSN_SIZE	AARCH64_INSN_SIZE

/*
 * The table lists the slot word; the site is two instructions on.  With
 * BTI the pair follows a "bti c", so a site farther in is in the body of
 * a weak function that the linker overrode.
 */
#define FTRACE_SITE_MAX_OFFSET	(2 * AARCH64_INSN_SIZE)

/* vmlinux's sites come ready from 'recordmcount -V vmlinux' after the link. */
#define FTRACE_SITES_READY_AT_BUILD	1

/* From a site to its slot word, and from ftrace_caller's lr to it */
#define FTRACE_SLOT_WORD_OFFSET		(2 * AARCH64_INSN_SIZE)
#define FTRACE_LR_SLOT_WORD_OFFSET	(3 * AARCH64_INSN_SIZE)
/* One slot entry per trampoline slot of the core, slot 0 unused. */
#define FTRACE_SLOT_ENTRIES		1024

/* Module text out of "bl" range gets a PLT entry per shared trampoline. */
#define FTRACE_PLT_IDX		0
#define FTRACE_REGS_PLT_IDX	1
#define NR_FTRACE_PLTS		2
#define FTRACE_ADDR		((unsigned long)ftrace_caller)
#define FTRACE_REGS_ADDR	((unsigned long)ftrace_regs_caller)

/* Frame records hold the return address one entry off from trace_stack.c's. */
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
/* What both trampolines call: an ftrace_func_t. */
extern void (*ftrace_caller_func)(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs);

/* What a site whose slot word holds N calls (loaded with one ldp). */
struct ftrace_slot_call {
	void (*func)(unsigned long ip, unsigned long parent_ip,
		     struct ftrace_ops *op, struct ftrace_regs *fregs);
	struct ftrace_ops *ops;
};

extern struct ftrace_slot_call ftrace_slot_calls[FTRACE_SLOT_ENTRIES];

#ifdef CONFIG_DYNAMIC_FTRACE
struct dyn_arch_ftrace {
};
#endif

/*
 * A pt_regs-shaped frame on the trampoline's stack.  ftrace_caller saves
 * the argument registers, x8, x9, fp, lr, sp and pc and leaves pstate
 * zero; ftrace_regs_caller saves them all and a kernel pstate, which is
 * how arch_ftrace_get_regs() tells the full frame from the other.
 */
struct ftrace_regs {
	struct pt_regs		regs;
};

static __always_inline struct pt_regs *
arch_ftrace_get_regs(struct ftrace_regs *fregs)
{
	return fregs->regs.pstate ? &fregs->regs : NULL;
}

/* Where both trampolines resume (livepatch redirects a call). */
#define ftrace_regs_set_instruction_pointer(fregs, new_ip)	\
	((fregs)->regs.pc = (new_ip))

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/* The graph tracer's callback swaps the lr the trampoline restores. */
#define ftrace_graph_func ftrace_graph_func
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs);
#endif

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/* Enter @addr on the way out, as if the site had called it. */
#define arch_ftrace_set_direct_caller(fregs, addr)	((fregs)->regs.orig_x0 = (addr))
#endif

/* Return-stack entries are found by the caller's frame pointer. */
#define HAVE_FUNCTION_GRAPH_RET_ADDR_PTR

/* No trampoline code is built, so nothing is left writable after boot. */
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

/* sys_foo in the tables is __arm64_sys_foo (or __arm64_compat_sys_foo). */
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
