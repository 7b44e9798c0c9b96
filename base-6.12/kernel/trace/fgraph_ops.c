// SPDX-License-Identifier: GPL-2.0
/*
 * The graph core's users: registering up to FGRAPH_USERS of them, each on
 * the sites its own ops wants, giving every task a return stack while
 * there is one, sleep time, and the switch that stops the graph for good.
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

/* Registered users, and whether the first one set up what all share. */
static int fgraph_nr_users;

/**
 * ftrace_graph_entry_stub - the entry callback of a user that wants none
 * @trace: the entry
 * @gops: the user
 *
 * Return: 0, the call is not hooked.
 */
int ftrace_graph_entry_stub(struct ftrace_graph_ent *trace, struct fgraph_ops *gops)
{
	return 0;
}

/**
 * fgraph_init_ops - make a graph user's ops want what another ops wants
 * @dst_ops: the user's ops (struct fgraph_ops' @ops), not registered
 * @src_ops: the ops whose filter and notrace sets it shares (a trace
 *	array's function ops)
 *
 * The user then follows @src_ops' filter files; its private data is
 * @src_ops' too.
 */
void fgraph_init_ops(struct ftrace_ops *dst_ops, struct ftrace_ops *src_ops)
{
	ftrace_ops_init(src_ops);
	dst_ops->func_hash = src_ops->func_hash;
	dst_ops->private = src_ops->private;
}

/* Return: whether @t was given @stack. */
static bool give_if_none(struct task_struct *t, struct fgraph_task *stack)
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
	struct fgraph_task *stack;

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
	struct fgraph_task *batch[STACK_BATCH];
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
	struct fgraph_task *ft = fgraph_task_of(next);
	unsigned long long now, slept;
	int i;

	if (READ_ONCE(fgraph_sleep_time))
		return;
	now = trace_clock_local();
	prev->ftrace_timestamp = now;
	if (!ft || !next->ftrace_timestamp)
		return;
	slept = now - next->ftrace_timestamp;
	for (i = 0; i < next->curr_ret_stack && i < FTRACE_RETFUNC_DEPTH; i++)
		ft->frames[i].calltime += slept;
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

/*
 * A new user's task variables and depths start at zero: its index's
 * words hold what the last user of the index left, whose frames no
 * longer count (fgraph_users_seq moved on first).  Tasks forked from here
 * on get zeroed stacks; the callbacks of the index cannot run yet.
 */
static void zero_user_words(struct fgraph_task *ft, int idx)
{
	if (ft) {
		WRITE_ONCE(ft->vars[idx], 0);
		WRITE_ONCE(ft->depth[idx], 0);
	}
}

static void zero_task_vars(int idx)
{
	struct task_struct *g, *t;
	int cpu;

	rcu_read_lock();
	for_each_process_thread(g, t)
		zero_user_words(fgraph_task_of(t), idx);
	rcu_read_unlock();
	cpus_read_lock();
	for_each_online_cpu(cpu)
		zero_user_words(fgraph_task_of(idle_task(cpu)), idx);
	cpus_read_unlock();
}

/* What the first user sets up for all of them. */
static int fgraph_first_user(void)
{
	int ret = fgraph_newtask_probe();

	if (ret)
		return ret;
	WRITE_ONCE(fgraph_stacks_wanted, true);
	/* Pairs with the barrier in fgraph_newtask(). */
	smp_mb();
	ret = give_all_tasks_stacks();
	if (!ret)
		ret = register_trace_sched_switch(fgraph_sched_switch, NULL);
	if (ret)
		WRITE_ONCE(fgraph_stacks_wanted, false);
	return ret;
}

static void fgraph_last_user(void)
{
	WRITE_ONCE(fgraph_stacks_wanted, false);
	unregister_trace_sched_switch(fgraph_sched_switch, NULL);
}

static bool fgraph_registered(struct fgraph_ops *gops)
{
	return (unsigned int)gops->idx < FGRAPH_USERS &&
	       rcu_access_pointer(fgraph_users[gops->idx]) == gops;
}

/**
 * register_ftrace_graph - start hooking calls for a graph user
 * @gops: the user; its ops' filter (empty: every function) chooses the
 *	functions its callbacks see
 *
 * Context: takes ftrace_lock.
 * Return: 0, -EBUSY if @gops is registered already, -ENOSPC if
 * FGRAPH_USERS users are, -ENODEV if the graph or ftrace was stopped for
 * good, -ENOMEM.
 */
int register_ftrace_graph(struct fgraph_ops *gops)
{
	int idx, ret;

	mutex_lock(&ftrace_lock);
	ret = -EBUSY;
	if (fgraph_registered(gops))
		goto out;
	ret = -ENODEV;
	if (ftrace_graph_is_dead() || ftrace_dead)
		goto out;
	ret = -ENOSPC;
	for (idx = 0; idx < FGRAPH_USERS; idx++)
		if (!rcu_access_pointer(fgraph_users[idx]))
			break;
	if (idx == FGRAPH_USERS)
		goto out;

	if (!fgraph_nr_users) {
		ret = fgraph_first_user();
		if (ret)
			goto out;
	}
	/* Frames pushed before this count are none of this user's. */
	fgraph_seq++;
	WRITE_ONCE(fgraph_users_seq[idx], fgraph_seq);
	/* Then no return of the last user's frames touches the depths. */
	smp_mb();
	zero_task_vars(idx);
	gops->idx = idx;
	ftrace_ops_init(&gops->ops);
	gops->ops.func = ftrace_graph_func;
	gops->ops.role = FGRAPH_OPS_ROLE;
	/* The count and the index before the user: pairs with call_returns(). */
	smp_wmb();
	rcu_assign_pointer(fgraph_users[idx], gops);
	fgraph_nr_users++;
	ret = ftrace_startup(&gops->ops, 0);
	if (!ret)
		goto out;
	RCU_INIT_POINTER(fgraph_users[idx], NULL);
	if (!--fgraph_nr_users)
		fgraph_last_user();
out:
	mutex_unlock(&ftrace_lock);
	return ret;
}

/**
 * unregister_ftrace_graph - stop hooking calls for a graph user
 * @gops: the user
 *
 * On return no CPU runs @gops' callbacks; calls it hooked before return
 * without calling its return callback, even once its index has a new
 * user.  Tasks keep their stacks.
 *
 * Context: takes ftrace_lock.
 */
void unregister_ftrace_graph(struct fgraph_ops *gops)
{
	mutex_lock(&ftrace_lock);
	if (fgraph_registered(gops)) {
		ftrace_shutdown(&gops->ops, 0);
		RCU_INIT_POINTER(fgraph_users[gops->idx], NULL);
		if (!--fgraph_nr_users)
			fgraph_last_user();
		/* No CPU is left in a callback of @gops. */
		synchronize_rcu_tasks_rude();
	}
	mutex_unlock(&ftrace_lock);
}
