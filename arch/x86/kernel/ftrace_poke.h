/* SPDX-License-Identifier: GPL-2.0 */
/* x86: writing call sites in one round (ftrace_poke.c), for ftrace.c */
#ifndef _X86_KERNEL_FTRACE_POKE_H
#define _X86_KERNEL_FTRACE_POKE_H

#include <linux/types.h>
#include <asm/ftrace.h>

void ftrace_poke_reserve(unsigned int nr);
void ftrace_poke_queue(unsigned long ip, u64 insn);
void ftrace_poke_finish(void);

#endif
