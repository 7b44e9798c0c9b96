// SPDX-License-Identifier: GPL-2.0
/*
 * The function profiler's graph mode, which sums each call's duration
 * beside its hit count.  With graph-time off, each return hands its
 * duration to its caller's subtime, so the profile shows self time.
 */
#include <linux/ftrace.h>
#include <linux/seq_file.h>
#include <linux/math64.h>
#include <linux/mutex.h>

#include "trace.h"
#include "ftrace_internal.h"

static int profile_graph_entry(struct ftrace_graph_ent *trace,
			       struct fgraph_ops *gops)
{
	ftrace_profile_count(trace->func);
	return 1;
}

static void profile_graph_return(struct ftrace_graph_ret *trace,
				 struct fgraph_ops *gops)
{
	struct ftrace_ret_stack *self, *parent;
	struct profile_slot *s;
	unsigned long flags;
	u64 t;

	if (trace->rettime < trace->calltime)
		return;
	t = trace->rettime - trace->calltime;

	/* An interrupt's calls on this CPU must not tear the sums. */
	local_irq_save(flags);
	if (!READ_ONCE(fgraph_graph_time)) {
	/* This call's entry is index 0 until its return callback ends. */
		self = ftrace_graph_get_ret_stack(current, 0);
		parent = ftrace_graph_get_ret_stack(current, 1);
		if (parent)
			parent->subtime += t;
		/* Children may take the whole call (clock skew, sleep time). */
		t = self && self->subtime < t ? t - self->subtime : 0;
	}
	/* The entry may have counted the hit on another CPU. */
	s = ftrace_profile_find(trace->func);
	if (s) {
		s->time += t;
		s->time_sq += t * t;
	}
	local_irq_restore(flags);
}

static struct fgraph_ops profile_gops = {
	.entryfunc	= profile_graph_entry,
	.retfunc	= profile_graph_return,
};

/**
 * fgraph_profile_start - start profiling as a graph user
 *
 * The profiler counts the functions the top-level filter files choose,
 * beside any other graph user.
 *
 * Return: 0, or what register_ftrace_graph() returned.
 */
int fgraph_profile_start(void)
{
	ftrace_ops_set_global_filter(&profile_gops.ops);
	return register_ftrace_graph(&profile_gops);
}

/**
 * fgraph_profile_stop - stop profiling
 */
void fgraph_profile_stop(void)
{
	unregister_ftrace_graph(&profile_gops);
}

/**
 * fgraph_profile_hidden - whether a row is below tracing_thresh
 * @s: the row
 *
 * Return: true if its average time is under tracing_thresh.
 */
bool fgraph_profile_hidden(struct profile_slot *s)
{
	return tracing_thresh && s->hits &&
		div64_ul(s->time, s->hits) < tracing_thresh;
}

/**
 * fgraph_profile_show_times - the Time, Avg and s^2 columns of a row
 * @m: the stat file
 * @s: the row
 */
void fgraph_profile_show_times(struct seq_file *m, struct profile_slot *s)
{
	/* Too big for the stack; the per-CPU stat files share it. */
	static struct trace_seq ts;
	static DEFINE_MUTEX(ts_lock);
	u64 n = s->hits, avg = 0, var = 0;

	if (n)
		avg = div64_u64(s->time, n);
	/*
	 * Sample variance in ns^2, divided by 1000 more so that the
	 * duration printer's ns -> us shows it in us^2.
	 */
	if (n > 1)
		var = div64_u64(n * s->time_sq - s->time * s->time,
				n * (n - 1) * 1000);
	mutex_lock(&ts_lock);
	trace_seq_init(&ts);
	trace_seq_puts(&ts, "    ");
	trace_print_graph_duration(s->time, &ts);
	trace_seq_puts(&ts, "    ");
	trace_print_graph_duration(avg, &ts);
	trace_seq_puts(&ts, "    ");
	trace_print_graph_duration(var, &ts);
	trace_print_seq(m, &ts);
	mutex_unlock(&ts_lock);
}
