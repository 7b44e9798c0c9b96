/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Direct-call trampolines for our arm64 stand-ins of the ftrace-direct
 * samples (6.1 has them for x86 only; ftracetest loads them by name).
 *
 * A direct function is entered as the call site would have entered it:
 * x0-x7 (and x8) still hold the traced function's arguments, x9 its own
 * return address and x30 the instruction after the site, where it
 * resumes.  The trampoline pushes two frame records, the traced
 * function's ({x29, x9}) and its own ({that, x30}), so that a stack trace
 * taken in the C function reads "C function, trampoline, traced function,
 * its caller", and so that a return hooked by the graph tracer (x9 is then
 * return_to_handler) is found by the frame pointer the graph core saw.
 * It keeps x0-x8 across the C call and returns into the traced function
 * with x30 back to x9.
 *
 * ARM64_DIRECT_TRAMP(name, cfunc, setup): the trampoline "name" calls
 * cfunc with the traced function's arguments, after "setup" (an
 * instruction string, or "" for none) has had its say: the multi-site
 * sample passes the call site (x30 - 4) in x0 instead.
 */
#ifndef ARM64_DIRECT_H
#define ARM64_DIRECT_H

#include <linux/stringify.h>
#include <asm/insn.h>

/* Where x0-x8 go, above the two frame records. */
#define ARM64_DIRECT_ARGS	80

#define ARM64_DIRECT_TRAMP(name, cfunc, setup)				\
	void name(void);						\
	asm(".pushsection .text, \"ax\", @progbits\n"			\
	    "	.type " #name ", %function\n"				\
	    "	.globl " #name "\n"					\
	    "	.p2align 2\n"						\
	    #name ":\n"							\
	    "	hint	34\n"		/* bti c */			\
	    "	stp	x29, x9, [sp, #-16]!\n"				\
	    "	mov	x29, sp\n"					\
	    "	stp	x29, x30, [sp, #-16]!\n"			\
	    "	mov	x29, sp\n"					\
	    "	sub	sp, sp, #" __stringify(ARM64_DIRECT_ARGS) "\n"	\
	    "	stp	x0, x1, [sp, #0]\n"				\
	    "	stp	x2, x3, [sp, #16]\n"				\
	    "	stp	x4, x5, [sp, #32]\n"				\
	    "	stp	x6, x7, [sp, #48]\n"				\
	    "	str	x8, [sp, #64]\n"				\
	    "	" setup "\n"						\
	    "	bl	" #cfunc "\n"					\
	    "	ldr	x8, [sp, #64]\n"				\
	    "	ldp	x6, x7, [sp, #48]\n"				\
	    "	ldp	x4, x5, [sp, #32]\n"				\
	    "	ldp	x2, x3, [sp, #16]\n"				\
	    "	ldp	x0, x1, [sp, #0]\n"				\
	    "	add	sp, sp, #" __stringify(ARM64_DIRECT_ARGS) "\n"	\
	    "	ldp	x29, x10, [sp], #16\n"	/* x10: where to resume */ \
	    "	ldp	x29, x30, [sp], #16\n"	/* x30: the function's lr */ \
	    "	ret	x10\n"						\
	    "	.size " #name ", .-" #name "\n"				\
	    ".popsection\n")

/*
 * ARM64_DIRECT_ONE_SITE(func, tramp): the module's init puts one direct
 * call on func, entering tramp, and its exit takes it off.
 */
#define ARM64_DIRECT_ONE_SITE(func, tramp)				\
	static int __init one_site_init(void)				\
	{								\
		return register_ftrace_direct((unsigned long)(func),	\
					      (unsigned long)(tramp));	\
	}								\
	static void __exit one_site_exit(void)				\
	{								\
		unregister_ftrace_direct((unsigned long)(func),		\
					 (unsigned long)(tramp));	\
	}								\
	module_init(one_site_init);					\
	module_exit(one_site_exit)

/* The call site of the traced function, for ARM64_DIRECT_TRAMP's setup. */
#define ARM64_DIRECT_PASS_SITE	"sub	x0, x30, #" __stringify(AARCH64_INSN_SIZE)

#endif /* ARM64_DIRECT_H */
