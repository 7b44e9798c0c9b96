// SPDX-License-Identifier: GPL-2.0
/*
 * The graph core's users: registering one, giving every task a return
 * stack, the ftrace_ops that hooks the calls, sleep time, and the switch
 * that stops the graph for good.
 *
 * One user at a time (the function_graph tracer, the irqsoff/wakeup
 * tracers' graph mode, the profiler, the boot self-test); a second gets
 * -EBUSY, as upstream.  The hooked sites are those of the top-level
 * set_ftrace_filter / set_ftrace_notrace: the graph ops shares
 * global_ops' hashes.
 *
 * Locking: ftrace_lock serialises registration with the core.  The call
 * path reads fgraph_user once per entry and once per return, without a
 * lock.
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

/* Tasks given a stack per pass of the task walk, allocated beforehand. */
#define STACK_BATCH	32

DEFINE_STATIC_KEY_FALSE(kill_ftrace_graph);
EXPORT_SYMBOL_GPL(kill_ftrace_graph);

struct fgraph_ops *fgraph_user __read_mostly;
bool fgraph_stacks_wanted __read_mostly;

/*
 * Giving a task on the task list its stack: the task walk and the
 * task_newtask probe can both find the same new child without one.
 */
static DEFINE_RAW_SPINLOCK(fgraph_give_lock);

/* The task_newtask probe is registered (once, for good). */
static bool fgraph_newtask_on;

/* sleep-time: a hooked call's duration includes the time it slept */
static bool fgraph_sleep_time = true;

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

/**
 * ftrace_graph_stop - stop hooking calls, for good
 *
 * For a corrupted return stack or a self-test that saw the graph hang.
 * Calls already hooked still return through the handler.
 */
void ftrace_graph_stop(void)
{
	static_branch_enable(&kill_ftrace_graph);
}

/* Give @t @stack unless it has one by now.  Return: whether it did. */
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
 * A child checks fgraph_stacks_wanted in ftrace_graph_init_task(), early
 * in copy_process(), but is linked on the task list much later, after
 * copy_mm(), which can sleep (a userfaultfd fork event waits for its
 * reader).  A registration that raises the flag and walks the list in
 * between misses the child, which would then never be hooked.
 * task_newtask fires after the link and before the child first runs.
 * The barrier pairs with the one in register_ftrace_graph(): either the
 * walk finds the linked child or this finds the flag raised.
 */
static void fgraph_newtask(void *ignore, struct task_struct *t,
			   unsigned long clone_flags)
{
	struct ftrace_ret_stack *stack;

	/* The child's link before the flag's read: see above. */
	smp_mb();
	if (!READ_ONCE(fgraph_stacks_wanted) || READ_ONCE(t->ret_stack))
		return;
	/* Tracepoint probes run with preemption disabled. */
	stack = fgraph_stack_alloc(GFP_NOWAIT | __GFP_NOWARN);
	if (stack && !give_if_none(t, stack))
		kfree(stack);
}

/*
 * Register the task_newtask probe the first time a graph user comes.  It
 * stays: with no user it reads a flag and returns.  After the grace
 * period every copy_process() that has not yet reached the tracepoint
 * calls it, and every one that has was linked before the flag goes up.
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
 * Give every task without a return stack one.  Stacks are allocated in
 * batches outside the task walk (it runs under RCU and cannot sleep),
 * and the walk is repeated until it finds no task left without one.
 * Tasks forked meanwhile get theirs from ftrace_graph_init_task(), which
 * checks fgraph_stacks_wanted, raised before the first walk, or from
 * fgraph_newtask() if they were forked before it was raised and linked
 * after the walk passed.
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
	 * Idle tasks are not on the task list.  A CPU coming up gets its idle
	 * task's stack from fgraph_idle_prepare(), which may have read
	 * fgraph_stacks_wanted before it was set: with hotplug held off, that
	 * CPU is either online here or not yet prepared.
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

/*
 * With sleep-time off, the time a task spent switched out is taken out of
 * its hooked calls by moving their call times forward when it comes back.
 */
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

/*
 * Hibernation saves memory from inside a hooked call (swsusp_save()): the
 * image holds the hibernating task's return stack as it was then, and on
 * resume that task would return through entries of calls it has already
 * left.  Its calls are not hooked from the notice until it is over, as
 * upstream does.  The notifier stays registered for good, unlike
 * upstream's: user space runs between the two notices, and a graph user
 * registered or gone in between would otherwise see only one of them and
 * leave the task's pause count off by one for its life.  (Not exercised
 * here: the test configs have no CONFIG_HIBERNATION.)
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
	/* Only a registered user's calls need their sleep time taken out. */
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
 * When this returns no CPU runs @gops' entry callback; calls hooked
 * before return without calling its return callback.  Tasks keep their
 * stacks (freed when they exit) for the next user.
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
