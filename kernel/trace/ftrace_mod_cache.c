// SPDX-License-Identifier: GPL-2.0
/*
 * ":mod:" filter entries for modules not loaded yet: remembered per trace
 * array and filter file, and applied when the module loads.
 */
#include <linux/seq_file.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

static void mod_load_free(struct ftrace_mod_load *ml)
{
	list_del(&ml->list);
	kfree(ml->func);
	kfree(ml->module);
	kfree(ml);
}

/**
 * ftrace_mod_cache_add - remember (or forget) "func:mod:module"
 * @tr: the trace array (for the caller's locking only)
 * @head: the list to edit
 * @func: the function glob as written ("" is every function of the
 *	module), with a leading '!' to forget
 * @module: the module's name
 * @remove: forget matching entries instead: those of @module written
 *	with the same function, or all of them for "*"
 *
 * Return: 0, -EINVAL if there was nothing to forget, -ENOMEM.
 */
int ftrace_mod_cache_add(struct trace_array *tr, struct list_head *head,
			 const char *func, const char *module, bool remove)
{
	struct ftrace_mod_load *ml, *n;
	int found = 0;

	if (remove) {
		func++;
		list_for_each_entry_safe(ml, n, head, list) {
			if (strcmp(ml->module, module) ||
			    (strcmp(func, "*") && strcmp(ml->func, func)))
				continue;
			mod_load_free(ml);
			found++;
		}
		return found ? 0 : -EINVAL;
	}
	ml = kzalloc(sizeof(*ml), GFP_KERNEL);
	if (!ml)
		return -ENOMEM;
	/* Kept as written: it reads back as the user wrote it. */
	ml->func = kstrdup(func, GFP_KERNEL);
	ml->module = kstrdup(module, GFP_KERNEL);
	if (!ml->func || !ml->module) {
		kfree(ml->func);
		kfree(ml->module);
		kfree(ml);
		return -ENOMEM;
	}
	list_add_tail(&ml->list, head);
	return 0;
}

/**
 * ftrace_mod_cache_copy - copy remembered ":mod:" entries
 * @dst: an empty list
 * @src: the entries to copy
 *
 * Return: 0, or -ENOMEM (then @dst is empty).
 */
int ftrace_mod_cache_copy(struct list_head *dst, struct list_head *src)
{
	struct ftrace_mod_load *ml;
	int ret;

	ftrace_assert_locked();
	list_for_each_entry(ml, src, list) {
		ret = ftrace_mod_cache_add(NULL, dst, ml->func, ml->module, false);
		if (ret) {
			ftrace_mod_cache_clear(dst);
			return ret;
		}
	}
	return 0;
}

/**
 * ftrace_mod_cache_clear - forget every remembered ":mod:" entry of a list
 * @head: the list
 */
void ftrace_mod_cache_clear(struct list_head *head)
{
	struct ftrace_mod_load *ml, *n;

	list_for_each_entry_safe(ml, n, head, list)
		mod_load_free(ml);
}

/**
 * ftrace_mod_cache_show - list remembered ":mod:" entries
 * @m: the seq_file
 * @head: the list
 */
void ftrace_mod_cache_show(struct seq_file *m, struct list_head *head)
{
	struct ftrace_mod_load *ml;

	ftrace_assert_locked();
	list_for_each_entry(ml, head, list)
		seq_printf(m, "%s:mod:%s\n", ml->func, ml->module);
}

static void mod_apply(struct trace_array *tr, struct module *mod, bool notr)
{
	struct list_head *head = notr ? &tr->mod_notrace : &tr->mod_trace;
	struct ftrace_ops *ops = tr->ops;
	struct ftrace_mod_load *ml, *n;
	struct ftrace_hash *hash;
	LIST_HEAD(batch);

	list_for_each_entry_safe(ml, n, head, list) {
		if (strcmp(ml->module, mod->name))
			continue;
		if (ftrace_pattern_add(&batch, ml->func, ml->module))
			break;
		mod_load_free(ml);
	}
	if (list_empty(&batch))
		return;
	ftrace_ops_init(ops);
	hash = ftrace_hash_copy(rcu_dereference_protected(notr ?
			ops->func_hash->notrace_hash : ops->func_hash->filter_hash, 1));
	if (hash && !ftrace_match_patterns(&batch, hash)) {
		if (list_empty(head) && hash->count)
			hash->flags &= ~FTRACE_HASH_FL_MOD;
		ftrace_ops_set_hashes(ops, notr ? NULL : hash, notr ? hash : NULL);
	} else {
		ftrace_hash_free(hash);
	}
	ftrace_patterns_free(&batch);
}

/**
 * ftrace_mod_cache_apply - apply a trace array's remembered ":mod:" entries
 * @tr: the trace array
 * @mod: a new module, whose records are published
 *
 * Context: trace_types_lock and ftrace_lock held.
 */
void ftrace_mod_cache_apply(struct trace_array *tr, struct module *mod)
{
	lockdep_assert_held(&trace_types_lock);
	ftrace_assert_locked();
	if (!tr->ops || (list_empty(&tr->mod_trace) && list_empty(&tr->mod_notrace)))
		return;
	mod_apply(tr, mod, false);
	mod_apply(tr, mod, true);
}
