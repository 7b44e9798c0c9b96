// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 stand-in for samples/ftrace/ftrace-direct-too.c: a second direct
 * call, on handle_mm_fault(), whose function sees all four arguments.
 */
#include <linux/ftrace.h>
#include <linux/mm.h>
#include <linux/module.h>

#include "arm64-direct.h"

void my_direct_func(struct vm_area_struct *vma, unsigned long address,
		    unsigned int flags, struct pt_regs *regs)
{
	trace_printk("handle mm fault vma=%p address=%lx flags=%x regs=%p\n",
		     vma, address, flags, regs);
}

ARM64_DIRECT_TRAMP(fdt_fault_tramp, my_direct_func, "");

ARM64_DIRECT_ONE_SITE(handle_mm_fault, fdt_fault_tramp);
MODULE_DESCRIPTION("arm64: a direct call on handle_mm_fault()");
MODULE_LICENSE("GPL");
