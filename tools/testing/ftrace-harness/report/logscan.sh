#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# logscan.sh LOG...
#
# Print every kernel message in the LOGs that reports a kernel problem:
# oops, BUG, WARNING, panic, lockdep report, RCU stall, hung task, a
# die() line ("invalid opcode: 0000 [#1] PREEMPT SMP", "int3: 0000 [#1]":
# x86's traps print neither Oops nor BUG:), SLUB's "BUG kmalloc-64 (Not
# tainted): ..." and what DEBUG=1's checkers print (KASAN, debug
# objects, W+X).  Only
# timestamped kernel lines are read (the guest boots with printk.time=1),
# so test output that merely mentions these words is not a problem.  A
# message seen in several LOGs (console and dmesg) is printed once.
#
# One WARNING is expected: the anomaly test (ftracetest last.d) logs the
# marker line below, then provokes ftrace_anomaly()'s WARN.  The first
# ftrace_anomaly WARNING after each marker is accepted; any other, or a
# second one, is reported.  The test itself checks that the WARNING came.
#
# Exit status 1 when anything was found.
export FH_PAT='\[ *[0-9]+\.[0-9]+\] .*(Oops|BUG:|BUG [^ ]+ \((Not t|T)ainted|\[#[0-9]+\]|WARNING:|kernel BUG|Kernel panic|general protection fault|Unable to handle|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|detected stall|self-detected stall|blocked for more than|soft lockup|hard LOCKUP|UBSAN:|KASAN:|ODEBUG:|W\+X mappings: FAILED)'
export FH_MARK='\[ *[0-9]+\.[0-9]+\] .*ftrace-harness: injecting a code patching anomaly, one WARNING expected'
hits=$(for f in "$@"; do
	[ -f "$f" ] || continue
	awk '
	{ sub(/\r$/, "") }	# the console log has CRLF line ends
	$0 ~ ENVIRON["FH_MARK"] { armed = 1; next }
	match($0, ENVIRON["FH_PAT"]) {
		if (armed && /WARNING:.* ftrace_anomaly[.+]/) {
			armed = 0
			next
		}
		print substr($0, RSTART)
	}' "$f"
done | sed -E 's/^.*(\[ *[0-9]+\.[0-9]+\])/\1/' | awk '!seen[$0]++')
[ -z "$hits" ] && exit 0
echo "$hits"
exit 1
