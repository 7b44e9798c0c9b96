// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the dynamic ftrace core's pure logic: glob parsing and
 * matching, hash sets, record lookup, and the record state that decides
 * what a call site is patched to.
 *
 * Nothing here patches text or registers an ops: records are synthetic
 * groups that are never published, and ops lists are private to a test.
 * The matching tests read vmlinux's live records under ftrace_lock.
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "trace.h"
#include "ftrace_internal.h"

/* ---- Globs ---- */

static void glob_parse_kinds(struct kunit *test)
{
	static const struct {
		const char *in;
		int type;
		const char *search;
	} cases[] = {
		{ "schedule",	MATCH_FULL,		"schedule" },
		{ "sched*",	MATCH_FRONT_ONLY,	"sched" },
		{ "*_lock",	MATCH_END_ONLY,		"_lock" },
		{ "*rcu*",	MATCH_MIDDLE_ONLY,	"rcu" },
		{ "sched*lock",	MATCH_GLOB,		"sched*lock" },
		{ "?chedule",	MATCH_GLOB,		"?chedule" },
		{ "[sv]fs_*",	MATCH_GLOB,		"[sv]fs_*" },
		{ "*",		MATCH_END_ONLY,		"" },
		{ "42",		MATCH_INDEX,		"42" },
	};
	struct ftrace_glob g;
	char buf[32];
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strscpy(buf, cases[i].in, sizeof(buf));
		ftrace_glob_parse(&g, buf);
		KUNIT_EXPECT_EQ_MSG(test, g.type, cases[i].type, "glob %s", cases[i].in);
		KUNIT_EXPECT_STREQ_MSG(test, g.search, cases[i].search, "glob %s", cases[i].in);
		KUNIT_EXPECT_EQ_MSG(test, g.len, (int)strlen(cases[i].search),
				    "glob %s", cases[i].in);
	}
}

static void glob_positions(struct kunit *test)
{
	static const struct {
		const char *in;
		unsigned long pos;
	} cases[] = {
		/* simple_strtoul(..., 0): what scripts write as positions */
		{ "1", 1 }, { "42", 42 }, { "0", 0 }, { "12x", 12 }, { "007", 7 },
		{ "010", 8 }, { "0x1f", 31 },
	};
	struct ftrace_glob g;
	char buf[16];
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strscpy(buf, cases[i].in, sizeof(buf));
		ftrace_glob_parse(&g, buf);
		KUNIT_EXPECT_EQ_MSG(test, g.type, MATCH_INDEX, "%s", cases[i].in);
		KUNIT_EXPECT_EQ_MSG(test, g.pos, cases[i].pos, "%s", cases[i].in);
		/* A position never matches by name. */
		KUNIT_EXPECT_FALSE(test, ftrace_glob_match(&g, cases[i].in));
	}
}

static void glob_match_names(struct kunit *test)
{
	static const struct {
		const char *glob;
		const char *name;
		bool match;
	} cases[] = {
		{ "schedule",	"schedule",		true },
		{ "schedule",	"schedule_idle",	false },
		{ "schedule",	"__schedule",		false },
		{ "sched*",	"schedule_idle",	true },
		{ "sched*",	"sched",		true },
		{ "sched*",	"__schedule",		false },
		{ "*_lock",	"_raw_spin_lock",	true },
		{ "*_lock",	"_lock",		true },
		{ "*_lock",	"lock",			false },
		{ "*_lock",	"_raw_spin_lock_irq",	false },
		{ "*rcu*",	"rcu_note_context_switch", true },
		{ "*rcu*",	"call_rcu",		true },
		{ "*rcu*",	"schedule",		false },
		{ "sched*lock",	"sched_clock",		true },
		{ "sched*lock",	"schedule",		false },
		{ "sched*lock",	"schedule_lock",	true },
		{ "sched*lock",	"sched_lock_x",		false },
		{ "?chedule",	"schedule",		true },
		{ "?chedule",	"chedule",		false },
		{ "[sv]fs_*",	"vfs_read",		true },
		{ "[sv]fs_*",	"xfs_read",		false },
		{ "*",		"anything",		true },
	};
	struct ftrace_glob g;
	char buf[32];
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strscpy(buf, cases[i].glob, sizeof(buf));
		ftrace_glob_parse(&g, buf);
		KUNIT_EXPECT_EQ_MSG(test, ftrace_glob_match(&g, cases[i].name), cases[i].match,
				    "%s against %s", cases[i].glob, cases[i].name);
	}
}

/* ---- Matching a write's patterns against vmlinux's records ---- */

/* A hash from the patterns of one write, as the filter files build it. */
static struct ftrace_hash *match_write(struct kunit *test, const char * const *tokens,
				       int n, unsigned long *hits)
{
	struct ftrace_pattern *pat;
	struct ftrace_hash *hash;
	LIST_HEAD(batch);
	int i = 0;

	hash = ftrace_hash_alloc(4);
	KUNIT_ASSERT_NOT_NULL(test, hash);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, ftrace_pattern_add(&batch, tokens[i], NULL), 0);
	mutex_lock(&ftrace_lock);
	KUNIT_EXPECT_EQ(test, ftrace_match_patterns(&batch, hash), 0);
	mutex_unlock(&ftrace_lock);
	i = 0;
	list_for_each_entry(pat, &batch, list)
		hits[i++] = pat->hits;
	ftrace_patterns_free(&batch);
	return hash;
}

static void match_last_pattern_wins(struct kunit *test)
{
	static const char * const write[] = { "vfs_read", "vfs_write", "!vfs_read" };
	unsigned long r = ftrace_location((unsigned long)vfs_read);
	unsigned long w = ftrace_location((unsigned long)vfs_write);
	struct ftrace_hash *hash;
	unsigned long hits[3];

	if (!r || !w)
		kunit_skip(test, "vfs_read or vfs_write has no call site in this build");
	hash = match_write(test, write, ARRAY_SIZE(write), hits);
	KUNIT_EXPECT_EQ(test, hash->count, 1UL);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(hash, w));
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(hash, r));
	KUNIT_EXPECT_EQ(test, hits[0], 1UL);
	KUNIT_EXPECT_EQ(test, hits[1], 1UL);
	KUNIT_EXPECT_EQ(test, hits[2], 1UL);
	ftrace_hash_free(hash);
}

static void match_glob_and_nothing(struct kunit *test)
{
	static const char * const write[] = { "vfs_rea*", "no_such_function_xyz" };
	unsigned long r = ftrace_location((unsigned long)vfs_read);
	struct ftrace_hash *hash;
	unsigned long hits[2];

	if (!r)
		kunit_skip(test, "vfs_read has no call site in this build");
	hash = match_write(test, write, ARRAY_SIZE(write), hits);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(hash, r));
	KUNIT_EXPECT_GE(test, hits[0], 1UL);
	KUNIT_EXPECT_EQ(test, hash->count, hits[0]);
	/* The filter files turn a pattern without hits into -EINVAL. */
	KUNIT_EXPECT_EQ(test, hits[1], 0UL);
	ftrace_hash_free(hash);
}

/*
 * ftrace_set_filter() and ftrace_set_notrace() on an unregistered ops: a
 * buffer with no pattern in it matches nothing, so it is refused as a
 * pattern without a match is, and even with reset it leaves the set as
 * it was (an empty filter would mean every function).
 */
static void set_filter_needs_a_pattern(struct kunit *test)
{
	static const char * const empty[] = { "", " ", " \t\n " };
	unsigned long r = ftrace_location((unsigned long)vfs_read);
	struct ftrace_ops ops = {};
	struct ftrace_hash *h;
	char name[] = " vfs_read\n";
	unsigned int i;

	if (!r)
		kunit_skip(test, "vfs_read has no call site in this build");
	for (i = 0; i < ARRAY_SIZE(empty); i++) {
		KUNIT_EXPECT_EQ(test, ftrace_set_filter(&ops, (unsigned char *)empty[i],
							strlen(empty[i]), 1), -EINVAL);
		KUNIT_EXPECT_EQ(test, ftrace_set_notrace(&ops, (unsigned char *)empty[i],
							 strlen(empty[i]), 0), -EINVAL);
	}
	KUNIT_ASSERT_EQ(test, ftrace_set_filter(&ops, (unsigned char *)name, strlen(name), 0), 0);
	for (i = 0; i < ARRAY_SIZE(empty); i++)
		KUNIT_EXPECT_EQ(test, ftrace_set_filter(&ops, (unsigned char *)empty[i],
							strlen(empty[i]), 1), -EINVAL);
	mutex_lock(&ftrace_lock);
	h = rcu_dereference_protected(ops.func_hash->filter_hash, 1);
	KUNIT_EXPECT_EQ(test, h ? h->count : 0, 1UL);
	KUNIT_EXPECT_NOT_NULL(test, h ? ftrace_lookup_ip(h, r) : NULL);
	h = rcu_dereference_protected(ops.func_hash->notrace_hash, 1);
	KUNIT_EXPECT_TRUE(test, ftrace_hash_empty(h));
	mutex_unlock(&ftrace_lock);
	/* A NULL buffer is a reset alone. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter(&ops, NULL, 0, 1), 0);
	mutex_lock(&ftrace_lock);
	h = rcu_dereference_protected(ops.func_hash->filter_hash, 1);
	KUNIT_EXPECT_TRUE(test, ftrace_hash_empty(h));
	mutex_unlock(&ftrace_lock);
	ftrace_free_filter(&ops);
}

/* @buf (KSYM_NAME_LEN bytes) holding the name of @rec's function, or NULL. */
static const char *rec_name(const struct ftrace_group *g,
			    const struct dyn_ftrace *rec, char *buf)
{
	unsigned long size, offset;
	char *modname;

	return kallsyms_lookup(ftrace_rec_ip(g, rec), &size, &offset, &modname, buf);
}

/*
 * @pattern alone (matched by name, if it is a name or a prefix of few
 * symbols) and with a glob that matches nothing (a pass over every
 * record): the same hits, the same hash, with @ip in it.
 */
static void by_name_as_pass(struct kunit *test, const char *pattern, unsigned long ip)
{
	const char * const write[2] = { pattern, "*zz_no_such_function_zz" };
	struct ftrace_func_entry *entry;
	unsigned long ha[2], hb[2];
	struct ftrace_hash *a, *b;
	int i;

	a = match_write(test, write, 1, ha);
	b = match_write(test, write, 2, hb);
	KUNIT_EXPECT_EQ_MSG(test, ha[0], hb[0], "hits of %s", pattern);
	KUNIT_EXPECT_EQ_MSG(test, a->count, b->count, "sites of %s", pattern);
	KUNIT_EXPECT_NOT_NULL_MSG(test, ftrace_lookup_ip(a, ip), "%s by name", pattern);
	ftrace_hash_for_each(a, i, entry)
		KUNIT_EXPECT_NOT_NULL_MSG(test, ftrace_lookup_ip(b, entry->ip), "%s: %ps",
					  pattern, (void *)entry->ip);
	ftrace_hash_free(a);
	ftrace_hash_free(b);
}

static int count_prefixed(void *data, const char *name, unsigned long addr)
{
	unsigned int *n = data;

	(*n)++;
	return 0;
}

/*
 * A write of names and prefixes only is matched against the kernel's
 * records by name lookups (ftrace_match.c); a glob in the write makes it
 * a pass over every record.  Both must agree (by_name_as_pass()): for a
 * sample of the kernel's functions, each name, then its first six
 * characters as a prefix.  Some of the prefixes must start few enough
 * symbols to go by name (PREFIX_BY_NAME_MAX in ftrace_match.c).
 */
static void match_by_name_as_pass(struct kunit *test)
{
	enum { SAMPLES = 64 };
	unsigned long n = 0, *ips;
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	unsigned int k = 0, j, few = 0;
	char (*names)[KSYM_NAME_LEN];
	char prefix[8];

	names = kunit_kcalloc(test, SAMPLES, KSYM_NAME_LEN, GFP_KERNEL);
	ips = kunit_kcalloc(test, SAMPLES, sizeof(*ips), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, names);
	KUNIT_ASSERT_NOT_NULL(test, ips);
	mutex_lock(&ftrace_lock);
	for_each_ftrace_group(g) {
		if (g->mod)
			continue;
		for_each_group_rec(g, rec) {
			if (k == SAMPLES || rec->flags & FTRACE_REC_FREED || n++ % 751)
				continue;
			if (rec_name(g, rec, names[k]))
				ips[k++] = ftrace_rec_ip(g, rec);
		}
	}
	mutex_unlock(&ftrace_lock);
	KUNIT_EXPECT_GT(test, k, 10U);

	for (j = 0; j < k; j++) {
		unsigned int syms = 0;

		by_name_as_pass(test, names[j], ips[j]);
		snprintf(prefix, sizeof(prefix), "%.6s*", names[j]);
		by_name_as_pass(test, prefix, ips[j]);
		prefix[strlen(prefix) - 1] = '\0';
		kallsyms_on_each_prefix_symbol(count_prefixed, prefix, &syms);
		few += syms <= 2048;
	}
	KUNIT_EXPECT_GT(test, few, 0U);
}

struct prefixed {
	unsigned long	addr;		/* vfs_read's, once visited */
	unsigned int	wrong;		/* names visited without the prefix */
};

static int find_prefixed(void *data, const char *name, unsigned long addr)
{
	struct prefixed *p = data;

	p->wrong += strncmp(name, "vfs_rea", 7) != 0;
	if (!strcmp(name, "vfs_read"))
		p->addr = addr;
	return 0;
}

/* kallsyms_on_each_prefix_symbol(): what the prefixes use. */
static void match_prefix_symbols(struct kunit *test)
{
	struct prefixed p = { };

	KUNIT_EXPECT_EQ(test, kallsyms_on_each_prefix_symbol(find_prefixed, "vfs_rea", &p), 0);
	KUNIT_EXPECT_EQ(test, p.addr, (unsigned long)vfs_read);
	KUNIT_EXPECT_EQ(test, p.wrong, 0U);
	KUNIT_EXPECT_EQ(test, kallsyms_on_each_prefix_symbol(find_prefixed, "", &p), -EINVAL);
}

/* ftrace_lookup_symbols(): BPF's kprobe_multi and fprobe resolve names so. */
static void match_lookup_symbols(struct kunit *test)
{
	const char *both[] = { "vfs_read", "vfs_write" };
	const char *one[] = { "vfs_read", "zz_no_such_function_zz" };
	unsigned long addrs[2];

	if (!ftrace_location((unsigned long)vfs_read) ||
	    !ftrace_location((unsigned long)vfs_write))
		kunit_skip(test, "vfs_read or vfs_write has no call site in this build");
	KUNIT_EXPECT_EQ(test, ftrace_lookup_symbols(both, 2, addrs), 0);
	KUNIT_EXPECT_EQ(test, addrs[0], (unsigned long)vfs_read);
	KUNIT_EXPECT_EQ(test, addrs[1], (unsigned long)vfs_write);
	KUNIT_EXPECT_EQ(test, ftrace_lookup_symbols(one, 2, addrs), -ESRCH);
	KUNIT_EXPECT_EQ(test, addrs[0], (unsigned long)vfs_read);
	KUNIT_EXPECT_EQ(test, addrs[1], 0UL);
}

struct alias_pair {
	unsigned long	addr;
	char		first[KSYM_NAME_LEN];
	char		second[KSYM_NAME_LEN];
	bool		found;
};

/* kallsyms_on_each_symbol(): two names in a row at a traceable address. */
static int find_alias(void *data, const char *name, struct module *mod,
		      unsigned long addr)
{
	struct alias_pair *p = data;

	if (addr == p->addr && ftrace_location(addr) && strcmp(name, p->first)) {
		strscpy(p->second, name, sizeof(p->second));
		p->found = true;
		return 1;
	}
	p->addr = addr;
	strscpy(p->first, name, sizeof(p->first));
	return 0;
}

/* Any name kallsyms has for a traceable function finds it. */
static void match_lookup_aliases(struct kunit *test)
{
	struct alias_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	const char *names[2];
	unsigned long addrs[2];

	KUNIT_ASSERT_NOT_NULL(test, p);
	kallsyms_on_each_symbol(find_alias, p);
	if (!p->found)
		kunit_skip(test, "no traceable function with two names in this build");
	kunit_info(test, "%s and %s, at %pS", p->first, p->second, (void *)p->addr);
	names[0] = p->second;
	KUNIT_EXPECT_EQ(test, ftrace_lookup_symbols(names, 1, addrs), 0);
	KUNIT_EXPECT_EQ(test, addrs[0], p->addr);
	names[0] = p->first;
	KUNIT_EXPECT_EQ(test, ftrace_lookup_symbols(names, 1, addrs), 0);
	KUNIT_EXPECT_EQ(test, addrs[0], p->addr);
	/* Both at once, sorted */
	names[0] = strcmp(p->first, p->second) < 0 ? p->first : p->second;
	names[1] = names[0] == p->first ? p->second : p->first;
	KUNIT_EXPECT_EQ(test, ftrace_lookup_symbols(names, 2, addrs), 0);
	KUNIT_EXPECT_EQ(test, addrs[0], p->addr);
	KUNIT_EXPECT_EQ(test, addrs[1], p->addr);
}

/* The line of available_filter_functions that shows @ip, from 1. */
static unsigned long listed_position(unsigned long ip)
{
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	unsigned long pos = 0;

	for_each_ftrace_group(g) {
		for_each_group_rec(g, rec) {
			if (rec->flags & FTRACE_REC_FREED)
				continue;
			pos++;
			if (ftrace_rec_ip(g, rec) == ip)
				return pos;
		}
	}
	return 0;
}

static void match_positions(struct kunit *test)
{
	unsigned long r = ftrace_location((unsigned long)vfs_read);
	unsigned long w = ftrace_location((unsigned long)vfs_write);
	char tok_r[24], tok_w[24], tok_not_r[24];
	const char *write[] = { tok_r, tok_w, tok_not_r };
	struct ftrace_hash *hash;
	unsigned long hits[3];

	if (!r || !w)
		kunit_skip(test, "vfs_read or vfs_write has no call site in this build");
	mutex_lock(&ftrace_lock);
	snprintf(tok_r, sizeof(tok_r), "%lu", listed_position(r));
	snprintf(tok_w, sizeof(tok_w), "%lu", listed_position(w));
	mutex_unlock(&ftrace_lock);
	snprintf(tok_not_r, sizeof(tok_not_r), "!%s", tok_r);

	/* "R W": both; then "R W !R": W only, the last pattern wins. */
	hash = match_write(test, write, 2, hits);
	KUNIT_EXPECT_EQ(test, hash->count, 2UL);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(hash, r));
	KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(hash, w));
	ftrace_hash_free(hash);

	hash = match_write(test, write, 3, hits);
	KUNIT_EXPECT_EQ(test, hash->count, 1UL);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(hash, w));
	KUNIT_EXPECT_EQ(test, hits[2], 1UL);
	ftrace_hash_free(hash);
}

/* ---- Hash sets ---- */

static void hash_add_lookup_remove(struct kunit *test)
{
	struct ftrace_hash *h = ftrace_hash_alloc(2);

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_TRUE(test, ftrace_hash_empty(h));
	KUNIT_EXPECT_EQ(test, ftrace_hash_add(h, 0x1000), 0);
	KUNIT_EXPECT_EQ(test, ftrace_hash_add(h, 0x2000), 0);
	KUNIT_EXPECT_EQ(test, ftrace_hash_add(h, 0x1000), 0);
	KUNIT_EXPECT_EQ(test, h->count, 2UL);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(h, 0x1000));
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(h, 0x1001));
	KUNIT_EXPECT_TRUE(test, ftrace_hash_remove(h, 0x1000));
	KUNIT_EXPECT_FALSE(test, ftrace_hash_remove(h, 0x1000));
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(h, 0x1000));
	KUNIT_EXPECT_EQ(test, h->count, 1UL);
	ftrace_hash_free(h);
	/* NULL is the empty set for lookups. */
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(NULL, 0x1000));
	KUNIT_EXPECT_TRUE(test, ftrace_hash_empty(NULL));
}

static void hash_grows(struct kunit *test)
{
	struct ftrace_hash *h = ftrace_hash_alloc(1);
	unsigned long i, found = 0;

	KUNIT_ASSERT_NOT_NULL(test, h);
	for (i = 1; i <= 5000; i++)
		KUNIT_ASSERT_EQ(test, ftrace_hash_add(h, i * 16), 0);
	KUNIT_EXPECT_EQ(test, h->count, 5000UL);
	KUNIT_EXPECT_GT(test, h->size_bits, 1UL);
	for (i = 1; i <= 5000; i++)
		found += !!ftrace_lookup_ip(h, i * 16);
	KUNIT_EXPECT_EQ(test, found, 5000UL);
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(h, 8));
	ftrace_hash_clear(h);
	KUNIT_EXPECT_EQ(test, h->count, 0UL);
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(h, 16));
	ftrace_hash_free(h);
}

static void hash_copy_is_independent(struct kunit *test)
{
	struct ftrace_hash *h = ftrace_hash_alloc(3), *c;

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(h, 0x10), 0);
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(h, 0x20), 0);
	c = ftrace_hash_copy(h);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, c->count, 2UL);
	KUNIT_EXPECT_TRUE(test, ftrace_hash_remove(c, 0x10));
	KUNIT_EXPECT_EQ(test, ftrace_hash_add(c, 0x30), 0);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(h, 0x10));
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(h, 0x30));
	KUNIT_EXPECT_EQ(test, h->count, 2UL);
	ftrace_hash_free(c);
	ftrace_hash_free(h);

	/* A copy of nothing is an empty hash one can add to. */
	c = ftrace_hash_copy(NULL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, c->count, 0UL);
	KUNIT_EXPECT_EQ(test, ftrace_hash_add(c, 0x40), 0);
	ftrace_hash_free(c);
}

static void hash_bits_for(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ftrace_hash_bits_for(0), 1U);
	KUNIT_EXPECT_EQ(test, ftrace_hash_bits_for(3), 1U);
	KUNIT_EXPECT_EQ(test, ftrace_hash_bits_for(1000), 9U);
	KUNIT_EXPECT_EQ(test, ftrace_hash_bits_for(1UL << 30), (unsigned int)FTRACE_HASH_MAX_BITS);
}

/* ---- Records and their lookup ---- */

static void rec_sort_ips(struct kunit *test)
{
	unsigned long ips[] = { 0x3000, 0x1000, 0, 0x2000, 0x1000, 0x3000, 0 };
	static const unsigned long want[] = { 0x1000, 0x2000, 0x3000 };
	int i, n = ftrace_sort_ips(ips, ARRAY_SIZE(ips));

	KUNIT_ASSERT_EQ(test, n, 3);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, ips[i], want[i]);
}

/* The one pass over a sorted table, and its fall-back midway. */
static void rec_sort_ips_sorted(struct kunit *test)
{
	unsigned long sorted[] = { 0, 0, 0x1000, 0x1000, 0x2000, 0x3000, 0x3000 };
	unsigned long late[] = { 0, 0x1000, 0x1000, 0x2000, 0x2000, 0x1800, 0x3000 };
	static const unsigned long want_sorted[] = { 0x1000, 0x2000, 0x3000 };
	static const unsigned long want_late[] = { 0x1000, 0x1800, 0x2000, 0x3000 };
	int i, n;

	n = ftrace_sort_ips(sorted, ARRAY_SIZE(sorted));
	KUNIT_ASSERT_EQ(test, n, 3);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, sorted[i], want_sorted[i]);

	n = ftrace_sort_ips(late, ARRAY_SIZE(late));
	KUNIT_ASSERT_EQ(test, n, 4);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, late[i], want_late[i]);
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * The radix sort against sort() and a compaction: spans of a page, of
 * kernel text, and of the whole address space (every digit).
 */
static void rec_sort_ips_random(struct kunit *test)
{
	static const unsigned long spans[] = { 1UL << 12, 1UL << 26, ~0UL };
	const unsigned long n = 5000;
	unsigned long *ips = kunit_kmalloc_array(test, n, sizeof(*ips), GFP_KERNEL);
	unsigned long *want = kunit_kmalloc_array(test, n, sizeof(*want), GFP_KERNEL);
	unsigned long i, k, w, got;

	KUNIT_ASSERT_NOT_NULL(test, ips);
	KUNIT_ASSERT_NOT_NULL(test, want);
	for (k = 0; k < ARRAY_SIZE(spans); k++) {
		for (i = 0; i < n; i++) {
			ips[i] = 0xffff800008000000UL + (get_random_long() & spans[k]);
			if (i % 97 == 0)
				ips[i] = 0;
			else if (i % 13 == 0)
				ips[i] = ips[i / 2];
		}
		memcpy(want, ips, n * sizeof(*ips));
		sort(want, n, sizeof(*want), cmp_ul, NULL);
		for (i = 0, w = 0; i < n; i++)
			if (want[i] && (!w || want[w - 1] != want[i]))
				want[w++] = want[i];
		got = ftrace_sort_ips(ips, n);
		KUNIT_EXPECT_EQ(test, got, w);
		KUNIT_EXPECT_EQ(test, memcmp(ips, want, min(got, w) * sizeof(*ips)), 0);
	}
}

/* Sites at 0x1000, 0x1010, 0x1100 and 0x5000 of a made-up text. */
static struct ftrace_group *synthetic_group(struct kunit *test)
{
	static const unsigned long ips[] = { 0x1000, 0x1010, 0x1100, 0x5000 };
	struct ftrace_group *g = ftrace_group_create(NULL, ips, ARRAY_SIZE(ips));

	KUNIT_ASSERT_NOT_NULL(test, g);
	return g;
}

static long rec_index(struct ftrace_group *g, struct dyn_ftrace *rec)
{
	return rec ? rec - g->recs : -1;
}

static void rec_group_layout(struct kunit *test)
{
	static const unsigned long far[] = { 0x1000, 0x1000 + (1UL << 33) };
	struct ftrace_group *g = synthetic_group(test);
	unsigned long *ips, i;

	KUNIT_EXPECT_EQ(test, g->count, 4U);
	KUNIT_EXPECT_EQ(test, g->base, 0x1000UL);
	KUNIT_EXPECT_EQ(test, g->last, 0x5000UL);
	KUNIT_EXPECT_EQ(test, ftrace_rec_ip(g, &g->recs[2]), 0x1100UL);
	KUNIT_EXPECT_EQ(test, g->recs[3].flags, 0U);
	KUNIT_EXPECT_EQ(test, sizeof(g->recs[0]), (size_t)8);
	ftrace_group_destroy(g);

	/* A group in whole pages, not zeroed: every record is written. */
	ips = kunit_kmalloc_array(test, 2048, sizeof(*ips), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ips);
	for (i = 0; i < 2048; i++)
		ips[i] = 0x1000 + 16 * i;
	g = ftrace_group_create(NULL, ips, 2048);
	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_EXPECT_GT(test, g->pages, 0U);
	KUNIT_EXPECT_FALSE(test, g->ready);
	KUNIT_EXPECT_EQ(test, g->freed, 0U);
	for (i = 0; i < 2048; i++) {
		if (g->recs[i].flags || ftrace_rec_ip(g, &g->recs[i]) != ips[i]) {
			KUNIT_FAIL(test, "record %lu: off %#x flags %#x", i,
				   g->recs[i].off, g->recs[i].flags);
			break;
		}
	}
	ftrace_group_destroy(g);

	/* Offsets are 32 bits: a group may not span more than 4 GiB. */
	KUNIT_EXPECT_NULL(test, ftrace_group_create(NULL, far, ARRAY_SIZE(far)));
	KUNIT_EXPECT_NULL(test, ftrace_group_create(NULL, far, 0));
}

static void rec_group_find(struct kunit *test)
{
	static const struct {
		unsigned long start, end;
		long want;
	} cases[] = {
		{ 0x1000, 0x1000, 0 },		/* exact */
		{ 0x1012, 0x1012, 1 },		/* inside the call instruction */
		{ 0x100f + MCOUNT_INSN_SIZE, 0x100f + MCOUNT_INSN_SIZE, 1 },
						/* its last byte */
		{ 0x1010 + MCOUNT_INSN_SIZE, 0x1010 + MCOUNT_INSN_SIZE, -1 },
						/* just after it */
		{ 0x1020, 0x10ff, -1 },		/* between sites */
		{ 0x1020, 0x1100, 2 },		/* ends on a site */
		{ 0x1001, 0x5000, 0 },		/* the lowest overlapping */
		{ 0x0000, 0x0fff, -1 },		/* before the group */
		{ 0x0ffc, 0x1000, 0 },		/* reaching into it */
		{ 0x4fff + MCOUNT_INSN_SIZE, 0x4fff + MCOUNT_INSN_SIZE, 3 },
						/* last byte of the last site */
		{ 0x5000 + MCOUNT_INSN_SIZE, 0x9000, -1 },
						/* after the group */
		{ 0x2000, 0x4fff, -1 },		/* a gap */
	};
	struct ftrace_group *g = synthetic_group(test);
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct dyn_ftrace *rec = ftrace_group_find(g, cases[i].start, cases[i].end);

		KUNIT_EXPECT_EQ_MSG(test, rec_index(g, rec), cases[i].want,
				    "[%#lx, %#lx]", cases[i].start, cases[i].end);
	}
	ftrace_group_destroy(g);
}

static void rec_live_location(struct kunit *test)
{
	unsigned long fn = (unsigned long)vfs_read;
	unsigned long ip = ftrace_location(fn);
	struct dyn_ftrace *rec;

	if (!ip)
		kunit_skip(test, "vfs_read has no call site in this build");
	/* The site is the function's first instruction, or follows ENDBR. */
	KUNIT_EXPECT_GE(test, ip, fn);
	KUNIT_EXPECT_LT(test, ip, fn + 16);
	KUNIT_EXPECT_EQ(test, ftrace_location(ip), ip);
	KUNIT_EXPECT_EQ(test, ftrace_location(ip + 2), ip);
	KUNIT_EXPECT_EQ(test, ftrace_location(ip + MCOUNT_INSN_SIZE), 0UL);
	KUNIT_EXPECT_TRUE(test, ftrace_text_reserved((void *)ip + 1, (void *)ip + 1));
	mutex_lock(&ftrace_lock);
	rec = ftrace_find_rec(ip, NULL);
	KUNIT_EXPECT_NOT_NULL(test, rec);
	KUNIT_EXPECT_NULL(test, ftrace_find_rec(ip + 1, NULL));
	mutex_unlock(&ftrace_lock);
}

/*
 * Every live record of vmlinux is at the start of a function: the dead
 * sites of overridden weak functions were retired at boot or, where the
 * build drops them (FTRACE_SITES_READY_AT_BUILD), are not in the table.
 */
static void rec_vmlinux_no_dead_sites(struct kunit *test)
{
	unsigned long size, off, live = 0, dead = 0, first = 0;
	struct ftrace_group *g;
	struct dyn_ftrace *rec;

	mutex_lock(&ftrace_lock);
	for_each_ftrace_group(g) {
		if (g->mod)
			continue;
		for_each_group_rec(g, rec) {
			unsigned long ip = ftrace_rec_ip(g, rec);

			if (rec->flags & FTRACE_REC_FREED)
				continue;
			live++;
			if (kallsyms_lookup_size_offset(ip, &size, &off) &&
			    off <= FTRACE_SITE_MAX_OFFSET)
				continue;
			if (!dead++)
				first = ip;
		}
	}
	mutex_unlock(&ftrace_lock);
	KUNIT_EXPECT_GT(test, live, 0UL);
	KUNIT_EXPECT_EQ_MSG(test, dead, 0UL, "first at %pS", (void *)first);
}

/* ---- Record state: counting ops, deciding the site's instruction ---- */

struct state_fixture {
	struct ftrace_ops ops[4];
	struct ftrace_hash *hashes[3];
};

enum { IP1 = 0x1000, IP2 = 0x2000, IP3 = 0x3000 };

static int state_init(struct kunit *test)
{
	struct state_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct ftrace_ops *a, *b, *c, *stub;
	int i;

	if (!f)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(f->hashes); i++) {
		f->hashes[i] = ftrace_hash_alloc(2);
		if (!f->hashes[i])
			return -ENOMEM;
	}
	a = &f->ops[0];		/* filter: IP1 */
	b = &f->ops[1];		/* everything but IP2 */
	c = &f->ops[2];		/* filter: IP2, wants pt_regs, modifies ip */
	stub = &f->ops[3];	/* never counts */
	for (i = 0; i < ARRAY_SIZE(f->ops); i++)
		ftrace_ops_init(&f->ops[i]);
	if (ftrace_hash_add(f->hashes[0], IP1) || ftrace_hash_add(f->hashes[1], IP2) ||
	    ftrace_hash_add(f->hashes[2], IP2))
		return -ENOMEM;
	RCU_INIT_POINTER(a->func_hash->filter_hash, f->hashes[0]);
	RCU_INIT_POINTER(b->func_hash->notrace_hash, f->hashes[1]);
	RCU_INIT_POINTER(c->func_hash->filter_hash, f->hashes[2]);
	c->flags |= FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY;
	stub->role = FTRACE_ROLE_SITES;
	RCU_INIT_POINTER(a->next, b);
	RCU_INIT_POINTER(b->next, c);
	RCU_INIT_POINTER(c->next, stub);
	RCU_INIT_POINTER(stub->next, &ftrace_list_end);
	test->priv = f;
	return 0;
}

static void state_exit(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	int i;

	for (i = 0; f && i < ARRAY_SIZE(f->hashes); i++)
		ftrace_hash_free(f->hashes[i]);
}

static void state_recount(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *list = &f->ops[0];
	u32 flags;

	/* IP1: a and b; no regs. */
	flags = ftrace_rec_recount(0, IP1, list);
	KUNIT_EXPECT_EQ(test, flags, 2U);
	/* IP2: only c (b's notrace has it), which needs regs and modifies ip. */
	flags = ftrace_rec_recount(0, IP2, list);
	KUNIT_EXPECT_EQ(test, flags, 1U | FTRACE_REC_REGS | FTRACE_REC_IPMODIFY);
	/* IP3: only b. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_recount(0, IP3, list), 1U);
	/* Only the empty list wants nothing. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_recount(0, IP3, &ftrace_list_end), 0U);
}

static void state_recount_keeps_site_state(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *list = &f->ops[0];
	u32 old = 7 | FTRACE_REC_REGS | FTRACE_REC_IPMODIFY |
		  FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN;

	/* The site's instruction is what it is until patched: kept. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_recount(old, IP1, list),
			2U | FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN);
	/* A freed record is wanted by nobody and stays freed. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_recount(old | FTRACE_REC_FREED, IP1, list),
			FTRACE_REC_FREED | FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN);
}

static void state_wanted(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(0, true), 0U);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(1, true), FTRACE_REC_ENABLED);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(3 | FTRACE_REC_REGS, true),
			FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN);
	/* kernel.ftrace_enabled=0: every site a NOP. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(3 | FTRACE_REC_REGS, false), 0U);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(1 | FTRACE_REC_FREED, true), 0U);
	/* The state bits already on the site do not decide. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN, true), 0U);
}

/*
 * One site through a life: NOP, one ops, a second that needs regs, back
 * to one, sysctl off, on, and the last ops gone.  Each step recounts and
 * "patches" (takes the wanted state) the way ftrace_apply() does.
 */
static void state_transitions(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *a = &f->ops[0], *c = &f->ops[2];
	static const struct {
		const char *step;
		bool a, c, enabled;
		u32 count, site;
	} steps[] = {
		{ "nothing registered",	false, false, true, 0, 0 },
		{ "a registered",	true,  false, true, 1, FTRACE_REC_ENABLED },
		{ "c (regs) added",	true,  true,  true, 2,
		  FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN },
		{ "c removed",		true,  false, true, 1, FTRACE_REC_ENABLED },
		{ "sysctl 0",		true,  false, false, 1, 0 },
		{ "sysctl 1",		true,  false, true, 1, FTRACE_REC_ENABLED },
		{ "a removed",		false, false, true, 0, 0 },
	};
	u32 flags = 0;
	int i;

	/* Both want one site: widen c's filter to IP1 as well. */
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(f->hashes[2], IP1), 0);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		struct ftrace_ops *list = &ftrace_list_end;
		u32 want;

		RCU_INIT_POINTER(a->next, &ftrace_list_end);
		RCU_INIT_POINTER(c->next, &ftrace_list_end);
		if (steps[i].c) {
			RCU_INIT_POINTER(c->next, list);
			list = c;
		}
		if (steps[i].a) {
			RCU_INIT_POINTER(a->next, list);
			list = a;
		}
		flags = ftrace_rec_recount(flags, IP1, list);
		KUNIT_EXPECT_EQ_MSG(test, flags & FTRACE_REC_REF_MASK, steps[i].count,
				    "%s", steps[i].step);
		want = ftrace_rec_wanted(flags, steps[i].enabled);
		KUNIT_EXPECT_EQ_MSG(test, want, steps[i].site, "%s", steps[i].step);
		flags = (flags & ~FTRACE_REC_SITE) | want;
	}
}

/* Link @n ops into a list, in order; returns its head. */
static struct ftrace_ops *state_list(struct ftrace_ops **ops, int n)
{
	struct ftrace_ops *list = &ftrace_list_end;

	while (n--) {
		RCU_INIT_POINTER(ops[n]->next, list);
		list = ops[n];
	}
	return list;
}

/*
 * A site wanted by exactly one ops that has a trampoline slot calls that
 * trampoline; with a second ops it goes back to the shared one, and a
 * stale slot never survives a recount.
 */
static void state_trampoline(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *a = &f->ops[0], *b = &f->ops[1], *c = &f->ops[2];
	struct ftrace_ops *one[] = { a }, *two[] = { a, b }, *regs[] = { c }, *plain[] = { b };
	u32 flags;

	a->tramp_slot = 3;
	c->tramp_slot = FTRACE_TRAMP_SLOTS;

	flags = ftrace_rec_recount(0, IP1, state_list(one, 1));
	KUNIT_EXPECT_EQ(test, flags, 1U | FIELD_PREP(FTRACE_REC_TRAMP, 3));
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true),
			FTRACE_REC_ENABLED | FIELD_PREP(FTRACE_REC_TRAMP_EN, 3));
	/* Site calls slot 3 now; a second ops: the shared trampoline. */
	flags |= FIELD_PREP(FTRACE_REC_TRAMP_EN, 3) | FTRACE_REC_ENABLED;
	flags = ftrace_rec_recount(flags, IP1, state_list(two, 2));
	KUNIT_EXPECT_EQ(test, flags, 2U | FTRACE_REC_ENABLED |
			FIELD_PREP(FTRACE_REC_TRAMP_EN, 3));
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true), FTRACE_REC_ENABLED);
	/* sysctl off: a NOP, whatever the slot. */
	flags = ftrace_rec_recount(0, IP1, state_list(one, 1));
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, false), 0U);

	/*
	 * The highest slot, with regs, and the first one past what a record
	 * names: both far, the field's top value.  The last slot a record
	 * names is itself.
	 */
	flags = ftrace_rec_recount(0, IP2, state_list(regs, 1));
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true),
			FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN |
			FIELD_PREP(FTRACE_REC_TRAMP_EN, FTRACE_REC_SLOT_FAR));
	c->tramp_slot = FTRACE_REC_SLOT_FAR;
	flags = ftrace_rec_recount(0, IP2, state_list(regs, 1));
	KUNIT_EXPECT_EQ(test, FIELD_GET(FTRACE_REC_TRAMP_EN, ftrace_rec_wanted(flags, true)),
			(u32)FTRACE_REC_SLOT_FAR);
	c->tramp_slot = FTRACE_REC_SLOT_FAR - 1;
	flags = ftrace_rec_recount(0, IP2, state_list(regs, 1));
	KUNIT_EXPECT_EQ(test, FIELD_GET(FTRACE_REC_TRAMP_EN, ftrace_rec_wanted(flags, true)),
			(u32)FTRACE_REC_SLOT_FAR - 1);

	/* An ops without a slot: the shared trampoline. */
	flags = ftrace_rec_recount(0, IP3, state_list(plain, 1));
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true), FTRACE_REC_ENABLED);
}

/*
 * A site the direct-call ops alone wants calls its direct function; with
 * another ops it goes to ftrace_regs_caller (the direct ops wants regs).
 */
static void state_direct(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *a = &f->ops[0], *b = &f->ops[1];
	struct ftrace_ops *one[] = { a }, *two[] = { a, b };
	u32 flags;

	a->flags |= FTRACE_OPS_FL_SAVE_REGS;
	a->role = FTRACE_ROLE_DIRECT;
	a->tramp_slot = 0;

	flags = ftrace_rec_recount(0, IP1, state_list(one, 1));
	KUNIT_EXPECT_EQ(test, flags, 1U | FTRACE_REC_DIRECT | FTRACE_REC_REGS);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true),
			FTRACE_REC_ENABLED | FTRACE_REC_DIRECT_EN);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, false), 0U);

	flags = ftrace_rec_recount(flags | FTRACE_REC_ENABLED | FTRACE_REC_DIRECT_EN,
				   IP1, state_list(two, 2));
	KUNIT_EXPECT_EQ(test, flags & ~FTRACE_REC_SITE,
			2U | FTRACE_REC_DIRECT | FTRACE_REC_REGS);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true),
			FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN);
}

static struct kunit_case glob_cases[] = {
	KUNIT_CASE(glob_parse_kinds),
	KUNIT_CASE(glob_positions),
	KUNIT_CASE(glob_match_names),
	KUNIT_CASE(match_last_pattern_wins),
	KUNIT_CASE(match_glob_and_nothing),
	KUNIT_CASE(set_filter_needs_a_pattern),
	KUNIT_CASE(match_by_name_as_pass),
	KUNIT_CASE(match_prefix_symbols),
	KUNIT_CASE(match_lookup_symbols),
	KUNIT_CASE(match_lookup_aliases),
	KUNIT_CASE(match_positions),
	{}
};

static struct kunit_case hash_cases[] = {
	KUNIT_CASE(hash_add_lookup_remove),
	KUNIT_CASE(hash_grows),
	KUNIT_CASE(hash_copy_is_independent),
	KUNIT_CASE(hash_bits_for),
	{}
};

/*
 * Direct ops and IPMODIFY ops sharing sites (ftrace_direct.c): who is
 * asked, what is refused.  ops[2] ("c") is the IPMODIFY ops on IP2.
 */
static int share_calls;
static int share_answer;
static enum ftrace_ops_cmd share_cmd;

static int share_ops_func(struct ftrace_ops *op, enum ftrace_ops_cmd cmd)
{
	share_calls++;
	share_cmd = cmd;
	return share_answer;
}

/* A DIRECT ops "a" with filter @ip (0: every site), not asked anything yet. */
static struct ftrace_ops *share_direct(struct kunit *test, unsigned long ip)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *a = &f->ops[0];
	struct ftrace_hash *h = ftrace_hash_alloc(2);

	KUNIT_ASSERT_NOT_NULL(test, h);
	if (ip)
		KUNIT_ASSERT_EQ(test, ftrace_hash_add(h, ip), 0);
	ftrace_hash_free(rcu_dereference_protected(a->func_hash->filter_hash, 1));
	RCU_INIT_POINTER(a->func_hash->filter_hash, h);
	f->hashes[0] = h;	/* freed by state_exit() */
	a->flags |= FTRACE_OPS_FL_SAVE_REGS;
	a->role = FTRACE_ROLE_DIRECT;
	a->ops_func = NULL;
	share_calls = 0;
	share_answer = 0;
	return a;
}

static int share_check(struct ftrace_ops *ops, struct ftrace_ops **list, int n)
{
	return ftrace_direct_check_share(state_list(list, n), ops,
			rcu_dereference_protected(ops->func_hash->filter_hash, 1),
			rcu_dereference_protected(ops->func_hash->notrace_hash, 1));
}

static void share_direct_joins_ipmodify(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *c = &f->ops[2], *a;
	struct ftrace_ops *reg[] = { c };

	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS))
		kunit_skip(test, "no direct calls in this kernel");

	/* No site in common: nothing asked, nothing refused. */
	a = share_direct(test, IP1);
	KUNIT_EXPECT_EQ(test, share_check(a, reg, 1), 0);

	/* On the IPMODIFY ops' site without ops_func: refused. */
	a = share_direct(test, IP2);
	KUNIT_EXPECT_EQ(test, share_check(a, reg, 1), -EBUSY);

	/* With one: asked once, SELF, and its answer is the result. */
	a->ops_func = share_ops_func;
	share_answer = -EAGAIN;
	KUNIT_EXPECT_EQ(test, share_check(a, reg, 1), -EAGAIN);
	KUNIT_EXPECT_EQ(test, share_calls, 1);
	KUNIT_EXPECT_EQ(test, share_cmd, FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_SELF);
	share_answer = 0;
	KUNIT_EXPECT_EQ(test, share_check(a, reg, 1), 0);

	/* An empty filter means every site, IP2 included. */
	a = share_direct(test, 0);
	KUNIT_EXPECT_EQ(test, share_check(a, reg, 1), -EBUSY);
}

static void share_ipmodify_joins_direct(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *c = &f->ops[2], *a;
	struct ftrace_ops *reg[1];

	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS))
		kunit_skip(test, "no direct calls in this kernel");

	a = share_direct(test, IP2);
	reg[0] = a;
	/* The direct ops cannot be asked to share: refused. */
	KUNIT_EXPECT_EQ(test, share_check(c, reg, 1), -EBUSY);
	/* It can: allowed here, without a request (PEER goes beforehand). */
	a->ops_func = share_ops_func;
	KUNIT_EXPECT_EQ(test, share_check(c, reg, 1), 0);
	KUNIT_EXPECT_EQ(test, share_calls, 0);

	a = share_direct(test, IP1);
	KUNIT_EXPECT_EQ(test, share_check(c, reg, 1), 0);
}

/* The site-to-function hash: add sites, remove only a function's own. */
static void share_funcs_edit(struct kunit *test)
{
	struct ftrace_hash *src, *sites, *h;

	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS))
		kunit_skip(test, "no direct calls in this kernel");

	src = ftrace_hash_alloc(2);
	sites = ftrace_hash_alloc(2);
	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, sites);
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(src, IP1), 0);
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(src, IP2), 0);
	ftrace_lookup_ip(src, IP1)->direct = 0xa;
	ftrace_lookup_ip(src, IP2)->direct = 0xb;

	KUNIT_ASSERT_EQ(test, ftrace_hash_add(sites, IP3), 0);
	h = ftrace_direct_funcs_edit(src, sites, 0xc, 0);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_EQ(test, h->count, 3UL);
	KUNIT_EXPECT_EQ(test, ftrace_lookup_ip(h, IP1)->direct, 0xaUL);
	KUNIT_EXPECT_EQ(test, ftrace_lookup_ip(h, IP3)->direct, 0xcUL);
	ftrace_hash_free(h);

	/* Removing IP1 and IP2 for function 0xa takes IP1 only. */
	ftrace_hash_clear(sites);
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(sites, IP1), 0);
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(sites, IP2), 0);
	h = ftrace_direct_funcs_edit(src, sites, 0, 0xa);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_EQ(test, h->count, 1UL);
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(h, IP1));
	KUNIT_EXPECT_EQ(test, ftrace_lookup_ip(h, IP2)->direct, 0xbUL);
	KUNIT_EXPECT_EQ(test, src->count, 2UL);
	ftrace_hash_free(h);
	ftrace_hash_free(sites);
	ftrace_hash_free(src);
}

static struct kunit_case rec_cases[] = {
	KUNIT_CASE(rec_sort_ips),
	KUNIT_CASE(rec_sort_ips_sorted),
	KUNIT_CASE(rec_sort_ips_random),
	KUNIT_CASE(rec_group_layout),
	KUNIT_CASE(rec_group_find),
	KUNIT_CASE(rec_live_location),
	KUNIT_CASE(rec_vmlinux_no_dead_sites),
	{}
};

/*
 * The count is only ever read as 0, 1 or more (and printed): past its
 * field it saturates rather than spill into the trampoline slot above.
 */
static void state_count_saturates(struct kunit *test)
{
	unsigned int i, n = FTRACE_REC_REF_MASK + 2;
	struct ftrace_ops *ops, **list;
	u32 flags;

	ops = kunit_kcalloc(test, n, sizeof(*ops), GFP_KERNEL);
	list = kunit_kcalloc(test, n, sizeof(*list), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	KUNIT_ASSERT_NOT_NULL(test, list);
	for (i = 0; i < n; i++) {
		ftrace_ops_init(&ops[i]);	/* empty filter: every site */
		list[i] = &ops[i];
	}
	flags = ftrace_rec_recount(0, IP1, state_list(list, n));
	KUNIT_EXPECT_EQ(test, flags, FTRACE_REC_REF_MASK);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true), FTRACE_REC_ENABLED);
}

static void tramp_test_func(unsigned long ip, unsigned long parent_ip,
			    struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

/*
 * The shared trampolines call one ops directly only if it is never freed:
 * they load function_trace_op and the callback separately, and a task
 * preempted in between would pair a freed ops with another callback.
 */
static void state_shared_callback(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *c = &f->ops[2], *op = NULL;

	c->func = tramp_test_func;
	/* c alone (the stub does not count), in the kernel's data. */
	KUNIT_EXPECT_PTR_EQ(test, ftrace_shared_callback(c, true, &op),
			    (ftrace_func_t)tramp_test_func);
	KUNIT_EXPECT_PTR_EQ(test, op, c);
	/* kernel.ftrace_enabled=0, or nothing that counts: the stub. */
	KUNIT_EXPECT_PTR_EQ(test, ftrace_shared_callback(c, false, &op),
			    (ftrace_func_t)ftrace_stub);
	KUNIT_EXPECT_PTR_EQ(test, op, &ftrace_list_end);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_shared_callback(&f->ops[3], true, &op),
			    (ftrace_func_t)ftrace_stub);
	/* Several: the list function, and no op published. */
	KUNIT_EXPECT_PTR_EQ(test, ftrace_shared_callback(&f->ops[0], true, &op),
			    (ftrace_func_t)ftrace_ops_list_func);
	KUNIT_EXPECT_PTR_EQ(test, op, &ftrace_list_end);
	/* c alone, but one that can be freed: the list function too. */
	c->flags |= FTRACE_OPS_FL_DYNAMIC;
	KUNIT_EXPECT_PTR_EQ(test, ftrace_shared_callback(c, true, &op),
			    (ftrace_func_t)ftrace_ops_list_func);
	KUNIT_EXPECT_PTR_EQ(test, op, &ftrace_list_end);
}

/*
 * Every slot can be handed out, each once, to ops on and off the list
 * alike; the ops after the last goes without.  The slots the running
 * kernel holds already are counted, not assumed free.
 */
static void tramp_slots_fill(struct kunit *test)
{
	unsigned int i, got = 0, held = 0, n = FTRACE_TRAMP_SLOTS + 1;
	DECLARE_BITMAP(seen, FTRACE_TRAMP_SLOTS + 1) = { };
	struct ftrace_ops *ops;

	ops = kunit_kcalloc(test, n, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	mutex_lock(&ftrace_lock);
	for (i = 1; i <= FTRACE_TRAMP_SLOTS; i++)
		held += !!ftrace_tramp_addr(i);
	for (i = 0; i < n; i++) {
		ftrace_ops_init(&ops[i]);
		ops[i].func = tramp_test_func;
		if (i & 1)
			ops[i].flags |= FTRACE_OPS_FL_SAVE_REGS;
		ftrace_tramp_get(&ops[i]);
		if (!ops[i].tramp_slot)
			continue;
		got++;
		KUNIT_EXPECT_LE(test, ops[i].tramp_slot, (unsigned int)FTRACE_TRAMP_SLOTS);
		KUNIT_EXPECT_FALSE(test, __test_and_set_bit(ops[i].tramp_slot, seen));
		KUNIT_EXPECT_NE(test, ftrace_tramp_addr(ops[i].tramp_slot), 0UL);
	}
	for (i = 0; i < n; i++)
		ftrace_tramp_put(&ops[i], false);
	mutex_unlock(&ftrace_lock);
	/* Memory may have run out before the table did, but not silently. */
	KUNIT_EXPECT_EQ_MSG(test, got + held, (unsigned int)FTRACE_TRAMP_SLOTS,
			    "%u slots held before, %u given out", held, got);
	KUNIT_EXPECT_GT(test, got, 0U);
}

/*
 * A caller that waits for the grace periods itself (an ops that may be
 * freed, unregistering) frees the trampoline it let go of: the slot is
 * free again before ftrace_lock is dropped, so the next ops takes it.
 */
static void tramp_reap_after_wait(struct kunit *test)
{
	struct ftrace_ops *ops;
	unsigned int slot;

	ops = kunit_kcalloc(test, 2, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	ftrace_ops_init(&ops[0]);
	ftrace_ops_init(&ops[1]);
	ops[0].func = tramp_test_func;
	ops[1].func = tramp_test_func;
	mutex_lock(&ftrace_lock);
	/* The slots tramp_slots_fill() let go of are the work item's yet. */
	synchronize_rcu_tasks_rude();
	synchronize_rcu_tasks();
	ftrace_tramps_reap();
	ftrace_tramp_get(&ops[0]);
	slot = ops[0].tramp_slot;
	if (!slot) {
		mutex_unlock(&ftrace_lock);
		kunit_skip(test, "no free trampoline slot or no memory for one");
	}
	ftrace_tramp_put(&ops[0], true);
	/* Let go of, not freed: a CPU may still be in it. */
	KUNIT_EXPECT_NE(test, ftrace_tramp_addr(slot), 0UL);
	synchronize_rcu_tasks_rude();
	synchronize_rcu_tasks();
	ftrace_tramps_reap();
	KUNIT_EXPECT_EQ(test, ftrace_tramp_addr(slot), 0UL);
	ftrace_tramp_get(&ops[1]);
	KUNIT_EXPECT_EQ(test, ops[1].tramp_slot, slot);
	ftrace_tramp_put(&ops[1], false);
	mutex_unlock(&ftrace_lock);
}

/*
 * A trampoline let go of calls ftrace_stub at once, while it waits for
 * its grace periods: a task preempted in it before it loaded the
 * callback must not reach the ops when it resumes.
 */
static void tramp_let_go_calls_stub(struct kunit *test)
{
	struct ftrace_ops *ops;
	unsigned int slot;

	ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	ftrace_ops_init(ops);
	ops->func = tramp_test_func;
	mutex_lock(&ftrace_lock);
	ftrace_tramp_get(ops);
	slot = ops->tramp_slot;
	if (!slot) {
		mutex_unlock(&ftrace_lock);
		kunit_skip(test, "no free trampoline slot or no memory for one");
	}
	KUNIT_EXPECT_PTR_EQ(test, ftrace_tramp_func(slot), ftrace_ops_get_func(ops));
	ftrace_tramp_put(ops, false);
	/* Still there (the work item frees it), but calling nothing. */
	KUNIT_EXPECT_NE(test, ftrace_tramp_addr(slot), 0UL);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_tramp_func(slot), (ftrace_func_t)ftrace_stub);
	mutex_unlock(&ftrace_lock);
}

static struct kunit_case state_cases[] = {
	KUNIT_CASE(state_recount),
	KUNIT_CASE(state_recount_keeps_site_state),
	KUNIT_CASE(state_wanted),
	KUNIT_CASE(state_transitions),
	KUNIT_CASE(state_trampoline),
	KUNIT_CASE(state_count_saturates),
	KUNIT_CASE(state_shared_callback),
	KUNIT_CASE(tramp_slots_fill),
	KUNIT_CASE(tramp_reap_after_wait),
	KUNIT_CASE(tramp_let_go_calls_stub),
	KUNIT_CASE(state_direct),
	{}
};

static struct kunit_case share_cases[] = {
	KUNIT_CASE(share_direct_joins_ipmodify),
	KUNIT_CASE(share_ipmodify_joins_direct),
	KUNIT_CASE(share_funcs_edit),
	{}
};

static struct kunit_suite glob_suite = {
	.name = "ftrace_glob",
	.test_cases = glob_cases,
};

static struct kunit_suite hash_suite = {
	.name = "ftrace_hash",
	.test_cases = hash_cases,
};

static struct kunit_suite rec_suite = {
	.name = "ftrace_rec",
	.test_cases = rec_cases,
};

static struct kunit_suite state_suite = {
	.name = "ftrace_rec_state",
	.init = state_init,
	.exit = state_exit,
	.test_cases = state_cases,
};

static struct kunit_suite share_suite = {
	.name = "ftrace_direct_share",
	.init = state_init,
	.exit = state_exit,
	.test_cases = share_cases,
};

kunit_test_suites(&glob_suite, &hash_suite, &rec_suite, &state_suite, &share_suite);
