// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the graph core's return stack: push and pop order, what
 * the callbacks see, overruns, declined entries, users that change while
 * calls are hooked, and the unwinder's lookup by stack slot.
 *
 * The tests drive function_graph_enter() and ftrace_return_to_handler()
 * directly, on a stack of their own given to the test thread, with a test
 * user installed as the graph user.  The graph ops is never registered,
 * so no call site is hooked meanwhile; ftrace_lock is held throughout so
 * that no real user can register under the test.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

#define FAKE_RET(i)	(0x1000UL + (i))
#define FAKE_FUNC(i)	(0x2000UL + (i))

struct fgraph_fixture {
	struct ftrace_ret_stack	*saved_stack;
	int			saved_count;
	int			saved_overrun;
	struct ftrace_ret_stack	*stack;
	unsigned long		slots[FTRACE_RETFUNC_DEPTH + 1];
	bool			accept;
	int			entries;
	int			returns;
	struct ftrace_graph_ent	last_ent;
	struct ftrace_graph_ret	last_ret;
	unsigned long		top_func_in_ret;	/* idx 0 during retfunc */
};

static struct fgraph_fixture *fx;

static int test_entry(struct ftrace_graph_ent *ent)
{
	fx->entries++;
	fx->last_ent = *ent;
	return fx->accept;
}

static void test_return(struct ftrace_graph_ret *ret)
{
	struct ftrace_ret_stack *top = ftrace_graph_get_ret_stack(current, 0);

	fx->returns++;
	fx->last_ret = *ret;
	fx->top_func_in_ret = top ? top->func : 0;
}

static struct fgraph_ops test_gops = {
	.entryfunc	= test_entry,
	.retfunc	= test_return,
};

static struct fgraph_ops other_gops = {
	.entryfunc	= test_entry,
	.retfunc	= test_return,
};

/*
 * Set up and tear down inside each case, without assertions in between:
 * an assertion that fails ends the test thread without running the
 * suite's exit, and ftrace_lock must not stay held by a dead thread.
 */
static bool begin(struct kunit *test)
{
	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	if (!fx) {
		KUNIT_FAIL(test, "no memory for the fixture");
		return false;
	}
	fx->stack = fgraph_stack_alloc(GFP_KERNEL);
	if (!fx->stack) {
		KUNIT_FAIL(test, "no memory for a return stack");
		return false;
	}
	mutex_lock(&ftrace_lock);
	if (READ_ONCE(fgraph_user) || current->curr_ret_stack) {
		mutex_unlock(&ftrace_lock);
		kfree(fx->stack);
		kunit_mark_skipped(test, "a graph user is registered");
		return false;
	}
	fx->saved_stack = current->ret_stack;
	fx->saved_count = current->curr_ret_stack;
	fx->saved_overrun = atomic_read(&current->trace_overrun);
	current->ret_stack = NULL;
	fgraph_stack_give(current, fx->stack);
	fx->accept = true;
	WRITE_ONCE(fgraph_user, &test_gops);
	return true;
}

static void end(struct kunit *test)
{
	WRITE_ONCE(fgraph_user, NULL);
	current->ret_stack = fx->saved_stack;
	current->curr_ret_stack = fx->saved_count;
	atomic_set(&current->trace_overrun, fx->saved_overrun);
	mutex_unlock(&ftrace_lock);
	kfree(fx->stack);
}

static int push(int i)
{
	return function_graph_enter(FAKE_RET(i), FAKE_FUNC(i), 0, &fx->slots[i]);
}

/* Push calls 0..n-1; false (and a failure) if one was not hooked. */
static bool push_n(struct kunit *test, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (push(i)) {
			KUNIT_FAIL(test, "call %d not hooked", i);
			/* Pop what was pushed, so the stack ends empty. */
			while (i--)
				ftrace_return_to_handler(0);
			return false;
		}
	}
	return true;
}

static void push_pop_lifo(struct kunit *test)
{
	struct ftrace_ret_stack *e;
	int i;

	if (!push_n(test, 3))
		return;
	KUNIT_EXPECT_EQ(test, fx->last_ent.depth, 2);
	KUNIT_EXPECT_EQ(test, fx->last_ent.func, FAKE_FUNC(2));
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 3);
	/* Index 0 is the innermost call, then its callers. */
	for (i = 0; i < 3; i++) {
		e = ftrace_graph_get_ret_stack(current, i);
		KUNIT_EXPECT_EQ(test, e ? e->func : 0, FAKE_FUNC(2 - i));
	}
	KUNIT_EXPECT_NULL(test, ftrace_graph_get_ret_stack(current, 3));

	for (i = 2; i >= 0; i--) {
		KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(100 + i), FAKE_RET(i));
		KUNIT_EXPECT_EQ(test, fx->last_ret.retval, 100UL + i);
		KUNIT_EXPECT_EQ(test, fx->last_ret.func, FAKE_FUNC(i));
		KUNIT_EXPECT_EQ(test, fx->last_ret.depth, i);
		KUNIT_EXPECT_LE(test, fx->last_ret.calltime, fx->last_ret.rettime);
		/* The returning call is still index 0 while its callback runs. */
		KUNIT_EXPECT_EQ(test, fx->top_func_in_ret, FAKE_FUNC(i));
	}
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
	KUNIT_EXPECT_EQ(test, fx->returns, 3);
}

static void declined_entry_pops(struct kunit *test)
{
	if (!push_n(test, 1))
		return;
	fx->accept = false;
	KUNIT_EXPECT_EQ(test, push(1), -EBUSY);
	KUNIT_EXPECT_EQ(test, fx->entries, 2);
	KUNIT_EXPECT_EQ(test, fx->last_ent.depth, 1);
	/* The declined call left nothing behind. */
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 1);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(0));
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
}

static void overrun_counted(struct kunit *test)
{
	int i;

	if (!push_n(test, FTRACE_RETFUNC_DEPTH))
		return;
	/* Full: not hooked, not offered to the user, counted. */
	KUNIT_EXPECT_EQ(test, push(FTRACE_RETFUNC_DEPTH), -EBUSY);
	KUNIT_EXPECT_EQ(test, fx->entries, FTRACE_RETFUNC_DEPTH);
	KUNIT_EXPECT_EQ(test, atomic_read(&current->trace_overrun), 1);
	for (i = FTRACE_RETFUNC_DEPTH - 1; i >= 0; i--)
		KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(i));
	KUNIT_EXPECT_EQ(test, fx->last_ret.overrun, 1U);
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
}

static void user_changed_meanwhile(struct kunit *test)
{
	if (!push_n(test, 2))
		return;
	/* Another user took over: it never saw these entries. */
	WRITE_ONCE(fgraph_user, &other_gops);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(1));
	/* Nobody now: the return is still popped, no callback runs. */
	WRITE_ONCE(fgraph_user, NULL);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(0));
	KUNIT_EXPECT_EQ(test, fx->returns, 0);
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
	/* And no user means no hooking. */
	KUNIT_EXPECT_EQ(test, push(0), -EBUSY);
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
}

static void ret_addr_by_slot(struct kunit *test)
{
	unsigned long hook = (unsigned long)
		dereference_kernel_function_descriptor(return_to_handler);
	int i;

	if (!push_n(test, 3))
		return;
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, ftrace_graph_ret_addr(current, NULL, hook,
							    &fx->slots[i]),
				FAKE_RET(i));
	/* A slot no hooked call used, or an address that is not the hook. */
	KUNIT_EXPECT_EQ(test, ftrace_graph_ret_addr(current, NULL, hook,
						    &fx->slots[3]), hook);
	KUNIT_EXPECT_EQ(test, ftrace_graph_ret_addr(current, NULL, 0x42,
						    &fx->slots[0]), 0x42UL);
	for (i = 2; i >= 0; i--)
		ftrace_return_to_handler(0);
	/* Popped calls are not found any more. */
	KUNIT_EXPECT_EQ(test, ftrace_graph_ret_addr(current, NULL, hook,
						    &fx->slots[0]), hook);
}

/* A tail call: the callee is hooked on the slot its caller hooked. */
static void ret_addr_tail_call(struct kunit *test)
{
	unsigned long hook = (unsigned long)
		dereference_kernel_function_descriptor(return_to_handler);

	if (!push_n(test, 1))
		return;
	/* The slot already holds return_to_handler when the callee hooks it. */
	KUNIT_EXPECT_EQ(test, function_graph_enter(hook, FAKE_FUNC(1), 0,
						   &fx->slots[0]), 0);
	KUNIT_EXPECT_EQ(test, ftrace_graph_ret_addr(current, NULL, hook,
						    &fx->slots[0]), FAKE_RET(0));
	/* The callee returns into the handler, which then pops the caller. */
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), hook);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(0));
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
}

static void no_stack_no_hook(struct kunit *test)
{
	current->ret_stack = NULL;
	KUNIT_EXPECT_EQ(test, push(0), -EBUSY);
	KUNIT_EXPECT_EQ(test, fx->entries, 0);
	KUNIT_EXPECT_NULL(test, ftrace_graph_get_ret_stack(current, 0));
	current->ret_stack = fx->stack;
}

/*
 * The first graph user's registration gives the idle tasks of online
 * CPUs a stack while they run: an arm64 idle task sleeps inside
 * pause_graph_tracing(), so the count it holds there must stay.
 */
static void idle_pause_kept(struct kunit *test)
{
	struct task_struct *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	atomic_set(&t->tracing_graph_pause, 1);
	ftrace_graph_init_idle_task(t, raw_smp_processor_id());
	KUNIT_EXPECT_EQ(test, atomic_read(&t->tracing_graph_pause), 1);
	kfree(t->ret_stack);
}

#define FGRAPH_CASE(name)					\
static void stack_##name(struct kunit *test)			\
{								\
	if (begin(test)) {					\
		name(test);					\
		end(test);					\
	}							\
}

FGRAPH_CASE(push_pop_lifo)
FGRAPH_CASE(declined_entry_pops)
FGRAPH_CASE(overrun_counted)
FGRAPH_CASE(user_changed_meanwhile)
FGRAPH_CASE(ret_addr_by_slot)
FGRAPH_CASE(ret_addr_tail_call)
FGRAPH_CASE(no_stack_no_hook)

static struct kunit_case fgraph_cases[] = {
	KUNIT_CASE(stack_push_pop_lifo),
	KUNIT_CASE(stack_declined_entry_pops),
	KUNIT_CASE(stack_overrun_counted),
	KUNIT_CASE(stack_user_changed_meanwhile),
	KUNIT_CASE(stack_ret_addr_by_slot),
	KUNIT_CASE(stack_ret_addr_tail_call),
	KUNIT_CASE(stack_no_stack_no_hook),
	KUNIT_CASE(idle_pause_kept),
	{}
};

static struct kunit_suite fgraph_suite = {
	.name = "fgraph_stack",
	.test_cases = fgraph_cases,
};

kunit_test_suites(&fgraph_suite);
