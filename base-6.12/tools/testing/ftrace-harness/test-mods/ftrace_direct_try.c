// SPDX-License-Identifier: GPL-2.0
/*
 * Try to put a direct call on one function, for direct-ipmodify-busy.tc.
 *
 * register_ftrace_direct() of an ops without ops_func on a site
 * that an IPMODIFY ops (a live patch) already owns must fail with -EBUSY
 * and leave nothing behind.  Loading this module with func=NAME makes
 * exactly that registration; its result is the module's init result, so
 * modprobe fails with it.  When it succeeds, the trampoline counts its
 * calls in the read-only parameter "hits", so a case sees it run.
 *
 * With drop=1 the module then asks to take the function out of the
 * registered ops' filter, which would leave it empty ("every function"
 * for an ops): that must be refused (-EINVAL, as upstream refuses it),
 * and "drop_ret" reads back the answer, the registration staying as it
 * was.
 *
 * Built as an external module against either variant: only the exported
 * API is used.
 */
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/nospec-branch.h>

static char *func;
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "the function to put a direct call on");

/*
 * Counted by the trampoline with one locked increment: it runs in place
 * of the call to __fentry__, where the flags need not survive and the
 * argument registers are untouched.
 */
static unsigned long hits;
module_param(hits, ulong, 0444);
MODULE_PARM_DESC(hits, "calls the trampoline has seen");

void fdt_tramp(void);

asm (
"	.pushsection .text, \"ax\", @progbits\n"
"	.type fdt_tramp, @function\n"
"	.globl fdt_tramp\n"
"fdt_tramp:\n"
	ASM_ENDBR
"	lock incq hits(%rip)\n"
"	" ASM_RET "\n"
"	.size fdt_tramp, .-fdt_tramp\n"
"	.popsection\n"
);

static bool drop;
module_param(drop, bool, 0444);
MODULE_PARM_DESC(drop, "try to empty the registered ops' filter");

static int drop_ret;
module_param(drop_ret, int, 0444);
MODULE_PARM_DESC(drop_ret, "what the attempt to empty the filter returned");

static struct ftrace_ops direct_ops;

static int __init fdt_init(void)
{
	int ret;

	if (!func || !*func)
		return -EINVAL;
	ret = ftrace_set_filter(&direct_ops, func, strlen(func), 0);
	if (ret)
		return ret;
	ret = register_ftrace_direct(&direct_ops, (unsigned long)fdt_tramp);
	pr_info("ftrace_direct_try: %s: register_ftrace_direct() = %d\n",
		func, ret);
	if (ret) {
		ftrace_free_filter(&direct_ops);
		return ret;
	}
	if (drop) {
		char *not = kasprintf(GFP_KERNEL, "!%s", func);

		drop_ret = not ? ftrace_set_filter(&direct_ops, not, strlen(not), 0) : -ENOMEM;
		kfree(not);
		pr_info("ftrace_direct_try: emptying the filter: %d\n", drop_ret);
	}
	return 0;
}

static void __exit fdt_exit(void)
{
	unregister_ftrace_direct(&direct_ops, (unsigned long)fdt_tramp, true);
}

module_init(fdt_init);
module_exit(fdt_exit);
MODULE_DESCRIPTION("one direct call, without ops_func, for a test of -EBUSY");
MODULE_LICENSE("GPL");
