// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of a record's state: counting the ops that want a site,
 * deciding what the site calls, trampoline slots, and the sharing of
 * sites by direct and IPMODIFY ops.  Ops lists are private to a test and
 * no text is patched.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

/* ---- Record state: counting ops, deciding the site's instruction ---- */

struct state_fixture {
	struct ftrace_ops ops[4];
	struct ftrace_hash *hashes[3];
};

enum { IP1 = 0x1000, IP2 = 0x2000, IP3 = 0x3000 };

static int state_init(struct kunit *test)
{
	struct state_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct ftrace_ops *a, *b, *c, *stub;
	int i;

	if (!f)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(f->hashes); i++) {
		f->hashes[i] = ftrace_hash_alloc(2);
		if (!f->hashes[i])
			return -ENOMEM;
	}
	a = &f->ops[0];		/* filter: IP1 */
	b = &f->ops[1];		/* everything but IP2 */
	c = &f->ops[2];		/* filter: IP2, wants pt_regs, modifies ip */
	stub = &f->ops[3];	/* never counts */
	for (i = 0; i < ARRAY_SIZE(f->ops); i++)
		ftrace_ops_init(&f->ops[i]);
	if (ftrace_hash_add(f->hashes[0], IP1) || ftrace_hash_add(f->hashes[1], IP2) ||
	    ftrace_hash_add(f->hashes[2], IP2))
		return -ENOMEM;
	RCU_INIT_POINTER(a->func_hash->filter_hash, f->hashes[0]);
	RCU_INIT_POINTER(b->func_hash->notrace_hash, f->hashes[1]);
	RCU_INIT_POINTER(c->func_hash->filter_hash, f->hashes[2]);
	c->flags |= FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY;
	stub->role = FTRACE_ROLE_SITES;
	RCU_INIT_POINTER(a->next, b);
	RCU_INIT_POINTER(b->next, c);
	RCU_INIT_POINTER(c->next, stub);
	RCU_INIT_POINTER(stub->next, &ftrace_list_end);
	test->priv = f;
	return 0;
}

static void state_exit(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	int i;

	for (i = 0; f && i < ARRAY_SIZE(f->hashes); i++)
		ftrace_hash_free(f->hashes[i]);
}

static void state_recount(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *list = &f->ops[0];
	u32 flags;

	/* IP1: a and b; no regs. */
	flags = ftrace_rec_recount(0, IP1, list);
	KUNIT_EXPECT_EQ(test, flags, 2U);
	/* IP2: only c (b's notrace has it), which needs regs and modifies ip. */
	flags = ftrace_rec_recount(0, IP2, list);
	KUNIT_EXPECT_EQ(test, flags, 1U | FTRACE_REC_REGS | FTRACE_REC_IPMODIFY);
	/* IP3: only b. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_recount(0, IP3, list), 1U);
	/* Only the empty list wants nothing. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_recount(0, IP3, &ftrace_list_end), 0U);
}

static void state_recount_keeps_site_state(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *list = &f->ops[0];
	u32 old = 7 | FTRACE_REC_REGS | FTRACE_REC_IPMODIFY |
		  FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN;

	/* The site's instruction is what it is until patched: kept. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_recount(old, IP1, list),
			2U | FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN);
	/* A freed record is wanted by nobody and stays freed. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_recount(old | FTRACE_REC_FREED, IP1, list),
			FTRACE_REC_FREED | FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN);
}

static void state_wanted(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(0, true), 0U);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(1, true), FTRACE_REC_ENABLED);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(3 | FTRACE_REC_REGS, true),
			FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN);
	/* kernel.ftrace_enabled=0: every site a NOP. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(3 | FTRACE_REC_REGS, false), 0U);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(1 | FTRACE_REC_FREED, true), 0U);
	/* The state bits already on the site do not decide. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN, true), 0U);
}

/*
 * One site through a life: NOP, one ops, a second that needs regs, back
 * to one, sysctl off, on, and the last ops gone.  Each step recounts and
 * "patches" (takes the wanted state) the way ftrace_apply() does.
 */
static void state_transitions(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *a = &f->ops[0], *c = &f->ops[2];
	static const struct {
		const char *step;
		bool a, c, enabled;
		u32 count, site;
	} steps[] = {
		{ "nothing registered",	false, false, true, 0, 0 },
		{ "a registered",	true,  false, true, 1, FTRACE_REC_ENABLED },
		{ "c (regs) added",	true,  true,  true, 2,
		  FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN },
		{ "c removed",		true,  false, true, 1, FTRACE_REC_ENABLED },
		{ "sysctl 0",		true,  false, false, 1, 0 },
		{ "sysctl 1",		true,  false, true, 1, FTRACE_REC_ENABLED },
		{ "a removed",		false, false, true, 0, 0 },
	};
	u32 flags = 0;
	int i;

	/* Both want one site: widen c's filter to IP1 as well. */
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(f->hashes[2], IP1), 0);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		struct ftrace_ops *list = &ftrace_list_end;
		u32 want;

		RCU_INIT_POINTER(a->next, &ftrace_list_end);
		RCU_INIT_POINTER(c->next, &ftrace_list_end);
		if (steps[i].c) {
			RCU_INIT_POINTER(c->next, list);
			list = c;
		}
		if (steps[i].a) {
			RCU_INIT_POINTER(a->next, list);
			list = a;
		}
		flags = ftrace_rec_recount(flags, IP1, list);
		KUNIT_EXPECT_EQ_MSG(test, flags & FTRACE_REC_REF_MASK, steps[i].count,
				    "%s", steps[i].step);
		want = ftrace_rec_wanted(flags, steps[i].enabled);
		KUNIT_EXPECT_EQ_MSG(test, want, steps[i].site, "%s", steps[i].step);
		flags = (flags & ~FTRACE_REC_SITE) | want;
	}
}

/* Link @n ops into a list, in order; returns its head. */
static struct ftrace_ops *state_list(struct ftrace_ops **ops, int n)
{
	struct ftrace_ops *list = &ftrace_list_end;

	while (n--) {
		RCU_INIT_POINTER(ops[n]->next, list);
		list = ops[n];
	}
	return list;
}

/*
 * A site wanted by exactly one ops that has a trampoline slot calls that
 * trampoline; with a second ops it goes back to the shared one, and a
 * stale slot never survives a recount.
 */
static void state_trampoline(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *a = &f->ops[0], *b = &f->ops[1], *c = &f->ops[2];
	struct ftrace_ops *one[] = { a }, *two[] = { a, b }, *regs[] = { c }, *plain[] = { b };
	u32 flags;

	a->tramp_slot = 3;
	c->tramp_slot = FTRACE_TRAMP_SLOTS;

	flags = ftrace_rec_recount(0, IP1, state_list(one, 1));
	KUNIT_EXPECT_EQ(test, flags, 1U | FIELD_PREP(FTRACE_REC_TRAMP, 3));
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true),
			FTRACE_REC_ENABLED | FIELD_PREP(FTRACE_REC_TRAMP_EN, 3));
	/* Site calls slot 3 now; a second ops: the shared trampoline. */
	flags |= FIELD_PREP(FTRACE_REC_TRAMP_EN, 3) | FTRACE_REC_ENABLED;
	flags = ftrace_rec_recount(flags, IP1, state_list(two, 2));
	KUNIT_EXPECT_EQ(test, flags, 2U | FTRACE_REC_ENABLED |
			FIELD_PREP(FTRACE_REC_TRAMP_EN, 3));
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true), FTRACE_REC_ENABLED);
	/* sysctl off: a NOP, whatever the slot. */
	flags = ftrace_rec_recount(0, IP1, state_list(one, 1));
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, false), 0U);

	/*
	 * The highest slot, with regs, and the first one past what a record
	 * names: both far, the field's top value.  The last slot a record
	 * names is itself.
	 */
	flags = ftrace_rec_recount(0, IP2, state_list(regs, 1));
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true),
			FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN |
			FIELD_PREP(FTRACE_REC_TRAMP_EN, FTRACE_REC_SLOT_FAR));
	c->tramp_slot = FTRACE_REC_SLOT_FAR;
	flags = ftrace_rec_recount(0, IP2, state_list(regs, 1));
	KUNIT_EXPECT_EQ(test, FIELD_GET(FTRACE_REC_TRAMP_EN, ftrace_rec_wanted(flags, true)),
			(u32)FTRACE_REC_SLOT_FAR);
	c->tramp_slot = FTRACE_REC_SLOT_FAR - 1;
	flags = ftrace_rec_recount(0, IP2, state_list(regs, 1));
	KUNIT_EXPECT_EQ(test, FIELD_GET(FTRACE_REC_TRAMP_EN, ftrace_rec_wanted(flags, true)),
			(u32)FTRACE_REC_SLOT_FAR - 1);

	/* An ops without a slot: the shared trampoline. */
	flags = ftrace_rec_recount(0, IP3, state_list(plain, 1));
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true), FTRACE_REC_ENABLED);
}

/*
 * A site the direct-call ops alone wants calls its direct function; with
 * another ops it goes to ftrace_regs_caller (the direct ops wants regs).
 */
static void state_direct(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *a = &f->ops[0], *b = &f->ops[1];
	struct ftrace_ops *one[] = { a }, *two[] = { a, b };
	u32 flags;

	a->flags |= FTRACE_OPS_FL_SAVE_REGS;
	a->role = FTRACE_ROLE_DIRECT;
	a->tramp_slot = 0;

	flags = ftrace_rec_recount(0, IP1, state_list(one, 1));
	KUNIT_EXPECT_EQ(test, flags, 1U | FTRACE_REC_DIRECT | FTRACE_REC_REGS);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true),
			FTRACE_REC_ENABLED | FTRACE_REC_DIRECT_EN);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, false), 0U);

	flags = ftrace_rec_recount(flags | FTRACE_REC_ENABLED | FTRACE_REC_DIRECT_EN,
				   IP1, state_list(two, 2));
	KUNIT_EXPECT_EQ(test, flags & ~FTRACE_REC_SITE,
			2U | FTRACE_REC_DIRECT | FTRACE_REC_REGS);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true),
			FTRACE_REC_ENABLED | FTRACE_REC_REGS_EN);
}

/*
 * Direct ops and IPMODIFY ops sharing sites (ftrace_direct.c): who is
 * asked, what is refused.  ops[2] ("c") is the IPMODIFY ops on IP2.
 */
static int share_calls;
static int share_answer;
static enum ftrace_ops_cmd share_cmd;

static int share_ops_func(struct ftrace_ops *op, enum ftrace_ops_cmd cmd)
{
	share_calls++;
	share_cmd = cmd;
	return share_answer;
}

/* A DIRECT ops "a" with filter @ip (0: every site), not asked anything yet. */
static struct ftrace_ops *share_direct(struct kunit *test, unsigned long ip)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *a = &f->ops[0];
	struct ftrace_hash *h = ftrace_hash_alloc(2);

	KUNIT_ASSERT_NOT_NULL(test, h);
	if (ip)
		KUNIT_ASSERT_EQ(test, ftrace_hash_add(h, ip), 0);
	ftrace_hash_free(rcu_dereference_protected(a->func_hash->filter_hash, 1));
	RCU_INIT_POINTER(a->func_hash->filter_hash, h);
	f->hashes[0] = h;	/* freed by state_exit() */
	a->flags |= FTRACE_OPS_FL_SAVE_REGS;
	a->role = FTRACE_ROLE_DIRECT;
	a->ops_func = NULL;
	share_calls = 0;
	share_answer = 0;
	return a;
}

static int share_check(struct ftrace_ops *ops, struct ftrace_ops **list, int n)
{
	struct ftrace_ops_hash *h = ops->func_hash;
	int ret;

	mutex_lock(&ftrace_lock);
	ret = ftrace_direct_check_share(state_list(list, n), ops,
					rcu_dereference_protected(h->filter_hash, 1),
					rcu_dereference_protected(h->notrace_hash, 1));
	mutex_unlock(&ftrace_lock);
	return ret;
}

static void share_direct_joins_ipmodify(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *c = &f->ops[2], *a;
	struct ftrace_ops *reg[] = { c };

	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS))
		kunit_skip(test, "no direct calls in this kernel");

	/* No site in common: nothing asked, nothing refused. */
	a = share_direct(test, IP1);
	KUNIT_EXPECT_EQ(test, share_check(a, reg, 1), 0);

	/* On the IPMODIFY ops' site without ops_func: refused. */
	a = share_direct(test, IP2);
	KUNIT_EXPECT_EQ(test, share_check(a, reg, 1), -EBUSY);

	/* With one: asked once, SELF, and its answer is the result. */
	a->ops_func = share_ops_func;
	share_answer = -EAGAIN;
	KUNIT_EXPECT_EQ(test, share_check(a, reg, 1), -EAGAIN);
	KUNIT_EXPECT_EQ(test, share_calls, 1);
	KUNIT_EXPECT_EQ(test, share_cmd, FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_SELF);
	share_answer = 0;
	KUNIT_EXPECT_EQ(test, share_check(a, reg, 1), 0);

	/* An empty filter means every site, IP2 included. */
	a = share_direct(test, 0);
	KUNIT_EXPECT_EQ(test, share_check(a, reg, 1), -EBUSY);
}

static void share_ipmodify_joins_direct(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *c = &f->ops[2], *a;
	struct ftrace_ops *reg[1];

	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS))
		kunit_skip(test, "no direct calls in this kernel");

	a = share_direct(test, IP2);
	reg[0] = a;
	/* The direct ops cannot be asked to share: refused. */
	KUNIT_EXPECT_EQ(test, share_check(c, reg, 1), -EBUSY);
	/* It can: allowed here, without a request (PEER goes beforehand). */
	a->ops_func = share_ops_func;
	KUNIT_EXPECT_EQ(test, share_check(c, reg, 1), 0);
	KUNIT_EXPECT_EQ(test, share_calls, 0);

	a = share_direct(test, IP1);
	KUNIT_EXPECT_EQ(test, share_check(c, reg, 1), 0);
}

/* The site-to-function hash: add sites, remove only a function's own. */
static void share_funcs_edit(struct kunit *test)
{
	struct ftrace_hash *src, *sites, *h;

	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS))
		kunit_skip(test, "no direct calls in this kernel");

	src = ftrace_hash_alloc(2);
	sites = ftrace_hash_alloc(2);
	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, sites);
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(src, IP1), 0);
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(src, IP2), 0);
	ftrace_lookup_ip(src, IP1)->direct = 0xa;
	ftrace_lookup_ip(src, IP2)->direct = 0xb;

	KUNIT_ASSERT_EQ(test, ftrace_hash_add(sites, IP3), 0);
	h = ftrace_direct_funcs_edit(src, sites, 0xc, 0);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_EQ(test, h->count, 3UL);
	KUNIT_EXPECT_EQ(test, ftrace_lookup_ip(h, IP1)->direct, 0xaUL);
	KUNIT_EXPECT_EQ(test, ftrace_lookup_ip(h, IP3)->direct, 0xcUL);
	ftrace_hash_free(h);

	/* Removing IP1 and IP2 for function 0xa takes IP1 only. */
	ftrace_hash_clear(sites);
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(sites, IP1), 0);
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(sites, IP2), 0);
	h = ftrace_direct_funcs_edit(src, sites, 0, 0xa);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_EQ(test, h->count, 1UL);
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(h, IP1));
	KUNIT_EXPECT_EQ(test, ftrace_lookup_ip(h, IP2)->direct, 0xbUL);
	KUNIT_EXPECT_EQ(test, src->count, 2UL);
	ftrace_hash_free(h);
	ftrace_hash_free(sites);
	ftrace_hash_free(src);
}

/*
 * The count is only ever read as 0, 1 or more (and printed): past its
 * field it saturates rather than spill into the trampoline slot above.
 */
static void state_count_saturates(struct kunit *test)
{
	unsigned int i, n = FTRACE_REC_REF_MASK + 2;
	struct ftrace_ops *ops, **list;
	u32 flags;

	ops = kunit_kcalloc(test, n, sizeof(*ops), GFP_KERNEL);
	list = kunit_kcalloc(test, n, sizeof(*list), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	KUNIT_ASSERT_NOT_NULL(test, list);
	for (i = 0; i < n; i++) {
		ftrace_ops_init(&ops[i]);	/* empty filter: every site */
		list[i] = &ops[i];
	}
	flags = ftrace_rec_recount(0, IP1, state_list(list, n));
	KUNIT_EXPECT_EQ(test, flags, FTRACE_REC_REF_MASK);
	KUNIT_EXPECT_EQ(test, ftrace_rec_wanted(flags, true), FTRACE_REC_ENABLED);
}

static void tramp_test_func(unsigned long ip, unsigned long parent_ip,
			    struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

/*
 * The shared trampolines call one ops directly only if it is never freed:
 * they load function_trace_op and the callback separately, and a task
 * preempted in between would pair a freed ops with another callback.
 */
static void state_shared_callback(struct kunit *test)
{
	struct state_fixture *f = test->priv;
	struct ftrace_ops *c = &f->ops[2], *op = NULL;

	c->func = tramp_test_func;
	/* c alone (the stub does not count), in the kernel's data. */
	KUNIT_EXPECT_PTR_EQ(test, ftrace_shared_callback(c, true, &op),
			    (ftrace_func_t)tramp_test_func);
	KUNIT_EXPECT_PTR_EQ(test, op, c);
	/* kernel.ftrace_enabled=0, or nothing that counts: the stub. */
	KUNIT_EXPECT_PTR_EQ(test, ftrace_shared_callback(c, false, &op),
			    (ftrace_func_t)ftrace_stub);
	KUNIT_EXPECT_PTR_EQ(test, op, &ftrace_list_end);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_shared_callback(&f->ops[3], true, &op),
			    (ftrace_func_t)ftrace_stub);
	/* Several: the list function, and no op published. */
	KUNIT_EXPECT_PTR_EQ(test, ftrace_shared_callback(&f->ops[0], true, &op),
			    (ftrace_func_t)ftrace_ops_list_func);
	KUNIT_EXPECT_PTR_EQ(test, op, &ftrace_list_end);
	/* c alone, but one that can be freed: the list function too. */
	c->flags |= FTRACE_OPS_FL_DYNAMIC;
	KUNIT_EXPECT_PTR_EQ(test, ftrace_shared_callback(c, true, &op),
			    (ftrace_func_t)ftrace_ops_list_func);
	KUNIT_EXPECT_PTR_EQ(test, op, &ftrace_list_end);
}

/*
 * Every slot can be handed out, each once, to ops on and off the list
 * alike; the ops after the last goes without.  The slots the running
 * kernel holds already are counted, not assumed free.
 */
static void tramp_slots_fill(struct kunit *test)
{
	unsigned int i, got = 0, held = 0, n = FTRACE_TRAMP_SLOTS + 1;
	DECLARE_BITMAP(seen, FTRACE_TRAMP_SLOTS + 1) = { };
	struct ftrace_ops *ops;
	unsigned long where;

	ops = kunit_kcalloc(test, n, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	mutex_lock(&ftrace_lock);
	for (i = 1; i <= FTRACE_TRAMP_SLOTS; i++)
		held += !!ftrace_tramp_addr(i);
	for (i = 0; i < n; i++) {
		ftrace_ops_init(&ops[i]);
		ops[i].func = tramp_test_func;
		if (i & 1)
			ops[i].flags |= FTRACE_OPS_FL_SAVE_REGS;
		ftrace_tramp_get(&ops[i]);
		if (!ops[i].tramp_slot)
			continue;
		got++;
		KUNIT_EXPECT_LE(test, ops[i].tramp_slot, (unsigned int)FTRACE_TRAMP_SLOTS);
		KUNIT_EXPECT_FALSE(test, __test_and_set_bit(ops[i].tramp_slot, seen));
		KUNIT_EXPECT_NE(test, ftrace_tramp_addr(ops[i].tramp_slot), 0UL);
	}
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, ftrace_tramp_put(&ops[i], &where), 0);
	ftrace_tramps_reap_later();
	mutex_unlock(&ftrace_lock);
	/* Memory may have run out before the table did, but not silently. */
	KUNIT_EXPECT_EQ_MSG(test, got + held, (unsigned int)FTRACE_TRAMP_SLOTS,
			    "%u slots held before, %u given out", held, got);
	KUNIT_EXPECT_GT(test, got, 0U);
}

/*
 * A caller that waits for the grace periods itself (an ops that may be
 * freed, unregistering) frees the trampoline it let go of: the slot is
 * free again before ftrace_lock is dropped, so the next ops takes it.
 */
static void tramp_reap_after_wait(struct kunit *test)
{
	struct ftrace_ops *ops;
	unsigned long where;
	unsigned int slot;

	ops = kunit_kcalloc(test, 2, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	ftrace_ops_init(&ops[0]);
	ftrace_ops_init(&ops[1]);
	ops[0].func = tramp_test_func;
	ops[1].func = tramp_test_func;
	mutex_lock(&ftrace_lock);
	/* The slots tramp_slots_fill() let go of are the work item's yet. */
	synchronize_rcu_tasks_rude();
	synchronize_rcu_tasks();
	ftrace_tramps_reap();
	ftrace_tramp_get(&ops[0]);
	slot = ops[0].tramp_slot;
	if (!slot) {
		mutex_unlock(&ftrace_lock);
		kunit_skip(test, "no free trampoline slot or no memory for one");
	}
	KUNIT_EXPECT_EQ(test, ftrace_tramp_put(&ops[0], &where), 0);
	/* Let go of, not freed: a CPU may still be in it. */
	KUNIT_EXPECT_NE(test, ftrace_tramp_addr(slot), 0UL);
	synchronize_rcu_tasks_rude();
	synchronize_rcu_tasks();
	ftrace_tramps_reap();
	KUNIT_EXPECT_EQ(test, ftrace_tramp_addr(slot), 0UL);
	ftrace_tramp_get(&ops[1]);
	KUNIT_EXPECT_EQ(test, ops[1].tramp_slot, slot);
	KUNIT_EXPECT_EQ(test, ftrace_tramp_put(&ops[1], &where), 0);
	ftrace_tramps_reap_later();
	mutex_unlock(&ftrace_lock);
}

/*
 * A trampoline let go of calls ftrace_stub at once, while it waits for
 * its grace periods: a task preempted in it before it loaded the
 * callback must not reach the ops when it resumes.
 */
static void tramp_let_go_calls_stub(struct kunit *test)
{
	struct ftrace_ops *ops;
	unsigned long where;
	unsigned int slot;

	ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	ftrace_ops_init(ops);
	ops->func = tramp_test_func;
	mutex_lock(&ftrace_lock);
	ftrace_tramp_get(ops);
	slot = ops->tramp_slot;
	if (!slot) {
		mutex_unlock(&ftrace_lock);
		kunit_skip(test, "no free trampoline slot or no memory for one");
	}
	KUNIT_EXPECT_PTR_EQ(test, ftrace_tramp_func(slot), ftrace_ops_get_func(ops));
	KUNIT_EXPECT_EQ(test, ftrace_tramp_put(ops, &where), 0);
	ftrace_tramps_reap_later();
	/* Still there (the work item frees it), but calling nothing. */
	KUNIT_EXPECT_NE(test, ftrace_tramp_addr(slot), 0UL);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_tramp_func(slot), (ftrace_func_t)ftrace_stub);
	mutex_unlock(&ftrace_lock);
}

static struct kunit_case state_cases[] = {
	KUNIT_CASE(state_recount),
	KUNIT_CASE(state_recount_keeps_site_state),
	KUNIT_CASE(state_wanted),
	KUNIT_CASE(state_transitions),
	KUNIT_CASE(state_trampoline),
	KUNIT_CASE(state_count_saturates),
	KUNIT_CASE(state_shared_callback),
	KUNIT_CASE(tramp_slots_fill),
	KUNIT_CASE(tramp_reap_after_wait),
	KUNIT_CASE(tramp_let_go_calls_stub),
	KUNIT_CASE(state_direct),
	{}
};

static struct kunit_case share_cases[] = {
	KUNIT_CASE(share_direct_joins_ipmodify),
	KUNIT_CASE(share_ipmodify_joins_direct),
	KUNIT_CASE(share_funcs_edit),
	{}
};

static struct kunit_suite state_suite = {
	.name = "ftrace_rec_state",
	.init = state_init,
	.exit = state_exit,
	.test_cases = state_cases,
};

static struct kunit_suite share_suite = {
	.name = "ftrace_direct_share",
	.init = state_init,
	.exit = state_exit,
	.test_cases = share_cases,
};

kunit_test_suites(&state_suite, &share_suite);
