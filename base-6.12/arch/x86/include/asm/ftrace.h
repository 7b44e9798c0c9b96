/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 side of dynamic ftrace: the call-site instruction and the register
 * frame the trampolines in arch/x86/kernel/ftrace_64.S build.  See
 * Documentation/trace/ftrace-core-design.rst.
 */
#ifndef _ASM_X86_FTRACE_H
#define _ASM_X86_FTRACE_H

#ifdef CONFIG_FUNCTION_TRACER
#ifndef CC_USING_FENTRY
# error "dynamic ftrace on x86 needs the compiler's -mfentry"
#endif

/* Every traced function starts with a 5-byte "call __fentry__". */
#define MCOUNT_ADDR		((unsigned long)(__fentry__))
#define MCOUNT_INSN_SIZE	5

/* ... at its start or after an ENDBR: farther in is a weak function's dead body. */
#include <asm/ibt.h>
#define FTRACE_SITE_MAX_OFFSET	ENDBR_INSN_SIZE

/* vmlinux's sites come from the build as NOPs, the table without dead sites. */
#define FTRACE_SITES_READY_AT_BUILD	1

#ifndef __ASSEMBLY__
extern void __fentry__(void);

/* The table lists each site itself. */
static inline unsigned long ftrace_call_adjust(unsigned long addr)
{
	return addr;
}

/* Labels in the trampolines of ftrace_64.S that per-ops copies rewrite */
extern char ftrace_caller_op_ptr[], ftrace_caller_end[];
extern char ftrace_regs_caller_op_ptr[], ftrace_regs_caller_end[];
extern char ftrace_regs_caller_direct_ret[];

#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
/*
 * A pt_regs-shaped frame on the trampoline's stack; ftrace_caller leaves
 * cs zero, which is how arch_ftrace_get_regs() tells it from
 * ftrace_regs_caller's full one.
 */
struct ftrace_regs {
	struct pt_regs		regs;
};

static __always_inline struct pt_regs *
arch_ftrace_get_regs(struct ftrace_regs *fregs)
{
	return fregs->regs.cs ? &fregs->regs : NULL;
}

/* ftrace_regs_caller "returns" into the function in orig_ax (0: none). */
#define arch_ftrace_set_direct_caller(fregs, addr)	((fregs)->regs.orig_ax = (addr))

/* Where both trampolines return to (livepatch redirects a call). */
#define ftrace_regs_set_instruction_pointer(fregs, new_ip)	\
	((fregs)->regs.ip = (new_ip))

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/* The graph tracer's callback swaps the return address regs.sp points at. */
struct ftrace_ops;
#define ftrace_graph_func ftrace_graph_func
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs);
void prepare_ftrace_return(unsigned long ip, unsigned long *parent,
			   struct ftrace_ops *op);
#endif
#endif /* CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS */

/* Return-stack entries remember where on the stack they hooked a return. */
#define HAVE_FUNCTION_GRAPH_RET_ADDR_PTR

#ifdef CONFIG_DYNAMIC_FTRACE
/* Nothing per site beyond the generic record. */
struct dyn_arch_ftrace {
};
#endif
#endif /* !__ASSEMBLY__ */
#endif /* CONFIG_FUNCTION_TRACER */

#ifndef __ASSEMBLY__

/* Asked by the int3 trap after the kernel's own text-poke handler. */
struct pt_regs;
#ifdef CONFIG_DYNAMIC_FTRACE
bool ftrace_int3_handler(struct pt_regs *regs);
#else
static inline bool ftrace_int3_handler(struct pt_regs *regs) { return false; }
#endif

/* Per-ops trampolines are read-only from the moment they are built. */
static inline void set_ftrace_ops_ro(void) { }

/* sys_foo in the tables is __x64_sys_foo, __ia32_sys_foo or __do_sys_foo. */
#define ARCH_HAS_SYSCALL_MATCH_SYM_NAME
static inline bool arch_syscall_match_sym_name(const char *sym, const char *name)
{
	if (str_has_prefix(sym, "__x64_"))
		sym += 6;
	else if (str_has_prefix(sym, "__ia32_"))
		sym += 7;
	else if (str_has_prefix(sym, "__do_"))
		sym += 5;
	return strlen(sym) >= 3 && strlen(name) >= 3 && !strcmp(sym + 3, name + 3);
}

#ifndef COMPILE_OFFSETS
#if defined(CONFIG_FTRACE_SYSCALLS) && defined(CONFIG_IA32_EMULATION)
#include <linux/compat.h>

/* 32-bit syscalls have their own numbers: do not trace them as 64-bit. */
#define ARCH_TRACE_IGNORE_COMPAT_SYSCALLS 1
static inline bool arch_trace_is_compat_syscall(struct pt_regs *regs)
{
	return in_32bit_syscall();
}
#endif
#endif /* !COMPILE_OFFSETS */
#endif /* !__ASSEMBLY__ */

#endif /* _ASM_X86_FTRACE_H */
