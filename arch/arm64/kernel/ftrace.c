// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 back end of dynamic ftrace: it knows the instructions of a call
 * site and writes them; the generic core decides which sites change.
 *
 * A site is the second of the two NOPs the compiler put at the start of
 * a traced function.  The first NOP becomes "mov x9, x30" for good (keep
 * the function's return address: the bl will overwrite x30), at build time
 * for vmlinux (scripts/recordmcount -V) and at module load for a module;
 * the site itself holds a NOP or "bl" to ftrace_caller or
 * ftrace_regs_caller, through the module's PLT entry for that trampoline
 * when a module's site is out of bl range.  Every write is one aligned
 * instruction, and NOP and bl may be swapped under running CPUs, so no CPU
 * is stopped; each write is made visible to instruction fetch at once.
 * Before any write the site is read back and compared with what the core
 * believes is there; a difference is reported, never overwritten.
 *
 * A batch writes through a fixmap slot of its own (FIX_FTRACE_POKE, under
 * text_mutex), mapped once per page of text it reaches rather than once
 * per word, and the words of a batch are encoded, read and written by
 * this file's own notrace code.  Batches run while tracing is live (a
 * tracer switch, a filter change): upstream's helpers (the encoders in
 * insn.c, copy_from_kernel_nofault(), aarch64_insn_patch_text_nosync()
 * and the fixmap code under it) are traced functions, so every site
 * written once their own sites were on cost a dozen traced calls, and
 * under function_graph that made a switch of every site several times
 * slower than the writing itself.
 *
 * Sites of one ops skip the list function without trampoline code of
 * their own.  The compiler leaves one more NOP just before the function
 * (patch 0005), never executed: the site's slot word.  It holds the NOP,
 * and the trampoline then calls the shared callback (ftrace_caller_func,
 * a data word, with function_trace_op), or the number N of the core's
 * trampoline slot whose ops alone wants the site, and the trampoline then
 * calls ftrace_slot_calls[N].func with ftrace_slot_calls[N].ops.  So the
 * core's "trampoline" of an ops is an entry of that table: building one
 * fills the entry, changing its callback is a data write, and a module
 * site reaches it through the same PLT as the shared path.  A word is
 * written like an instruction (one aligned 4-byte write, read and
 * compared first) and always before the bl that makes it matter; the
 * core reuses a slot number only after the RCU-tasks grace periods that
 * follow its last site's move, so a CPU that read a number still finds
 * that number's entry: its ops, or ftrace_stub once the ops let go.
 */
#include <linux/ftrace.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pgtable.h>
#include <linux/sizes.h>

#include <asm/cacheflush.h>
#include <asm/fixmap.h>
#include <asm/insn.h>
#include <asm/patching.h>
#include <asm/sections.h>
#include <asm/tlbflush.h>

#include "../../../kernel/trace/ftrace_internal.h"

/* What both trampolines call for a site whose slot word is the NOP. */
ftrace_func_t ftrace_caller_func = ftrace_stub;

/* What they call for a site whose slot word is N (entry 0 is unused). */
struct ftrace_slot_call ftrace_slot_calls[FTRACE_SLOT_ENTRIES];
/* Whether slot N's ops wants every register: its sites call ftrace_regs_caller. */
static bool slot_regs[FTRACE_SLOT_ENTRIES];

#ifdef CONFIG_ARM64_BTI_KERNEL
/* A "bti c" would move the site: the slot word offsets assume none. */
#error "our arm64 ftrace does not know BTI landing pads yet"
#endif

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

/* The NOP, encoded inline: no call into insn.c while a batch runs. */
static inline u32 nop_insn(void)
{
	return aarch64_insn_get_hint_value() | AARCH64_INSN_HINT_NOP;
}

/* "mov x9, x30" (orr x9, xzr, x30), what a site's first NOP becomes. */
static inline u32 mov_insn(void)
{
	/* BIT(31), sf: the 64-bit form (insn.c keeps its name to itself) */
	return aarch64_insn_get_orr_value() | BIT(31) |
	       (AARCH64_INSN_REG_LR << 16) | (AARCH64_INSN_REG_ZR << 5) |
	       AARCH64_INSN_REG_9;
}

/* Whether a bl at @ip reaches @target. */
static bool bl_reaches(unsigned long ip, unsigned long target)
{
	long off = (long)target - (long)ip;

	return off >= -SZ_128M && off < SZ_128M;
}

/*
 * The instruction a site at @ip holds when it calls @target (0: the NOP).
 * Return: 0, or -ERANGE if nothing @ip can branch to reaches @target.
 */
static int site_insn(unsigned long ip, unsigned long target, u32 *insn)
{
	struct module *mod;
	unsigned long via = target;

	*insn = nop_insn();
	if (!target)
		return 0;
	if (!bl_reaches(ip, via)) {
		/* Only module text is that far from ours, through its PLT. */
		preempt_disable();
		mod = __module_text_address(ip);
		via = mod ? mod_plt(mod, target) : 0;
		preempt_enable();
		if (!via || !bl_reaches(ip, via))
			return -ERANGE;
	}
	if ((ip | via) % AARCH64_INSN_SIZE)
		return -ERANGE;
	/* bl: imm26 is the word offset, two's complement (in range: above). */
	*insn = aarch64_insn_get_bl_value() |
		(((via - ip) / AARCH64_INSN_SIZE) & GENMASK(25, 0));
	return 0;
}

/* The slot entry a target of the core names, or NULL for a code address. */
static struct ftrace_slot_call *slot_entry(unsigned long target)
{
	unsigned long off = target - (unsigned long)ftrace_slot_calls;

	if (off >= sizeof(ftrace_slot_calls) || off % sizeof(ftrace_slot_calls[0]))
		return NULL;
	return (struct ftrace_slot_call *)target;
}

/* What a site holds while it calls @target: its instruction and slot word. */
struct site_state {
	u32 insn;
	u32 word;
};

/*
 * @target is 0, a shared trampoline, a slot entry, or a direct function.
 * A site calls a direct function with a bl if it can; else it calls
 * ftrace_caller with the NOP word, and the direct ops' callback, run
 * there as the site's one ops or through the list function, has the
 * trampoline enter the function on its way out
 * (arch_ftrace_set_direct_caller()).  The choice depends only on @ip and
 * @target, so a site's old state is found again the same way.
 */
static int site_state(unsigned long ip, unsigned long target, struct site_state *st)
{
	struct ftrace_slot_call *e = slot_entry(target);

	st->word = nop_insn();
	if (e) {
		unsigned int slot = e - ftrace_slot_calls;

		st->word = slot;
		target = slot_regs[slot] ? FTRACE_REGS_ADDR : FTRACE_ADDR;
	} else if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) && target &&
		   target != FTRACE_ADDR && target != FTRACE_REGS_ADDR &&
		   !bl_reaches(ip, target)) {
		target = FTRACE_ADDR;
	}
	return site_insn(ip, target, &st->insn);
}

/* Read the word at @addr without a call (__get_kernel_nofault is inline). */
static int read_word(unsigned long addr, u32 *val)
{
	__le32 raw;

	pagefault_disable();
	__get_kernel_nofault(&raw, (__le32 *)addr, __le32, fault);
	pagefault_enable();
	*val = le32_to_cpu(raw);
	return 0;
fault:
	pagefault_enable();
	return -EFAULT;
}

/*
 * Check that @ip holds @expect.  The injection counter lets a test make
 * the next checks fail as if the text had been changed behind our back.
 */
static int site_check(unsigned long ip, u32 expect)
{
	u32 cur;

	if (read_word(ip, &cur))
		return -EFAULT;
	if (atomic_add_unless(&ftrace_inject_mismatch, -1, 0))
		cur = ~cur;
	return cur == expect ? 0 : -EINVAL;
}

/* The page of text FIX_FTRACE_POKE maps now, or 0; under text_mutex. */
static unsigned long poke_page;
/* Its PTE, in the static fixmap tables: found once, never moves. */
static pte_t *poke_ptep;

/*
 * The fixmap entry is written here with the inline page-table helpers, not
 * with set_fixmap(): __set_fixmap() is a traced function, and a batch maps
 * every page of kernel text once, so under function_graph each page cost
 * two hooked calls (and their events) while the switch ran.
 */
static void poke_unmap(void)
{
	unsigned long va = __fix_to_virt(FIX_FTRACE_POKE);

	if (poke_page) {
		pte_clear(&init_mm, va, poke_ptep);
		flush_tlb_kernel_range(va, va + PAGE_SIZE);
		poke_page = 0;
	}
}

/*
 * Map the page of text holding @addr at FIX_FTRACE_POKE, writable, unless
 * it is there already.  The old page is unmapped (and its TLB entry
 * flushed) first: a fixmap entry is never changed while valid.
 */
static int poke_map(unsigned long addr)
{
	unsigned long page = addr & PAGE_MASK, va = __fix_to_virt(FIX_FTRACE_POKE);
	struct page *p;
	phys_addr_t phys;

	if (page == poke_page)
		return 0;
	poke_unmap();
	if (!poke_ptep)
		poke_ptep = virt_to_kpte(va);
	if (!poke_ptep)
		return -EFAULT;
	if (page >= (unsigned long)_stext && page < (unsigned long)_end) {
		phys = __pa_symbol(page);
	} else {
		/* Module text, in vmalloc space: a few pages a batch. */
		p = vmalloc_to_page((void *)page);
		if (!p)
			return -EFAULT;
		phys = page_to_phys(p);
	}
	set_pte(poke_ptep, pfn_pte(__phys_to_pfn(phys), FIXMAP_PAGE_NORMAL));
	poke_page = page;
	return 0;
}

/*
 * Write @new at @addr unless it holds it already, and make it visible to
 * instruction fetch (on the text's own address: the caches are PIPT).
 */
static int site_write(unsigned long addr, u32 old, u32 new)
{
	void *alias;
	int ret;

	lockdep_assert_held(&text_mutex);
	if (old == new)
		return 0;
	ret = poke_map(addr);
	if (ret)
		return ret;
	alias = (void *)(__fix_to_virt(FIX_FTRACE_POKE) + offset_in_page(addr));
	WRITE_ONCE(*(__le32 *)alias, cpu_to_le32(new));
	/*
	 * The cleaning below names the text's address, not the alias the
	 * store went through: order them explicitly (upstream's patching
	 * gets this barrier from unmapping its alias; ours stays mapped).
	 */
	dsb(ishst);
	caches_clean_inval_pou(addr, addr + AARCH64_INSN_SIZE);
	return 0;
}

/**
 * ftrace_arch_init_begin - before a module's sites are set up
 *
 * They are written as a batch's are, through FIX_FTRACE_POKE mapped once
 * per page of text, which is shared with the batches of other text: hence
 * text_mutex.  vmlinux's sites come ready from the build
 * (FTRACE_SITES_READY_AT_BUILD): writing them here took 15 million
 * instructions at boot, and 22.7 million one site at a time through
 * aarch64_insn_patch_text_nosync() before that (check kernel, 18,363
 * sites).
 */
void ftrace_arch_init_begin(void)
{
	mutex_lock(&text_mutex);
}

/**
 * ftrace_arch_init_site - prepare a fresh patchable entry
 * @ip: the site (the second NOP); its text is not running yet (boot or
 *	module load)
 *
 * The slot word and both NOPs are checked; the first NOP becomes
 * "mov x9, x30".
 *
 * Context: between ftrace_arch_init_begin() and ftrace_arch_init_end().
 * Return: 0, -EFAULT if unreadable, -EINVAL if they are not three NOPs.
 */
int __init_or_module ftrace_arch_init_site(unsigned long ip)
{
	u32 nop = nop_insn();
	int ret;

	lockdep_assert_held(&text_mutex);
	ret = site_check(ip - FTRACE_SLOT_WORD_OFFSET, nop);
	if (!ret)
		ret = site_check(ip - AARCH64_INSN_SIZE, nop);
	if (!ret)
		ret = site_check(ip, nop);
	if (ret)
		return ret;
	return site_write(ip - AARCH64_INSN_SIZE, nop, mov_insn());
}

/**
 * ftrace_arch_init_end - after a new group's sites were set up
 */
void ftrace_arch_init_end(void)
{
	poke_unmap();
	mutex_unlock(&text_mutex);
}

/**
 * ftrace_arch_patch_begin - start a batch of site updates
 * @nr: how many sites it will change (unused: each is written at once)
 */
void ftrace_arch_patch_begin(unsigned int nr)
{
	mutex_lock(&text_mutex);
}

/**
 * ftrace_arch_patch_site - write one site update of the current batch
 * @ip: the site
 * @old_target: what it calls now: 0 for the NOP, a trampoline, or a slot
 *	entry from ftrace_arch_tramp_create()
 * @new_target: what it must call, the same way
 *
 * Each write takes effect at once: a CPU runs the old or the new
 * instruction, both of which are complete.  The slot word is written
 * before a bl that will read it; a CPU that took the bl just before may
 * read the old word or the new one, and either names a complete entry (or
 * the shared path).  A NOP site never reads its word, so turning a site
 * off leaves the word as it was (one write, not two), and turning it back
 * on to the same slot finds the word already right: a site is checked
 * against its word only while it calls.  The "mov x9, x30" before the
 * site is not checked: a kprobe at the function's entry holds that word
 * (a BRK) while it lives; the build checked it (scripts/recordmcount,
 * scripts/check-mcount-loc.py), or ftrace_arch_init_site() wrote it.
 *
 * Return: 0, -EFAULT if unreadable, -EINVAL if the site (or, while it
 * calls, its slot word) does not hold what @old_target implies, -ERANGE
 * if @new_target is out of reach.
 */
int ftrace_arch_patch_site(unsigned long ip, unsigned long old_target,
			   unsigned long new_target)
{
	unsigned long word = ip - FTRACE_SLOT_WORD_OFFSET;
	struct site_state old, new;
	int ret;

	lockdep_assert_held(&text_mutex);
	ret = site_state(ip, old_target, &old);
	if (!ret)
		ret = site_state(ip, new_target, &new);
	if (!ret)
		ret = site_check(ip, old.insn);
	if (!ret && old_target)
		ret = site_check(word, old.word);
	else if (!ret && read_word(word, &old.word))
		ret = -EFAULT;
	if (ret)
		return ret;
	if (!new_target)
		return site_write(ip, old.insn, new.insn);
	/* The entry a new word names was filled before: publish it first. */
	smp_wmb();
	ret = site_write(word, old.word, new.word);
	return ret ? ret : site_write(ip, old.insn, new.insn);
}

/**
 * ftrace_arch_patch_end - end the batch
 */
void ftrace_arch_patch_end(void)
{
	lockdep_assert_held(&text_mutex);
	poke_unmap();
	mutex_unlock(&text_mutex);
}

/*
 * Store @func in @where, a callback the trampolines load at every call,
 * if it holds @old (the injection counter can make it seem not to).
 */
static int callback_swap(ftrace_func_t *where, ftrace_func_t old, ftrace_func_t func)
{
	ftrace_func_t cur = READ_ONCE(*where);

	if (atomic_add_unless(&ftrace_inject_mismatch, -1, 0))
		cur = NULL;
	if (cur != old)
		return -EINVAL;
	WRITE_ONCE(*where, func);
	return 0;
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
	return callback_swap(&ftrace_caller_func, old, func);
}

/**
 * ftrace_arch_tramp_create - give one ops a slot entry
 * @ops: the ops
 * @func: what its sites must call
 * @slot: the core's slot for it, 1..FTRACE_TRAMP_SLOTS: its sites' word
 * @size: gets 0 (no code of its own)
 *
 * The entry is filled before any site's word names it (the core patches
 * sites after this returns).
 *
 * Context: ftrace_lock held.
 * Return: the entry's address, the "trampoline" the core hands back to
 * ftrace_arch_patch_site(), or 0 for a slot out of the table.
 */
unsigned long ftrace_arch_tramp_create(struct ftrace_ops *ops, ftrace_func_t func,
				       unsigned int slot, unsigned long *size)
{
	struct ftrace_slot_call *e;

	BUILD_BUG_ON(FTRACE_TRAMP_SLOTS >= FTRACE_SLOT_ENTRIES);
	/* entry-ftrace.S compares the word with an immediate of 12 bits. */
	BUILD_BUG_ON(FTRACE_SLOT_ENTRIES > 4096);
	/* entry-ftrace.S indexes the table with a shift of 4. */
	BUILD_BUG_ON(sizeof(struct ftrace_slot_call) != 16);
	if (WARN_ON_ONCE(!slot || slot >= FTRACE_SLOT_ENTRIES))
		return 0;
	e = &ftrace_slot_calls[slot];
	slot_regs[slot] = ops->flags & FTRACE_OPS_FL_SAVE_REGS;
	WRITE_ONCE(e->ops, ops);
	WRITE_ONCE(e->func, func);
	*size = 0;
	return (unsigned long)e;
}

/**
 * ftrace_arch_tramp_set_callback - change what a slot's sites call
 * @tramp: a slot entry from ftrace_arch_tramp_create()
 * @regs: unused (the entry knows)
 * @old: what they call now
 * @func: what they must call
 *
 * A data write: sites read the entry at every call.
 *
 * Return: 0, or -EINVAL if @tramp is no entry or does not call @old.
 */
int ftrace_arch_tramp_set_callback(unsigned long tramp, bool regs,
				   ftrace_func_t old, ftrace_func_t func)
{
	struct ftrace_slot_call *e = slot_entry(tramp);

	return e ? callback_swap(&e->func, old, func) : -EINVAL;
}

/**
 * ftrace_arch_tramp_free - empty a slot entry no CPU can read any more
 * @tramp: a slot entry from ftrace_arch_tramp_create()
 */
void ftrace_arch_tramp_free(unsigned long tramp)
{
	struct ftrace_slot_call *e = slot_entry(tramp);

	if (!e)
		return;
	WRITE_ONCE(e->func, ftrace_stub);
	WRITE_ONCE(e->ops, NULL);
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
