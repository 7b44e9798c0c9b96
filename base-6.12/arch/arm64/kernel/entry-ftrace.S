/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two trampolines every enabled arm64 call site calls, ftrace_stub
 * and the graph tracer's return hook.
 *
 * An enabled site reads "mov x9, x30; bl <trampoline>": on entry x30 is
 * where the traced function resumes and x9 its own return address.  The
 * traced function has not run yet, so x0-x8, x18, x19-x29 and sp are
 * live; x9-x17 are free, though a module PLT may have used x16 and x17.
 *
 * Each trampoline builds a struct pt_regs below the traced function's
 * stack (the arch's struct ftrace_regs), with two frame records so that a stack trace from a callback
 * reads "callback, trampoline, traced function, its caller".  The site's
 * slot word says what to call: N, ftrace_slot_calls[N].func with its ops;
 * the NOP, ftrace_caller_func with function_trace_op.  Both are data, so
 * changing a callback patches no instruction and minds no branch range.
 *
 * On the way out x30 comes from regs->regs[30] (the graph tracer swaps it
 * for return_to_handler) and execution resumes at regs->pc.
 */
#include <linux/cfi_types.h>
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/assembler.h>
#include <asm/ftrace.h>

/* pt_regs, and the traced function's frame record above it */
#define FTRACE_FRAME	(PT_REGS_SIZE + 16)

/*
 * Registers saved and restored at their pt_regs slots (\op is stp or
 * ldp).  arg_regs: x0-x7 (x8 pairs with x9 in the trampolines).
 * other_regs: the rest of ftrace_regs_caller's pt_regs but x28.
 */
	.macro	arg_regs, op
	\op	x0, x1, [sp, #S_X0]
	\op	x2, x3, [sp, #S_X2]
	\op	x4, x5, [sp, #S_X4]
	\op	x6, x7, [sp, #S_X6]
	.endm

	.macro	other_regs, op
	\op	x10, x11, [sp, #S_X10]
	\op	x12, x13, [sp, #S_X12]
	\op	x14, x15, [sp, #S_X14]
	\op	x16, x17, [sp, #S_X16]
	\op	x18, x19, [sp, #S_X18]
	\op	x20, x21, [sp, #S_X20]
	\op	x22, x23, [sp, #S_X22]
	\op	x24, x25, [sp, #S_X24]
	\op	x26, x27, [sp, #S_X26]
	.endm

	.macro	ftrace_enter, allregs
	sub	sp, sp, #FTRACE_FRAME
	arg_regs stp
	stp	x8, x9, [sp, #S_X8]
	/* pstate (next to orig_x0) zero: arch_ftrace_get_regs() says none */
	stp	xzr, xzr, [sp, #S_PSTATE]	// and no direct function yet
	.if	\allregs
	other_regs stp
	str	x28, [sp, #S_X28]
	/* The exception level (on SP_ELx) and the masks: a kernel pstate. */
	mrs	x10, CurrentEL
	mrs	x11, daif
	orr	x10, x10, x11
	orr	x10, x10, #1
	str	x10, [sp, #S_PSTATE]
	.endif
	str	x29, [sp, #S_FP]
	/*
	 * Where the traced function resumes, and the lr and sp it sees;
	 * then the frame records: x10 points at the traced function's
	 * ({x29, x9}, above pt_regs), ours ({x10, x30}) is in pt_regs.
	 */
	str	x30, [sp, #S_PC]
	add	x10, sp, #FTRACE_FRAME
	stp	x9, x10, [sp, #S_LR]
	add	x10, sp, #PT_REGS_SIZE
	stp	x29, x9, [x10]
	stp	x10, x30, [sp, #S_STACKFRAME]
	add	x29, sp, #S_STACKFRAME

	sub	x0, x30, #AARCH64_INSN_SIZE	// the call site
	mov	x1, x9				// the traced function's caller
	mov	x3, sp				// &regs
	ldur	w11, [x30, #-FTRACE_LR_SLOT_WORD_OFFSET]
	sub	w12, w11, #1			// slot 0 and the NOP fail the check
	cmp	w12, #(FTRACE_SLOT_ENTRIES - 1)
	b.hs	1f				// the NOP (or 0): shared path
	adr_l	x12, ftrace_slot_calls
	add	x12, x12, x11, lsl #4
	ldp	x4, x2, [x12]			// the slot's func and ops
	b	2f
	/*
	 * The core publishes the op, then (after a barrier) the callback
	 * that uses it: read them in the other order, the callback with
	 * acquire, so a new callback never runs with a stale op.
	 */
1:	adr_l	x12, ftrace_caller_func
	ldar	x4, [x12]
	ldr_l	x2, function_trace_op
2:	blr	x4
	.endm

	.macro	ftrace_leave, allregs
	arg_regs ldp
	ldr	x8, [sp, #S_X8]
	.if	\allregs
	other_regs ldp
	ldr	x28, [sp, #S_X28]
	.endif
	ldr	x29, [sp, #S_FP]
	ldr	x16, [sp, #S_ORIG_X0]
	cbnz	x16, 1f
	ldr	x30, [sp, #S_LR]
	ldr	x9, [sp, #S_PC]
	add	sp, sp, #FTRACE_FRAME
	ret	x9
	/*
	 * A callback named a direct function: enter it as the site would
	 * have, x9 the lr the traced function had, x30 where it resumes.
	 * x16 (IP0) is free at a function's entry, and "br x16" may land
	 * on a "bti c".
	 */
1:	ldr	x9, [sp, #S_LR]
	ldr	x30, [sp, #S_PC]
	add	sp, sp, #FTRACE_FRAME
	br	x16
	.endm

SYM_CODE_START(ftrace_caller)
	ftrace_enter 0
	ftrace_leave 0
SYM_CODE_END(ftrace_caller)
NOKPROBE(ftrace_caller)

SYM_CODE_START(ftrace_regs_caller)
	ftrace_enter 1
	ftrace_leave 1
SYM_CODE_END(ftrace_regs_caller)
NOKPROBE(ftrace_regs_caller)

/* The callback of a trampoline with no ops to call. */
SYM_TYPED_FUNC_START(ftrace_stub)
	ret
SYM_FUNC_END(ftrace_stub)
NOKPROBE(ftrace_stub)

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/*
 * A direct function that does nothing (the boot self-test's): it resumes
 * the traced function with its lr back in x30.
 */
SYM_CODE_START(ftrace_stub_direct_tramp)
	mov	x10, x30
	mov	x30, x9
	ret	x10
SYM_CODE_END(ftrace_stub_direct_tramp)
#endif

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/* return_to_handler's frame: x0-x8 at their pt_regs slots, 16-byte aligned. */
#define RET_FRAME	(S_X8 + 8 + 8)

/*
 * A hooked function's ret lands here instead of in its caller.  x0-x7 may
 * hold a composite return value and x8 an indirect result pointer: keep
 * them across the C call, which pops the return stack, runs the return
 * callback and gives back the real return address.
 */
SYM_CODE_START(return_to_handler)
	sub	sp, sp, #RET_FRAME
	arg_regs stp
	str	x8, [sp, #S_X8]
	bl	ftrace_return_to_handler
	mov	x30, x0				// the real return address
	arg_regs ldp
	ldr	x8, [sp, #S_X8]
	add	sp, sp, #RET_FRAME
	ret
SYM_CODE_END(return_to_handler)
NOKPROBE(return_to_handler)
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
