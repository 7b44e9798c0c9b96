// SPDX-License-Identifier: GPL-2.0
/*
 * Sets of call-site addresses (filter and notrace hashes).  A hash in use
 * by a registered ops is never edited in place: writers build a copy and
 * publish it, so lookups need no lock.
 */
#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "trace.h"
#include "ftrace_internal.h"

/**
 * ftrace_hash_bits_for - a bucket count for a number of entries
 * @count: expected entries
 *
 * Return: log2 of a bucket count giving about two entries per bucket,
 * at least 1 and at most FTRACE_HASH_MAX_BITS.
 */
unsigned int ftrace_hash_bits_for(unsigned long count)
{
	unsigned int bits = count ? fls_long(count / 2) : 0;

	return clamp_t(unsigned int, bits, 1, FTRACE_HASH_MAX_BITS);
}

/**
 * ftrace_hash_alloc - an empty hash
 * @size_bits: log2 of its bucket count
 *
 * Return: the hash, or NULL without memory.
 */
struct ftrace_hash *ftrace_hash_alloc(unsigned int size_bits)
{
	struct ftrace_hash *hash;

	hash = kzalloc(sizeof(*hash), GFP_KERNEL);
	if (!hash)
		return NULL;
	hash->buckets = kcalloc(1UL << size_bits, sizeof(*hash->buckets),
				GFP_KERNEL);
	if (!hash->buckets) {
		kfree(hash);
		return NULL;
	}
	hash->size_bits = size_bits;
	return hash;
}

/**
 * ftrace_hash_clear - remove every entry
 * @hash: the hash (may be NULL)
 */
void ftrace_hash_clear(struct ftrace_hash *hash)
{
	struct ftrace_func_entry *entry;
	struct hlist_node *tmp;
	unsigned long i;

	ftrace_hash_for_each_safe(hash, i, entry, tmp) {
		hlist_del(&entry->hlist);
		kfree(entry);
	}
	if (hash) {
		hash->count = 0;
		hash->flags = 0;
	}
}

/**
 * ftrace_hash_free - free a hash no reader can see any more
 * @hash: the hash (may be NULL)
 */
void ftrace_hash_free(struct ftrace_hash *hash)
{
	if (!hash)
		return;
	ftrace_hash_clear(hash);
	kfree(hash->buckets);
	kfree(hash);
}

static void hash_free_rcu(struct rcu_head *rcu)
{
	ftrace_hash_free(container_of(rcu, struct ftrace_hash, rcu));
}

/*
 * Callbacks waiting for an RCU-tasks-rude grace period, which the kernel
 * offers only synchronously: a work item waits for it, then runs them
 * all.  rude_lock is a leaf, taken with interrupts off.
 */
static DEFINE_SPINLOCK(rude_lock);
static struct rcu_head *rude_list;

static void rude_work_fn(struct work_struct *work)
{
	struct rcu_head *list, *next;

	spin_lock_irq(&rude_lock);
	list = rude_list;
	rude_list = NULL;
	spin_unlock_irq(&rude_lock);
	if (!list)
		return;
	synchronize_rcu_tasks_rude();
	for (; list; list = next) {
		next = list->next;
		list->func(list);
	}
}

static DECLARE_WORK(rude_work, rude_work_fn);

/**
 * ftrace_call_rcu_rude - call @func once no CPU can be reading what it frees
 * @head: the object's rcu_head
 * @func: what frees it
 *
 * Context: any but NMI; does not wait.
 */
void ftrace_call_rcu_rude(struct rcu_head *head, rcu_callback_t func)
{
	unsigned long flags;

	head->func = func;
	spin_lock_irqsave(&rude_lock, flags);
	head->next = rude_list;
	rude_list = head;
	spin_unlock_irqrestore(&rude_lock, flags);
	schedule_work(&rude_work);
}

/**
 * ftrace_hash_free_rude - free a hash once no CPU can be reading it
 * @hash: the hash (may be NULL), unpublished
 *
 * The call path reads hashes with preemption disabled, also where RCU is
 * not watching, hence RCU-tasks-rude.  Not waited for: a filter write
 * would otherwise hold ftrace_lock across work queued on every CPU.
 */
void ftrace_hash_free_rude(struct ftrace_hash *hash)
{
	if (hash)
		ftrace_call_rcu_rude(&hash->rcu, hash_free_rcu);
}

/**
 * ftrace_lookup_ip - the entry of an address
 * @hash: the hash (may be NULL or empty)
 * @ip: the address
 *
 * Context: any; the caller keeps @hash alive.
 * Return: the entry, or NULL.
 */
struct ftrace_func_entry *ftrace_lookup_ip(struct ftrace_hash *hash,
					   unsigned long ip)
{
	struct ftrace_func_entry *entry;

	if (!hash || !hash->count)
		return NULL;
	hlist_for_each_entry_rcu_notrace(entry,
			&hash->buckets[hash_long(ip, hash->size_bits)], hlist)
		if (entry->ip == ip)
			return entry;
	return NULL;
}

/* Best effort: a crowded hash still works. */
static void hash_grow(struct ftrace_hash *hash)
{
	unsigned int bits = hash->size_bits + 1;
	struct ftrace_func_entry *entry;
	struct hlist_head *buckets;
	struct hlist_node *tmp;
	unsigned long i;

	buckets = kcalloc(1UL << bits, sizeof(*buckets), GFP_KERNEL | __GFP_NOWARN);
	if (!buckets)
		return;
	ftrace_hash_for_each_safe(hash, i, entry, tmp) {
		hlist_del(&entry->hlist);
		hlist_add_head(&entry->hlist, &buckets[hash_long(entry->ip, bits)]);
	}
	kfree(hash->buckets);
	hash->buckets = buckets;
	hash->size_bits = bits;
}

/**
 * ftrace_hash_add - add an address
 * @hash: a hash no reader uses yet
 * @ip: the address
 *
 * Return: 0 if added or already there, -ENOMEM.
 */
int ftrace_hash_add(struct ftrace_hash *hash, unsigned long ip)
{
	struct ftrace_func_entry *entry;

	if (ftrace_lookup_ip(hash, ip))
		return 0;
	if (hash->size_bits < FTRACE_HASH_MAX_BITS &&
	    hash->count >= (2UL << hash->size_bits))
		hash_grow(hash);
	entry = kmalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return -ENOMEM;
	entry->ip = ip;
	entry->direct = 0;
	hlist_add_head(&entry->hlist,
		       &hash->buckets[hash_long(ip, hash->size_bits)]);
	hash->count++;
	return 0;
}

/**
 * ftrace_hash_remove - remove an address
 * @hash: a hash no reader uses
 * @ip: the address
 *
 * Return: whether it was there.
 */
bool ftrace_hash_remove(struct ftrace_hash *hash, unsigned long ip)
{
	struct ftrace_func_entry *entry = ftrace_lookup_ip(hash, ip);

	if (!entry)
		return false;
	hlist_del(&entry->hlist);
	kfree(entry);
	hash->count--;
	return true;
}

/**
 * ftrace_hash_copy - a private copy to edit
 * @src: the hash to copy (NULL gives an empty hash)
 *
 * Sized for its entries, so hashes shrink as well as grow.
 *
 * Return: the copy, or NULL without memory.
 */
struct ftrace_hash *ftrace_hash_copy(struct ftrace_hash *src)
{
	struct ftrace_func_entry *entry;
	struct ftrace_hash *hash;
	unsigned long i;

	hash = ftrace_hash_alloc(ftrace_hash_bits_for(src ? src->count : 0));
	if (!hash)
		return NULL;
	if (src)
		hash->flags = src->flags;
	ftrace_hash_for_each(src, i, entry) {
		if (ftrace_hash_add(hash, entry->ip)) {
			ftrace_hash_free(hash);
			return NULL;
		}
	}
	return hash;
}

/**
 * ftrace_group_hits - a hash's addresses among a group's sites in a range
 * @hash: the hash to look in; NULL or empty finds nothing
 * @g: the group
 * @start: first address
 * @end: end of the range (exclusive)
 *
 * Without memory the result holds what was found so far, so that a purge
 * still takes out what it can.
 *
 * Context: ftrace_lock held.
 * Return: a new hash of those addresses, or NULL if none.
 */
struct ftrace_hash *ftrace_group_hits(struct ftrace_hash *hash,
				      struct ftrace_group *g,
				      unsigned long start, unsigned long end)
{
	struct ftrace_hash *hits = NULL;
	struct dyn_ftrace *rec;

	ftrace_assert_locked();
	if (!hash || !hash->count)
		return NULL;
	for_each_group_rec(g, rec) {
		unsigned long ip = ftrace_rec_ip(g, rec);

		if (ip < start || ip >= end || !ftrace_lookup_ip(hash, ip))
			continue;
		if (!hits)
			hits = ftrace_hash_alloc(1);
		if (!hits || ftrace_hash_add(hits, ip))
			break;
	}
	if (hits && !hits->count) {
		ftrace_hash_free(hits);
		hits = NULL;
	}
	return hits;
}

/**
 * ftrace_hash_purged - a hash without a group's sites in a range
 * @hash: the hash; NULL or empty has none
 * @g: the group
 * @start: first address
 * @end: end of the range (exclusive)
 * @filter: @hash is a filter, not a notrace hash
 *
 * A filter emptied this way must not turn into "trace everything", so it
 * is marked as a filter with nothing in it.
 *
 * Context: ftrace_lock held.
 * Return: the copy, or NULL if @hash had none of them (or no memory).
 */
struct ftrace_hash *ftrace_hash_purged(struct ftrace_hash *hash,
				       struct ftrace_group *g,
				       unsigned long start, unsigned long end,
				       bool filter)
{
	struct ftrace_hash *hits = ftrace_group_hits(hash, g, start, end);
	struct ftrace_hash *copy = NULL;
	struct ftrace_func_entry *entry;
	unsigned long i;

	if (!hits)
		return NULL;
	copy = ftrace_hash_copy(hash);
	if (copy)
		ftrace_hash_for_each(hits, i, entry)
			ftrace_hash_remove(copy, entry->ip);
	ftrace_hash_free(hits);
	if (copy && filter && !copy->count)
		copy->flags |= FTRACE_HASH_FL_MOD;
	return copy;
}
