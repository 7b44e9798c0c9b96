// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 stand-in for samples/ftrace/ftrace-direct.c (x86-only in 6.1):
 * a direct call on wake_up_process() that trace_printk()s who wakes up.
 * ftracetest's direct/ftrace-direct.tc and kprobe-direct.tc load it.
 */
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/sched.h>

#include "arm64-direct.h"

void my_direct_func(struct task_struct *p)
{
	trace_printk("waking up %s-%d\n", p->comm, p->pid);
}

ARM64_DIRECT_TRAMP(fd_wakeup_tramp, my_direct_func, "");

ARM64_DIRECT_ONE_SITE(wake_up_process, fd_wakeup_tramp);
MODULE_DESCRIPTION("arm64: a direct call on wake_up_process()");
MODULE_LICENSE("GPL");
