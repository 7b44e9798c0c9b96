// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 back end of dynamic ftrace: encodes, checks and writes call sites
 * (the second of each function's patchable NOPs, the first being
 * "mov x9, x30") and their slot words, which name the per-ops slot entry
 * the trampoline calls.  Every write is one aligned word, read back and
 * compared first, so no CPU is stopped.  Batches use only this file's own
 * notrace code: the generic patching helpers are traced functions.
 * See Documentation/trace/ftrace-core-design.rst.
 */
#include <linux/ftrace.h>
#include <linux/ftrace_arch.h>
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

/* What both trampolines call for a site whose slot word is the NOP. */
ftrace_func_t ftrace_caller_func = ftrace_stub;

/*
 * What they call for a site whose slot word is N (entry 0 is unused).  The
 * core reuses N only after RCU-tasks grace periods, so a CPU that read N
 * still finds its ops, or ftrace_stub.
 */
struct ftrace_slot_call ftrace_slot_calls[FTRACE_SLOT_ENTRIES];
/* Slot N's ops wants every register: its sites call ftrace_regs_caller. */
static bool slot_regs[FTRACE_SLOT_ENTRIES];

#ifdef CONFIG_ARM64_BTI_KERNEL
/* A "bti c" would move the site: the slot word offsets assume none. */
#error "our arm64 ftrace does not know BTI landing pads yet"
#endif

/*
 * The module PLT entry that reaches @target from @ip, a site of @mod out
 * of bl range of it, or 0.  The module loader fills one entry per shared
 * trampoline, for the module's text and for its init text.
 */
static unsigned long mod_plt(struct module *mod, unsigned long ip, unsigned long target)
{
	struct plt_entry *plts, want;
	int idx;

	if (target == FTRACE_ADDR)
		idx = FTRACE_PLT_IDX;
	else if (target == FTRACE_REGS_ADDR)
		idx = FTRACE_REGS_PLT_IDX;
	else
		return 0;
	plts = within_module_init(ip, mod) ? mod->arch.init_ftrace_trampolines :
					      mod->arch.ftrace_trampolines;
	if (!plts)
		return 0;
	want = get_plt_entry(target, &plts[idx]);
	if (memcmp(&plts[idx], &want, sizeof(want)))
		return 0;
	return (unsigned long)&plts[idx];
}

/* The NOP, encoded inline: no call into insn.c while a batch runs. */
static inline u32 nop_insn(void)
{
	return aarch64_insn_get_hint_value() | AARCH64_INSN_HINT_NOP;
}

/* "mov x9, x30" (orr x9, xzr, x30): keeps the return address the bl overwrites. */
static inline u32 mov_insn(void)
{
	/* BIT(31), sf: the 64-bit form */
	return aarch64_insn_get_orr_value() | BIT(31) |
	       (AARCH64_INSN_REG_LR << 16) | (AARCH64_INSN_REG_ZR << 5) |
	       AARCH64_INSN_REG_9;
}

static bool bl_reaches(unsigned long ip, unsigned long target)
{
	long off = (long)target - (long)ip;

	return off >= -SZ_128M && off < SZ_128M;
}

/* Return: 0, or -ERANGE if nothing @ip can branch to reaches @target. */
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
		via = mod ? mod_plt(mod, ip, target) : 0;
		preempt_enable();
		if (!via || !bl_reaches(ip, via))
			return -ERANGE;
	}
	if ((ip | via) % AARCH64_INSN_SIZE)
		return -ERANGE;
	/* bl: imm26 is the word offset, two's complement. */
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

struct site_state {
	u32 insn;
	u32 word;
};

/*
 * @target is 0, a shared trampoline, a slot entry, or a direct function.
 * A direct function out of bl range is reached through ftrace_caller,
 * whose callback has the trampoline enter it on the way out.  The choice
 * depends only on @ip and @target, so a site's old state is found again
 * the same way.
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

/* The injection counter lets a test fake text changed behind our back. */
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

/* Inline page-table helpers, not set_fixmap(): __set_fixmap() is traced. */
static void poke_unmap(void)
{
	unsigned long va = __fix_to_virt(FIX_FTRACE_POKE);

	if (poke_page) {
		pte_clear(&init_mm, va, poke_ptep);
		flush_tlb_kernel_range(va, va + PAGE_SIZE);
		poke_page = 0;
	}
}

/* A fixmap entry is never changed while valid: unmap (and flush) first. */
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
		/* Module text, in vmalloc space. */
		p = vmalloc_to_page((void *)page);
		if (!p)
			return -EFAULT;
		phys = page_to_phys(p);
	}
	set_pte(poke_ptep, pfn_pte(__phys_to_pfn(phys), FIXMAP_PAGE_NORMAL));
	poke_page = page;
	return 0;
}

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
	 * The cleaning names the text's address, not the alias the store
	 * went through, and the alias stays mapped: order them explicitly.
	 */
	dsb(ishst);
	caches_clean_inval_pou(addr, addr + AARCH64_INSN_SIZE);
	return 0;
}

/**
 * ftrace_arch_init_begin - before a module's sites are set up
 *
 * FIX_FTRACE_POKE is shared with the batches of other text: hence
 * text_mutex.  vmlinux's sites come ready from the build.
 */
void ftrace_arch_init_begin(void)
{
	mutex_lock(&text_mutex);
}

/**
 * ftrace_arch_init_site - prepare a fresh patchable entry
 * @ip: the site (the second NOP); its text is not running yet
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
 * The slot word is written before a bl that will read it; a CPU that took
 * the bl just before reads the old word or the new, both naming complete
 * entries.  A NOP site never reads its word, so it is left as it was and
 * checked only while the site calls.  The "mov x9, x30" is not checked: a
 * kprobe at the function's entry may hold that word.
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
	ftrace_arch_assert_locked();
	return callback_swap(&ftrace_caller_func, old, func);
}

/**
 * ftrace_arch_tramp_create - give one ops a slot entry
 * @ops: the ops
 * @func: what its sites must call
 * @slot: the core's slot for it, 1..FTRACE_TRAMP_SLOTS: its sites' word
 * @size: gets 0 (no code of its own)
 *
 * Context: ftrace_lock held.
 * Return: the entry's address, the "trampoline" the core hands back to
 * ftrace_arch_patch_site(), or 0 for a slot out of the table.
 */
unsigned long ftrace_arch_tramp_create(struct ftrace_ops *ops, ftrace_func_t func,
				       unsigned int slot, unsigned long *size)
{
	struct ftrace_slot_call *e;

	ftrace_arch_assert_locked();
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
 * Return: 0, or -EINVAL if @tramp is no entry or does not call @old.
 */
int ftrace_arch_tramp_set_callback(unsigned long tramp, bool regs,
				   ftrace_func_t old, ftrace_func_t func)
{
	struct ftrace_slot_call *e = slot_entry(tramp);

	ftrace_arch_assert_locked();
	return e ? callback_swap(&e->func, old, func) : -EINVAL;
}

/**
 * ftrace_arch_tramp_free - empty a slot entry no CPU can read any more
 * @tramp: a slot entry from ftrace_arch_tramp_create()
 */
void ftrace_arch_tramp_free(unsigned long tramp)
{
	struct ftrace_slot_call *e = slot_entry(tramp);

	ftrace_arch_assert_locked();
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
 * @op: the graph user's ops
 * @fregs: the trampoline's frame
 *
 * The unwinder finds the hooked return by the x29 the trampoline found:
 * the caller's frame pointer, saved in the function's frame record.
 */
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = &fregs->regs;

	fgraph_hook_slot(ip, (unsigned long *)&regs->regs[30],
			 (unsigned long *)regs->regs[29], op);
}
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
