// SPDX-License-Identifier: GPL-2.0
/*
 * The graph filters behind set_graph_function and set_graph_notrace: the
 * hashes of a private ops that is never registered.  Committing an edit
 * publishes the new hash to the graph tracers' readers in trace.h instead
 * of re-patching sites.
 */
#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/rcupdate.h>
#include <asm/setup.h>

#include "trace.h"
#include "ftrace_internal.h"

struct ftrace_hash __rcu *ftrace_graph_hash;
struct ftrace_hash __rcu *ftrace_graph_notrace_hash;

struct ftrace_ops fgraph_filter_ops = {
	.func		= ftrace_stub,
	.role		= FTRACE_ROLE_SITES,
	.func_hash	= &fgraph_filter_ops.local_hash,
	.local_hash.regex_lock = __MUTEX_INITIALIZER(fgraph_filter_ops.local_hash.regex_lock),
};

/**
 * fgraph_set_filter_hash - install a new set_graph_function/notrace set
 * @notr: set_graph_notrace rather than set_graph_function
 * @hash: the new set; owned by the graph filter from now on
 *
 * Context: ftrace_lock held.
 * Return: 0.
 */
int fgraph_set_filter_hash(bool notr, struct ftrace_hash *hash)
{
	struct ftrace_hash __rcu **pub = notr ? &ftrace_graph_notrace_hash :
						&ftrace_graph_hash;
	struct ftrace_ops_hash *h = &fgraph_filter_ops.local_hash;
	struct ftrace_hash *old;

	ftrace_assert_locked();
	old = rcu_dereference_protected(*pub, 1);
	rcu_assign_pointer(*pub, hash);
	if (notr)
		rcu_assign_pointer(h->notrace_hash, hash);
	else
		rcu_assign_pointer(h->filter_hash, hash);
	/* Readers may run where RCU is not watching (idle): RCU-tasks-rude. */
	ftrace_hash_free_rude(old);
	return 0;
}

/**
 * fgraph_filter_install - the install hook of edits of fgraph_filter_ops
 * @e: the edit being committed
 *
 * Context: regex_lock and ftrace_lock held.
 * Return: 0.
 */
int fgraph_filter_install(struct ftrace_filter_edit *e)
{
	lockdep_assert_held(&e->ops->func_hash->regex_lock);
	return fgraph_set_filter_hash(e->notr, e->hash);
}

/**
 * fgraph_filter_purge - take text that goes away off the graph filters
 * @g: the group of the sites; those in the range are retired already
 * @start: first address
 * @end: end of the range (exclusive)
 *
 * So that a function loaded later at the same address is not selected by
 * the old entry.  An emptied set_graph_function still selects nothing.
 *
 * Context: ftrace_lock held.
 */
void fgraph_filter_purge(struct ftrace_group *g, unsigned long start,
			 unsigned long end)
{
	struct ftrace_ops_hash *h = &fgraph_filter_ops.local_hash;
	struct ftrace_hash *hash;

	ftrace_assert_locked();
	hash = ftrace_hash_purged(rcu_dereference_protected(h->filter_hash, 1),
				  g, start, end, true);
	if (hash)
		fgraph_set_filter_hash(false, hash);
	hash = ftrace_hash_purged(rcu_dereference_protected(h->notrace_hash, 1),
				  g, start, end, false);
	if (hash)
		fgraph_set_filter_hash(true, hash);
}

/* ---- Boot parameters ---- */

static char boot_graph_filter[COMMAND_LINE_SIZE] __initdata;
static char boot_graph_notrace[COMMAND_LINE_SIZE] __initdata;

static int __init set_boot_graph_filter(char *str)
{
	strscpy(boot_graph_filter, str, sizeof(boot_graph_filter));
	return 1;
}
__setup("ftrace_graph_filter=", set_boot_graph_filter);

static int __init set_boot_graph_notrace(char *str)
{
	strscpy(boot_graph_notrace, str, sizeof(boot_graph_notrace));
	return 1;
}
__setup("ftrace_graph_notrace=", set_boot_graph_notrace);

static int __init apply_boot_graph_filters(void)
{
	if (boot_graph_filter[0])
		ftrace_set_early_filter_install(&fgraph_filter_ops, boot_graph_filter, 1,
						fgraph_filter_install);
	if (boot_graph_notrace[0])
		ftrace_set_early_filter_install(&fgraph_filter_ops, boot_graph_notrace, 0,
						fgraph_filter_install);
	return 0;
}
core_initcall(apply_boot_graph_filters);
