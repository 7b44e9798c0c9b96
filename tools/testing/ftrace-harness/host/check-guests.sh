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
# With FH_KEXEC=1 the last guest ends its job with the kexec step
# (kexec-step.sh): its kernel boots itself again, the function tracer on
# every function, and the kernel it boots finishes the job.
#
# A guest whose kernel dies in a test (an oops, BUG or panic; a case
# stuck in the kernel after the case watchdog's kill; a hang until the
# limit; QEMU gone) would lose the rest of its share.  It is
# booted again with the tests left after the one it died in
# (remaining.py), into RESULTS/guestN.boot2, then .boot3..., at most
# FH_EXTRA_BOOTS (3) more times.  The test it died in is not run again:
# summarize.py reads every boot as the guest's and reports that test
# CRASH.  The first guest's later boots skip the boot self-tests with
# 'kprobe_event=' (they ran in its first boot, whose log has them), and
# keep last.d at the end of what they run: last.d runs once, in the boot
# that gets to the end of the share.
#
# Each guest's terminal lines are prefixed 'gN| '.  Exit status: 0 when
# every guest finished its job with a clean kernel log, 1 otherwise.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 7 ] || { echo "usage: $0 SHARDS RESULTS KERNEL MODULES TIMEOUT FTRACETEST LIVEPATCH" >&2; exit 2; }
shards=$1 results=$2 kernel=$3 modules=$4 limit=$5 ftdir=$6 lpdir=$7
extra_boots=${FH_EXTRA_BOOTS:-3}
case $extra_boots in
''|*[!0-9]*) echo "check-guests.sh: FH_EXTRA_BOOTS=$extra_boots: a number of boots" >&2; exit 2 ;;
esac

# write_job FILE TESTS LAST KEXEC: a boot's job, its share, whether it
# runs last.d and the kexec step, then job-check.sh.
write_job() {
	printf 'FH_FTRACETEST=%s\nFH_LIVEPATCH=%s\nFH_TESTS="%s"\nFH_LAST=%s\nFH_KEXEC=%s\nFH_KEXEC_KERNEL=%s\n' \
		"$ftdir" "$lpdir" "$2" "$3" "$4" "$kernel" > "$1"
	# What our cases read (FH_TOOLS: guest-tools' programs; FH_STRESS:
	# full for make stress's counts, else CI's short form).
	# FH_CASE_*: case-watchdog.sh's limit per case.  FH_FUZZ_TIME_LIMIT:
	# fuzz-control-files.tc's seconds of writing under make stress (0:
	# none, the writes run to their count).
	printf 'export FH_TOOLS=%s FH_STRESS=%s FH_CASE_COSTS=%s FH_CASE_SCALE=%s FH_CASE_OWN_COSTS=%s FH_CASE_OWN_SCALE=%s%s\n. %s\n' \
		"${FH_TOOLS:-}" "${FH_STRESS:-short}" "${FH_CASE_COSTS:-}" \
		"${FH_CASE_SCALE:-0}" "${FH_CASE_OWN_COSTS:-}" "${FH_CASE_OWN_SCALE:-0}" \
		"${FH_FUZZ_TIME_LIMIT:+ FH_FUZZ_TIME_LIMIT=$FH_FUZZ_TIME_LIMIT}" \
		"$(cd "$here/../guest" && pwd)/job-check.sh" >> "$1"
}

# run_guest N SHARE FIRST KEXEC: guest N's boots, one after the other,
# until one gets to the end of what it was given or no boot is left.
# The kexec step is tried once: a boot that got to it (kexec-go.txt)
# leaves it out of the boots after.  Status 1 when any of them failed.
run_guest() {
	local n=$1 todo=$2 first=$3 last=$3 kexec=$4 boot=1 dir=$results/guest$1 extra next st why rc=0

	# Nothing of an earlier run may be read as one of this guest's boots.
	rm -rf "$dir".boot*
	while :; do
		write_job "$dir.job" "$todo" "$last" "$kexec"
		extra=${FH_KCMDLINE:-}
		[ "$first" -eq 1 ] && [ $boot -eq 1 ] || extra="$extra kprobe_event="
		FH_KCMDLINE=$extra "$here/qemu-run.sh" -k "$kernel" -m "$modules" \
			-o "$dir" -j "$dir.job" -t "$limit" || rc=1
		next=$("$here/remaining.py" "$dir" "$ftdir")
		st=$?
		why=$(sed -n 3p <<< "$next")
		case $st in
		0) ;;
		1)	[ $boot -eq 1 ] || echo "check-guests.sh: guest $n, boot $boot: $why"
			break ;;
		*)	echo "check-guests.sh: guest $n: remaining.py failed ($st): not booted again"
			rc=1
			break ;;
		esac
		if [ $boot -gt "$extra_boots" ]; then
			echo "check-guests.sh: guest $n, boot $boot: $why; no boot left (FH_EXTRA_BOOTS=$extra_boots)"
			break
		fi
		todo=$(sed -n 1p <<< "$next")
		last=$(sed -n 2p <<< "$next")
		[ ! -f "$dir/kexec-go.txt" ] || kexec=0
		boot=$((boot + 1))
		dir=$results/guest$n.boot$boot
		echo "check-guests.sh: guest $n, boot $((boot - 1)): $why"
		echo "check-guests.sh: guest $n, boot $boot: the $(wc -w <<< "${todo#none}") tests left$([ "$last" = 1 ] &&
			echo ', last.d') ($dir)"
	done
	return $rc
}

mkdir -p "$results"
# FH_KEXEC=1: the last guest ends its job with the kexec step.
kexec_guest=0
[ "${FH_KEXEC:-0}" != 1 ] || kexec_guest=$(grep -n . "$shards" | tail -n 1 | cut -d: -f1)
n=0 first=1
pids=()
while IFS= read -r share || [ -n "$share" ]; do
	n=$((n + 1))
	[ -n "$share" ] || continue
	kexec=$([ $n = "$kexec_guest" ] && echo 1 || echo 0)
	echo "check-guests.sh: guest $n: $(echo "$share" | wc -w) tests$([ $first -eq 1 ] &&
		echo ', boot self-tests, last.d')$([ $kexec = 1 ] && echo ', kexec')"
	run_guest $n "$share" $first $kexec < /dev/null 2>&1 | sed -u "s/^/g$n| /" &
	pids+=($!)
	first=0
done < "$shards"

[ ${#pids[@]} -gt 0 ] || { echo "check-guests.sh: no tests to run" >&2; exit 1; }
rc=0
for p in "${pids[@]}"; do
	wait "$p" || rc=1
done
exit $rc
