#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-offset.sh SYSTEM_MAP TEXT_FILE
#
# Prints how far a guest's kernel was moved from where it was linked
# (KASLR), as 0x..., for gdb's 'symbol-file -o': TEXT_FILE holds the
# runtime address of _text (guest-init.sh writes it into the results
# share at boot), SYSTEM_MAP its link address.  Prints nothing when
# either is missing or the guest hid its addresses (kptr_restrict): the
# caller then uses the symbols where they were linked.
set -u
[ $# -eq 2 ] || { echo "usage: $0 SYSTEM_MAP TEXT_FILE" >&2; exit 2; }
[ -f "$1" ] && [ -f "$2" ] || exit 0
linked=$(awk '$3 == "_text" { print $1; exit }' "$1")
runtime=$(head -n 1 "$2")
case "$linked$runtime" in
*[!0-9a-fA-F]*|'') exit 0 ;;
esac
[ $((16#$runtime)) -ne 0 ] || exit 0
printf '0x%x\n' $((16#$runtime - 16#$linked))
