#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rootfs.sh ARCH ROOT TOP
#
# Assemble the root filesystem of a guest of another architecture from
# Debian's own packages for it: download them (apt-get, with the arch and
# a private package state under ROOT.apt, so the host's dpkg and apt state
# stay untouched) and unpack them (dpkg-deb -x) into ROOT.  No maintainer
# script runs: what the guest needs from them (/etc/passwd, the mount
# points) is written here.
#
# The guest's init is ROOT/fh-init: it mounts the host's repository TOP,
# shared read-only, at the same path, and runs the harness's guest-init.sh
# from it, so that every path a job names is the host's.
#
# ROOT is rebuilt only when the package list or TOP changes (ROOT/.fh-stamp).
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: $0 ARCH ROOT TOP" >&2; exit 2; }
arch=$1 root=$2 top=$3
case $arch in
arm64) ;;
*) echo "rootfs.sh: no guest root for '$arch'" >&2; exit 2 ;;
esac

# The guest's userland: a shell for the harness and ftracetest (bash,
# dash as /bin/sh), the tools the test cases call, kmod for modprobe,
# ping for the inter-event cases, the clients our cases drive as users
# do: trace-cmd, bpftrace (BPF trampolines) and perf, and kexec-tools for
# the kexec step.
pkgs="bash dash coreutils grep sed gawk findutils diffutils util-linux mount
procps iproute2 iputils-ping kmod busybox-static trace-cmd bpftrace linux-perf
kexec-tools"
stamp="$arch|$top|$(echo $pkgs)|3"
# DIR/fh-init, the guest's PID 1: it runs the harness's guest/guest-init.sh.
write_init() {
	cat > "$1/fh-init.new" <<EOF
#!/bin/busybox sh
# PID 1 of the $arch harness guest (rootfs.sh): the host's repository at its
# own path, then the harness's init from it.
/bin/busybox mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro fhtop $top ||
	echo "harness-guest: cannot mount the repository share at $top"
exec /bin/bash $top/tools/testing/ftrace-harness/guest/guest-init.sh
EOF
	chmod 755 "$1/fh-init.new" && mv "$1/fh-init.new" "$1/fh-init"
}
if [ "$(cat "$root/.fh-stamp" 2>/dev/null)" = "$stamp" ]; then
	# A root made before the harness's files moved gets its init
	# rewritten (the packages are what the stamp says).
	grep -q "guest/guest-init.sh" "$root/fh-init" 2>/dev/null || write_init "$root"
	exit 0
fi

apt_dir=$root.apt
rm -rf "$apt_dir" "$root.new"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs"
apt_opts=(-o "APT::Architectures::=$arch" -o "APT::Architecture=$arch"
	-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
	-o "Dir::State::status=/dev/null" -o "Debug::NoLocking=1")
echo "  ROOTFS  $root: Debian $arch packages: $(echo $pkgs)"
apt-get "${apt_opts[@]}" -qq update
# Every package they depend on, recursively; a virtual package (<name>)
# is provided by one of the real ones listed.
all=$(apt-cache "${apt_opts[@]}" depends --recurse --no-recommends \
	--no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
	$pkgs | grep -E '^[a-z0-9]' | sort -u)
# apt-get download writes to the current directory.
(cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" -qq download $all 2>&1 |
	grep -v "^W: Download is performed unsandboxed" || true)
n=0
mkdir -p "$root.new"
for deb in "$apt_dir"/debs/*.deb; do
	dpkg-deb -x "$deb" "$root.new"
	n=$((n + 1))
done
[ "$n" -ge $(echo $pkgs | wc -w) ] || { echo "rootfs.sh: only $n packages unpacked" >&2; exit 1; }

cd "$root.new"
mkdir -p proc sys dev run tmp var/tmp var/log root lib/modules etc ".$top"
chmod 1777 tmp var/tmp
ln -sf dash bin/sh
# Commands that maintainer scripts would have made with update-alternatives
# (dpkg-deb -x runs none): the test cases call awk and which.
ln -sf gawk usr/bin/awk
ln -sf which.debianutils usr/bin/which
printf 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' > etc/passwd
printf 'root:x:0:\nnogroup:x:65534:\n' > etc/group
printf '127.0.0.1 localhost\n' > etc/hosts
printf 'fh-arm64\n' > etc/hostname
write_init .

# Every shared library a program here needs must be here too.
# (readelf fails on the scripts: its status says nothing here.)
missing=$(find . -type f -perm -u+x -print0 |
	{ xargs -0 readelf -d 2>/dev/null || true; } |
	sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | sort -u |
	while read -r lib; do
		[ -n "$(find . -name "$lib" -print -quit)" ] || echo "$lib"
	done)
[ -z "$missing" ] || { echo "rootfs.sh: libraries missing from the root: $missing" >&2; exit 1; }

cd - >/dev/null
rm -rf "$root"
mv "$root.new" "$root"
echo "$stamp" > "$root/.fh-stamp"
echo "  ROOTFS  $root: $n packages, $(du -sm "$root" | cut -f1) MiB"
