// SPDX-License-Identifier: GPL-2.0
/*
 * The "function" tracer: one ring-buffer entry per traced call, in every
 * trace array that selects it, each through its own ftrace_ops and so its
 * own set_ftrace_filter.  Also the filter commands traceon, traceoff,
 * stacktrace, dump and cpudump, each with an optional count.
 */
#include <linux/ftrace.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

enum {
	TRACE_FUNC_NO_OPTS		= 0x0,
	TRACE_FUNC_OPT_STACK		= 0x1,
	TRACE_FUNC_OPT_NO_REPEATS	= 0x2,
	TRACE_FUNC_OPT_MASK		= 0x3,
};

/*
 * Our frames above the traced function in a stack taken from a callback,
 * so that each stack starts at the traced function: ORC starts the walk
 * at the caller of the function that asks, the frame-record walk (arm64)
 * at the saver's own frame.
 */
#define STACK_SKIP		(IS_ENABLED(CONFIG_UNWINDER_ORC) ? 2 : 3)
#define PROBE_STACK_SKIP	(IS_ENABLED(CONFIG_UNWINDER_ORC) ? 3 : 5)

static struct tracer function_trace;

/**
 * ftrace_allocate_ftrace_ops - the ops of a new trace array instance
 * @tr: the instance
 *
 * Return: 0 (the top-level array uses global_ops), or -ENOMEM.
 */
int ftrace_allocate_ftrace_ops(struct trace_array *tr)
{
	struct ftrace_ops *ops;

	if (tr->flags & TRACE_ARRAY_FL_GLOBAL)
		return 0;
	/* Does nothing until the function tracer gives it a callback. */
	ops = kmalloc(sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	*ops = (struct ftrace_ops) {
		.func	= ftrace_stub,
		.role	= FTRACE_ROLE_PID,
		.private = tr,
	};
	tr->ops = ops;
	return 0;
}

/**
 * ftrace_free_ftrace_ops - free an instance's ops
 * @tr: the instance
 */
void ftrace_free_ftrace_ops(struct trace_array *tr)
{
	kfree(tr->ops);
	tr->ops = NULL;
}

/**
 * ftrace_create_function_files - an instance's filter files and graph user
 * @tr: the instance (the top level gets its files elsewhere)
 * @parent: its directory
 *
 * Return: 0, or -ENOMEM.
 */
int ftrace_create_function_files(struct trace_array *tr, struct dentry *parent)
{
	int ret;

	if (tr->flags & TRACE_ARRAY_FL_GLOBAL)
		return 0;
	ret = allocate_fgraph_ops(tr, tr->ops);
	if (ret)
		return ret;
	ftrace_create_filter_files(tr, parent);
	return 0;
}

/**
 * ftrace_destroy_function_files - undo ftrace_create_function_files()
 * @tr: the instance, being deleted
 */
void ftrace_destroy_function_files(struct trace_array *tr)
{
	if (tr->ops && !(tr->flags & TRACE_ARRAY_FL_GLOBAL)) {
		free_fgraph_ops(tr);
		ftrace_destroy_filter_files(tr->ops);
		ftrace_free_ftrace_ops(tr);
		/* ":mod:" entries still waiting for their module */
		mutex_lock(&ftrace_lock);
		ftrace_mod_cache_clear(&tr->mod_trace);
		ftrace_mod_cache_clear(&tr->mod_notrace);
		mutex_unlock(&ftrace_lock);
	}
}

/* Count a call that repeats the previous one; else flush the count. */
static bool repeated(struct trace_array *tr, struct trace_func_repeats *last,
		     unsigned long ip, unsigned long parent_ip, unsigned int trace_ctx)
{
	if (last->ip == ip && last->parent_ip == parent_ip &&
	    last->count < U16_MAX) {
		last->ts_last_call = ring_buffer_time_stamp(tr->array_buffer.buffer);
		last->count++;
		return true;
	}
	if (last->count)
		trace_last_func_repeats(tr, last, trace_ctx);
	last->ip = ip;
	last->parent_ip = parent_ip;
	last->count = 0;
	return false;
}

/* One traced call: the entry, unless folded into a repeat, and its stack. */
static __always_inline void record_call(struct trace_array *tr, unsigned long ip,
					unsigned long parent_ip,
					unsigned int trace_ctx,
					bool stack, bool fold)
{
	if (fold && repeated(tr, this_cpu_ptr(tr->last_func_repeats), ip,
			     parent_ip, trace_ctx))
		return;
	trace_function(tr, ip, parent_ip, trace_ctx);
	if (stack)
		__trace_stack(tr, trace_ctx, STACK_SKIP);
}

/* Without a stack trace, the recursion lock is all the protection needed. */
static __always_inline void traced_call(unsigned long ip, unsigned long parent_ip,
					struct ftrace_ops *op, bool fold)
{
	struct trace_array *tr = op->private;
	int bit;

	if (unlikely(!tr->function_enabled))
		return;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	/* _dec: the lock's own preemption level is not the traced call's. */
	if (!atomic_read(&this_cpu_ptr(tr->array_buffer.data)->disabled))
		record_call(tr, ip, parent_ip, tracing_gen_ctx_dec(), false, fold);
	ftrace_test_recursion_unlock(bit);
}

/*
 * With a stack trace per entry, an interrupt must not interleave its own
 * entries between an entry and its stack: interrupts are off throughout.
 */
static __always_inline void traced_call_stack(unsigned long ip,
					      unsigned long parent_ip,
					      struct ftrace_ops *op, bool fold)
{
	struct trace_array *tr = op->private;
	struct trace_array_cpu *data;
	unsigned long flags;

	if (unlikely(!tr->function_enabled))
		return;
	local_irq_save(flags);
	data = this_cpu_ptr(tr->array_buffer.data);
	if (atomic_inc_return(&data->disabled) == 1)
		record_call(tr, ip, parent_ip, tracing_gen_ctx_flags(flags), true, fold);
	atomic_dec(&data->disabled);
	local_irq_restore(flags);
}

static void function_trace_call(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	traced_call(ip, parent_ip, op, false);
}

static void function_no_repeats_trace_call(unsigned long ip, unsigned long parent_ip,
					   struct ftrace_ops *op,
					   struct ftrace_regs *fregs)
{
	traced_call(ip, parent_ip, op, true);
}

static void function_stack_trace_call(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	traced_call_stack(ip, parent_ip, op, false);
}

static void function_stack_no_repeats_trace_call(unsigned long ip,
						 unsigned long parent_ip,
						 struct ftrace_ops *op,
						 struct ftrace_regs *fregs)
{
	traced_call_stack(ip, parent_ip, op, true);
}

static struct tracer_opt func_opts[] = {
	{ TRACER_OPT(func_stack_trace, TRACE_FUNC_OPT_STACK) },
	{ TRACER_OPT(func-no-repeats, TRACE_FUNC_OPT_NO_REPEATS) },
	{ }
};

static struct tracer_flags func_flags = {
	.val	= TRACE_FUNC_NO_OPTS,
	.opts	= func_opts,
};

/* The callback for each combination of the options, indexed by them. */
static const ftrace_func_t func_callbacks[TRACE_FUNC_OPT_MASK + 1] = {
	[TRACE_FUNC_NO_OPTS]				= function_trace_call,
	[TRACE_FUNC_OPT_STACK]				= function_stack_trace_call,
	[TRACE_FUNC_OPT_NO_REPEATS]			= function_no_repeats_trace_call,
	[TRACE_FUNC_OPT_STACK | TRACE_FUNC_OPT_NO_REPEATS] =
		function_stack_no_repeats_trace_call,
};

static ftrace_func_t callback_for(u32 opts)
{
	return func_callbacks[opts & TRACE_FUNC_OPT_MASK];
}

static bool need_repeats(struct trace_array *tr, u32 opts)
{
	if (!(opts & TRACE_FUNC_OPT_NO_REPEATS) || tr->last_func_repeats)
		return true;
	tr->last_func_repeats = alloc_percpu(struct trace_func_repeats);
	return tr->last_func_repeats != NULL;
}

static int function_start(struct trace_array *tr)
{
	int ret;

	tr->function_enabled = 0;
	ret = register_ftrace_function(tr->ops);
	tr->function_enabled = !ret;
	return ret;
}

static int function_trace_init(struct trace_array *tr)
{
	ftrace_func_t func;
	int ret;

	/* An instance without its own ops cannot run the function tracer. */
	if (!tr->ops)
		return -ENOMEM;
	func = callback_for(func_flags.val);
	if (!need_repeats(tr, func_flags.val))
		return -ENOMEM;
	ftrace_init_array_ops(tr, func);
	tr->array_buffer.cpu = raw_smp_processor_id();
	tracing_start_cmdline_record();
	/* Once ftrace is dead, selecting the tracer fails with -ENODEV. */
	ret = function_start(tr);
	if (ret) {
		tracing_stop_cmdline_record();
		ftrace_reset_array_ops(tr);
	}
	return ret;
}

static void function_trace_reset(struct trace_array *tr)
{
	tr->function_enabled = 0;
	unregister_ftrace_function(tr->ops);
	tracing_stop_cmdline_record();
	ftrace_reset_array_ops(tr);
}

static void function_trace_start(struct trace_array *tr)
{
	tracing_reset_online_cpus(&tr->array_buffer);
}

static int func_set_flag(struct trace_array *tr, u32 old_flags, u32 bit, int set)
{
	u32 opts = set ? old_flags | bit : old_flags & ~bit;
	ftrace_func_t func;

	if (!(bit & TRACE_FUNC_OPT_MASK))
		return -EINVAL;
	/* Only the tracer in use changes its callback now. */
	if (tr->current_trace != &function_trace)
		return 0;
	func = callback_for(opts);
	if (tr->ops->func == func)
		return 0;
	if (!need_repeats(tr, opts))
		return -ENOMEM;
	unregister_ftrace_function(tr->ops);
	tr->ops->func = func;
	return register_ftrace_function(tr->ops);
}

static struct tracer function_trace __tracer_data = {
	.name		= "function",
	.allow_instances = true,
	.flags		= &func_flags,
	.set_flag	= func_set_flag,
	.init		= function_trace_init,
	.start		= function_trace_start,
	.reset		= function_trace_reset,
#ifdef CONFIG_FTRACE_STARTUP_TEST
	/* The field exists only with the boot self-tests. */
	.selftest	= trace_selftest_startup_function,
#endif
};

/* ---- traceon, traceoff, stacktrace, dump, cpudump ---- */

/*
 * A counted command keeps, per function, how many more times it may fire
 * (-1: unlimited).  The probe may run on several CPUs at once, and each
 * firing must use up one count exactly.
 */
static long *probe_count(void *data, unsigned long ip)
{
	long *count = data ? (long *)ftrace_func_mapper_find_ip(data, ip) : NULL;

	return count && READ_ONCE(*count) != -1 ? count : NULL;
}

/* Spend one of @count's hits, if any are left (NULL: unlimited). */
static bool count_take(long *count)
{
	long left;

	if (!count)
		return true;
	left = READ_ONCE(*count);
	do {
		if (left <= 0)
			return false;
	} while (!try_cmpxchg(count, &left, left - 1));
	return true;
}

static bool count_allows(void *data, unsigned long ip)
{
	return count_take(probe_count(data, ip));
}

/*
 * traceon and traceoff: a count is one change of the array's state, not
 * one hit.  CPUs that change it together store the count they read, less
 * one, so together they use up one.  Count read before state, state
 * written before count: a CPU that reads a count already used up for
 * this change also sees the state changed, and leaves both alone.
 */
static void probe_set_tracing(struct trace_array *tr, void *data,
			      unsigned long ip, bool on)
{
	long *count = probe_count(data, ip);
	long left = 0;

	if (count) {
		left = READ_ONCE(*count);
		if (left <= 0)
			return;
		smp_rmb();	/* the count before the state */
	}
	if (tracer_tracing_is_on(tr) == on)
		return;
	if (on)
		tracer_tracing_on(tr);
	else
		tracer_tracing_off(tr);
	if (count) {
		smp_wmb();	/* the state before the count */
		WRITE_ONCE(*count, left - 1);
	}
}

static void probe_traceon(unsigned long ip, unsigned long parent_ip,
			  struct trace_array *tr, struct ftrace_probe_ops *ops,
			  void *data)
{
	probe_set_tracing(tr, data, ip, true);
}

static void probe_traceoff(unsigned long ip, unsigned long parent_ip,
			   struct trace_array *tr, struct ftrace_probe_ops *ops,
			   void *data)
{
	probe_set_tracing(tr, data, ip, false);
}

static void probe_stacktrace(unsigned long ip, unsigned long parent_ip,
			     struct trace_array *tr, struct ftrace_probe_ops *ops,
			     void *data)
{
	long *count = probe_count(data, ip);

	/*
	 * A counted command spends its count only while the top level
	 * traces; an unlimited one writes to its own trace array regardless.
	 */
	if (count && !tracing_is_on())
		return;
	if (!count_take(count))
		return;
	/* _dec: the probe runs under its wrapper's recursion lock. */
	__trace_stack(tr, tracing_gen_ctx_dec(), PROBE_STACK_SKIP);
}

/* Dumps fire once per function: the buffer is gone after the first. */
static void probe_dump(unsigned long ip, unsigned long parent_ip,
		       struct trace_array *tr, struct ftrace_probe_ops *ops,
		       void *data)
{
	if (count_allows(data, ip))
		ftrace_dump(DUMP_ALL);
}

static void probe_cpudump(unsigned long ip, unsigned long parent_ip,
			  struct trace_array *tr, struct ftrace_probe_ops *ops,
			  void *data)
{
	if (count_allows(data, ip))
		ftrace_dump(DUMP_ORIG);
}

static int probe_init(struct ftrace_probe_ops *ops, struct trace_array *tr,
		      unsigned long ip, void *init_data, void **data)
{
	if (!*data)
		*data = allocate_ftrace_func_mapper();
	if (!*data)
		return -ENOMEM;
	return ftrace_func_mapper_add_ip(*data, ip, init_data);
}

static void probe_free(struct ftrace_probe_ops *ops, struct trace_array *tr,
		       unsigned long ip, void *data)
{
	if (!data)
		return;
	if (!ip)
		free_ftrace_func_mapper(data, NULL);
	else
		ftrace_func_mapper_remove_ip(data, ip);
}

static const char *probe_name(struct ftrace_probe_ops *ops);

static int probe_print(struct seq_file *m, unsigned long ip,
		       struct ftrace_probe_ops *ops, void *data)
{
	long *count = data ? (long *)ftrace_func_mapper_find_ip(data, ip) : NULL;

	seq_printf(m, "%ps:%s", (void *)ip, probe_name(ops));
	if (count && *count != -1)
		seq_printf(m, ":count=%ld\n", *count);
	else
		seq_puts(m, ":unlimited\n");
	return 0;
}

#define FUNC_PROBE(_func)					\
	{ .func = _func, .print = probe_print,			\
	  .init = probe_init, .free = probe_free }

enum { CMD_TRACEON, CMD_TRACEOFF, CMD_STACKTRACE, CMD_DUMP, CMD_CPUDUMP, NR_CMDS };

static const char * const cmd_names[NR_CMDS] = {
	"traceon", "traceoff", "stacktrace", "dump", "cpudump",
};

static struct ftrace_probe_ops cmd_probes[NR_CMDS][2] = {
	[CMD_TRACEON]	 = { FUNC_PROBE(probe_traceon),
			     FUNC_PROBE(probe_traceon) },
	[CMD_TRACEOFF]	 = { FUNC_PROBE(probe_traceoff),
			     FUNC_PROBE(probe_traceoff) },
	[CMD_STACKTRACE] = { FUNC_PROBE(probe_stacktrace),
			     FUNC_PROBE(probe_stacktrace) },
	[CMD_DUMP]	 = { FUNC_PROBE(probe_dump),
			     FUNC_PROBE(probe_dump) },
	[CMD_CPUDUMP]	 = { FUNC_PROBE(probe_cpudump),
			     FUNC_PROBE(probe_cpudump) },
};

static const char *probe_name(struct ftrace_probe_ops *ops)
{
	int i;

	for (i = 0; i < NR_CMDS; i++)
		if (ops == &cmd_probes[i][0] || ops == &cmd_probes[i][1])
			return cmd_names[i];
	return "?";
}

static int func_command(struct trace_array *tr, struct ftrace_hash *hash,
			char *glob, char *cmd, char *param, int enable)
{
	struct ftrace_probe_ops *ops;
	unsigned long n;
	long count = -1;
	char *number;
	int i, ret;

	if (!tr || !enable)
		return -EINVAL;
	for (i = 0; i < NR_CMDS; i++)
		if (!strcmp(cmd, cmd_names[i]))
			break;
	if (i == NR_CMDS)
		return -EINVAL;
	/* The dumps fire once whatever count is written; "!f:dump:5" removes "f:dump". */
	if (i == CMD_DUMP || i == CMD_CPUDUMP) {
		param = NULL;
		count = 1;
	}
	ops = &cmd_probes[i][!!param];
	if (glob[0] == '!')
		return unregister_ftrace_function_probe_func(glob + 1, tr, ops);
	/*
	 * The count ends at the next ':'; an empty one is unlimited, and one
	 * beyond a long never runs out either.
	 */
	if (param) {
		number = strsep(&param, ":");
		if (*number) {
			ret = kstrtoul(number, 0, &n);
			if (ret)
				return ret;
			count = n > LONG_MAX ? -1 : n;
		}
	}
	ret = register_ftrace_function_probe(glob, tr, ops, (void *)count);
	if (!ret)
		return -EINVAL;
	return ret < 0 ? ret : 0;
}

static struct ftrace_func_command func_cmds[NR_CMDS];

/**
 * init_function_trace - register the function tracer and its commands
 *
 * Return: register_tracer()'s result.
 */
__init int init_function_trace(void)
{
	int i;

	for (i = 0; i < NR_CMDS; i++) {
		func_cmds[i].name = (char *)cmd_names[i];
		func_cmds[i].func = func_command;
		register_ftrace_command(&func_cmds[i]);
	}
	return register_tracer(&function_trace);
}
