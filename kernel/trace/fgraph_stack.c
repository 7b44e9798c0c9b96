// SPDX-License-Identifier: GPL-2.0
/*
 * The graph core's per-task return stack.  Only the task itself pushes and
 * pops, so there is no lock; interrupts and NMIs nest above us and have
 * popped before we run again, as long as a push claims its slot before
 * filling it and a pop releases it only after reading it.
 */
#include <linux/cpuhotplug.h>
#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

DEFINE_STATIC_KEY_FALSE(kill_ftrace_graph);
EXPORT_SYMBOL_GPL(kill_ftrace_graph);

struct fgraph_ops *fgraph_user __read_mostly;
bool fgraph_stacks_wanted __read_mostly;

/**
 * ftrace_graph_stop - stop hooking calls, for good
 *
 * For a corrupted return stack or a self-test that saw the graph hang.
 */
void ftrace_graph_stop(void)
{
	static_branch_enable(&kill_ftrace_graph);
}

#define RET_STACK_BYTES	(FTRACE_RETFUNC_DEPTH * sizeof(struct ftrace_ret_stack))

/* The real return address is lost: there is nowhere to go back to. */
static void __noreturn fgraph_lost_return(void)
{
	panic("ftrace: a hooked return found an empty return stack\n");
}

/* Inlined into fgraph_hook_slot(), which every hooked call goes through. */
static __always_inline int graph_enter(unsigned long ret, unsigned long func,
				       unsigned long *retp)
{
	struct task_struct *t = current;
	struct ftrace_ret_stack *stack = READ_ONCE(t->ret_stack);
	struct fgraph_ops *gops = READ_ONCE(fgraph_user);
	struct ftrace_ret_stack *slot;
	int idx;

	if (unlikely(ftrace_graph_is_dead() ||
		     atomic_read(&t->tracing_graph_pause)))
		return -EBUSY;
	if (!stack || !gops)
		return -EBUSY;
	/* The index was reset before the stack was published. */
	smp_rmb();
	idx = t->curr_ret_stack;
	if (unlikely(idx >= FTRACE_RETFUNC_DEPTH)) {
		atomic_inc(&t->trace_overrun);
		return -EBUSY;
	}

	/* Claim the slot first: an interrupt from here on pushes above it. */
	t->curr_ret_stack = idx + 1;
	barrier();
	slot = &stack[idx];
	slot->ret = ret;
	slot->func = func;
	slot->calltime = trace_clock_local();
	slot->subtime = 0;
	slot->retp = retp;
	slot->gops = gops;

	/* One initialiser: CONFIG_INIT_STACK_ALL_ZERO zeroes others first. */
	{
		struct ftrace_graph_ent ent = { .func = func, .depth = idx };

		if (gops->entryfunc(&ent))
			return 0;
	}

	barrier();
	t->curr_ret_stack = idx;
	return -EBUSY;
}

/**
 * fgraph_hook_slot - hook the return whose address is in @slot
 * @ip: the traced function's call site
 * @slot: where the function's return address is
 * @retp: the key ftrace_graph_ret_addr() will find this return by
 *
 * For the arch entry hooks: under the tracers' recursion protection, push
 * the call and, if the graph user takes it, point @slot at return_to_handler.
 */
void fgraph_hook_slot(unsigned long ip, unsigned long *slot, unsigned long *retp)
{
	unsigned long ret = *slot;
	int bit = ftrace_test_recursion_trylock(ip, ret);

	if (bit < 0)
		return;
	if (!graph_enter(ret, ip, retp))
		*slot = (unsigned long)return_to_handler;
	ftrace_test_recursion_unlock(bit);
}

/**
 * function_graph_enter - hook a traced function's return
 * @ret: the function's real return address
 * @func: the function (its call site)
 * @frame_pointer: unused
 * @retp: the key ftrace_graph_ret_addr() finds this entry by
 *
 * Context: the caller holds the tracers' recursion protection.
 * Return: 0 if the caller must swap @ret for return_to_handler, else -EBUSY.
 */
int function_graph_enter(unsigned long ret, unsigned long func,
			 unsigned long frame_pointer, unsigned long *retp)
{
	return graph_enter(ret, func, retp);
}

/**
 * ftrace_return_to_handler - pop a hooked return
 * @retval: the hooked function's return value, for the return callback
 *
 * The callback runs with the returning call still on the stack, as index
 * 0 of ftrace_graph_get_ret_stack() (the profiler relies on it).
 *
 * Return: the address the hooked function really returns to.
 */
unsigned long ftrace_return_to_handler(unsigned long retval)
{
	struct task_struct *t = current;
	struct ftrace_ret_stack *slot;
	unsigned long ret;
	int idx;

	/*
	 * Preemption stays off until the callback is done, so that
	 * unregistering a user can wait for its callbacks.
	 */
	preempt_disable_notrace();
	idx = t->curr_ret_stack - 1;
	if (unlikely(idx < 0 || idx >= FTRACE_RETFUNC_DEPTH || !t->ret_stack)) {
		preempt_enable_no_resched_notrace();
		ftrace_graph_stop();
		WARN(1, "ftrace: return stack of %s/%d corrupted (%d entries)\n",
		     t->comm, t->pid, idx + 1);
		return (unsigned long)fgraph_lost_return;
	}
	slot = &t->ret_stack[idx];
	ret = slot->ret;

	/*
	 * A user unregistered or replaced since the entry is not called: its
	 * state may be gone, and a new user never saw the entry.
	 */
	if (slot->gops == READ_ONCE(fgraph_user)) {
		struct ftrace_graph_ret trace = {
			.func		= slot->func,
			.depth		= idx,
			.overrun	= atomic_read(&t->trace_overrun),
			.calltime	= slot->calltime,
			.rettime	= trace_clock_local(),
			.retval		= retval,
		};

		slot->gops->retfunc(&trace);
	}
	preempt_enable_no_resched_notrace();

	barrier();
	t->curr_ret_stack = idx;
	return ret;
}

/**
 * ftrace_graph_get_ret_stack - a hooked call of a task, innermost first
 * @task: the task
 * @idx: 0 for the innermost live call, 1 for its caller...
 *
 * Return: the entry, or NULL if @task has no such hooked call.
 */
struct ftrace_ret_stack *ftrace_graph_get_ret_stack(struct task_struct *task,
						    int idx)
{
	struct ftrace_ret_stack *stack = READ_ONCE(task->ret_stack);
	int i = READ_ONCE(task->curr_ret_stack) - 1 - idx;

	if (!stack || idx < 0 || i < 0 || i >= FTRACE_RETFUNC_DEPTH)
		return NULL;
	return &stack[i];
}

/**
 * ftrace_graph_ret_addr - the real return address behind a hooked one
 * @task: the task whose stack is being unwound
 * @idx: unused (entries are found by @retp)
 * @ret: the return address found on the stack
 * @retp: where it was found (x86), or its frame record's pointer (arm64)
 *
 * A tail call between traced functions can hook one slot twice, the second
 * entry saving return_to_handler; the oldest entry holds the real address,
 * so the search starts at the bottom.
 *
 * Return: the real return address, or @ret if it was not hooked.
 */
unsigned long ftrace_graph_ret_addr(struct task_struct *task, int *idx,
				    unsigned long ret, unsigned long *retp)
{
	unsigned long hook = (unsigned long)
		dereference_kernel_function_descriptor(return_to_handler);
	struct ftrace_ret_stack *stack;
	int i, n;

	if (ret != hook || !retp)
		return ret;
	stack = READ_ONCE(task->ret_stack);
	if (!stack)
		return ret;
	n = min_t(int, READ_ONCE(task->curr_ret_stack), FTRACE_RETFUNC_DEPTH);
	for (i = 0; i < n; i++) {
		if (stack[i].retp == retp)
			return stack[i].ret;
	}
	return ret;
}

/**
 * fgraph_stack_alloc - a new, empty return stack
 * @gfp: allocation flags
 *
 * Return: the stack, or NULL.
 */
struct ftrace_ret_stack *fgraph_stack_alloc(gfp_t gfp)
{
	return kmalloc(RET_STACK_BYTES, gfp);
}

static void reset_counters(struct task_struct *t)
{
	t->curr_ret_stack = 0;
	t->curr_ret_depth = 0;
	atomic_set(&t->trace_overrun, 0);
	t->ftrace_timestamp = 0;
}

/**
 * fgraph_stack_give - give a task a return stack
 * @t: a task without one (not running in the graph core's push path)
 * @stack: an empty stack
 */
void fgraph_stack_give(struct task_struct *t, struct ftrace_ret_stack *stack)
{
	reset_counters(t);
	/* Reset before published: pairs with the smp_rmb() in graph_enter(). */
	smp_wmb();
	WRITE_ONCE(t->ret_stack, stack);
}

/**
 * ftrace_graph_init_task - a new task's graph state (from copy_process())
 * @t: the child; a copy of its parent, not running yet
 *
 * A child that misses the registration's walk of the task list gets its
 * stack from fgraph_ops.c's task_newtask probe.
 */
void ftrace_graph_init_task(struct task_struct *t)
{
	t->ret_stack = NULL;
	reset_counters(t);
	atomic_set(&t->tracing_graph_pause, 0);
	if (READ_ONCE(fgraph_stacks_wanted)) {
		struct ftrace_ret_stack *stack = fgraph_stack_alloc(GFP_KERNEL);

		if (stack)
			fgraph_stack_give(t, stack);
	}
}

/**
 * ftrace_graph_exit_task - free a dead task's return stack
 * @t: the task, from free_task(); it never runs again
 *
 * Context: any, possibly an RCU callback: does not sleep.
 */
void ftrace_graph_exit_task(struct task_struct *t)
{
	struct ftrace_ret_stack *stack = t->ret_stack;

	t->ret_stack = NULL;
	barrier();
	kfree(stack);
}

/**
 * ftrace_graph_init_idle_task - (re)initialise a CPU's idle task
 * @t: the idle task
 * @cpu: its CPU, coming online
 *
 * An offline CPU's idle task left hooked calls that never return, so its
 * count restarts.  The pause count is left alone: a running arm64 idle
 * task sleeps inside pause_graph_tracing(), and zeroing it would leave -1.
 */
void ftrace_graph_init_idle_task(struct task_struct *t, int cpu)
{
	struct ftrace_ret_stack *stack = t->ret_stack;

	if (!stack && READ_ONCE(fgraph_stacks_wanted))
		stack = fgraph_stack_alloc(GFP_KERNEL);
	if (stack) {
		WRITE_ONCE(t->ret_stack, NULL);
		barrier();
		fgraph_stack_give(t, stack);
	}
}

/*
 * Each offline cycle leaves entries that never return: without this, the
 * idle task's stack would fill up.  Runs before the new CPU runs any code.
 */
static int fgraph_idle_prepare(unsigned int cpu)
{
	struct task_struct *t = idle_task(cpu);

	atomic_set(&t->tracing_graph_pause, 0);
	ftrace_graph_init_idle_task(t, cpu);
	return 0;
}

static int __init fgraph_hotplug_init(void)
{
	int ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "trace/fgraph:idle",
					    fgraph_idle_prepare, NULL);

	return ret < 0 ? ret : 0;
}
core_initcall(fgraph_hotplug_init);
