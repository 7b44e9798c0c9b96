#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the harness guest (qemu-run.sh passes it as init=).
#
# The root filesystem is the host's, read-only over virtio-9p.  We make
# the directories programs write to writable (tmpfs, or overlays on the
# host's directories), make the built modules appear under
# /lib/modules, bring up loopback, run the job the host left in the
# results share, and power off.  Any way out of this script ends in a
# power-off, so QEMU always exits.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=${TERM:-linux}
OUT=/tmp/out

say() { echo "harness-guest: $*"; }

# The sysrq power-off runs asynchronously and takes the 9p root away
# while it proceeds, so the wait must not exec anything from it (an
# external sleep then fails at once and PID 1 would exit, a panic, before
# the power-off completes): bash's own read times out on a FIFO in tmpfs.
poweroff_now() {
	sync
	echo o > /proc/sysrq-trigger
	if [ -p /run/harness-never ]; then
		read -r -t 30 <> /run/harness-never
	else
		local end=$((SECONDS + 30))

		while [ $SECONDS -lt $end ]; do :; done
	fi
	say "power-off did not happen"
	exit 1
}
trap poweroff_now EXIT

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
mkfifo /run/harness-never	# poweroff_now() waits on it

# Make directory $1 writable while the host's files in it stay visible
# (the repository itself may live under /tmp or /root): an overlay with a
# tmpfs upper layer.
writable() {
	local w=/run/ovl/${1//\//_}

	mkdir -p "$w/upper" "$w/work"
	mount -t overlay overlay \
		-o "lowerdir=$1,upperdir=$w/upper,workdir=$w/work" "$1" ||
		say "cannot make $1 writable"
}
# Where this script lives: the repository, which a job's paths name.  An
# arm64 guest has it as a mount of its own (rootfs.sh's fh-init), which
# an overlay of a directory above it would hide (a clone under /tmp or
# /root), and a 9p share mounts once: keep a bind of it to put back.
top=${0%/tools/testing/ftrace-harness/guest/guest-init.sh}
mkdir -p /run/fhtop
mountpoint -q "$top" && mount --bind "$top" /run/fhtop
for d in /tmp /var/tmp /var/log /root; do
	[ -d "$d" ] && writable "$d"
done
if [ ! -d "$top/tools" ] && ! mount --bind /run/fhtop "$top"; then
	say "cannot put the repository back at $top"
fi
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

mkdir -p "$OUT"
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 fhout "$OUT"; then
	say "cannot mount the results share"
	exit 1
fi

# Modules: /lib/modules/$(uname -r) must be the ones we built.  /lib is
# usually /usr/lib on the host; when it has no modules directory to mount
# over, an overlay with a tmpfs upper layer makes one.
moddir=$FH_MODULES/lib/modules
if [ -n "$FH_MODULES" ] && [ -d "$moddir" ]; then
	if [ ! -d /lib/modules ]; then
		writable "$(readlink -f /lib)"
		mkdir -p /lib/modules
	fi
	mount --bind "$moddir" /lib/modules || say "cannot bind $moddir on /lib/modules"
fi

# Where this boot's kernel text begins: with KASLR the host's look at a
# hung guest (hang-dump.sh, stale-watch.sh) moves vmlinux's symbols there.
awk '$3 == "_text" { print $1; exit }' /proc/kallsyms > "$OUT/kernel-text.txt"

ip link set lo up || say "cannot bring up lo"
hostname ftrace-guest 2>/dev/null

say "kernel $(uname -r), $(nproc) CPUs online, running $OUT/job.sh"
cd /tmp
bash "$OUT/job.sh"
st=$?
say "job exited with status $st"
echo "$st" > "$OUT/job.status"
# The kernel's taint after the job, on the console where the host reads
# it (summarize.py: a D or B taint, or no such line, fails the run).  No
# fork: the shell's own read.
read -r taint < /proc/sys/kernel/tainted
echo "fh-taint: ${taint:-unreadable}"
