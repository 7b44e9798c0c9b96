// SPDX-License-Identifier: GPL-2.0
/*
 * x86 back end of dynamic ftrace: encodes, checks and writes call sites
 * (the 5-byte "call __fentry__" at a function's start, holding the NOP or
 * a call to a trampoline) and builds per-ops trampolines.  Every write is
 * preceded by a read-back compare.  Sites come as NOPs from the build; a
 * batch is written behind int3 breakpoints (ftrace_poke.c), so no CPU is
 * stopped.  See Documentation/trace/ftrace-core-design.rst.
 */
#include <linux/execmem.h>
#include <linux/ftrace.h>
#include <linux/ftrace_arch.h>
#include <linux/memory.h>
#include <linux/set_memory.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <asm/alternative.h>
#include <asm/text-patching.h>
#include <asm/nops.h>
#include <asm/sections.h>
#include <linux/unaligned.h>

#include "ftrace_poke.h"

/* False if @target is out of reach of the @len-byte insn's rel32. */
static bool put_rel32(u8 *insn, unsigned long ip, int len, unsigned long target)
{
	long rel = (long)(target - (ip + len));
	s32 rel32 = rel;

	if (rel32 != rel)
		return false;
	memcpy(insn + len - sizeof(rel32), &rel32, sizeof(rel32));
	return true;
}

/*
 * A site's five bytes are the low five bytes of a u64 (little-endian:
 * the opcode is the low byte), so that building, reading and comparing
 * one is cheap in a loop over every site.
 */

/* The bytes a site holds when it points at @target, or the NOP for 0. */
static u64 site_word(unsigned long ip, unsigned long target)
{
	u64 w = 0;

	if (!target) {
		memcpy(&w, x86_nops[MCOUNT_INSN_SIZE], MCOUNT_INSN_SIZE);
		return w;
	}
	/* Kernel and module text are within 2 GiB of each other. */
	return CALL_INSN_OPCODE |
	       (u64)(u32)(target - (ip + MCOUNT_INSN_SIZE)) << 8;
}

/* The injection counter lets a test fake text changed behind our back. */
static __always_inline int site_read(unsigned long ip, u64 *cur)
{
	/*
	 * The kernel image's text is always mapped: a plain read is enough.
	 * Init text and modules take the fault-safe way.
	 */
	if (__is_kernel_text(ip)) {
		*cur = get_unaligned((u32 *)ip) | (u64)*(u8 *)(ip + 4) << 32;
	} else {
		*cur = 0;
		if (copy_from_kernel_nofault(cur, (void *)ip, MCOUNT_INSN_SIZE))
			return -EFAULT;
	}
	if (unlikely(atomic_read(&ftrace_inject_mismatch)) &&
	    atomic_add_unless(&ftrace_inject_mismatch, -1, 0))
		*cur ^= 0xff;
	return 0;
}

/*
 * Under call depth tracking a callback is called through its padding
 * thunk, which counts the call; the boot already sent the templates'
 * "call ftrace_stub" there.  Elsewhere this is @func itself.
 *
 * Context: text_mutex held.
 */
static unsigned long callback_target(ftrace_func_t func)
{
	return (unsigned long)callthunks_translate_call_dest((void *)func);
}

static int site_check(unsigned long ip, u64 expect)
{
	u64 cur;
	int ret = site_read(ip, &cur);

	if (ret)
		return ret;
	if (cur == expect)
		return 0;
	/* What the anomaly report cannot say: the bytes themselves. */
	pr_err("ftrace: %pS: expected %010llx, found %010llx\n", (void *)ip, expect, cur);
	return -EINVAL;
}

/**
 * ftrace_arch_init_begin - before a new group's sites are set up
 *
 * Nothing to hold: text_poke_early() writes text that does not run yet.
 */
void ftrace_arch_init_begin(void)
{
}

/**
 * ftrace_arch_init_end - after a new group's sites were set up
 */
void ftrace_arch_init_end(void)
{
}

/**
 * ftrace_arch_init_site - check a module's fresh site, make it a NOP
 * @ip: the site; its text is not running yet
 *
 * A module built by another tool may still hold "call __fentry__".
 *
 * Return: 0, -EFAULT if unreadable, -EINVAL if it is neither.
 */
int __init_or_module ftrace_arch_init_site(unsigned long ip)
{
	u64 cur, nop = site_word(ip, 0);
	int ret = site_read(ip, &cur);

	if (ret)
		return ret;
	if (cur == nop)
		return 0;
	if (cur != site_word(ip, MCOUNT_ADDR))
		return -EINVAL;
	text_poke_early((void *)ip, &nop, MCOUNT_INSN_SIZE);
	return 0;
}

/**
 * ftrace_arch_patch_begin - start a batch of site updates
 * @nr: how many sites it will change, or 0 if not known: the queue is
 *	allocated once at that size
 */
void ftrace_arch_patch_begin(unsigned int nr)
{
	mutex_lock(&text_mutex);
	ftrace_poke_reserve(nr);
}

/**
 * ftrace_arch_patch_site - queue one site update in the current batch
 * @ip: the site
 * @old_target: the trampoline it calls now, 0 for the NOP
 * @new_target: the trampoline it must call, 0 for the NOP
 *
 * Return: 0, -EFAULT if unreadable, -EINVAL if it does not hold the
 * instruction for @old_target, -ERANGE if a call cannot reach @new_target.
 */
int ftrace_arch_patch_site(unsigned long ip, unsigned long old_target,
			   unsigned long new_target)
{
	long rel = (long)new_target - (long)(ip + MCOUNT_INSN_SIZE);
	int ret;

	lockdep_assert_held(&text_mutex);
	if (new_target && rel != (s32)rel)
		return -ERANGE;
	ret = site_check(ip, site_word(ip, old_target));
	if (ret)
		return ret;
	ftrace_poke_queue(ip, site_word(ip, new_target));
	return 0;
}

/**
 * ftrace_arch_patch_end - write the queued updates and end the batch
 */
void ftrace_arch_patch_end(void)
{
	lockdep_assert_held(&text_mutex);
	ftrace_poke_finish();
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
	int i, ret = 0;
	u64 new;

	mutex_lock(&text_mutex);
	/* Check both before writing either. */
	for (i = 0; i < ARRAY_SIZE(sites) && !ret; i++)
		ret = site_check((unsigned long)sites[i],
				 site_word((unsigned long)sites[i], callback_target(old)));
	for (i = 0; i < ARRAY_SIZE(sites) && !ret; i++) {
		new = site_word((unsigned long)sites[i], callback_target(func));
		text_poke_bp(sites[i], &new, MCOUNT_INSN_SIZE, NULL);
	}
	mutex_unlock(&text_mutex);
	return ret;
}

/* ---- Per-ops trampolines ---- */

/* What ftrace_64.S marks in each template */
struct tramp_template {
	void	*start;		/* ftrace_caller or ftrace_regs_caller */
	void	*op_ptr;	/* movq function_trace_op(%rip), %rdx */
	void	*call;		/* call ftrace_stub */
	void	*end;		/* its RET */
	void	*direct_ret;	/* the RET into a direct function, or NULL */
};

static const struct tramp_template templates[2] = {
	{ ftrace_caller, ftrace_caller_op_ptr, ftrace_call, ftrace_caller_end, NULL },
	{ ftrace_regs_caller, ftrace_regs_caller_op_ptr, ftrace_regs_call,
	  ftrace_regs_caller_end, ftrace_regs_caller_direct_ret },
};

/* Write at @insn the return the kernel uses there: a thunk or a RET. */
static void put_ret(u8 *insn)
{
	if (cpu_wants_rethunk_at(insn))
		__text_gen_insn(insn, JMP32_INSN_OPCODE, insn, x86_return_thunk,
				JMP32_INSN_SIZE);
	else
		insn[0] = RET_INSN_OPCODE;
}

static const u8 op_load[] = { 0x48, 0x8b, 0x15 };
#define OP_LOAD_SIZE	(sizeof(op_load) + sizeof(s32))

/*
 * Fill @buf, to run at @buf, from @tt: see the top of ftrace_64.S.  Code
 * the boot patched into the template (call depth counting) may address
 * per-CPU data relative to rip: the copy's displacements are adjusted.
 *
 * Context: text_mutex held.
 */
static bool tramp_fill(u8 *buf, const struct tramp_template *tt,
		       struct ftrace_ops *ops, ftrace_func_t func,
		       unsigned long ops_off)
{
	unsigned long code = tt->end - tt->start;
	unsigned long op_off = tt->op_ptr - tt->start;
	unsigned long call_off = tt->call - tt->start;
	unsigned long ip = (unsigned long)buf;

	memcpy(buf, tt->start, code);
	text_poke_apply_relocation(buf, buf, code, tt->start, code);
	if (memcmp(buf + op_off, op_load, sizeof(op_load)) ||
	    buf[call_off] != CALL_INSN_OPCODE)
		return false;
	if (!put_rel32(buf + op_off, ip + op_off, OP_LOAD_SIZE, ip + ops_off) ||
	    !put_rel32(buf + call_off, ip + call_off, CALL_INSN_SIZE,
		       callback_target(func)))
		return false;
	/* A copied RET is position-independent, a jump to the return thunk is not. */
	memset(buf + code, INT3_INSN_OPCODE, ops_off - code);
	put_ret(buf + code);
	if (tt->direct_ret && buf[tt->direct_ret - tt->start] != RET_INSN_OPCODE)
		put_ret(buf + (tt->direct_ret - tt->start));
	memcpy(buf + ops_off, &ops, sizeof(ops));
	return true;
}

/**
 * ftrace_arch_tramp_create - build a trampoline for one ops
 * @ops: the ops; with FTRACE_OPS_FL_SAVE_REGS the copy saves everything
 * @func: what the trampoline calls
 * @slot: the core's slot for it (unused: x86 sites name the address)
 * @size: gets its size
 *
 * A copy of ftrace_caller or ftrace_regs_caller in executable memory,
 * which a call reaches from any kernel text, read-only before any site
 * calls it.  Graph users get copies too: the ORC unwinder reads a copy
 * with its template's unwind data, which only these two have.
 *
 * Context: ftrace_lock held; may sleep.
 * Return: its address, or 0 if it cannot be built.
 */
unsigned long ftrace_arch_tramp_create(struct ftrace_ops *ops, ftrace_func_t func,
				       unsigned int slot, unsigned long *size)
{
	bool regs = ops->flags & FTRACE_OPS_FL_SAVE_REGS;
	const struct tramp_template *tt = &templates[regs];
	unsigned long ops_off, total, npages;
	bool filled;
	u8 *buf;

	ftrace_arch_assert_locked();
	if (!IS_ENABLED(CONFIG_EXECMEM))
		return 0;
	ops_off = ALIGN((unsigned long)(tt->end - tt->start) + JMP32_INSN_SIZE,
			sizeof(long));
	total = ops_off + sizeof(long);
	buf = execmem_alloc(EXECMEM_FTRACE, total);
	if (!buf)
		return 0;
	mutex_lock(&text_mutex);
	filled = tramp_fill(buf, tt, ops, func, ops_off);
	mutex_unlock(&text_mutex);
	if (!filled) {
		pr_warn_once("ftrace: %ps is not laid out as expected; no per-ops trampolines\n",
			     tt->start);
		execmem_free(buf);
		return 0;
	}
	npages = DIV_ROUND_UP(total, PAGE_SIZE);
	set_vm_flush_reset_perms(buf);
	if (set_memory_rox((unsigned long)buf, npages)) {
		execmem_free(buf);
		return 0;
	}
	*size = total;
	return (unsigned long)buf;
}

/**
 * ftrace_arch_tramp_set_callback - change what an ops' trampoline calls
 * @tramp: a trampoline from ftrace_arch_tramp_create()
 * @regs: whether it was made with FTRACE_OPS_FL_SAVE_REGS
 * @old: what it calls now
 * @func: what it must call
 *
 * Return: 0, or -EFAULT / -EINVAL if the call does not hold @old.
 */
int ftrace_arch_tramp_set_callback(unsigned long tramp, bool regs,
				   ftrace_func_t old, ftrace_func_t func)
{
	const struct tramp_template *tt = &templates[regs];
	unsigned long ip = tramp + (tt->call - tt->start);
	u64 new;
	int ret;

	mutex_lock(&text_mutex);
	new = site_word(ip, callback_target(func));
	ret = site_check(ip, site_word(ip, callback_target(old)));
	if (!ret)
		text_poke_bp((void *)ip, &new, MCOUNT_INSN_SIZE, NULL);
	mutex_unlock(&text_mutex);
	return ret;
}

/**
 * ftrace_arch_tramp_free - free a trampoline no CPU can be in any more
 * @tramp: a trampoline from ftrace_arch_tramp_create()
 *
 * Context: may sleep.
 */
void ftrace_arch_tramp_free(unsigned long tramp)
{
	execmem_free((void *)tramp);
}

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/**
 * prepare_ftrace_return - hook a traced function's return
 * @ip: the function's call site
 * @parent: the stack slot holding its return address
 * @op: the graph user's ops
 *
 * Resuming from suspend runs traced code on a stack outside the kernel
 * half, before current can be trusted: such calls are left alone.
 */
void prepare_ftrace_return(unsigned long ip, unsigned long *parent,
			   struct ftrace_ops *op)
{
	if (likely((long)__builtin_frame_address(0) < 0))
		fgraph_hook_slot(ip, parent, parent, op);
}

/**
 * ftrace_graph_func - the graph core's ops callback
 * @ip: the call site
 * @parent_ip: the caller
 * @op: the graph user's ops
 * @fregs: the trampoline's frame; regs.sp points at the return slot
 */
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	prepare_ftrace_return(ip, (unsigned long *)kernel_stack_pointer(&fregs->regs), op);
}
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
