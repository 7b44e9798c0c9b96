#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare kernel source trees for the ftrace harness.
#
#   tree.sh base  TARBALL BASEDIR VER  extract the Linux VER base once
#                                      (Debian's linux-source-VER)
#   tree.sh apply REPO BASESRC DEST [PORT]
#                                      base + our overlay + patches -> DEST
#
# PORT, for a base other than 6.1 (REPO/base-VER): its overlay files
# replace the repository's of the same path, PORT/overlay-omit.list names
# repository files this base does without, and PORT's patches/series and
# upstream-deleted.list replace the repository's.
#
# 'apply' is incremental: DEST is copied from the base only the first time.
# Afterwards only files whose wanted content differs from what DEST holds
# are rewritten, so kbuild sees new mtimes exactly on the files that
# changed.  Files that an earlier apply touched but the current one does not
# (an overlay file removed from the repo, a patch dropped from the series, a
# path taken off the delete list) are restored from the base.
set -euo pipefail

die() { echo "tree.sh: error: $*" >&2; exit 1; }

# Folders of the repo that mirror the kernel tree.
OVERLAY_DIRS="arch kernel include scripts Documentation tools"

# Paths listed in a file, without comments and blank lines.
list_paths() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"
}

cmd_base() {
	local tarball=$1 basedir=$2 want=$3 top ver
	local pkg=linux-source-$want
	[ -f "$tarball" ] || die "$tarball not found (Debian package $pkg)"
	local stamp
	# Re-extract when the package (and so the tarball) changed.
	stamp=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null ||
		stat -c %Y "$tarball")
	if [ "$(cat "$basedir/.extracted" 2>/dev/null)" != "$stamp" ]; then
		rm -rf "$basedir"
		mkdir -p "$basedir"
		echo "  EXTRACT $tarball"
		tar -xJf "$tarball" -C "$basedir"
		echo "$stamp" > "$basedir/.extracted"
	fi
	top=$(find "$basedir" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	[ -f "$top/Makefile" ] || die "no kernel Makefile under $basedir"
	ver=$(make -s -C "$top" kernelversion 2>/dev/null) ||
		die "cannot read the kernel version of $top"
	case "$ver" in
	"$want"|"$want".*) ;;
	*) die "base tree is Linux $ver, not $want.y: install Debian's $pkg" ;;
	esac
	local pkgver
	pkgver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || echo unknown)
	echo "Linux $ver (Debian $pkg $pkgver)" > "$basedir/VERSION.new"
	cmp -s "$basedir/VERSION.new" "$basedir/VERSION" 2>/dev/null ||
		mv "$basedir/VERSION.new" "$basedir/VERSION"
	rm -f "$basedir/VERSION.new"
	ln -sfn "$(basename "$top")" "$basedir/src"
}

# Copy $1 over $2 only if the contents differ, giving it a new mtime.
install_if_changed() {
	if ! cmp -s "$1" "$2"; then
		mkdir -p "$(dirname "$2")"
		rm -f "$2"
		cp "$1" "$2"
		echo "  UPDATE  $3"
	fi
}

cmd_apply() {
	local repo=$1 base=$2 dest=$3 port=${4:-} manifest f p
	# What lists the patches and the deleted files: the port's, if any.
	local lists=$repo
	[ -z "$port" ] || lists=$port
	[ -z "$port" ] || [ -d "$port" ] || die "port directory $port missing"
	[ -f "$base/Makefile" ] || die "base tree $base missing: run 'make base'"
	# A new copy when there is none, or when the base was re-extracted.
	if [ ! -f "$dest/.ftrace-overlay-manifest" ] ||
	   ! cmp -s "$base/../.extracted" "$dest/.ftrace-base-stamp"; then
		echo "  COPY    base -> $dest"
		rm -rf "$dest" "$dest.tmp"
		mkdir -p "$dest.tmp"
		cp -a "$base/." "$dest.tmp/"
		mv "$dest.tmp" "$dest"
		: > "$dest/.ftrace-overlay-manifest"
		cp "$base/../.extracted" "$dest/.ftrace-base-stamp"
	fi
	manifest=$dest/.ftrace-overlay-manifest
	stage=$(mktemp -d)
	trap 'rm -rf "$stage"' EXIT
	mkdir -p "$stage/tree"

	# 1. Our files: what git tracks, so that stray files in a work tree
	# (editor backups, __pycache__) never reach the kernel tree.
	if git -C "$repo" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
		# shellcheck disable=SC2086
		git -C "$repo" ls-files -z -- $OVERLAY_DIRS |
			(cd "$repo" && xargs -0 -r cp -a --parents -t "$stage/tree/")
	else
		for d in $OVERLAY_DIRS; do
			[ -d "$repo/$d" ] && cp -a "$repo/$d" "$stage/tree/"
		done
	fi
	# The port's files over the repository's, without those it omits.
	if [ -n "$port" ]; then
		if [ -f "$port/overlay-omit.list" ]; then
			list_paths "$port/overlay-omit.list" | while read -r f; do
				[ -e "$stage/tree/$f" ] ||
					die "overlay-omit.list: $f is not an overlay file"
				rm -f "$stage/tree/$f"
			done
		fi
		local pd
		for pd in $OVERLAY_DIRS; do
			[ -d "$port/$pd" ] || continue
			git -C "$port" ls-files -z -- "$pd" |
				(cd "$port" && xargs -0 -r cp -a --parents -t "$stage/tree/")
		done
	fi

	# 2. Patches, applied on the staged copy of each file they touch.
	while read -r p; do
		[ -f "$lists/patches/$p" ] || die "patches/series names $p, which does not exist"
		grep -E '^\+\+\+ ' "$lists/patches/$p" |
			sed -E -e 's/^\+\+\+ [^/]*\///' -e 's/[[:space:]].*$//' |
			while read -r f; do
				[ -e "$stage/tree/$f" ] && continue
				[ -f "$base/$f" ] || continue
				mkdir -p "$stage/tree/$(dirname "$f")"
				cp "$base/$f" "$stage/tree/$f"
			done
		echo "  PATCH   $p"
		patch -d "$stage/tree" -p1 -F0 -N -s --no-backup-if-mismatch \
			-r - < "$lists/patches/$p" ||
			die "patch $p does not apply cleanly (no fuzz allowed)"
	done < <(list_paths "$lists/patches/series")

	# 3. Write what differs; remember every path we own now.
	(cd "$stage/tree" && find . -type f | sed 's|^\./||' | sort) > "$stage/owned"
	while read -r f; do
		install_if_changed "$stage/tree/$f" "$dest/$f" "$f"
	done < "$stage/owned"

	# 4. Deletions, unless our overlay provides the same path.
	list_paths "$lists/upstream-deleted.list" | sort -u > "$stage/deleted"
	comm -23 "$stage/deleted" "$stage/owned" | while read -r f; do
		if [ -e "$dest/$f" ]; then
			rm -f "$dest/$f"
			echo "  DELETE  $f"
		fi
	done

	# 5. Restore what an earlier apply owned or deleted and this one does not.
	sort -u "$stage/owned" "$stage/deleted" > "$stage/new_manifest"
	comm -23 <(sort -u "$manifest") "$stage/new_manifest" | while read -r f; do
		if [ -f "$base/$f" ]; then
			install_if_changed "$base/$f" "$dest/$f" "$f (restored from base)"
		elif [ -e "$dest/$f" ]; then
			rm -f "$dest/$f"
			echo "  REMOVE  $f"
		fi
	done
	cp "$stage/new_manifest" "$manifest"

	# 6. No deleted upstream file may survive: either gone or ours.
	while read -r f; do
		[ -e "$dest/$f" ] || continue
		if grep -qxF "$f" "$stage/owned"; then
			cmp -s "$dest/$f" "$stage/tree/$f" ||
				die "$f: built tree differs from our replacement"
			! cmp -s "$dest/$f" "$base/$f" ||
				die "$f: our replacement is identical to upstream's"
		else
			die "deleted upstream file $f is still in $dest"
		fi
	done < "$stage/deleted"
}

case "${1:-}" in
base)	shift; cmd_base "$@" ;;
apply)	shift; cmd_apply "$@" ;;
*)	die "usage: tree.sh base TARBALL BASEDIR VER | apply REPO BASESRC DEST [PORT]" ;;
esac
