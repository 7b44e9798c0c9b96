#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-bpo.sh DIR: put QEMU 10 from Debian's bookworm-backports in DIR
# (DIR/usr/bin/qemu-system-*), for the guests of `make stress`.
#
# Why: with multi-threaded TCG, Debian 12's QEMU 7.2 can keep running a
# stale translation of code another vCPU has just patched.  Seen at boot
# (x86_64, ours, ftrace self-tests): CPU 0 waits in text_poke_sync() for
# CPU 1, which loops between task_tick_idle() and the int3 handler: memory
# holds the final NOP (the site's batch was done), the handler finds no
# int3 there and restarts the instruction, as on hardware, and QEMU runs
# its old translation with the int3 again.  QEMU 10 boots the same kernel
# and passes.  The packages are downloaded with a private apt state and
# unpacked with dpkg-deb -x, as rootfs.sh does: the host's QEMU, which
# `make check` uses, stays as it is.  Their libraries are the host's
# (deps.sh installs QEMU 7.2, which needs the same ones); ldd checks.
#
# DIR is rebuilt only when the package list changes (DIR/.fh-stamp).
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$1
suite=bookworm-backports
pkgs="qemu-system-x86 qemu-system-arm qemu-system-common qemu-system-data"
stamp="$suite|$(echo $pkgs)|1"
if [ "$(cat "$dir/.fh-stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi

apt_dir=$dir.apt
rm -rf "$apt_dir" "$dir.new"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs"
echo "deb http://deb.debian.org/debian $suite main" > "$apt_dir/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=/dev/null"
	-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
	-o "Dir::State::status=/dev/null" -o "Debug::NoLocking=1")
echo "  QEMU    $dir: $suite: $pkgs"
apt-get "${apt_opts[@]}" -qq update
(cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" -qq download \
	$(printf "%s/$suite " $pkgs) 2>&1 |
	grep -v "^W: Download is performed unsandboxed" || true)
mkdir -p "$dir.new"
for deb in "$apt_dir"/debs/*.deb; do
	dpkg-deb -x "$deb" "$dir.new"
done
for q in qemu-system-x86_64 qemu-system-aarch64; do
	bin=$dir.new/usr/bin/$q
	[ -x "$bin" ] || { echo "qemu-bpo.sh: $q not unpacked" >&2; exit 1; }
	if ldd "$bin" | grep -q "not found"; then
		echo "qemu-bpo.sh: $q needs libraries this host lacks:" >&2
		ldd "$bin" | grep "not found" >&2
		exit 1
	fi
	"$bin" --version | head -n 1
done
rm -rf "$dir"
mv "$dir.new" "$dir"
echo "$stamp" > "$dir/.fh-stamp"
