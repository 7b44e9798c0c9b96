// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the call-site records: sorting the table, a group's
 * layout, lookups, and vmlinux's records having no dead site.
 */
#include <kunit/test.h>
#include <linux/kallsyms.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "trace.h"
#include "ftrace_internal.h"

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

static struct kunit_suite rec_suite = {
	.name = "ftrace_rec",
	.test_cases = rec_cases,
};

kunit_test_suite(rec_suite);
