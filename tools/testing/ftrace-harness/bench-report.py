#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print ours and stock side by side from two 'make bench' guest runs.

bench-report.py OURS_RESULTS STOCK_RESULTS [header line...]

Each RESULTS directory holds bench.txt (written by job-bench.sh) and
dmesg.txt.  Figures:

  records          first field of dyn_ftrace_total_info
  bytes/record     table memory / records, both after boot: 'pages:N' of
                   dyn_ftrace_total_info (4 KiB pages; ours allocates
                   whole pages and gives back those of freed init text)
  boot conversion  the core's own boot line ('... in N us'), else the time
                   between upstream's 'ftrace: allocating' and 'ftrace:
                   allocated' lines; None where the clock did not move
                   (this early it may still count jiffies); ours also
                   gives TSC cycles ('(N cycles)')
  enable/disable   median wall time of 'echo function > current_tracer'
                   and 'echo nop > current_tracer' with every function
                   enabled (guest clock)
  register ops #N  wall time of register_ftrace_function() for the Nth ops
                   registered, each ops filtered on its own function
                   (bench-ops/ftrace_bench_ops.c, median of the rounds);
                   unregister ops #N: unregistering the newest of N
  write N names    wall time of one 'cat' of N distinct vmlinux function
                   names (newline separated) into set_ftrace_filter, and
                   how many sites that selected
  ns/call          (dd time with a tracer on every function - dd time with
                   none) / traced calls, for dd copying 20,000 1-byte
                   blocks pinned to CPU 1; the calls are the events the
                   function tracer wrote on CPU 1 in its run (medians of
                   the rounds).  'function, 2 ops': the function tracer of
                   the top level and of an instance both on every site
                   (the list function), per call for both ops together.
                   'function, 1 of 2 ops': the same two tracers, the
                   instance's on one site dd never calls, so every site
                   dd runs is wanted by one ops while two are registered
                   (its own trampoline, where there are per-ops ones).
The ratio column is ours / stock: below 1.00 means ours is smaller/faster.
"""
import os
import re
import statistics
import sys


def figures(d):
    bench = open(os.path.join(d, 'bench.txt')).read()
    dmesg = open(os.path.join(d, 'dmesg.txt'), errors='replace').read()
    f = {}
    vals = {}
    for line in bench.splitlines():
        k, _, v = line.partition(' ')
        vals.setdefault(k, []).append(v)
    f['release'] = vals['release'][0]
    recs = int(vals['records'][0])
    f['records'] = recs
    m = re.search(r'pages:\s*(\d+)', vals['total_info'][0])
    mem = int(m.group(1)) * 4096 if m else None
    f['bytes/record'] = mem / recs if mem and recs else None
    m = re.search(r'ftrace: .* in (\d+) us(?: \((\d+) cycles\))?', dmesg)
    if m:
        us = int(m.group(1))
        f['boot conversion (ms)'] = us / 1000 if us else None
        if m.group(2):
            f['boot conversion (cycles)'] = int(m.group(2))
    else:
        ts = lambda pat: float(re.search(r'\[\s*(\d+\.\d+)\] ' + pat, dmesg).group(1))
        try:
            f['boot conversion (ms)'] = (ts('ftrace: allocated') -
                                         ts('ftrace: allocating')) * 1000 or None
        except AttributeError:
            f['boot conversion (ms)'] = None
    for key, name in (('enable_all_ns', 'enable all (ms)'),
                      ('disable_all_ns', 'disable all (ms)')):
        f[name] = statistics.median(int(v) for v in vals[key]) / 1e6
    f['sites enabled'] = int(vals['enabled_sites'][0])
    for n in (100, 1000, 10000):
        key = 'filter_write_%d_ns' % n
        if key in vals:
            f['write %d names (ms)' % n] = int(vals[key][0]) / 1e6
            f['sites of %d names' % n] = int(vals['filter_write_%d_sites' % n][0])
    for what in ('register', 'unregister'):
        for n in (1, 10, 100, 1000):
            key = 'ops_%s_%d_ns' % (what, n)
            if key in vals:
                f['%s ops #%d (us)' % (what, n)] = \
                    statistics.median(int(v) for v in vals[key]) / 1e3
    if 'dd_function_calls' in vals:
        med = lambda k: statistics.median(int(v) for v in vals[k])
        calls = med('dd_function_calls')
        f['traced calls per dd'] = int(calls)
        for key, name in (('dd_function_ns', 'function ns/call'),
                          ('dd_function_own_ns', 'function, 1 of 2 ops ns/call'),
                          ('dd_function2_ns', 'function, 2 ops ns/call'),
                          ('dd_graph_ns', 'function_graph ns/call')):
            if key in vals and calls:
                f[name] = (med(key) - med('dd_none_ns')) / calls
    f['rounds'] = str(len(vals['enable_all_ns']))
    return f


def main():
    ours, stock = figures(sys.argv[1]), figures(sys.argv[2])
    for h in sys.argv[3:]:
        print(h)
    print('%-30s %14s %14s %8s' % ('', 'ours', 'stock', 'ratio'))
    for k in ours:
        a, b = ours[k], stock.get(k)
        if isinstance(a, str):
            print('%-30s %14s %14s' % (k, a, b))
            continue
        fmt = lambda x: '-' if x is None else ('%.1f' % x if isinstance(x, float) else str(x))
        r = '%.2f' % (a / b) if a is not None and b else '-'
        print('%-30s %14s %14s %8s' % (k, fmt(a), fmt(b), r))


if __name__ == '__main__':
    main()
