# SPDX-License-Identifier: GPL-2.0
# Guest job for 'make bench': measure the dynamic ftrace core.
#   FH_ROUNDS  how many times to switch the function tracer (default 5)
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
	echo 1 > $t/tracing_on
} > "$out/bench.txt" 2>&1
cat "$out/bench.txt"
dmesg > "$out/dmesg.txt"
