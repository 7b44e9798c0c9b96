// SPDX-License-Identifier: GPL-2.0
/*
 * The cost of registering the Nth ftrace_ops, for 'make bench'.
 *
 * BPF gives every function it attaches to its own ops, so a tool that
 * attaches to a hundred functions registers a hundred ops.  Loading this
 * module with names=a,b,c,... registers one ops per name, each filtered
 * on that function alone, and times every register_ftrace_function(),
 * then unregisters them all, newest first, timing each.  It prints the
 * times of the 1st, 10th, 100th and 1000th (and last) of each:
 *
 *	ftrace_bench_ops: register N NS
 *	ftrace_bench_ops: unregister N NS
 *
 * where N counts the ops registered at that moment, including this one.
 * The callback does nothing: only the core's bookkeeping and patching are
 * measured.  Built as an external module against either variant, so it
 * uses nothing but the exported API.
 *
 * With all=1 instead, it registers one ops with that empty callback on
 * every function and keeps it until it is unloaded: what a traced call
 * costs before any tracer's own work (the site, the trampoline, the
 * dispatch to the callback), for the bench's per-call breakdown.  The
 * ops sets no flags: the callback needs no recursion protection (it is
 * notrace and calls nothing), so the core may call it straight from the
 * trampoline.
 *
 * With keep=1, the ops of names=... stay registered until the module is
 * unloaded, untimed: the bench measures a traced call of another ops
 * while they are there.
 */
#include <linux/ftrace.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

/* An array: a single charp parameter takes at most 1,024 characters. */
#define MAX_OPS		1000
static char *names[MAX_OPS];
static int count;
module_param_array(names, charp, &count, 0);
MODULE_PARM_DESC(names, "comma-separated functions, one ops each (at most 1000)");
static bool keep;
module_param(keep, bool, 0);
MODULE_PARM_DESC(keep, "keep the ops of names registered until unload");
static bool all;
module_param(all, bool, 0);
MODULE_PARM_DESC(all, "one ops on every function, registered until unload");

static void notrace bench_callback(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static struct ftrace_ops *ops;
static int nr_ops;
static struct ftrace_ops all_ops = { .func = bench_callback };

static bool reported(int n)
{
	return n == 1 || n == 10 || n == 100 || n == 1000 || n == count;
}

static void unregister_all(bool timed)
{
	u64 t;

	while (nr_ops > 0) {
		t = ktime_get_ns();
		unregister_ftrace_function(&ops[nr_ops - 1]);
		t = ktime_get_ns() - t;
		if (timed && reported(nr_ops))
			pr_info("ftrace_bench_ops: unregister %d %llu\n", nr_ops, t);
		ftrace_free_filter(&ops[--nr_ops]);
	}
}

static int __init bench_init(void)
{
	int ret = 0;
	u64 t;

	if (all)
		return register_ftrace_function(&all_ops);
	if (!count)
		return -EINVAL;
	ops = kcalloc(count, sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	while (nr_ops < count) {
		struct ftrace_ops *op = &ops[nr_ops];
		char *name = names[nr_ops];

		op->func = bench_callback;
		ret = ftrace_set_filter(op, name, strlen(name), 1);
		if (ret) {
			pr_err("ftrace_bench_ops: no function '%s' (%d)\n", name, ret);
			ftrace_free_filter(op);
			break;
		}
		t = ktime_get_ns();
		ret = register_ftrace_function(op);
		t = ktime_get_ns() - t;
		if (ret) {
			ftrace_free_filter(op);
			break;
		}
		nr_ops++;
		if (!keep && reported(nr_ops))
			pr_info("ftrace_bench_ops: register %d %llu\n", nr_ops, t);
	}
	if (keep && !ret)
		return 0;
	unregister_all(!ret);
	kfree(ops);
	return ret;
}

static void __exit bench_exit(void)
{
	if (all)
		unregister_ftrace_function(&all_ops);
	if (keep) {
		unregister_all(false);
		kfree(ops);
	}
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_DESCRIPTION("Registration cost of the Nth ftrace_ops");
MODULE_LICENSE("GPL");
