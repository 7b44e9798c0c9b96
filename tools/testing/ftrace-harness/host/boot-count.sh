#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot-count.sh KERNEL SYSTEM_MAP FROM OUT
#
# How many instructions a kernel executes at boot from the entry of the
# function FROM to its next call of _printk (make bench's boot set-up row:
# ours' ftrace_init() up to its boot line, stock's ftrace_process_locs()
# up to its "ftrace: allocated" line).  The guest boots on one vCPU under
# QEMU's -icount shift=0 in record mode, with nokaslr so that System.map's
# addresses hold, and stopped on its first instruction; gdb puts a hardware
# breakpoint at each end and asks QEMU's "info replay" for the instruction
# count there.  Exact, and it needs no clock: stock arm64's printk
# timestamps do not advance that early, so its boot log cannot say.
#
# Prints "boot_setup_insns N" to OUT/boot-count.txt and stdout, and keeps
# the guest's console and gdb's output in OUT/boot-count/; the guest is
# killed once both counts are read.  FH_ARCH selects the machine as for
# qemu-run.sh.

set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 4 ] || { echo "usage: $0 KERNEL SYSTEM_MAP FROM OUT" >&2; exit 2; }
kernel=$1 map=$2 from=$3 out=$4
die() { echo "boot-count.sh: $*" >&2; exit 1; }

gdb=$(command -v gdb-multiarch || command -v gdb) ||
	die "no gdb (deps.sh installs gdb-multiarch)"
addr() {
	local a
	a=$(awk -v s="$1" '$3 == s && $2 ~ /^[tT]$/ { print $1; exit }' "$map")
	[ -n "$a" ] || die "no text symbol $1 in $map"
	echo "0x$a"
}
start=$(addr "$from") || exit 1
pk=$(addr _printk) || exit 1

# The guest's own directory: qemu-run.sh empties it, and OUT holds a bench
# boot's results.
g=$out/boot-count
mkdir -p "$out" || exit 1
rm -f "$out/boot-count.txt"
# The guest never gets this far: it is killed at the second breakpoint.
job=$(mktemp /tmp/boot-count.XXXXXX.sh) || exit 1
printf '#!/bin/sh\n' > "$job"
FH_ICOUNT=1 FH_KCMDLINE=nokaslr \
FH_QEMU_ARGS="-S -gdb unix:$job.sock,server=on,wait=off -icount shift=0,rr=record,rrfile=$job.rr" \
	"$here/qemu-run.sh" -k "$kernel" -o "$g" -j "$job" -t 900 \
	> "$job.log" 2>&1 &
guest=$!
# The socket appears once QEMU is up.
for _ in $(seq 120); do
	[ -S "$job.sock" ] && break
	kill -0 $guest 2>/dev/null || die "the guest did not start: $(tail -3 "$job.log")"
	sleep 0.5
done

timeout 600 "$gdb" -nx -batch -ex 'set pagination off' -ex 'set confirm off' \
	-ex "target remote $job.sock" \
	-ex "hbreak *$start" -ex continue -ex 'monitor info replay' -ex delete \
	-ex "hbreak *$pk" -ex continue -ex 'monitor info replay' \
	> "$job.gdb" 2>&1
# Only QEMU itself: qemu-run.sh then tidies up as after any guest exit.
pkill -f "rrfile=$job.rr" 2>/dev/null
wait $guest 2>/dev/null
mkdir -p "$g" && cp "$job.log" "$g/boot-count.log" && cp "$job.gdb" "$g/boot-count.gdb"
rm -f "$job" "$job.rr" "$job.sock" "$job.log" "$job.gdb"

# "info replay" says "Recording execution 'FILE': instruction count = N".
mapfile -t n < <(sed -n 's/.*[Rr]ecording.*[^0-9]\([0-9][0-9]*\)[^0-9]*$/\1/p' "$g/boot-count.gdb")
[ ${#n[@]} -eq 2 ] || die "expected two instruction counts in $g/boot-count.gdb, got ${#n[@]}"
echo "boot_setup_insns $((n[1] - n[0]))" | tee "$out/boot-count.txt"
