// SPDX-License-Identifier: GPL-2.0
/*
 * Try to register an IPMODIFY ops on one function, for livepatch-bpf-share.tc.
 *
 * A live patch already owns the function through an IPMODIFY ops of its
 * own, so register_ftrace_function() must fail with -EBUSY; the case
 * checks that the refusal leaves a BPF trampoline on the same function
 * built for sharing it (the live patch keeps working under the program).
 * Loading this module with func=NAME makes that registration; its result
 * is the module's init result, so modprobe fails with it.  The callback
 * changes nothing: it only counts.
 *
 * Built as an external module against either variant: only the exported
 * API is used.
 */
#include <linux/ftrace.h>
#include <linux/module.h>

static char *func;
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "the function to register an IPMODIFY ops on");

static unsigned long hits;
module_param(hits, ulong, 0444);
MODULE_PARM_DESC(hits, "calls the callback has seen");

static void fit_callback(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	WRITE_ONCE(hits, READ_ONCE(hits) + 1);
}

static struct ftrace_ops fit_ops = {
	.func	= fit_callback,
	.flags	= FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED,
};

static int __init fit_init(void)
{
	int ret;

	if (!func || !*func)
		return -EINVAL;
	ret = ftrace_set_filter(&fit_ops, func, strlen(func), 0);
	if (ret)
		return ret;
	ret = register_ftrace_function(&fit_ops);
	pr_info("ftrace_ipmodify_try: %s: register_ftrace_function() = %d\n", func, ret);
	if (ret)
		ftrace_free_filter(&fit_ops);
	return ret;
}

static void __exit fit_exit(void)
{
	unregister_ftrace_function(&fit_ops);
	ftrace_free_filter(&fit_ops);
}

module_init(fit_init);
module_exit(fit_exit);
MODULE_DESCRIPTION("one IPMODIFY ops, for a test of a refused registration");
MODULE_LICENSE("GPL");
