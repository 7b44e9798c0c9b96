#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kexec-step.sh go KERNEL OUT | after OUT
#
# The kexec step of one guest's job (job-check.sh, FH_KEXEC=1): the
# kernel boots itself again with kexec while the function tracer is on
# every function, and the kernel it boots comes up with tracing off.
#
#   go     turns the function tracer on for every function, loads KERNEL
#          (the image this guest booted) with 'kexec -l' and this boot's
#          command line plus fh_kexec=after, and jumps to it with 'kexec
#          -e'.  It returns only if that failed, after writing the FAIL.
#   after  runs in the kernel kexec booted (job-check.sh sees fh_kexec=after
#          on its command line): no tracer, no enabled site, and a filtered
#          function tracer that works.
#
# The result goes to OUT/kexec.txt in ftracetest's format, for the
# summary; OUT/kexec-go.txt keeps the first kernel's side of it.
T=/sys/kernel/tracing
NAME='kexec -e with the function tracer on every function boots the same kernel, tracing off'

# result PASS|FAIL WHY...: the step's one result.
result() {
	local res=$1

	shift
	[ $# -eq 0 ] || echo "harness: kexec: $*"
	printf '[1] %s\t[%s]\n' "$NAME" "$res" | tee "$out/kexec.txt"
	[ $# -eq 0 ] || printf '  %s\n' "$*" >> "$out/kexec.txt"
	printf '\n# of passed:  %d\n# of failed:  %d\n' \
		$([ "$res" = PASS ] && echo 1 0 || echo 0 1) >> "$out/kexec.txt"
}

# step WHAT: a step of the kernel kexec booted, in its log, so that the
# console shows where a hang began.
step() {
	echo "ftrace-harness: kexec: $*" 2>/dev/null > /dev/kmsg
}

# go_fail WHY...: back to no tracer, and the FAIL.
go_fail() {
	echo nop > $T/current_tracer
	result FAIL "$@"
}

go() {
	local kernel=$1 n cmdline

	command -v kexec > /dev/null || { go_fail "no kexec in the guest's root (kexec-tools)"; return; }
	[ -f "$kernel" ] || { go_fail "no kernel image at $kernel"; return; }
	echo > $T/set_ftrace_filter
	echo > $T/set_ftrace_notrace
	echo > $T/trace
	echo 1 > $T/tracing_on
	echo function > $T/current_tracer || { go_fail "cannot start the function tracer"; return; }
	n=$(wc -l < $T/enabled_functions)
	# Every function: far more sites than any filter of the suites leaves.
	[ "$n" -ge 1000 ] || { go_fail "the function tracer enabled $n sites, not every function"; return; }
	grep -q -v '^#' $T/trace || { go_fail "the function tracer traced nothing"; return; }
	cmdline="$(cat /proc/cmdline) fh_kexec=after kprobe_event= kunit.enable=0"
	{
		echo "boot_id $(cat /proc/sys/kernel/random/boot_id)"
		echo "enabled_functions $n"
		echo "kernel $kernel"
		echo "cmdline $cmdline"
	} > "$out/kexec-go.txt"
	kexec -l "$kernel" --append="$cmdline" > "$out/kexec-load.txt" 2>&1 ||
		{ go_fail "kexec -l failed: $(tail -n 1 "$out/kexec-load.txt")"; return; }
	# The taint so far, for the host: the next kernel prints its own.
	echo "fh-taint: $(cat /proc/sys/kernel/tainted)"
	echo "harness: kexec: the function tracer is on $n sites; kexec -e"
	echo "ftrace-harness: start harness 1 kexec" 2>/dev/null > /dev/kmsg
	sync
	kexec -e > "$out/kexec-exec.txt" 2>&1
	go_fail "kexec -e returned: $(tail -n 1 "$out/kexec-exec.txt")"
}

after() {
	local id tracer n

	step "checking the kernel kexec booted"
	id=$(sed -n 's/^boot_id //p' "$out/kexec-go.txt" 2>/dev/null)
	[ -n "$id" ] || { result FAIL "no kexec-go.txt from the kernel before"; return; }
	[ "$id" != "$(cat /proc/sys/kernel/random/boot_id)" ] ||
		{ result FAIL "the same boot_id as before kexec -e"; return; }
	tracer=$(cat $T/current_tracer)
	[ "$tracer" = nop ] || { result FAIL "current_tracer is $tracer after kexec"; return; }
	n=$(wc -l < $T/enabled_functions)
	[ "$n" -eq 0 ] || { result FAIL "$n sites enabled after kexec"; return; }
	[ "$(cat /proc/sys/kernel/ftrace_enabled)" = 1 ] ||
		{ result FAIL "kernel.ftrace_enabled is not 1 after kexec"; return; }
	# And it traces: one function, called by the cat below.  The trace
	# is read with the buffer off: a live read in the kernel kexec
	# booted was seen to go on for ever, on both variants.
	echo vfs_read > $T/set_ftrace_filter ||
		{ result FAIL "cannot filter on vfs_read"; return; }
	echo > $T/trace
	echo function > $T/current_tracer
	step "the function tracer on vfs_read"
	cat /proc/version > /dev/null
	echo 0 > $T/tracing_on
	n=$(grep -c ' vfs_read' $T/trace)
	step "$n calls of vfs_read traced"
	echo nop > $T/current_tracer
	echo 1 > $T/tracing_on
	echo > $T/set_ftrace_filter
	[ "$n" -gt 0 ] || { result FAIL "the function tracer traced no vfs_read after kexec"; return; }
	result PASS
}

case "$1" in
go)	[ $# -eq 3 ] || exit 2
	out=$3
	go "$2" ;;
after)	[ $# -eq 2 ] || exit 2
	out=$2
	after ;;
*)	echo "usage: $0 go KERNEL OUT | after OUT" >&2
	exit 2 ;;
esac
