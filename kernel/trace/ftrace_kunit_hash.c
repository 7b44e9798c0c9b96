// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the hash sets of call-site addresses.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

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

static struct kunit_case hash_cases[] = {
	KUNIT_CASE(hash_add_lookup_remove),
	KUNIT_CASE(hash_grows),
	KUNIT_CASE(hash_copy_is_independent),
	KUNIT_CASE(hash_bits_for),
	{}
};

static struct kunit_suite hash_suite = {
	.name = "ftrace_hash",
	.test_cases = hash_cases,
};

kunit_test_suite(hash_suite);
