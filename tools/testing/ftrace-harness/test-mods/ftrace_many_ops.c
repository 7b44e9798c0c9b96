// SPDX-License-Identifier: GPL-2.0
/*
 * Many ftrace_ops at once, each on a function of its own, for
 * func-many-ops.tc.
 *
 * BPF's fentry programs, fprobe and tracer instances each register an
 * ops of their own; with a hundred of them a core may run out of
 * per-ops trampolines, and the sites left over must still reach their
 * one ops.  Loading this module registers "nr" ops (at most
 * MANY_FUNCS), ops i filtered on many_fn_<i>() alone, whose callback
 * counts calls from that site and from anywhere else.  Writing N to
 * "call" calls every function N times, then the read-only parameters
 * say what happened:
 *
 *	own	registered ops that have a trampoline of their own now
 *	right	registered ops whose callback ran exactly once per call of
 *		its function
 *	wrong	callbacks for a site that was not their ops' function
 *
 * Writing i to "drop" unregisters ops i: a core that ran out of
 * trampolines can give the one it frees to an ops that had none.
 *
 * Built as an external module against either variant.
 */
#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

/*
 * MANY_FUNCS distinct functions.  Each computes something of its own so
 * that the compiler cannot fold them into one, and is out of line so
 * that it keeps its call site.  (These macros expand to definitions and
 * to an initializer list: checkpatch's "complex values" error does not
 * apply.)
 */
#define FN(a, b) \
	static noinline int many_fn_##a##b(int x) { return x * 1##a##b + a; }
#define FN10(a) FN(a, 0) FN(a, 1) FN(a, 2) FN(a, 3) FN(a, 4) \
		FN(a, 5) FN(a, 6) FN(a, 7) FN(a, 8) FN(a, 9)
FN10(0) FN10(1) FN10(2) FN10(3) FN10(4) FN10(5) FN10(6)
FN10(7) FN10(8) FN10(9) FN10(10) FN10(11) FN10(12) FN10(13)

#define P(a, b) many_fn_##a##b
#define P10(a) P(a, 0), P(a, 1), P(a, 2), P(a, 3), P(a, 4), \
		P(a, 5), P(a, 6), P(a, 7), P(a, 8), P(a, 9)
static int (* const funcs[])(int) = {
	P10(0), P10(1), P10(2), P10(3), P10(4), P10(5), P10(6),
	P10(7), P10(8), P10(9), P10(10), P10(11), P10(12), P10(13),
};
#define MANY_FUNCS	ARRAY_SIZE(funcs)

/* An ops and what its callback saw. */
struct many_ops {
	struct ftrace_ops	ops;
	unsigned long		func;
	atomic_t		hits;
	bool			dropped;	/* unregistered through "drop" */
};

static struct many_ops *many;
static unsigned int nr = 130;
module_param(nr, uint, 0444);
MODULE_PARM_DESC(nr, "ops to register, one function each (at most 140)");
static unsigned int right;
module_param(right, uint, 0444);
MODULE_PARM_DESC(right, "ops called exactly once per call of their function");
static atomic_t wrong = ATOMIC_INIT(0);
static unsigned int calls;
static int sum;

static void notrace many_callback(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct many_ops *m = container_of(op, struct many_ops, ops);

	/* The site is at the function's start or a few instructions in. */
	if (ip - m->func < 16)
		atomic_inc(&m->hits);
	else
		atomic_inc(&wrong);
}

static int wrong_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&wrong));
}

static const struct kernel_param_ops wrong_ops = {
	.get = wrong_get,
};
module_param_cb(wrong, &wrong_ops, NULL, 0444);
MODULE_PARM_DESC(wrong, "callbacks for a site not their ops' function");

static int call_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i, j, ok = 0;

	/* At most 1,000 rounds: each is MANY_FUNCS calls. */
	if (kstrtouint(val, 0, &n) || n > 1000)
		return -EINVAL;
	for (j = 0; j < n; j++)
		for (i = 0; i < MANY_FUNCS; i++)
			WRITE_ONCE(sum, READ_ONCE(funcs[i])(READ_ONCE(sum)));
	calls += n;
	for (i = 0; i < nr; i++)
		ok += !many[i].dropped && atomic_read(&many[i].hits) == calls;
	right = ok;
	return 0;
}

static const struct kernel_param_ops call_ops = {
	.set = call_set,
};
module_param_cb(call, &call_ops, NULL, 0200);
MODULE_PARM_DESC(call, "write N to call every function N times");

/* Read under the module's parameter lock, as "drop" writes. */
static int own_get(char *buf, const struct kernel_param *kp)
{
	unsigned int i, n = 0;

	for (i = 0; i < nr; i++)
		n += !many[i].dropped && many[i].ops.trampoline;
	return sysfs_emit(buf, "%u\n", n);
}

static const struct kernel_param_ops own_ops = {
	.get = own_get,
};
module_param_cb(own, &own_ops, NULL, 0444);
MODULE_PARM_DESC(own, "registered ops that have a trampoline of their own");

static void unregister_one(struct many_ops *m)
{
	unregister_ftrace_function(&m->ops);
	ftrace_free_filter(&m->ops);
	m->dropped = true;
}

static int drop_set(const char *val, const struct kernel_param *kp)
{
	unsigned int i;

	if (kstrtouint(val, 0, &i) || i >= nr)
		return -EINVAL;
	if (many[i].dropped)
		return -ENOENT;
	unregister_one(&many[i]);
	return 0;
}

static const struct kernel_param_ops drop_ops = {
	.set = drop_set,
};
module_param_cb(drop, &drop_ops, NULL, 0200);
MODULE_PARM_DESC(drop, "write i to unregister ops i");

static void unregister_many(unsigned int n)
{
	while (n--)
		if (!many[n].dropped)
			unregister_one(&many[n]);
}

static int __init many_init(void)
{
	unsigned int i;
	int ret;

	if (!nr || nr > MANY_FUNCS)
		return -EINVAL;
	many = kcalloc(nr, sizeof(*many), GFP_KERNEL);
	if (!many)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		struct many_ops *m = &many[i];

		m->func = (unsigned long)funcs[i];
		m->ops.func = many_callback;
		ret = ftrace_set_filter_ip(&m->ops, m->func, 0, 0);
		if (!ret)
			ret = register_ftrace_function(&m->ops);
		if (ret) {
			pr_err("ftrace_many_ops: ops %u: %d\n", i, ret);
			ftrace_free_filter(&m->ops);
			unregister_many(i);
			kfree(many);
			return ret;
		}
	}
	return 0;
}

static void __exit many_exit(void)
{
	unregister_many(nr);
	kfree(many);
}

module_init(many_init);
module_exit(many_exit);
MODULE_DESCRIPTION("many ftrace_ops, one function each");
MODULE_LICENSE("GPL");
