/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two trampolines every enabled arm64 call site calls, ftrace_stub
 * and the graph tracer's return hook.
 *
 * An enabled site reads "mov x9, x30; bl <trampoline>" (the first
 * instruction is written once at init, the second toggled): on entry x30
 * is the instruction after the bl, where the traced function resumes, and
 * x9 the traced function's own return address.  The traced function has
 * not run a single instruction of its own, so by the procedure call
 * standard x0-x8 (arguments, indirect result), x18 (platform register),
 * x19-x29 and sp are live; x9-x17 are free, and a module PLT on the way
 * here may have used x16 and x17.
 *
 * Each trampoline builds a struct pt_regs below the traced function's
 * stack, with two frame records so that a stack trace taken in a callback
 * reads "callback, trampoline, traced function, its caller": one above
 * pt_regs for the traced function ({x29, x9}) and one inside it
 * (pt_regs.stackframe, {that record, x30}).  Then the site's slot word,
 * just before the traced function (x30 - 12), says what to call with
 * (call site, x9, ops, &regs): N in 1..15, ftrace_slot_calls[N].func with
 * ftrace_slot_calls[N].ops (the site's one ops, no list function); the
 * NOP, the function in ftrace_caller_func with function_trace_op.  The
 * core changes all of them with data writes: no instruction to patch, and
 * no branch range to mind when a callback lives in a module.  x11 and x12
 * are free for that: the traced function has not started, and they are
 * not argument registers.
 *
 * On the way out both restore what they saved, take x30 from regs->regs[30]
 * (the graph tracer swaps it for return_to_handler) and resume at
 * regs->pc (a handler that changes the instruction pointer redirects the
 * call).  ftrace_caller saves x0-x9, fp, lr, sp and pc; ftrace_regs_caller
 * every general register, for ops that asked for FTRACE_OPS_FL_SAVE_REGS.
 */
#include <linux/cfi_types.h>
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/assembler.h>
#include <asm/ftrace.h>

/* pt_regs, and the traced function's frame record above it */
#define FTRACE_FRAME	(PT_REGS_SIZE + 16)

	.macro	ftrace_enter, allregs
	sub	sp, sp, #FTRACE_FRAME
	stp	x0, x1, [sp, #S_X0]
	stp	x2, x3, [sp, #S_X2]
	stp	x4, x5, [sp, #S_X4]
	stp	x6, x7, [sp, #S_X6]
	stp	x8, x9, [sp, #S_X8]
	.if	\allregs
	stp	x10, x11, [sp, #S_X10]
	stp	x12, x13, [sp, #S_X12]
	stp	x14, x15, [sp, #S_X14]
	stp	x16, x17, [sp, #S_X16]
	stp	x18, x19, [sp, #S_X18]
	stp	x20, x21, [sp, #S_X20]
	stp	x22, x23, [sp, #S_X22]
	stp	x24, x25, [sp, #S_X24]
	stp	x26, x27, [sp, #S_X26]
	str	x28, [sp, #S_X28]
	.endif
	str	x29, [sp, #S_FP]
	/* What the traced function sees: its lr and sp, and where it resumes. */
	add	x10, sp, #FTRACE_FRAME
	stp	x9, x10, [sp, #S_LR]
	str	x30, [sp, #S_PC]
	/* The traced function's frame record, then ours. */
	stp	x29, x9, [sp, #PT_REGS_SIZE]
	add	x29, sp, #PT_REGS_SIZE
	stp	x29, x30, [sp, #S_STACKFRAME]
	add	x29, sp, #S_STACKFRAME

	sub	x0, x30, #AARCH64_INSN_SIZE	// the call site
	mov	x1, x9				// the traced function's caller
	mov	x3, sp				// &regs
	ldur	w11, [x30, #-FTRACE_LR_SLOT_WORD_OFFSET]
	sub	w12, w11, #1			// slots 1..15: 0..14
	cmp	w12, #(FTRACE_SLOT_ENTRIES - 1)
	b.hs	1f				// the NOP (or 0): shared path
	adr_l	x12, ftrace_slot_calls
	add	x12, x12, x11, lsl #4
	ldp	x4, x2, [x12]			// the slot's func and ops
	b	2f
1:	ldr_l	x2, function_trace_op
	ldr_l	x4, ftrace_caller_func
2:	blr	x4
	.endm

	.macro	ftrace_leave, allregs
	ldp	x0, x1, [sp, #S_X0]
	ldp	x2, x3, [sp, #S_X2]
	ldp	x4, x5, [sp, #S_X4]
	ldp	x6, x7, [sp, #S_X6]
	ldr	x8, [sp, #S_X8]
	.if	\allregs
	ldp	x10, x11, [sp, #S_X10]
	ldp	x12, x13, [sp, #S_X12]
	ldp	x14, x15, [sp, #S_X14]
	ldp	x16, x17, [sp, #S_X16]
	ldp	x18, x19, [sp, #S_X18]
	ldp	x20, x21, [sp, #S_X20]
	ldp	x22, x23, [sp, #S_X22]
	ldp	x24, x25, [sp, #S_X24]
	ldp	x26, x27, [sp, #S_X26]
	ldr	x28, [sp, #S_X28]
	.endif
	ldr	x29, [sp, #S_FP]
	ldr	x30, [sp, #S_LR]
	ldr	x9, [sp, #S_PC]
	add	sp, sp, #FTRACE_FRAME
	ret	x9
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

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * A hooked function's ret lands here instead of in its caller (the graph
 * entry swapped the lr the trampoline restored).  The return value is in
 * x0, or x0-x7 for a composite one, and x8 may still point at an indirect
 * result: keep them across the C call, which pops this task's return
 * stack, runs the return callback with x0 as the return value and gives
 * back the real return address.
 */
SYM_CODE_START(return_to_handler)
	sub	sp, sp, #80
	stp	x0, x1, [sp]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	str	x8, [sp, #64]
	bl	ftrace_return_to_handler
	mov	x30, x0
	ldp	x0, x1, [sp]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldr	x8, [sp, #64]
	add	sp, sp, #80
	ret
SYM_CODE_END(return_to_handler)
NOKPROBE(return_to_handler)
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
