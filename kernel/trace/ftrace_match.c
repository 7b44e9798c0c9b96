// SPDX-License-Identifier: GPL-2.0
/*
 * Matching filter patterns against the names of call sites.
 *
 * One write to set_ftrace_filter may carry thousands of names.  Matching
 * each name against every record would cost names x records symbol
 * lookups; instead all the patterns of a write are matched in a single
 * pass over the records, exact names through a hash of strings, so the
 * cost is one symbol lookup per record plus the globs.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/stringhash.h>
#include <linux/glob.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

/**
 * ftrace_glob_parse - parse a function glob in place
 * @g: the result
 * @str: "name", "prefix*", "*suffix", "*sub*" or a full glob; a leading
 *	'!' must already be stripped
 */
void ftrace_glob_parse(struct ftrace_glob *g, char *str)
{
	int not = 0;

	g->type = filter_parse_regex(str, strlen(str), &g->search, &not);
	g->len = strlen(g->search);
}

/**
 * ftrace_glob_match - whether a function name matches a parsed glob
 * @g: the glob
 * @name: the function's name
 *
 * Return: true on a match.
 */
bool ftrace_glob_match(const struct ftrace_glob *g, const char *name)
{
	int len;

	switch (g->type) {
	case MATCH_FULL:
		return !strcmp(name, g->search);
	case MATCH_FRONT_ONLY:
		return !strncmp(name, g->search, g->len);
	case MATCH_MIDDLE_ONLY:
		return strstr(name, g->search) != NULL;
	case MATCH_END_ONLY:
		len = strlen(name);
		return len >= g->len && !memcmp(name + len - g->len, g->search, g->len);
	case MATCH_GLOB:
		return glob_match(g->search, name);
	}
	return false;
}

/**
 * ftrace_rec_name - the name of the function holding a call site
 * @g: the record's group
 * @rec: the record
 * @buf: KSYM_NAME_LEN bytes
 *
 * Return: @buf holding the name, or NULL if the site has no symbol.
 */
const char *ftrace_rec_name(const struct ftrace_group *g,
			    const struct dyn_ftrace *rec, char *buf)
{
	unsigned long size, offset;
	char *modname;

	return kallsyms_lookup(ftrace_rec_ip(g, rec), &size, &offset, &modname, buf);
}

/* Exact names of a write, looked up by hash. */
struct name_index {
	unsigned int		bits;
	struct hlist_head	*heads;
};

struct exact_node {
	struct hlist_node	node;
	struct ftrace_pattern	*pat;
	unsigned int		order;
};

static u32 name_hash(const char *name)
{
	return full_name_hash(NULL, name, strlen(name));
}

static int index_build(struct name_index *idx, struct exact_node *nodes,
		       struct list_head *patterns, unsigned int nexact)
{
	struct ftrace_pattern *pat;
	unsigned int order = 0, n = 0;

	idx->bits = ilog2(roundup_pow_of_two(max(nexact, 1U) * 2));
	idx->heads = kvcalloc(1U << idx->bits, sizeof(*idx->heads), GFP_KERNEL);
	if (!idx->heads)
		return -ENOMEM;
	list_for_each_entry(pat, patterns, list) {
		order++;
		if (!pat->exact)
			continue;
		nodes[n].pat = pat;
		nodes[n].order = order;
		hlist_add_head(&nodes[n].node,
			       &idx->heads[hash_32(name_hash(pat->func.search), idx->bits)]);
		n++;
	}
	return 0;
}

static bool module_ok(const struct ftrace_pattern *pat, const char *modname)
{
	if (!pat->module)
		return true;
	return modname && !strcmp(pat->module, modname);
}

/* Any pattern that can match a record of this group? */
static bool group_wanted(struct ftrace_group *g, struct list_head *patterns)
{
	const char *modname = g->mod ? module_name(g->mod) : NULL;
	struct ftrace_pattern *pat;

	list_for_each_entry(pat, patterns, list)
		if (module_ok(pat, modname))
			return true;
	return false;
}

/*
 * The patterns are applied in the order they were written; for one
 * record the last pattern that matches it decides.
 */
static struct ftrace_pattern *last_match(struct list_head *patterns,
					 struct name_index *idx,
					 const char *name, const char *modname)
{
	struct ftrace_pattern *pat, *best = NULL;
	unsigned int order = 0, best_order = 0;
	struct exact_node *en;

	hlist_for_each_entry(en, &idx->heads[hash_32(name_hash(name), idx->bits)], node) {
		if (strcmp(en->pat->func.search, name) || !module_ok(en->pat, modname))
			continue;
		en->pat->hits++;
		if (en->order > best_order) {
			best = en->pat;
			best_order = en->order;
		}
	}
	list_for_each_entry(pat, patterns, list) {
		order++;
		if (pat->exact || !module_ok(pat, modname) ||
		    !ftrace_glob_match(&pat->func, name))
			continue;
		pat->hits++;
		if (order > best_order) {
			best = pat;
			best_order = order;
		}
	}
	return best;
}

/**
 * ftrace_match_patterns - apply the patterns of a write to a hash
 * @patterns: list of struct ftrace_pattern, in the order written
 * @hash: a private hash to edit
 *
 * Every pattern's ->hits counts the call sites it matched.
 *
 * Context: ftrace_lock held (the records do not change under us).
 * Return: 0, or -ENOMEM (then @hash is partly edited).
 */
int ftrace_match_patterns(struct list_head *patterns, struct ftrace_hash *hash)
{
	struct ftrace_pattern *pat, *best;
	unsigned int nexact = 0;
	struct exact_node *nodes;
	struct name_index idx;
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	char *buf;
	int ret = -ENOMEM;

	ftrace_assert_locked();

	list_for_each_entry(pat, patterns, list)
		nexact += pat->exact;

	buf = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	nodes = kvcalloc(max(nexact, 1U), sizeof(*nodes), GFP_KERNEL);
	if (!buf || !nodes || index_build(&idx, nodes, patterns, nexact))
		goto out;

	ret = 0;
	for_each_ftrace_group(g) {
		const char *modname = g->mod ? module_name(g->mod) : NULL;

		if (!group_wanted(g, patterns))
			continue;
		for_each_group_rec(g, rec) {
			unsigned long ip = ftrace_rec_ip(g, rec);

			if (rec->flags & FTRACE_REC_FREED)
				continue;
			if (!ftrace_rec_name(g, rec, buf))
				continue;
			best = last_match(patterns, &idx, buf, modname);
			if (!best)
				continue;
			if (best->remove)
				ftrace_hash_remove(hash, ip);
			else if (ftrace_hash_add(hash, ip))
				ret = -ENOMEM;
		}
		cond_resched();
	}
	kvfree(idx.heads);
out:
	kvfree(nodes);
	kfree(buf);
	return ret;
}
