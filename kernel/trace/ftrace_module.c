// SPDX-License-Identifier: GPL-2.0
/*
 * Modules' call sites: records made when a module is loaded, patched once
 * it is formed (after its ":mod:" filters were applied), and dropped with
 * every hash's addresses in it when it goes away.
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

static struct ftrace_group *mod_group(struct module *mod)
{
	struct ftrace_group *g;

	for_each_ftrace_group(g)
		if (g->mod == mod)
			return g;
	return NULL;
}

/**
 * ftrace_module_init - records for a module being loaded
 * @mod: the module; its text is not executable yet
 *
 * The group is not ready, so no recount sees it until ftrace_module_enable().
 */
void ftrace_module_init(struct module *mod)
{
	unsigned long *ips, count = mod->num_ftrace_callsites;
	struct ftrace_group *g;

	if (!count || ftrace_dead)
		return;
	ips = kvmalloc_array(count, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		goto nomem;
	memcpy(ips, mod->ftrace_callsites, count * sizeof(*ips));
	count = ftrace_sort_ips(ips, count);
	ftrace_adjust_ips(ips, count);
	g = ftrace_group_create(mod, ips, count);
	kvfree(ips);
	if (!g)
		goto nomem;
	if (ftrace_init_group_sites(g)) {
		ftrace_group_destroy(g);
		return;
	}
	mutex_lock(&ftrace_lock);
	ftrace_group_publish(g);
	mutex_unlock(&ftrace_lock);
	return;
nomem:
	pr_warn("ftrace: no memory for the records of module %s; it will not be traced\n",
		mod->name);
}

/**
 * ftrace_module_enable - patch a new module's sites that filters want
 * @mod: the module, about to run its init
 */
void ftrace_module_enable(struct module *mod)
{
	unsigned long *syms = NULL, nsyms = 0;
	struct trace_array *tr;
	struct ftrace_group *g;

	/*
	 * kallsyms knows the module only now.  Not under ftrace_lock: the
	 * copy may sleep.
	 */
	if (mod->num_ftrace_callsites)
		syms = ftrace_mod_sym_addrs(mod, &nsyms);
	mutex_lock(&ftrace_lock);
	g = mod_group(mod);
	if (g)
		ftrace_update_tot_cnt -= ftrace_retire_dead_sites(g, syms, nsyms);
	mutex_unlock(&ftrace_lock);
	kvfree(syms);

	/* Every trace array's ":mod:" entries for it, before it is patched. */
	mutex_lock(&trace_types_lock);
	mutex_lock(&ftrace_lock);
	list_for_each_entry(tr, &ftrace_trace_arrays, list)
		ftrace_mod_cache_apply(tr, mod);
	mutex_unlock(&ftrace_lock);
	mutex_unlock(&trace_types_lock);
	mutex_lock(&ftrace_lock);
	g = mod_group(mod);
	if (!ftrace_dead && g) {
		/*
		 * Only the new sites can change, and none was patched before
		 * its dead sites were retired and :mod: filters applied.
		 */
		g->ready = true;
		ftrace_touch_group(g);
		ftrace_apply_touched();
	}
	mutex_unlock(&ftrace_lock);
}

/**
 * ftrace_release_mod - drop the records of a module going away
 * @mod: the module; its text is about to be freed
 */
void ftrace_release_mod(struct module *mod)
{
	struct ftrace_group *g;

	/*
	 * The purge reaches every instance's ops (trace_types_lock), and
	 * event probes' ->free() needs event_mutex.
	 */
	mutex_lock(&event_mutex);
	mutex_lock(&trace_types_lock);
	ftrace_probes_lock();
	mutex_lock(&ftrace_lock);
	g = mod_group(mod);
	if (g) {
		/* Retired first: the purge must not patch text about to be freed. */
		ftrace_update_tot_cnt -= ftrace_retire_range(g, 0, ULONG_MAX);
		ftrace_purge_group(g, 0, ULONG_MAX);
		ftrace_group_unpublish(g);
	}
	ftrace_drop_init_syms(mod);
	mutex_unlock(&ftrace_lock);
	ftrace_probes_unlock();
	mutex_unlock(&trace_types_lock);
	mutex_unlock(&event_mutex);
	if (g)
		ftrace_group_destroy_rcu(g);
}
