# SPDX-License-Identifier: GPL-2.0
# Guest job for 'make boot-loop': the boot self-tests have run by now.
# Keep the kernel log; when a self-test failed, also keep what the
# function tracer's buffer holds (trace_selftest.c does not clear it on a
# failure) and the functions that produced it, whose sites should be off.
t=/sys/kernel/tracing
out=/tmp/out

# fh_stray_sites: boot-loop.sh names the file (FH_LIB) in its copy of this job.
. "$FH_LIB"
dmesg > $out/dmesg.txt
if grep -q 'FAILED' $out/dmesg.txt; then
	# Stop the buffer before reading it: the reader's own calls would
	# add to it for as long as a stray site calls.
	echo 0 > $t/tracing_on
	cat $t/trace > $out/trace.txt
	cat $t/enabled_functions > $out/enabled_functions.txt
	cat $t/dyn_ftrace_total_info > $out/dyn_ftrace_total_info.txt
	# "function <-parent" pairs of the buffer, most frequent first.
	awk '!/^#/ { print $(NF - 1), $NF }' $out/trace.txt | sort | uniq -c |
		sort -rn | head -n 40 > $out/stray-functions.txt
	fh_stray_sites $out/trace.txt $out/enabled_functions.txt > $out/stray-sites.txt 2>&1
fi
