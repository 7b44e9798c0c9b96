// SPDX-License-Identifier: GPL-2.0
/*
 * x86 back end of dynamic ftrace: it knows the bytes of a call site and
 * writes them; the generic core decides which sites change.
 *
 * A site is the 5-byte "call __fentry__" the compiler put at the start of
 * a function.  It holds one of three instructions: the ideal 5-byte NOP,
 * "call ftrace_caller" or "call ftrace_regs_caller".  Before any write the
 * site is read back and compared with what the core believes is there;
 * a difference is reported, never overwritten.
 *
 * At boot and module load the text is not running yet and is written
 * directly (text_poke_early()).  Afterwards writes go through
 * text_poke_queue(), which batches them behind int3 breakpoints that
 * emulate the new instruction: no CPU is stopped.
 */
#include <linux/ftrace.h>
#include <linux/memory.h>
#include <linux/uaccess.h>

#include <asm/text-patching.h>
#include <asm/nops.h>

#include "../../../kernel/trace/ftrace_internal.h"

/* The bytes a site holds when it points at @target, or the NOP for 0. */
static void site_insn(u8 insn[MCOUNT_INSN_SIZE], unsigned long ip,
		      unsigned long target)
{
	s32 rel;

	if (!target) {
		memcpy(insn, x86_nops[MCOUNT_INSN_SIZE], MCOUNT_INSN_SIZE);
		return;
	}
	rel = (s32)(target - (ip + MCOUNT_INSN_SIZE));
	insn[0] = CALL_INSN_OPCODE;
	memcpy(&insn[1], &rel, sizeof(rel));
}

/*
 * Check that @ip holds what it should.  The injection counter lets a
 * test make the next checks fail as if the text had been changed behind
 * our back.
 */
static int site_check(unsigned long ip, const u8 expect[MCOUNT_INSN_SIZE])
{
	u8 cur[MCOUNT_INSN_SIZE];

	if (copy_from_kernel_nofault(cur, (void *)ip, MCOUNT_INSN_SIZE))
		return -EFAULT;
	if (atomic_add_unless(&ftrace_inject_mismatch, -1, 0))
		cur[0] ^= 0xff;
	if (memcmp(cur, expect, MCOUNT_INSN_SIZE))
		return -EINVAL;
	return 0;
}

/**
 * ftrace_arch_init_site - turn a fresh "call __fentry__" into a NOP
 * @ip: the site; its text is not running yet (boot or module load)
 *
 * Return: 0, -EFAULT if unreadable, -EINVAL if it is not the call.
 */
int __init_or_module ftrace_arch_init_site(unsigned long ip)
{
	u8 old[MCOUNT_INSN_SIZE], new[MCOUNT_INSN_SIZE];
	int ret;

	site_insn(old, ip, MCOUNT_ADDR);
	site_insn(new, ip, 0);
	ret = site_check(ip, old);
	if (ret)
		return ret;
	text_poke_early((void *)ip, new, MCOUNT_INSN_SIZE);
	return 0;
}

/**
 * ftrace_arch_patch_begin - start a batch of site updates
 */
void ftrace_arch_patch_begin(void)
{
	mutex_lock(&text_mutex);
}

/**
 * ftrace_arch_patch_site - queue one site update in the current batch
 * @ip: the site
 * @old_target: the trampoline it calls now, 0 for the NOP
 * @new_target: the trampoline it must call, 0 for the NOP
 *
 * Sites must be queued in increasing address order (the records are).
 *
 * Return: 0, -EFAULT if unreadable, -EINVAL if it does not hold the
 * instruction for @old_target.
 */
int ftrace_arch_patch_site(unsigned long ip, unsigned long old_target,
			   unsigned long new_target)
{
	u8 old[MCOUNT_INSN_SIZE], new[MCOUNT_INSN_SIZE];
	int ret;

	lockdep_assert_held(&text_mutex);
	site_insn(old, ip, old_target);
	site_insn(new, ip, new_target);
	ret = site_check(ip, old);
	if (ret)
		return ret;
	text_poke_queue((void *)ip, new, MCOUNT_INSN_SIZE, NULL);
	return 0;
}

/**
 * ftrace_arch_patch_end - write the queued updates and end the batch
 */
void ftrace_arch_patch_end(void)
{
	lockdep_assert_held(&text_mutex);
	text_poke_finish();
	mutex_unlock(&text_mutex);
}

/**
 * ftrace_arch_set_callback - change what both trampolines call
 * @old: what they call now
 * @func: what they must call
 *
 * Return: 0, or -EFAULT / -EINVAL if a call site in a trampoline does
 * not hold the call to @old.
 */
int ftrace_arch_set_callback(ftrace_func_t old, ftrace_func_t func)
{
	static void * const sites[] = { ftrace_call, ftrace_regs_call };
	u8 expect[2][MCOUNT_INSN_SIZE], new[MCOUNT_INSN_SIZE];
	int i, ret = 0;

	mutex_lock(&text_mutex);
	/* Check both before writing either. */
	for (i = 0; i < ARRAY_SIZE(sites) && !ret; i++) {
		site_insn(expect[i], (unsigned long)sites[i], (unsigned long)old);
		ret = site_check((unsigned long)sites[i], expect[i]);
	}
	for (i = 0; i < ARRAY_SIZE(sites) && !ret; i++) {
		site_insn(new, (unsigned long)sites[i], (unsigned long)func);
		text_poke_bp(sites[i], new, MCOUNT_INSN_SIZE, NULL);
	}
	mutex_unlock(&text_mutex);
	return ret;
}

/**
 * ftrace_ops_trampoline - the ops owning a dynamic trampoline at @addr
 * @addr: a text address
 *
 * x86 has no per-ops trampolines yet (issue 4): sites call the two
 * static trampolines in ftrace_64.S, which the ORC unwinder knows.
 *
 * Return: NULL.
 */
struct ftrace_ops *ftrace_ops_trampoline(unsigned long addr)
{
	return NULL;
}

/**
 * is_ftrace_trampoline - whether @addr is in a dynamic trampoline
 * @addr: a text address
 *
 * Return: false (see ftrace_ops_trampoline()).
 */
bool is_ftrace_trampoline(unsigned long addr)
{
	return false;
}

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/**
 * prepare_ftrace_return - hook a traced function's return
 * @ip: the function's call site
 * @parent: the stack slot holding its return address
 * @frame_pointer: unused on x86_64 (0)
 *
 * If the graph core accepts the call, the function returns into
 * return_to_handler instead of its caller.
 */
void prepare_ftrace_return(unsigned long ip, unsigned long *parent,
			   unsigned long frame_pointer)
{
	unsigned long hook = (unsigned long)return_to_handler;
	int bit;

	/*
	 * Resuming from suspend runs traced code on a stack outside the
	 * kernel half, before current can be trusted.
	 */
	if (unlikely((long)__builtin_frame_address(0) >= 0))
		return;
	bit = ftrace_test_recursion_trylock(ip, *parent);
	if (bit < 0)
		return;
	if (!function_graph_enter(*parent, ip, frame_pointer, parent))
		*parent = hook;
	ftrace_test_recursion_unlock(bit);
}

/**
 * ftrace_graph_func - the graph core's ops callback
 * @ip: the call site
 * @parent_ip: the caller
 * @op: the graph ops
 * @fregs: the trampoline's frame; regs.sp points at the return slot
 */
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	prepare_ftrace_return(ip, (unsigned long *)kernel_stack_pointer(&fregs->regs), 0);
}
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
