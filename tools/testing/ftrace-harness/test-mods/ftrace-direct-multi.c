// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 stand-in for samples/ftrace/ftrace-direct-multi.c: one direct
 * function on two sites, wake_up_process() and schedule(), through
 * register_ftrace_direct_multi(); it trace_printk()s the site it came
 * from.  Our direct-multi.tc loads it.
 */
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/sched.h>

#include "arm64-direct.h"

void my_direct_func(unsigned long ip)
{
	trace_printk("ip %lx\n", ip);
}

ARM64_DIRECT_TRAMP(fdm_tramp, my_direct_func, ARM64_DIRECT_PASS_SITE);

static struct ftrace_ops fdm_ops;

static int __init fdm_init(void)
{
	int ret;

	ret = ftrace_set_filter_ip(&fdm_ops, (unsigned long)wake_up_process, 0, 0);
	if (!ret)
		ret = ftrace_set_filter_ip(&fdm_ops, (unsigned long)schedule, 0, 0);
	if (!ret)
		ret = register_ftrace_direct_multi(&fdm_ops, (unsigned long)fdm_tramp);
	if (ret)
		ftrace_free_filter(&fdm_ops);
	return ret;
}

static void __exit fdm_exit(void)
{
	unregister_ftrace_direct_multi(&fdm_ops, (unsigned long)fdm_tramp);
	ftrace_free_filter(&fdm_ops);
}

module_init(fdm_init);
module_exit(fdm_exit);
MODULE_DESCRIPTION("arm64: one direct function on two sites");
MODULE_LICENSE("GPL");
