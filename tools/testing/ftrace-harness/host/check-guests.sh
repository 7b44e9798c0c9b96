#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-guests.sh SHARDS_FILE RESULTS KERNEL MODULES TIMEOUT FTRACETEST LIVEPATCH
#
# The guest phase of 'make check': one QEMU guest per line of SHARDS_FILE
# (shard.py's output), all at once, each running its share of the suites
# with job-check.sh and leaving its results in RESULTS/guestN.  Each
# guest runs single-threaded TCG, so two guests keep the two host cores
# busy; the phase lasts as long as the slowest guest.
#
# The first guest also runs the tracer boot self-tests and last.d (the
# anomaly case, which leaves function tracing dead until reboot).  The
# others boot with 'kprobe_event=' (an empty list of boot-time kprobe
# events), whose side effect is to skip the tracer and event self-tests:
# they would only repeat the first guest's, at three minutes a boot.
#
# Each guest's terminal lines are prefixed 'gN| '.  Exit status: 0 when
# every guest finished its job with a clean kernel log, 1 otherwise.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 7 ] || { echo "usage: $0 SHARDS RESULTS KERNEL MODULES TIMEOUT FTRACETEST LIVEPATCH" >&2; exit 2; }
shards=$1 results=$2 kernel=$3 modules=$4 limit=$5 ftdir=$6 lpdir=$7

mkdir -p "$results"
n=0 first=1
pids=()
while IFS= read -r share || [ -n "$share" ]; do
	n=$((n + 1))
	[ -n "$share" ] || continue
	job=$results/guest$n.job
	printf 'FH_FTRACETEST=%s\nFH_LIVEPATCH=%s\nFH_TESTS="%s"\nFH_LAST=%s\n' \
		"$ftdir" "$lpdir" "$share" "$first" > "$job"
	# What our cases read (FH_TOOLS: guest-tools' programs; FH_STRESS:
	# full for make stress's counts, else CI's short form).
	# FH_CASE_*: case-watchdog.sh's limit per case.  FH_FUZZ_TIME_LIMIT:
	# fuzz-control-files.tc's seconds of writing under make stress (0:
	# none, the writes run to their count).
	printf 'export FH_TOOLS=%s FH_STRESS=%s FH_CASE_COSTS=%s FH_CASE_SCALE=%s FH_CASE_OWN_COSTS=%s FH_CASE_OWN_SCALE=%s%s\n. %s\n' \
		"${FH_TOOLS:-}" "${FH_STRESS:-short}" "${FH_CASE_COSTS:-}" \
		"${FH_CASE_SCALE:-0}" "${FH_CASE_OWN_COSTS:-}" "${FH_CASE_OWN_SCALE:-0}" \
		"${FH_FUZZ_TIME_LIMIT:+ FH_FUZZ_TIME_LIMIT=$FH_FUZZ_TIME_LIMIT}" \
		"$(cd "$here/../guest" && pwd)/job-check.sh" >> "$job"
	extra=${FH_KCMDLINE:-}
	[ $first -eq 1 ] || extra="$extra kprobe_event="
	echo "check-guests.sh: guest $n: $(echo "$share" | wc -w) tests$([ $first -eq 1 ] &&
		echo ', boot self-tests, last.d')"
	FH_KCMDLINE=$extra "$here/qemu-run.sh" -k "$kernel" -m "$modules" \
		-o "$results/guest$n" -j "$job" -t "$limit" 2>&1 |
		sed -u "s/^/g$n| /" &
	pids+=($!)
	first=0
done < "$shards"

[ ${#pids[@]} -gt 0 ] || { echo "check-guests.sh: no tests to run" >&2; exit 1; }
rc=0
for p in "${pids[@]}"; do
	wait "$p" || rc=1
done
exit $rc
