// SPDX-License-Identifier: GPL-2.0
/*
 * A module function that runs when asked, for func-module-plt.tc.
 *
 * Writing N to the "call" parameter calls fmc_called() N times; "calls"
 * reads back how many calls there were.  On arm64 with KASLR the module
 * region may lie out of "bl" range of the kernel's ftrace trampolines,
 * and then fmc_called()'s call site reaches them through the module's
 * PLT: the case traces it with the function and function_graph tracers
 * either way.  Built as an external module against either variant.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static unsigned long calls;
module_param(calls, ulong, 0444);
MODULE_PARM_DESC(calls, "calls of fmc_called() so far");

/* Out of line, and its result used, so that it keeps its call site. */
static noinline unsigned long fmc_called(void)
{
	return READ_ONCE(calls) + 1;
}

static int fmc_call_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n > 1000)
		return -EINVAL;
	for (i = 0; i < n; i++)
		WRITE_ONCE(calls, fmc_called());
	return 0;
}

static const struct kernel_param_ops fmc_call_ops = {
	.set = fmc_call_set,
};
module_param_cb(call, &fmc_call_ops, NULL, 0200);
MODULE_PARM_DESC(call, "write N to call fmc_called() N times");

static int __init fmc_init(void)
{
	return 0;
}

static void __exit fmc_exit(void)
{
}

module_init(fmc_init);
module_exit(fmc_exit);
MODULE_DESCRIPTION("a module function to trace on demand");
MODULE_LICENSE("GPL");
