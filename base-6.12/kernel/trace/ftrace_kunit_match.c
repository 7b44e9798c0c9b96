// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of globs and of matching a write's patterns against
 * vmlinux's live records (read under ftrace_lock, never changed).
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/slab.h>

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
static int find_alias(void *data, const char *name, unsigned long addr)
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

static struct kunit_suite glob_suite = {
	.name = "ftrace_glob",
	.test_cases = glob_cases,
};

kunit_test_suite(glob_suite);
