#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hang-dump.sh SOCKET VMLINUX OUT [TEXT_FILE]
#
# A guest is about to be killed at its time limit: before it is, ask its
# gdb stub (QEMU's -gdb on the unix socket SOCKET) what every vCPU is
# doing, three times a second apart, with VMLINUX's symbols, into OUT.
# Each look ends with "hang-dump: STALE: ..." for a vCPU caught trapping
# on an int3 that memory no longer holds (hang-dump.py says why that
# matters); those lines are printed here too.  A hang inside the guest
# that the kernel itself reports (soft lockup, RCU stall) is in the
# console already: this is for the ones it cannot report.  TEXT_FILE:
# where the guest's kernel text begins (kernel-offset.sh), so that a
# kernel KASLR moved still gets its symbols.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 3 ] || [ $# -eq 4 ] ||
	{ echo "usage: $0 SOCKET VMLINUX OUT [TEXT_FILE]" >&2; exit 2; }
sock=$1 vmlinux=$2 out=$3 text=${4:-/nonexistent}
gdb=$(command -v gdb-multiarch || command -v gdb) || {
	echo "hang-dump.sh: no gdb (deps.sh installs gdb-multiarch)" > "$out"
	exit 0
}
[ -S "$sock" ] || { echo "hang-dump.sh: no gdb stub at $sock" > "$out"; exit 0; }
[ -f "$vmlinux" ] || vmlinux=""
off=""
[ -z "$vmlinux" ] || off=$("$here/kernel-offset.sh" "$(dirname "$vmlinux")/System.map" "$text")
{
	echo "hang-dump.sh: $(date -u '+%F %T') ${vmlinux:-(no vmlinux: no symbols)}${off:+ moved by $off}"
	for k in 1 2 3; do
		echo "=== look $k"
		# Attaching stops the vCPUs; detaching at the end of the batch
		# lets them go on until the next look.
		timeout 60 "$gdb" -nx -batch -ex 'set pagination off' \
			-ex 'set confirm off' ${vmlinux:+-ex "symbol-file -o ${off:-0} $vmlinux"} \
			-ex "target remote $sock" -ex "source $here/hang-dump.py" 2>&1
		sleep 1
	done
} > "$out"
grep '^hang-dump: STALE' "$out" | sort -u
exit 0
