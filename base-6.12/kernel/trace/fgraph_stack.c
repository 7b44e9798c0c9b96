// SPDX-License-Identifier: GPL-2.0
/*
 * The graph core's per-task return stack.  Only the task itself pushes and
 * pops, so there is no lock; interrupts and NMIs nest above us and have
 * popped before we run again, as long as a push claims its words before
 * filling them and a pop releases them only after reading them.
 *
 * One frame per hooked call, whatever the number of graph users: the
 * first user whose entry callback takes a call pushes the frame and hooks
 * the return; the others, called next on the same entry, add their bit to
 * it.  At the return, each user whose bit is set, and which is still the
 * user of its index since the frame was pushed, gets its return callback.
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

struct fgraph_ops __rcu *fgraph_users[FGRAPH_USERS];
u32 fgraph_users_seq[FGRAPH_USERS];
u32 fgraph_seq;
bool fgraph_stacks_wanted __read_mostly;

/* A data block's last word: its user index and its length in words. */
#define DATA_IDX(w)	((int)((w) & 0xff))
#define DATA_LEN(w)	((int)((w) >> 8))
#define DATA_WORD(i, n)	((unsigned long)(i) | ((unsigned long)(n) << 8))

/**
 * ftrace_graph_stop - stop hooking calls, for good
 *
 * For a corrupted return stack or a self-test that saw the graph hang.
 */
void ftrace_graph_stop(void)
{
	static_branch_enable(&kill_ftrace_graph);
}

/* The real return address is lost: there is nowhere to go back to. */
static void __noreturn fgraph_lost_return(void)
{
	panic("ftrace: a hooked return found an empty return stack\n");
}

/*
 * The frame of this very call, if another user took it already: the
 * return is hooked, and the top frame was pushed for @ip at @retp since
 * this user got its index, without this user's bit.
 */
static __always_inline struct ftrace_ret_stack *
taken_frame(struct task_struct *t, struct fgraph_task *ft, int idx,
	    unsigned long ip, unsigned long *slot, unsigned long *retp)
{
	int depth = t->curr_ret_stack;
	struct ftrace_ret_stack *fr;

	if (!depth || *slot != (unsigned long)return_to_handler)
		return NULL;
	fr = &ft->frames[depth - 1];
	if (fr->retp != retp || fr->func != ip || (fr->users & BIT(idx)) ||
	    (s32)(fr->seq - READ_ONCE(fgraph_users_seq[idx])) < 0)
		return NULL;
	return fr;
}

/* Inlined into fgraph_hook_slot(), which every hooked call goes through. */
static __always_inline bool graph_enter(struct fgraph_ops *gops, unsigned long ip,
					unsigned long *slot, unsigned long *retp)
{
	struct task_struct *t = current;
	struct fgraph_task *ft = fgraph_task_of(t);
	struct ftrace_ret_stack *fr;
	int idx = gops->idx;
	int depth, data, taken;
	bool pushed = false;
	s8 resv;

	if (unlikely(ftrace_graph_is_dead() ||
		     atomic_read(&t->tracing_graph_pause)))
		return false;
	if (!ft || (unsigned int)idx >= FGRAPH_USERS)
		return false;
	/* The counters were reset before the stack was published. */
	smp_rmb();
	data = t->curr_ret_depth;
	fr = taken_frame(t, ft, idx, ip, slot, retp);
	if (!fr) {
		depth = t->curr_ret_stack;
		if (unlikely(depth >= FTRACE_RETFUNC_DEPTH)) {
			atomic_inc(&t->trace_overrun);
			return false;
		}
		/* Claim the frame first: an interrupt from here on pushes above it. */
		t->curr_ret_stack = depth + 1;
		barrier();
		fr = &ft->frames[depth];
		fr->ret = *slot;
		fr->func = ip;
		fr->calltime = trace_clock_local();
		fr->subtime = 0;
		fr->retp = retp;
		fr->seq = READ_ONCE(fgraph_seq);
		fr->users = 0;
		fr->data = data;
		pushed = true;
	}

	resv = ft->resv;
	ft->resv = idx;
	{
		/* One initialiser: CONFIG_INIT_STACK_ALL_ZERO zeroes others first. */
		struct ftrace_graph_ent ent = {
			.func = ip,
			.depth = ft->depth[idx],
		};

		taken = gops->entryfunc(&ent, gops);
	}
	ft->resv = resv;
	if (taken) {
		fr->users |= BIT(idx);
		ft->depth[idx]++;
		return pushed;
	}

	/* Not taken: what the callback reserved goes, and a frame it alone had. */
	barrier();
	t->curr_ret_depth = data;
	if (pushed) {
		barrier();
		t->curr_ret_stack = fr - ft->frames;
	}
	return false;
}

/**
 * fgraph_hook_slot - give a traced call to a graph user
 * @ip: the traced function's call site
 * @slot: where the function's return address is
 * @retp: the key ftrace_graph_ret_addr() will find this return by
 * @op: the ops of the graph user (struct fgraph_ops' @ops)
 *
 * For the arch's ftrace_graph_func(): under the tracers' recursion
 * protection, call the user's entry callback and, if it takes the call
 * and no user took it before, point @slot at return_to_handler.
 */
void fgraph_hook_slot(unsigned long ip, unsigned long *slot, unsigned long *retp,
		      struct ftrace_ops *op)
{
	struct fgraph_ops *gops = container_of(op, struct fgraph_ops, ops);
	int bit = ftrace_test_recursion_trylock(ip, *slot);

	if (bit < 0)
		return;
	if (graph_enter(gops, ip, slot, retp))
		*slot = (unsigned long)return_to_handler;
	ftrace_test_recursion_unlock(bit);
}

/**
 * fgraph_reserve_data - keep data on a call's frame for its return
 * @idx: the index of the graph user whose entry callback is running
 * @size_bytes: how much, at most FGRAPH_MAX_RESERVE
 *
 * Context: only from that user's entry callback, once per call.  The data
 * goes if the callback does not take the call.
 * Return: the data (word aligned), or NULL: called elsewhere or twice,
 * too big, or no room left on the task's data stack.
 */
void *fgraph_reserve_data(int idx, int size_bytes)
{
	struct task_struct *t = current;
	struct fgraph_task *ft = fgraph_task_of(t);
	int words = DIV_ROUND_UP(size_bytes, sizeof(long));
	int top;

	if (!ft || ft->resv != idx || size_bytes <= 0 ||
	    size_bytes > FGRAPH_MAX_RESERVE)
		return NULL;
	top = t->curr_ret_depth;
	if (top + words + 1 > FGRAPH_DATA_WORDS)
		return NULL;
	/* Claimed before written, as frames are. */
	t->curr_ret_depth = top + words + 1;
	barrier();
	ft->data[top + words] = DATA_WORD(idx, words);
	ft->resv = -1;
	return &ft->data[top];
}

/**
 * fgraph_retrieve_data - what an entry callback reserved for this return
 * @idx: the index of the graph user whose return callback is running
 * @size_bytes: gets the data's size, rounded up to words (may be NULL)
 *
 * Context: only from that user's return callback.
 * Return: the data, or NULL if the entry reserved none.
 */
void *fgraph_retrieve_data(int idx, int *size_bytes)
{
	struct fgraph_task *ft = fgraph_task_of(current);
	int i;

	if (!ft || !ft->ret_hi)
		return NULL;
	for (i = ft->ret_hi; i > ft->ret_lo; ) {
		unsigned long w = ft->data[i - 1];

		i -= DATA_LEN(w) + 1;
		if (DATA_IDX(w) != idx)
			continue;
		if (size_bytes)
			*size_bytes = DATA_LEN(w) * sizeof(long);
		return &ft->data[i];
	}
	return NULL;
}

/**
 * fgraph_get_task_var - a graph user's word of the current task
 * @gops: the registered user
 *
 * Return: the word, zero when @gops registered; NULL if the task has no
 * return stack (the graph core never calls a user for such a task).
 */
unsigned long *fgraph_get_task_var(struct fgraph_ops *gops)
{
	struct fgraph_task *ft = fgraph_task_of(current);

	if (!ft || (unsigned int)gops->idx >= FGRAPH_USERS)
		return NULL;
	return &ft->vars[gops->idx];
}

/* Each user that took the call and still holds its index, by index. */
static void call_returns(struct task_struct *t, struct fgraph_task *ft,
			 struct ftrace_ret_stack *fr, unsigned long retval)
{
	u16 lo = ft->ret_lo, hi = ft->ret_hi;
	unsigned long users = fr->users;
	struct ftrace_graph_ret trace = {
		.func		= fr->func,
		.overrun	= atomic_read(&t->trace_overrun),
		.calltime	= fr->calltime,
		.rettime	= trace_clock_local(),
	};
	int i;

	fgraph_set_retval(&trace, retval);
	ft->ret_lo = fr->data;
	ft->ret_hi = t->curr_ret_depth;
	/*
	 * Nothing called here may be traced (no find_next_bit(), no lockdep
	 * check of the RCU read): its own return would come back here.
	 */
	while (users) {
		struct fgraph_ops *gops;

		i = __ffs(users);
		users &= users - 1;
		/* Preemption is off, and unregistering waits for that. */
		gops = rcu_dereference_raw(fgraph_users[i]);
		/* Pairs with the write barrier of register_ftrace_graph(). */
		smp_rmb();
		/* A frame of the index's last user was not counted for this one. */
		if ((s32)(fr->seq - READ_ONCE(fgraph_users_seq[i])) < 0)
			continue;
		if (ft->depth[i])
			ft->depth[i]--;
		trace.depth = ft->depth[i];
		if (gops)
			gops->retfunc(&trace, gops);
	}
	ft->ret_lo = lo;
	ft->ret_hi = hi;
}

/**
 * ftrace_return_to_handler - pop a hooked return
 * @retval: the hooked function's return value, for the return callbacks
 *
 * The callbacks run with the returning call still on the stack, as index
 * 0 of ftrace_graph_get_ret_stack() (the profiler relies on it).
 *
 * Return: the address the hooked function really returns to.
 */
unsigned long ftrace_return_to_handler(unsigned long retval)
{
	struct task_struct *t = current;
	struct fgraph_task *ft = fgraph_task_of(t);
	struct ftrace_ret_stack *fr;
	unsigned long ret;
	int depth;

	/*
	 * Preemption stays off until the callbacks are done, so that
	 * unregistering a user can wait for them.
	 */
	preempt_disable_notrace();
	depth = t->curr_ret_stack - 1;
	if (unlikely(depth < 0 || depth >= FTRACE_RETFUNC_DEPTH || !ft)) {
		preempt_enable_no_resched_notrace();
		ftrace_graph_stop();
		WARN(1, "ftrace: return stack of %s/%d corrupted (%d entries)\n",
		     t->comm, t->pid, depth + 1);
		return (unsigned long)fgraph_lost_return;
	}
	fr = &ft->frames[depth];
	ret = fr->ret;
	if (fr->users)
		call_returns(t, ft, fr, retval);
	preempt_enable_no_resched_notrace();

	barrier();
	t->curr_ret_depth = fr->data;
	barrier();
	t->curr_ret_stack = depth;
	/* An empty stack holds no user's frame, whatever a race left. */
	if (!depth)
		memset(ft->depth, 0, sizeof(ft->depth));
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
	struct fgraph_task *ft = fgraph_task_of(task);
	int i = READ_ONCE(task->curr_ret_stack) - 1 - idx;

	if (!ft || idx < 0 || i < 0 || i >= FTRACE_RETFUNC_DEPTH)
		return NULL;
	return &ft->frames[i];
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
	struct fgraph_task *ft;
	int i, n;

	if (ret != hook || !retp)
		return ret;
	ft = fgraph_task_of(task);
	if (!ft)
		return ret;
	n = min_t(int, READ_ONCE(task->curr_ret_stack), FTRACE_RETFUNC_DEPTH);
	for (i = 0; i < n; i++) {
		if (ft->frames[i].retp == retp)
			return ft->frames[i].ret;
	}
	return ret;
}

/**
 * fgraph_stack_alloc - a new, empty return stack
 * @gfp: allocation flags
 *
 * Return: the stack, its task variables zero, or NULL.
 */
struct fgraph_task *fgraph_stack_alloc(gfp_t gfp)
{
	struct fgraph_task *ft = kmalloc(sizeof(*ft), gfp);

	if (ft) {
		memset(ft->vars, 0, sizeof(ft->vars));
		memset(ft->depth, 0, sizeof(ft->depth));
		ft->resv = -1;
		ft->ret_lo = 0;
		ft->ret_hi = 0;
	}
	return ft;
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
void fgraph_stack_give(struct task_struct *t, struct fgraph_task *stack)
{
	reset_counters(t);
	/* Reset before published: pairs with the smp_rmb() in graph_enter(). */
	smp_wmb();
	WRITE_ONCE(t->ret_stack, (unsigned long *)stack);
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
		struct fgraph_task *stack = fgraph_stack_alloc(GFP_KERNEL);

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
	unsigned long *stack = t->ret_stack;

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
	struct fgraph_task *stack = fgraph_task_of(t);

	if (!stack && READ_ONCE(fgraph_stacks_wanted))
		stack = fgraph_stack_alloc(GFP_KERNEL);
	if (stack) {
		WRITE_ONCE(t->ret_stack, NULL);
		barrier();
		stack->resv = -1;
		stack->ret_hi = 0;
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
