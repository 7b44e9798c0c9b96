/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the dynamic ftrace core, shared by its files in
 * kernel/trace.  Design: Documentation/trace/ftrace-core-design.rst.
 *
 * Layers, lowest first; a file calls only files of its own layer or lower
 * ones, and no two files call each other (scripts/check-ftrace-layers.py
 * checks the built objects against this table):
 *   1 data:          ftrace_rec.c ftrace_hash.c ftrace_match.c ftrace_mapper.c
 *   2 call path:     ftrace_call.c ftrace_call_direct.c fgraph_stack.c
 *   3 trampolines:   ftrace_tramp.c
 *   4 update engine: ftrace_update.c
 *   5 registration:  ftrace_ops.c ftrace_share.c
 *   6 clients:       ftrace_editor.c ftrace_direct.c ftrace_command.c
 *                    ftrace_probe.c ftrace_mod_cache.c ftrace_pid.c
 *                    ftrace_modsyms.c fgraph_ops.c fgraph_filter.c
 *                    trace_functions_graph.c fgraph_profile.c
 *                    ftrace_profile_slots.c ftrace_profile.c
 *   7 lifecycle:     ftrace_lifecycle.c ftrace_module.c
 *   8 tracefs:       ftrace_tracefs.c ftrace_tracefs_filter.c fgraph_tracefs.c
 *                    trace_functions.c
 *   9 tests:         ftrace_kunit_match.c ftrace_kunit_hash.c ftrace_kunit_rec.c
 *                    ftrace_kunit_state.c fgraph_kunit.c
 * Data: records, hashes, globs.  The call path: what a traced call runs,
 * without a lock.  Trampolines and the update engine return errors and
 * flags rather than call up; the update engine alone patches sites.
 * Registration: the ops list and the sharing of sites by IPMODIFY and
 * direct ops.  Clients: the APIs built on registration and the tracers'
 * cores.  Lifecycle: boot, and text that goes away; the only place that
 * takes event_mutex and trace_types_lock.  The arch back ends see the core
 * through <linux/ftrace_arch.h> alone.
 *
 * Locks, outermost first, as the code nests them; a function that relies
 * on one asserts it with lockdep:
 *   ff->lock          (ftrace_tracefs_filter.c) one write to a filter file
 *   ftrace_cmd_mutex  (ftrace_command.c) the commands; held while one runs
 *   event_mutex       (trace_events.c) held by event commands and perf
 *                     around probes and registration; the lifecycle takes
 *                     it to free probes' data on text that goes away
 *   trace_types_lock  (trace.c) held by tracer switches, options and
 *                     instances around registration; the lifecycle takes
 *                     it to reach every trace array
 *   profile_lock      (ftrace_profile.c) the profiler on or off
 *   probe_mutex       (ftrace_probe.c) function probes; ->init() and
 *                     ->print() run under ftrace_lock too, ->free() after it
 *   (clients' own: kprobe_mutex, klp_mutex, BPF's trampoline mutex)
 *   regex_lock or     (ops->func_hash, ftrace_editor.c) an edit's copy and
 *   direct_mutex      commit; (ftrace_share.c) the direct-call API and the
 *                     requests to IPMODIFY peers.  Never held together.
 *   ftrace_lock       (ftrace_rec.c) records, groups, the ops list, every
 *                     ops' hashes, trampolines, the direct functions, pid
 *                     lists, :mod: caches; held across RCU-tasks waits
 *   (tracepoints_mutex, cpu_hotplug_lock, jump_label_mutex: probes and
 *                     static keys of the pid filter and the graph core)
 *   text_mutex        the arch's: x86 in a batch and when it repoints a
 *                     callback, arm64 in a batch and in init_begin/_end,
 *                     where no ftrace lock is held
 *   fgraph_give_lock  (fgraph_ops.c, raw) handing a task its return stack
 * ts_lock (fgraph_profile.c) is taken alone, under trace_stat's mutex.
 * The call path reads the ops list and hashes with preemption disabled
 * and takes no lock.
 */
#ifndef _KERNEL_TRACE_FTRACE_INTERNAL_H
#define _KERNEL_TRACE_FTRACE_INTERNAL_H

#include <linux/bitfield.h>
#include <linux/ftrace.h>
#include <linux/ftrace_arch.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>

#include "trace_stat.h"

#ifdef CONFIG_FUNCTION_TRACER

extern struct mutex ftrace_lock;
extern struct ftrace_ops global_ops;

#define ftrace_assert_locked()	lockdep_assert_held(&ftrace_lock)

/*
 * ops->role: what the core makes of an ops besides its flags.  Every
 * client outside kernel/trace leaves it FTRACE_ROLE_CALLBACK; the others
 * belong to the core's own tracers.
 *
 * PID: a callback run only where set_ftrace_pid and set_ftrace_notrace_pid
 *	of the trace_array in ->private let the current task through (an ops
 *	without one yet runs everywhere).
 * SITES: never called; the ops only stands for its sites (the end of the
 *	ops list, the graph filter files' ops).
 * DIRECT: the direct calls' ops (ftrace_direct.c); its sites call their
 *	direct function, not the ops' callback.
 */
enum ftrace_ops_role {
	FTRACE_ROLE_CALLBACK,
	FTRACE_ROLE_PID,
	FTRACE_ROLE_SITES,
	FTRACE_ROLE_DIRECT,
};

/* A graph user's ops: the arch's ftrace_graph_func() hooks the return. */
#define FGRAPH_OPS_ROLE		FTRACE_ROLE_CALLBACK

#ifdef CONFIG_DYNAMIC_FTRACE

/* ---- Call-site records (ftrace_rec.c) ---- */

/*
 * One call site: 8 bytes.  The address is an offset from its group's base
 * (a group's text never spans 4 GiB), the rest is its state.
 */
struct dyn_ftrace {
	u32			off;
	u32			flags;
};

/*
 * rec->flags: how many ops want the site and what they need (recounted),
 * what the site holds now (changed only by patching), and FREED.  The
 * count saturates: only 0, 1 and "more" change what the site calls.
 */
#define FTRACE_REC_REF_MASK	GENMASK(7, 0)	/* ops that want the site */
#define FTRACE_REC_USED		BIT(8)		/* it has been a call since boot */
#define FTRACE_REC_MODIFIED	BIT(9)		/* ... for a direct or IPMODIFY ops */
#define FTRACE_REC_TRAMP	GENMASK(16, 10)	/* the one ops' trampoline slot */
#define FTRACE_REC_REGS		BIT(17)		/* one of them wants pt_regs */
#define FTRACE_REC_IPMODIFY	BIT(18)		/* an IPMODIFY ops owns it */
#define FTRACE_REC_ENABLED	BIT(19)		/* the site is a call now */
#define FTRACE_REC_REGS_EN	BIT(20)		/* ... that saves all registers */
#define FTRACE_REC_FREED	BIT(21)		/* its text was freed, or is dead */
#define FTRACE_REC_TRAMP_EN	GENMASK(28, 22)	/* ... to this trampoline slot */
#define FTRACE_REC_DIRECT	BIT(29)		/* it has a direct function */
#define FTRACE_REC_DIRECT_EN	BIT(30)		/* ... which the site calls */
#define FTRACE_REC_TOUCHED	BIT(31)		/* to recount (ftrace_touch_sites()) */

/* The bits that say what instruction the site holds */
#define FTRACE_REC_SITE		(FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN | \
				 FTRACE_REC_TRAMP_EN | FTRACE_REC_DIRECT_EN)

/* The bits a recount keeps: the site, and its history (touched_functions) */
#define FTRACE_REC_KEEP		(FTRACE_REC_SITE | FTRACE_REC_FREED | \
				 FTRACE_REC_USED | FTRACE_REC_MODIFIED)

/*
 * The records of vmlinux or of one module, sorted by address, on an RCU
 * list: lookups run under rcu_read_lock() or ftrace_lock.
 */
struct ftrace_group {
	struct list_head	list;
	struct module		*mod;
	unsigned long		base;
	unsigned long		last;
	unsigned int		count;
	unsigned int		freed;		/* records of freed text */
	unsigned int		pages;
	/*
	 * Not counted or patched until set (a module's in
	 * ftrace_module_enable()): its module is not formed yet.
	 */
	bool			ready;
	struct rcu_head		rcu;
	struct dyn_ftrace	recs[];
};

extern struct list_head ftrace_groups;
extern unsigned long ftrace_groups_gen;		/* bumped on add/remove */
extern unsigned long ftrace_update_tot_cnt;
extern unsigned long ftrace_number_of_pages;
extern unsigned long ftrace_number_of_groups;

static inline unsigned long ftrace_rec_ip(const struct ftrace_group *g,
					  const struct dyn_ftrace *rec)
{
	return g->base + rec->off;
}

static inline unsigned int ftrace_rec_count(const struct dyn_ftrace *rec)
{
	return rec->flags & FTRACE_REC_REF_MASK;
}

#define for_each_ftrace_group(g) \
	list_for_each_entry_rcu(g, &ftrace_groups, list, lockdep_is_held(&ftrace_lock))

#define for_each_group_rec(g, rec) \
	for (rec = (g)->recs; rec < (g)->recs + (g)->count; rec++)

/*
 * Every registered ops, without the list's end stub.  The call path walks
 * the RCU list with preemption disabled, writers hold ftrace_lock.  A NULL
 * link ends the walk too, so that an ops unlinked under a reader cannot
 * send it off the end.
 */
#define for_each_ftrace_op(op, list)						\
	for (op = rcu_dereference_raw_check(list);				\
	     likely(op) && op != &ftrace_list_end;				\
	     op = rcu_dereference_raw_check((op)->next))

struct dyn_ftrace *ftrace_find_rec(unsigned long ip, struct ftrace_group **gp);
struct dyn_ftrace *ftrace_group_find(struct ftrace_group *g,
				     unsigned long start, unsigned long end);
int ftrace_sort_ips(unsigned long *ips, unsigned long count);
struct ftrace_group *ftrace_group_create(struct module *mod,
					 const unsigned long *ips,
					 unsigned long count);
void ftrace_group_destroy(struct ftrace_group *g);
void ftrace_group_destroy_rcu(struct ftrace_group *g);
unsigned int ftrace_group_trim(struct ftrace_group *g);
void ftrace_group_publish(struct ftrace_group *g);
void ftrace_group_unpublish(struct ftrace_group *g);
void ftrace_adjust_ips(unsigned long *ips, unsigned long count);

/* ---- Hashes of addresses (ftrace_hash.c) ---- */

#define FTRACE_HASH_MAX_BITS	12

struct ftrace_hash *ftrace_hash_alloc(unsigned int size_bits);
void ftrace_hash_free_rude(struct ftrace_hash *hash);
void ftrace_call_rcu_rude(struct rcu_head *head, rcu_callback_t func);
struct ftrace_hash *ftrace_hash_copy(struct ftrace_hash *src);
void ftrace_hash_free(struct ftrace_hash *hash);
void ftrace_hash_clear(struct ftrace_hash *hash);
int ftrace_hash_add(struct ftrace_hash *hash, unsigned long ip);
bool ftrace_hash_remove(struct ftrace_hash *hash, unsigned long ip);
unsigned int ftrace_hash_bits_for(unsigned long count);

/* Two loops: a break in the body leaves only the bucket (use a goto). */
#define ftrace_hash_for_each(hash, i, entry)				\
	for (i = 0; (hash) && i < (1UL << (hash)->size_bits); i++)	\
		hlist_for_each_entry(entry, &(hash)->buckets[i], hlist)

#define ftrace_hash_for_each_safe(hash, i, entry, tmp)			\
	for (i = 0; (hash) && i < (1UL << (hash)->size_bits); i++)	\
		hlist_for_each_entry_safe(entry, tmp, &(hash)->buckets[i], hlist)

struct ftrace_hash *ftrace_group_hits(struct ftrace_hash *hash,
				      struct ftrace_group *g,
				      unsigned long start, unsigned long end);
struct ftrace_hash *ftrace_hash_purged(struct ftrace_hash *hash,
				       struct ftrace_group *g,
				       unsigned long start, unsigned long end,
				       bool filter);

/* ---- Globs and names (ftrace_match.c) ---- */

/* A parsed "glob[:mod:module]", or a position ("42") */
struct ftrace_glob {
	char			*search;
	int			len;
	int			type;		/* enum regex_type of trace.h */
	unsigned long		pos;		/* MATCH_INDEX: position, from 1 */
};

void ftrace_glob_parse(struct ftrace_glob *g, char *str);
bool ftrace_glob_match(const struct ftrace_glob *g, const char *name);

/* One pattern of a write; a whole write is matched in one pass. */
struct ftrace_pattern {
	struct list_head	list;
	struct ftrace_glob	func;
	char			*module;	/* NULL: any module or none */
	struct ftrace_glob	mod;		/* the module glob, "" for every module */
	bool			mod_exclude;	/* ":mod:!glob": outside those modules */
	bool			remove;
	bool			exact;
	unsigned long		hits;
	char			text[];
};

int ftrace_match_patterns(struct list_head *patterns, struct ftrace_hash *hash);

/* ---- The call path (ftrace_call.c, ftrace_call_direct.c) ---- */

extern struct ftrace_ops __rcu *ftrace_ops_list;
extern struct ftrace_ops *function_trace_op;
extern int ftrace_dead;
extern int ftrace_last_enabled;

void ftrace_ops_init(struct ftrace_ops *ops);
bool ftrace_ops_wants(struct ftrace_ops *ops, unsigned long ip);
bool ftrace_ops_registered(struct ftrace_ops *ops);
int ftrace_ops_test(struct ftrace_ops *ops, unsigned long ip, void *regs);
void ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs);
void arch_ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op, struct ftrace_regs *fregs);
bool ftrace_ops_outlives_death(struct ftrace_ops *ops);
bool ftrace_ops_any_outlives_death(void);
void ftrace_ops_dead_list_func(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op, struct ftrace_regs *fregs);

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
extern struct ftrace_hash __rcu *ftrace_direct_funcs;
void ftrace_direct_call(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *op, struct ftrace_regs *fregs);
#else
/* No ops has the direct role in such a kernel: never called. */
static inline void ftrace_direct_call(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *op, struct ftrace_regs *fregs) { }
#endif

/*
 * A direct ops' sites call their direct function; where the list walk
 * meets one (a shared site), the core's ftrace_direct_call() finds it,
 * whatever the owner left in ->func.
 */
static __always_inline ftrace_func_t ftrace_ops_callback(struct ftrace_ops *op)
{
	return op->role == FTRACE_ROLE_DIRECT ? ftrace_direct_call : op->func;
}

/* ---- Per-ops trampolines (ftrace_tramp.c) ---- */

/*
 * Slots 1..FTRACE_TRAMP_SLOTS; 0 means none.  Records hold slots from
 * FTRACE_REC_SLOT_FAR on as that one value; the patcher finds the number.
 */
#define FTRACE_REC_SLOT_FAR	127

/* ftrace_tramps_refresh(): a trampoline was given up, recount every site. */
#define FTRACE_TRAMPS_GAVE_UP	1

int ftrace_tramp_get(struct ftrace_ops *ops);
int ftrace_tramp_put(struct ftrace_ops *ops, unsigned long *where);
unsigned int ftrace_tramps_reap(void);
void ftrace_tramps_mark(void);
unsigned int ftrace_tramps_reap_marked(bool *more);
bool ftrace_tramps_pending(void);
int ftrace_tramps_refresh(unsigned long *where);
void ftrace_tramps_stop(void);
unsigned long ftrace_tramp_addr(unsigned int slot);
ftrace_func_t ftrace_tramp_func(unsigned int slot);
ftrace_func_t ftrace_tramp_ops_func(unsigned int slot);
bool ftrace_tramp_sites(unsigned int slot, int delta);
const char *ftrace_tramp_lookup(unsigned long addr, unsigned long *size,
				unsigned long *off, char **modname, char *sym);
int ftrace_tramp_kallsym(unsigned int symnum, unsigned long *value,
			 char *type, char *name, char *module_name);

/* ---- The update engine: turning sites on and off (ftrace_update.c) ---- */

int ftrace_apply(void);
int ftrace_apply_touched(void);
void ftrace_touch_sites(struct ftrace_hash *filter);
void ftrace_touch_group(struct ftrace_group *g);
void ftrace_touch_all(void);
void ftrace_touch_ops(struct ftrace_ops *ops);
void ftrace_adopt_slots(void);
void ftrace_tramps_reap_later(void);
int ftrace_retarget_direct(struct ftrace_hash *sites, unsigned long ip,
			   struct ftrace_hash *funcs, unsigned long addr);
void ftrace_unpatch_dead_direct(struct ftrace_hash *sites, unsigned long ip,
				unsigned long addr);
u32 ftrace_rec_recount(u32 flags, unsigned long ip, struct ftrace_ops *list);
u32 ftrace_rec_wanted(u32 flags, bool enabled);
unsigned long ftrace_rec_target(u32 flags, unsigned long ip);
unsigned int ftrace_rec_slot(u32 flags, unsigned long ip);
int ftrace_set_callback(ftrace_func_t func);
ftrace_func_t ftrace_shared_callback(struct ftrace_ops *list, bool enabled,
				     struct ftrace_ops **opp);
void ftrace_anomaly(const char *what, unsigned long ip, int err);
int ftrace_init_group_sites(struct ftrace_group *g);
unsigned int ftrace_retire_dead_sites(struct ftrace_group *g, const unsigned long *syms,
				      unsigned long nsyms);
unsigned int ftrace_retire_range(struct ftrace_group *g, unsigned long start,
				 unsigned long end);
int ftrace_check_ipmodify(struct ftrace_ops *ops, struct ftrace_hash *filter,
			  struct ftrace_hash *notr);

/* ---- Registration (ftrace_ops.c, ftrace_share.c) ---- */

int ftrace_startup(struct ftrace_ops *ops, int command);
int ftrace_shutdown(struct ftrace_ops *ops, int command);
void ftrace_sync_unlinked(void);
int ftrace_ops_set_hashes(struct ftrace_ops *ops, struct ftrace_hash *filter,
			  struct ftrace_hash *notr);

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
int ftrace_direct_check_share(struct ftrace_ops *list, struct ftrace_ops *ops,
			      struct ftrace_hash *filter, struct ftrace_hash *notr);
int ftrace_direct_tell_peers(struct ftrace_ops *ops, enum ftrace_ops_cmd cmd);
int ftrace_direct_check_filter(struct ftrace_ops *ops, struct ftrace_hash *filter);
void ftrace_direct_lock(void);
void ftrace_direct_unlock(void);
void ftrace_direct_assert_locked(void);
#else
static inline int ftrace_direct_check_share(struct ftrace_ops *list,
					    struct ftrace_ops *ops,
					    struct ftrace_hash *filter,
					    struct ftrace_hash *notr)
{
	return 0;
}

static inline int ftrace_direct_tell_peers(struct ftrace_ops *ops, enum ftrace_ops_cmd cmd)
{
	return 0;
}

static inline int ftrace_direct_check_filter(struct ftrace_ops *ops,
					     struct ftrace_hash *filter)
{
	return 0;
}

static inline void ftrace_direct_lock(void) { }
static inline void ftrace_direct_unlock(void) { }
static inline void ftrace_direct_assert_locked(void) { }
#endif

/* ---- Clients: the filter editor (ftrace_editor.c) ---- */

struct ftrace_filter_edit;

/* What the owner of an edit (the tracefs files) adds to the core's editor. */
struct ftrace_filter_edit_ext {
	/* A ":cmd" token, once every pattern has matched; no lock held. */
	int	(*token)(struct ftrace_filter_edit *e, char *token, char *cmd,
			 char *param);
	/* The edit is being committed: regex_lock and ftrace_lock held. */
	void	(*commit)(struct ftrace_filter_edit *e);
	/* The edit ends, committed or not: regex_lock and ftrace_lock held. */
	void	(*done)(struct ftrace_filter_edit *e);
};

/*
 * An edit of one hash of an ops.  @install, if set by the owner after
 * ftrace_filter_edit_begin(), puts the committed hash in place instead of
 * ftrace_ops_set_hashes() (the graph filter files' ops, which is never
 * registered): it owns @hash, and runs with regex_lock and ftrace_lock held.
 */
struct ftrace_filter_edit {
	struct ftrace_ops		*ops;
	struct ftrace_hash		*hash;
	const struct ftrace_filter_edit_ext *ext;
	int				(*install)(struct ftrace_filter_edit *e);
	bool				notr;
	bool				truncate;
};

int ftrace_filter_edit_begin(struct ftrace_filter_edit *e, struct ftrace_ops *ops,
			     const struct ftrace_filter_edit_ext *ext, bool notr,
			     bool reset);
int ftrace_filter_edit_text(struct ftrace_filter_edit *e, char *text);
int ftrace_filter_edit_end(struct ftrace_filter_edit *e, bool commit);
void __init ftrace_set_early_filter_install(struct ftrace_ops *ops, char *buf,
					    int enable,
					    int (*install)(struct ftrace_filter_edit *e));
int ftrace_pattern_add(struct list_head *batch, const char *token,
		       const char *module);
void ftrace_patterns_free(struct list_head *batch);
void ftrace_free_filter_locked(struct ftrace_ops *ops);

/* ---- Clients: direct calls (ftrace_direct.c) and pid filtering (ftrace_pid.c) ---- */

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
struct ftrace_hash *ftrace_direct_funcs_edit(struct ftrace_hash *src, struct ftrace_hash *sites,
					     unsigned long addr, unsigned long old);
void ftrace_direct_purge(struct ftrace_group *g, unsigned long start, unsigned long end);
#else
static inline struct ftrace_hash *
ftrace_direct_funcs_edit(struct ftrace_hash *src, struct ftrace_hash *sites,
			 unsigned long addr, unsigned long old)
{
	return NULL;
}

static inline void ftrace_direct_purge(struct ftrace_group *g, unsigned long start,
				       unsigned long end) { }
#endif

void ftrace_update_pid_func(void);

/* ---- Clients: filter commands, function probes, the :mod: cache ---- */

void ftrace_probes_lock(void);
void ftrace_probes_unlock(void);
void ftrace_probes_show(struct seq_file *m, struct trace_array *tr);
void ftrace_probes_purge(struct trace_array *tr, struct ftrace_group *g,
			 unsigned long start, unsigned long end);
int ftrace_run_command(struct trace_array *tr, struct ftrace_hash *hash,
		       char *func, char *cmd, char *param, int enable);
void ftrace_mod_cache_apply(struct trace_array *tr, struct module *mod);
void ftrace_mod_cache_show(struct seq_file *m, struct list_head *head);
int ftrace_mod_cache_add(struct trace_array *tr, struct list_head *head,
			 const char *func, const char *module, bool remove);
void ftrace_mod_cache_clear(struct list_head *head);
int ftrace_mod_cache_copy(struct list_head *dst, struct list_head *src);

/* The function profiler (ftrace_profile.c, fgraph_profile.c) */
struct profile_slot {
	unsigned long	ip;
	unsigned long	hits;
	u64		time;		/* with the graph tracer: total ns */
	u64		time_sq;	/* and the sum of squares */
};

/* One CPU's table (ftrace_profile_slots.c), shown as trace_stat/functionN */
struct profile_cpu {
	struct tracer_stat	stat;
	char			name[24];
	unsigned long		dropped;
	struct profile_slot	*slots;
};

#ifdef CONFIG_FUNCTION_PROFILER
extern struct profile_cpu **ftrace_profiles;
extern unsigned int ftrace_profile_bits;

void ftrace_profile_tracefs(struct dentry *d_tracer);
void ftrace_profile_count(unsigned long ip);
struct profile_slot *ftrace_profile_find(unsigned long ip);
#else
static inline void ftrace_profile_tracefs(struct dentry *d_tracer) { }
#endif

#if defined(CONFIG_FUNCTION_PROFILER) && defined(CONFIG_FUNCTION_GRAPH_TRACER)
static inline bool fgraph_profile_timed(void) { return true; }
int fgraph_profile_start(void);
void fgraph_profile_stop(void);
bool fgraph_profile_hidden(struct profile_slot *s);
void fgraph_profile_show_times(struct seq_file *m, struct profile_slot *s);
#else
static inline bool fgraph_profile_timed(void) { return false; }
static inline int fgraph_profile_start(void) { return -ENODEV; }
static inline void fgraph_profile_stop(void) { }
static inline bool fgraph_profile_hidden(struct profile_slot *s) { return false; }
static inline void fgraph_profile_show_times(struct seq_file *m,
					     struct profile_slot *s) { }
#endif

/* Names of freed module init functions, module symbols (ftrace_modsyms.c) */
#ifdef CONFIG_MODULES
void ftrace_save_init_syms(struct ftrace_group *g, unsigned long start,
			   unsigned long end);
void ftrace_drop_init_syms(struct module *mod);
unsigned long *ftrace_mod_sym_addrs(struct module *mod, unsigned long *count);
#else
static inline void ftrace_save_init_syms(struct ftrace_group *g,
					 unsigned long start, unsigned long end) { }
static inline void ftrace_drop_init_syms(struct module *mod) { }
#endif

/* ---- The graph core (fgraph_stack.c, fgraph_ops.c, fgraph_filter.c) ---- */

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/* Words of a task's data stack, where entry callbacks reserve data. */
#define FGRAPH_DATA_WORDS	192
/* The most one reservation takes, in bytes. */
#define FGRAPH_MAX_RESERVE	(sizeof(long) * 32)

/*
 * A task's graph state, which task->ret_stack points at.  Only the task
 * itself changes it (but for a stack it is given before it runs), nested
 * interrupts popping all they pushed before it goes on:
 * t->curr_ret_stack counts the frames in use, t->curr_ret_depth the
 * words of @data.
 * @frames: the hooked calls, outermost first
 * @vars: fgraph_get_task_var()'s word of each user index
 * @resv: the user index whose entry callback may reserve data now, or -1
 * @ret_lo, @ret_hi: the words of @data that belong to the call whose return
 *	callbacks run now (ret_hi 0: none)
 * @data: what entry callbacks reserved, each block followed by a word
 *	that says whose it is and how long
 */
struct fgraph_task {
	struct ftrace_ret_stack	frames[FTRACE_RETFUNC_DEPTH];
	unsigned long		vars[FGRAPH_USERS];
	/*
	 * How many frames each user holds, its ftrace_graph_ent.depth: a
	 * user's depth does not count the calls only others took.
	 */
	u8			depth[FGRAPH_USERS];
	s8			resv;
	u16			ret_lo;
	u16			ret_hi;
	unsigned long		data[FGRAPH_DATA_WORDS];
};

/* A return's value, where the build records it (else 0). */
static inline unsigned long fgraph_retval(const struct ftrace_graph_ret *trace)
{
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	return trace->retval;
#else
	return 0;
#endif
}

static inline void fgraph_set_retval(struct ftrace_graph_ret *trace,
				     unsigned long retval)
{
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	trace->retval = retval;
#endif
}

static inline struct fgraph_task *fgraph_task_of(struct task_struct *t)
{
	return (struct fgraph_task *)READ_ONCE(t->ret_stack);
}

/*
 * The registered users by index, and the registration count when each
 * index was last given out (a frame's seq below it was not this user's).
 */
extern struct fgraph_ops __rcu *fgraph_users[FGRAPH_USERS];
extern u32 fgraph_users_seq[FGRAPH_USERS];
extern u32 fgraph_seq;
extern bool fgraph_stacks_wanted;
extern bool fgraph_graph_time;
void fgraph_set_graph_time(bool enable);

struct fgraph_task *fgraph_stack_alloc(gfp_t gfp);
void fgraph_stack_give(struct task_struct *t, struct fgraph_task *stack);
extern struct ftrace_ops fgraph_filter_ops;
int fgraph_filter_install(struct ftrace_filter_edit *e);
int fgraph_set_filter_hash(bool notr, struct ftrace_hash *hash);
void fgraph_filter_purge(struct ftrace_group *g, unsigned long start,
			 unsigned long end);
void fgraph_create_files(struct dentry *parent);
#else
static inline void fgraph_filter_purge(struct ftrace_group *g,
				       unsigned long start, unsigned long end) { }
static inline int fgraph_set_filter_hash(bool notr, struct ftrace_hash *hash)
{
	return -ENODEV;
}

static inline void fgraph_create_files(struct dentry *parent) { }
#endif

/* ---- Lifecycle (ftrace_lifecycle.c, ftrace_module.c) ---- */

/* The build's table of vmlinux's call sites (vmlinux.lds.h). */
extern unsigned long __start_mcount_loc[];
extern unsigned long __stop_mcount_loc[];

void ftrace_purge_group(struct ftrace_group *g, unsigned long start,
			unsigned long end);

#endif /* CONFIG_DYNAMIC_FTRACE */

#endif /* CONFIG_FUNCTION_TRACER */

#endif /* _KERNEL_TRACE_FTRACE_INTERNAL_H */
