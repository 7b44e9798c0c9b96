// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the graph core's return stack: push and pop order, what
 * the callbacks see, overruns, declined entries, several users sharing
 * one frame, each user's data and task variable, an index that changes
 * user while calls are hooked, and the unwinder's lookup by stack slot.
 *
 * The tests drive fgraph_hook_slot() and ftrace_return_to_handler()
 * directly, on a stack of their own given to the test thread, with test
 * users put in the graph core's table.  Their ops are never registered,
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
#define NR_TEST_USERS	3

/* What one test user saw. */
struct test_user {
	struct fgraph_ops	gops;
	bool			accept;
	int			reserve;	/* bytes to reserve at entry, 0: none */
	int			entries;
	int			returns;
	unsigned long		data_back;	/* first word fgraph_retrieve_data() gave */
	int			data_size;
	struct ftrace_graph_ent	last_ent;
	struct ftrace_graph_ret	last_ret;
	unsigned long		top_func_in_ret;	/* idx 0 during retfunc */
};

struct fgraph_fixture {
	unsigned long		*saved_stack;
	int			saved_count;
	int			saved_depth;
	int			saved_overrun;
	struct fgraph_task	*stack;
	unsigned long		slots[FTRACE_RETFUNC_DEPTH + 1];
	struct test_user	users[NR_TEST_USERS];
	int			order[8];	/* user numbers in return-callback order */
	int			nr_order;
};

static struct fgraph_fixture *fx;

static struct test_user *user_of(struct fgraph_ops *gops)
{
	return container_of(gops, struct test_user, gops);
}

static int test_entry(struct ftrace_graph_ent *ent, struct fgraph_ops *gops)
{
	struct test_user *u = user_of(gops);
	unsigned long *data;

	u->entries++;
	u->last_ent = *ent;
	if (u->reserve) {
		data = fgraph_reserve_data(gops->idx, u->reserve);
		if (data)
			*data = 0xda7a0000UL + gops->idx * 0x100 + ent->func;
	}
	return u->accept;
}

static void test_return(struct ftrace_graph_ret *ret, struct fgraph_ops *gops)
{
	struct ftrace_ret_stack *top = ftrace_graph_get_ret_stack(current, 0);
	struct test_user *u = user_of(gops);
	unsigned long *data;
	int size = 0;

	u->returns++;
	u->last_ret = *ret;
	u->top_func_in_ret = top ? top->func : 0;
	data = fgraph_retrieve_data(gops->idx, &size);
	u->data_back = data ? *data : 0;
	u->data_size = size;
	if (fx->nr_order < ARRAY_SIZE(fx->order))
		fx->order[fx->nr_order++] = u - fx->users;
}

static bool any_user(void)
{
	int i;

	for (i = 0; i < FGRAPH_USERS; i++)
		if (rcu_access_pointer(fgraph_users[i]))
			return true;
	return false;
}

/* Give user @n index @idx, as registering would, with a new count. */
static void install(int n, int idx)
{
	struct test_user *u = &fx->users[n];

	u->gops.idx = idx;
	fgraph_seq++;
	WRITE_ONCE(fgraph_users_seq[idx], fgraph_seq);
	smp_wmb();
	rcu_assign_pointer(fgraph_users[idx], &u->gops);
}

static void uninstall(int idx)
{
	RCU_INIT_POINTER(fgraph_users[idx], NULL);
}

/*
 * Set up and tear down inside each case, without assertions in between:
 * an assertion that fails ends the test thread without running the
 * suite's exit, and ftrace_lock must not stay held by a dead thread.
 */
static bool begin(struct kunit *test)
{
	int n;

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
	if (any_user() || current->curr_ret_stack) {
		mutex_unlock(&ftrace_lock);
		kfree(fx->stack);
		kunit_mark_skipped(test, "a graph user is registered");
		return false;
	}
	fx->saved_stack = current->ret_stack;
	fx->saved_count = current->curr_ret_stack;
	fx->saved_depth = current->curr_ret_depth;
	fx->saved_overrun = atomic_read(&current->trace_overrun);
	current->ret_stack = NULL;
	fgraph_stack_give(current, fx->stack);
	for (n = 0; n < NR_TEST_USERS; n++) {
		fx->users[n].gops.entryfunc = test_entry;
		fx->users[n].gops.retfunc = test_return;
		fx->users[n].accept = true;
	}
	install(0, 0);
	return true;
}

static void end(struct kunit *test)
{
	int i;

	for (i = 0; i < FGRAPH_USERS; i++)
		uninstall(i);
	current->ret_stack = fx->saved_stack;
	current->curr_ret_stack = fx->saved_count;
	current->curr_ret_depth = fx->saved_depth;
	atomic_set(&current->trace_overrun, fx->saved_overrun);
	mutex_unlock(&ftrace_lock);
	kfree(fx->stack);
}

/* Offer call @i to user @n; true if the slot now returns into the hook. */
static bool offer(int n, int i)
{
	fgraph_hook_slot(FAKE_FUNC(i), &fx->slots[i], &fx->slots[i],
			 &fx->users[n].gops.ops);
	return fx->slots[i] == (unsigned long)return_to_handler;
}

/* A new call @i, offered to user @n. */
static bool push(int n, int i)
{
	fx->slots[i] = FAKE_RET(i);
	return offer(n, i);
}

/* Push calls 0..n-1 for user 0; false (and a failure) if one was not hooked. */
static bool push_n(struct kunit *test, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!push(0, i)) {
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
	struct test_user *u = &fx->users[0];
	struct ftrace_ret_stack *e;
	int i;

	if (!push_n(test, 3))
		return;
	KUNIT_EXPECT_EQ(test, u->last_ent.depth, 2);
	KUNIT_EXPECT_EQ(test, u->last_ent.func, FAKE_FUNC(2));
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 3);
	/* Index 0 is the innermost call, then its callers. */
	for (i = 0; i < 3; i++) {
		e = ftrace_graph_get_ret_stack(current, i);
		KUNIT_EXPECT_EQ(test, e ? e->func : 0, FAKE_FUNC(2 - i));
	}
	KUNIT_EXPECT_NULL(test, ftrace_graph_get_ret_stack(current, 3));

	for (i = 2; i >= 0; i--) {
		KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(100 + i), FAKE_RET(i));
		KUNIT_EXPECT_EQ(test, fgraph_retval(&u->last_ret),
				IS_ENABLED(CONFIG_FUNCTION_GRAPH_RETVAL) ? 100UL + i : 0UL);
		KUNIT_EXPECT_EQ(test, u->last_ret.func, FAKE_FUNC(i));
		KUNIT_EXPECT_EQ(test, u->last_ret.depth, i);
		KUNIT_EXPECT_LE(test, u->last_ret.calltime, u->last_ret.rettime);
		/* The returning call is still index 0 while its callback runs. */
		KUNIT_EXPECT_EQ(test, u->top_func_in_ret, FAKE_FUNC(i));
	}
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
	KUNIT_EXPECT_EQ(test, u->returns, 3);
}

static void declined_entry_pops(struct kunit *test)
{
	struct test_user *u = &fx->users[0];

	if (!push_n(test, 1))
		return;
	u->accept = false;
	KUNIT_EXPECT_FALSE(test, push(0, 1));
	KUNIT_EXPECT_EQ(test, u->entries, 2);
	KUNIT_EXPECT_EQ(test, u->last_ent.depth, 1);
	/* The declined call left nothing behind. */
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 1);
	KUNIT_EXPECT_EQ(test, fx->slots[1], FAKE_RET(1));
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(0));
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
}

static void overrun_counted(struct kunit *test)
{
	struct test_user *u = &fx->users[0];
	int i;

	if (!push_n(test, FTRACE_RETFUNC_DEPTH))
		return;
	/* Full: not hooked, not offered to the user, counted. */
	KUNIT_EXPECT_FALSE(test, push(0, FTRACE_RETFUNC_DEPTH));
	KUNIT_EXPECT_EQ(test, u->entries, FTRACE_RETFUNC_DEPTH);
	KUNIT_EXPECT_EQ(test, atomic_read(&current->trace_overrun), 1);
	for (i = FTRACE_RETFUNC_DEPTH - 1; i >= 0; i--)
		KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(i));
	KUNIT_EXPECT_EQ(test, u->last_ret.overrun, 1U);
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
}

/* Two users of one call share its frame; each gets its return, once. */
static void users_share_frame(struct kunit *test)
{
	install(1, 5);
	KUNIT_EXPECT_TRUE(test, push(0, 0));
	KUNIT_EXPECT_TRUE(test, offer(1, 0));
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 1);
	KUNIT_EXPECT_EQ(test, fx->users[1].last_ent.depth, 0);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(0));
	KUNIT_EXPECT_EQ(test, fx->users[0].returns, 1);
	KUNIT_EXPECT_EQ(test, fx->users[1].returns, 1);
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
	/* By index. */
	KUNIT_EXPECT_EQ(test, fx->nr_order, 2);
	KUNIT_EXPECT_EQ(test, fx->order[0], 0);
	KUNIT_EXPECT_EQ(test, fx->order[1], 1);
}

/*
 * A user's depth counts its own frames only: user 1 takes calls 0 and 1,
 * user 0 only call 1, which it sees at depth 0, on entry and on return.
 */
static void depth_per_user(struct kunit *test)
{
	install(1, 1);
	fx->users[0].accept = false;
	KUNIT_EXPECT_FALSE(test, push(0, 0));
	KUNIT_EXPECT_TRUE(test, offer(1, 0));
	fx->users[0].accept = true;
	KUNIT_EXPECT_TRUE(test, push(1, 1));
	KUNIT_EXPECT_EQ(test, fx->users[1].last_ent.depth, 1);
	KUNIT_EXPECT_TRUE(test, offer(0, 1));
	KUNIT_EXPECT_EQ(test, fx->users[0].last_ent.depth, 0);
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 2);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(1));
	KUNIT_EXPECT_EQ(test, fx->users[0].last_ret.depth, 0);
	KUNIT_EXPECT_EQ(test, fx->users[1].last_ret.depth, 1);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(0));
	KUNIT_EXPECT_EQ(test, fx->users[1].last_ret.depth, 0);
	KUNIT_EXPECT_EQ(test, fx->users[0].returns, 1);
	KUNIT_EXPECT_EQ(test, fx->users[1].returns, 2);
}

/* A user that declines a shared call gets no return; the other does. */
static void decliner_gets_no_return(struct kunit *test)
{
	install(1, 1);
	fx->users[0].accept = false;
	KUNIT_EXPECT_FALSE(test, push(0, 0));
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
	KUNIT_EXPECT_TRUE(test, offer(1, 0));
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 1);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(0));
	KUNIT_EXPECT_EQ(test, fx->users[0].returns, 0);
	KUNIT_EXPECT_EQ(test, fx->users[1].returns, 1);
}

/*
 * An index given to a new user while calls of its old user are hooked:
 * the new one never saw them, and none of them reaches it.
 */
static void new_user_of_index(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, push(0, 0));
	uninstall(0);
	install(2, 0);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(0));
	KUNIT_EXPECT_EQ(test, fx->users[0].returns, 0);
	KUNIT_EXPECT_EQ(test, fx->users[2].returns, 0);
	/* Its own calls from then on do. */
	KUNIT_EXPECT_TRUE(test, push(2, 1));
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(1));
	KUNIT_EXPECT_EQ(test, fx->users[2].returns, 1);
	/* With no user at all the return is popped, no callback runs. */
	KUNIT_EXPECT_TRUE(test, push(2, 2));
	uninstall(0);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(2));
	KUNIT_EXPECT_EQ(test, fx->users[2].returns, 1);
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
	KUNIT_EXPECT_EQ(test, current->curr_ret_depth, 0);
}

/* Each user's reserved data comes back to it alone, at the right call. */
static void data_per_user(struct kunit *test)
{
	install(1, 7);
	fx->users[0].reserve = 8;
	fx->users[1].reserve = 20;
	KUNIT_EXPECT_TRUE(test, push(0, 0));
	KUNIT_EXPECT_TRUE(test, offer(1, 0));
	/* A nested call with data of its own. */
	fx->users[1].reserve = 0;
	KUNIT_EXPECT_TRUE(test, push(0, 1));
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(1));
	KUNIT_EXPECT_EQ(test, fx->users[0].data_back, 0xda7a0000UL + FAKE_FUNC(1));
	KUNIT_EXPECT_EQ(test, fx->users[0].data_size, 8);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(0));
	KUNIT_EXPECT_EQ(test, fx->users[0].data_back, 0xda7a0000UL + FAKE_FUNC(0));
	KUNIT_EXPECT_EQ(test, fx->users[1].data_back, 0xda7a0700UL + FAKE_FUNC(0));
	KUNIT_EXPECT_EQ(test, fx->users[1].data_size, (int)(3 * sizeof(long)));
	KUNIT_EXPECT_EQ(test, current->curr_ret_depth, 0);
}

/* Reserving outside an entry, twice, too much or for a declined call. */
static void data_limits(struct kunit *test)
{
	struct test_user *u = &fx->users[0];

	KUNIT_EXPECT_NULL(test, fgraph_reserve_data(0, 8));
	u->reserve = FGRAPH_MAX_RESERVE + 1;
	KUNIT_EXPECT_TRUE(test, push(0, 0));
	KUNIT_EXPECT_EQ(test, current->curr_ret_depth, 0);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(0));
	KUNIT_EXPECT_EQ(test, u->data_back, 0UL);
	u->reserve = 8;
	u->accept = false;
	KUNIT_EXPECT_FALSE(test, push(0, 1));
	/* The declined call's data went with it. */
	KUNIT_EXPECT_EQ(test, current->curr_ret_depth, 0);
}

/* One word per task and index, zero when the stack is new. */
static void task_vars(struct kunit *test)
{
	unsigned long *a, *b;

	install(1, 3);
	a = fgraph_get_task_var(&fx->users[0].gops);
	b = fgraph_get_task_var(&fx->users[1].gops);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_PTR_NE(test, a, b);
	KUNIT_EXPECT_EQ(test, *a, 0UL);
	*a = 42;
	KUNIT_EXPECT_EQ(test, *b, 0UL);
	KUNIT_EXPECT_EQ(test, *fgraph_get_task_var(&fx->users[0].gops), 42UL);
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
	/* The slot already holds return_to_handler when the callee comes. */
	fgraph_hook_slot(FAKE_FUNC(1), &fx->slots[0], &fx->slots[0],
			 &fx->users[0].gops.ops);
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 2);
	KUNIT_EXPECT_EQ(test, ftrace_graph_ret_addr(current, NULL, hook,
						    &fx->slots[0]), FAKE_RET(0));
	/* The callee returns into the handler, which then pops the caller. */
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), hook);
	KUNIT_EXPECT_EQ(test, ftrace_return_to_handler(0), FAKE_RET(0));
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, 0);
	KUNIT_EXPECT_EQ(test, fx->users[0].returns, 2);
}

static void no_stack_no_hook(struct kunit *test)
{
	unsigned long *stack = current->ret_stack;

	current->ret_stack = NULL;
	KUNIT_EXPECT_FALSE(test, push(0, 0));
	KUNIT_EXPECT_EQ(test, fx->users[0].entries, 0);
	KUNIT_EXPECT_NULL(test, ftrace_graph_get_ret_stack(current, 0));
	KUNIT_EXPECT_NULL(test, fgraph_get_task_var(&fx->users[0].gops));
	current->ret_stack = stack;
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
FGRAPH_CASE(users_share_frame)
FGRAPH_CASE(decliner_gets_no_return)
FGRAPH_CASE(depth_per_user)
FGRAPH_CASE(new_user_of_index)
FGRAPH_CASE(data_per_user)
FGRAPH_CASE(data_limits)
FGRAPH_CASE(task_vars)
FGRAPH_CASE(ret_addr_by_slot)
FGRAPH_CASE(ret_addr_tail_call)
FGRAPH_CASE(no_stack_no_hook)

static struct kunit_case fgraph_cases[] = {
	KUNIT_CASE(stack_push_pop_lifo),
	KUNIT_CASE(stack_declined_entry_pops),
	KUNIT_CASE(stack_overrun_counted),
	KUNIT_CASE(stack_users_share_frame),
	KUNIT_CASE(stack_decliner_gets_no_return),
	KUNIT_CASE(stack_depth_per_user),
	KUNIT_CASE(stack_new_user_of_index),
	KUNIT_CASE(stack_data_per_user),
	KUNIT_CASE(stack_data_limits),
	KUNIT_CASE(stack_task_vars),
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
