#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Shell helpers our cases share (not a case: ftracetest runs *.tc only).
# A case sources it after defining fail():
#   . "$FTRACETEST_ROOT/test.d/ftrace/fh-lib.sh"

# The livepatch sample (CONFIG_SAMPLE_LIVEPATCH), the live patch client of
# livepatch-share.tc, direct-ipmodify-busy.tc and stress-churn.tc: it
# replaces cmdline_proc_show.
KLP_MOD=livepatch-sample
KLP=/sys/kernel/livepatch/livepatch_sample

klp_patched() {
	grep -q "this has been live patched" /proc/cmdline
}

# klp_wait_transition WHAT: up to 120 s for the patch's transition.
klp_wait_transition() {
	_i=0
	while [ "$(cat $KLP/transition 2> /dev/null || echo 0)" != 0 ]; do
		_i=$((_i + 1))
		[ $_i -lt 600 ] || fail "$1: the live patch transition did not finish in 120 s"
		sleep 0.2
	done
}

# klp_load WHAT: load the sample and wait until it has taken effect.
klp_load() {
	modprobe $KLP_MOD || fail "$1: modprobe $KLP_MOD"
	klp_wait_transition "$1: load"
	klp_patched || fail "$1: /proc/cmdline is not the patched one"
}

# klp_unload WHAT: disable the patch, wait until it is gone, unload it.
klp_unload() {
	echo 0 > $KLP/enabled || fail "$1: disabling the live patch failed"
	klp_wait_transition "$1: disable"
	_i=0
	while [ -d $KLP ]; do
		_i=$((_i + 1))
		[ $_i -lt 600 ] || fail "$1: $KLP did not go"
		sleep 0.2
	done
	rmmod $KLP_MOD || fail "$1: rmmod $KLP_MOD"
	! klp_patched || fail "$1: still patched after unload"
}

# fh_tramps: the addresses of ftrace's trampolines with code, as kallsyms
# lists them (both cores name them ftrace_trampoline).
fh_tramps() {
	awk '$3 == "ftrace_trampoline" { print $1 }' /proc/kallsyms
}

# fh_tramps_at_rest: how many there are once those still being freed have
# gone (ours frees them from a work item after their grace periods): the
# least count seen over five seconds.
fh_tramps_at_rest() {
	_least=$(fh_tramps | wc -l)
	_i=0
	while [ $_i -lt 5 ]; do
		sleep 1
		_t=$(fh_tramps | wc -l)
		[ $_t -ge $_least ] || _least=$_t
		_i=$((_i + 1))
	done
	echo $_least
}

# fh_need_cpu1_hotplug: the case ends here as unsupported unless CPU 1
# can go offline (a single CPU, or no CONFIG_HOTPLUG_CPU), as unresolved
# unless it is online now with its own per_cpu/cpu1/trace.  Sets ONLINE
# to CPU 1's online file.
fh_need_cpu1_hotplug() {
	ONLINE=/sys/devices/system/cpu/cpu1/online
	if [ ! -e $ONLINE ]; then
		echo "no $ONLINE: a single CPU, or no CONFIG_HOTPLUG_CPU"
		exit_unsupported
	fi
	[ "$(cat $ONLINE)" = 1 ] || { echo "CPU 1 is offline before the test"; exit_unresolved; }
	[ -e per_cpu/cpu1/trace ] || { echo "no per_cpu/cpu1/trace"; exit_unresolved; }
}

# fh_log_mark NAME: mark the kernel log where a case's work starts.
fh_log_mark() {
	FH_LOG_MARK="$1: start $$"
	echo "$FH_LOG_MARK" > /dev/kmsg
}

# fh_log_clean WHAT: fail when the kernel log since the mark reports a
# problem, by the harness's own rules (logscan.sh, which the guest job
# names in FH_LOGSCAN; without it the harness still scans the whole log
# after the suites).
fh_log_clean() {
	if [ -z "${FH_LOGSCAN:-}" ] || [ ! -x "$FH_LOGSCAN" ]; then
		echo "no FH_LOGSCAN: the kernel log is left to the harness's scan"
		return 0
	fi
	dmesg | sed -n "/$FH_LOG_MARK/,\$p" > "$TMPDIR/fh-log.txt"
	"$FH_LOGSCAN" "$TMPDIR/fh-log.txt" || fail "the kernel complained $1"
}

# fh_task_lines PID FILE: the lines of that task in FILE, a saved
# function_graph trace with funcgraph-proc on, by the pid in the task
# column ("comm-pid  | "; comm may be "<...>" when the task's name was not
# saved before tracing stopped).  PID may be an -E alternation, "(1|2)",
# for several tasks at once.  Read the trace once into FILE and pass that:
# formatting the trace is what costs.
fh_task_lines() {
	grep -E -- "-$1 +\\| " "$2" || true
}

# fh_stop_prog PID: stop a background bpftrace with SIGINT (it prints its
# maps as it exits) and reap it.  A background job of a non-interactive
# shell starts with SIGINT ignored until the program sets a handler, and
# a case sees the probes attached (enabled_functions) before bpftrace may
# have: one SIGINT was lost that way and the case waited forever.  So the
# signal goes again every second while the program runs, for 60 s at most.
fh_stop_prog() {
	_i=0
	while [ $_i -lt 300 ] && [ -e "/proc/$1" ] &&
	      ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; do
		[ $((_i % 5)) -ne 0 ] || kill -INT "$1" 2>/dev/null
		sleep 0.2
		_i=$((_i + 1))
	done
	[ $_i -lt 300 ] || { kill -KILL "$1" 2>/dev/null; fail "bpftrace $1 ignored SIGINT for 60 s"; }
	wait "$1" || true
}

# fh_site_words FUNC: five 32-bit words of kernel memory from 8 bytes
# before FUNC (arm64's slot word and two NOPs, x86's fentry site), read
# by bpftrace: the check config has no /proc/kcore.  Says so without it.
fh_site_words() {
	if ! command -v bpftrace > /dev/null 2>&1; then
		echo "$1: no bpftrace to read its site"
		return 0
	fi
	timeout 120 bpftrace -e "BEGIN {
		\$a = kaddr(\"$1\") - 8;
		printf(\"$1 %lx: %08x %08x %08x %08x %08x\\n\", \$a + 8,
		       *(uint32 *)\$a, *(uint32 *)(\$a + 4), *(uint32 *)(\$a + 8),
		       *(uint32 *)(\$a + 12), *(uint32 *)(\$a + 16));
		exit(); }" 2>&1 | grep -v '^Attaching'
}

# fh_stray_sites TRACE ENABLED: for the five functions TRACE (a copy of
# the trace file, tracing stopped) holds most often, whether ENABLED (a
# copy of enabled_functions) lists them, and the words at their sites: a
# NOP at the site of a function that still gets traced means the CPU ran
# code older than memory.
fh_stray_sites() {
	for _f in $(awk '!/^#/ { print $(NF - 1) }' "$1" | sort | uniq -c |
		    sort -rn | awk '{ print $2 }' | head -n 5); do
		if _l=$(grep "^$_f " "$2"); then
			echo "$_f: enabled ($_l)"
		else
			echo "$_f: not in enabled_functions"
		fi
		fh_site_words "$_f"
	done
}
