# SPDX-License-Identifier: GPL-2.0
# Guest job for 'make boot-loop': the boot self-tests have run by now.
# Keep the kernel log; when a self-test failed, also keep what the
# function tracer's buffer holds (trace_selftest.c does not clear it on a
# failure) and the functions that produced it, whose sites should be off.
t=/sys/kernel/tracing
out=/tmp/out

# Five 32-bit words of kernel memory from 8 bytes before function $1.
site_bytes() {
	timeout 120 bpftrace -e "BEGIN {
		\$a = kaddr(\"$1\") - 8;
		printf(\"$1 %lx: %08x %08x %08x %08x %08x\\n\", \$a + 8,
		       *(uint32 *)\$a, *(uint32 *)(\$a + 4), *(uint32 *)(\$a + 8),
		       *(uint32 *)(\$a + 12), *(uint32 *)(\$a + 16));
		exit(); }" 2>&1 | grep -v '^Attaching'
}
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
	# What memory holds at the start of the five most frequent functions
	# (8 bytes before the symbol to 12 after: arm64's slot word and two
	# NOPs, x86's fentry site), read by bpftrace (no /proc/kcore in the
	# check config): a NOP at the site of a function that still gets
	# traced means the CPU runs code older than memory.  A function
	# counts once, whatever its callers.
	for f in $(awk '!seen[$2]++ { print $2 }' $out/stray-functions.txt | head -n 5); do
		site_bytes "$f"
	done > $out/stray-sites.txt 2>&1
fi
