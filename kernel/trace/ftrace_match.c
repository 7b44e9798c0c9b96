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
#include <linux/sort.h>
#include <linux/bsearch.h>

#include "trace.h"
#include "ftrace_internal.h"

/**
 * ftrace_glob_parse - parse a function glob in place
 * @g: the result
 * @str: "name", "prefix*", "*suffix", "*sub*", a full glob, or a number:
 *	the position of a function in available_filter_functions, from 1;
 *	a leading '!' must already be stripped
 */
void ftrace_glob_parse(struct ftrace_glob *g, char *str)
{
	int not = 0;

	g->type = filter_parse_regex(str, strlen(str), &g->search, &not);
	g->len = strlen(g->search);
	/*
	 * Positions count from 1: 0 selects nothing.  Users' scripts were
	 * written against simple_strtoul(..., 0): "0x1f" is 31, "010" is 8,
	 * "5abc" is 5.  kstrtoul() would reject what they rely on.
	 */
	g->pos = 0;
	if (g->type == MATCH_INDEX)
		g->pos = simple_strtoul(g->search, NULL, 0);
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

/*
 * What one pass over the records looks up per record: exact names in a
 * hash of strings, and positions (a number written to the file selects
 * the N-th line of available_filter_functions, as trace-cmd does) in an
 * array sorted by position that the pass walks forward.
 */
struct exact_node {
	struct hlist_node	node;
	struct ftrace_pattern	*pat;
	unsigned int		order;
};

struct pos_node {
	unsigned long		pos;
	struct ftrace_pattern	*pat;
	unsigned int		order;
};

struct batch_index {
	unsigned int		bits;
	struct hlist_head	*heads;
	struct exact_node	*exact;
	struct pos_node		*pos;
	unsigned int		npos;
	unsigned int		next_pos;	/* first pos_node not yet passed */
};

static u32 name_hash(const char *name)
{
	return full_name_hash(NULL, name, strlen(name));
}

static int cmp_pos(const void *a, const void *b)
{
	const struct pos_node *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void batch_index_free(struct batch_index *bi)
{
	kvfree(bi->heads);
	kvfree(bi->exact);
	kvfree(bi->pos);
}

static int batch_index_build(struct batch_index *bi, struct list_head *patterns)
{
	unsigned int order = 0, nexact = 0, npos = 0, n = 0;
	struct ftrace_pattern *pat;

	memset(bi, 0, sizeof(*bi));
	list_for_each_entry(pat, patterns, list) {
		nexact += pat->exact;
		npos += pat->func.type == MATCH_INDEX;
	}
	bi->bits = ilog2(roundup_pow_of_two(max(nexact, 1U) * 2));
	bi->heads = kvcalloc(1U << bi->bits, sizeof(*bi->heads), GFP_KERNEL);
	bi->exact = kvcalloc(max(nexact, 1U), sizeof(*bi->exact), GFP_KERNEL);
	bi->pos = kvcalloc(max(npos, 1U), sizeof(*bi->pos), GFP_KERNEL);
	if (!bi->heads || !bi->exact || !bi->pos) {
		batch_index_free(bi);
		return -ENOMEM;
	}
	list_for_each_entry(pat, patterns, list) {
		order++;
		if (pat->func.type == MATCH_INDEX) {
			bi->pos[bi->npos++] = (struct pos_node){
				.pos = pat->func.pos, .pat = pat, .order = order,
			};
		}
		if (!pat->exact)
			continue;
		bi->exact[n].pat = pat;
		bi->exact[n].order = order;
		hlist_add_head(&bi->exact[n].node,
			       &bi->heads[hash_32(name_hash(pat->func.search), bi->bits)]);
		n++;
	}
	sort(bi->pos, bi->npos, sizeof(*bi->pos), cmp_pos, NULL);
	return 0;
}

/* Whether @pat's ":mod:" admits a function of @modname (NULL: the kernel's). */
static bool module_ok(const struct ftrace_pattern *pat, const char *modname)
{
	bool in;

	if (!pat->module)
		return true;
	if (!modname)
		in = false;
	else if (!pat->mod.len)
		in = true;	/* "" or "*": every module */
	else if (pat->mod.type == MATCH_INDEX)
		in = !strcmp(pat->mod.search, modname);	/* a name of digits */
	else
		in = ftrace_glob_match(&pat->mod, modname);
	return in != pat->mod_exclude;
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

/* Remember @pat if it comes later in the write than the best so far. */
static void candidate(struct ftrace_pattern *pat, unsigned int order,
		      struct ftrace_pattern **best, unsigned int *best_order)
{
	pat->hits++;
	if (order > *best_order) {
		*best = pat;
		*best_order = order;
	}
}

/*
 * The patterns are applied in the order they were written; for one
 * record the last pattern that matches it decides.  @pos is the record's
 * line in available_filter_functions, counted from 1, and grows from one
 * call to the next.
 */
static struct ftrace_pattern *last_match(struct list_head *patterns,
					 struct batch_index *bi, unsigned long pos,
					 const char *name, const char *modname)
{
	struct ftrace_pattern *pat, *best = NULL;
	unsigned int order = 0, best_order = 0;
	struct exact_node *en;
	struct pos_node *pn;

	for (; bi->next_pos < bi->npos && bi->pos[bi->next_pos].pos < pos; bi->next_pos++)
		;
	for (pn = bi->pos + bi->next_pos; pn < bi->pos + bi->npos && pn->pos == pos; pn++)
		if (module_ok(pn->pat, modname))
			candidate(pn->pat, pn->order, &best, &best_order);
	if (!name)
		return best;
	hlist_for_each_entry(en, &bi->heads[hash_32(name_hash(name), bi->bits)], node) {
		if (!strcmp(en->pat->func.search, name) && module_ok(en->pat, modname))
			candidate(en->pat, en->order, &best, &best_order);
	}
	list_for_each_entry(pat, patterns, list) {
		order++;
		if (!pat->exact && module_ok(pat, modname) &&
		    ftrace_glob_match(&pat->func, name))
			candidate(pat, order, &best, &best_order);
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
	struct ftrace_pattern *best;
	struct batch_index bi;
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	unsigned long pos = 0;
	char *buf;
	int ret;

	ftrace_assert_locked();

	buf = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = batch_index_build(&bi, patterns);
	if (ret)
		goto out;

	for_each_ftrace_group(g) {
		const char *modname = g->mod ? module_name(g->mod) : NULL;
		bool wanted = group_wanted(g, patterns);

		for_each_group_rec(g, rec) {
			unsigned long ip = ftrace_rec_ip(g, rec);

			/* Positions count the lines of available_filter_functions. */
			if (rec->flags & FTRACE_REC_FREED)
				continue;
			pos++;
			if (!wanted)
				continue;
			best = last_match(patterns, &bi, pos,
					  ftrace_rec_name(g, rec, buf), modname);
			if (!best)
				continue;
			if (best->remove)
				ftrace_hash_remove(hash, ip);
			else if (ftrace_hash_add(hash, ip))
				ret = -ENOMEM;
		}
		cond_resched();
	}
	batch_index_free(&bi);
out:
	kfree(buf);
	return ret;
}

static int cmp_sym(const void *key, const void *elt)
{
	return strcmp(key, *(const char * const *)elt);
}

/**
 * ftrace_lookup_symbols - the addresses of traceable functions, by name
 * @sorted_syms: the names, sorted by strcmp(); each name once
 * @cnt: how many
 * @addrs: @cnt slots, filled with each function's start (its symbol's
 *	address, not the call site's), 0 where none was found
 *
 * For BPF's kprobe_multi links and fprobe: many names resolved at once.
 * One pass over the call-site records with a binary search of the names
 * per record, so only functions ftrace can trace are found, in vmlinux
 * and in loaded modules alike.  Where two functions share a name, the one
 * found first (vmlinux before modules, lower address first) is taken.
 *
 * Context: process context; takes ftrace_lock.
 * Return: 0 if every name was found, -ESRCH if one was not, -ENOMEM.
 */
int ftrace_lookup_symbols(const char **sorted_syms, size_t cnt, unsigned long *addrs)
{
	unsigned long size, offset, found = 0;
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	const char **hit;
	char *modname;
	char *buf;

	memset(addrs, 0, sizeof(*addrs) * cnt);
	if (!cnt)
		return 0;
	buf = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&ftrace_lock);
	for_each_ftrace_group(g) {
		for_each_group_rec(g, rec) {
			unsigned long ip = ftrace_rec_ip(g, rec);

			if (rec->flags & FTRACE_REC_FREED ||
			    !kallsyms_lookup(ip, &size, &offset, &modname, buf))
				continue;
			hit = bsearch(buf, sorted_syms, cnt, sizeof(*sorted_syms), cmp_sym);
			if (!hit || addrs[hit - sorted_syms])
				continue;
			addrs[hit - sorted_syms] = ip - offset;
			if (++found == cnt)
				goto out;
		}
		cond_resched();
	}
out:
	mutex_unlock(&ftrace_lock);
	kfree(buf);
	return found == cnt ? 0 : -ESRCH;
}
