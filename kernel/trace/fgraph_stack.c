// SPDX-License-Identifier: GPL-2.0
/*
 * The graph core's return stack: what a hooked call remembers until it
 * returns, per task.
 *
 * current->curr_ret_stack counts the live entries of current->ret_stack
 * (0 = empty).  Only the task itself pushes and pops, from the traced
 * function's prologue and from return_to_handler, so the stack needs no
 * lock.  Interrupts and NMIs that hook calls of their own nest on the
 * same stack: they push above us and have popped back before we run
 * again.  That holds as long as a push claims its slot (bumps the count)
 * before it fills it, and a pop releases the slot only after it is done
 * reading it.
 */
#include <linux/cpuhotplug.h>
#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

/* The stack's bytes: one allocation per task, never resized. */
#define RET_STACK_BYTES	(FTRACE_RETFUNC_DEPTH * sizeof(struct ftrace_ret_stack))

/*
 * A return with nothing on the stack: the real return address is lost, so
 * there is nowhere to go back to.  return_to_handler "returns" here.
 */
static void __noreturn fgraph_lost_return(void)
{
	panic("ftrace: a hooked return found an empty return stack\n");
}

/*
 * The push itself (see function_graph_enter()), inlined into
 * fgraph_hook_slot(): every hooked call comes that way, and a call of its
 * own cost it a call and six register saves and restores.
 */
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

	/*
	 * Built in one initialiser: a declaration without one is zeroed
	 * first (CONFIG_INIT_STACK_ALL_ZERO), on every hooked call.
	 */
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
 * @slot: where the function's return address is (a stack slot, or the
 *	saved link register of the trampoline's frame)
 * @retp: what the unwinder will pass ftrace_graph_ret_addr() as its
 *	@retp for this return (x86: @slot; arm64: the caller's frame
 *	pointer)
 *
 * What every arch entry hook does once it has found the slot: under the
 * tracers' recursion protection, push the call on the task's return
 * stack and, if the graph user takes it, point @slot at
 * return_to_handler.
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
 * @frame_pointer: unused on x86_64
 * @retp: the key ftrace_graph_ret_addr() finds this entry by (see
 *	fgraph_hook_slot())
 *
 * For callers other than the arch entry hooks (which use
 * fgraph_hook_slot()): the caller holds the tracers' recursion protection.
 *
 * Return: 0 if the caller must swap @ret for return_to_handler, -EBUSY if
 * the call is not hooked (graph stopped, task paused, no stack, stack
 * full, no user or the user declined it).
 */
int function_graph_enter(unsigned long ret, unsigned long func,
			 unsigned long frame_pointer, unsigned long *retp)
{
	return graph_enter(ret, func, retp);
}

/**
 * ftrace_return_to_handler - pop a hooked return
 * @retval: the hooked function's return value (rax), for the return
 *	callback
 *
 * Called by return_to_handler only.  The return callback runs with the
 * returning call still on the stack, so ftrace_graph_get_ret_stack()
 * index 0 is that call while it runs (the profiler relies on it).
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
	 * Preemption is off from here to the end of the callback, so that
	 * unregistering a user can wait for its callbacks; turning it back
	 * on is not a preemption point.  A task switched out inside
	 * return_to_handler shows it in its stack traces as a frame of its
	 * own, so the window where that can happen (an interrupt before this
	 * point) is kept as short as it can be.
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
	 * A user that was unregistered since the entry, or replaced by
	 * another one, is not called: its state may be gone, and the new
	 * user never saw the entry.
	 */
	if (slot->gops == READ_ONCE(fgraph_user)) {
		/* One initialiser, as in graph_enter(). */
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
 * @retp: where on the stack it was found (x86), or the frame pointer of
 *	the frame record it was found in (arm64)
 *
 * Stack traces and the unwinder call this for every return address they
 * see, so that a trace taken inside a traced function shows its caller
 * rather than return_to_handler.  One slot can be hooked twice: a traced
 * function that tail-calls another traced function (x64_sys_call() and
 * the syscalls) hands it a return slot already holding return_to_handler,
 * which the second entry saves as its "real" address.  The oldest entry
 * for a slot holds the real one, so the search starts at the bottom.
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

/* An empty stack, nothing overrun, not switched out. */
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
 *
 * The count is reset before the stack is published, so the task's next
 * push, on whichever CPU, starts from an empty stack.
 */
void fgraph_stack_give(struct task_struct *t, struct ftrace_ret_stack *stack)
{
	reset_counters(t);
	/* Pairs with the smp_rmb() in function_graph_enter(). */
	smp_wmb();
	WRITE_ONCE(t->ret_stack, stack);
}

/**
 * ftrace_graph_init_task - a new task's graph state (from copy_process())
 * @t: the child; a copy of its parent, not running yet
 *
 * Drops the parent's stack and counters inherited by the copy, and gives
 * the child a stack of its own while a graph user is registered.  If that
 * allocation fails the child is simply never hooked.  A child that asks
 * here before a user registers, and is linked on the task list after the
 * registration's walk, is given one by fgraph_ops.c's task_newtask probe.
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
 * An idle task keeps its stack for good; when its CPU went offline it
 * left hooked calls that never return (play_dead()), so its count starts
 * again from zero.  init_idle() calls this at boot only: a CPU brought
 * back online gets it from fgraph_idle_prepare(), and the first graph
 * user's registration calls it for the idle tasks of online CPUs, which
 * are running: their pause count is left alone (as stock's), since an
 * arm64 idle task spends its sleep inside pause_graph_tracing() in
 * cpu_suspend(), and zeroing it there would leave -1 after the wake-up.
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
 * A CPU about to come back online: its idle task went down inside hooked
 * calls that never return, and each offline cycle would leave a few more
 * entries until the stack is full and that CPU's idle task (interrupts
 * taken while it idles included) is never graph-traced again.  Runs on
 * the CPU that brings it up, before the new one runs any code.
 */
static int fgraph_idle_prepare(unsigned int cpu)
{
	struct task_struct *t = idle_task(cpu);

	/* Not running: a pause it went down in is over. */
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
