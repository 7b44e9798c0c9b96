// SPDX-License-Identifier: GPL-2.0
/*
 * The function profiler's per-CPU tables of hit counts.  Each CPU's
 * open-addressing table is written only by that CPU with interrupts off,
 * so counting takes no lock and never allocates; a call that finds no slot
 * within PROFILE_PROBES is counted as dropped.
 */
#include <linux/hash.h>

#include "trace.h"
#include "ftrace_internal.h"

#define PROFILE_PROBES		64

struct profile_cpu **ftrace_profiles;
/* Every CPU's table has 1 << ftrace_profile_bits slots, fixed once allocated. */
unsigned int ftrace_profile_bits __read_mostly;

/*
 * The slot of @ip in this CPU's table: the one holding it, or else the
 * free one where a probe ends (NULL once PROFILE_PROBES slots are taken).
 */
static struct profile_slot *probe_slot(unsigned long ip)
{
	struct profile_cpu *pc = ftrace_profiles[smp_processor_id()];
	unsigned int i, h = hash_long(ip, ftrace_profile_bits);
	unsigned int mask = (1U << ftrace_profile_bits) - 1;

	for (i = 0; i < PROFILE_PROBES; i++) {
		struct profile_slot *s = &pc->slots[(h + i) & mask];

		if (s->ip == ip || !s->ip)
			return s;
	}
	return NULL;
}

/**
 * ftrace_profile_find - this CPU's slot of a function
 * @ip: the function
 *
 * Context: preemption and interrupts disabled.
 * Return: the slot, or NULL if the function has none on this CPU.
 */
struct profile_slot *ftrace_profile_find(unsigned long ip)
{
	struct profile_slot *s = probe_slot(ip);

	return s && s->ip == ip ? s : NULL;
}

/**
 * ftrace_profile_count - count a call of a function on this CPU
 * @ip: the function
 *
 * Context: preemption disabled.
 */
void ftrace_profile_count(unsigned long ip)
{
	struct profile_slot *s;
	unsigned long flags;

	/*
	 * An interrupt counting on this CPU between the look-up and the
	 * claim would take the same free slot for another function, whose
	 * counts this one would then overwrite.
	 */
	local_irq_save(flags);
	s = probe_slot(ip);
	if (!s) {
		ftrace_profiles[smp_processor_id()]->dropped++;
	} else if (s->ip == ip) {
		s->hits++;
	} else {
		s->hits = 1;
		s->time = 0;
		s->time_sq = 0;
		WRITE_ONCE(s->ip, ip);
	}
	local_irq_restore(flags);
}
