// SPDX-License-Identifier: GPL-2.0
/*
 * The graph core's users: registering one (one at a time; a second gets
 * -EBUSY), giving every task a return stack, sleep time, and the switch
 * that stops the graph for good.  The graph ops shares global_ops' hashes,
 * so the top-level filter files choose the hooked sites.
 */
#include <linux/cpu.h>
#include <linux/ftrace.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/suspend.h>
#include <trace/events/sched.h>
#include <trace/events/task.h>

#include "trace.h"
#include "ftrace_internal.h"

/* Allocated before each pass of the task walk, which cannot sleep. */
#define STACK_BATCH	32

/* The task walk and the task_newtask probe may both find one new child. */
static DEFINE_RAW_SPINLOCK(fgraph_give_lock);

static bool fgraph_newtask_on;

static bool fgraph_sleep_time = true;

/* The graph-time option: a profiled function's time includes its callees'. */
bool fgraph_graph_time __read_mostly = true;

static struct ftrace_ops graph_ops = {
	.func		= ftrace_graph_func,
	.role		= FGRAPH_OPS_ROLE,
	.func_hash	= &global_ops.local_hash,
	.local_hash.regex_lock = __MUTEX_INITIALIZER(graph_ops.local_hash.regex_lock),
};

/**
 * ftrace_graph_entry_stub - the entry callback of a user that wants none
 * @trace: the entry
 *
 * Return: 0, the call is not hooked.
 */
int ftrace_graph_entry_stub(struct ftrace_graph_ent *trace)
{
	return 0;
}

/* Return: whether @t was given @stack. */
static bool give_if_none(struct task_struct *t, struct ftrace_ret_stack *stack)
{
	bool given = false;

	raw_spin_lock(&fgraph_give_lock);
	if (!t->ret_stack) {
		fgraph_stack_give(t, stack);
		given = true;
	}
	raw_spin_unlock(&fgraph_give_lock);
	return given;
}

/*
 * A child checks fgraph_stacks_wanted early in copy_process() but is
 * linked on the task list after copy_mm(), which can sleep: a
 * registration in between would miss it.  task_newtask fires after the
 * link, before the child runs.  The barrier pairs with the one in
 * register_ftrace_graph().
 */
static void fgraph_newtask(void *ignore, struct task_struct *t,
			   unsigned long clone_flags)
{
	struct ftrace_ret_stack *stack;

	/* Pairs with register_ftrace_graph()'s: the link before the flag's read. */
	smp_mb();
	if (!READ_ONCE(fgraph_stacks_wanted) || READ_ONCE(t->ret_stack))
		return;
	/* Tracepoint probes run with preemption disabled. */
	stack = fgraph_stack_alloc(GFP_NOWAIT | __GFP_NOWARN);
	if (stack && !give_if_none(t, stack))
		kfree(stack);
}

/*
 * Registered once and kept.  After the grace period every copy_process()
 * either calls it or was linked before the flag goes up.
 */
static int fgraph_newtask_probe(void)
{
	int ret;

	if (fgraph_newtask_on)
		return 0;
	ret = register_trace_task_newtask(fgraph_newtask, NULL);
	if (ret)
		return ret;
	synchronize_rcu();
	fgraph_newtask_on = true;
	return 0;
}

/*
 * Repeat the walk until no task is left without a stack.  Tasks forked
 * meanwhile get theirs from ftrace_graph_init_task() or fgraph_newtask().
 */
static int give_all_tasks_stacks(void)
{
	struct ftrace_ret_stack *batch[STACK_BATCH];
	struct task_struct *g, *t;
	int n, used, cpu;
	bool more;

	do {
		for (n = 0; n < STACK_BATCH; n++) {
			batch[n] = fgraph_stack_alloc(GFP_KERNEL);
			if (!batch[n])
				break;
		}
		if (!n)
			return -ENOMEM;
		used = 0;
		more = false;
		rcu_read_lock();
		for_each_process_thread(g, t) {
			if (READ_ONCE(t->ret_stack))
				continue;
			if (used == n) {
				more = true;
				goto full;	/* two loops: a break leaves one */
			}
			if (give_if_none(t, batch[used]))
				used++;
		}
full:
		rcu_read_unlock();
		/* A short batch ran out: tasks are left with no stack. */
		if (more && n < STACK_BATCH)
			return -ENOMEM;
		while (used < n)
			kfree(batch[--n]);
	} while (more);

	/*
	 * Idle tasks are not on the task list.  With hotplug held off, a
	 * CPU is either online here or not yet prepared by
	 * fgraph_idle_prepare().
	 */
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		t = idle_task(cpu);
		if (!t->ret_stack)
			ftrace_graph_init_idle_task(t, cpu);
	}
	cpus_read_unlock();
	return 0;
}

/* With sleep-time off, move call times forward by the time switched out. */
static void fgraph_sched_switch(void *ignore, bool preempt,
				struct task_struct *prev,
				struct task_struct *next,
				unsigned int prev_state)
{
	unsigned long long now, slept;
	int i;

	if (READ_ONCE(fgraph_sleep_time))
		return;
	now = trace_clock_local();
	prev->ftrace_timestamp = now;
	if (!next->ret_stack || !next->ftrace_timestamp)
		return;
	slept = now - next->ftrace_timestamp;
	for (i = 0; i < next->curr_ret_stack && i < FTRACE_RETFUNC_DEPTH; i++)
		next->ret_stack[i].calltime += slept;
}

/**
 * ftrace_graph_sleep_time_control - the sleep-time option
 * @enable: count the time a hooked call sleeps in its duration
 */
void ftrace_graph_sleep_time_control(bool enable)
{
	WRITE_ONCE(fgraph_sleep_time, enable);
}

/**
 * fgraph_set_graph_time - the graph-time option of the function profiler
 * @enable: count time spent in called functions in a function's time
 */
void fgraph_set_graph_time(bool enable)
{
	WRITE_ONCE(fgraph_graph_time, enable);
}

/*
 * The hibernation image holds the hibernating task's return stack from
 * inside a hooked call; on resume it would return through entries of
 * calls it has left, so its calls are not hooked meanwhile.  Registered
 * for good: a graph user coming or going between the two notices would
 * leave the pause count off by one.
 */
static int fgraph_pm_notify(struct notifier_block *nb, unsigned long state,
			    void *unused)
{
	if (state == PM_HIBERNATION_PREPARE)
		pause_graph_tracing();
	else if (state == PM_POST_HIBERNATION)
		unpause_graph_tracing();
	return NOTIFY_DONE;
}

static struct notifier_block fgraph_pm_nb = {
	.notifier_call = fgraph_pm_notify,
};

static int __init fgraph_pm_init(void)
{
	return register_pm_notifier(&fgraph_pm_nb);
}
core_initcall(fgraph_pm_init);

/**
 * register_ftrace_graph - start hooking calls for a graph user
 * @gops: the user
 *
 * Return: 0, -EBUSY if there is a user already, -ENODEV if the graph or
 * ftrace was stopped for good, -ENOMEM.
 */
int register_ftrace_graph(struct fgraph_ops *gops)
{
	int ret;

	mutex_lock(&ftrace_lock);
	ret = -EBUSY;
	if (fgraph_user)
		goto out;
	ret = -ENODEV;
	if (ftrace_graph_is_dead() || ftrace_dead)
		goto out;

	ret = fgraph_newtask_probe();
	if (ret)
		goto out;
	WRITE_ONCE(fgraph_stacks_wanted, true);
	/* Pairs with the barrier in fgraph_newtask(). */
	smp_mb();
	ret = give_all_tasks_stacks();
	if (ret)
		goto unwanted;
	ret = register_trace_sched_switch(fgraph_sched_switch, NULL);
	if (ret)
		goto unwanted;

	WRITE_ONCE(fgraph_user, gops);
	ret = ftrace_startup(&graph_ops, 0);
	if (!ret)
		goto out;
	WRITE_ONCE(fgraph_user, NULL);
	unregister_trace_sched_switch(fgraph_sched_switch, NULL);
unwanted:
	WRITE_ONCE(fgraph_stacks_wanted, false);
out:
	mutex_unlock(&ftrace_lock);
	return ret;
}

/**
 * unregister_ftrace_graph - stop hooking calls for a graph user
 * @gops: the user
 *
 * On return no CPU runs @gops' callbacks; calls hooked before return
 * without calling its return callback.  Tasks keep their stacks.
 */
void unregister_ftrace_graph(struct fgraph_ops *gops)
{
	mutex_lock(&ftrace_lock);
	if (fgraph_user == gops) {
		ftrace_shutdown(&graph_ops, 0);
		WRITE_ONCE(fgraph_user, NULL);
		WRITE_ONCE(fgraph_stacks_wanted, false);
		unregister_trace_sched_switch(fgraph_sched_switch, NULL);
		/* No CPU is left in a return callback of @gops. */
		synchronize_rcu_tasks_rude();
	}
	mutex_unlock(&ftrace_lock);
}
