# SPDX-License-Identifier: GPL-2.0
# Guest job for 'make bench': measure the dynamic ftrace core.
#   FH_ROUNDS  how many times to switch the function tracer (default 5)
#   FH_BENCH_OPS  the bench-ops module built for this kernel (registration
#              cost of the Nth ops)
#   FH_BENCH_OPS_N  how many ops it registers (default 1000)
# Writes bench.txt, one 'key value' per line, for bench-report.py.
t=/sys/kernel/tracing
out=/tmp/out
rounds=${FH_ROUNDS:-5}
ns() { date +%s%N; }
{
	echo "release $(uname -r)"
	read -r recs rest < $t/dyn_ftrace_total_info
	echo "records $recs"
	echo "total_info $recs $rest"
	echo 0 > $t/tracing_on
	for i in $(seq "$rounds"); do
		a=$(ns)
		echo function > $t/current_tracer
		b=$(ns)
		echo "enabled_sites $(wc -l < $t/enabled_functions)"
		echo nop > $t/current_tracer
		c=$(ns)
		echo "enable_all_ns $((b - a))"
		echo "disable_all_ns $((c - b))"
	done
	# One write of N function names to set_ftrace_filter (newline
	# separated, as a file is written with cat): distinct vmlinux names.
	# Upstream lists records in dead code as __ftrace_invalid_address___N,
	# which it then refuses as a name.
	grep -v ' \[' $t/available_filter_functions |
		grep -v '^__ftrace_invalid_address__' | sort -u > /tmp/names
	for n in 100 1000 10000; do
		head -n $n /tmp/names > /tmp/names.$n
		a=$(ns)
		cat /tmp/names.$n > $t/set_ftrace_filter
		b=$(ns)
		echo "filter_write_${n}_ns $((b - a))"
		echo "filter_write_${n}_sites $(wc -l < $t/set_ftrace_filter)"
		echo > $t/set_ftrace_filter
	done
	# Registering the Nth ops, each on its own function (BPF registers
	# one ops per attached function): the bench module registers one
	# per name, timing each, and prints the 1st, 10th, 100th, 1000th.
	# Once, not per round: each unregistration of a freeable ops waits
	# for an RCU-tasks grace period, slow under TCG.
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
	# Cost per traced call: dd copying 1-byte blocks (a read and a write
	# per block, the same kernel functions every time) pinned to CPU 1,
	# timed with no tracer and with each tracer on every function.  The
	# events CPU 1 wrote during the traced run count its traced calls
	# (the function tracer writes one per call).
	written() {
		awk '/^entries:|^overrun:/ { n += $2 } END { print n }' \
			$t/per_cpu/cpu1/stats
	}
	dd_ns() {
		a=$(ns)
		taskset -c 1 dd if=/dev/zero of=/dev/null bs=1 count=20000 2> /dev/null
		b=$(ns)
		echo $((b - a))
	}
	# A function dd does not call, for the one-site ops
	other=ksys_sync
	grep -qx "$other" $t/available_filter_functions || other=vfs_fsync
	echo 1 > $t/tracing_on
	for i in $(seq "$rounds"); do
		echo "dd_none_ns $(dd_ns)"
		echo function > $t/current_tracer
		w0=$(written)
		echo "dd_function_ns $(dd_ns)"
		echo "dd_function_calls $(($(written) - w0))"
		echo nop > $t/current_tracer
		# A second ops on every site: the function tracer of an
		# instance, so each site calls the list function.
		mkdir $t/instances/bench2
		echo function > $t/instances/bench2/current_tracer
		echo function > $t/current_tracer
		echo "dd_function2_ns $(dd_ns)"
		echo nop > $t/current_tracer
		# The instance on one site dd never calls: every site dd runs
		# is still wanted by one ops, with two registered.  A site
		# calls its ops' own trampoline (where there are per-ops
		# trampolines) instead of the list function.
		echo "$other" > $t/instances/bench2/set_ftrace_filter
		echo function > $t/current_tracer
		echo "dd_function_own_ns $(dd_ns)"
		echo nop > $t/current_tracer
		echo nop > $t/instances/bench2/current_tracer
		rmdir $t/instances/bench2
		if grep -qw function_graph $t/available_tracers; then
			echo function_graph > $t/current_tracer
			echo "dd_graph_ns $(dd_ns)"
			echo nop > $t/current_tracer
		fi
		echo > $t/trace
	done
} > "$out/bench.txt" 2>&1
cat "$out/bench.txt"
dmesg > "$out/dmesg.txt"
