// SPDX-License-Identifier: GPL-2.0
/*
 * x86: writing any number of call sites in one batch.  Each site goes
 * through a breakpoint (int3 on its first byte, then its other bytes,
 * then its new first byte, with a machine-wide sync after each step), and
 * a CPU that meets the int3 is sent where the new instruction would send
 * it.  One batch holds every site a core update changes, so it costs
 * three syncs in all, and only the sites' own bytes are written, page run
 * by page run under one switch to the poking mm.  If the batch cannot
 * grow, what is queued is written at once: slower, never wrong.
 */
#include <linux/ftrace.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include <asm/text-patching.h>
#include <linux/unaligned.h>

#include "ftrace_poke.h"

/* @insn: the new instruction in its low five bytes (see ftrace.c) */
struct poke_site {
	unsigned long	ip;
	u64		insn;
};

/* The batch being queued; text_mutex. */
static struct poke_site *queue;
static unsigned int queued, queue_cap;
static bool unsorted;
/* A queue of one, for when no queue can be allocated. */
static struct poke_site spare;

/*
 * The batch being written, for the int3 handler: published (refs set to
 * 1) before the first int3 is written, withdrawn after the last one is
 * gone and every handler that saw it has left.
 */
static struct poke_site *live;
static unsigned int live_nr;
static atomic_t live_refs = ATOMIC_INIT(0);

enum poke_step { STEP_INT3, STEP_TAIL, STEP_HEAD };

/* A run of sites within a page, and the step to apply to them. */
struct poke_run {
	const struct poke_site	*s;
	unsigned int		n;
	enum poke_step		step;
};

/*
 * Runs written per switch to the poking mm, with interrupts off.  Each
 * switch calls traced functions, which trap once their sites hold int3.
 */
#define RUNS_PER_SWITCH	64

/* A step's runs being handed to text_poke_runs(); text_mutex. */
static struct poke_run run_arg[RUNS_PER_SWITCH];
static struct text_poke_run runs[RUNS_PER_SWITCH];

/* text_poke_runs() callback: @dst is the writable alias of the run's first site. */
static void poke_run_write(void *dst, const void *arg, size_t len)
{
	const struct poke_run *run = arg;
	const struct poke_site *s = run->s, *end = s + run->n;
	unsigned long delta = (unsigned long)dst - run->s[0].ip;

	switch (run->step) {
	case STEP_INT3:
		for (; s < end; s++)
			*(u8 *)(s->ip + delta) = INT3_INSN_OPCODE;
		break;
	case STEP_TAIL:
		for (; s < end; s++)
			put_unaligned((u32)(s->insn >> 8), (u32 *)(s->ip + delta + 1));
		break;
	case STEP_HEAD:
		for (; s < end; s++)
			*(u8 *)(s->ip + delta) = (u8)s->insn;
		break;
	}
}

/*
 * Cut the sites into runs within two consecutive pages (text_poke_runs()
 * maps both at once) and write RUNS_PER_SWITCH runs per mm switch.
 */
static void poke_step(const struct poke_site *s, unsigned int nr, enum poke_step step)
{
	unsigned int i = 0, j, n = 0;

	while (i < nr) {
		unsigned long start = s[i].ip;
		unsigned long limit = (start & PAGE_MASK) + 2 * PAGE_SIZE;

		for (j = i + 1; j < nr && s[j].ip + MCOUNT_INSN_SIZE <= limit; j++)
			;
		run_arg[n] = (struct poke_run){ .s = &s[i], .n = j - i, .step = step };
		runs[n] = (struct text_poke_run){
			.addr	= (void *)start,
			.len	= s[j - 1].ip + MCOUNT_INSN_SIZE - start,
			.arg	= &run_arg[n],
		};
		i = j;
		if (++n == RUNS_PER_SWITCH || i == nr) {
			text_poke_runs(poke_run_write, runs, n);
			n = 0;
		}
	}
}

static int cmp_site(const void *a, const void *b)
{
	const struct poke_site *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static void poke_flush(void)
{
	if (!queued)
		return;
	/* The core queues in address order; direct calls may not. */
	if (unsorted)
		sort(queue, queued, sizeof(*queue), cmp_site, NULL);
	unsorted = false;
	live = queue;
	live_nr = queued;
	atomic_set_release(&live_refs, 1);

	poke_step(queue, queued, STEP_INT3);
	text_poke_sync();
	poke_step(queue, queued, STEP_TAIL);
	text_poke_sync();
	poke_step(queue, queued, STEP_HEAD);
	/*
	 * A CPU in the int3 handler has interrupts off: this sync returns
	 * once every CPU that hit one of our int3 has left the handler, and
	 * none can hit one again.  The count covers handlers that looked
	 * the batch up and have not yet dropped their reference.
	 */
	text_poke_sync();
	if (!atomic_dec_and_test(&live_refs))
		atomic_cond_read_acquire(&live_refs, !VAL);
	live = NULL;
	live_nr = 0;
	queued = 0;
}

static void poke_free_queue(void)
{
	if (queue != &spare)
		kvfree(queue);
	queue = NULL;
	queue_cap = 0;
}

/* Return: false without memory; the queue is then unchanged. */
static bool poke_resize(unsigned int cap)
{
	struct poke_site *q = kvmalloc_array(cap, sizeof(*q), GFP_KERNEL | __GFP_NOWARN);

	if (!q)
		return false;
	if (queued)
		memcpy(q, queue, queued * sizeof(*q));
	poke_free_queue();
	queue = q;
	queue_cap = cap;
	return true;
}

/* A batch sized by ftrace_poke_reserve() gets here only if that failed. */
static void poke_make_room(void)
{
	if (poke_resize(queue_cap ? queue_cap * 2 : 1024))
		return;
	poke_flush();
	if (!queue_cap) {
		queue = &spare;
		queue_cap = 1;
	}
}

/**
 * ftrace_poke_reserve - size the queue of a new batch
 * @nr: how many sites the batch will hold, or 0 if not known
 *
 * One allocation of the right size instead of a queue that doubles as it
 * goes.  Without memory the queue grows, or is written out early.
 *
 * Context: text_mutex held, the queue empty.
 */
void ftrace_poke_reserve(unsigned int nr)
{
	lockdep_assert_held(&text_mutex);
	if (nr > queue_cap)
		poke_resize(nr);
}

/**
 * ftrace_poke_queue - add a site to the batch
 * @ip: the site, not queued yet in this batch
 * @insn: the instruction it must hold, in the low five bytes
 *
 * Context: text_mutex held.
 */
void ftrace_poke_queue(unsigned long ip, u64 insn)
{
	lockdep_assert_held(&text_mutex);
	if (unlikely(queued == queue_cap))
		poke_make_room();
	if (queued && ip <= queue[queued - 1].ip)
		unsorted = true;
	queue[queued].ip = ip;
	queue[queued].insn = insn;
	queued++;
}

/**
 * ftrace_poke_finish - write the batch
 *
 * Context: text_mutex held.
 */
void ftrace_poke_finish(void)
{
	lockdep_assert_held(&text_mutex);
	poke_flush();
	/* A switch of everything needs a large queue; do not keep it. */
	poke_free_queue();
}

/**
 * ftrace_int3_handler - a CPU met the int3 of a site being written
 * @regs: the trap's registers; regs->ip is just past the int3
 *
 * Does what the site's new instruction does: a call into its trampoline,
 * or a jump over the NOP.  Called from the int3 trap before anything
 * else can run, so it calls nothing and touches only the batch.
 *
 * Return: true if the int3 was one of ours.
 */
noinstr bool ftrace_int3_handler(struct pt_regs *regs)
{
	const struct poke_site *s;
	unsigned int lo, hi;
	unsigned long ip;
	bool ours = false;

	if (user_mode(regs) || !raw_atomic_inc_not_zero(&live_refs))
		return false;
	ip = regs->ip - INT3_INSN_SIZE;
	s = READ_ONCE(live);
	lo = 0;
	hi = READ_ONCE(live_nr);
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (s[mid].ip < ip) {
			lo = mid + 1;
		} else if (s[mid].ip > ip) {
			hi = mid;
		} else {
			s += mid;
			ours = true;
			break;
		}
	}
	if (ours && (u8)s->insn == CALL_INSN_OPCODE)
		int3_emulate_call(regs, ip + MCOUNT_INSN_SIZE + (s32)(s->insn >> 8));
	else if (ours)
		int3_emulate_jmp(regs, ip + MCOUNT_INSN_SIZE);
	raw_atomic_dec(&live_refs);
	return ours;
}
