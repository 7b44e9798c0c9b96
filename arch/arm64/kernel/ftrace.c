// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 back end of dynamic ftrace: it knows the instructions of a call
 * site and writes them; the generic core decides which sites change.
 *
 * A site is the second of the two NOPs the compiler put at the start of
 * a traced function.  At init the first NOP becomes "mov x9, x30" (keep
 * the function's return address: the bl will overwrite x30) and stays so;
 * the site itself holds a NOP or "bl" to ftrace_caller or
 * ftrace_regs_caller, through the module's PLT entry for that trampoline
 * when a module's site is out of bl range.  Every write is one aligned
 * instruction, and NOP and bl may be swapped under running CPUs, so no CPU
 * is stopped; each write goes through the text-poke fixmap, which also
 * makes it visible to instruction fetch.  Before any write the site is
 * read back and compared with what the core believes is there; a
 * difference is reported, never overwritten.
 *
 * There are no per-ops trampolines on arm64: both trampolines call the
 * callback in ftrace_caller_func, a data word, so the callback changes
 * without touching code.
 */
#include <linux/ftrace.h>
#include <linux/memory.h>
#include <linux/module.h>

#include <asm/insn.h>
#include <asm/patching.h>

#include "../../../kernel/trace/ftrace_internal.h"

/* What both trampolines call (see entry-ftrace.S). */
ftrace_func_t ftrace_caller_func = ftrace_stub;

/*
 * The module PLT entry that reaches @target, for a site of @mod out of bl
 * range of it, or 0.  The entries exist only with ARM64_MODULE_PLTS
 * (struct mod_arch_specific has no room for them otherwise).
 */
static unsigned long mod_plt(struct module *mod, unsigned long target)
{
#if defined(CONFIG_ARM64_MODULE_PLTS) && defined(CONFIG_MODULES)
	struct plt_entry *plts = mod->arch.ftrace_trampolines, want;
	int idx;

	if (target == FTRACE_ADDR)
		idx = FTRACE_PLT_IDX;
	else if (target == FTRACE_REGS_ADDR)
		idx = FTRACE_REGS_PLT_IDX;
	else
		return 0;
	if (!plts)
		return 0;
	want = get_plt_entry(target, &plts[idx]);
	if (memcmp(&plts[idx], &want, sizeof(want)))
		return 0;
	return (unsigned long)&plts[idx];
#else
	return 0;
#endif
}

/*
 * The instruction a site at @ip holds when it calls @target (0: the NOP).
 * Return: 0, or -ERANGE if nothing @ip can branch to reaches @target.
 */
static int site_insn(unsigned long ip, unsigned long target, u32 *insn)
{
	struct module *mod;
	unsigned long via;

	if (!target) {
		*insn = aarch64_insn_gen_nop();
		return 0;
	}
	*insn = aarch64_insn_gen_branch_imm(ip, target, AARCH64_INSN_BRANCH_LINK);
	if (*insn != AARCH64_BREAK_FAULT)
		return 0;
	/* Out of range: only module text is that far, through its PLT. */
	preempt_disable();
	mod = __module_text_address(ip);
	via = mod ? mod_plt(mod, target) : 0;
	preempt_enable();
	if (!via)
		return -ERANGE;
	*insn = aarch64_insn_gen_branch_imm(ip, via, AARCH64_INSN_BRANCH_LINK);
	return *insn == AARCH64_BREAK_FAULT ? -ERANGE : 0;
}

/*
 * Check that @ip holds @expect.  The injection counter lets a test make
 * the next checks fail as if the text had been changed behind our back.
 */
static int site_check(unsigned long ip, u32 expect)
{
	u32 cur;

	if (aarch64_insn_read((void *)ip, &cur))
		return -EFAULT;
	if (atomic_add_unless(&ftrace_inject_mismatch, -1, 0))
		cur = ~cur;
	return cur == expect ? 0 : -EINVAL;
}

/**
 * ftrace_arch_init_site - prepare a fresh patchable entry
 * @ip: the site (the second NOP); its text is not running yet (boot or
 *	module load)
 *
 * Both NOPs are checked; the first becomes "mov x9, x30".
 *
 * Return: 0, -EFAULT if unreadable, -EINVAL if they are not two NOPs.
 */
int __init_or_module ftrace_arch_init_site(unsigned long ip)
{
	u32 nop = aarch64_insn_gen_nop();
	u32 mov = aarch64_insn_gen_move_reg(AARCH64_INSN_REG_9,
					    AARCH64_INSN_REG_LR,
					    AARCH64_INSN_VARIANT_64BIT);
	int ret;

	ret = site_check(ip - AARCH64_INSN_SIZE, nop);
	if (!ret)
		ret = site_check(ip, nop);
	if (ret)
		return ret;
	return aarch64_insn_patch_text_nosync((void *)(ip - AARCH64_INSN_SIZE), mov);
}

/**
 * ftrace_arch_patch_begin - start a batch of site updates
 */
void ftrace_arch_patch_begin(void)
{
	mutex_lock(&text_mutex);
}

/**
 * ftrace_arch_patch_site - write one site update of the current batch
 * @ip: the site
 * @old_target: the trampoline it calls now, 0 for the NOP
 * @new_target: the trampoline it must call, 0 for the NOP
 *
 * Each write takes effect at once: a CPU runs the old or the new
 * instruction, both of which are complete.
 *
 * Return: 0, -EFAULT if unreadable, -EINVAL if it does not hold the
 * instruction for @old_target, -ERANGE if @new_target is out of reach.
 */
int ftrace_arch_patch_site(unsigned long ip, unsigned long old_target,
			   unsigned long new_target)
{
	u32 old, new;
	int ret;

	lockdep_assert_held(&text_mutex);
	ret = site_insn(ip, old_target, &old);
	if (!ret)
		ret = site_insn(ip, new_target, &new);
	if (!ret)
		ret = site_check(ip, old);
	if (ret)
		return ret;
	return aarch64_insn_patch_text_nosync((void *)ip, new);
}

/**
 * ftrace_arch_patch_end - end the batch
 */
void ftrace_arch_patch_end(void)
{
	lockdep_assert_held(&text_mutex);
	mutex_unlock(&text_mutex);
}

/**
 * ftrace_arch_set_callback - change what both trampolines call
 * @old: what they call now
 * @func: what they must call
 *
 * Context: ftrace_lock held.
 * Return: 0, or -EINVAL if they do not call @old.
 */
int ftrace_arch_set_callback(ftrace_func_t old, ftrace_func_t func)
{
	ftrace_func_t cur = READ_ONCE(ftrace_caller_func);

	if (atomic_add_unless(&ftrace_inject_mismatch, -1, 0))
		cur = NULL;
	if (cur != old)
		return -EINVAL;
	WRITE_ONCE(ftrace_caller_func, func);
	return 0;
}

/**
 * ftrace_arch_tramp_create - no per-ops trampolines on arm64
 * @ops: the ops
 * @func: what it would call
 * @size: unused
 *
 * A copy of a trampoline in module memory would be out of bl range of
 * much of the kernel, and a module site's PLT reaches only the shared
 * ones, so every site calls ftrace_caller or ftrace_regs_caller.
 *
 * Return: 0 (none).
 */
unsigned long ftrace_arch_tramp_create(struct ftrace_ops *ops, ftrace_func_t func,
				       unsigned long *size)
{
	return 0;
}

/**
 * ftrace_arch_tramp_set_callback - never called on arm64 (no trampolines)
 * @tramp: unused
 * @regs: unused
 * @old: unused
 * @func: unused
 *
 * Return: -EINVAL, which the core would treat as an anomaly.
 */
int ftrace_arch_tramp_set_callback(unsigned long tramp, bool regs,
				   ftrace_func_t old, ftrace_func_t func)
{
	return -EINVAL;
}

/**
 * ftrace_arch_tramp_free - never called on arm64 (no trampolines)
 * @tramp: unused
 */
void ftrace_arch_tramp_free(unsigned long tramp)
{
}

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/**
 * ftrace_graph_func - the graph core's ops callback
 * @ip: the call site
 * @parent_ip: the caller
 * @op: the graph ops
 * @fregs: the trampoline's frame
 *
 * The traced function's return address is the lr the trampoline will
 * restore; the unwinder will look the hooked return up by the frame
 * pointer the function's own frame record saves, its caller's: the x29
 * the trampoline found.
 */
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = &fregs->regs;

	fgraph_hook_slot(ip, (unsigned long *)&regs->regs[30],
			 (unsigned long *)regs->regs[29]);
}
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
