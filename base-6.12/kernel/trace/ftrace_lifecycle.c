// SPDX-License-Identifier: GPL-2.0
/*
 * The lifecycle of call sites: vmlinux's records at boot, and text that
 * goes away (init text, a module's text), whose addresses are purged from
 * every hash that may hold them.  With ftrace_module.c, the only place
 * that takes event_mutex and trace_types_lock, to reach every trace
 * array's ops and filter commands.
 * See Documentation/trace/ftrace-core-design.rst.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/timex.h>
#include <asm/sections.h>

#include "trace.h"
#include "ftrace_internal.h"

/*
 * The build zeroes the records of overridden weak functions' bodies and
 * sorts them first; KASLR then moves them by its offset, out of the
 * kernel's text.  They stay first: zero them again.
 */
static void __init drop_moved_zeros(unsigned long *ips, unsigned long count)
{
	unsigned long i;

	for (i = 0; i < count && ips[i] && !is_kernel_text(ips[i]) &&
		    !is_kernel_inittext(ips[i]); i++)
		ips[i] = 0;
}

/**
 * ftrace_init - build the records of vmlinux's call sites, make them NOPs
 *
 * Context: start_kernel(), one CPU, interrupts off: sites are written directly.
 */
void __init ftrace_init(void)
{
	unsigned long count = __stop_mcount_loc - __start_mcount_loc;
	char how[80] = "set up (NOPs, no dead sites: done at build time)";
	struct ftrace_group *g;
	/* This early the scheduler clock may still count stopped jiffies. */
	cycles_t c0 = get_cycles();
	u64 t0 = local_clock(), us;

	drop_moved_zeros(__start_mcount_loc, count);
	count = ftrace_sort_ips(__start_mcount_loc, count);
	ftrace_adjust_ips(__start_mcount_loc, count);
	g = ftrace_group_create(NULL, __start_mcount_loc, count);
	if (!g) {
		pr_err("ftrace: cannot allocate records for %lu call sites; function tracing disabled\n",
		       count);
		ftrace_dead = 1;
		return;
	}
	if (!FTRACE_SITES_READY_AT_BUILD) {
		if (ftrace_init_group_sites(g)) {
			ftrace_group_destroy(g);
			return;
		}
		ftrace_retire_dead_sites(g, NULL, 0);
		snprintf(how, sizeof(how), "converted to NOPs (%u in overridden weak functions)",
			 g->freed);
	}
	g->ready = true;
	mutex_lock(&ftrace_lock);
	ftrace_group_publish(g);
	mutex_unlock(&ftrace_lock);
	us = div_u64(local_clock() - t0, NSEC_PER_USEC);
	pr_info("ftrace: %lu call sites %s in %llu us (%llu cycles); records take %lu bytes (%lu pages, %lu.%02lu bytes per site)\n",
		count, how, us, (u64)(get_cycles() - c0),
		(unsigned long)g->pages * PAGE_SIZE, (unsigned long)g->pages,
		g->pages * PAGE_SIZE / count,
		(g->pages * PAGE_SIZE % count) * 100 / count);
}

static void free_range(struct ftrace_group *g, unsigned long start,
		       unsigned long end)
{
	if (g->mod)
		ftrace_save_init_syms(g, start, end);
	/* Retired first, so that the purge does not patch dying text. */
	ftrace_update_tot_cnt -= ftrace_retire_range(g, start, end);
	ftrace_purge_group(g, start, end);
}

/**
 * ftrace_free_mem - a module's init text is being freed
 * @mod: the module
 * @start: start of the freed text
 * @end: its end
 */
void ftrace_free_mem(struct module *mod, void *start, void *end)
{
	struct ftrace_group *g;

	mutex_lock(&event_mutex);	/* ftrace_purge_group()'s order */
	mutex_lock(&trace_types_lock);
	ftrace_probes_lock();
	mutex_lock(&ftrace_lock);
	for_each_ftrace_group(g) {
		if (g->mod != mod)
			continue;
		free_range(g, (unsigned long)start, (unsigned long)end);
		ftrace_number_of_pages -= ftrace_group_trim(g);
	}
	mutex_unlock(&ftrace_lock);
	ftrace_probes_unlock();
	mutex_unlock(&trace_types_lock);
	mutex_unlock(&event_mutex);
}

/**
 * ftrace_free_init_mem - vmlinux's init text is being freed
 */
void __ref ftrace_free_init_mem(void)
{
	ftrace_boot_snapshot();
	ftrace_free_mem(NULL, __init_begin, __init_end);
}

static void purge_ops(struct ftrace_ops *ops, struct ftrace_group *g,
		      unsigned long start, unsigned long end)
{
	struct ftrace_hash *filter, *notr;

	if (!ops->func_hash)
		return;
	filter = ftrace_hash_purged(rcu_dereference_protected(ops->func_hash->filter_hash, 1),
				    g, start, end, true);
	notr = ftrace_hash_purged(rcu_dereference_protected(ops->func_hash->notrace_hash, 1),
				  g, start, end, false);
	if (filter || notr)
		ftrace_ops_set_hashes(ops, filter, notr);
}

/**
 * ftrace_purge_group - forget sites whose text goes away
 * @g: their group; the records in the range are FREED already
 * @start: first address
 * @end: end of the range (exclusive)
 *
 * Drops the addresses from every hash that may hold them (registered ops,
 * instances' unregistered ops, graph filters, filter commands, direct
 * calls), so that text loaded there later is not traced by an old filter.
 *
 * Context: event_mutex, trace_types_lock, ftrace_probes_lock() and
 * ftrace_lock held.
 */
void ftrace_purge_group(struct ftrace_group *g, unsigned long start,
			unsigned long end)
{
	struct trace_array *tr;
	struct ftrace_ops *op;

	lockdep_assert_held(&event_mutex);
	lockdep_assert_held(&trace_types_lock);
	ftrace_assert_locked();
	/* Before the ops walk, which would drop only their addresses. */
	list_for_each_entry(tr, &ftrace_trace_arrays, list)
		ftrace_probes_purge(tr, g, start, end);
	ftrace_direct_purge(g, start, end);
	for (op = rcu_dereference_protected(ftrace_ops_list, 1);
	     op != &ftrace_list_end;
	     op = rcu_dereference_protected(op->next, 1))
		purge_ops(op, g, start, end);
	list_for_each_entry(tr, &ftrace_trace_arrays, list)
		if (tr->ops && !ftrace_ops_registered(tr->ops))
			purge_ops(tr->ops, g, start, end);
	fgraph_filter_purge(g, start, end);
}
