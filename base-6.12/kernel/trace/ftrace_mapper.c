// SPDX-License-Identifier: GPL-2.0
/*
 * Address -> data maps, which function probes keep per call site
 * (allocate_ftrace_func_mapper() and friends).
 */
#include <linux/seq_file.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

#define MAPPER_BITS	10

struct ftrace_func_map {
	struct hlist_node	node;
	unsigned long		ip;
	void			*data;
	struct rcu_head		rcu;
};

struct ftrace_func_mapper {
	struct hlist_head	heads[1 << MAPPER_BITS];
};

/**
 * allocate_ftrace_func_mapper - an empty address -> data map
 *
 * Return: the map, or NULL.
 */
struct ftrace_func_mapper *allocate_ftrace_func_mapper(void)
{
	return kvzalloc(sizeof(struct ftrace_func_mapper), GFP_KERNEL);
}

static struct ftrace_func_map *map_find(struct ftrace_func_mapper *mapper,
					unsigned long ip)
{
	struct ftrace_func_map *map;

	hlist_for_each_entry_rcu_notrace(map, &mapper->heads[hash_long(ip, MAPPER_BITS)], node)
		if (map->ip == ip)
			return map;
	return NULL;
}

/**
 * ftrace_func_mapper_find_ip - the data slot of an address
 * @mapper: the map
 * @ip: the address
 *
 * Context: a probe callback, or ftrace_lock held.
 * Return: a pointer to the slot, or NULL.
 */
void **ftrace_func_mapper_find_ip(struct ftrace_func_mapper *mapper,
				  unsigned long ip)
{
	struct ftrace_func_map *map = map_find(mapper, ip);

	return map ? &map->data : NULL;
}

/**
 * ftrace_func_mapper_add_ip - map an address to data
 * @mapper: the map
 * @ip: the address
 * @data: the data
 *
 * Return: 0, -EBUSY if mapped already, -ENOMEM.
 */
int ftrace_func_mapper_add_ip(struct ftrace_func_mapper *mapper,
			      unsigned long ip, void *data)
{
	struct ftrace_func_map *map;

	if (map_find(mapper, ip))
		return -EBUSY;
	map = kmalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;
	map->ip = ip;
	map->data = data;
	hlist_add_head_rcu(&map->node, &mapper->heads[hash_long(ip, MAPPER_BITS)]);
	return 0;
}

static void map_free_rcu(struct rcu_head *rcu)
{
	kfree(container_of(rcu, struct ftrace_func_map, rcu));
}

/**
 * ftrace_func_mapper_remove_ip - unmap an address no callback can see
 * @mapper: the map
 * @ip: the address
 *
 * The callback for another address of the bucket may be walking past the
 * entry, maybe where RCU is not watching: freed after RCU-tasks-rude.
 *
 * Return: its data, or NULL.
 */
void *ftrace_func_mapper_remove_ip(struct ftrace_func_mapper *mapper,
				   unsigned long ip)
{
	struct ftrace_func_map *map = map_find(mapper, ip);
	void *data;

	if (!map)
		return NULL;
	data = map->data;
	hlist_del_rcu(&map->node);
	ftrace_call_rcu_rude(&map->rcu, map_free_rcu);
	return data;
}

/**
 * free_ftrace_func_mapper - free a map
 * @mapper: the map (may be NULL)
 * @free_func: called on each entry's data, if not NULL
 */
void free_ftrace_func_mapper(struct ftrace_func_mapper *mapper,
			     ftrace_mapper_func free_func)
{
	struct ftrace_func_map *map;
	struct hlist_node *tmp;
	int i;

	if (!mapper)
		return;
	for (i = 0; i < ARRAY_SIZE(mapper->heads); i++) {
		hlist_for_each_entry_safe(map, tmp, &mapper->heads[i], node) {
			if (free_func)
				free_func(map->data);
			kfree(map);
		}
	}
	kvfree(mapper);
}
