#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every harness path a make target's recipes name exists.

check-make-paths.py [MAKE ARGS...]   (default: the checks below)

Runs 'make -n -i' (nothing is built or booted: recursive makes run with
-n too, and -i keeps one that fails on an unbuilt tree from hiding the
rest of the recipes) and checks that each word naming a file under
tools/testing/ftrace-harness/ exists in this tree.  Without arguments it
checks 'make -n check ARCH=x86_64' and 'make -n bench'.  Prints what is
missing; exit status 1 if anything is.
"""
import os
import re
import subprocess
import sys

HARNESS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HARNESS)))
DEFAULT = [['check', 'ARCH=x86_64'], ['bench']]


def paths(args):
    """Harness paths in what 'make -n ARGS' prints."""
    p = subprocess.run(['make', '--no-print-directory', '-n', '-i', '-C', TOP] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    found = set()
    for m in re.finditer(re.escape(HARNESS) + r'[A-Za-z0-9_./+-]*', p.stdout):
        found.add(m.group(0).rstrip('.'))
    return p.returncode, found, p.stdout


def main():
    runs = [sys.argv[1:]] if sys.argv[1:] else DEFAULT
    bad = 0
    for args in runs:
        rc, found, out = paths(args)
        missing = sorted(f for f in found if not os.path.exists(f))
        print('make -n %s: %d harness paths, %d missing' %
              (' '.join(args), len(found), len(missing)))
        for f in missing:
            print('    missing: ' + os.path.relpath(f, TOP))
        if not found:
            print('    no harness path at all (make -n failed? status %d):' % rc)
            print('\n'.join('    ' + l for l in out.splitlines()[-10:]))
            bad = 1
        bad |= bool(missing)
    return bad


if __name__ == '__main__':
    sys.exit(main())
