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

/*
 * One list of registers for saving and restoring (\op is stp or ldp), each
 * at its pt_regs slot from sp.  arg_regs: x0-x7, what a function gets
 * from its caller and returns to it (x8, the indirect result, is left to
 * the caller: it pairs with x9 in the trampolines).  other_regs: x10-x27,
 * the rest of ftrace_regs_caller's pt_regs but x28.
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
	str	xzr, [sp, #S_ORIG_X0]		// no direct function yet
	.if	\allregs
	other_regs stp
	str	x28, [sp, #S_X28]
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
	sub	w12, w11, #1			// slots 1..1023: 0..1022
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
 * A direct function that does nothing (the boot self-test's): entered as
 * a site enters one, x9 the traced function's lr and x30 where it
 * resumes, it resumes it with its lr back in x30.
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
 * A hooked function's ret lands here instead of in its caller (the graph
 * entry swapped the lr the trampoline restored).  The return value is in
 * x0, or x0-x7 for a composite one, and x8 may still point at an indirect
 * result: keep them across the C call, which pops this task's return
 * stack, runs the return callback with x0 as the return value and gives
 * back the real return address.
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
