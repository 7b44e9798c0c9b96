#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# phase.sh NAME COMMAND...: run COMMAND, then print its wall time.
name=$1
shift
start=$(date +%s)
"$@"
rc=$?
echo "== phase $name: $(( $(date +%s) - start ))s (exit $rc)"
exit $rc
