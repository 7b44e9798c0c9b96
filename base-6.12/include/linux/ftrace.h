/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function tracing: the interface between the dynamic ftrace core
 * (kernel/trace/ftrace_*.c), its architecture back end and its clients
 * (tracers, perf, kprobes, the module loader and init).
 *
 * The user guide is Documentation/trace/ftrace-core.rst; the contract with
 * the architecture is in Documentation/trace/ftrace-core-design.rst.
 */
#ifndef _LINUX_FTRACE_H
#define _LINUX_FTRACE_H

#include <linux/bitops.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/ktime.h>
#include <linux/linkage.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/trace_clock.h>
#include <linux/trace_recursion.h>
#include <linux/types.h>

#include <asm/ftrace.h>

struct module;
struct ftrace_hash;
struct ftrace_ops;
struct fgraph_ops;
struct ftrace_regs;
struct trace_array;
struct seq_file;
struct ctl_table;

/* The tracing core proper (trace.c) */
#ifdef CONFIG_TRACING
void trace_init(void);
void early_trace_init(void);
void ftrace_boot_snapshot(void);
/* kernel.ftrace_dump_on_oops: "0", "1", "2" or "instance=cpu,..." */
#define MAX_TRACER_SIZE		100
extern char ftrace_dump_on_oops[];
int ftrace_dump_on_oops_enabled(void);
extern int tracepoint_printk;
void disable_trace_on_warning(void);
extern int __disable_trace_on_warning;
int tracepoint_printk_sysctl(const struct ctl_table *table, int write,
			     void *buffer, size_t *lenp, loff_t *ppos);
#else
static inline void trace_init(void) { }
static inline void early_trace_init(void) { }
static inline void ftrace_boot_snapshot(void) { }
static inline void disable_trace_on_warning(void) { }
#endif

#ifdef CONFIG_FTRACE_SYSCALLS
unsigned long arch_syscall_addr(int nr);
#endif

#ifdef CONFIG_FUNCTION_TRACER

/* What the trampoline calls; @fregs' contents are the arch's affair. */
typedef void (*ftrace_func_t)(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs);

#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
/* <asm/ftrace.h> lays out struct ftrace_regs and says how to read it. */
#else
/* Without an arch layout, a callback's registers are a pt_regs. */
struct ftrace_regs {
	struct pt_regs		regs;
};

#define arch_ftrace_get_regs(fregs)			(&(fregs)->regs)
/* Only an arch with a layout of its own lets a callback move the ip. */
#define ftrace_regs_set_instruction_pointer(fregs, ip)	do { } while (0)
#endif

/**
 * ftrace_get_regs - full registers of a traced call, if there are any
 * @fregs: what the trampoline passed to the callback (may be NULL)
 *
 * Return: the pt_regs of the call site when the ops asked for
 * FTRACE_OPS_FL_SAVE_REGS, else NULL.
 */
static __always_inline struct pt_regs *ftrace_get_regs(struct ftrace_regs *fregs)
{
	return fregs ? arch_ftrace_get_regs(fregs) : NULL;
}

/*
 * Flags of struct ftrace_ops; what the core's own tracers ask beyond
 * these is ops->role.  Requests, set by the owner before registering:
 *   SAVE_REGS: the callback gets full pt_regs (ftrace_get_regs());
 *   SAVE_REGS_IF_SUPPORTED: the same, where the arch has them;
 *   RECURSION: the core guards the callback against recursion;
 *   IPMODIFY: the callback may change the ip to return to; only one such
 *	ops may own a call site;
 *   PERMANENT: keeps running while kernel.ftrace_enabled is 0, and makes
 *	writing 0 fail with -EBUSY;
 *   RCU: the callback runs only where RCU is watching.
 */
#define FTRACE_OPS_FL_SAVE_REGS			0x01UL
#define FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED	0x02UL
#define FTRACE_OPS_FL_RECURSION			0x04UL
#define FTRACE_OPS_FL_IPMODIFY			0x08UL
#define FTRACE_OPS_FL_PERMANENT			0x10UL
#define FTRACE_OPS_FL_RCU			0x20UL
/*
 * State, set by the core while it registers the ops:
 *   DYNAMIC: the ops lives outside the kernel image; unregistering waits
 *	until no CPU can still be in its callback;
 *   ENABLED: the ops is registered (perf reads it).
 */
#define FTRACE_OPS_FL_DYNAMIC			0x100UL
#define FTRACE_OPS_FL_ENABLED			0x200UL

#ifdef CONFIG_DYNAMIC_FTRACE
/*
 * The sites an ops wants: filter (empty means every site) minus notrace.
 * Readers in the call path use RCU; writers hold ftrace_lock and
 * regex_lock, which serialises the filter files of one ops.
 */
struct ftrace_ops_hash {
	struct mutex			regex_lock;	/* serialises the sets' editors */
	struct ftrace_hash __rcu	*filter_hash;
	struct ftrace_hash __rcu	*notrace_hash;
};

/* Freed text (init sections, a module's init): its records go too. */
void ftrace_free_mem(struct module *mod, void *start, void *end);
void ftrace_free_init_mem(void);
#else
static inline void ftrace_free_mem(struct module *mod, void *start, void *end) { }
/* No records to free; the boot snapshot is still taken at this point. */
static inline void ftrace_free_init_mem(void) { ftrace_boot_snapshot(); }
#endif

/*
 * Requests to a direct ops' ops_func, so that it can share its sites with
 * an IPMODIFY ops (livepatch): on a shared site the direct function must
 * call the address the IPMODIFY handler chose, not the traced function.
 * A direct ops without ops_func never shares.  They count from 1, so that
 * a zeroed request is none of them.
 *
 * ENABLE_SHARE_IPMODIFY_SELF: the direct ops is being registered on a
 *	site an IPMODIFY ops has; called with ftrace_lock held, so it may
 *	only update its owner's state.  Non-zero (-EAGAIN: "rebuild and
 *	register again") fails the registration.
 * ENABLE/DISABLE_SHARE_IPMODIFY_PEER: an IPMODIFY ops is coming on (going
 *	off) a site of this direct ops; called with the direct-call mutex
 *	but not ftrace_lock, so the handler may call
 *	modify_ftrace_direct_nolock().  Non-zero fails ENABLE.
 */
enum ftrace_ops_cmd {
	FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_SELF = 1,
	FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER = 2,
	FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER = 3,
};

/**
 * struct ftrace_ops - one user of function tracing
 *
 * Set by the owner before registering:
 * @func: the callback
 * @flags: FTRACE_OPS_FL_* (the core adds DYNAMIC and ENABLED)
 * @role: what the core makes of the ops besides its flags (enum
 *	ftrace_ops_role, kernel/trace/ftrace_internal.h); set only by the
 *	core's own tracers, 0 (a plain callback) for every other client
 * @private: the owner's data (a trace_array for a pid-filtered ops)
 * @ops_func: answers enum ftrace_ops_cmd requests (direct ops only)
 * @direct_call: a registered direct ops' function (the core sets it)
 *
 * Kept by the core:
 * @next: next registered ops (RCU list, ends with &ftrace_list_end)
 * @saved_func: the owner's callback while the core calls a wrapper
 * @func_hash: the hashes in use (&local_hash, or shared with global_ops);
 *	NULL until ftrace_ops_init() sets the ops up on first use
 * @local_hash: the ops' own filter and notrace hashes
 * @trampoline: the ops' own trampoline while it is registered, or 0
 * @trampoline_size: its size (0 for one in the kernel image)
 * @tramp_slot: the core's slot of that trampoline (0: none)
 *
 * Unused by the core, kept for code elsewhere that still names them:
 * @old_hash, @list.
 */
struct ftrace_ops {
	ftrace_func_t			func;
	unsigned long			flags;
	unsigned char			role;
	void				*private;
	struct ftrace_ops __rcu		*next;
	ftrace_func_t			saved_func;
#ifdef CONFIG_DYNAMIC_FTRACE
	int				(*ops_func)(struct ftrace_ops *op,
						    enum ftrace_ops_cmd cmd);
	unsigned long			direct_call;
	struct ftrace_ops_hash		*func_hash;
	struct ftrace_ops_hash		local_hash;
	unsigned long			trampoline;
	unsigned long			trampoline_size;
	unsigned int			tramp_slot;
	struct ftrace_ops_hash		old_hash;
	struct list_head		list;
#endif
};

extern int ftrace_enabled;
extern struct ftrace_ops __rcu *ftrace_ops_list;
extern struct ftrace_ops ftrace_list_end;

int register_ftrace_function(struct ftrace_ops *ops);
int unregister_ftrace_function(struct ftrace_ops *ops);
ftrace_func_t ftrace_ops_get_func(struct ftrace_ops *ops);

/* A callback that does nothing; also what the trampoline calls when idle. */
void ftrace_stub(unsigned long a0, unsigned long a1,
		 struct ftrace_ops *op, struct ftrace_regs *fregs);

void ftrace_kill(void);
#else /* !CONFIG_FUNCTION_TRACER */
/* Nothing to hook: every registration "succeeds" and calls nothing. */
static inline int register_ftrace_function(struct ftrace_ops *ops) { return 0; }
static inline int unregister_ftrace_function(struct ftrace_ops *ops) { return 0; }
static inline void ftrace_free_mem(struct module *mod, void *start, void *end) { }
static inline void ftrace_free_init_mem(void) { }
static inline void ftrace_kill(void) { }
#endif /* CONFIG_FUNCTION_TRACER */

/* One address in a struct ftrace_hash (the hash itself is in trace.h). */
struct ftrace_func_entry {
	struct hlist_node	hlist;
	unsigned long		ip;
	unsigned long		direct;
};

/*
 * Direct calls: the sites of an ops call a custom trampoline instead of
 * the ops' callback (kernel/trace/ftrace_direct.c).  The ops' filter,
 * set first, chooses the sites.
 */
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
int register_ftrace_direct(struct ftrace_ops *ops, unsigned long addr);
/* @free_filters: also free the ops' filter, else it can register again. */
int unregister_ftrace_direct(struct ftrace_ops *ops, unsigned long addr,
			     bool free_filters);
int modify_ftrace_direct(struct ftrace_ops *ops, unsigned long addr);
/* For a caller that already holds the direct-call mutex (an ops_func handler). */
int modify_ftrace_direct_nolock(struct ftrace_ops *ops, unsigned long addr);
unsigned long ftrace_find_rec_direct(unsigned long ip);
/* A direct function that does nothing: the boot self-test's. */
void ftrace_stub_direct_tramp(void);
#else
/* Without direct calls every request fails with -ENODEV. */
static inline unsigned long ftrace_find_rec_direct(unsigned long ip) { return 0; }
static inline int register_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{ return -ENODEV; }
static inline int unregister_ftrace_direct(struct ftrace_ops *ops, unsigned long addr,
					   bool free_filters)
{ return -ENODEV; }
static inline int modify_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{ return -ENODEV; }
static inline int modify_ftrace_direct_nolock(struct ftrace_ops *ops, unsigned long addr)
{ return -ENODEV; }
#endif

#ifndef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
static inline void arch_ftrace_set_direct_caller(struct ftrace_regs *fregs,
						 unsigned long addr) { }
#endif

#ifdef CONFIG_STACK_TRACER
extern int stack_tracer_enabled;
int stack_trace_sysctl(const struct ctl_table *table, int write, void *buffer,
		       size_t *lenp, loff_t *ppos);

DECLARE_PER_CPU(int, disable_stack_tracer);

/* The caller keeps this CPU (preemption or irqs off) while it counts. */
static inline void stack_tracer_nest(int delta)
{
	if (IS_ENABLED(CONFIG_DEBUG_PREEMPT))
		WARN_ON_ONCE(!preempt_count() || !irqs_disabled());
	this_cpu_add(disable_stack_tracer, delta);
}

/* Keep the stack tracer off this CPU until stack_tracer_enable(). */
static inline void stack_tracer_disable(void)
{
	stack_tracer_nest(1);
}

static inline void stack_tracer_enable(void)
{
	stack_tracer_nest(-1);
}
#else
static inline void stack_tracer_enable(void) { }
static inline void stack_tracer_disable(void) { }
#endif

#ifdef CONFIG_DYNAMIC_FTRACE

int ftrace_text_reserved(const void *start, const void *end);
struct ftrace_ops *ftrace_ops_trampoline(unsigned long addr);
bool is_ftrace_trampoline(unsigned long addr);

unsigned long ftrace_location(unsigned long ip);
unsigned long ftrace_location_range(unsigned long start, unsigned long end);

/* @reset empties the set first; @remove takes the addresses out instead. */
int ftrace_set_filter(struct ftrace_ops *ops, unsigned char *buf, int len, int reset);
int ftrace_set_notrace(struct ftrace_ops *ops, unsigned char *buf, int len, int reset);
int ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip, int remove, int reset);
int ftrace_set_filter_ips(struct ftrace_ops *ops, unsigned long *ips, unsigned int cnt,
			  int remove, int reset);
void ftrace_free_filter(struct ftrace_ops *ops);
/* The function tracer's sets (global_ops), and an ops that shares them. */
void ftrace_set_global_filter(unsigned char *buf, int len, int reset);
void ftrace_set_global_notrace(unsigned char *buf, int len, int reset);
void ftrace_ops_set_global_filter(struct ftrace_ops *ops);
/* Names to addresses in one pass over the symbols (fprobe, kprobe_multi). */
int ftrace_lookup_symbols(const char **sorted_syms, size_t cnt, unsigned long *addrs);

/* What a filter file edits; DO_PROBES: reading it also lists the probes. */
#define FTRACE_ITER_FILTER	0x1
#define FTRACE_ITER_NOTRACE	0x2
#define FTRACE_ITER_DO_PROBES	0x4

int ftrace_regex_open(struct trace_array *tr, struct ftrace_ops *ops, int flag,
		      struct inode *inode, struct file *file);
int ftrace_regex_release(struct inode *inode, struct file *file);
ssize_t ftrace_filter_write(struct file *file, const char __user *ubuf, size_t cnt,
			    loff_t *ppos);
ssize_t ftrace_notrace_write(struct file *file, const char __user *ubuf, size_t cnt,
			     loff_t *ppos);
void __init ftrace_set_early_filter(struct ftrace_ops *ops, char *buf, int enable);

void ftrace_module_init(struct module *mod);
void ftrace_module_enable(struct module *mod);
void ftrace_release_mod(struct module *mod);

void ftrace_caller(void);
void ftrace_regs_caller(void);
void ftrace_call(void);
void ftrace_regs_call(void);

#else /* !CONFIG_DYNAMIC_FTRACE */
/* Without dynamic ftrace there are no sites to find or filter. */
static inline unsigned long ftrace_location(unsigned long ip) { return 0; }
static inline bool is_ftrace_trampoline(unsigned long addr) { return false; }
static inline int ftrace_text_reserved(const void *start, const void *end) { return 0; }
static inline void ftrace_module_init(struct module *mod) { }
static inline void ftrace_module_enable(struct module *mod) { }
static inline void ftrace_release_mod(struct module *mod) { }
static inline void ftrace_set_early_filter(struct ftrace_ops *ops, char *buf, int enable) { }
static inline void ftrace_free_filter(struct ftrace_ops *ops) { }
static inline void ftrace_ops_set_global_filter(struct ftrace_ops *ops) { }
static inline int ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip,
				       int remove, int reset)
{ return -ENODEV; }
static inline int ftrace_set_filter_ips(struct ftrace_ops *ops, unsigned long *ips,
					unsigned int cnt, int remove, int reset)
{ return -ENODEV; }
static inline int ftrace_set_filter(struct ftrace_ops *ops, unsigned char *buf,
				    int len, int reset)
{ return -ENODEV; }
static inline int ftrace_set_notrace(struct ftrace_ops *ops, unsigned char *buf,
				     int len, int reset)
{ return -ENODEV; }
static inline int ftrace_lookup_symbols(const char **sorted_syms, size_t cnt,
					unsigned long *addrs)
{ return -EOPNOTSUPP; }
static inline int ftrace_regex_open(struct trace_array *tr, struct ftrace_ops *ops,
				    int flag, struct inode *inode, struct file *file)
{ return -ENODEV; }
static inline ssize_t ftrace_filter_write(struct file *file, const char __user *ubuf,
					  size_t cnt, loff_t *ppos)
{ return -ENODEV; }
static inline ssize_t ftrace_notrace_write(struct file *file, const char __user *ubuf,
					   size_t cnt, loff_t *ppos)
{ return -ENODEV; }
static inline int ftrace_regex_release(struct inode *inode, struct file *file)
{ return -ENODEV; }
#endif /* CONFIG_DYNAMIC_FTRACE */

/* Symbols of trampolines, for kallsyms (ftrace_modsyms.c). */
#if defined(CONFIG_FUNCTION_TRACER) && defined(CONFIG_MODULES) && \
	defined(CONFIG_DYNAMIC_FTRACE)
/* Return: the length of the name copied into @sym, 0 if @addr is in no trampoline. */
int ftrace_mod_address_lookup(unsigned long addr, unsigned long *size,
			      unsigned long *off, char **modname,
			      const unsigned char **modbuildid, char *sym);
int ftrace_mod_get_kallsym(unsigned int symnum, unsigned long *value,
			   char *type, char *name, char *module_name, int *exported);
#else
static inline int ftrace_mod_address_lookup(unsigned long addr, unsigned long *size,
					    unsigned long *off, char **modname,
					    const unsigned char **modbuildid,
					    char *sym)
{ return 0; }
static inline int
ftrace_mod_get_kallsym(unsigned int symnum, unsigned long *value, char *type,
		       char *name, char *module_name, int *exported)
{ return -1; }
#endif

/* Used by kexec: they flip kernel.ftrace_enabled without the sysctl. */
#ifdef CONFIG_FUNCTION_TRACER
static inline int __ftrace_enabled_save(void)
{
	return xchg(&ftrace_enabled, 0);
}

static inline void __ftrace_enabled_restore(int enabled)
{
	WRITE_ONCE(ftrace_enabled, enabled);
}
#else
static inline int __ftrace_enabled_save(void) { return 0; }
static inline void __ftrace_enabled_restore(int enabled) { }
#endif

static inline void tracer_disable(void)
{
	__ftrace_enabled_save();
}

/* An arch may say how to find return addresses; frame pointers can. */
#ifndef ftrace_return_address0
# define ftrace_return_address0 __builtin_return_address(0)
#endif
#if !defined(ftrace_return_address) && defined(CONFIG_FRAME_POINTER)
# define ftrace_return_address(n) __builtin_return_address(n)
#elif !defined(ftrace_return_address)
# define ftrace_return_address(n) 0UL
#endif

#define __FTRACE_CALLER(n)	((unsigned long)ftrace_return_address(n))
#define CALLER_ADDR0		((unsigned long)ftrace_return_address0)
#define CALLER_ADDR1		__FTRACE_CALLER(1)
#define CALLER_ADDR2		__FTRACE_CALLER(2)
#define CALLER_ADDR3		__FTRACE_CALLER(3)
#define CALLER_ADDR4		__FTRACE_CALLER(4)
#define CALLER_ADDR5		__FTRACE_CALLER(5)
#define CALLER_ADDR6		__FTRACE_CALLER(6)

/* The first caller outside the spinlock functions. */
static __always_inline unsigned long get_lock_parent_ip(void)
{
	unsigned long addr = CALLER_ADDR0;

	if (in_lock_functions(addr)) {
		addr = CALLER_ADDR1;
		if (in_lock_functions(addr))
			addr = CALLER_ADDR2;
	}
	return addr;
}

#ifdef CONFIG_TRACE_PREEMPT_TOGGLE
void trace_preempt_on(unsigned long a0, unsigned long a1);
void trace_preempt_off(unsigned long a0, unsigned long a1);
#else
# define trace_preempt_on(a0, a1) do { } while (0)
# define trace_preempt_off(a0, a1) do { } while (0)
#endif

/* The module section that lists its call sites, which the loader reads. */
#ifndef CC_USING_PATCHABLE_FUNCTION_ENTRY
# define FTRACE_CALLSITE_SECTION	"__mcount_loc"
#else
# define FTRACE_CALLSITE_SECTION	"__patchable_function_entries"
#endif

#ifdef CONFIG_FTRACE_MCOUNT_RECORD
void ftrace_init(void);
#else
static inline void ftrace_init(void) { }
#endif

/*
 * The graph records are part of the trace format even without the tracer;
 * trace_entries.h lays out funcgraph_exit's fields in this order.
 */
struct ftrace_graph_ent {
	unsigned long func;
	int depth;
} __packed;

struct ftrace_graph_ret {
	unsigned long func;
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	unsigned long retval;	/* what the function returned */
#endif
	int depth;
	unsigned int overrun;
	unsigned long long calltime;
	unsigned long long rettime;
} __packed;

struct fgraph_ops;
typedef void (*trace_func_graph_ret_t)(struct ftrace_graph_ret *trace,
				       struct fgraph_ops *gops);
typedef int (*trace_func_graph_ent_t)(struct ftrace_graph_ent *trace,
				      struct fgraph_ops *gops);

int ftrace_graph_entry_stub(struct ftrace_graph_ent *trace, struct fgraph_ops *gops);

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/* __switch_to() changes current: a return hooked there would pop the wrong stack. */
#define __notrace_funcgraph	notrace

/* Hooked calls a task can have at once; the graph output sizes its arrays by it. */
#define FTRACE_RETFUNC_DEPTH	50

/* Graph users registered at once, each with its own index. */
#define FGRAPH_USERS		16

/**
 * struct ftrace_ret_stack - one hooked call on a task's return stack
 * @ret: the real return address
 * @func: the traced function (its call site)
 * @calltime: trace_clock_local() at entry (moved on by sleep time when
 *	sleep-time is off)
 * @subtime: time of hooked children, for the profiler's self time
 * @retp: what the unwinder finds this entry by: where on the kernel stack
 *	@ret was (x86), the caller's frame pointer (arm64)
 * @seq: the graph core's registration count when the call was hooked: a
 *	user registered later never took it
 * @users: one bit per graph user index whose entry callback took the call
 * @data: where the call's reserved data starts on the task's data stack
 */
struct ftrace_ret_stack {
	unsigned long		ret;
	unsigned long		func;
	unsigned long long	calltime;
	unsigned long long	subtime;
	unsigned long		*retp;
	u32			seq;
	u16			users;
	u16			data;
};

/**
 * struct fgraph_ops - a user of the graph core
 * @entryfunc: called at the entry of each function @ops wants; nonzero
 *	hooks its return for this user
 * @retfunc: called when a call this user took returns
 * @ops: the functions this user wants (its filter, which the owner may
 *	set before registering, or share with fgraph_init_ops())
 * @private: the owner's data
 * @idx: the user's index while it is registered (fgraph_reserve_data())
 */
struct fgraph_ops {
	trace_func_graph_ent_t	entryfunc;
	trace_func_graph_ret_t	retfunc;
	struct ftrace_ops	ops;
	void			*private;
	int			idx;
};

/*
 * Bytes an entry callback keeps for its return callback, on the call's
 * frame: only from @idx's own entry callback, and at most once a call.
 */
void *fgraph_reserve_data(int idx, int size_bytes);
void *fgraph_retrieve_data(int idx, int *size_bytes);
/* One word per task and user, zero when the user registers. */
unsigned long *fgraph_get_task_var(struct fgraph_ops *gops);

int register_ftrace_graph(struct fgraph_ops *gops);
void unregister_ftrace_graph(struct fgraph_ops *gops);

DECLARE_STATIC_KEY_FALSE(kill_ftrace_graph);

static inline bool ftrace_graph_is_dead(void)
{
	return static_branch_unlikely(&kill_ftrace_graph);
}

void ftrace_graph_stop(void);

/* Where a hooked function returns to; never called. */
void return_to_handler(void);
unsigned long ftrace_return_to_handler(unsigned long retval);

struct ftrace_ret_stack *ftrace_graph_get_ret_stack(struct task_struct *task, int idx);
unsigned long ftrace_graph_ret_addr(struct task_struct *task, int *idx,
				    unsigned long ret, unsigned long *retp);

void ftrace_graph_init_task(struct task_struct *t);
void ftrace_graph_exit_task(struct task_struct *t);
void ftrace_graph_init_idle_task(struct task_struct *t, int cpu);

static inline void pause_graph_tracing(void)
{
	atomic_inc(&current->tracing_graph_pause);
}

static inline void unpause_graph_tracing(void)
{
	atomic_dec(&current->tracing_graph_pause);
}
#else
/* No graph tracer: no return stacks, and every return address is real. */
#define __notrace_funcgraph
static inline unsigned long
ftrace_graph_ret_addr(struct task_struct *task, int *idx, unsigned long ret,
		      unsigned long *retp)
{ return ret; }
static inline int register_ftrace_graph(struct fgraph_ops *gops) { return -ENODEV; }
static inline void unregister_ftrace_graph(struct fgraph_ops *gops) { }
static inline void ftrace_graph_init_task(struct task_struct *t) { }
static inline void ftrace_graph_init_idle_task(struct task_struct *t, int cpu) { }
static inline void ftrace_graph_exit_task(struct task_struct *t) { }
static inline void pause_graph_tracing(void) { }
static inline void unpause_graph_tracing(void) { }
#endif

#endif /* _LINUX_FTRACE_H */
