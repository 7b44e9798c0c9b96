#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# logscan.sh LOG...
#
# Print every kernel message in the LOGs that reports a kernel problem:
# oops, BUG, WARNING, panic, lockdep report, RCU stall, hung task.  Only
# timestamped kernel lines are read (the guest boots with printk.time=1),
# so test output that merely mentions these words is not a problem.  A
# message seen in several LOGs (console and dmesg) is printed once.
# Exit status 1 when anything was found.
pat='\[ *[0-9]+\.[0-9]+\] .*(Oops|BUG:|WARNING:|kernel BUG|Kernel panic|general protection fault|Unable to handle|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|detected stall|self-detected stall|blocked for more than|soft lockup|hard LOCKUP|UBSAN:|KASAN:)'
hits=$(for f in "$@"; do [ -f "$f" ] && grep -aoE "$pat.*" "$f"; done |
	sed -E 's/^.*(\[ *[0-9]+\.[0-9]+\])/\1/' | awk '!seen[$0]++')
[ -z "$hits" ] && exit 0
echo "$hits"
exit 1
