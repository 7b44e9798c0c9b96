# SPDX-License-Identifier: GPL-2.0
# Guest job for 'make run': show function tracing working, then power off.
# With FH_INTERACTIVE=1 drop into a shell on the console instead.
t=/sys/kernel/tracing
out=/tmp/out
if [ "${FH_INTERACTIVE:-0}" = 1 ]; then
	echo "harness: tracefs is at $t; exit the shell to power off"
	setsid -c bash -i < /dev/ttyS0 > /dev/ttyS0 2>&1
	exit 0
fi
{
echo "== dyn_ftrace_total_info"
cat $t/dyn_ftrace_total_info
echo "== function tracer on 'vfs_*' and 'do_sys_open*' while a small workload runs"
echo 0 > $t/tracing_on
echo > $t/trace
echo 'vfs_* do_sys_open*' > $t/set_ftrace_filter
echo function > $t/current_tracer
echo 1 > $t/tracing_on
ls /usr/bin > /dev/null
cat /proc/version > /dev/null
echo 0 > $t/tracing_on
echo "== head of trace"
head -n 25 $t/trace
echo "== enabled_functions (first 10 of $(wc -l < $t/enabled_functions))"
head -n 10 $t/enabled_functions
entries=$(grep -vc '^#' $t/trace)
echo nop > $t/current_tracer
echo > $t/set_ftrace_filter
echo "== $entries trace entries"
[ "$entries" -gt 0 ]
} 2>&1 | tee "$out/run.txt"
st=${PIPESTATUS[0]}
dmesg > "$out/dmesg.txt"
[ "$st" -eq 0 ] || { echo "harness: the demo traced nothing"; exit 1; }
