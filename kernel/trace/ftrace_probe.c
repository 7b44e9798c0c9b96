// SPDX-License-Identifier: GPL-2.0
/*
 * Function probes, the callbacks behind filter commands
 * ("func:traceoff:3"): one ftrace_ops per (trace array, probe_ops) pair,
 * sites added and removed by glob.
 */
#include <linux/seq_file.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

struct ftrace_func_probe;

struct probe_free {
	struct list_head		list;
	struct ftrace_func_probe	*probe;
	struct ftrace_hash		*ips;	/* NULL: all, then the probe */
};

struct ftrace_func_probe {
	struct list_head	list;
	struct ftrace_probe_ops	*probe_ops;
	struct ftrace_ops	ops;
	struct trace_array	*tr;
	void			*data;
	struct probe_free	last;		/* its own end, allocation-free */
};

/*
 * A probe's ->free() may take ftrace_lock (an enable_event probe may
 * unregister a kprobe event, itself an ftrace ops), so it runs after
 * ftrace_lock is released, from probe_frees.  probe_mutex, taken before
 * ftrace_lock, keeps ->init(), ->free() and ->print() apart: the maps are
 * not safe against concurrent writers.
 */
static DEFINE_MUTEX(probe_mutex);
static LIST_HEAD(probe_frees);

static struct ftrace_hash *probe_filter(struct ftrace_func_probe *probe)
{
	return rcu_dereference_protected(probe->ops.func_hash->filter_hash, 1);
}

/**
 * ftrace_probes_lock - serialise with the probes' ->init(), ->free() and ->print()
 *
 * Context: before ftrace_lock; after event_mutex and trace_types_lock.
 */
void ftrace_probes_lock(void)
{
	lockdep_assert_not_held(&ftrace_lock);
	mutex_lock(&probe_mutex);
}

/**
 * ftrace_probes_unlock - run the ->free() calls due, and unlock
 *
 * Context: ftrace_probes_lock() held, ftrace_lock not held.
 */
void ftrace_probes_unlock(void)
{
	struct probe_free *pf, *n;
	struct ftrace_func_probe *probe;
	struct ftrace_func_entry *entry;
	struct ftrace_probe_ops *probe_ops;
	struct ftrace_hash *ips;
	unsigned long i;

	lockdep_assert_not_held(&ftrace_lock);
	list_for_each_entry_safe(pf, n, &probe_frees, list) {
		list_del(&pf->list);
		probe = pf->probe;
		probe_ops = probe->probe_ops;
		/* A whole probe is off every list: its filter is what it had. */
		ips = pf->ips ?: probe_filter(probe);
		if (probe_ops->free)
			ftrace_hash_for_each(ips, i, entry)
				probe_ops->free(probe_ops, probe->tr, entry->ip, probe->data);
		if (pf->ips) {
			ftrace_hash_free(pf->ips);
			kfree(pf);
			continue;
		}
		if (probe_ops->free)
			probe_ops->free(probe_ops, probe->tr, 0, probe->data);
		ftrace_free_filter(&probe->ops);
		kfree(probe);
	}
	mutex_unlock(&probe_mutex);
}

static void probe_call(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct ftrace_func_probe *probe = container_of(op, struct ftrace_func_probe, ops);

	probe->probe_ops->func(ip, parent_ip, probe->tr, probe->probe_ops, probe->data);
}

static struct ftrace_func_probe *find_probe(struct trace_array *tr,
					    struct ftrace_probe_ops *probe_ops)
{
	struct ftrace_func_probe *probe;

	list_for_each_entry(probe, &tr->func_probes, list)
		if (probe->probe_ops == probe_ops)
			return probe;
	return NULL;
}

static struct ftrace_hash *glob_sites(char *glob, int *err)
{
	struct ftrace_hash *hash = ftrace_hash_alloc(1);
	LIST_HEAD(batch);
	struct ftrace_pattern *pat;
	size_t len = strlen(glob) + 1;

	*err = -ENOMEM;
	if (!hash)
		return NULL;
	pat = kzalloc(struct_size(pat, text, len), GFP_KERNEL);
	if (!pat)
		goto fail;
	memcpy(pat->text, glob, len);
	ftrace_glob_parse(&pat->func, pat->text);
	list_add(&pat->list, &batch);
	*err = ftrace_match_patterns(&batch, hash);
	kfree(pat);
	if (!*err)
		return hash;
fail:
	ftrace_hash_free(hash);
	return NULL;
}

/*
 * Queue in order: a probe may lose sites and then go in one locked
 * update.  @pf NULL: the whole probe, which is off its trace array's list.
 */
static void probe_free_later(struct ftrace_func_probe *probe, struct probe_free *pf)
{
	lockdep_assert_held(&probe_mutex);
	if (!pf) {
		pf = &probe->last;
		pf->ips = NULL;
	}
	pf->probe = probe;
	list_add_tail(&pf->list, &probe_frees);
}

/**
 * register_ftrace_function_probe - call a probe on functions matching a glob
 * @glob: the functions
 * @tr: the trace array the probe reports to
 * @probe_ops: the probe
 * @data: passed to ->init for each new function
 *
 * Return: how many functions were added, -EINVAL if none (no match, or
 * every match has the probe already), or another negative errno.
 */
int register_ftrace_function_probe(char *glob, struct trace_array *tr,
				   struct ftrace_probe_ops *probe_ops, void *data)
{
	struct ftrace_hash *sites, *filter;
	struct ftrace_func_probe *probe;
	struct ftrace_func_entry *entry;
	bool created = false;
	unsigned long i;
	int ret, count = 0;

	if (!tr)
		return -EINVAL;
	ftrace_probes_lock();
	mutex_lock(&ftrace_lock);
	ret = -ENODEV;
	if (ftrace_dead)
		goto unlock;
	sites = glob_sites(glob, &ret);
	if (!sites)
		goto out;
	probe = find_probe(tr, probe_ops);
	if (!probe) {
		ret = -ENOMEM;
		probe = kzalloc(sizeof(*probe), GFP_KERNEL);
		if (!probe)
			goto out;
		probe->probe_ops = probe_ops;
		probe->tr = tr;
		probe->ops.func = probe_call;
		probe->ops.flags = FTRACE_OPS_FL_RECURSION;
		ftrace_ops_init(&probe->ops);
		list_add(&probe->list, &tr->func_probes);
		created = true;
	}
	ret = -ENOMEM;
	filter = ftrace_hash_copy(probe_filter(probe));
	if (!filter)
		goto undo;
	ret = 0;
	/*
	 * A function is in the filter exactly when ->init() has run for it.
	 * A failure keeps the functions added before it: their data is
	 * linked to the caller's, which the caller frees on an error.
	 */
	ftrace_hash_for_each(sites, i, entry) {
		if (ftrace_lookup_ip(filter, entry->ip))
			continue;
		ret = ftrace_hash_add(filter, entry->ip);
		if (!ret && probe_ops->init) {
			ret = probe_ops->init(probe_ops, tr, entry->ip, data, &probe->data);
			if (ret < 0)
				ftrace_hash_remove(filter, entry->ip);
		}
		if (ret < 0)
			goto added;	/* a break would leave only the bucket */
		count++;
	}
added:
	if (!count) {
		ftrace_hash_free(filter);
		ret = ret < 0 ? ret : -EINVAL;
		goto undo;
	}
	/*
	 * Past ->init() the registration stands: these fail only if ftrace
	 * dies in this very update, and the probe then keeps its functions,
	 * whose data the caller would free on an error.
	 */
	if (!ftrace_ops_set_hashes(&probe->ops, filter, NULL) &&
	    !ftrace_ops_registered(&probe->ops))
		ftrace_startup(&probe->ops, 0);
	ret = count;
	goto out;
undo:
	if (created) {
		list_del(&probe->list);
		probe_free_later(probe, NULL);
	}
out:
	ftrace_hash_free(sites);
unlock:
	mutex_unlock(&ftrace_lock);
	ftrace_probes_unlock();
	return ret;
}

/*
 * Take @remove's sites off a probe, freeing their data once no CPU can be
 * in its callback for them; the probe goes with its last site.
 * Return: 0, or -ENOMEM with nothing changed.
 */
static int probe_remove(struct ftrace_func_probe *probe, struct ftrace_hash *remove)
{
	struct ftrace_probe_ops *probe_ops = probe->probe_ops;
	struct ftrace_hash *filter = probe_filter(probe);
	struct probe_free *pf = NULL;
	struct ftrace_func_entry *entry;
	bool keep = false;
	unsigned long i;

	ftrace_hash_for_each(filter, i, entry)
		keep = keep || !ftrace_lookup_ip(remove, entry->ip);
	if (keep) {
		if (probe_ops->free) {
			pf = kmalloc(sizeof(*pf), GFP_KERNEL);
			if (pf)
				pf->ips = ftrace_hash_copy(remove);
			if (!pf || !pf->ips) {
				kfree(pf);
				return -ENOMEM;
			}
		}
		filter = ftrace_hash_copy(filter);
		if (!filter) {
			if (pf)
				ftrace_hash_free(pf->ips);
			kfree(pf);
			return -ENOMEM;
		}
		ftrace_hash_for_each(remove, i, entry)
			ftrace_hash_remove(filter, entry->ip);
		ftrace_ops_set_hashes(&probe->ops, filter, NULL);
		/*
		 * A CPU may still be in the callback for one of the sites, or
		 * a task preempted in the probe's trampoline: wait as
		 * ops_unlink() does for a dynamic ops.
		 */
		if (pf) {
			synchronize_rcu_tasks_rude();
			if (IS_ENABLED(CONFIG_PREEMPTION))
				synchronize_rcu_tasks();
			probe_free_later(probe, pf);
		}
		return 0;
	}
	if (ftrace_ops_registered(&probe->ops))
		/* A dynamic ops: this waits for its callbacks as well. */
		ftrace_shutdown(&probe->ops, 0);
	list_del(&probe->list);
	probe_free_later(probe, NULL);
	return 0;
}

/**
 * unregister_ftrace_function_probe_func - stop a probe on matching functions
 * @glob: the functions ("*" or empty for all)
 * @tr: the trace array
 * @probe_ops: the probe
 *
 * Return: 0, -ENODEV if no such probe, -EINVAL if @glob matches none of
 * its functions, -ENOMEM.
 */
int unregister_ftrace_function_probe_func(char *glob, struct trace_array *tr,
					  struct ftrace_probe_ops *probe_ops)
{
	struct ftrace_hash *sites = NULL, *remove;
	struct ftrace_func_probe *probe;
	struct ftrace_func_entry *entry;
	unsigned long i;
	int ret = -ENODEV;

	if (!tr)
		return -EINVAL;
	ftrace_probes_lock();
	mutex_lock(&ftrace_lock);
	probe = find_probe(tr, probe_ops);
	if (!probe)
		goto out;
	ret = -ENOMEM;
	remove = ftrace_hash_alloc(1);
	if (!remove)
		goto out;
	if (glob && *glob && strcmp(glob, "*")) {
		sites = glob_sites(glob, &ret);
		if (!sites) {
			ftrace_hash_free(remove);
			goto out;
		}
	}
	ret = 0;
	ftrace_hash_for_each(probe_filter(probe), i, entry)
		if (!sites || ftrace_lookup_ip(sites, entry->ip))
			ret = ret ?: ftrace_hash_add(remove, entry->ip);
	if (!ret && !remove->count)
		ret = -EINVAL;
	if (!ret)
		ret = probe_remove(probe, remove);
	ftrace_hash_free(remove);
	ftrace_hash_free(sites);
out:
	mutex_unlock(&ftrace_lock);
	ftrace_probes_unlock();
	return ret;
}

/**
 * clear_ftrace_function_probes - remove every probe of a trace array
 * @tr: the trace array, being deleted
 */
void clear_ftrace_function_probes(struct trace_array *tr)
{
	struct ftrace_func_probe *probe, *n;

	ftrace_probes_lock();
	mutex_lock(&ftrace_lock);
	list_for_each_entry_safe(probe, n, &tr->func_probes, list)
		probe_remove(probe, probe_filter(probe));
	mutex_unlock(&ftrace_lock);
	ftrace_probes_unlock();
}

/**
 * ftrace_probes_purge - take text that goes away off a trace array's probes
 * @tr: the trace array
 * @g: the group of the sites; those in the range are retired already
 * @start: first address
 * @end: end of the range (exclusive)
 *
 * A probe's function carries data (a count, an event's soft-enable
 * reference) that only ->free() gives back, so the functions are removed
 * as a "!func:cmd" write would remove them, not just their addresses.
 *
 * Context: event_mutex, trace_types_lock, ftrace_probes_lock() and
 * ftrace_lock held; ftrace_probes_unlock() runs the ->free() calls.
 */
void ftrace_probes_purge(struct trace_array *tr, struct ftrace_group *g,
			 unsigned long start, unsigned long end)
{
	struct ftrace_func_probe *probe, *n;
	struct ftrace_hash *gone;

	lockdep_assert_held(&event_mutex);
	lockdep_assert_held(&probe_mutex);
	ftrace_assert_locked();
	list_for_each_entry_safe(probe, n, &tr->func_probes, list) {
		gone = ftrace_group_hits(probe_filter(probe), g, start, end);
		if (gone)
			probe_remove(probe, gone);
		ftrace_hash_free(gone);
	}
}

/**
 * ftrace_probes_show - list a trace array's probes in set_ftrace_filter
 * @m: the seq_file
 * @tr: the trace array
 *
 * Context: ftrace_probes_lock() and ftrace_lock held.
 */
void ftrace_probes_show(struct seq_file *m, struct trace_array *tr)
{
	struct ftrace_func_probe *probe;
	struct ftrace_func_entry *entry;
	unsigned long i;

	lockdep_assert_held(&probe_mutex);
	ftrace_assert_locked();
	list_for_each_entry(probe, &tr->func_probes, list) {
		ftrace_hash_for_each(probe_filter(probe), i, entry) {
			if (probe->probe_ops->print)
				probe->probe_ops->print(m, entry->ip, probe->probe_ops,
							probe->data);
			else
				seq_printf(m, "%ps:%ps\n", (void *)entry->ip,
					   (void *)probe->probe_ops->func);
		}
	}
}
