#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-run.sh -k BZIMAGE -m MODULES_ROOT -o OUTDIR -j JOB [-t SECONDS] [-i]
#
# Boot BZIMAGE in QEMU on the host's root filesystem (read-only, virtio-9p,
# as virtme-ng does), with MODULES_ROOT/lib/modules visible in the guest as
# /lib/modules and OUTDIR shared read-write at /tmp/out.  The guest runs
# the bash script JOB from there and powers off.
#
# FH_ARCH=arm64 boots an arm64 Image on QEMU's virt machine instead, its
# root FH_ROOTFS (rootfs.sh), with this repository shared read-only at
# its own path so that every host path a job names works in the guest.
#
#   -t SECONDS  hard limit for the whole boot (default 2700); QEMU is killed
#               when it is reached
#   -i          interactive: the serial console is this terminal, no limit
#   -v          show the whole console, not only the harness's lines, test
#               results and kernel warnings
#
# Exit status: 0 when the guest finished the job and its kernel log shows no
# oops, BUG, WARNING, lockdep report, RCU stall or hung task; 1 otherwise,
# after printing the offending lines.  Console output is kept in
# OUTDIR/console.log.
#
# The accelerator (accel.sh choose): FH_ACCEL=kvm or FH_ACCEL=tcg forces
# one; by default KVM when QEMU's firmware runs under it, watched: a
# guest that QEMU reports a KVM failure for (nested virtualisation's "KVM
# internal error. Suberror: 1 ... emulation failure"), or whose console
# stays silent for a minute before its job starts (accel.sh verdict), is
# killed and booted again under TCG with the full limit, after one line
# saying why (also in OUTDIR/accel.txt; the KVM attempt's console is kept
# in OUTDIR/console-kvm.log).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# The harness: host/ (here), guest/, report/, data/.
harness=$(cd "$here/.." && pwd)
kernel="" modules="" out="" job="" limit=2700 interactive=0 verbose=0
while getopts "k:m:o:j:t:iv" opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	m) modules=$OPTARG ;;
	o) out=$OPTARG ;;
	j) job=$OPTARG ;;
	t) limit=$OPTARG ;;
	i) interactive=1 ;;
	v) verbose=1 ;;
	*) exit 2 ;;
	esac
done
die() { echo "qemu-run.sh: $*" >&2; exit 1; }
[ -f "$kernel" ] || die "no kernel image '$kernel'"
[ -f "$job" ] || die "no job script '$job'"
[ -n "$out" ] || die "no output directory"
# Its symbols, for a look at a guest that hangs (hang-dump.sh): the build
# keeps vmlinux in obj/ beside the image.
vmlinux=${FH_VMLINUX:-$(dirname "$kernel")/obj/vmlinux}
kernel=$(readlink -f "$kernel")
modules=$(readlink -f "${modules:-/nonexistent}")
case "$modules$harness" in
*[[:space:]]*) die "paths with spaces cannot go on the kernel command line" ;;
esac

case "$limit" in
''|*[!0-9]*|0) die "-t needs a positive number of seconds" ;;
esac
case "$out" in
*,*) die "QEMU's -fsdev cannot take a path with a comma: $out" ;;
esac
# A fresh directory: nothing from an earlier run may be judged as this one's.
rm -rf "$out"
mkdir -p "$out"
out=$(readlink -f "$out")
cp "$job" "$out/job.sh"

arch=${FH_ARCH:-x86_64}
# FH_TCG_THREAD=multi: one host thread per vCPU, so the two vCPUs really
# run at once (make stress, on ours); stock's function_graph self-test
# hangs under it, hence single by default.
tcg=${FH_TCG_THREAD:-single}
case $tcg in single|multi) ;; *) die "FH_TCG_THREAD=$tcg: single or multi" ;; esac
# FH_ICOUNT=1 (make bench): one vCPU whose clock advances one nanosecond
# per executed instruction (-icount shift=0), and skips idle time at once
# (sleep=off) rather than waiting for the host's clock: every time the
# guest measures is an instruction count, the same from boot to boot.
smp=2 icount=()
if [ "${FH_ICOUNT:-0}" = 1 ]; then
	[ "$tcg" = single ] || die "FH_ICOUNT=1 needs single-threaded TCG"
	smp=1 icount=(-icount shift=0,sleep=off,align=off)
fi
top=$(cd "$harness/../../.." && pwd)
# FH_QEMU_DIR: where the QEMU binaries are, if not the host's (make stress:
# QEMU 10, see qemu-bpo.sh).
qdir=${FH_QEMU_DIR:+$FH_QEMU_DIR/}
# KVM only when it really works here (accel.sh): /dev/kvm can exist on
# a host where running a vCPU fails.  Otherwise single-threaded TCG,
# which keeps the stock function_graph boot self-test from hanging with
# 2 vCPUs.
mode=$("$here/accel.sh" choose "$arch" "${FH_ICOUNT:-0}") || die "no accelerator"
[ "$mode" != kvm-auto ] || [ $interactive -eq 0 ] || mode=kvm

# machine_for MODE: the QEMU command line for kvm or tcg, in qemu[].
machine_for() {
	local tcg_cmdline="" root init console accel

	case $arch in
	x86_64)
		if [ "$1" = kvm ]; then
			accel=(-accel kvm -cpu host)
			accel_name=kvm
		else
			accel=(-accel tcg,thread=$tcg "${icount[@]}" -cpu max)
			accel_name="tcg,thread=$tcg${icount:+ ${icount[*]}}"
			# Every TCG vCPU reads the host's TSC, but the guest's
			# synchronisation check, run while single-threaded TCG takes
			# the vCPUs in turn, sees warps and marks the TSC unstable.
			# Then irqs-off sections of a 500,000 us busy wait read
			# 497,500-499,900 us in the irqsoff tracer (ours and stock, 12
			# of 12 measured), and preemptirq/irqsoff_tracer.tc fails; with
			# the TSC kept, they read 500,061-500,069 us.
			tcg_cmdline="tsc=reliable"
		fi
		root=/ init=$harness/guest/guest-init.sh console=ttyS0
		machine=("${qdir}qemu-system-x86_64" "${accel[@]}" -machine q35)
		;;
	arm64)
		# Pointer authentication with QEMU's own algorithm: the
		# architected one is slow to emulate.
		root=${FH_ROOTFS:-} init=/fh-init console=ttyAMA0
		[ -x "$root/fh-init" ] || die "no arm64 guest root at '$root' (make rootfs ARCH=arm64)"
		accel_name="tcg,thread=$tcg${icount:+ ${icount[*]}}"
		machine=("${qdir}qemu-system-aarch64" -accel tcg,thread=$tcg "${icount[@]}" -machine virt
			-cpu max,pauth-impdef=on
			-fsdev "local,id=fhtop,path=$top,security_model=none,readonly=on,multidevs=remap"
			-device "virtio-9p-pci,fsdev=fhtop,mount_tag=fhtop")
		;;
	*) die "no machine for FH_ARCH=$arch" ;;
	esac

	cmdline="console=$console,115200 loglevel=5 printk.time=1 panic=-1 $tcg_cmdline
	 root=fhroot rootfstype=9p ro
	 rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose
	 init=$init FH_MODULES=$modules ${FH_KCMDLINE:-}"

	qemu=("${machine[@]}" -smp $smp -m 2G
		-nodefaults -no-reboot -display none
		-kernel "$kernel" -append "$(echo $cmdline)"
		-fsdev "local,id=fhroot,path=$root,security_model=none,readonly=on,multidevs=remap"
		-device "virtio-9p-pci,fsdev=fhroot,mount_tag=fhroot"
		-fsdev "local,id=fhout,path=$out,security_model=none"
		-device "virtio-9p-pci,fsdev=fhout,mount_tag=fhout")
	# FH_QEMU_ARGS: more QEMU arguments, for debugging a guest ("-s" for a
	# gdb stub on port 1234, "-monitor unix:/tmp/m.sock,server,nowait").
	# shellcheck disable=SC2206
	[ -n "${FH_QEMU_ARGS:-}" ] && qemu+=(${FH_QEMU_ARGS})
	if [ -n "$hangdir" ]; then
		rm -f "$hangdir/gdb.sock"
		qemu+=(-gdb "unix:$hangdir/gdb.sock,server=on,wait=off")
	fi
	return 0
}

# A guest still running when its limit comes is looked at before it is
# killed: hang-dump.sh asks QEMU's gdb stub, on a unix socket of its own
# (two guests at once, no port to share), what each vCPU is doing,
# FH_HANG_LEAD seconds (60) before the kill.  Not when FH_QEMU_ARGS
# brings a stub of its own: QEMU takes one.
hangdir=""
if [ $interactive -eq 0 ]; then
	case " ${FH_QEMU_ARGS:-} " in
	*" -s "*|*" -gdb "*) ;;
	*)	hangdir=$(mktemp -d /tmp/fh-gdb.XXXXXX) ;;
	esac
fi
machine_for "${mode%-auto}"

if [ $interactive -eq 1 ]; then
	qver=$("${machine[0]}" --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')
	echo "qemu-run.sh: $(basename "$kernel") $arch QEMU $qver accel=$accel_name smp=$smp out=$out"
	"${qemu[@]}" -serial mon:stdio
	exit $?
fi

# Batch: the console goes to console.log; unless -v, the terminal sees the
# harness's own lines, test results and kernel warnings only.
show='^harness|^fh-taint|^\[[0-9]+\] |^# |WARNING|BUG|Oops|panic|stall|blocked for more|KVM'
[ $verbose -eq 1 ] && show=''
# The QEMU of a run, by its pid file: the KVM watch kills that one only.
qpid=$(mktemp -d /tmp/fh-qemu.XXXXXX)

# run_guest WATCH_KVM: one boot of qemu[] to its end or its limit; qrc
# is QEMU's status.  WATCH_KVM=1: accel.sh verdict looks at the console
# every 2 s and kills QEMU when KVM fails, its reason in $qpid/kvm-failed.
run_guest() {
	local watcher="" dumper="" kvmwatch="" lead start

	qver=$("${machine[0]}" --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')
	echo "qemu-run.sh: $(basename "$kernel") $arch QEMU $qver accel=$accel_name smp=$smp limit=${limit}s out=$out"
	# x86_64 under multi-threaded TCG: stale-watch.sh looks every few
	# seconds for a vCPU caught in the emulator's stale translation of
	# patched code, and cures it (a flush of QEMU's translations, which a
	# correct emulator would not need) before the guest's watchdogs fire.
	# Every cure is in stale-watch.txt and in the summary: the run goes
	# on, the cure is seen.
	if [ -n "$hangdir" ] && [ "$arch" = x86_64 ] && [ "$tcg" = multi ] &&
	   [ "$accel_name" != kvm ] && [ "${FH_STALE_WATCH:-1}" = 1 ]; then
		"$here/stale-watch.sh" "$hangdir/gdb.sock" "$(dirname "$vmlinux")/System.map" \
			"$out/stale-watch.txt" "$out/kernel-text.txt" < /dev/null > /dev/null 2>&1 &
		watcher=$!
	fi
	start=$(date +%s)
	if [ -n "$hangdir" ]; then
		lead=${FH_HANG_LEAD:-60}
		[ "$lead" -lt "$limit" ] || lead=$((limit / 2))
		( trap 'kill $s 2>/dev/null; exit 0' TERM
		  sleep $((limit - lead)) & s=$!
		  wait $s || exit 0
		  # The dump needs the stub to itself.
		  if [ -n "$watcher" ]; then
			kill "$watcher" 2>/dev/null
			sleep 10
		  fi
		  "$here/hang-dump.sh" "$hangdir/gdb.sock" "$vmlinux" "$out/hang-dump.txt" \
			"$out/kernel-text.txt" \
			> "$out/hang-stale.txt"
		) < /dev/null > /dev/null 2>&1 &
		dumper=$!
	fi
	rm -f "$qpid/qemu.pid" "$qpid/kvm-failed"
	if [ "$1" = 1 ]; then
		( trap 'kill $s 2>/dev/null; exit 0' TERM
		  while :; do
			sleep 2 & s=$!
			wait $s || exit 0
			[ -f "$out/console.log" ] || continue
			idle=$(( $(date +%s) - $(stat -c %Y "$out/console.log") ))
			why=$("$here/accel.sh" verdict "$out/console.log" "$idle") && continue
			echo "$why" > "$qpid/kvm-failed"
			[ -s "$qpid/qemu.pid" ] && kill "$(cat "$qpid/qemu.pid")"
			exit 0
		  done
		) < /dev/null > /dev/null 2>&1 &
		kvmwatch=$!
	fi
	timeout --foreground -k 15 "$limit" "${qemu[@]}" -pidfile "$qpid/qemu.pid" \
		-serial stdio < /dev/null 2>&1 |
		tee "$out/console.log" |
		grep --line-buffered -E "$show"
	qrc=${PIPESTATUS[0]}
	echo "qemu-run.sh: QEMU exited with status $qrc after $(( $(date +%s) - start ))s"
	local p
	for p in $kvmwatch $watcher $dumper; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	return 0
}

run_guest "$([ "$mode" = kvm-auto ] && echo 1 || echo 0)"
# A QEMU that left on its own after a KVM failure, before the watch saw it.
if [ "$mode" = kvm-auto ] && [ ! -s "$qpid/kvm-failed" ] && [ ! -f "$out/job.status" ]; then
	"$here/accel.sh" verdict "$out/console.log" 0 > "$qpid/kvm-failed"
fi
if [ -s "$qpid/kvm-failed" ]; then
	# A fresh directory for the TCG boot, as for any run: only the job,
	# the KVM attempt's console and the reason stay.
	why=$(cat "$qpid/kvm-failed")
	mv "$out/console.log" "$qpid/console-kvm.log"
	find "$out" -mindepth 1 -maxdepth 1 ! -name job.sh -exec rm -rf {} +
	mv "$qpid/console-kvm.log" "$out/console-kvm.log"
	echo "qemu-run.sh: KVM cannot run this guest ($why): killed it, booting again under TCG" |
		tee "$out/accel.txt"
	machine_for tcg
	run_guest 0
fi
rm -rf "$qpid"
[ -z "$hangdir" ] || rm -rf "$hangdir"
cured=$(grep -c STALE "$out/stale-watch.txt" 2>/dev/null)
if [ "${cured:-0}" -gt 0 ]; then
	echo "qemu-run.sh: the emulator's stale translation, cured $cured time(s) (stale-watch.txt):" |
		tee -a "$out/runner.txt"
	grep STALE "$out/stale-watch.txt" | sed 's/^/qemu-run.sh:   /' | tee -a "$out/runner.txt"
fi

fail=0
# guest-init.sh's last line: the kernel's taint after the job (D, died,
# and B, bad page, fail; summarize.py judges the same for make check).
# After the kexec step the console has two kernels' lines: any counts.
taint=
for t in $(grep -a -o 'fh-taint: [0-9]*' "$out/console.log" 2>/dev/null | cut -d' ' -f2); do
	taint=$((${taint:-0} | t))
done
if [ -z "$taint" ]; then
	echo "qemu-run.sh: FAIL: the guest printed no fh-taint line (it did not end its job)"
	fail=1
elif [ $((taint & 160)) -ne 0 ]; then
	echo "qemu-run.sh: FAIL: the guest kernel ended tainted $taint (D: died, B: bad page)"
	fail=1
fi
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	echo "qemu-run.sh: FAIL: guest killed after the ${limit}s limit" | tee -a "$out/runner.txt"
	[ -f "$out/hang-dump.txt" ] &&
		echo "qemu-run.sh: its vCPUs before the kill: $out/hang-dump.txt"
	# A stale translation is the emulator's, and says so.
	[ -s "$out/hang-stale.txt" ] && sed 's/^/qemu-run.sh: /' "$out/hang-stale.txt" |
		tee -a "$out/runner.txt"
	fail=1
fi
if [ ! -f "$out/job.status" ]; then
	echo "qemu-run.sh: FAIL: guest did not finish its job" | tee -a "$out/runner.txt"
	fail=1
fi
"$harness/report/logscan.sh" "$out/console.log" "$out/dmesg-before-kexec.txt" "$out/dmesg.txt" > "$out/log-problems.txt"
scan=$?
if [ $scan -gt 1 ]; then
	echo "qemu-run.sh: FAIL: logscan.sh failed ($scan)" | tee -a "$out/runner.txt"
	fail=1
elif [ $scan -eq 1 ]; then
	echo "qemu-run.sh: FAIL: the guest kernel reported problems:"
	sed 's/^/    /' "$out/log-problems.txt" | head -n 60
	fail=1
fi
exit $fail
