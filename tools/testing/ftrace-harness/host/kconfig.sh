#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kconfig.sh SRC OBJ FRAGMENT...
#
# Configure the kernel in SRC (built in OBJ) as tinyconfig plus FRAGMENTs,
# then check that every symbol a fragment sets has that value in the final
# .config.  Kconfig silently drops a symbol whose dependencies are not met;
# failing here instead keeps "the config has X" true.
set -euo pipefail

src=$1 obj=$2
shift 2
# The compiler the build will use (the Makefile's KCC), so that the build
# does not rerun Kconfig for a compiler that only looks different.
cc=()
[ -z "${KCC:-}" ] || cc=(CC="$KCC")
kmake() { make -s -C "$src" O="$obj" ARCH="${ARCH:-x86_64}" "${cc[@]}" "$@"; }
# Pass stderr on without kconfig's notes that a fragment overrides a choice
# (overriding tinyconfig's choices is what the fragments are for).
no_choice_notes() { grep -v "changes choice state" >&2 || true; }

mkdir -p "$obj"
# merge_config.sh leaves temporary files in the current directory.
cd "$obj"
# A .config that failed the check below must not survive to be built.
trap '[ $? -eq 0 ] || rm -f "$obj/.config"' EXIT
kmake tinyconfig 2>&1 >/dev/null | no_choice_notes
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$@" 2>&1 >/dev/null |
	no_choice_notes
kmake olddefconfig 2>&1 >/dev/null | no_choice_notes

# A later fragment overrides an earlier one: check each symbol's last value.
declare -A want
order=()
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		sym=${line%%=*}
		val=$line ;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		val="" ;;
	*) continue ;;
	esac
	[ -n "${want[$sym]+set}" ] || order+=("$sym")
	want[$sym]=$val
done < <(cat "$@")
bad=0
for sym in "${order[@]}"; do
	have=$(grep -E "^$sym=" "$obj/.config" || true)
	if [ "$have" != "${want[$sym]}" ]; then
		echo "kconfig.sh: $sym: fragment wants '${want[$sym]:-not set}', .config has '${have:-not set}'" >&2
		bad=1
	fi
done
[ $bad -eq 0 ] || { echo "kconfig.sh: unmet fragment options (missing dependency?)" >&2; exit 1; }
echo "  CONFIG  $obj/.config: tinyconfig + $(for f in "$@"; do basename "$f"; done | tr '\n' ' ')"
