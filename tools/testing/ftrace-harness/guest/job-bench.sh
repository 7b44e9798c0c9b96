# SPDX-License-Identifier: GPL-2.0
# Guest job for 'make bench': measure the dynamic ftrace core.
#   FH_ROUNDS  how many times each figure is taken (default 5)
#   FH_TOOLS   the guest tools (fh-bench times each operation around its
#              system calls alone)
#   FH_BENCH_OPS  the bench-ops module built for this kernel (registration
#              cost of the Nth ops; one empty ops on every site)
#   FH_BENCH_OPS_N  how many ops it registers (default 1000)
#   FH_BENCH_ROWS  all (default); percall: the tracing-off and per-call
#              rows only (stock's boot takes 2 minutes instead of 15,
#              most of which is its write of 10,000 names); modload: the
#              tracing-off and module load rows only; switch: the
#              tracing-off, switch, filter-write and scale rows only; ops:
#              the tracing-off and Nth-ops registration rows only; glob:
#              the tracing-off and glob-write rows only
# Writes bench.txt, one 'key value' per line, for bench-report.py.  The
# guest runs under QEMU's -icount shift=0: every time is a count of
# executed instructions (with the idle time the clock skips).  A kernel
# without the function tracer (the floor) gives the first rows only.
t=/sys/kernel/tracing
out=/tmp/out
rounds=${FH_ROUNDS:-5}
B=$FH_TOOLS/fh-bench
# The last CPU (the only one under -icount) runs the timed loops.
cpu=$(($(nproc) - 1))
on_cpu() { taskset -c "$cpu" "$@"; }
# timed KEY ARGS...: fh-bench ARGS, as KEY_ns (elapsed) and KEY_cpu (the
# writer's own CPU time: what it ran, without the time it slept).
timed() {
	local key=$1 r
	shift
	r=$(on_cpu "$B" "$@") || return
	echo "${key}_ns ${r% *}"
	echo "${key}_cpu ${r#* }"
}
bench() {
	echo "release $(uname -r)"
	echo "cpus $(nproc)"
	# Off is free: a system call with the tracer compiled in but off.
	for i in $(seq "$rounds"); do
		timed syscall syscall 100000
		timed rw_none rw 20000
	done
	if ! grep -qw function $t/available_tracers 2>/dev/null; then
		echo "no_function_tracer 1"
		return 0
	fi
	read -r recs rest < $t/dyn_ftrace_total_info
	echo "records $recs"
	echo "total_info $recs $rest"
	echo 0 > $t/tracing_on
	case ${FH_BENCH_ROWS:-all} in
	percall)
		per_call_rows ;;
	modload)
		modload_rows ;;
	switch)
		switch_rows ;;
	ops)
		ops_rows ;;
	glob)
		glob_rows ;;
	*)
		switch_rows
		glob_rows
		modload_rows
		ops_rows
		per_call_rows ;;
	esac
}
# Enabling and disabling sites, filter writes.
switch_rows() {
	for i in $(seq "$rounds"); do
		timed enable_all write $t/current_tracer function
		echo "enabled_sites $(wc -l < $t/enabled_functions)"
		timed disable_all write $t/current_tracer nop
	done
	# One write of N function names to set_ftrace_filter (newline
	# separated, in cat's 128 KiB writes): distinct vmlinux names.
	# Upstream lists records in dead code as __ftrace_invalid_address___N,
	# which it then refuses as a name.
	grep -v ' \[' $t/available_filter_functions |
		grep -v '^__ftrace_invalid_address__' | sort -u > /tmp/names
	for n in 100 1000 10000; do
		head -n $n /tmp/names > /tmp/names.$n
		timed filter_write_$n copy $t/set_ftrace_filter /tmp/names.$n
		echo "filter_write_${n}_sites $(wc -l < $t/set_ftrace_filter)"
		echo > $t/set_ftrace_filter
	done
	# Enable and disable against the number of sites: the function
	# tracer filtered on the first N names (each name one site or a
	# few), so that the fixed cost of a tracer switch and the cost per
	# site can be told apart.
	head -n 1 /tmp/names > /tmp/names.1
	for n in 1 100 1000 10000; do
		cat /tmp/names.$n > $t/set_ftrace_filter
		for i in $(seq "$rounds"); do
			timed enable_$n write $t/current_tracer function
			timed disable_$n write $t/current_tracer nop
		done
		echo "enable_${n}_sites $(wc -l < $t/set_ftrace_filter)"
		echo > $t/set_ftrace_filter
	done
}
# One write of one pattern to set_ftrace_filter, the tracer off: a prefix
# (ours finds its names in kallsyms' sorted index), a glob that needs a
# look at every function's name, an exact name.
glob_rows() {
	for i in $(seq "$rounds"); do
		timed glob_prefix write $t/set_ftrace_filter 'vfs_*'
		echo "glob_prefix_sites $(wc -l < $t/set_ftrace_filter)"
		echo > $t/set_ftrace_filter
		timed glob_middle write $t/set_ftrace_filter '*vfs_*'
		echo "glob_middle_sites $(wc -l < $t/set_ftrace_filter)"
		echo > $t/set_ftrace_filter
		timed glob_name write $t/set_ftrace_filter vfs_read
		echo > $t/set_ftrace_filter
	done
}
modload_rows() {
	# Module load: a module of 1,000 functions
	# (ftrace_bench_sites.ko, beside the bench-ops module) loaded and
	# unloaded with no tracer, then with the function tracer on every
	# site, which must switch the new sites on as they come.
	sites_ko=${FH_BENCH_OPS%/*}/ftrace_bench_sites.ko
	if [ -f "$sites_ko" ]; then
		for i in $(seq "$rounds"); do
			timed modload_none load "$sites_ko"
			timed modunload_none unload ftrace_bench_sites
			echo function > $t/current_tracer
			timed modload_function load "$sites_ko"
			echo "modload_function_sites $(grep -c '^bench_fn_' $t/enabled_functions)"
			timed modunload_function unload ftrace_bench_sites
			echo nop > $t/current_tracer
		done
	fi
}
ops_rows() {
	# Registering the Nth ops, each on its own function (BPF registers
	# one ops per attached function): the bench module registers one
	# per name, timing each, and prints the 1st, 10th, 100th, 1000th.
	# Once, not per round: each unregistration of a freeable ops waits
	# for an RCU-tasks grace period.
	if [ -f "${FH_BENCH_OPS:-}" ]; then
		grep -v ' \[' $t/available_filter_functions |
			grep -v '^__ftrace_invalid_address__' | sort | uniq -u |
			awk 'NR % 7 == 0' | head -n "${FH_BENCH_OPS_N:-1000}" |
			paste -sd, > /tmp/ops-names
		n0=$(dmesg | wc -l)
		insmod "$FH_BENCH_OPS" names="$(cat /tmp/ops-names)" ||
			echo "bench: ftrace_bench_ops failed to load"
		rmmod ftrace_bench_ops 2>/dev/null
		dmesg | tail -n +$((n0 + 1)) | sed -n 's/.*ftrace_bench_ops: \(un\)\{0,1\}register \([0-9]*\) \([0-9]*\)$/\1register_\2_ns \3/p' |
			sed 's/^/ops_/'
	fi
}
per_call_rows() {
	# Cost per traced call: 20,000 1-byte read/write pairs (the same
	# kernel functions every time) on one CPU, with no tracer and with
	# each tracer on every function.  The events that CPU wrote during
	# the function tracer's loop count the traced calls (one per call).
	# Its parts: an ops with an empty callback on every site (the site,
	# the trampoline, the dispatch), the function tracer with tracing_on
	# at 0 (its callback up to the ring buffer, which refuses the event
	# at once), the function tracer writing.
	rw() { r=$(on_cpu "$B" rw 20000) && echo "${r% *}"; }
	# A function the loop does not call, for the one-site ops
	other=ksys_sync
	grep -qx "$other" $t/available_filter_functions || other=vfs_fsync
	for i in $(seq "$rounds"); do
		echo 1 > $t/tracing_on
		echo "dd_none_ns $(rw)"
		if [ -f "${FH_BENCH_OPS:-}" ] && insmod "$FH_BENCH_OPS" all=1; then
			echo "dd_empty_ops_ns $(rw)"
			rmmod ftrace_bench_ops
		fi
		echo function > $t/current_tracer
		echo 0 > $t/tracing_on
		echo "dd_function_off_ns $(rw)"
		echo 1 > $t/tracing_on
		# fh-bench reads the CPU's event count right before and after
		# its loop: the calls of its own exec and exit (which vary by
		# about 1% of the loop's from run to run) are not counted.
		r=$(on_cpu "$B" rw 20000 $t/per_cpu/cpu$cpu/stats)
		echo "dd_function_ns ${r%% *}"
		echo "dd_function_calls ${r##* }"
		echo nop > $t/current_tracer
		# A second ops on every site: the function tracer of an
		# instance, so each site calls the list function.
		mkdir $t/instances/bench2
		echo function > $t/instances/bench2/current_tracer
		echo function > $t/current_tracer
		echo "dd_function2_ns $(rw)"
		echo nop > $t/current_tracer
		# The instance on one site the loop never calls: every site
		# it runs is still wanted by one ops, with two registered.  A
		# site calls its ops' own trampoline (where there are per-ops
		# trampolines) instead of the list function.
		echo "$other" > $t/instances/bench2/set_ftrace_filter
		echo function > $t/current_tracer
		echo "dd_function_own_ns $(rw)"
		echo nop > $t/current_tracer
		echo nop > $t/instances/bench2/current_tracer
		rmdir $t/instances/bench2
		# The function tracer while 15, 100 and 200 other ops are
		# registered first, each on one ACPI function the loop never
		# calls, or PCI where there are too few (arm64's virt machine
		# has no ACPI: the names were empty there, and stock refused
		# them; the bench module, keep=1): its sites are still
		# wanted by it alone, so it should cost what it costs alone
		# (with 200 others, the function tracer's is a slot that a
		# record names only as "far").  With one other ops:
		# dd_function_own above.
		for k in 15 100 200; do
			[ -f "${FH_BENCH_OPS:-}" ] || break
			# (acpi_ sorts before pci_: ACPI names come first.)
			names=$(grep -E '^(acpi|pci)_' $t/available_filter_functions |
				sort | uniq -u | head -n $k | paste -sd,)
			# Fewer names than ops: the row would not be what it says.
			if [ "$(echo "$names" | tr ',' '\n' | grep -c .)" -lt $k ]; then
				echo "bench: fewer than $k ACPI and PCI functions: no 1-of-$((k + 1)) row" >&2
				break
			fi
			insmod "$FH_BENCH_OPS" keep=1 names="$names" || break
			echo function > $t/current_tracer
			echo "dd_function_among_$((k + 1))_ns $(rw)"
			echo nop > $t/current_tracer
			rmmod ftrace_bench_ops
		done
		if grep -qw function_graph $t/available_tracers; then
			echo function_graph > $t/current_tracer
			echo "dd_graph_ns $(rw)"
			# tracing_on at 0: the entry callback's event is
			# refused, so it declines the call and no return is
			# hooked: the site, the trampoline, the graph core's
			# push and pop, the entry callback.
			echo 0 > $t/tracing_on
			echo "dd_graph_off_ns $(rw)"
			echo 1 > $t/tracing_on
			echo nop > $t/current_tracer
		fi
		echo > $t/trace
	done
}
bench > "$out/bench.txt" 2>&1
cat "$out/bench.txt"
dmesg > "$out/dmesg.txt"
