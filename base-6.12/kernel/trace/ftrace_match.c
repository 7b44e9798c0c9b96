// SPDX-License-Identifier: GPL-2.0
/*
 * Matching filter patterns against the names of call sites.  All the
 * patterns of one write are matched in a single pass over the records
 * (exact names through a hash of strings), the kernel's records named by
 * one walk of kallsyms beside them; a write of names and prefixes only is
 * matched through kallsyms' index of names instead.
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
	 * Positions count from 1: 0 selects nothing.  simple_strtoul(), not
	 * kstrtoul(): scripts rely on "0x1f", "010" and "5abc" being taken.
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

/*
 * Exact names in a hash of strings; positions (the N-th line of
 * available_filter_functions) sorted, for the pass to walk forward.
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
 * For one record the last pattern written that matches it decides.  @pos
 * is the record's line in available_filter_functions; it grows from one
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

static int apply(struct ftrace_pattern *pat, struct ftrace_hash *hash, unsigned long ip)
{
	if (pat->remove) {
		ftrace_hash_remove(hash, ip);
		return 0;
	}
	return ftrace_hash_add(hash, ip) ? -ENOMEM : 0;
}

/*
 * Beyond this many symbols started by a write's prefixes, one pass over
 * every symbol costs less than a lookup per symbol found.
 */
#define PREFIX_BY_NAME_MAX	2048

static int count_symbol(void *data, const char *name, unsigned long addr)
{
	unsigned int *n = data;

	return ++*n > PREFIX_BY_NAME_MAX;
}

/* Whether @pat is a prefix that, with @n from earlier prefixes, starts few symbols. */
static bool few_with_prefix(const struct ftrace_pattern *pat, unsigned int *n)
{
	return pat->func.type == MATCH_FRONT_ONLY && pat->func.len &&
	       !kallsyms_on_each_prefix_symbol(count_symbol, pat->func.search, n);
}

/*
 * Whether the kernel's records can be matched by name lookups alone: no
 * position (they count every record) and no pattern admitting them other
 * than exact names and prefixes of few symbols.
 */
static bool kernel_by_name(struct list_head *patterns)
{
	struct ftrace_pattern *pat;
	unsigned int n = 0;

	list_for_each_entry(pat, patterns, list) {
		if (pat->func.type == MATCH_INDEX)
			return false;
		if (!pat->exact && module_ok(pat, NULL) && !few_with_prefix(pat, &n))
			return false;
	}
	return true;
}

struct by_name {
	struct ftrace_pattern	*pat;
	struct ftrace_hash	*hash;
	char			*buf;
};

/*
 * A record takes the name of the last symbol at or below it (the first
 * alias), so the same lookup a pass would make decides, and aliases come
 * out as in a pass.  The symbol's start is checked too: two functions of
 * one name can follow each other with no traceable function between them.
 */
static int by_name_records(struct by_name *bn, unsigned long addr, const char *sym)
{
	unsigned long size, offset;
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	const char *name;
	char *modname;
	int ret;

	for_each_ftrace_group(g) {
		if (g->mod)
			continue;
		rec = ftrace_group_find(g, addr, ULONG_MAX);
		for (; rec && rec < g->recs + g->count; rec++) {
			unsigned long ip = ftrace_rec_ip(g, rec);

			if (ip < addr)
				continue;
			name = kallsyms_lookup(ip, &size, &offset, &modname, bn->buf);
			if (!name || ip - offset != addr || strcmp(name, sym))
				break;
			if (rec->flags & FTRACE_REC_FREED)
				continue;
			bn->pat->hits++;
			ret = apply(bn->pat, bn->hash, ip);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int by_name_symbol(void *data, unsigned long addr)
{
	struct by_name *bn = data;

	return by_name_records(bn, addr, bn->pat->func.search);
}

static int by_prefix_symbol(void *data, const char *name, unsigned long addr)
{
	return by_name_records(data, addr, name);
}

/* In the order written, so that the last pattern naming a record decides. */
static int match_kernel_by_name(struct list_head *patterns, struct ftrace_hash *hash,
				char *buf)
{
	struct by_name bn = { .hash = hash, .buf = buf };
	int ret;

	list_for_each_entry(bn.pat, patterns, list) {
		if (!module_ok(bn.pat, NULL))
			continue;
		if (bn.pat->exact)
			ret = kallsyms_on_each_match_symbol(by_name_symbol,
							    bn.pat->func.search, &bn);
		else
			ret = kallsyms_on_each_prefix_symbol(by_prefix_symbol,
							     bn.pat->func.search, &bn);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A module's records are named one kallsyms lookup each; the kernel's
 * by walking kallsyms once in address order beside them, as
 * kallsyms_lookup() would name each.
 */
struct name_walk {
	/* Non-zero stops the walk and is returned. */
	int			(*fn)(struct name_walk *w, struct dyn_ftrace *rec,
				      const char *name, unsigned long sym);
	/* If set, called for each further name at the symbol's address (vmlinux only). */
	void			(*alias)(struct name_walk *w, const char *name);
	struct ftrace_group	*g;
	unsigned int		next;		/* first record not yet named */
	int			ret;
	unsigned long		sym_addr;
	bool			sym_named;	/* name[] holds the symbol at sym_addr */
	char			name[KSYM_NAME_LEN];
};

static int walk_below(struct name_walk *w, unsigned long end)
{
	struct ftrace_group *g = w->g;
	const char *name = w->sym_named ? w->name : NULL;

	for (; w->next < g->count && ftrace_rec_ip(g, &g->recs[w->next]) < end; w->next++) {
		w->ret = w->fn(w, &g->recs[w->next], name, w->sym_addr);
		if (w->ret)
			return w->ret;
	}
	return w->next == g->count;
}

static int walk_symbol(void *data, const char *name, unsigned long addr)
{
	struct name_walk *w = data;
	char *llvm;

	if (walk_below(w, addr))
		return 1;
	if (w->sym_named && addr == w->sym_addr) {
		if (w->alias)
			w->alias(w, name);
		return 0;
	}
	strscpy(w->name, name, sizeof(w->name));
	/* kallsyms_lookup() drops clang LTO's suffix too. */
	llvm = IS_ENABLED(CONFIG_LTO_CLANG) ? strstr(w->name, ".llvm.") : NULL;
	if (llvm)
		*llvm = '\0';
	w->sym_addr = addr;
	w->sym_named = true;
	return 0;
}

/* Return: the first non-zero fn() return. */
static int walk_group(struct name_walk *w, struct ftrace_group *g)
{
	unsigned long size, offset;
	char *modname;

	w->g = g;
	w->next = 0;
	w->ret = 0;
	w->sym_named = false;
	if (!g->mod) {
		kallsyms_on_each_symbol(walk_symbol, w);
		/* The records after the last symbol keep its name. */
		if (!w->ret)
			walk_below(w, ULONG_MAX);
		return w->ret;
	}
	for (; w->next < g->count; w->next++) {
		struct dyn_ftrace *rec = &g->recs[w->next];
		unsigned long ip = ftrace_rec_ip(g, rec);
		const char *name = NULL;

		/* A freed record's text is gone: no name to look up. */
		offset = 0;
		if (!(rec->flags & FTRACE_REC_FREED))
			name = kallsyms_lookup(ip, &size, &offset, &modname, w->name);
		w->ret = w->fn(w, rec, name, ip - offset);
		if (w->ret)
			break;
	}
	return w->ret;
}

struct pass {
	struct name_walk	walk;
	struct list_head	*patterns;
	struct batch_index	bi;
	struct ftrace_hash	*hash;
	unsigned long		pos;		/* live records so far */
	const char		*modname;
	int			ret;
};

static int pass_rec(struct name_walk *w, struct dyn_ftrace *rec, const char *name,
		    unsigned long sym)
{
	struct pass *p = container_of(w, struct pass, walk);
	struct ftrace_pattern *best;

	/* Positions count the lines of available_filter_functions. */
	if (rec->flags & FTRACE_REC_FREED)
		return 0;
	p->pos++;
	best = last_match(p->patterns, &p->bi, p->pos, name, p->modname);
	if (best && apply(best, p->hash, ftrace_rec_ip(w->g, rec)))
		p->ret = -ENOMEM;
	return 0;
}

/**
 * ftrace_match_patterns - apply the patterns of a write to a hash
 * @patterns: list of struct ftrace_pattern, in the order written
 * @hash: a private hash to edit
 *
 * Every pattern's ->hits counts the call sites it matched.
 *
 * Context: ftrace_lock held.
 * Return: 0, or -ENOMEM (then @hash is partly edited).
 */
int ftrace_match_patterns(struct list_head *patterns, struct ftrace_hash *hash)
{
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	struct pass *p;
	bool by_name;
	int ret;

	ftrace_assert_locked();

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->walk.fn = pass_rec;
	p->patterns = patterns;
	p->hash = hash;
	ret = batch_index_build(&p->bi, patterns);
	if (ret)
		goto out;
	by_name = kernel_by_name(patterns);
	if (by_name) {
		ret = match_kernel_by_name(patterns, hash, p->walk.name);
		if (ret)
			goto free;
	}

	for_each_ftrace_group(g) {
		if ((by_name && !g->mod) || !group_wanted(g, patterns)) {
			/* Positions count the records of the groups passed over. */
			if (p->bi.npos)
				for_each_group_rec(g, rec)
					p->pos += !(rec->flags & FTRACE_REC_FREED);
			continue;
		}
		p->modname = g->mod ? module_name(g->mod) : NULL;
		walk_group(&p->walk, g);
		cond_resched();
	}
	ret = p->ret;
free:
	batch_index_free(&p->bi);
out:
	kfree(p);
	return ret;
}

static int cmp_sym(const void *key, const void *elt)
{
	return strcmp(key, *(const char * const *)elt);
}

/* Wanted aliases of one address a lookup keeps. */
#define LOOKUP_ALIASES	8

struct lookup {
	struct name_walk	walk;
	const char		**syms;
	size_t			cnt;
	unsigned long		*addrs;
	size_t			found;
	/* Wanted aliases of the symbol at alias_addr, until its records come. */
	unsigned long		alias_addr;
	unsigned int		nalias;
	size_t			alias[LOOKUP_ALIASES];
};

static const char **lookup_wanted(struct lookup *l, const char *name)
{
	return bsearch(name, l->syms, l->cnt, sizeof(*l->syms), cmp_sym);
}

static bool lookup_found(struct lookup *l, size_t idx, unsigned long sym)
{
	if (l->addrs[idx])
		return false;
	l->addrs[idx] = sym;
	return ++l->found == l->cnt;
}

static int lookup_rec(struct name_walk *w, struct dyn_ftrace *rec, const char *name,
		      unsigned long sym)
{
	struct lookup *l = container_of(w, struct lookup, walk);
	const char **hit;
	bool all = false;

	if (rec->flags & FTRACE_REC_FREED || !name)
		return 0;
	/* The function has a call site: its wanted aliases are found too. */
	if (l->nalias && sym == l->alias_addr) {
		while (l->nalias)
			all |= lookup_found(l, l->alias[--l->nalias], sym);
	}
	hit = lookup_wanted(l, name);
	if (hit)
		all |= lookup_found(l, hit - l->syms, sym);
	return all;
}

/*
 * A traceable function may be wanted by any of its names, but the walk
 * names records after the first alias: a wanted alias waits for the
 * records of its address.
 */
static void lookup_alias(struct name_walk *w, const char *name)
{
	struct lookup *l = container_of(w, struct lookup, walk);
	const char **hit = lookup_wanted(l, name);

	if (!hit)
		return;
	if (l->alias_addr != w->sym_addr) {
		l->alias_addr = w->sym_addr;
		l->nalias = 0;
	}
	if (l->nalias < LOOKUP_ALIASES)
		l->alias[l->nalias++] = hit - l->syms;
}

/**
 * ftrace_lookup_symbols - the addresses of traceable functions, by name
 * @sorted_syms: the names, sorted by strcmp(); each name once
 * @cnt: how many
 * @addrs: @cnt slots, filled with each function's start (its symbol's
 *	address, not the call site's), 0 where none was found
 *
 * For BPF's kprobe_multi links and fprobe: one pass over the records, so
 * only functions ftrace can trace are found.  A vmlinux function is found
 * by any of its names, a module's by the name kallsyms gives it; of two
 * functions sharing a name, the first found (vmlinux first, lower address
 * first) is taken.
 *
 * Context: process context; takes ftrace_lock.
 * Return: 0 if every name was found, -ESRCH if one was not, -ENOMEM.
 */
int ftrace_lookup_symbols(const char **sorted_syms, size_t cnt, unsigned long *addrs)
{
	struct ftrace_group *g;
	struct lookup *l;
	int ret;

	memset(addrs, 0, sizeof(*addrs) * cnt);
	if (!cnt)
		return 0;
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->walk.fn = lookup_rec;
	l->walk.alias = lookup_alias;
	l->syms = sorted_syms;
	l->cnt = cnt;
	l->addrs = addrs;
	mutex_lock(&ftrace_lock);
	for_each_ftrace_group(g) {
		if (walk_group(&l->walk, g))
			break;
		cond_resched();
	}
	mutex_unlock(&ftrace_lock);
	ret = l->found == cnt ? 0 : -ESRCH;
	kfree(l);
	return ret;
}
