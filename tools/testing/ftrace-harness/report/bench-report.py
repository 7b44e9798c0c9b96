#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the figures of 'make bench' for its kernels side by side.

bench-report.py NAME=DIR[,DIR...] ... [header line...]

NAME is ours, stock or floor (stock without the function tracer); each DIR
is one boot's results (bench.txt from job-bench.sh, and dmesg.txt).  The
guests ran under QEMU's -icount shift=0, so a nanosecond of guest time is
one executed instruction: 'insns' below.  A figure is taken in each boot
(the median of its rounds), then reported as the median of the boots;
'spread' is the largest (max - min) / median over the boots of any of the
kernels, in percent ('-' with one boot).

  records          first field of dyn_ftrace_total_info
  bytes/record     table memory / records after boot: 'pages:N' of
                   dyn_ftrace_total_info (4 KiB pages)
  boot set-up      vmlinux's call sites at boot: the instructions from the
                   entry of ours' ftrace_init() (stock's
                   ftrace_process_locs(), which sorts, allocates and
                   converts them) to its next printk, counted exactly by
                   boot-count.sh in a boot of its own (QEMU record mode,
                   gdb breakpoints).  Without its boot-count.txt, the
                   core's own boot line ('... in N us'), else the time
                   between upstream's 'ftrace: allocating' and 'ftrace:
                   allocated' lines ('-' where they read the same:
                   stock arm64's timestamps do not advance that early)
  getppid()        one getppid() system call, tracing compiled in but off
  1-byte read+write  one read of /dev/zero and one write to /dev/null
  enable/disable   'echo function > current_tracer' and 'echo nop >
                   current_tracer', every function enabled (the write and
                   its open and close).  The first row is elapsed: every
                   instruction run meanwhile by any task, and the idle
                   time the clock skipped while the writer slept (RCU and
                   RCU-tasks grace periods, which are timer-paced: at
                   HZ=250 a jiffy is 4 M); ', writer' counts only what
                   the writing thread ran (its CPU time)
  enable N sites   the same with set_ftrace_filter holding the first 1,
                   100, 1,000 and 10,000 names (the rows name the sites
                   they selected): the fixed cost of a switch, and the
                   cost per site
  write N names    one write of N distinct vmlinux function names
                   (newline separated) into set_ftrace_filter, open to
                   close, and how many sites that selected
  load module      finit_module() of a module of 1,000 functions
                   (bench-ops/ftrace_bench_sites.c) with no tracer, and
                   with the function tracer on every site (its sites are
                   switched on at load); 'unload it': delete_module()
  register ops #N  register_ftrace_function() of the Nth ops registered,
                   each ops filtered on its own function
                   (bench-ops/ftrace_bench_ops.c); unregister ops #N:
                   unregistering the newest of N
  per traced call  (loop with the tracer on every function - loop with
                   none) / traced calls, for 20,000 1-byte read/write
                   pairs on one CPU; the calls are the events the function
                   tracer wrote on that CPU in its run.
                   'empty ops': one ops with an empty callback (the site,
                   the trampoline, the dispatch).  'function, tracing off':
                   the function tracer with tracing_on at 0 (its callback,
                   the ring buffer refusing the event at once).
                   'function, 2 ops': the function tracer of the top level
                   and of an instance both on every site (the list
                   function), both ops' work per call.  'function, 1 of 2
                   ops': the instance's tracer on one site the loop never
                   calls, so every site the loop runs is wanted by one ops
                   while two are registered; '1 of 16 ops', '1 of 101
                   ops': the same with 15 or 100 ops registered before
                   it, each on one ACPI function the loop never calls
                   (bench-ops with keep=1).  'function_graph, tracing
                   off': its entry callback declines every call (the ring
                   buffer refuses the event), so no return is hooked.
                   The parts: 'site, trampoline, dispatch' = empty ops;
                   'tracer callback' = tracing off - empty ops; 'ring
                   buffer' = function - tracing off.  They hold where the
                   empty ops and the function tracer take the same path.
                   Stock arm64 (6.1: no per-ops trampolines) calls an ops
                   of a module (the empty one) through the list
                   function and the function tracer's directly, so its
                   first two parts there are wrong: the list function
                   counts in the first and is taken out of the second.
Ratios below 1.00 mean the first kernel is smaller or faster.
"""
import os
import re
import statistics
import sys

LOOP = 20000
SYSCALLS = 100000


def read_boot(d):
    bench = open(os.path.join(d, 'bench.txt')).read()
    dmesg = open(os.path.join(d, 'dmesg.txt'), errors='replace').read()
    vals = {}
    count = os.path.join(d, 'boot-count.txt')
    if os.path.exists(count):
        bench += open(count).read()
    for line in bench.splitlines():
        k, _, v = line.partition(' ')
        vals.setdefault(k, []).append(v)
    return vals, dmesg


def boot_figures(vals, dmesg):
    """The figures of one boot, in the order they are printed."""
    f = {}
    med = lambda k: statistics.median(int(v) for v in vals[k])
    f['release'] = vals['release'][0]
    f['getppid() (insns)'] = med('syscall_ns') / SYSCALLS
    f['1-byte read+write (insns)'] = med('rw_none_ns') / LOOP
    if 'records' not in vals:
        return f
    recs = int(vals['records'][0])
    f['records'] = recs
    m = re.search(r'pages:\s*(\d+)', vals['total_info'][0])
    mem = int(m.group(1)) * 4096 if m else None
    f['bytes/record'] = mem / recs if mem and recs else None
    m = re.search(r'ftrace: .* in (\d+) us', dmesg)
    if 'boot_setup_insns' in vals:
        f['boot set-up (k insns)'] = int(vals['boot_setup_insns'][0]) / 1e3
    elif m:
        f['boot set-up (k insns)'] = int(m.group(1))
    else:
        ts = lambda pat: float(re.search(r'\[\s*(\d+\.\d+)\] ' + pat, dmesg).group(1))
        try:
            # A clock that has not started yet reads 0 at both lines.
            f['boot set-up (k insns)'] = ((ts('ftrace: allocated') -
                                           ts('ftrace: allocating')) * 1e6 or None)
        except AttributeError:
            f['boot set-up (k insns)'] = None
    def both(name, key):
        # Elapsed (all instructions and skipped idle), then the writer's own.
        f[name + ' (M insns)'] = med(key + '_ns') / 1e6
        if key + '_cpu' in vals:
            f[name + ', writer (M insns)'] = med(key + '_cpu') / 1e6
    if 'enable_all_ns' in vals:     # not with BENCH_ROWS=percall
        both('enable all', 'enable_all')
        both('disable all', 'disable_all')
        f['sites enabled'] = int(vals['enabled_sites'][0])
    for n in (100, 1000, 10000):
        if 'filter_write_%d_ns' % n in vals:
            both('write %d names' % n, 'filter_write_%d' % n)
            f['sites of %d names' % n] = int(vals['filter_write_%d_sites' % n][0])
    for key, label in (('glob_prefix', "write 'vfs_*'"), ('glob_middle', "write '*vfs_*'"),
                       ('glob_name', 'write vfs_read')):
        if key + '_ns' in vals:
            both(label, key)
            if key + '_sites' in vals:
                f['sites of ' + label[6:]] = int(vals[key + '_sites'][0])
    for n in (1, 100, 1000, 10000):
        if 'enable_%d_ns' % n in vals:
            sites = int(vals['enable_%d_sites' % n][0])
            both('enable %d sites' % sites, 'enable_%d' % n)
            both('disable %d sites' % sites, 'disable_%d' % n)
    for tracer in ('none', 'function'):
        if 'modload_%s_ns' % tracer in vals:
            label = 'no tracer' if tracer == 'none' else 'function tracer on all'
            both('load module of 1,000 functions, %s' % label, 'modload_' + tracer)
            both('unload it, %s' % label, 'modunload_' + tracer)
    if 'modload_function_sites' in vals:
        f['module sites enabled at load'] = int(vals['modload_function_sites'][0])
    for what in ('register', 'unregister'):
        for n in (1, 10, 100, 1000):
            key = 'ops_%s_%d_ns' % (what, n)
            if key in vals:
                f['%s ops #%d (k insns)' % (what, n)] = med(key) / 1e3
    if 'dd_function_calls' not in vals:
        return f
    calls = med('dd_function_calls')
    f['traced calls per loop'] = int(calls)
    per = {}
    for key, name in (('dd_empty_ops_ns', 'empty ops'),
                      ('dd_function_off_ns', 'function, tracing off'),
                      ('dd_function_ns', 'function'),
                      ('dd_function2_ns', 'function, 2 ops'),
                      ('dd_function_own_ns', 'function, 1 of 2 ops'),
                      ('dd_function_among_16_ns', 'function, 1 of 16 ops'),
                      ('dd_function_among_101_ns', 'function, 1 of 101 ops'),
                      ('dd_function_among_201_ns', 'function, 1 of 201 ops'),
                      ('dd_graph_ns', 'function_graph'),
                      ('dd_graph_off_ns', 'function_graph, tracing off')):
        if key in vals and calls:
            per[name] = (med(key) - med('dd_none_ns')) / calls
            f['per call: %s (insns)' % name] = per[name]
    if {'empty ops', 'function, tracing off', 'function'} <= per.keys():
        f['  part: site, trampoline, dispatch'] = per['empty ops']
        f['  part: tracer callback'] = per['function, tracing off'] - per['empty ops']
        f['  part: ring buffer'] = per['function'] - per['function, tracing off']
    return f


def kernel_figures(dirs):
    """Median over the boots of each figure, and each figure's spread."""
    boots = [boot_figures(*read_boot(d)) for d in dirs]
    fig, spread = {}, {}
    for k in boots[0]:
        xs = [b.get(k) for b in boots]
        if isinstance(xs[0], str) or any(x is None for x in xs):
            fig[k] = xs[0]
            continue
        # Counts stay whole numbers (the lower median of an even number).
        m = (statistics.median_low(xs) if all(isinstance(x, int) for x in xs)
             else statistics.median(xs))
        fig[k] = m
        if len(xs) > 1 and m:
            spread[k] = (max(xs) - min(xs)) / abs(m) * 100
    return fig, spread


def fmt(x):
    if x is None:
        return '-'
    if isinstance(x, float):
        return '%.1f' % x if abs(x) < 1e6 else '%.0f' % x
    return str(x)


def ratio(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b:
        return '%.2f' % (a / b)
    return '-'


def main():
    kernels, header = {}, []
    for arg in sys.argv[1:]:
        name, eq, dirs = arg.partition('=')
        if eq and name in ('ours', 'stock', 'floor'):
            kernels[name] = kernel_figures(dirs.split(','))
        else:
            header.append(arg)
    for h in header:
        print(h)
    print('Units: insns = instructions executed (QEMU -icount shift=0, one vCPU)')
    names = [n for n in ('ours', 'stock', 'floor') if n in kernels]
    print('%-46s' % '' + ''.join('%14s' % n for n in names) +
          '%12s%12s%12s%8s' % ('ours/stock', 'ours/floor', 'stock/floor', 'spread'))
    rows = []
    for n in names:
        rows += [k for k in kernels[n][0] if k not in rows]
    for k in rows:
        v = {n: kernels[n][0].get(k) for n in names}
        sp = [kernels[n][1][k] for n in names if k in kernels[n][1]]
        line = '%-46s' % k + ''.join('%14s' % fmt(v[n]) for n in names)
        if k == 'release':
            print(line)
            continue
        line += '%12s%12s%12s' % (ratio(v.get('ours'), v.get('stock')),
                                  ratio(v.get('ours'), v.get('floor')),
                                  ratio(v.get('stock'), v.get('floor')))
        line += '%8s' % ('%.2f%%' % max(sp) if sp else '-')
        print(line)


if __name__ == '__main__':
    main()
