#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# accel.sh choose ARCH ICOUNT
#     Print the accelerator qemu-run.sh starts a guest with: "kvm",
#     "kvm-auto" (KVM, to be watched and replaced by TCG if it fails)
#     or "tcg".  FH_ACCEL=kvm or FH_ACCEL=tcg forces one (kvm is x86_64
#     only, and never with ICOUNT=1, make bench's -icount); unset or
#     "auto": KVM when /dev/kvm (FH_KVM_DEV) is writable and QEMU's
#     firmware runs 5 seconds under it without an error, else TCG.
#     Exit status 2 on a bad FH_ACCEL.
#
# accel.sh verdict CONSOLE_LOG IDLE_SECONDS
#     Whether a guest started under KVM must be stopped and booted again
#     under TCG, from what QEMU and the guest printed so far (CONSOLE_LOG,
#     QEMU's stderr included) and the seconds since it last grew: prints
#     the reason and exits 1 when
#       - QEMU reported a KVM failure ("KVM internal error. Suberror: 1
#         ... emulation failure", as nested virtualisation gave: the
#         firmware probe had passed, the kernel then stopped for good),
#         at any time;
#       - the console made no progress for FH_KVM_STALL seconds (60)
#         before the guest's job started (guest-init.sh's
#         "harness-guest: kernel" line): a kernel that boots under KVM
#         prints that within seconds.  Once the job runs, a quiet case is
#         no sign of a broken KVM (case-watchdog.sh and the time limit
#         judge hangs there).
#     Exit status 0 (nothing printed) while the guest may go on.
set -uo pipefail

# What QEMU prints when KVM cannot run the guest on.
KVM_FAILED='KVM internal error|KVM: entry failed|kvm run failed|KVM_EXIT_INTERNAL_ERROR'

kvm_works() {
	local dev=${FH_KVM_DEV:-/dev/kvm}

	[ -w "$dev" ] || return 1
	timeout 5 "${FH_QEMU_DIR:+$FH_QEMU_DIR/}qemu-system-x86_64" -accel kvm -cpu host \
		-machine q35 -nodefaults -display none -serial none -monitor none \
		< /dev/null > /dev/null 2>&1 &
	wait $! 2>/dev/null
	[ $? -eq 124 ]
}

choose() {
	local arch=$1 icount=$2

	case ${FH_ACCEL:-auto} in
	tcg)	echo tcg ;;
	kvm)
		if [ "$arch" != x86_64 ]; then
			echo "accel.sh: FH_ACCEL=kvm: only x86_64 guests run under KVM here" >&2
			return 2
		fi
		if [ "$icount" = 1 ]; then
			echo "accel.sh: FH_ACCEL=kvm: -icount (make bench) needs TCG" >&2
			return 2
		fi
		echo kvm ;;
	auto)
		if [ "$arch" = x86_64 ] && [ "$icount" != 1 ] && kvm_works; then
			echo kvm-auto
		else
			echo tcg
		fi ;;
	*)	echo "accel.sh: FH_ACCEL=${FH_ACCEL}: kvm, tcg or auto" >&2
		return 2 ;;
	esac
}

verdict() {
	local log=$1 idle=$2 stall=${FH_KVM_STALL:-60} hit

	hit=$(grep -a -m 1 -E "$KVM_FAILED" "$log" 2>/dev/null | tr -d '\r')
	if [ -n "$hit" ]; then
		echo "QEMU reported a KVM failure: $hit"
		return 1
	fi
	if [ "$idle" -ge "$stall" ] &&
	   ! grep -a -q 'harness-guest: kernel ' "$log" 2>/dev/null; then
		echo "no console progress under KVM for ${idle}s before the guest's job started"
		return 1
	fi
	return 0
}

case ${1:-} in
choose)	[ $# -eq 3 ] || { echo "usage: $0 choose ARCH ICOUNT" >&2; exit 2; }
	choose "$2" "$3" ;;
verdict) [ $# -eq 3 ] || { echo "usage: $0 verdict CONSOLE_LOG IDLE_SECONDS" >&2; exit 2; }
	verdict "$2" "$3" ;;
*)	echo "usage: $0 choose ARCH ICOUNT | verdict CONSOLE_LOG IDLE_SECONDS" >&2
	exit 2 ;;
esac
