#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh [ARCH [BASE]]: make sure this Debian 12 host has what the harness
# needs to build and boot ARCH (x86_64 by default; arm64 adds the cross
# compiler and QEMU's arm machines) on Linux BASE (6.1 by default: Debian's
# linux-source-BASE; 6.12 adds linux-config-6.12, Debian's own configs).  deps.sh docs: what 'make htmldocs' needs
# (Sphinx and the theme the kernel's conf.py asks for), and nothing else.
# As root, install what is missing with apt-get; otherwise print the one
# apt-get line to run, and fail.
set -euo pipefail

# command-or-file  package
need="
qemu-system-x86_64 qemu-system-x86
gcc gcc
make make
flex flex
bison bison
bc bc
perl perl
python3 python3
patch patch
xz xz-utils
cpio cpio
depmod kmod
ip iproute2
ping iputils-ping
checkbashisms devscripts
trace-cmd trace-cmd
pahole dwarves
ccache ccache
gdb-multiarch gdb-multiarch
bpftrace bpftrace
perf linux-perf
/usr/sbin/kexec kexec-tools
/usr/include/gelf.h libelf-dev
/usr/lib/x86_64-linux-gnu/libc.a libc6-dev
/usr/include/openssl/opensslv.h libssl-dev
"
base=${2:-6.1}
need+="
/usr/src/linux-source-$base.tar.xz linux-source-$base
"
[ "$base" = 6.1 ] || need+="
/usr/src/linux-config-$base linux-config-$base
"
case "${1:-x86_64}" in
x86_64) ;;
arm64) need+="
aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
/usr/aarch64-linux-gnu/lib/libc.a libc6-dev-arm64-cross
qemu-system-aarch64 qemu-system-arm
dpkg-deb dpkg
" ;;
docs) need="
sphinx-build python3-sphinx
/usr/lib/python3/dist-packages/sphinx_rtd_theme python3-sphinx-rtd-theme
" ;;
*) echo "deps.sh: unknown arch '$1'" >&2; exit 2 ;;
esac
# depmod and ip live in /usr/sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
missing=()
while read -r what pkg; do
	[ -n "$what" ] || continue
	case "$what" in
	/*) [ -e "$what" ] && continue ;;
	*) command -v "$what" >/dev/null 2>&1 && continue ;;
	esac
	missing+=("$pkg")
done <<< "$need"
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "Missing packages. Run as root:" >&2
	echo "    apt-get update && $line" >&2
	exit 1
fi
echo "  DEPS    installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$line -qq >/dev/null
