#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# case-watchdog.sh FTRACETEST_PID LOG_DIR OUT COSTS SCALE [OWN_COSTS OWN_SCALE]
#
# Runs in the guest beside ftracetest (job-check.sh).  A case still running
# after SCALE times its cost in COSTS (case-costs*.txt, the seconds make
# check measured; 20 s when unlisted), and never less than 600 s, is
# stopped: one hung case then costs the run one FAIL, not the rest of its
# guest's share and every result after it (a CI run lost a whole guest to
# a case that never ended and left no trace of which one it was).
#
# Before the kill, the console gets each process of the case with its
# state, wait channel and kernel stack (lines "harness: stuck| "), and
# OUT/case-hang-N.txt the same and the tail of the case's log: what it was
# waiting for.  OUT/case-stopped.txt gets "N|seconds|limit"
# for the summary, which gives the reason beside the case's FAIL.
#
# The running case is the one with the highest number among ftracetest's
# per-case logs (N-NAME-log.XXXXXX, created as a case starts; -k keeps
# them).  SCALE 0: no limit (make stress, whose full counts outlast any
# cost measured by make check).
#
# OWN_COSTS: seconds measured on the kernel that runs now (DEBUG=1's,
# case-costs-debug*.txt), for the cases whose slowdown there is far from
# the rest's: a case listed there gets OWN_SCALE times its own cost
# instead.  (fault-inject.tc's module-load walk runs under the function
# tracer on every function, which KASAN slows much more than the rest.)
#
# A kernel that dies (taint D, not there when the job started: job-check.sh's
# FH_TAINT_START) while a case runs ends the boot at once, a reboot by
# sysrq (QEMU leaves on it): the rest of the share would run on a kernel
# that oopsed, or hang on a lock the dead task held, until the guest's
# limit.  check-guests.sh boots the guest again with the cases left;
# the console's start lines say which case the kernel died in.  Without
# FH_TAINT_START (not run by job-check.sh), no such check; with SCALE 0
# no watchdog runs, and job-check.sh's check after ftracetest remains.
#
# A case whose processes outlive the kill (SIGKILL pends until a task in
# the kernel wakes: one deadlocked there never does) ends the boot the
# same way, GRACE seconds after the kill (FH_CASE_GRACE, 60): the next
# cases would wait on what it holds, each until its own limit.
#
# While it only waits, the watchdog forks nothing: no sleep, no command
# substitution.  Cases count forks (trigger-multihist.tc reads a named
# histogram of sched_process_fork through two events' files and wants them
# equal); a watchdog's fork between the two reads failed it on arm64.
set -u

[ $# -eq 5 ] || [ $# -eq 7 ] ||
	{ echo "usage: $0 FTRACETEST_PID LOG_DIR OUT COSTS SCALE [OWN_COSTS OWN_SCALE]" >&2; exit 2; }
ft=$1 logdir=$2 out=$3 costs=$4 scale=$5 own=${6:-/dev/null} own_scale=${7:-0}
floor=${FH_CASE_FLOOR:-600}	# lower only to test this script
poll=${FH_CASE_POLL:-5}		# the same
tainted=${FH_TAINTED:-/proc/sys/kernel/tainted}	# the same
sysrq=${FH_SYSRQ:-/proc/sysrq-trigger}		# the same
grace=${FH_CASE_GRACE:-60}			# the same
kill_sig=${FH_CASE_KILL:-KILL}			# the same: a signal a test can ignore
[ "$scale" -gt 0 ] 2>/dev/null || exit 0

# Sets $up to the whole seconds since boot, without a fork.
read_uptime() {
	read -r up _ < /proc/uptime
	up=${up%%.*}
}

# A watchdog that cannot run leaves the cases without a limit: say so
# where the summary looks (a harness FAIL), not only on the console.
broken() {
	echo "harness: case watchdog: $*: cases run without a time limit" >&2
	echo "$*" >> "$out/case-watchdog-error.txt"
	exit 1
}

# A FIFO no one writes to, opened for reading and writing: read -t on it
# is a sleep without a fork.  Not a process substitution: that needs
# /dev/fd, which the guest's devtmpfs does not have.  The name goes at
# once; the open descriptor keeps the FIFO.
dir=$(mktemp -d) || broken "no temporary directory"
mkfifo "$dir/idle" && exec {idle}<>"$dir/idle" ||
	{ rm -rf "$dir"; broken "cannot open a FIFO in $dir"; }
rm -rf "$dir"

# The seconds listed for each case, read once: cost[NAME] from COSTS,
# own_cost[NAME] from OWN_COSTS (costs are listed by path under test.d; a
# case's log carries its file's name only).
declare -A cost own_cost
load_costs() { # file array
	local -n into=$2
	local secs path

	while read -r secs path _; do
		case $secs in ''|'#'*) continue ;; esac
		[ -n "${into[${path##*/}]+set}" ] || into[${path##*/}]=$secs
	done < "$1"
}
load_costs "$costs" cost
load_costs "$own" own_cost

# The descendants of process $1, parents first.
descendants() {
	local p

	for p in $(grep -l "^PPid:[[:space:]]*$1\$" /proc/[0-9]*/status 2>/dev/null |
		   cut -d/ -f3); do
		echo "$p"
		descendants "$p"
	done
}

dump() { # pid: one process of the stuck case
	echo "--- pid $1: $(tr '\0' ' ' < "/proc/$1/cmdline" 2>/dev/null)"
	grep -E '^(State|PPid):' "/proc/$1/status" 2>/dev/null
	echo "wchan: $(cat "/proc/$1/wchan" 2>/dev/null)"
	cat "/proc/$1/stack" 2>/dev/null
}

# Says why on the console, gives the line two seconds to get out, then
# reboots (QEMU leaves on it).
end_boot() {
	echo "harness: $1: ending this boot, the host boots again with the cases left"
	read -r -t 2 -u "$idle" _
	echo b > "$sysrq"
	exit 0
}

# Ends the boot if the kernel died since the job started.
end_if_died() {
	local t

	[ -n "${FH_TAINT_START:-}" ] || return 0
	read -r t < "$tainted"
	[ $((t & 128)) -ne 0 ] && [ $((FH_TAINT_START & 128)) -eq 0 ] || return 0
	end_boot "the kernel died (taint $t) while case $n ($name) ran"
}

# Ends the boot if a process of the case stopped at $killed_at is still
# there, not a zombie, $grace seconds later; forgets them if none is.
end_if_stuck() {
	local p key val state left=''

	[ -n "$killed" ] || return 0
	read_uptime
	[ $((up - killed_at)) -ge "$grace" ] || return 0
	for p in $killed; do
		state=''
		while read -r key val _; do
			[ "$key" = State: ] && { state=$val; break; }
		done 2>/dev/null < "/proc/$p/status"
		[ -z "$state" ] || [ "$state" = Z ] || left="$left $p"
	done
	killed=''
	[ -n "$left" ] || return 0
	end_boot "case $killed_n ($killed_name) is stuck in the kernel: pids$left outlived the kill by ${grace}s"
}

cur='' name='' t0=0 limit=0 n=0 up=0 killed='' killed_at=0 killed_n='' killed_name=''
while kill -0 "$ft" 2>/dev/null; do
	read -r -t "$poll" -u "$idle" _
	end_if_stuck
	log='' best=-1
	for f in "$logdir"/[0-9]*-*-log.*; do
		[ -e "$f" ] || continue
		f=${f##*/}
		if [ "${f%%-*}" -gt "$best" ] 2>/dev/null; then
			best=${f%%-*} log=$f
		fi
	done
	[ -n "$log" ] || { end_if_died; continue; }
	if [ "$log" != "$cur" ]; then
		read_uptime
		cur=$log t0=$up
		n=${log%%-*}
		name=${log#*-}
		name=${name%-log.*}
		if [ -n "${own_cost[$name]+set}" ]; then
			limit=$((${own_cost[$name]} * own_scale))
		else
			limit=$((${cost[$name]:-20} * scale))
		fi
		[ "$limit" -ge "$floor" ] || limit=$floor
		end_if_died
		continue
	fi
	end_if_died
	read_uptime
	el=$((up - t0))
	[ "$el" -ge "$limit" ] || continue

	pids=$(descendants "$ft")
	# From /proc only, and on the console first: the results share is
	# 9p, which may be what the case is stuck on.
	procs=$(for p in $pids; do dump "$p"; done)
	echo "harness: case $n ($name) still running after ${el}s (limit ${limit}s): stopping it"
	printf '%s\n' "$procs" | sed 's/^/harness: stuck| /'
	# A task running in the kernel has no /proc/PID/stack to show: the
	# kernel log gets every CPU's backtrace (sysrq l).
	if grep -q '^State:[[:space:]]*R' $(printf '/proc/%s/status ' $pids) 2>/dev/null; then
		echo l > /proc/sysrq-trigger 2>/dev/null
	fi
	# The case's subshell ends by SIGKILL, a non-zero status: ftracetest
	# counts a FAIL and goes on with the next case.
	[ -z "$pids" ] || kill -"$kill_sig" $pids 2>/dev/null
	killed=$pids killed_at=$up killed_n=$n killed_name=$name
	{
		echo "case $n ($name): running for ${el}s, limit ${limit}s"
		printf '%s\n' "$procs"
		echo "--- the last 30 lines of $log"
		tail -n 30 "$logdir/$log"
	} > "$out/case-hang-$n.txt" 2>&1
	echo "$n|$el|$limit" >> "$out/case-stopped.txt"
	# Once per case, even if a process stuck in the kernel outlives it.
	limit=999999999
done
