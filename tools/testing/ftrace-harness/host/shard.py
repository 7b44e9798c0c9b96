#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Split the suites of 'make check' between guests that run at once.

shard.py [--skip "TEST..."] [--part K/N] SHARDS COSTS FTRACETEST_DIR LIVEPATCH_DIR [TEST...]

Prints SHARDS lines, one per guest: the tests that guest runs, as the
guest job takes them (ftracetest cases as paths under test.d,
'ftrace/func-conformance.tc'; livepatch kselftests as
'livepatch/test-NAME.sh').  With no TEST, every case of
FTRACETEST_DIR/test.d and every test-*.sh of LIVEPATCH_DIR is split; with
TESTs, only those.  --skip leaves the tests it names out, and every test
under a name that ends in '/' ('trigger/'); make check names them and
says why, and the number left out goes to stderr.  A line may be empty
(fewer tests than guests).

--part K/N deals the tests to N x SHARDS guests as if all ran at once and
prints the shares of guests (K-1) x SHARDS + 1 to K x SHARDS: the K-th of
N runs that together cover every test once, each about 1/N of the whole.
'make check DEBUG=1' uses it: its kernels run the suite about six times
slower under TCG, more than one session can wait for.

Each guest boots once and runs its share one after the other, so the
run takes as long as its slowest guest: the tests are dealt longest
first, each to the guest with the least work so far, using the seconds
measured per test in COSTS ('SECONDS TEST' per line, written from a
timed run by 'timings.py'); a test not listed there counts as
DEFAULT_COST.  The first guest of each run also runs the tracers' boot
self-tests before its share: a line 'SECONDS (boot-self-tests)' in COSTS
starts that guest with their cost.  Within a guest the tests keep ftracetest's own order
(sorted paths), so a share reads like a part of the whole suite.  The
split depends only on the inputs: the same tree gives the same shares.
"""
import os
import sys

DEFAULT_COST = 20.0
BOOT_SELF_TESTS = '(boot-self-tests)'


def all_tests(ftdir, lpdir):
    tests = []
    top = os.path.join(ftdir, 'test.d')
    for root, _, files in os.walk(top):
        for fn in files:
            if fn.endswith('.tc'):
                tests.append(os.path.relpath(os.path.join(root, fn), top))
    if os.path.isdir(lpdir):
        tests += ['livepatch/' + fn for fn in os.listdir(lpdir)
                  if fn.startswith('test-') and fn.endswith('.sh')]
    return tests


def load_costs(path):
    costs = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and not line.startswith('#'):
                    costs[parts[1]] = float(parts[0])
    except FileNotFoundError:
        pass
    return costs


def split(tests, costs, shards, per_run):
    # Guest 1 of each run (every per_run-th share) boots the self-tests.
    head = costs.get(BOOT_SELF_TESTS, 0.0)
    load = [head if i % per_run == 0 else 0.0 for i in range(shards)]
    share = [[] for _ in range(shards)]
    # Longest first; ties broken by name so the split is stable.
    for t in sorted(tests, key=lambda t: (-costs.get(t, DEFAULT_COST), t)):
        i = min(range(shards), key=lambda i: (load[i], i))
        share[i].append(t)
        load[i] += costs.get(t, DEFAULT_COST)
    return [sorted(s) for s in share], load


def parse_part(text):
    """'K/N' as (K, N), 1 <= K <= N; exits on anything else."""
    try:
        k, n = (int(x) for x in text.split('/'))
    except ValueError:
        k = n = 0
    if not 1 <= k <= n:
        sys.exit('shard.py: --part wants K/N with 1 <= K <= N, not %r' % text)
    return k, n


def skipped(test, skip):
    """Whether --skip names @test, or a directory ('dir/') above it."""
    return test in skip or any(s.endswith('/') and test.startswith(s) for s in skip)


def main():
    argv = sys.argv[1:]
    skip = set()
    part = (1, 1)
    while argv[:1] in (['--skip'], ['--part']) and len(argv) > 1:
        if argv[0] == '--skip':
            skip = set(argv[1].split())
        else:
            part = parse_part(argv[1])
        argv = argv[2:]
    if len(argv) < 4:
        sys.exit(__doc__)
    shards = int(argv[0])
    costs = load_costs(argv[1])
    ftdir, lpdir = argv[2], argv[3]
    tests = argv[4:] or all_tests(ftdir, lpdir)
    left = [t for t in tests if skipped(t, skip)]
    tests = [t for t in tests if t not in left]
    if skip:
        sys.stderr.write('shard.py: %d tests left out (SKIP)\n' % len(set(left)))
    if shards < 1:
        sys.exit('shard.py: need at least one shard')
    k, n = part
    share, load = split(sorted(set(tests)), costs, shards * n, shards)
    mine = slice((k - 1) * shards, k * shards)
    for s, l in zip(share[mine], load[mine]):
        print(' '.join(s))
        sys.stderr.write('shard.py: %d tests, about %d s\n' % (len(s), l))


if __name__ == '__main__':
    main()
