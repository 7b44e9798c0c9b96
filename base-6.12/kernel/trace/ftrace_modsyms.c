// SPDX-License-Identifier: GPL-2.0
/*
 * Names of freed module init functions, kept until the module goes away
 * so that trace output and stack traces can still name addresses a trace
 * recorded; and the sorted symbol addresses of a module being loaded.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "ftrace_internal.h"

struct init_sym {
	unsigned long		start;
	unsigned int		size;
	unsigned int		name;		/* offset in ->names */
};

struct init_syms {
	struct list_head	list;
	struct rcu_head		rcu;
	struct module		*mod;
	unsigned int		count;
	char			*names;
	struct init_sym		syms[];
};

/* Walked under RCU: kallsyms may ask from any context. */
static LIST_HEAD(init_syms_list);

typedef void (*init_func_fn)(void *arg, unsigned long fstart,
			     unsigned long size, const char *name);

/* Each distinct function with a site of @g in [@start, @end) that kallsyms names. */
static unsigned int walk_init_funcs(struct ftrace_group *g, unsigned long start,
				    unsigned long end, char *buf,
				    init_func_fn fn, void *arg)
{
	unsigned long size, off, last = 0;
	struct dyn_ftrace *rec;
	unsigned int n = 0;
	char *modname;

	for_each_group_rec(g, rec) {
		unsigned long ip = ftrace_rec_ip(g, rec);

		if (ip < start || ip >= end || rec->flags & FTRACE_REC_FREED)
			continue;
		if (!kallsyms_lookup(ip, &size, &off, &modname, buf) || ip - off == last)
			continue;
		last = ip - off;
		fn(arg, last, size, buf);
		n++;
	}
	return n;
}

struct fill_state {
	struct init_syms	*is;
	size_t			names_len;
	/* What the counting walk sized: the filling walk stays inside it. */
	unsigned int		max;
	size_t			names_room;
};

static void count_name(void *arg, unsigned long fstart, unsigned long size,
		       const char *name)
{
	struct fill_state *st = arg;

	st->names_len += strlen(name) + 1;
}

static void fill_name(void *arg, unsigned long fstart, unsigned long size,
		      const char *name)
{
	struct fill_state *st = arg;
	size_t len = strlen(name) + 1;
	struct init_sym *s;

	/*
	 * Both walks should see the same functions; never trust that with
	 * the buffer.  memcpy() of the exact length: strscpy() may store
	 * whole words past the end of the last name.
	 */
	if (st->is->count == st->max || len > st->names_room - st->names_len)
		return;
	s = &st->is->syms[st->is->count++];
	s->start = fstart;
	s->size = min_t(unsigned long, size, UINT_MAX);
	s->name = st->names_len;
	memcpy(st->is->names + s->name, name, len);
	st->names_len += len;
}

/**
 * ftrace_save_init_syms - keep the names of a module's init functions
 * @g: the module's group
 * @start: start of the init text about to be freed
 * @end: its end
 *
 * Call while kallsyms still knows the names.  Without memory they are not kept.
 *
 * Context: ftrace_lock held.
 */
void ftrace_save_init_syms(struct ftrace_group *g, unsigned long start,
			   unsigned long end)
{
	struct fill_state st = { };
	unsigned int n;
	char *buf;

	ftrace_assert_locked();
	buf = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	if (!buf)
		return;
	n = walk_init_funcs(g, start, end, buf, count_name, &st);
	if (!n)
		goto out;
	st.is = kvzalloc(struct_size(st.is, syms, n) + st.names_len, GFP_KERNEL);
	if (!st.is)
		goto out;
	st.is->mod = g->mod;
	st.is->names = (char *)&st.is->syms[n];
	st.max = n;
	st.names_room = st.names_len;
	st.names_len = 0;
	walk_init_funcs(g, start, end, buf, fill_name, &st);
	/*
	 * Newest first: a later module's init text may reuse an earlier
	 * one's range, and its names are what that address means now.
	 */
	list_add_rcu(&st.is->list, &init_syms_list);
out:
	kfree(buf);
}

/**
 * ftrace_drop_init_syms - forget a module's init function names
 * @mod: the module, going away
 *
 * Context: ftrace_lock held.
 */
void ftrace_drop_init_syms(struct module *mod)
{
	struct init_syms *is, *tmp;

	ftrace_assert_locked();
	list_for_each_entry_safe(is, tmp, &init_syms_list, list) {
		if (is->mod != mod)
			continue;
		list_del_rcu(&is->list);
		kvfree_rcu(is, rcu);
	}
}

static struct init_sym *init_sym_find(struct init_syms *is, unsigned long addr)
{
	unsigned int lo = 0, hi = is->count;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (is->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - is->syms[lo - 1].start >= is->syms[lo - 1].size)
		return NULL;
	return &is->syms[lo - 1];
}

/**
 * ftrace_mod_address_lookup - name a trampoline or a freed module init function
 * @addr: an address kallsyms could not name
 * @size: gets the function's size (may be NULL)
 * @off: gets @addr's offset in it (may be NULL)
 * @modname: gets the module's name (may be NULL)
 * @modbuildid: gets NULL: no build id is kept (may be NULL)
 * @sym: KSYM_NAME_LEN bytes for the name
 *
 * Context: any; lockless.
 * Return: the length of the name in @sym, or 0 if @addr is neither in a
 * trampoline nor in a freed init function of a loaded module.
 */
int ftrace_mod_address_lookup(unsigned long addr, unsigned long *size,
			      unsigned long *off, char **modname,
			      const unsigned char **modbuildid, char *sym)
{
	struct init_syms *is;
	struct init_sym *s;
	int ret = 0;

	if (ftrace_tramp_lookup(addr, size, off, modname, sym)) {
		if (modbuildid)
			*modbuildid = NULL;
		return strlen(sym);
	}
	preempt_disable();
	list_for_each_entry_rcu(is, &init_syms_list, list) {
		s = init_sym_find(is, addr);
		if (!s)
			continue;
		if (size)
			*size = s->size;
		if (off)
			*off = addr - s->start;
		if (modname)
			*modname = is->mod->name;
		if (modbuildid)
			*modbuildid = NULL;
		ret = strscpy(sym, is->names + s->name, KSYM_NAME_LEN);
		if (ret < 0)
			ret = KSYM_NAME_LEN - 1;
		break;
	}
	preempt_enable();
	return ret;
}

/**
 * ftrace_mod_get_kallsym - /proc/kallsyms lines of ftrace's own names
 * @symnum: which one, from 0: freed init functions, then trampolines
 * @value: gets its address
 * @type: gets 'T', or 't' for a trampoline
 * @name: KSYM_NAME_LEN bytes for its name
 * @module_name: MODULE_NAME_LEN bytes for its module's name
 * @exported: gets 1, or 0 for a trampoline
 *
 * Return: 0, or -ERANGE past the last one.
 */
int ftrace_mod_get_kallsym(unsigned int symnum, unsigned long *value,
			   char *type, char *name, char *module_name,
			   int *exported)
{
	struct init_syms *is;
	int ret = -ERANGE;

	preempt_disable();
	list_for_each_entry_rcu(is, &init_syms_list, list) {
		if (symnum >= is->count) {
			symnum -= is->count;
			continue;
		}
		*value = is->syms[symnum].start;
		*type = 'T';
		strscpy(name, is->names + is->syms[symnum].name, KSYM_NAME_LEN);
		strscpy(module_name, is->mod->name, MODULE_NAME_LEN);
		*exported = 1;
		ret = 0;
		break;
	}
	preempt_enable();
	if (ret) {
		ret = ftrace_tramp_kallsym(symnum, value, type, name, module_name);
		*exported = 0;
	}
	return ret;
}

/* Symbols kallsyms never names a module address after ($a, $d, $x, .L...). */
static bool sym_unnamed(const char *name)
{
	return !name[0] || (name[0] == '.' && name[1] == 'L') ||
	       (name[0] == '$' && name[1] && strchr("axtd", name[1]) &&
		(!name[2] || name[2] == '.'));
}

/**
 * ftrace_mod_sym_addrs - the sorted addresses of a loading module's symbols
 * @mod: the module, past its formation and before its init has run
 * @count: set to the number of addresses
 *
 * kallsyms walks every symbol of a module per lookup; with these sorted,
 * one merge finds the symbol below each sorted site.  Before init only
 * the loader's thread replaces the module's table, so it stays put.
 *
 * Return: the array, to be kvfree()d, or NULL without memory.
 */
unsigned long *ftrace_mod_sym_addrs(struct module *mod, unsigned long *count)
{
	struct mod_kallsyms *ks;
	unsigned long *addrs;
	unsigned int i, n = 0;

	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	preempt_enable();
	addrs = kvmalloc_array(max(ks->num_symtab, 1U), sizeof(*addrs), GFP_KERNEL);
	if (!addrs)
		return NULL;
	for (i = 0; i < ks->num_symtab; i++) {
		const Elf_Sym *sym = &ks->symtab[i];

		if (sym->st_shndx == SHN_UNDEF || sym_unnamed(ks->strtab + sym->st_name))
			continue;
		addrs[n++] = kallsyms_symbol_value(sym);
	}
	*count = ftrace_sort_ips(addrs, n);
	return addrs;
}
