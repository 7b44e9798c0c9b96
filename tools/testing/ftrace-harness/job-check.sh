# SPDX-License-Identifier: GPL-2.0
# Guest job for 'make check', sourced after the host's settings:
#   FH_FTRACETEST  the ftracetest directory to run (base's plus our test.d)
#   FH_TESTS       optional: test cases (paths under test.d) to run instead
#                  of all of them
# Boot self-tests and KUnit already ran during boot; we save the kernel log
# and run ftracetest, logging into the results share as we go so that a
# hang still leaves the log of what ran, then the cases of last.d.
out=/tmp/out
rm -rf /tmp/ftracetest
cp -a "$FH_FTRACETEST" /tmp/ftracetest
cd /tmp/ftracetest || exit 1
dmesg > "$out/dmesg-boot.txt"
echo "harness: ftracetest ${FH_TESTS:-(all)}"
tests=()
for t in $FH_TESTS; do
	tests+=("test.d/$t")
done
./ftracetest -l "$out/ftracetest-logs" "${tests[@]}" > "$out/ftracetest.txt" 2>&1 &
ftpid=$!
tail -f "$out/ftracetest.txt" --pid=$ftpid 2>/dev/null
wait $ftpid
echo "harness: ftracetest exited with status $?"
# Last, because it leaves function tracing dead until reboot: the cases
# of last.d (the patching anomaly test).
echo "harness: ftracetest last.d"
./ftracetest -l "$out/ftracetest-logs-last" last.d > "$out/ftracetest-last.txt" 2>&1
echo "harness: ftracetest last.d exited with status $?"
cat "$out/ftracetest-last.txt"
dmesg > "$out/dmesg.txt"
