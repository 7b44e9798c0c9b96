#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stale-watch.sh SOCKET SYSTEM_MAP LOG [TEXT_FILE]
#
# Watches a running x86_64 guest under multi-threaded TCG for the
# emulator's stale translation of patched code (QEMU 7.2 and 10.0.2: a
# vCPU keeps trapping on an int3 that memory no longer holds, with
# interrupts off, and the guest hangs; see hang-dump.py) and cures it
# before the guest's own watchdogs fire (soft lockup at 20 s).
#
# Every FH_STALE_POLL seconds (5) it attaches to QEMU's gdb stub at
# SOCKET and lets the guest run a quarter of a second with a breakpoint
# on the int3 entry (SYSTEM_MAP gives its address); a vCPU that keeps
# coming back there from a site whose memory holds no int3 is STALE and
# is single-stepped once, which makes QEMU flush its translations
# (stale-watch.py).  Every STALE line goes to LOG; qemu-run.sh shows them
# in the guest's summary.  TEXT_FILE: where the guest's kernel text
# begins, once it has booted (kernel-offset.sh): the entry's address moves
# with KASLR.  Runs until killed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 3 ] || [ $# -eq 4 ] ||
	{ echo "usage: $0 SOCKET SYSTEM_MAP LOG [TEXT_FILE]" >&2; exit 2; }
sock=$1 map=$2 log=$3 text=${4:-/nonexistent}
poll=${FH_STALE_POLL:-5}
gdb=$(command -v gdb-multiarch || command -v gdb) || exit 0
[ -f "$map" ] || { echo "stale-watch.sh: no $map: not watching" > "$log"; exit 0; }

entry=$(awk '$3 == "asm_exc_int3" { print "0x" $1; exit }' "$map")
[ -n "$entry" ] || { echo "stale-watch.sh: no asm_exc_int3 in $map" > "$log"; exit 0; }

: > "$log"
# Killed at the guest's end: no sleep or gdb of ours is left behind.
trap 'kill $(jobs -p) 2>/dev/null; exit 0' TERM
while :; do
	sleep "$poll" & wait $!
	[ -S "$sock" ] || exit 0
	# Read each time: a kexec boots a kernel KASLR puts elsewhere.
	off=$("$here/kernel-offset.sh" "$map" "$text")
	timeout 30 "$gdb" -nx -batch -ex 'set pagination off' \
		-ex 'set confirm off' -ex 'set architecture i386:x86-64' \
		-ex "target remote $sock" \
		-ex "python FH_ENTRY = $entry + ${off:-0}" \
		-ex "source $here/stale-watch.py" 2>&1 |
		grep '^stale-watch:' | sed "s/^/$(date -u +%T) /" >> "$log"
done
