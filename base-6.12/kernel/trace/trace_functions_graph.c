// SPDX-License-Identifier: GPL-2.0
/*
 * The "function_graph" tracer: what it records and how it prints it.
 *
 * The graph core calls trace_graph_entry() on entry and, if it accepted
 * the call, the return callback on return; each writes one record into
 * the trace array of the graph user (gops->private), one user per trace
 * array that runs the tracer.  An
 * entry followed on its CPU by its own return prints as a leaf line,
 * "func();", any other opens a block that a later return closes.  Users
 * and tools parse this text, so its format must not change.
 *
 * A reader's per-CPU state (struct fgraph_state) is optional: latency
 * tracers may print graph records from an iterator opened without it.
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/trace_clock.h>
#include <linux/uaccess.h>
#include <asm/sections.h>

#include "trace.h"
#include "trace_output.h"
#include "ftrace_internal.h"

/* Spaces per nesting level in the function column. */
#define FGRAPH_INDENT		2
/* Width of the centred "comm-pid" task column. */
#define FGRAPH_TASK_WIDTH	14
/* Digits of a duration before it gives up its decimals. */
#define FGRAPH_DURATION_DIGITS	7
/* Width of the number in the duration column. */
#define FGRAPH_DURATION_WIDTH	8

#define FGRAPH_RULE	" ------------------------------------------"

/* ---------------------------------------------------------------------
 * Options
 */

/* How deep below a traced call to keep tracing, 0 for no limit. */
unsigned int fgraph_max_depth __read_mostly;

static int __init set_boot_graph_max_depth(char *str)
{
	unsigned int depth;

	if (kstrtouint(str, 0, &depth))
		return 0;
	fgraph_max_depth = depth;
	return 1;
}
__setup("ftrace_graph_max_depth=", set_boot_graph_max_depth);

/* graph-time must stay last: without the profiler the list ends before it. */
static struct tracer_opt fgraph_opts[] = {
	/* The core's lost-return count, after every closing line */
	{ .name = "funcgraph-overrun", .bit = TRACE_GRAPH_PRINT_OVERRUN },
	{ .name = "funcgraph-cpu", .bit = TRACE_GRAPH_PRINT_CPU },
	/* A mark in front of long durations ('+', '!', '#', ...) */
	{ .name = "funcgraph-overhead", .bit = TRACE_GRAPH_PRINT_OVERHEAD },
	{ .name = "funcgraph-proc", .bit = TRACE_GRAPH_PRINT_PROC },
	{ .name = "funcgraph-duration", .bit = TRACE_GRAPH_PRINT_DURATION },
	{ .name = "funcgraph-abstime", .bit = TRACE_GRAPH_PRINT_ABS_TIME },
	/* Off: neither record nor show what runs in hard IRQ context */
	{ .name = "funcgraph-irqs", .bit = TRACE_GRAPH_PRINT_IRQS },
	/* Name the function on every closing brace */
	{ .name = "funcgraph-tail", .bit = TRACE_GRAPH_PRINT_TAIL },
	/* Without CONFIG_FUNCTION_GRAPH_RETVAL these two go at boot */
	{ .name = "funcgraph-retval", .bit = TRACE_GRAPH_PRINT_RETVAL },
	{ .name = "funcgraph-retval-hex", .bit = TRACE_GRAPH_PRINT_RETVAL_HEX },
	/* Count the time a call spent scheduled out (all graph users) */
	{ .name = "sleep-time", .bit = TRACE_GRAPH_SLEEP_TIME },
	/* Profiler: a function's time includes its children's */
	{ .name = "graph-time", .bit = TRACE_GRAPH_GRAPH_TIME },
	{ }
};

static struct tracer_flags fgraph_flags = {
	.val	= TRACE_GRAPH_PRINT_CPU | TRACE_GRAPH_PRINT_OVERHEAD |
		  TRACE_GRAPH_PRINT_DURATION | TRACE_GRAPH_PRINT_IRQS |
		  TRACE_GRAPH_SLEEP_TIME | TRACE_GRAPH_GRAPH_TIME,
	.opts	= fgraph_opts,
};

/* funcgraph-irqs is off: the callbacks leave hard IRQ context out. */
static bool fgraph_skip_irqs;

/* Digits of the highest CPU number, so that the CPU column lines up. */
static int fgraph_cpu_width;

/* ---------------------------------------------------------------------
 * Recording
 */

static void fgraph_commit(struct trace_buffer *buffer,
			  struct ring_buffer_event *event)
{
	trace_buffer_unlock_commit_nostack(buffer, event);
}

/*
 * Inlined into each graph callback, since every hooked call pays for
 * extra calls.  The latency tracers reach them through
 * __trace_graph_entry() and __trace_graph_return().
 */
static __always_inline int fgraph_record_entry(struct trace_array *tr,
					       struct ftrace_graph_ent *trace,
					       unsigned int trace_ctx)
{
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	struct ftrace_graph_ent_entry *rec;
	struct ring_buffer_event *event;

	event = trace_buffer_lock_reserve(buffer, TRACE_GRAPH_ENT,
					  sizeof(*rec), trace_ctx);
	if (!event)
		return 0;
	rec = ring_buffer_event_data(event);
	rec->graph_ent = *trace;
	fgraph_commit(buffer, event);
	return 1;
}

static __always_inline void fgraph_record_return(struct trace_array *tr,
						 struct ftrace_graph_ret *trace,
						 unsigned int trace_ctx)
{
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	struct ftrace_graph_ret_entry *rec;
	struct ring_buffer_event *event;

	event = trace_buffer_lock_reserve(buffer, TRACE_GRAPH_RET,
					  sizeof(*rec), trace_ctx);
	if (!event)
		return;
	rec = ring_buffer_event_data(event);
	rec->ret = *trace;
	fgraph_commit(buffer, event);
}

/**
 * __trace_graph_entry - write a funcgraph_entry record
 * @tr: the trace array to write to
 * @trace: the call that was entered
 * @trace_ctx: the context flags of the record (tracing_gen_ctx_flags())
 *
 * The caller keeps itself from recursing; this only writes.
 *
 * Return: 1 if the buffer took the record, 0 if not.
 */
int __trace_graph_entry(struct trace_array *tr, struct ftrace_graph_ent *trace,
			unsigned int trace_ctx)
{
	return fgraph_record_entry(tr, trace, trace_ctx);
}

/**
 * __trace_graph_return - write a funcgraph_exit record
 * @tr: the trace array to write to
 * @trace: the call that returned, with its times and return value
 * @trace_ctx: the context flags of the record (tracing_gen_ctx_flags())
 *
 * The caller keeps itself from recursing; this only writes.
 */
void __trace_graph_return(struct trace_array *tr, struct ftrace_graph_ret *trace,
			  unsigned int trace_ctx)
{
	fgraph_record_return(tr, trace, trace_ctx);
}

/*
 * Write @ent, or else @ret; return whether an entry was written.  With
 * interrupts off and the CPU's disabled count raised, nothing else on this
 * CPU writes in the middle of it: an NMI finds the count raised and drops
 * its record.  Inlined for the same reason as the record writers.
 */
static __always_inline int fgraph_write(struct trace_array *tr,
					struct ftrace_graph_ent *ent,
					struct ftrace_graph_ret *ret)
{
	struct trace_array_cpu *data;
	unsigned long irqflags;
	int written = 0;

	local_irq_save(irqflags);
	data = per_cpu_ptr(tr->array_buffer.data, raw_smp_processor_id());
	if (atomic_inc_return(&data->disabled) == 1) {
		unsigned int trace_ctx = tracing_gen_ctx_flags(irqflags);

		if (ent)
			written = fgraph_record_entry(tr, ent, trace_ctx);
		else
			fgraph_record_return(tr, ret, trace_ctx);
	}
	atomic_dec(&data->disabled);
	local_irq_restore(irqflags);
	return written;
}

/*
 * funcgraph-irqs off: leave out hard IRQ context, unless the IRQ itself
 * entered a set_graph_function function (TRACE_IRQ_BIT), which the user
 * asked for by name.
 */
static bool fgraph_skip_this_irq(void)
{
	return READ_ONCE(fgraph_skip_irqs) &&
	       !trace_recursion_test(TRACE_IRQ_BIT) && in_hardirq();
}

/**
 * trace_graph_entry - entry callback of the function_graph tracer
 * @trace: the call being entered
 * @gops: the graph user, whose private data is the trace array
 *
 * With tracing_thresh set only returns are recorded, so the call is
 * hooked without a record.  The set_graph_function and set_graph_notrace
 * state is the user's own task variable, so trace arrays do not mix.
 *
 * Return: nonzero to have the return callback run for this call.
 */
int trace_graph_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops)
{
	unsigned long *task_var = fgraph_get_task_var(gops);
	struct trace_array *tr = gops->private;

	/* Below a set_graph_notrace function: nothing is traced. */
	if (*task_var & TRACE_GRAPH_NOTRACE)
		return 0;

	if (ftrace_graph_notrace_addr(trace->func)) {
		/* Hooked although nothing is recorded: its return clears the bit. */
		*task_var |= TRACE_GRAPH_NOTRACE;
		return 1;
	}

	/* ftrace_graph_ignore_func() has side effects: keep this order. */
	if (!ftrace_trace_task(tr) || ftrace_graph_ignore_func(gops, trace) ||
	    fgraph_skip_this_irq())
		return 0;

	if (tracing_thresh)
		return 1;

	return fgraph_write(tr, trace, NULL);
}

/* The return half of trace_graph_entry()'s filters: true to record. */
static bool fgraph_return_wanted(struct ftrace_graph_ret *trace,
				 struct fgraph_ops *gops)
{
	unsigned long *task_var = fgraph_get_task_var(gops);

	ftrace_graph_addr_finish(gops, trace);

	if (*task_var & TRACE_GRAPH_NOTRACE) {
		/* The set_graph_notrace function itself returns. */
		*task_var &= ~TRACE_GRAPH_NOTRACE;
		return false;
	}
	return true;
}

/**
 * trace_graph_return - return callback matching trace_graph_entry()
 * @trace: the call that returned
 * @gops: the graph user, whose private data is the trace array
 *
 * Records every return handed to it, whatever tracing_thresh says.
 */
void trace_graph_return(struct ftrace_graph_ret *trace, struct fgraph_ops *gops)
{
	if (fgraph_return_wanted(trace, gops))
		fgraph_write(gops->private, NULL, trace);
}

/* Reading the threshold here makes a new one apply without re-registering. */
static void fgraph_tracer_return(struct ftrace_graph_ret *trace,
				 struct fgraph_ops *gops)
{
	unsigned long thresh = READ_ONCE(tracing_thresh);

	if (!fgraph_return_wanted(trace, gops))
		return;
	if (thresh && trace->rettime - trace->calltime < thresh)
		return;
	fgraph_write(gops->private, NULL, trace);
}

/**
 * trace_graph_function - record one function call as a graph leaf
 * @tr: the trace array to write to
 * @ip: the function
 * @parent_ip: its caller (not recorded)
 * @trace_ctx: the context flags of the records
 *
 * For the latency tracers in display-graph mode, which see calls but not
 * returns.
 */
void trace_graph_function(struct trace_array *tr, unsigned long ip,
			  unsigned long parent_ip, unsigned int trace_ctx)
{
	u64 now = trace_clock_local();
	struct ftrace_graph_ent ent = { .func = ip };
	struct ftrace_graph_ret ret = {
		.func		= ip,
		.calltime	= now,
		.rettime	= now,
	};

	__trace_graph_entry(tr, &ent, trace_ctx);
	__trace_graph_return(tr, &ret, trace_ctx);
}

/* The top-level trace array's graph user; instances allocate theirs. */
static struct fgraph_ops fgraph_top_ops;

static void fgraph_user_init(struct fgraph_ops *gops, struct trace_array *tr,
			     struct ftrace_ops *ops)
{
	gops->entryfunc = trace_graph_entry;
	gops->retfunc = fgraph_tracer_return;
	/* The trace array's set_ftrace_filter and notrace choose its functions. */
	fgraph_init_ops(&gops->ops, ops);
	gops->private = tr;
	tr->gops = gops;
}

/**
 * init_array_fgraph_ops - the top-level trace array's graph user
 * @tr: the top-level trace array
 * @ops: its function ops, whose filter the graph user shares
 */
void __init init_array_fgraph_ops(struct trace_array *tr, struct ftrace_ops *ops)
{
	fgraph_user_init(&fgraph_top_ops, tr, ops);
}

/**
 * allocate_fgraph_ops - an instance's graph user
 * @tr: the instance
 * @ops: its function ops, whose filter the graph user shares
 *
 * Return: 0 or -ENOMEM.
 */
int allocate_fgraph_ops(struct trace_array *tr, struct ftrace_ops *ops)
{
	struct fgraph_ops *gops = kzalloc(sizeof(*gops), GFP_KERNEL);

	if (!gops)
		return -ENOMEM;
	fgraph_user_init(gops, tr, ops);
	return 0;
}

/**
 * free_fgraph_ops - free an instance's graph user
 * @tr: the instance, which no longer runs the tracer
 */
void free_fgraph_ops(struct trace_array *tr)
{
	if (tr->gops != &fgraph_top_ops)
		kfree(tr->gops);
	tr->gops = NULL;
}

static int fgraph_tracer_init(struct trace_array *tr)
{
	int ret;

	if (!tr->gops)
		return -ENOMEM;
	ret = register_ftrace_graph(tr->gops);
	if (ret)
		return ret;
	/* The task column needs comm for every pid that shows up. */
	tracing_start_cmdline_record();
	return 0;
}

static void fgraph_tracer_reset(struct trace_array *tr)
{
	tracing_stop_cmdline_record();
	unregister_ftrace_graph(tr->gops);
}

static int fgraph_set_flag(struct trace_array *tr, u32 old_flags, u32 bit,
			   int set)
{
	/* The other options only change printing, which reads them itself. */
	switch (bit) {
	case TRACE_GRAPH_PRINT_IRQS:
		WRITE_ONCE(fgraph_skip_irqs, !set);
		break;
	case TRACE_GRAPH_SLEEP_TIME:
		ftrace_graph_sleep_time_control(set);
		break;
	case TRACE_GRAPH_GRAPH_TIME:
		fgraph_set_graph_time(set);
		break;
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * Reader state
 */

/* What a reader knows about one CPU's output so far. */
struct fgraph_cpu {
	/* Task of the last line printed, -1 before the first */
	pid_t		last_pid;
	/* Comments print one level inside this depth */
	int		depth;
	/* funcgraph-irqs off: depth of the IRQ entry being hidden, or -1 */
	int		irq_depth;
	/*
	 * The buffer's first record is a return already printed with its
	 * entry as a leaf (see fgraph_replay()): drop it on sight.
	 */
	bool		skip_ret;
	struct ftrace_graph_ret_entry	printed_ret;
	/* The function whose block is open at each depth, or 0 */
	unsigned long	open_func[FTRACE_RETFUNC_DEPTH];
};

/*
 * An entry line that did not fit after a consuming read had taken its
 * record out of the buffer (the leaf lookahead needs that): trace.c will
 * not offer it again, so it is kept and printed before anything else.
 */
struct fgraph_replay {
	bool				valid;
	bool				leaf;
	int				cpu;
	u64				ts;
	struct ftrace_graph_ent_entry	call;
	struct ftrace_graph_ret_entry	ret;
};

struct fgraph_state {
	struct fgraph_cpu __percpu	*cpus;
	struct fgraph_replay		replay;
};

/**
 * graph_trace_open - give a reader the state graph output needs
 * @iter: the reader's iterator; the state goes into @iter->private
 *
 * Also called by ftrace_dump(), with interrupts off.  Without memory,
 * @iter->private stays NULL and printing does without the state.
 */
void graph_trace_open(struct trace_iterator *iter)
{
	gfp_t gfp = (in_atomic() || irqs_disabled()) ? GFP_ATOMIC : GFP_KERNEL;
	struct fgraph_state *st;
	int cpu;

	iter->private = NULL;

	st = kzalloc(sizeof(*st), gfp);
	if (st)
		st->cpus = alloc_percpu_gfp(struct fgraph_cpu, gfp);
	if (!st || !st->cpus) {
		kfree(st);
		pr_warn("function graph tracer: not enough memory\n");
		return;
	}

	for_each_possible_cpu(cpu) {
		struct fgraph_cpu *c = per_cpu_ptr(st->cpus, cpu);

		c->last_pid = -1;
		c->irq_depth = -1;
	}
	iter->private = st;
}

/**
 * graph_trace_close - free what graph_trace_open() gave a reader
 * @iter: the reader's iterator
 */
void graph_trace_close(struct trace_iterator *iter)
{
	struct fgraph_state *st = iter->private;

	if (!st)
		return;
	free_percpu(st->cpus);
	kfree(st);
	iter->private = NULL;
}

static bool fgraph_block_matches(struct fgraph_cpu *c, int depth,
				 unsigned long func)
{
	/* Without a record of it, trust the return. */
	if (!c || depth < 0 || depth >= FTRACE_RETFUNC_DEPTH)
		return true;
	return c->open_func[depth] == func;
}

static void fgraph_set_block(struct fgraph_cpu *c, int depth,
			     unsigned long func)
{
	if (depth >= 0 && depth < FTRACE_RETFUNC_DEPTH)
		c->open_func[depth] = func;
}

/* ---------------------------------------------------------------------
 * Line pieces
 */

/*
 * One output line and the record it describes.  The record header and
 * time are not always iter->ent and iter->ts: a replayed entry prints
 * with its own.
 */
struct fgraph_line {
	struct trace_iterator	*iter;
	struct trace_seq	*s;
	struct fgraph_cpu	*cpu_state;	/* NULL: no reader state */
	struct trace_entry	*hdr;		/* pid, latency flags */
	u64			ts;
	int			cpu;
	u32			flags;		/* TRACE_GRAPH_PRINT_*, ours */
	bool			context;	/* context-info */
	bool			latency;	/* latency-format */
};

static void fgraph_line_init(struct fgraph_line *ln,
			     struct trace_iterator *iter,
			     struct fgraph_state *st, struct trace_entry *hdr,
			     u64 ts, int cpu, u32 flags)
{
	unsigned long trace_flags = iter->tr->trace_flags;

	*ln = (struct fgraph_line) {
		.iter		= iter,
		.s		= &iter->seq,
		.cpu_state	= st ? per_cpu_ptr(st->cpus, cpu) : NULL,
		.hdr		= hdr,
		.ts		= ts,
		.cpu		= cpu,
		.flags		= flags,
		.context	= trace_flags & TRACE_ITER_CONTEXT_INFO,
		.latency	= trace_flags & TRACE_ITER_LATENCY_FMT,
	};
}

static void fgraph_print_cpu(struct trace_seq *s, int cpu)
{
	trace_seq_printf(s, " %*d) ", fgraph_cpu_width, cpu);
}

/* "comm-pid", centred, with comm cut to 7 characters. */
static void fgraph_print_task(struct trace_seq *s, pid_t pid)
{
	char comm[TASK_COMM_LEN];
	char label[32];
	int pad;

	trace_find_cmdline(pid, comm);
	pad = FGRAPH_TASK_WIDTH -
	      snprintf(label, sizeof(label), "%.7s-%d", comm, pid);
	if (pad < 0)
		pad = 0;
	trace_seq_printf(s, "%*s%s%*s", pad / 2, "", label, pad - pad / 2, "");
}

static void fgraph_indent(struct trace_seq *s, int depth)
{
	if (depth > 0)
		trace_seq_printf(s, "%*s", depth * FGRAPH_INDENT, "");
}

/*
 * A banner when the CPU's output moves to another task.  Printed always,
 * even without context-info; not before a CPU's first line.
 */
static void fgraph_print_switch(struct fgraph_line *ln)
{
	pid_t last;

	if (!ln->cpu_state)
		return;
	last = ln->cpu_state->last_pid;
	if (last == -1 || last == ln->hdr->pid)
		return;

	trace_seq_puts(ln->s, FGRAPH_RULE "\n");
	fgraph_print_cpu(ln->s, ln->cpu);
	fgraph_print_task(ln->s, last);
	trace_seq_puts(ln->s, " => ");
	fgraph_print_task(ln->s, ln->hdr->pid);
	trace_seq_puts(ln->s, "\n" FGRAPH_RULE "\n\n");
}

/* The columns before the duration: time, CPU, task, latency flags. */
static void fgraph_print_columns(struct fgraph_line *ln)
{
	struct trace_seq *s = ln->s;

	if (!ln->context)
		return;

	if (ln->flags & TRACE_GRAPH_PRINT_ABS_TIME) {
		u32 nsec;
		u64 sec = div_u64_rem(ln->ts, NSEC_PER_SEC, &nsec);

		trace_seq_printf(s, "%5lu.%06lu |  ", (unsigned long)sec,
				 (unsigned long)(nsec / NSEC_PER_USEC));
	}

	if (ln->flags & TRACE_GRAPH_PRINT_REL_TIME) {
		u64 since = ln->ts - ln->iter->array_buffer->time_start;

		trace_seq_printf(s, "%9llu us |  ",
				 div_u64(since, NSEC_PER_USEC));
	}

	if (ln->flags & TRACE_GRAPH_PRINT_CPU)
		fgraph_print_cpu(s, ln->cpu);

	if (ln->flags & TRACE_GRAPH_PRINT_PROC) {
		fgraph_print_task(s, ln->hdr->pid);
		trace_seq_puts(s, " | ");
	}

	if (ln->latency) {
		trace_seq_putc(s, ' ');
		trace_print_lat_fmt(s, ln->hdr);
		trace_seq_puts(s, " | ");
	}
}

static bool fgraph_has_duration(const struct fgraph_line *ln)
{
	return ln->context && (ln->flags & TRACE_GRAPH_PRINT_DURATION);
}

/* The duration column of a line that closes a call. */
static void fgraph_print_time(struct fgraph_line *ln, u64 duration)
{
	if (!fgraph_has_duration(ln))
		return;

	if (ln->flags & TRACE_GRAPH_PRINT_OVERHEAD)
		trace_seq_printf(ln->s, "%c ", trace_find_mark(duration));
	else
		trace_seq_puts(ln->s, "  ");
	trace_print_graph_duration(duration, ln->s);
	trace_seq_puts(ln->s, "|  ");
}

/* The duration column of a line without a duration. */
static void fgraph_print_no_time(struct fgraph_line *ln)
{
	if (fgraph_has_duration(ln))
		trace_seq_puts(ln->s, "              |  ");
}

static bool fgraph_is_irq_entry(unsigned long func)
{
	return func >= (unsigned long)__irqentry_text_start &&
	       func < (unsigned long)__irqentry_text_end;
}

/*
 * Entering (before the entry line) or leaving (after the closing line)
 * an IRQ entry function gets a line of its own, an arrow in the
 * duration column.
 */
static void fgraph_print_irq_arrow(struct fgraph_line *ln,
				   unsigned long func, bool enter)
{
	bool column = fgraph_has_duration(ln);

	if (!fgraph_is_irq_entry(func))
		return;

	fgraph_print_columns(ln);
	trace_seq_printf(ln->s, "%s%s%s\n", column ? "  " : "",
			 enter ? "==========>" : "<==========",
			 column ? " |" : "");
}

/*
 * funcgraph-retval: a leaf line ends in a comment "= <value>", a closing
 * brace in a comment "func = <value>", tail or not.  Without
 * funcgraph-retval-hex, a value that reads as an error code (also as an
 * int in the low half of a 64-bit register) prints in signed decimal.
 */
static void fgraph_print_retval(struct trace_seq *s, unsigned long func,
				unsigned long retval, bool leaf, u32 flags)
{
	unsigned long err = retval;

	if (IS_ENABLED(CONFIG_64BIT) && upper_32_bits(err) == 0 &&
	    (err & BIT(31)))
		err = (unsigned long)(long)(s32)err;

	if (leaf)
		trace_seq_printf(s, "%ps(); /* = ", (void *)func);
	else
		trace_seq_printf(s, "} /* %ps = ", (void *)func);

	if (!(flags & TRACE_GRAPH_PRINT_RETVAL_HEX) && IS_ERR_VALUE(err))
		trace_seq_printf(s, "%ld */\n", (long)err);
	else
		trace_seq_printf(s, "0x%lx */\n", retval);
}

/**
 * trace_print_graph_duration - print a duration in microseconds
 * @duration: the duration in nanoseconds
 * @s: where to print it
 *
 * Decimals are given up as integer digits grow, so that the number fills
 * its column for as long as it can; the profiler uses it too.
 */
void trace_print_graph_duration(unsigned long long duration,
				struct trace_seq *s)
{
	/* Divisors leaving 0 to 3 decimals of the nanoseconds */
	static const u32 keep[] = { 1000, 100, 10, 1 };
	char digits[24];
	int width, decimals;
	u32 nsec;
	u64 usec = div_u64_rem(duration, NSEC_PER_USEC, &nsec);

	width = snprintf(digits, sizeof(digits), "%llu", usec);
	trace_seq_puts(s, digits);

	decimals = clamp(FGRAPH_DURATION_DIGITS - width, 0, 3);
	if (decimals) {
		/* Truncated, not rounded. */
		trace_seq_printf(s, ".%0*u", decimals, nsec / keep[decimals]);
		width += decimals + 1;
	}
	trace_seq_puts(s, " us ");
	if (width < FGRAPH_DURATION_WIDTH)
		trace_seq_printf(s, "%*s", FGRAPH_DURATION_WIDTH - width, "");
}

/* ---------------------------------------------------------------------
 * Lines
 */

/*
 * funcgraph-irqs off, for a reader: nothing prints from an IRQ entry down
 * to its return; this covers what was recorded while the option was on.
 */
static bool fgraph_irq_hides_call(struct fgraph_line *ln,
				  const struct ftrace_graph_ent *call)
{
	struct fgraph_cpu *c = ln->cpu_state;

	if (!c || (ln->flags & TRACE_GRAPH_PRINT_IRQS))
		return false;
	if (c->irq_depth >= 0)
		return true;
	if (!fgraph_is_irq_entry(call->func))
		return false;
	c->irq_depth = call->depth;
	return true;
}

static bool fgraph_irq_hides_return(struct fgraph_line *ln, int depth)
{
	struct fgraph_cpu *c = ln->cpu_state;

	if (!c || (ln->flags & TRACE_GRAPH_PRINT_IRQS) || c->irq_depth < 0)
		return false;
	/*
	 * Back at (or, with lost records, above) the depth the IRQ was
	 * entered at: this return is the last line hidden.
	 */
	if (depth <= c->irq_depth)
		c->irq_depth = -1;
	return true;
}

/*
 * Is the record after @call, on the same CPU, its own return?  Then the
 * pair prints as one leaf line.  A consuming read has to consume @call
 * to see what follows (so @call must be a copy), and leaves the return
 * first in the buffer for trace.c to consume.
 */
static bool fgraph_find_leaf(struct trace_iterator *iter,
			     const struct ftrace_graph_ent_entry *call,
			     struct ftrace_graph_ret_entry *ret)
{
	struct ring_buffer_iter *ring_iter = trace_buffer_iter(iter, iter->cpu);
	struct trace_buffer *buffer = iter->array_buffer->buffer;
	struct ftrace_graph_ret_entry *next;
	struct ring_buffer_event *event;

	if (ring_iter) {
		event = ring_buffer_iter_peek(ring_iter, NULL);
	} else {
		ring_buffer_consume(buffer, iter->cpu, NULL, NULL);
		event = ring_buffer_peek(buffer, iter->cpu, NULL, NULL);
	}
	if (!event)
		return false;

	next = ring_buffer_event_data(event);
	if (next->ent.type != TRACE_GRAPH_RET ||
	    next->ent.pid != call->ent.pid ||
	    next->ret.func != call->graph_ent.func)
		return false;

	*ret = *next;
	if (ring_iter)
		ring_buffer_iter_advance(ring_iter);
	return true;
}

/*
 * The line(s) of an entry: a leaf when @ret is its return, else a block.
 * The CPU's state moves on only once the whole output fits in the seq, so
 * a line printed again after an overflow looks as it would have the first
 * time.
 */
static enum print_line_t fgraph_print_call(struct fgraph_line *ln,
					   const struct ftrace_graph_ent *call,
					   const struct ftrace_graph_ret *ret)
{
	struct fgraph_cpu *c = ln->cpu_state;
	struct trace_seq *s = ln->s;

	fgraph_print_switch(ln);
	fgraph_print_irq_arrow(ln, call->func, true);
	fgraph_print_columns(ln);

	if (ret) {
		fgraph_print_time(ln, ret->rettime - ret->calltime);
		fgraph_indent(s, call->depth);
		if (ln->flags & TRACE_GRAPH_PRINT_RETVAL)
			fgraph_print_retval(s, call->func, fgraph_retval(ret), true,
					    ln->flags);
		else
			trace_seq_printf(s, "%ps();\n", (void *)call->func);
		fgraph_print_irq_arrow(ln, call->func, false);
	} else {
		fgraph_print_no_time(ln);
		fgraph_indent(s, call->depth);
		trace_seq_printf(s, "%ps() {\n", (void *)call->func);
	}

	if (trace_seq_has_overflowed(s))
		return TRACE_TYPE_PARTIAL_LINE;

	if (c) {
		c->last_pid = ln->hdr->pid;
		/* Comments go inside an open block, level with a leaf. */
		c->depth = ret ? call->depth - 1 : call->depth;
		fgraph_set_block(c, call->depth, ret ? 0 : call->func);
	}

	/*
	 * A block's entry may already be consumed by the lookahead, and
	 * what follows it is not ours to consume.  A leaf's return is.
	 */
	return ret ? TRACE_TYPE_HANDLED : TRACE_TYPE_NO_CONSUME;
}

static enum print_line_t fgraph_show_entry(struct trace_iterator *iter,
					   struct fgraph_state *st, u32 flags)
{
	struct ftrace_graph_ent_entry *field;
	struct ftrace_graph_ent_entry call;
	struct ftrace_graph_ret_entry ret;
	struct fgraph_replay *rp;
	struct fgraph_line ln;
	enum print_line_t status;
	bool leaf;

	/* A copy: the lookahead may consume the record under us. */
	trace_assign_type(field, iter->ent);
	call = *field;

	fgraph_line_init(&ln, iter, st, &call.ent, iter->ts, iter->cpu, flags);
	if (fgraph_irq_hides_call(&ln, &call.graph_ent))
		return TRACE_TYPE_HANDLED;

	leaf = fgraph_find_leaf(iter, &call, &ret);
	status = fgraph_print_call(&ln, &call.graph_ent, leaf ? &ret.ret : NULL);

	/* Only a consuming read loses the record with the line. */
	if (status != TRACE_TYPE_PARTIAL_LINE || !st ||
	    trace_buffer_iter(iter, iter->cpu))
		return status;

	rp = &st->replay;
	rp->valid = true;
	rp->leaf = leaf;
	rp->cpu = iter->cpu;
	rp->ts = iter->ts;
	rp->call = call;
	if (leaf)
		rp->ret = ret;
	return status;
}

static bool fgraph_is_printed_ret(struct trace_entry *ent,
				  const struct ftrace_graph_ret_entry *ret)
{
	return ent->type == TRACE_GRAPH_RET &&
	       !memcmp(ent, ret, sizeof(*ret));
}

/*
 * Print the entry kept by fgraph_show_entry() before whatever trace.c
 * offers now.  A leaf's return still heads its CPU's buffer, and is
 * compared in full first: an overwriting writer may have taken it.
 */
static enum print_line_t fgraph_replay(struct trace_iterator *iter,
				       struct fgraph_state *st, u32 flags)
{
	struct fgraph_replay *rp = &st->replay;
	bool seq_was_empty = !trace_seq_used(&iter->seq);
	struct fgraph_line ln;
	struct fgraph_cpu *c;

	fgraph_line_init(&ln, iter, st, &rp->call.ent, rp->ts, rp->cpu, flags);
	if (fgraph_print_call(&ln, &rp->call.graph_ent,
			      rp->leaf ? &rp->ret.ret : NULL) ==
	    TRACE_TYPE_PARTIAL_LINE) {
		/* Too big for a whole seq: it never will fit. */
		if (seq_was_empty)
			rp->valid = false;
		return TRACE_TYPE_PARTIAL_LINE;
	}

	rp->valid = false;
	if (!rp->leaf)
		return TRACE_TYPE_NO_CONSUME;

	if (iter->cpu == rp->cpu)
		return fgraph_is_printed_ret(iter->ent, &rp->ret) ?
		       TRACE_TYPE_HANDLED : TRACE_TYPE_NO_CONSUME;

	c = per_cpu_ptr(st->cpus, rp->cpu);
	c->printed_ret = rp->ret;
	c->skip_ret = true;
	return TRACE_TYPE_NO_CONSUME;
}

static enum print_line_t fgraph_show_return(struct trace_iterator *iter,
					    struct fgraph_state *st, u32 flags)
{
	struct ftrace_graph_ret_entry *field;
	struct ftrace_graph_ret *ret;
	struct fgraph_line ln;
	struct fgraph_cpu *c;
	struct trace_seq *s;
	bool matched;

	trace_assign_type(field, iter->ent);
	ret = &field->ret;

	fgraph_line_init(&ln, iter, st, iter->ent, iter->ts, iter->cpu, flags);
	if (fgraph_irq_hides_return(&ln, ret->depth))
		return TRACE_TYPE_HANDLED;

	c = ln.cpu_state;
	s = ln.s;
	/* No matching block: its entry was lost, filtered or overwritten. */
	matched = fgraph_block_matches(c, ret->depth, ret->func);

	fgraph_print_switch(&ln);
	fgraph_print_columns(&ln);
	fgraph_print_time(&ln, ret->rettime - ret->calltime);
	fgraph_indent(s, ret->depth);

	if (flags & TRACE_GRAPH_PRINT_RETVAL)
		fgraph_print_retval(s, ret->func, fgraph_retval(ret), false, flags);
	else if (matched && !(flags & TRACE_GRAPH_PRINT_TAIL))
		trace_seq_puts(s, "}\n");
	else
		trace_seq_printf(s, "} /* %ps */\n", (void *)ret->func);

	if (flags & TRACE_GRAPH_PRINT_OVERRUN)
		trace_seq_printf(s, " (Overruns: %u)\n", ret->overrun);
	fgraph_print_irq_arrow(&ln, ret->func, false);

	if (trace_seq_has_overflowed(s))
		return TRACE_TYPE_PARTIAL_LINE;

	if (c) {
		c->last_pid = ln.hdr->pid;
		/* Comments go level with the brace now. */
		c->depth = ret->depth - 1;
		fgraph_set_block(c, ret->depth, 0);
	}
	return TRACE_TYPE_HANDLED;
}

/* Drop the newline most messages end with; the comment closes the line. */
static void fgraph_trim_newline(struct trace_seq *s)
{
	size_t len = s->seq.len;

	if (len && s->buffer[len - 1] == '\n')
		s->seq.len = len - 1;
}

/* Any other record: a comment inside the innermost open block. */
static enum print_line_t fgraph_show_comment(struct trace_iterator *iter,
					     struct fgraph_state *st, u32 flags)
{
	unsigned long sym_flags = iter->tr->trace_flags & TRACE_ITER_SYM_MASK;
	struct trace_event *event = NULL;
	struct trace_seq *s = &iter->seq;
	int type = iter->ent->type;
	enum print_line_t status;
	struct fgraph_line ln;
	int depth;

	if (type != TRACE_BPUTS && type != TRACE_BPRINT && type != TRACE_PRINT) {
		event = ftrace_find_event(type);
		/* Let trace.c deal with a type nobody knows, untouched. */
		if (!event)
			return TRACE_TYPE_UNHANDLED;
	}

	fgraph_line_init(&ln, iter, st, iter->ent, iter->ts, iter->cpu, flags);
	depth = ln.cpu_state ? ln.cpu_state->depth : 0;

	fgraph_print_switch(&ln);
	fgraph_print_columns(&ln);
	fgraph_print_no_time(&ln);
	if (depth > 0)
		fgraph_indent(s, depth + 1);
	trace_seq_puts(s, "/* ");

	switch (type) {
	case TRACE_BPUTS:
		status = trace_print_bputs_msg_only(iter);
		break;
	case TRACE_BPRINT:
		status = trace_print_bprintk_msg_only(iter);
		break;
	case TRACE_PRINT:
		status = trace_print_printk_msg_only(iter);
		break;
	default:
		status = event->funcs->trace(iter, sym_flags, event);
		break;
	}
	if (status != TRACE_TYPE_HANDLED)
		return status;

	if (!trace_seq_has_overflowed(s))
		fgraph_trim_newline(s);
	trace_seq_puts(s, " */\n");

	if (trace_seq_has_overflowed(s))
		return TRACE_TYPE_PARTIAL_LINE;
	if (ln.cpu_state)
		ln.cpu_state->last_pid = ln.hdr->pid;
	return TRACE_TYPE_HANDLED;
}

static enum print_line_t fgraph_print(struct trace_iterator *iter, u32 flags,
				      struct fgraph_state *st)
{
	if (st) {
		struct fgraph_cpu *c = per_cpu_ptr(st->cpus, iter->cpu);

		if (st->replay.valid)
			return fgraph_replay(iter, st, flags);

		if (c->skip_ret) {
			c->skip_ret = false;
			if (fgraph_is_printed_ret(iter->ent, &c->printed_ret))
				return TRACE_TYPE_HANDLED;
		}
	}

	switch (iter->ent->type) {
	case TRACE_GRAPH_ENT:
		return fgraph_show_entry(iter, st, flags);
	case TRACE_GRAPH_RET:
		return fgraph_show_return(iter, st, flags);
	case TRACE_FN:
	case TRACE_STACK:
		/* trace.c prints these its own way, not as comments. */
		return TRACE_TYPE_UNHANDLED;
	default:
		return fgraph_show_comment(iter, st, flags);
	}
}

/**
 * print_graph_function_flags - print the current record as graph output
 * @iter: the reader; its ->private is graph_trace_open()'s state or NULL
 * @flags: TRACE_GRAPH_PRINT_* bits choosing the columns
 *
 * Return: TRACE_TYPE_HANDLED; TRACE_TYPE_NO_CONSUME when the record must
 * stay in the buffer (it was consumed already, or it is not printed yet);
 * TRACE_TYPE_PARTIAL_LINE when the seq is full; TRACE_TYPE_UNHANDLED for
 * records that trace.c prints itself.
 */
enum print_line_t print_graph_function_flags(struct trace_iterator *iter,
					     u32 flags)
{
	return fgraph_print(iter, flags, iter->private);
}

static enum print_line_t fgraph_tracer_print_line(struct trace_iterator *iter)
{
	return print_graph_function_flags(iter, fgraph_flags.val);
}

/* Graph records met by a reader of another tracer, whose ->private is not ours. */
static enum print_line_t fgraph_event_print(struct trace_iterator *iter,
					    int sym_flags,
					    struct trace_event *event)
{
	return fgraph_print(iter, fgraph_flags.val, NULL);
}

/* ---------------------------------------------------------------------
 * Header
 */

/* A header column: title and tick marks, as wide as its data. */
struct fgraph_column {
	u32		flag;		/* 0: the latency-format column */
	const char	*title;
	const char	*ticks;
};

static const struct fgraph_column fgraph_columns[] = {
	{ TRACE_GRAPH_PRINT_ABS_TIME,	"     TIME       ",	"      |         " },
	{ TRACE_GRAPH_PRINT_REL_TIME,	"   REL TIME     ",	"      |         " },
	{ TRACE_GRAPH_PRINT_CPU,	" CPU",			" |  " },
	{ TRACE_GRAPH_PRINT_PROC,	"  TASK/PID       ",	"   |    |        " },
	{ 0,				"||||   ",		"||||   " },
	{ TRACE_GRAPH_PRINT_DURATION,	"  DURATION   ",	"   |   |      " },
};

static bool fgraph_column_shown(const struct fgraph_column *col, u32 flags,
				bool latency)
{
	return col->flag ? flags & col->flag : latency;
}

/*
 * The latency-format legend.  Its arrows point down at the latency
 * column, so it is indented by the titles of the columns before that.
 */
static void fgraph_print_legend(struct seq_file *m, u32 flags)
{
	static const char * const legend[] = {
		"  _-----=> irqs-off        ",
		" / _----=> need-resched    ",
		"| / _---=> hardirq/softirq ",
		"|| / _--=> preempt-depth   ",
		"||| /                      ",
	};
	const struct fgraph_column *col;
	unsigned int i;
	int indent = 0;

	for (col = fgraph_columns; col->flag; col++)
		if (flags & col->flag)
			indent += strlen(col->title);

	for (i = 0; i < ARRAY_SIZE(legend); i++)
		seq_printf(m, "#%*s%s\n", indent, "", legend[i]);
}

/**
 * print_graph_headers_flags - print the column header of graph output
 * @s: the trace file; its ->private is the trace_iterator
 * @flags: TRACE_GRAPH_PRINT_* bits choosing the columns
 *
 * Nothing without context-info.  With latency-format, nothing for an
 * empty buffer, else the latency banner and legend first.
 */
void print_graph_headers_flags(struct seq_file *s, u32 flags)
{
	struct trace_iterator *iter = s->private;
	unsigned long trace_flags = iter->tr->trace_flags;
	bool latency = trace_flags & TRACE_ITER_LATENCY_FMT;
	unsigned int i;

	if (!(trace_flags & TRACE_ITER_CONTEXT_INFO))
		return;

	if (latency) {
		if (trace_empty(iter))
			return;
		print_trace_header(s, iter);
		fgraph_print_legend(s, flags);
	}

	seq_putc(s, '#');
	for (i = 0; i < ARRAY_SIZE(fgraph_columns); i++)
		if (fgraph_column_shown(&fgraph_columns[i], flags, latency))
			seq_puts(s, fgraph_columns[i].title);
	seq_puts(s, "               FUNCTION CALLS\n");

	seq_putc(s, '#');
	for (i = 0; i < ARRAY_SIZE(fgraph_columns); i++)
		if (fgraph_column_shown(&fgraph_columns[i], flags, latency))
			seq_puts(s, fgraph_columns[i].ticks);
	seq_puts(s, "               |   |   |   |\n");
}

static void fgraph_tracer_print_header(struct seq_file *s)
{
	print_graph_headers_flags(s, fgraph_flags.val);
}

/* ---------------------------------------------------------------------
 * Registration
 */

static struct tracer graph_tracer __tracer_data = {
	.name		= "function_graph",
	.init		= fgraph_tracer_init,
	.reset		= fgraph_tracer_reset,
	.open		= graph_trace_open,
	.pipe_open	= graph_trace_open,
	.close		= graph_trace_close,
	.pipe_close	= graph_trace_close,
	.print_line	= fgraph_tracer_print_line,
	.print_header	= fgraph_tracer_print_header,
	.flags		= &fgraph_flags,
	.set_flag	= fgraph_set_flag,
	.allow_instances = true,
#ifdef CONFIG_FTRACE_STARTUP_TEST
	.selftest	= trace_selftest_startup_function_graph,
#endif
};

static struct trace_event_functions fgraph_event_funcs = {
	.trace		= fgraph_event_print,
};

static struct trace_event fgraph_entry_event = {
	.type		= TRACE_GRAPH_ENT,
	.funcs		= &fgraph_event_funcs,
};

static struct trace_event fgraph_return_event = {
	.type		= TRACE_GRAPH_RET,
	.funcs		= &fgraph_event_funcs,
};

static ssize_t fgraph_depth_read(struct file *filp, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	char buf[16];
	int len;

	/* Signed: above INT_MAX reads negative, as scripts expect. */
	len = snprintf(buf, sizeof(buf), "%d\n",
		       (int)READ_ONCE(fgraph_max_depth));
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static ssize_t fgraph_depth_write(struct file *filp, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	unsigned long depth;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &depth);
	if (ret)
		return ret;

	/* Running tracers see it at their next call; no restart. */
	WRITE_ONCE(fgraph_max_depth, depth);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations fgraph_depth_fops = {
	.open		= tracing_open_generic,
	.read		= fgraph_depth_read,
	.write		= fgraph_depth_write,
	.llseek		= generic_file_llseek,
};

static __init int fgraph_tracefs_init(void)
{
	if (tracing_init_dentry())
		return 0;

	trace_create_file("max_graph_depth", TRACE_MODE_WRITE, NULL, NULL,
			  &fgraph_depth_fops);
	return 0;
}
fs_initcall(fgraph_tracefs_init);

/* Take the option of @bit out of the list, keeping the others' order. */
static void __init fgraph_drop_opt(u32 bit)
{
	struct tracer_opt *opt;

	for (opt = fgraph_opts; opt->name; opt++) {
		if (opt->bit == bit) {
			memmove(opt, opt + 1, (ARRAY_SIZE(fgraph_opts) -
					       (opt + 1 - fgraph_opts)) * sizeof(*opt));
			return;
		}
	}
}

static __init int fgraph_tracer_register(void)
{

	fgraph_cpu_width = snprintf(NULL, 0, "%u", nr_cpu_ids - 1);

	/* graph-time steers only the profiler: no profiler, no option. */
	if (!IS_ENABLED(CONFIG_FUNCTION_PROFILER))
		fgraph_drop_opt(TRACE_GRAPH_GRAPH_TIME);
	/* Return values are recorded only with CONFIG_FUNCTION_GRAPH_RETVAL. */
	if (!IS_ENABLED(CONFIG_FUNCTION_GRAPH_RETVAL)) {
		fgraph_drop_opt(TRACE_GRAPH_PRINT_RETVAL);
		fgraph_drop_opt(TRACE_GRAPH_PRINT_RETVAL_HEX);
	}

	if (!register_trace_event(&fgraph_entry_event) ||
	    !register_trace_event(&fgraph_return_event)) {
		pr_warn("Warning: could not register graph trace events\n");
		return -EBUSY;
	}

	return register_tracer(&graph_tracer);
}
core_initcall(fgraph_tracer_register);
