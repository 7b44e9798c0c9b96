#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot-loop.sh KERNEL MODULES OUTDIR N
#
# Boot KERNEL N times, the boot self-tests and KUnit only (job-boots.sh),
# each boot into OUTDIR/bootK, and print one line per boot: whether
# qemu-run.sh found the log clean, and the dynamic ftrace self-test's
# line.  For failures that come once in many boots (a boot of ours arm64
# under multi-threaded TCG failed "Testing dynamic ftrace" once in 93):
# every failed boot's directory is kept, with the trace buffer of the
# failed self-test (job-boots.sh).  QEMU and the machine come from the
# FH_* variables, as for qemu-run.sh.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 4 ] || { echo "usage: $0 KERNEL MODULES OUTDIR N" >&2; exit 2; }
kernel=$1 modules=$2 out=$3 n=$4
case "$n" in ''|*[!0-9]*|0) echo "boot-loop.sh: N must be a positive number" >&2; exit 2 ;; esac
mkdir -p "$out"
# The job reads the sites with the ftracetest cases' helper, named by its
# path here: the guest sees this tree at the same path.
job=$out/job-boots.sh
{ printf 'FH_LIB=%s\n' "$(cd "$here/../../../.." && pwd)/tools/testing/selftests/ftrace/test.d/ftrace/fh-lib.sh"
  cat "$here/../guest/job-boots.sh"; } > "$job"
failed=0
for i in $(seq 1 "$n"); do
	d=$out/boot$i
	"$here/qemu-run.sh" -k "$kernel" -m "$modules" -o "$d" \
		-j "$job" -t "${FH_BOOT_LIMIT:-900}" > "$d.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || failed=$((failed + 1))
	line=$(grep -h 'Testing dynamic ftrace:' "$d/dmesg.txt" "$d/console.log" 2>/dev/null | head -n 1)
	cured=$(grep -c STALE "$d/stale-watch.txt" 2>/dev/null)
	echo "boot $i: $([ $rc -eq 0 ] && echo clean || echo FAIL) ${line:-(no dynamic ftrace self-test line)}$([ "${cured:-0}" -eq 0 ] || echo " (the emulator's stale translation cured $cured time(s))")"
	# Only failures are worth their space.
	[ $rc -ne 0 ] || rm -rf "$d" "$d.log"
done
echo "boot-loop.sh: $failed of $n boots failed$([ $failed -eq 0 ] || echo ", kept in $out")"
[ $failed -eq 0 ]
