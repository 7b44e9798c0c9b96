// SPDX-License-Identifier: GPL-2.0
/*
 * Call-site records: one group per text owner (vmlinux, each module), an
 * array of records sorted by address.  A group is allocated in whole pages
 * so that what dyn_ftrace_total_info counts is what the records take and a
 * freed tail can be given back; a group of half a page or less comes from
 * the slab and counts no pages.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/sort.h>
#include <linux/slab.h>
#include <linux/mm.h>

#include "ftrace_internal.h"

/* The core's state lock; ftrace_internal.h gives the lock order. */
DEFINE_MUTEX(ftrace_lock);

LIST_HEAD(ftrace_groups);
unsigned long ftrace_groups_gen;

/* Shown by dyn_ftrace_total_info. */
unsigned long ftrace_update_tot_cnt;
unsigned long ftrace_number_of_pages;
unsigned long ftrace_number_of_groups;

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

#define RADIX_BITS	11
#define RADIX_SIZE	BIT(RADIX_BITS)

static inline unsigned int radix_digit(unsigned long ip, unsigned long min,
				       unsigned int shift)
{
	return ((ip - min) >> shift) & (RADIX_SIZE - 1);
}

/*
 * Sort @n non-zero addresses, all at or above @min, a digit at a time
 * through @tmp (@n slots) and @count: sort()'s indirect call per
 * comparison is too slow for a large unsorted module.
 */
static void radix_sort(unsigned long *ips, unsigned long *tmp, unsigned int *count,
		       unsigned long n, unsigned long min, unsigned long span)
{
	unsigned long *src = ips, *dst = tmp, i;
	unsigned int shift;

	for (shift = 0; shift < BITS_PER_LONG && (span >> shift); shift += RADIX_BITS) {
		unsigned int d, sum = 0;

		memset(count, 0, RADIX_SIZE * sizeof(*count));
		for (i = 0; i < n; i++)
			count[radix_digit(src[i], min, shift)]++;
		if (count[radix_digit(src[0], min, shift)] == n)
			continue;
		for (d = 0; d < RADIX_SIZE; d++) {
			unsigned int c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[radix_digit(src[i], min, shift)]++] = src[i];
		swap(src, dst);
	}
	if (src != ips)
		memcpy(ips, src, n * sizeof(*ips));
}

/* Return: how many are left once zeros are dropped. */
static unsigned long sort_nonzero(unsigned long *ips, unsigned long count)
{
	unsigned long *p, *out, *end, lo = ULONG_MAX, hi = 0, n;
	void *buf;

	/* Zeros out first: they would stretch the span to the whole space. */
	for (p = ips, out = ips, end = ips + count; p < end; p++) {
		if (!*p)
			continue;
		lo = min(lo, *p);
		hi = max(hi, *p);
		*out++ = *p;
	}
	n = out - ips;
	if (!n)
		return 0;
	buf = kvmalloc(n * sizeof(*ips) + RADIX_SIZE * sizeof(unsigned int), GFP_KERNEL);
	if (buf) {
		radix_sort(ips, buf, buf + n * sizeof(*ips), n, lo, hi - lo);
		kvfree(buf);
	} else {
		sort(ips, n, sizeof(*ips), cmp_ulong, NULL);
	}
	return n;
}

/*
 * Drop zeros and duplicates in one pass.  False at the first address out
 * of order: the array still holds every distinct address, so sorting it
 * whole and compacting again is right.
 */
static bool compact_sorted(unsigned long *ips, unsigned long count, unsigned long *n)
{
	unsigned long *p, *out = ips, *end = ips + count, prev = 0;

	for (p = ips; p < end; p++) {
		unsigned long ip = *p;

		if (ip <= prev) {
			if (ip == prev)
				continue;
			return false;
		}
		*out++ = ip;
		prev = ip;
	}
	*n = out - ips;
	return true;
}

/**
 * ftrace_sort_ips - sort a list of call-site addresses and drop duplicates
 * @ips: the addresses
 * @count: how many
 *
 * Return: the number of distinct addresses left at the start of @ips.
 */
int ftrace_sort_ips(unsigned long *ips, unsigned long count)
{
	unsigned long n;

	if (compact_sorted(ips, count, &n))
		return n;
	count = sort_nonzero(ips, count);
	compact_sorted(ips, count, &n);
	return n;
}

/**
 * ftrace_group_create - build the records of one text owner
 * @mod: the module, or NULL for vmlinux
 * @ips: its call sites, sorted, without duplicates or zeros
 * @count: how many
 *
 * The caller publishes the group once the sites are NOPs.
 *
 * Return: the group, or NULL if it could not be allocated or the sites
 * span more than 4 GiB.
 */
struct ftrace_group *ftrace_group_create(struct module *mod,
					 const unsigned long *ips,
					 unsigned long count)
{
	struct ftrace_group *g;
	unsigned long i;
	size_t size;

	if (!count || ips[count - 1] - ips[0] > U32_MAX)
		return NULL;

	/* Not zeroed: every record is written whole below. */
	size = struct_size(g, recs, count);
	if (size <= PAGE_SIZE / 2)
		g = kmalloc(size, GFP_KERNEL);
	else
		g = alloc_pages_exact(size, GFP_KERNEL);
	if (!g)
		return NULL;

	memset(g, 0, offsetof(struct ftrace_group, recs));
	g->mod = mod;
	g->base = ips[0];
	g->last = ips[count - 1];
	g->count = count;
	g->pages = size <= PAGE_SIZE / 2 ? 0 : DIV_ROUND_UP(size, PAGE_SIZE);
	for (i = 0; i < count; i++)
		g->recs[i] = (struct dyn_ftrace){ .off = ips[i] - g->base };
	return g;
}

/**
 * ftrace_group_destroy - free a group that is no longer on ftrace_groups
 * @g: the group
 */
void ftrace_group_destroy(struct ftrace_group *g)
{
	if (g->pages)
		free_pages_exact(g, (size_t)g->pages * PAGE_SIZE);
	else
		kfree(g);
}

static void group_destroy_rcu(struct rcu_head *rcu)
{
	ftrace_group_destroy(container_of(rcu, struct ftrace_group, rcu));
}

/**
 * ftrace_group_destroy_rcu - free a group after the RCU readers of it
 * @g: the group, just taken off ftrace_groups
 */
void ftrace_group_destroy_rcu(struct ftrace_group *g)
{
	call_rcu(&g->rcu, group_destroy_rcu);
}

struct group_tail {
	struct rcu_head	rcu;
	void		*addr;
	size_t		size;
};

static void group_tail_free(struct rcu_head *rcu)
{
	struct group_tail *t = container_of(rcu, struct group_tail, rcu);

	free_pages_exact(t->addr, t->size);
	kfree(t);
}

/**
 * ftrace_group_trim - give back the whole pages of a group's freed tail
 * @g: a published group, some of whose records were just freed
 *
 * The count shrinks at once; the pages go after an RCU grace period,
 * since a lookup may still be reading them.
 *
 * Context: ftrace_lock held.
 * Return: the pages given back.
 */
unsigned int ftrace_group_trim(struct ftrace_group *g)
{
	unsigned int n = g->count, keep, given;
	struct group_tail *t;

	ftrace_assert_locked();
	while (n && (g->recs[n - 1].flags & FTRACE_REC_FREED))
		n--;
	if (!n)
		return 0;
	keep = DIV_ROUND_UP(struct_size(g, recs, n), PAGE_SIZE);
	if (keep >= g->pages)
		return 0;	/* nothing whole to give back, or from the slab */
	t = kmalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return 0;
	g->freed -= g->count - n;
	WRITE_ONCE(g->last, ftrace_rec_ip(g, &g->recs[n - 1]));
	WRITE_ONCE(g->count, n);
	ftrace_groups_gen++;
	given = g->pages - keep;
	t->addr = (void *)g + (size_t)keep * PAGE_SIZE;
	t->size = (size_t)given * PAGE_SIZE;
	g->pages = keep;
	call_rcu(&t->rcu, group_tail_free);
	return given;
}

/**
 * ftrace_group_find - a group's first record overlapping a range of text
 * @g: the group
 * @start: first byte of the range
 * @end: last byte of the range
 *
 * Return: the lowest record, freed ones included, whose call instruction
 * overlaps [@start, @end], or NULL.
 */
struct dyn_ftrace *ftrace_group_find(struct ftrace_group *g,
				     unsigned long start, unsigned long end)
{
	/* A trim may shrink both under a reader. */
	unsigned long lo = 0, hi = READ_ONCE(g->count);
	unsigned long count = hi, last = READ_ONCE(g->last);

	if (end < g->base || start > last + MCOUNT_INSN_SIZE - 1)
		return NULL;

	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (ftrace_rec_ip(g, &g->recs[mid]) + MCOUNT_INSN_SIZE - 1 < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == count || ftrace_rec_ip(g, &g->recs[lo]) > end)
		return NULL;
	return &g->recs[lo];
}

static struct dyn_ftrace *find_range(unsigned long start, unsigned long end,
				     struct ftrace_group **gp)
{
	struct ftrace_group *g;
	struct dyn_ftrace *rec;

	for_each_ftrace_group(g) {
		rec = ftrace_group_find(g, start, end);
		/* A freed record may hide live ones after it. */
		while (rec && rec < g->recs + READ_ONCE(g->count) &&
		       ftrace_rec_ip(g, rec) <= end) {
			if (!(rec->flags & FTRACE_REC_FREED)) {
				if (gp)
					*gp = g;
				return rec;
			}
			rec++;
		}
	}
	return NULL;
}

/**
 * ftrace_find_rec - the record of a call site
 * @ip: the call site's exact address
 * @gp: if not NULL, gets the record's group
 *
 * Context: under ftrace_lock, or rcu_read_lock() if only reading.
 * Return: the live record at @ip, or NULL.
 */
struct dyn_ftrace *ftrace_find_rec(unsigned long ip, struct ftrace_group **gp)
{
	struct ftrace_group *g;
	struct dyn_ftrace *rec;

	rec = find_range(ip, ip, &g);
	if (!rec || ftrace_rec_ip(g, rec) != ip)
		return NULL;
	if (gp)
		*gp = g;
	return rec;
}

/**
 * ftrace_location_range - the first call site overlapping a range of text
 * @start: first byte of the range
 * @end: last byte of the range
 *
 * Return: the address of the lowest live call site whose instruction
 * overlaps [@start, @end], or 0.
 */
unsigned long ftrace_location_range(unsigned long start, unsigned long end)
{
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	unsigned long ip = 0;

	rcu_read_lock();
	rec = find_range(start, end, &g);
	if (rec)
		ip = ftrace_rec_ip(g, rec);
	rcu_read_unlock();
	return ip;
}

/**
 * ftrace_location - the call site of an address or of a function
 * @ip: an address in a call instruction, or the start of a function
 *
 * A function's start maps to its site, which may follow an ENDBR.
 *
 * Return: the call site's address, or 0 if @ip has none.
 */
unsigned long ftrace_location(unsigned long ip)
{
	unsigned long loc, size, offset;

	loc = ftrace_location_range(ip, ip);
	if (loc)
		return loc;
	if (!kallsyms_lookup_size_offset(ip, &size, &offset) || offset)
		return 0;
	return ftrace_location_range(ip, ip + size - 1);
}

/**
 * ftrace_text_reserved - whether a range of text holds a call site
 * @start: first byte
 * @end: last byte
 *
 * Return: 1 if a call site overlaps [@start, @end], else 0.
 */
int ftrace_text_reserved(const void *start, const void *end)
{
	return !!ftrace_location_range((unsigned long)start, (unsigned long)end);
}

/**
 * ftrace_group_publish - put a group of records on the list
 * @g: the group, its sites set up
 *
 * Context: ftrace_lock held.
 */
void ftrace_group_publish(struct ftrace_group *g)
{
	ftrace_assert_locked();
	list_add_tail_rcu(&g->list, &ftrace_groups);
	ftrace_groups_gen++;
	ftrace_update_tot_cnt += g->count - g->freed;
	ftrace_number_of_pages += g->pages;
	ftrace_number_of_groups++;
}

/**
 * ftrace_group_unpublish - take a group of records off the list
 * @g: the group; freed by the caller a grace period later
 *
 * Context: ftrace_lock held.
 */
void ftrace_group_unpublish(struct ftrace_group *g)
{
	ftrace_assert_locked();
	list_del_rcu(&g->list);
	ftrace_groups_gen++;
	ftrace_update_tot_cnt -= g->count - g->freed;
	ftrace_number_of_pages -= g->pages;
	ftrace_number_of_groups--;
}

/**
 * ftrace_adjust_ips - from what the table lists to the call sites
 * @ips: the addresses, sorted
 * @count: how many
 *
 * arm64's table lists the first of each site's two NOPs.
 */
void ftrace_adjust_ips(unsigned long *ips, unsigned long count)
{
	unsigned long i;

	for (i = 0; i < count; i++)
		ips[i] = ftrace_call_adjust(ips[i]);
}
