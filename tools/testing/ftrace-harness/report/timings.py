#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seconds per test of the last 'make check', as shard.py's costs.

timings.py RESULTS FTRACETEST_DIR

Reads each guest's timing.txt (ftracetest's result lines stamped with
the guest's uptime as they completed, after a '(start)' line) and
timing-livepatch.txt, and prints 'SECONDS TEST' per test, longest first,
then the total per guest on stderr.  A case's cost is the time from the
line before it to its own; a case with an instance run gets both runs'
time.  The description on a result line is mapped back to the case's
path through the '# description:' lines of FTRACETEST_DIR/test.d.  The
first guest runs the boot self-tests before its share: how much later
it starts than the others is printed as '(boot-self-tests)'.

A guest booted again after its kernel died in a test (guestN.boot2...,
check-guests.sh) adds the cases it ran, each once per guest: a case run
again whole for its instance run alone adds only that run, and a later
boot's start, without the boot self-tests, says nothing of their cost.
"""
import os
import re
import sys


def descriptions(ftdir):
    top = os.path.join(ftdir, 'test.d')
    paths = {}
    for root, _, files in os.walk(top):
        for fn in files:
            if not fn.endswith('.tc'):
                continue
            path = os.path.join(root, fn)
            for line in open(path, errors='replace'):
                if line.startswith('# description:'):
                    desc = line.split(':', 1)[1].strip()
                    paths[desc] = os.path.relpath(path, top)
                    break
    return paths


def lines_of(path):
    """The lines of a guest's file; none if the guest did not write it."""
    try:
        with open(path) as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []


def main():
    results, ftdir = sys.argv[1:3]
    paths = descriptions(ftdir)
    costs = {}
    starts = {}
    seen = {}       # guest -> the runs counted from its boots
    for g in sorted(os.listdir(results)):
        gdir = os.path.join(results, g)
        if not os.path.isdir(gdir):
            continue
        earlier = seen.setdefault(g.split('.')[0], set())
        runs = set()
        total = 0.0
        prev = None
        for line in lines_of(os.path.join(gdir, 'timing.txt')):
            stamp, _, rest = line.partition(' ')
            t = float(stamp)
            m = re.match(r'^\[\d+\]( \(instance\) )?(.*?)\s*\[\w+\]\s*$', rest)
            if m and prev is not None and (m.group(1), m.group(2)) not in earlier:
                runs.add((m.group(1), m.group(2)))
                desc = m.group(2).strip()
                name = paths.get(desc, desc)
                costs[name] = costs.get(name, 0.0) + t - prev
                total += t - prev
            if rest == '(start)' and re.match(r'^guest\d+$', g):
                starts.setdefault(g, t)
            if m or rest == '(start)':
                prev = t
        for line in lines_of(os.path.join(gdir, 'timing-livepatch.txt')):
            secs, name = line.split()
            costs[name] = costs.get(name, 0.0) + float(secs)
            total += float(secs)
        earlier |= runs
        if total:
            sys.stderr.write('timings.py: %s: %.0f s of tests\n' % (g, total))
    first = starts.pop('guest1', None)
    if first is not None and starts:
        costs['(boot-self-tests)'] = max(0.0, first - min(starts.values()))
    print('# Seconds per test measured by make check (make timings); shard.py')
    print('# deals the tests out longest first.  Unlisted tests count as 20 s.')
    for name, secs in sorted(costs.items(), key=lambda kv: (-kv[1], kv[0])):
        print('%.0f %s' % (secs, name))


if __name__ == '__main__':
    main()
