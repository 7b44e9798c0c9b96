/* SPDX-License-Identifier: GPL-2.0 */
/* x86: writing call sites in one round (ftrace_poke.c), for ftrace.c */
#ifndef _X86_KERNEL_FTRACE_POKE_H
#define _X86_KERNEL_FTRACE_POKE_H

#include <linux/types.h>
#include <asm/ftrace.h>

void ftrace_poke_queue(unsigned long ip, const u8 insn[MCOUNT_INSN_SIZE]);
void ftrace_poke_finish(void);

#endif
