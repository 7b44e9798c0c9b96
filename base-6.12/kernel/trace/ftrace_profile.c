// SPDX-License-Identifier: GPL-2.0
/*
 * The function profiler: function_profile_enabled starts counting calls
 * of every function the top-level filter allows, per CPU, in the tables
 * of ftrace_profile_slots.c, and trace_stat/functionN lists them by hit
 * count.  The tables are sized at the first start from the number of
 * functions.  With the function graph tracer built, the profiler is a
 * graph user (fgraph_profile.c) and also sums each function's time: the
 * list then shows time, average and variance, sorted by time.
 */
#include <linux/seq_file.h>
#include <linux/tracefs.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "trace.h"
#include "trace_stat.h"
#include "ftrace_internal.h"

#define PROFILE_MIN_BITS	10

static DEFINE_MUTEX(profile_lock);
static bool profile_enabled;

static void profile_call(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	ftrace_profile_count(ip);
}

static struct ftrace_ops profile_ops = {
	.func	= profile_call,
	.flags	= FTRACE_OPS_FL_RECURSION,
};

static void *next_used(struct profile_cpu *pc, struct profile_slot *s)
{
	for (; s < pc->slots + (1U << ftrace_profile_bits); s++)
		if (READ_ONCE(s->ip))
			return s;
	return NULL;
}

static void *stat_start(struct tracer_stat *trace)
{
	struct profile_cpu *pc = container_of(trace, struct profile_cpu, stat);

	return next_used(pc, pc->slots);
}

static struct profile_cpu *slot_cpu(struct profile_slot *s)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct profile_cpu *pc = ftrace_profiles[cpu];

		if (s >= pc->slots && s < pc->slots + (1U << ftrace_profile_bits))
			return pc;
	}
	return NULL;
}

static void *stat_next(void *prev, int idx)
{
	struct profile_cpu *pc = slot_cpu(prev);

	return pc ? next_used(pc, (struct profile_slot *)prev + 1) : NULL;
}

static int stat_cmp(const void *a, const void *b)
{
	const struct profile_slot *x = a, *y = b;

	/*
	 * Timed: the most time first; else the most hits first.  trace_stat
	 * lists a row before another when the comparison is positive.
	 */
	if (fgraph_profile_timed())
		return (x->time > y->time) - (x->time < y->time);
	return (x->hits > y->hits) - (x->hits < y->hits);
}

static int stat_headers(struct seq_file *m)
{
	if (fgraph_profile_timed()) {
		seq_puts(m, "  Function                               Hit    Time            Avg             s^2\n"
			    "  --------                               ---    ----            ---             ---\n");
		return 0;
	}
	seq_puts(m, "  Function                               Hit\n"
		    "  --------                               ---\n");
	return 0;
}

static int stat_show(struct seq_file *m, void *p)
{
	struct profile_slot *s = p;
	char sym[KSYM_SYMBOL_LEN];

	if (fgraph_profile_hidden(s))
		return 0;
	kallsyms_lookup(s->ip, NULL, NULL, NULL, sym);
	seq_printf(m, "  %-30.30s  %10lu", sym, s->hits);
	if (fgraph_profile_timed())
		fgraph_profile_show_times(m, s);
	seq_putc(m, '\n');
	return 0;
}

static void profile_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (ftrace_profiles[cpu])
			vfree(ftrace_profiles[cpu]->slots);
		kfree(ftrace_profiles[cpu]);
	}
	kfree(ftrace_profiles);
	ftrace_profiles = NULL;
}

static int profile_alloc(void)
{
	unsigned long funcs = READ_ONCE(ftrace_update_tot_cnt);
	int cpu;

	if (ftrace_profiles)
		return 0;
	/*
	 * Room for every function with a fifth to spare, so that probes
	 * stay short.  Functions of modules loaded later share the spare.
	 */
	ftrace_profile_bits = max_t(unsigned int, PROFILE_MIN_BITS,
				    order_base_2(funcs + funcs / 4));
	ftrace_profiles = kcalloc(nr_cpu_ids, sizeof(*ftrace_profiles), GFP_KERNEL);
	if (!ftrace_profiles)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct profile_cpu *pc = kzalloc(sizeof(*pc), GFP_KERNEL);

		if (!pc)
			goto nomem;
		ftrace_profiles[cpu] = pc;
		pc->slots = vcalloc(1UL << ftrace_profile_bits, sizeof(*pc->slots));
		if (!pc->slots)
			goto nomem;
	}
	for_each_possible_cpu(cpu) {
		struct profile_cpu *pc = ftrace_profiles[cpu];

		snprintf(pc->name, sizeof(pc->name), "function%d", cpu);
		pc->stat.name = pc->name;
		pc->stat.stat_start = stat_start;
		pc->stat.stat_next = stat_next;
		pc->stat.stat_cmp = stat_cmp;
		pc->stat.stat_show = stat_show;
		pc->stat.stat_headers = stat_headers;
		if (register_stat_tracer(&pc->stat))
			pr_warn("ftrace: no trace_stat/%s\n", pc->name);
	}
	return 0;
nomem:
	profile_free();
	return -ENOMEM;
}

/* Calls no slot was found for since the start, on every CPU. */
static unsigned long profile_dropped(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += ftrace_profiles[cpu]->dropped;
	return n;
}

static ssize_t profile_write(struct file *file, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	unsigned long val;
	int cpu, ret;
	bool on;

	/* A number, any non-zero one meaning on, as tracing_on takes. */
	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	on = val;
	mutex_lock(&profile_lock);
	if (on == profile_enabled)
		goto out;
	if (on) {
		ret = profile_alloc();
		if (ret)
			goto out;
		/* A new run starts from zero. */
		for_each_possible_cpu(cpu) {
			memset(ftrace_profiles[cpu]->slots, 0,
			       sizeof(*ftrace_profiles[cpu]->slots) << ftrace_profile_bits);
			ftrace_profiles[cpu]->dropped = 0;
		}
		if (fgraph_profile_timed()) {
			ret = fgraph_profile_start();
		} else {
			ftrace_ops_set_global_filter(&profile_ops);
			ret = register_ftrace_function(&profile_ops);
		}
	} else if (fgraph_profile_timed()) {
		fgraph_profile_stop();
	} else {
		ret = unregister_ftrace_function(&profile_ops);
	}
	if (!ret)
		profile_enabled = on;
	if (!ret && !on && profile_dropped())
		pr_info("ftrace: the function profile dropped %lu calls: no free slot among %u per CPU\n",
			profile_dropped(), 1U << ftrace_profile_bits);
out:
	mutex_unlock(&profile_lock);
	return ret ?: cnt;
}

static ssize_t profile_read(struct file *file, char __user *ubuf, size_t cnt,
			    loff_t *ppos)
{
	char buf[4];
	int len = scnprintf(buf, sizeof(buf), "%d\n", profile_enabled);

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static const struct file_operations profile_fops = {
	.open		= tracing_open_generic,
	.read		= profile_read,
	.write		= profile_write,
	.llseek		= default_llseek,
};

/**
 * ftrace_profile_tracefs - create function_profile_enabled
 * @d_tracer: the top tracefs directory
 */
void ftrace_profile_tracefs(struct dentry *d_tracer)
{
	trace_create_file("function_profile_enabled", TRACE_MODE_WRITE,
			  d_tracer, NULL, &profile_fops);
}
