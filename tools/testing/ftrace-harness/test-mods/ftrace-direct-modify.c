// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 stand-in for samples/ftrace/ftrace-direct-modify.c: a direct call
 * on schedule() that a kthread moves between two functions every 2 s
 * with modify_ftrace_direct().  Our func-direct-modify.tc loads it.
 */
#include <linux/ftrace.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>

#include "arm64-direct.h"

void my_direct_func1(void)
{
	trace_printk("my direct func1\n");
}

void my_direct_func2(void)
{
	trace_printk("my direct func2\n");
}

ARM64_DIRECT_TRAMP(fdmod_tramp1, my_direct_func1, "");
ARM64_DIRECT_TRAMP(fdmod_tramp2, my_direct_func2, "");

static unsigned long fdmod_tramps[] = {
	(unsigned long)fdmod_tramp1, (unsigned long)fdmod_tramp2,
};

static unsigned int fdmod_cur;
static struct task_struct *fdmod_task;

static int fdmod_thread(void *arg)
{
	while (!kthread_should_stop()) {
		unsigned int next = !fdmod_cur;

		set_current_state(TASK_INTERRUPTIBLE);
		schedule_timeout(2 * HZ);
		if (kthread_should_stop())
			break;
		if (!modify_ftrace_direct((unsigned long)schedule,
					  fdmod_tramps[fdmod_cur], fdmod_tramps[next]))
			fdmod_cur = next;
	}
	return 0;
}

static int __init fdmod_init(void)
{
	int ret = register_ftrace_direct((unsigned long)schedule, fdmod_tramps[0]);

	if (ret)
		return ret;
	fdmod_task = kthread_run(fdmod_thread, NULL, "fdmod");
	if (IS_ERR(fdmod_task)) {
		unregister_ftrace_direct((unsigned long)schedule, fdmod_tramps[0]);
		return PTR_ERR(fdmod_task);
	}
	return 0;
}

static void __exit fdmod_exit(void)
{
	kthread_stop(fdmod_task);
	unregister_ftrace_direct((unsigned long)schedule, fdmod_tramps[fdmod_cur]);
}

module_init(fdmod_init);
module_exit(fdmod_exit);
MODULE_DESCRIPTION("arm64: a direct call moved between two functions");
MODULE_LICENSE("GPL");
