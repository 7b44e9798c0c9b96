#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# verdict.sh SUMMARY...: the end of 'make check' of both arches, each
# summary's totals and what failed, so that the last lines of the output
# (what CI shows) tell the whole verdict, the first arch's included.
for s in "$@"; do
	echo "check: $s:"
	if [ ! -s "$s" ]; then
		echo "    no summary (the check did not get that far)"
		continue
	fi
	tail -n 1 "$s" | sed 's/^/    /'
	sed -n '/^FAILED:$/,/^$/p' "$s" | sed '/^$/d; s/^/    /'
done
