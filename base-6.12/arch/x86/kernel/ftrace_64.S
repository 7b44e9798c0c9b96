/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two trampolines every enabled call site calls, and __fentry__.
 *
 * Each builds a struct pt_regs below the return into the traced function,
 * calls the callback through a call the core patches (ftrace_call /
 * ftrace_regs_call) with (call site, parent, function_trace_op, &regs),
 * and returns to regs->ip, which a handler may change.  ftrace_caller
 * saves only what a C call may clobber or a callback read as arguments,
 * with regs->cs zero so that ftrace_get_regs() returns NULL.
 *
 * The labels C reads are not branch targets (ANNOTATE_NOENDBR).
 *
 * Call depth tracking (retbleed=stuff) counts calls in each callee's
 * padding thunk and returns in the return thunk.  A call the core writes
 * into text reaches its target without a thunk, so what it calls counts
 * itself: the trampolines and __fentry__ on entry.  The callback calls
 * go through their callees' thunks (ftrace.c translates them).  A RET
 * that does not end a counted call is a plain ret under call depth.
 *
 * Both are also templates: ftrace.c copies one up to its *_end label into
 * an ops' own trampoline and rewrites the op load at *_op_ptr and the
 * call.  ORC reads a copy with the template's unwind data, offset for
 * offset, so the copy must not move anything.
 */
#include <linux/linkage.h>
#include <asm/ptrace.h>
#include <asm/segment.h>
#include <asm/ftrace.h>
#include <linux/export.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>

	.code64
	.section .text, "ax"

/* A call that was never patched to a NOP lands here. */
SYM_FUNC_START(__fentry__)
	CALL_DEPTH_ACCOUNT
	RET
SYM_FUNC_END(__fentry__)
EXPORT_SYMBOL(__fentry__)

/* The callback of a trampoline with no ops to call. */
SYM_FUNC_START(ftrace_stub)
	RET
SYM_FUNC_END(ftrace_stub)

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/* A direct function that does nothing (the boot self-test's). */
SYM_FUNC_START(ftrace_stub_direct_tramp)
	CALL_DEPTH_ACCOUNT
	RET
SYM_FUNC_END(ftrace_stub_direct_tramp)
#endif

/* A RET that ends no counted call: not through the counting return thunk. */
.macro UNCOUNTED_RET
	ALTERNATIVE __stringify(RET), \
		    __stringify(ANNOTATE_UNRET_SAFE; ret; int3), X86_FEATURE_CALL_DEPTH
.endm

/* Fill the callback arguments; the frame is at %rsp. */
.macro FTRACE_ARGS op_label
	movq	FRAME_SIZE(%rsp), %rdi
	movq	%rdi, RIP(%rsp)
	subq	$MCOUNT_INSN_SIZE, %rdi
	movq	FRAME_SIZE+8(%rsp), %rsi
	leaq	FRAME_SIZE+8(%rsp), %rdx
	movq	%rdx, RSP(%rsp)
	ANNOTATE_NOENDBR
SYM_INNER_LABEL(\op_label, SYM_L_GLOBAL)
	movq	function_trace_op(%rip), %rdx
	movq	%rsp, %rcx
.endm

SYM_FUNC_START(ftrace_caller)
	CALL_DEPTH_ACCOUNT
	subq	$FRAME_SIZE, %rsp
	movq	%rdi, RDI(%rsp)
	movq	%rsi, RSI(%rsp)
	movq	%rdx, RDX(%rsp)
	movq	%rcx, RCX(%rsp)
	movq	%r8, R8(%rsp)
	movq	%r9, R9(%rsp)
	movq	%rax, RAX(%rsp)
	movq	$0, CS(%rsp)
	FTRACE_ARGS ftrace_caller_op_ptr

	ANNOTATE_NOENDBR
SYM_INNER_LABEL(ftrace_call, SYM_L_GLOBAL)
	call	ftrace_stub

	/* Return to regs->ip: a handler (livepatch) may have redirected the call. */
	movq	RIP(%rsp), %rax
	movq	%rax, FRAME_SIZE(%rsp)
	movq	RDI(%rsp), %rdi
	movq	RSI(%rsp), %rsi
	movq	RDX(%rsp), %rdx
	movq	RCX(%rsp), %rcx
	movq	R8(%rsp), %r8
	movq	R9(%rsp), %r9
	movq	RAX(%rsp), %rax
	addq	$FRAME_SIZE, %rsp
	ANNOTATE_NOENDBR
SYM_INNER_LABEL(ftrace_caller_end, SYM_L_GLOBAL)
	RET
SYM_FUNC_END(ftrace_caller)

SYM_FUNC_START(ftrace_regs_caller)
	CALL_DEPTH_ACCOUNT
	subq	$FRAME_SIZE, %rsp
	pushfq
	popq	EFLAGS(%rsp)
	movq	%r15, R15(%rsp)
	movq	%r14, R14(%rsp)
	movq	%r13, R13(%rsp)
	movq	%r12, R12(%rsp)
	movq	%rbp, RBP(%rsp)
	movq	%rbx, RBX(%rsp)
	movq	%r11, R11(%rsp)
	movq	%r10, R10(%rsp)
	movq	%r9, R9(%rsp)
	movq	%r8, R8(%rsp)
	movq	%rax, RAX(%rsp)
	movq	%rcx, RCX(%rsp)
	movq	%rdx, RDX(%rsp)
	movq	%rsi, RSI(%rsp)
	movq	%rdi, RDI(%rsp)
	movq	$0, ORIG_RAX(%rsp)
	movq	$__KERNEL_CS, CS(%rsp)
	movq	$__KERNEL_DS, SS(%rsp)
	FTRACE_ARGS ftrace_regs_caller_op_ptr

	ANNOTATE_NOENDBR
SYM_INNER_LABEL(ftrace_regs_call, SYM_L_GLOBAL)
	call	ftrace_stub

	/* Return to regs->ip: a handler may have redirected the call. */
	movq	RIP(%rsp), %rax
	movq	%rax, FRAME_SIZE(%rsp)
	/*
	 * A direct call (orig_ax, see arch_ftrace_set_direct_caller()) goes
	 * into the slot right below that return address.
	 */
	movq	ORIG_RAX(%rsp), %rax
	movq	%rax, SS(%rsp)
	movq	R15(%rsp), %r15
	movq	R14(%rsp), %r14
	movq	R13(%rsp), %r13
	movq	R12(%rsp), %r12
	movq	RBP(%rsp), %rbp
	movq	RBX(%rsp), %rbx
	movq	R11(%rsp), %r11
	movq	R10(%rsp), %r10
	movq	R9(%rsp), %r9
	movq	R8(%rsp), %r8
	movq	RAX(%rsp), %rax
	movq	RCX(%rsp), %rcx
	movq	RDX(%rsp), %rdx
	movq	RSI(%rsp), %rsi
	movq	RDI(%rsp), %rdi
	cmpq	$0, SS(%rsp)
	je	.Lregs_return
	/*
	 * Return into the direct function, with the return into the traced
	 * function above it: as if the site had called the direct function,
	 * whose own return then ends the site's counted call.  The call
	 * below gives this RET a return-stack entry of its own (predicting
	 * the int3), leaving the site's for the direct function's return.
	 */
	addq	$SS, %rsp
	UNWIND_HINT_FUNC
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Ldirect_ret
	int3
.Ldirect_ret:
	addq	$8, %rsp
	ANNOTATE_NOENDBR
SYM_INNER_LABEL(ftrace_regs_caller_direct_ret, SYM_L_GLOBAL)
	UNCOUNTED_RET
.Lregs_return:
	addq	$FRAME_SIZE, %rsp
	ANNOTATE_NOENDBR
SYM_INNER_LABEL(ftrace_regs_caller_end, SYM_L_GLOBAL)
	RET
SYM_FUNC_END(ftrace_regs_caller)

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * A hooked function's ret lands here instead of in its caller; keep rax
 * and rdx across the C call, which gives back the real return address.
 * Nothing calls or jumps here, so no ENDBR and no frame for ORC.  The way
 * out is a call whose return slot is then overwritten: no indirect jump
 * (IBT), and the return predictor stays paired.
 */
SYM_CODE_START(return_to_handler)
	UNWIND_HINT_UNDEFINED
	ANNOTATE_NOENDBR
	pushq	%rdx
	pushq	%rax
	movq	%rax, %rdi
	call	ftrace_return_to_handler
	movq	%rax, %rdi
	popq	%rax
	popq	%rdx
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lgraph_ret
	int3
.Lgraph_ret:
	movq	%rdi, (%rsp)
	UNWIND_HINT_FUNC
	/* The hooked function's return ended its counted call. */
	UNCOUNTED_RET
SYM_CODE_END(return_to_handler)
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
