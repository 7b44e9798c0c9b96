#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What a guest boots again with, after its kernel died in a test.

remaining.py BOOT_DIR FTRACETEST_DIR

BOOT_DIR holds one boot's results (RESULTS/guestN or guestN.bootM) and
its job.sh, whose FH_TESTS and FH_LAST say what it was to run.  Prints
three lines: the FH_TESTS of the next boot ('none': last.d alone), its
FH_LAST (0 or 1), and what happened to this one.  Exit status 0 when
check-guests.sh should boot the guest again: its job started, then the
kernel died (an oops, BUG or panic line) or the job did not finish (a
hang until the limit, QEMU gone), and tests are left.  1 when not: the
job finished on a kernel that did not die, the boot died before its job
started (the next would die the same way), or nothing is left.

The test the boot died in is summarize.py's boot_end(): the last to
start before the death, by the start lines job-check.sh writes to the
kernel log, else the first without a result.  It is not run again; the
next boot gets every test of this boot's share that ran after it, or
not at all, in the same order.  A case whose instance run is owed runs
again whole (ftracetest has no instance run alone); the summary counts
only the instance run of that boot.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                'report'))
import summarize  # noqa: E402


def next_boot(gdir, ftdir):
    """(tests, last, what happened, whether to boot again) after the boot
    in @gdir."""
    tests, last = summarize.job_tests(gdir)
    if tests is None:
        return [], False, 'its job ran every test, not a share', False
    order = summarize.run_order(tests, last, ftdir)
    got, _ = summarize.assign(order, summarize.boot_runs(gdir, {}))
    end = summarize.boot_end(gdir, order, got)
    if not end.died:
        return [], False, end.why, False
    if not end.started:
        return [], False, end.why + ': not booted again', False
    crashed = end.crashed
    left = [r for r in order[end.cut:] if not (crashed and r.path == crashed.path)]
    paths = {r.path for r in left}
    nxt = [t for t in tests if t in paths]
    nlast = any(r.kind.startswith('last') for r in left)
    what = ('died in %s: %s: %s' % (crashed.path, crashed.name, end.why) if crashed
            else 'died: %s' % end.why)
    return nxt, nlast, what, bool(nxt or nlast)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    tests, last, what, again = next_boot(sys.argv[1], sys.argv[2])
    print(' '.join(tests) or 'none')
    print(1 if last else 0)
    print(what)
    return 0 if again else 1


if __name__ == '__main__':
    sys.exit(main())
