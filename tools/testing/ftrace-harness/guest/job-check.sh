# SPDX-License-Identifier: GPL-2.0
# Guest job for 'make check', sourced after the host's settings:
#   FH_FTRACETEST  the ftracetest directory to run (base's plus our test.d)
#   FH_LIVEPATCH   the base's livepatch kselftests (scripts and functions.sh)
#   FH_TESTS       optional: what to run instead of everything: ftracetest
#                  cases (paths under test.d) and livepatch scripts
#                  (livepatch/test-NAME.sh); 'make check' gives each guest
#                  its share (shard.py); 'none': neither (a boot for
#                  last.d alone)
#   FH_LAST        1: also run the cases of last.d (one guest of a run does)
#   FH_KEXEC       1: then kexec into FH_KEXEC_KERNEL (kexec-step.sh; one
#                  guest of a run does)
#   FH_CASE_COSTS, FH_CASE_SCALE, FH_CASE_OWN_COSTS, FH_CASE_OWN_SCALE
#                  case-watchdog.sh's limit for one case: SCALE times its
#                  cost in the COSTS file (0: none), or OWN_SCALE times its
#                  cost in OWN_COSTS where that lists it
# Boot self-tests and KUnit already ran during boot; we save the kernel log
# and run ftracetest, then the livepatch kselftests, logging into the
# results share as we go so that a hang still leaves the log of what ran,
# then the cases of last.d.
#
# Each test's start goes to the kernel log, 'ftrace-harness: start RUN N
# PATH' (RUN: ftracetest, retry, last, livepatch): the console then shows
# which test the kernel died in, for check-guests.sh to boot again with
# the ones after it (summarize.py's boot_end()).  Once the kernel has
# died (taint D, not there when the job started), the rest would run on
# a kernel that oopsed, or hang on a lock the dead task held: the boot
# ends at once (case-watchdog.sh while ftracetest runs, end_if_died()
# between the tests after it).
out=/tmp/out
# Cases that leave a file for the host (the conformance transcript) put it here.
export FH_OUT=$out
# The harness's kernel log rules, for cases that check their own stretch
# of the log (fh-lib.sh's fh_log_clean).
FH_LOGSCAN=$(cd "$(dirname "${BASH_SOURCE[0]}")/../report" && pwd)/logscan.sh
export FH_LOGSCAN
rm -rf /tmp/ftracetest
cp -a "$FH_FTRACETEST" /tmp/ftracetest
cd /tmp/ftracetest || exit 1
# The kernel that kexec-step.sh's kexec -e booted runs the job again:
# the step's other half, then what the job had left (last.d).
kexec_after=0
grep -qw fh_kexec=after /proc/cmdline && kexec_after=1
if [ $kexec_after = 1 ]; then
	dmesg > "$out/dmesg-kexec-boot.txt"
	FH_LIVEPATCH=
else
	dmesg > "$out/dmesg-boot.txt"
fi
read -r FH_TAINT_START < /proc/sys/kernel/tainted
export FH_TAINT_START
# The start line of each case, from ftracetest's run_test once the case
# has its number (this copy only; FH_RUN names the run).
sed -i 's|^  testcase \$1$|&\n  { echo "ftrace-harness: start ${FH_RUN:-ftracetest} $CASENO $INSTANCE${1#$TOP_DIR/}" > /dev/kmsg; } 2>/dev/null|' ftracetest
grep -q 'ftrace-harness: start' ftracetest ||
	echo "harness: no 'testcase \$1' line in ftracetest's run_test: no case start lines in the kernel log"

# end_if_died WHERE: the boot ends if the kernel died since the job began.
end_if_died() {
	local t

	read -r t < /proc/sys/kernel/tainted
	[ $((t & 128)) -ne 0 ] && [ $((FH_TAINT_START & 128)) -eq 0 ] || return 0
	echo "harness: the kernel died (taint $t) $1: ending this boot, the host boots again with the tests left"
	sleep 2
	echo b > /proc/sysrq-trigger
}
# A case of timing-cases.txt that failed runs once more, into
# ftracetest-retry.txt; the summary reads both.
retry_timing_cases() {
	local list tc why desc

	list=$(dirname "${BASH_SOURCE[0]}")/../data/timing-cases.txt
	[ -f "$list" ] || return 0
	while IFS='|' read -r tc why; do
		tc=$(echo $tc)
		case $tc in ''|'#'*) continue ;; esac
		[ -f "test.d/$tc" ] || continue
		desc=$(sed -n 's/^# description: *//p' "test.d/$tc")
		grep -F "] $desc" "$out/ftracetest.txt" | grep -q '\[FAIL\]' || continue
		echo "harness: $tc failed; it depends on emulated time, running it once more"
		FH_RUN=retry ./ftracetest -l "$out/ftracetest-logs-retry" "test.d/$tc" \
			>> "$out/ftracetest-retry.txt" 2>&1
		grep -F "] $desc" "$out/ftracetest-retry.txt" | tail -n 1
	done < "$list"
}

tests=()
lp_tests=()
for t in $FH_TESTS; do
	case $t in
	none) ;;
	livepatch/*) lp_tests+=("${t#livepatch/}") ;;
	*) tests+=("test.d/$t") ;;
	esac
done
if [ $kexec_after = 0 ] && { [ -z "$FH_TESTS" ] || [ ${#tests[@]} -gt 0 ]; }; then
	if [ ${#tests[@]} -gt 0 ]; then
		echo "harness: ftracetest: ${#tests[@]} cases of test.d"
	else
		echo "harness: ftracetest: every case of test.d"
	fi
	printf '%s (start)\n' "$(cut -d' ' -f1 /proc/uptime)" > "$out/timing.txt"
	# -k: passed cases' logs too (the reliability cases print their
	# counts there: writes, rounds, injected failures).
	./ftracetest -k -l "$out/ftracetest-logs" "${tests[@]}" > "$out/ftracetest.txt" 2>&1 &
	ftpid=$!
	# A case that outlives its limit is stopped: one FAIL, not the share.
	"$(dirname "${BASH_SOURCE[0]}")/case-watchdog.sh" $ftpid "$out/ftracetest-logs" \
		"$out" "${FH_CASE_COSTS:-/dev/null}" "${FH_CASE_SCALE:-0}" \
		"${FH_CASE_OWN_COSTS:-/dev/null}" "${FH_CASE_OWN_SCALE:-0}" &
	# Each result line, as it completes, to the console and, stamped
	# with the uptime, to timing.txt: a case's cost is the time since
	# the line before (timings.py turns it into shard.py's costs).  No
	# fork here: the line comes as the next case starts, and cases count
	# forks (see case-watchdog.sh).
	tail -f "$out/ftracetest.txt" --pid=$ftpid 2>/dev/null |
		while IFS= read -r line; do
			printf '%s\n' "$line"
			read -r up _ < /proc/uptime
			printf '%s %s\n' "$up" "$line" >> "$out/timing.txt"
		done
	wait $ftpid
	echo "harness: ftracetest exited with status $?"
	end_if_died "in ftracetest"
	retry_timing_cases
	end_if_died "in a case run again"
fi

# The livepatch kselftests, each script one result, written in
# ftracetest's format ("[N] name [PASS]", then the totals) for the summary.
# A kernel without /sys/kernel/livepatch gets each script of the share
# as UNSUPPORTED, so that none goes without a result (the summary fails a
# script of the share that has none).
if [ ! -d /sys/kernel/livepatch ]; then
	if [ -n "$FH_LIVEPATCH" ] && { [ -z "$FH_TESTS" ] || [ ${#lp_tests[@]} -gt 0 ]; }; then
		[ ${#lp_tests[@]} -gt 0 ] ||
			lp_tests=($(cd "$FH_LIVEPATCH" && ls test-*.sh))
		echo "harness: livepatch kselftests UNSUPPORTED: this kernel has no CONFIG_LIVEPATCH"
		n=0
		for t in "${lp_tests[@]}"; do
			n=$((n + 1))
			printf '[%d] %s\t[UNSUPPORTED]\n' $n "$t" | tee -a "$out/livepatch.txt"
		done
		printf '\n# of passed:  0\n# of failed:  0\n# of unsupported:  %d\n' \
			$n >> "$out/livepatch.txt"
	fi
elif [ -n "$FH_LIVEPATCH" ] && { [ -z "$FH_TESTS" ] || [ ${#lp_tests[@]} -gt 0 ]; }; then
	rm -rf /tmp/livepatch
	cp -a "$FH_LIVEPATCH" /tmp/livepatch
	cd /tmp/livepatch || exit 1
	[ ${#lp_tests[@]} -gt 0 ] || lp_tests=($(ls test-*.sh))
	echo "harness: livepatch kselftests ${lp_tests[*]}"
	mkdir -p "$out/livepatch-logs"
	n=0 pass=0 fail=0 skip=0
	for t in "${lp_tests[@]}"; do
		n=$((n + 1))
		t0=$(cut -d' ' -f1 /proc/uptime)
		printf 'ftrace-harness: start livepatch %d %s\n' $n "$t" 2>/dev/null > /dev/kmsg
		timeout 900 bash "./$t" > "$out/livepatch-logs/$t.log" 2>&1
		st=$?
		end_if_died "in livepatch/$t"
		case $st in
		0) res=PASS pass=$((pass + 1)) ;;
		4) res=UNSUPPORTED skip=$((skip + 1)) ;;
		*) res=FAIL fail=$((fail + 1)) ;;
		esac
		printf '[%d] %s\t[%s]\n' $n "$t" $res | tee -a "$out/livepatch.txt"
		awk -v t0="$t0" -v t="$t" '{ printf "%.1f livepatch/%s\n", $1 - t0, t }' \
			/proc/uptime >> "$out/timing-livepatch.txt"
	done
	printf '\n# of passed:  %d\n# of failed:  %d\n# of unsupported:  %d\n' \
		$pass $fail $skip >> "$out/livepatch.txt"
	cd /tmp/ftracetest || exit 1
fi

# FH_KEXEC=1: the kernel boots itself again with kexec, the function
# tracer on every function (FH_KEXEC_KERNEL: the image), before last.d,
# which leaves function tracing dead.  kexec-step.sh returns only when
# kexec -e did not happen.
if [ $kexec_after = 1 ]; then
	"$(dirname "${BASH_SOURCE[0]}")/kexec-step.sh" after "$out"
elif [ "${FH_KEXEC:-0}" = 1 ]; then
	end_if_died "before kexec"
	dmesg > "$out/dmesg-before-kexec.txt"
	"$(dirname "${BASH_SOURCE[0]}")/kexec-step.sh" go "$FH_KEXEC_KERNEL" "$out"
fi

# Last, because it leaves function tracing dead until reboot: the cases
# of last.d (the patching anomaly test).
if [ "${FH_LAST:-1}" = 1 ]; then
	echo "harness: ftracetest last.d"
	FH_RUN=last ./ftracetest -l "$out/ftracetest-logs-last" last.d > "$out/ftracetest-last.txt" 2>&1
	echo "harness: ftracetest last.d exited with status $?"
	cat "$out/ftracetest-last.txt"
fi
# DEBUG=1 kernels: kmemleak's verdict on everything the suites did,
# written in ftracetest's format for the summary.  An object counts only
# when two scans in a row find it unreferenced (a pointer held in a
# register or in flight between two lists is missed by one scan).
kml=/sys/kernel/debug/kmemleak
if [ -e $kml ]; then
	echo "harness: kmemleak scan"
	echo "ftrace-harness: start harness 1 kmemleak" 2>/dev/null > /dev/kmsg
	echo scan > $kml; sleep 6; echo scan > $kml
	cat $kml > "$out/kmemleak-report.txt"
	n=$(grep -c '^unreferenced object' "$out/kmemleak-report.txt")
	bad=$((n > 0))
	res=PASS
	[ $bad -eq 0 ] || res=FAIL
	echo "harness: kmemleak: $n unreferenced objects (kmemleak-report.txt)"
	printf '[1] no unreferenced objects after the suites\t[%s]\n' $res |
		tee "$out/kmemleak.txt"
	printf '# of passed:  %d\n# of failed:  %d\n' $((1 - bad)) $bad \
		>> "$out/kmemleak.txt"
	head -n 80 "$out/kmemleak-report.txt"
fi
dmesg > "$out/dmesg.txt"
