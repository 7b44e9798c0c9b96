#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Self-test of the harness's own parsers, on canned logs.

Run by 'make check' before anything is built: a parser that silently
stopped recognising failures would turn every later run green.  Prints
'N passed, N failed' and exits 1 on any failure.
"""
import concurrent.futures
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import summarize  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# The harness's folders: host/ (build and QEMU steps), guest/ (what runs
# in the guest), report/ (here: parsers, summary, verdict).
HARNESS = os.path.dirname(HERE)
HOST = os.path.join(HARNESS, 'host')
GUEST = os.path.join(HARNESS, 'guest')
# The harness's lists (known-failures/, expected-*.txt).
DATA = summarize.data_dir()

DMESG = """\
[    0.620000] Running postponed tracer tests:
[    0.623285] Testing tracer function: PASSED
[    2.744192] Testing dynamic ftrace ops #1: 
[    2.800000] (1 0 1 0 0) 
[    3.769224] (3 3 5 0 747972) PASSED
[    4.000000] Testing tracer wakeup: .. FAILED!
[    5.000000] Testing tracer nop: PASSED
[    6.000000] Testing event sched_switch: OK
[    7.000000] Testing all events: OK
[    8.000000] trace_kprobe: Testing kprobe tracing: OK
[    9.000000] Testing tracer irqsoff: 
[   10.000000] Testing tracer preemptoff: PASSED
[   10.100000] Testing ftrace filter: 
[   10.200000] trace_kprobe: Testing kprobe probes: OK
[   10.300000] Testing tracer wakeup_rt: 
[   10.400000] some_driver: self test PASSED
[   10.500000] Testing tracer wakeup_dl: 
[   10.600000] Unstable clock detected
[   10.700000] (1 2 3) PASSED
[   11.000000] KTAP version 1
[   11.000000] 1..2
[   11.000000]     KTAP version 1
[   11.000000]     # Subtest: ftrace_glob
[   11.000000]     1..3
[   11.000000]     ok 1 prefix_match
[   11.000000]     not ok 2 suffix_match
[   11.000000]     ok 3 needs_module # SKIP no module
[   11.000000] # ftrace_glob: pass:1 fail:1 skip:1 total:3
[   11.000000] not ok 1 ftrace_glob
[   11.000000]     KTAP version 1
[   11.000000]     # Subtest: ftrace_hash
[   11.000000]     1..1
[   11.000000]     ok 1 add_remove
[   11.000000] ok 2 ftrace_hash
"""

FTRACETEST = """\
=== Ftrace unit tests ===
[1] Basic trace file check\t[PASS]
[2] ftrace - function glob filters\t[FAIL]
[3] Kprobe dynamic event - adding and removing\t[UNSUPPORTED]
[4] (instance)  Basic test for tracers\t[PASS]
[5] Meta-selftest: Checkbashisms\t[UNRESOLVED]

# of passed:  2
# of failed:  1
# of unresolved:  1
# of untested:  0
# of unsupported:  1
# of xfailed:  0
# of undefined(test bug):  0
"""

FTRACETEST_LAST = """\
=== Ftrace unit tests ===
[1] ftrace - a patching anomaly shuts function tracing down, once\t[PASS]

# of passed:  1
# of failed:  0
# of unresolved:  0
# of untested:  0
# of unsupported:  0
# of xfailed:  0
# of undefined(test bug):  0
"""

MARK = 'ftrace-harness: injecting a code patching anomaly, one WARNING expected'
ANOMALY_WARN = ('WARNING: CPU: 1 PID: 99 at kernel/trace/ftrace_update.c:241 '
                'ftrace_anomaly+0x5e/0x90')

results = []


def check(name, got, want):
    ok = got == want
    results.append(ok)
    if not ok:
        print('FAIL %s\n    got:  %r\n    want: %r' % (name, got, want))


def test_parsers():
    boot = {n: r for _, n, r, _ in summarize.boot_selftests(DMESG)}
    check('boot: PASSED', boot.get('tracer function'), 'PASS')
    check('boot: verdict after progress lines', boot.get('dynamic ftrace ops #1'), 'PASS')
    check('boot: FAILED', boot.get('tracer wakeup'), 'FAIL')
    check('boot: OK verdict', boot.get('all events'), 'PASS')
    check('boot: prefixed line', boot.get('kprobe tracing'), 'PASS')
    check('boot: no verdict before next test', boot.get('tracer irqsoff'), 'FAIL')
    check('boot: per-event lines ignored', 'event sched_switch' in boot, False)
    check('boot: no verdict borrowed from a prefixed Testing line',
          boot.get('ftrace filter'), 'FAIL')
    check('boot: no verdict borrowed from an unrelated line',
          boot.get('tracer wakeup_rt'), 'FAIL')
    check('boot: verdict after an unrelated line', boot.get('tracer wakeup_dl'), 'PASS')
    check('boot: an arch-support note is not part of the name',
          summarize.boot_selftests(
              '[ 9.5] Testing ftrace regs(no arch support): PASSED\n'),
          [('boot', 'ftrace regs', 'PASS', 'no arch support')])
    check('ktap: plans match', summarize.ktap_plan_problems(DMESG), [])
    check('ktap: missing suite result',
          len(summarize.ktap_plan_problems(DMESG.replace('ok 2 ftrace_hash', 'ok'))), 1)

    kunit = {n: r for _, n, r, _ in summarize.kunit(DMESG)}
    check('kunit: cases', kunit, {'ftrace_glob.prefix_match': 'PASS',
                                  'ftrace_glob.suffix_match': 'FAIL',
                                  'ftrace_glob.needs_module': 'SKIP',
                                  'ftrace_hash.add_remove': 'PASS'})

    ft, totals = summarize.ftracetest(FTRACETEST, {})
    got = [(n, r) for _, n, r, _ in ft]
    check('ftracetest: results', got, [
        ('Basic trace file check', 'PASS'),
        ('ftrace - function glob filters', 'FAIL'),
        ('Kprobe dynamic event - adding and removing', 'UNSUPPORTED'),
        ('Basic test for tracers (instance)', 'PASS'),
        ('Meta-selftest: Checkbashisms', 'UNRESOLVED')])
    check('ftracetest: totals', totals.get('passed'), 2)

    # A guest stopped mid-run: the case it stopped in is named, a FAIL.
    cut = FTRACETEST.split('[3]')[0] + '[3] ftrace - a case that never ends'
    ft, totals = summarize.ftracetest(cut, {})
    check('ftracetest: cut short in a case', [(n, r) for _, n, r, _ in ft][-1],
          ('ftrace - a case that never ends', 'FAIL'))
    check('ftracetest: cut short, no totals', totals, {})
    ft, _ = summarize.ftracetest(FTRACETEST.split('[3]')[0], {})
    check('ftracetest: cut short between cases', len(ft), 2)
    # case-watchdog.sh stopped case 2: its FAIL carries the reason.
    ft, _ = summarize.ftracetest(FTRACETEST, {}, stopped={2: 'stopped'})
    check('ftracetest: stopped case\'s reason', [w for _, _, _, w in ft][1], 'stopped')


def test_logscan():
    with tempfile.NamedTemporaryFile('w', suffix='.log') as f:
        f.write('[    1.000000] all fine\n'
                'a test that prints WARNING: in user space\n'
                '[    2.000000] WARNING: CPU: 1 PID: 1 at kernel/foo.c:1\n'
                '[    3.000000] rcu: INFO: rcu_preempt self-detected stall on CPU\n'
                '[    4.000000] INFO: task sh:12 blocked for more than 120 seconds.\n')
        f.flush()
        p = subprocess.run([os.path.join(HERE, 'logscan.sh'), f.name],
                           stdout=subprocess.PIPE, universal_newlines=True)
        check('logscan: exit status', p.returncode, 1)
        check('logscan: kernel lines only', len(p.stdout.splitlines()), 3)
    with tempfile.NamedTemporaryFile('w', suffix='.log') as f:
        f.write('[    1.000000] Testing tracer function: PASSED\n')
        f.flush()
        p = subprocess.run([os.path.join(HERE, 'logscan.sh'), f.name],
                           stdout=subprocess.PIPE, universal_newlines=True)
        check('logscan: clean log', (p.returncode, p.stdout), (0, ''))

    def scan(text):
        with tempfile.NamedTemporaryFile('w', suffix='.log') as f:
            f.write(text)
            f.flush()
            p = subprocess.run([os.path.join(HERE, 'logscan.sh'), f.name],
                               stdout=subprocess.PIPE, universal_newlines=True)
            return p.returncode, len(p.stdout.splitlines())
    check('logscan: the anomaly WARNING after its marker is accepted',
          scan('[    5.000000] %s\n[    5.100000] %s\n' % (MARK, ANOMALY_WARN)),
          (0, 0))
    check('logscan: an anomaly WARNING without the marker is reported',
          scan('[    5.100000] %s\n' % ANOMALY_WARN), (1, 1))
    check('logscan: the WARNING of a compiler-split ftrace_anomaly is accepted',
          scan('[    5.000000] %s\n[    5.100000] %s\n' %
               (MARK, ANOMALY_WARN.replace('+', '.part.0+'))), (0, 0))
    check('logscan: a WARNING of another function named alike is reported',
          scan('[    5.000000] %s\n[    5.100000] %s\n' %
               (MARK, ANOMALY_WARN.replace('ftrace_anomaly', 'ftrace_anomaly_x'))), (1, 1))
    check('logscan: a second anomaly WARNING is reported',
          scan('[    5.000000] %s\n[    5.100000] %s\n[    6.100000] %s\n' %
               (MARK, ANOMALY_WARN, ANOMALY_WARN)), (1, 1))
    check('logscan: another WARNING after the marker is reported',
          scan('[    5.000000] %s\n[    5.100000] WARNING: CPU: 0 PID: 1 at '
               'kernel/foo.c:1 foo+0x1/0x2\n' % MARK), (1, 1))
    check('logscan: a marker in user-space output arms nothing',
          scan('%s\n[    5.100000] %s\n' % (MARK, ANOMALY_WARN)), (1, 1))


# The result each canned non-PASS test gets (a known-failures entry
# names it); a listed name not here is expected to FAIL.
CANNED_RESULT = {'ftracetest: Meta-selftest: Checkbashisms': 'UNRESOLVED',
                 'ftracetest: Kprobe dynamic event - adding and removing': 'UNSUPPORTED',
                 'kunit: ftrace_glob.needs_module': 'SKIP',
                 'kunit: ftrace_glob.needs_module (guest2)': 'SKIP'}


def known_line(entry):
    """A known-failures line: @entry is a name (its canned result), a
    (name, result) pair, or a line as it is."""
    if isinstance(entry, tuple):
        return '%s | %s | reason\n' % entry
    if '|' in entry:
        return entry + '\n'
    return '%s | %s | reason\n' % (entry, CANNED_RESULT.get(entry, 'FAIL'))


def guest_files(d):
    """What every canned guest leaves beside its results: a console
    with guest-init.sh's last taint line (0: not tainted)."""
    for g in [d] + [os.path.join(d, x) for x in os.listdir(d)
                    if x.startswith('guest')]:
        if os.path.isdir(g) and not os.path.exists(os.path.join(g, 'console.log')):
            with open(os.path.join(g, 'console.log'), 'w') as f:
                f.write('harness-guest: job exited with status 0\r\nfh-taint: 0\r\n')


def summarize_proc(d, known_lines, expected_boot='', timing=None, kunit='',
                   env_add=None):
    """summarize.py run on the guest in @d, @known_lines listed."""
    guest_files(d)
    known = os.path.join(d, 'known.txt')
    with open(known, 'w') as f:
        f.write(''.join(known_line(l) for l in known_lines))
    exp = os.path.join(d, 'expected-boot.txt')
    with open(exp, 'w') as f:
        f.write(expected_boot)
    expk = os.path.join(d, 'expected-kunit.txt')
    with open(expk, 'w') as f:
        f.write(kunit)
    env = dict(os.environ, FH_EXPECTED_BOOT=exp, FH_EXPECTED_KUNIT=expk,
               FH_VARIANT='ours', FH_ARCH='x86_64', PYTHONDONTWRITEBYTECODE='1',
               **(env_add or {}))
    if timing is not None:
        env['FH_TIMING_CASES'] = timing
    return subprocess.run([sys.executable, os.path.join(HERE, 'summarize.py'),
                           d, known, d], stdout=subprocess.PIPE, env=env,
                          universal_newlines=True)


def summarize_output(d, known_lines):
    """The whole summary of the guest in @d."""
    return summarize_proc(d, known_lines).stdout


def summarize_run(d, known_lines, expected_boot='', timing=None):
    """summarize.py's exit code and last line."""
    p = summarize_proc(d, known_lines, expected_boot, timing)
    return p.returncode, p.stdout.strip().splitlines()[-1]


RETRY_PASS = """\
=== Ftrace unit tests ===
[1] ftrace - function glob filters\t[PASS]

# of passed:  1
# of failed:  0
"""


def test_retries():
    """A listed timing case passes only if its second run passes."""
    nonpass = NONPASS[1:]       # the glob case must pass on its own
    with tempfile.TemporaryDirectory() as d:
        for name, text in (('dmesg.txt', DMESG), ('ftracetest.txt', FTRACETEST),
                           ('ftracetest-last.txt', FTRACETEST_LAST),
                           ('job.status', '0\n'),
                           ('timing.txt', 'ftrace/glob.tc | clock\n')):
            with open(os.path.join(d, name), 'w') as f:
                f.write(text)
        os.makedirs(os.path.join(d, 'test.d', 'ftrace'))
        with open(os.path.join(d, 'test.d', 'ftrace', 'glob.tc'), 'w') as f:
            f.write('# description: ftrace - function glob filters\n')
        timing = os.path.join(d, 'timing.txt')
        check('retries: failed, not run again: fails',
              summarize_run(d, nonpass, timing=timing),
              (1, '15 passed, 1 failed, 8 skipped'))
        with open(os.path.join(d, 'ftracetest-retry.txt'), 'w') as f:
            f.write(RETRY_PASS.replace('[PASS]', '[FAIL]'))
        check('retries: failed twice: fails',
              summarize_run(d, nonpass, timing=timing),
              (1, '15 passed, 1 failed, 8 skipped'))
        with open(os.path.join(d, 'ftracetest-retry.txt'), 'w') as f:
            f.write(RETRY_PASS)
        check('retries: failed, then passed: passes',
              summarize_run(d, nonpass, timing=timing),
              (0, '16 passed, 0 failed, 8 skipped'))


# Every non-PASS result of DMESG, FTRACETEST and FTRACETEST_LAST.
NONPASS = ['ftracetest: ftrace - function glob filters',
           'ftracetest: Meta-selftest: Checkbashisms',
           'ftracetest: Kprobe dynamic event - adding and removing',
           'boot: tracer wakeup', 'boot: tracer irqsoff',
           'boot: ftrace filter', 'boot: tracer wakeup_rt',
           'kunit: ftrace_glob.suffix_match',
           'kunit: ftrace_glob.needs_module']


def test_summary():
    """Only PASS passes unless listed; missing boot results fail."""
    nonpass = NONPASS
    with tempfile.TemporaryDirectory() as d:
        for name, text in (('dmesg.txt', DMESG), ('ftracetest.txt', FTRACETEST),
                           ('ftracetest-last.txt', FTRACETEST_LAST),
                           ('job.status', '0\n')):
            with open(os.path.join(d, name), 'w') as f:
                f.write(text)
        check('summary: everything non-PASS listed',
              summarize_run(d, nonpass), (0, '15 passed, 0 failed, 9 skipped'))
        check('summary: unlisted UNSUPPORTED and SKIP fail',
              summarize_run(d, nonpass[:2] + nonpass[3:8]),
              (1, '15 passed, 2 failed, 7 skipped'))
        check('summary: nothing listed',
              summarize_run(d, []), (1, '15 passed, 9 failed, 0 skipped'))
        check('summary: expected boot test without a result fails',
              summarize_run(d, nonpass, 'tracer function\ntracer missing\n'),
              (1, '15 passed, 1 failed, 9 skipped'))
        with open(os.path.join(d, 'dmesg.txt'), 'w') as f:
            f.write('\n'.join(l for l in DMESG.splitlines() if 'Testing' not in l) +
                    '\n[    0.100000] Ftrace startup test is disabled due to '
                    'running kprobe events\n')
        p = summarize_proc(d, nonpass, 'tracer function\ntracer missing\n')
        check('summary: self-tests the kernel disabled: one SKIP, its reason',
              (p.returncode, 'boot: startup self-tests [SKIP]: 2 did not run, '
               'the kernel disabled them: running kprobe events' in p.stdout,
               'no result' in p.stdout, p.stdout.strip().splitlines()[-1]),
              (1, True, False, '7 passed, 1 failed, 5 skipped'))
        with open(os.path.join(d, 'dmesg.txt'), 'w') as f:
            f.write(DMESG + '[    9.000000] Ftrace startup test is disabled '
                    'due to recovering from a hang\n')
        check('summary: disabled after some ran: the rest is one SKIP',
              summarize_run(d, nonpass, 'tracer function\ntracer missing\n'),
              (1, '15 passed, 1 failed, 9 skipped'))
        check('summary: disabled, none missing: nothing more',
              summarize_run(d, nonpass, 'tracer function\n'),
              (0, '15 passed, 0 failed, 9 skipped'))
        with open(os.path.join(d, 'dmesg.txt'), 'w') as f:
            f.write(DMESG)
        with open(os.path.join(d, 'ftracetest.txt'), 'w') as f:
            f.write(FTRACETEST.replace('[PASS]', '[UNSUPPORTED]'))
        check('summary: all-UNSUPPORTED ftracetest fails',
              summarize_run(d, nonpass)[0], 1)
        with open(os.path.join(d, 'ftracetest.txt'), 'w') as f:
            f.write(FTRACETEST)
        logs = os.path.join(d, 'ftracetest-logs')
        os.makedirs(logs)
        with open(os.path.join(logs, '2-glob.tc-log.Ab12Cd'), 'w') as f:
            f.write(''.join('+ line %d\n' % i for i in range(40)))
        with open(os.path.join(logs, '3-kprobe.tc-log.Ab12Cd'), 'w') as f:
            f.write('+ kprobe log\n')
        out = summarize_output(d, nonpass[1:])
        check('summary: a failed case shows the end of its log',
              ('2-glob.tc-log.Ab12Cd' in out, '    + line 39' in out,
               '    + line 14' in out, '    + line 15' in out,
               'kprobe log' in out),
              (True, True, False, True, False))
        out = summarize_output(d, nonpass)
        check('summary: a listed failure shows no log',
              '2-glob.tc-log' in out, False)
        os.remove(os.path.join(d, 'ftracetest-last.txt'))
        check('summary: missing last.d run fails',
              summarize_run(d, nonpass), (1, '14 passed, 1 failed, 9 skipped'))


KPROBE_ONLY = """\
=== Ftrace unit tests ===
[1] Kprobe dynamic event - probe points\t[PASS]

# of passed:  1
# of failed:  0
"""


def test_guests():
    """Two guests: boot tests from the first; the second's failures count."""
    nonpass = NONPASS
    # The second guest's boot skipped the tracer self-tests.
    dmesg2 = '\n'.join(l for l in DMESG.splitlines() if 'Testing' not in l)
    share2 = 'ftrace/a.tc livepatch/test-x.sh'
    lp = '[1] test-x.sh\t[PASS]\n\n# of passed:  1\n# of failed:  0\n'
    with tempfile.TemporaryDirectory() as d:
        files = {'guest1': (('dmesg-boot.txt', DMESG), ('dmesg.txt', ''),
                            ('ftracetest.txt', FTRACETEST),
                            ('ftracetest-last.txt', FTRACETEST_LAST),
                            ('job.sh', 'FH_TESTS="ftrace/b.tc"\nFH_LAST=1\n'),
                            ('job.status', '0\n')),
                 'guest2': (('dmesg-boot.txt', dmesg2), ('dmesg.txt', ''),
                            ('ftracetest.txt', KPROBE_ONLY),
                            ('livepatch.txt', lp),
                            ('job.sh', 'FH_TESTS="%s"\nFH_LAST=0\n' % share2),
                            ('job.status', '0\n'))}
        for g, pairs in files.items():
            os.mkdir(os.path.join(d, g))
            for name, text in pairs:
                with open(os.path.join(d, g, name), 'w') as f:
                    f.write(text)
        # guest2: 1 kprobe case + 1 livepatch; its KUnit failure and SKIP
        # are reported under its name, its PASSes are not.
        check('guests: second guest\'s results and KUnit failures count',
              summarize_run(d, nonpass + [
                  'kunit: ftrace_glob.suffix_match (guest2)',
                  'kunit: ftrace_glob.needs_module (guest2)']),
              (0, '17 passed, 0 failed, 11 skipped'))
        check('guests: second guest\'s KUnit failure unlisted fails',
              summarize_run(d, nonpass)[0], 1)
        with open(os.path.join(d, 'guest2', 'case-watchdog-error.txt'), 'w') as f:
            f.write('no temporary directory\n')
        check('guests: a guest whose case watchdog did not run fails',
              summarize_run(d, nonpass + [
                  'kunit: ftrace_glob.suffix_match (guest2)',
                  'kunit: ftrace_glob.needs_module (guest2)'])[0], 1)
        os.remove(os.path.join(d, 'guest2', 'case-watchdog-error.txt'))
        with open(os.path.join(d, 'shards.txt'), 'w') as f:
            f.write('ftrace/b.tc\n%s\nftrace/c.tc ftrace/d.tc\n' % share2)
        p = summarize_proc(d, nonpass + [
            'kunit: ftrace_glob.suffix_match (guest2)',
            'kunit: ftrace_glob.needs_module (guest2)'])
        check('guests: a guest of shards.txt that left no directory fails',
              (p.returncode, 'guest 3 of shards.txt left no results directory' in p.stdout),
              (1, True))
        os.remove(os.path.join(d, 'shards.txt'))
        os.remove(os.path.join(d, 'guest2', 'job.status'))
        check('guests: a guest that did not finish fails',
              summarize_run(d, nonpass + [
                  'kunit: ftrace_glob.suffix_match (guest2)',
                  'kunit: ftrace_glob.needs_module (guest2)'])[0], 1)


def test_watchdog():
    """case-watchdog.sh: a case listed in OWN_COSTS gets OWN_SCALE times
    that cost; the others SCALE times theirs in COSTS."""
    def run(own_cost, costs_cost, secs, children=False, nodev=False, env_add=None):
        with tempfile.TemporaryDirectory() as d:
            logs = os.path.join(d, 'logs')
            os.mkdir(logs)
            open(os.path.join(logs, '1-slow.tc-log.AbCdEf'), 'w').close()
            for name, cost in (('own', own_cost), ('costs', costs_cost)):
                with open(os.path.join(d, name), 'w') as f:
                    f.write('# seconds test\n')
                    if cost:
                        f.write('%d ftrace/slow.tc\n' % cost)
            # The stand-in for ftracetest: a shell and its child, the case.
            ft = subprocess.Popen(['sh', '-c', 'sleep %d; :' % secs],
                                  stderr=subprocess.DEVNULL)
            env = dict(os.environ, FH_CASE_FLOOR='0', FH_CASE_POLL='1',
                       **(env_add or {}))
            cmd = [os.path.join(GUEST, 'case-watchdog.sh'), str(ft.pid), logs,
                   d, os.path.join(d, 'costs'), '100',
                   os.path.join(d, 'own'), '1']
            if nodev:
                # The guest's /dev: a devtmpfs without /dev/fd.
                cmd = ['unshare', '-rm', 'sh', '-c',
                       'mount -t tmpfs none /dev && exec "$@"', 'sh'] + cmd
            wd = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
            if children:
                # Cases count forks (trigger-multihist.tc): a sleep or a
                # command substitution of the waiting loop shows up here.
                seen = []
                for _ in range(8):
                    time.sleep(0.4)
                    with open('/proc/%d/task/%d/children' %
                              (wd.pid, wd.pid)) as f:
                        seen += f.read().split()
                ft.wait()
                wd.wait()
                return seen
            try:
                ft.wait(timeout=secs + 5)
            except subprocess.TimeoutExpired:
                ft.kill()
                ft.wait()
            wd.wait()
            if os.path.exists(os.path.join(d, 'case-watchdog-error.txt')):
                return 'broken'
            try:
                with open(os.path.join(d, 'case-stopped.txt')) as f:
                    n, _, limit = f.read().strip().split('|')
                return n, limit
            except FileNotFoundError:
                return None

    # Listed in OWN_COSTS: 1 x 2 s, stopped (the stand-in sleeps 20 s).
    check('watchdog: own cost and scale', run(2, 1, 20), ('1', '2'))
    # Only in COSTS: 100 x 1 s, not reached in 5 s.
    check('watchdog: costs and scale', run(0, 1, 5), None)
    check('watchdog: no child while it waits', run(0, 1, 5, True), [])
    # A watchdog that cannot wait says so in a file the summary reads.
    check('watchdog: no FIFO, reported',
          run(2, 1, 3, env_add={'TMPDIR': '/nonexistent'}), 'broken')
    # The guest has no /dev/fd (a process substitution failed there and
    # left every case without a limit).
    if subprocess.run(['unshare', '-rm', 'true'],
                      stderr=subprocess.DEVNULL).returncode == 0:
        check('watchdog: runs without /dev/fd',
              run(2, 1, 20, nodev=True), ('1', '2'))
    else:
        print('SKIP watchdog: runs without /dev/fd: unshare -rm is not '
              'allowed here (no user namespaces)')


@contextlib.contextmanager
def qemu_stub(d, *args):
    """A QEMU x86_64 with two vCPUs and a gdb stub on a unix socket in d
    (more QEMU arguments in args), killed at the end: yields the socket."""
    sock = os.path.join(d, 'gdb.sock')
    q = subprocess.Popen([shutil.which('qemu-system-x86_64'), *args,
                          '-display', 'none', '-nodefaults', '-smp', '2',
                          '-gdb', 'unix:%s,server=on,wait=off' % sock],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if os.path.exists(sock):
                break
            time.sleep(0.1)
        yield sock
    finally:
        q.kill()
        q.wait()


def have_qemu_gdb(what):
    """Whether a real stub can be tried here; says SKIP if not."""
    if shutil.which('qemu-system-x86_64') and (shutil.which('gdb-multiarch') or
                                               shutil.which('gdb')):
        return True
    print('SKIP %s: a real stub: no QEMU or gdb here' % what)
    return False


def test_hang_dump():
    """hang-dump.sh: no stub is said, not an error; against a real stub
    (a QEMU stopped before its first instruction) three looks at every
    vCPU and no STALE line."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'dump.txt')
        p = subprocess.run([os.path.join(HOST, 'hang-dump.sh'),
                            os.path.join(d, 'none.sock'), '/nonexistent', out],
                           capture_output=True, text=True)
        check('hang-dump: no stub', (p.returncode, p.stdout,
                                     'no gdb stub' in open(out).read()),
              (0, '', True))
        if not have_qemu_gdb('hang-dump'):
            return
        with qemu_stub(d, '-S') as sock:
            p = subprocess.run([os.path.join(HOST, 'hang-dump.sh'), sock,
                                '/nonexistent', out],
                               capture_output=True, text=True)
            text = open(out).read()
            check('hang-dump: a real stub',
                  (p.returncode, p.stdout, text.count('=== look'),
                   text.count('--- vCPU 0:'), text.count('--- vCPU 1:'),
                   'Traceback' in text),
                  (0, '', 3, 3, 3, False))


def test_kernel_offset():
    """kernel-offset.sh: the distance KASLR moved _text, as gdb takes it;
    nothing when the guest hid its addresses or wrote none."""
    with tempfile.TemporaryDirectory() as d:
        smap = os.path.join(d, 'System.map')
        text = os.path.join(d, 'kernel-text.txt')
        with open(smap, 'w') as f:
            f.write('ffffffff81000000 T _stext\nffffffff81000000 T _text\n')

        def offset(runtime):
            if runtime is None:
                if os.path.exists(text):
                    os.unlink(text)
            else:
                with open(text, 'w') as f:
                    f.write(runtime + '\n')
            p = subprocess.run([os.path.join(HOST, 'kernel-offset.sh'),
                                smap, text], capture_output=True, text=True)
            return p.returncode, p.stdout.strip()
        check('kernel-offset: moved',
              [offset('ffffffffa9000000'), offset('ffffffff81000000'),
               offset('0000000000000000'), offset(None), offset('zz')],
              [(0, '0x28000000'), (0, '0x0'), (0, ''), (0, ''), (0, '')])


def test_stale_watch():
    """stale-watch.sh: without a System.map it says so and stops; against
    a real stub (a QEMU running its firmware) it looks, finds no int3 at
    the made-up entry, prints no STALE line and goes at once when told."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, 'watch.txt')
        p = subprocess.run([os.path.join(HOST, 'stale-watch.sh'),
                            os.path.join(d, 'none.sock'), '/nonexistent', log],
                           capture_output=True, text=True)
        check('stale-watch: no System.map', (p.returncode, p.stdout,
                                             'not watching' in open(log).read()),
              (0, '', True))
        if not have_qemu_gdb('stale-watch'):
            return
        smap = os.path.join(d, 'System.map')
        with open(smap, 'w') as f:
            f.write('00000000000f0000 T asm_exc_int3\n')
        with qemu_stub(d) as sock:
            env = dict(os.environ, FH_STALE_POLL='1', FH_STALE_DEBUG='1')
            w = subprocess.Popen([os.path.join(HOST, 'stale-watch.sh'), sock,
                                  smap, log], env=env)
            time.sleep(6)
            w.terminate()
            t0 = time.time()
            w.wait()
            text = open(log).read()
            check('stale-watch: a real stub',
                  ('no int3 within' in text, 'STALE' in text,
                   'Traceback' in text, time.time() - t0 < 5),
                  (True, False, False, True))


def test_bench_report():
    """The boot set-up row: boot-count.txt first, else the boot log."""
    with tempfile.TemporaryDirectory() as d:
        def boot(name, dmesg, count=None):
            b = os.path.join(d, name)
            os.mkdir(b)
            with open(os.path.join(b, 'bench.txt'), 'w') as f:
                f.write('release 6.1\nsyscall_ns 24320000\nrw_none_ns 13158000\n'
                        'records 20000\ntotal_info 20000 pages:40\n')
            with open(os.path.join(b, 'dmesg.txt'), 'w') as f:
                f.write(dmesg)
            if count is not None:
                with open(os.path.join(b, 'boot-count.txt'), 'w') as f:
                    f.write('boot_setup_insns %d\n' % count)
            return b
        ours = boot('o', '[    0.0] ftrace: 20000 call sites set up in 380 us\n',
                    373557)
        stock = boot('s', '[    0.1] ftrace: allocating 20000 entries\n'
                     '[    0.1048] ftrace: allocated 80 pages with 3 groups\n')
        none = boot('n', '[    0.0] ftrace: allocating 20000 entries\n'
                    '[    0.0] ftrace: allocated 80 pages with 3 groups\n'
                    '[    0.0] ftrace: allocating again\n')
        out = subprocess.run([os.path.join(HERE, 'bench-report.py'),
                              'ours=' + ours, 'stock=' + stock, 'floor=' + none],
                             capture_output=True, text=True)
        row = [l.split() for l in out.stdout.splitlines()
               if l.startswith('boot set-up')]
        check('bench-report: boot set-up from boot-count.txt, else the log',
              (out.returncode, row[0][4:7] if row else None),
              (0, ['373.6', '4800.0', '-']))


def planted(files):
    """A temporary guest directory holding the canned clean run (every
    non-PASS result listed passes) with @files laid over it; a None
    text removes the file."""
    d = tempfile.mkdtemp()
    base = {'dmesg.txt': DMESG, 'ftracetest.txt': FTRACETEST,
            'ftracetest-last.txt': FTRACETEST_LAST, 'job.status': '0\n',
            'console.log': 'harness-guest: job exited with status 0\r\nfh-taint: 0\r\n',
            'test.d/ftrace/gone.tc': '# description: ftrace - a case of the tree '
            'that did not run\n',
            'test.d/ftrace/other.tc': '# description: ftrace - another case\n'}
    base.update(files)
    for name, text in base.items():
        if text is None:
            continue
        os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
        with open(os.path.join(d, name), 'w') as f:
            f.write(text)
    return d


def audit(name, files, known=(), want_rc=1, expect=(), kunit='', env_add=None):
    """summarize.py on a planted guest: its exit status, and each of
    @expect in its FAILED section (or, want_rc 0, in its output)."""
    d = planted(files)
    mine = {k[0] for k in known if isinstance(k, tuple)}
    try:
        p = summarize_proc(d, [n for n in NONPASS if n not in mine] + list(known),
                           kunit=kunit, env_add=env_add)
    finally:
        shutil.rmtree(d)
    out = p.stdout
    failed = out.split('\nFAILED:\n', 1)[1] if '\nFAILED:\n' in out else ''
    where = failed if want_rc else out
    got = (p.returncode, [e for e in expect if e not in where])
    check('audit: ' + name, got, (want_rc, []))
    if got != (want_rc, []):
        print(out)


def test_audit():
    """Each hole the verdict once had, planted: each must fail the run."""
    audit('the planted clean run passes', {}, want_rc=0,
          expect=['15 passed, 0 failed, 9 skipped'])
    # The kernel log: die() lines of x86's traps and SLUB's BUG, which
    # say neither Oops nor 'BUG:'.
    for what, line in (('die line (invalid opcode)', 'invalid opcode: 0000 [#1] PREEMPT SMP'),
                       ('die line (int3)', 'int3: 0000 [#1] PREEMPT SMP'),
                       ('die line (general protection fault)',
                        'general protection fault, probably for non-canonical '
                        'address 0xdead4ead00000170: 0000 [#1] PREEMPT SMP'),
                       ('SLUB BUG', 'BUG kmalloc-64 (Not tainted): Redzone overwritten'),
                       ('SLUB BUG, tainted', 'BUG kmalloc-64 (Tainted: G        W ): '
                        'Poison overwritten')):
        with tempfile.NamedTemporaryFile('w', suffix='.log') as f:
            f.write('[    1.000000] all fine\n[    5.100000] %s\n' % line)
            f.flush()
            p = subprocess.run([os.path.join(HERE, 'logscan.sh'), f.name],
                               stdout=subprocess.PIPE, universal_newlines=True)
            check('logscan: %s is reported' % what,
                  (p.returncode, p.stdout.strip()), (1, '[    5.100000] ' + line))
    die = '[    5.100000] invalid opcode: 0000 [#1] PREEMPT SMP\n'
    audit('a die line fails', {'log-problems.txt': die},
          expect=['guest: kernel log free of'])
    audit('a die line fails, whatever a waiver says', {'log-problems.txt': die},
          known=['waive: invalid opcode | planted'],
          expect=['guest: kernel log free of'])
    audit('a SLUB BUG line fails', {'log-problems.txt':
          '[    6.0] BUG kmalloc-64 (Not tainted): Redzone overwritten\n'},
          expect=['guest: kernel log free of'])
    # Taint at the end of the guest.
    audit('D taint fails', {'console.log': 'fh-taint: 128\r\n'},
          expect=['tainted 128: D (died)'])
    audit('B taint fails', {'console.log': 'fh-taint: 32\r\n'},
          expect=['tainted 32: B (bad page)'])
    audit('W taint alone passes (the log scan judges warnings)',
          {'console.log': 'fh-taint: 512\r\n'}, want_rc=0,
          expect=['15 passed, 0 failed, 9 skipped'])
    audit('every fh-taint line counts (the kexec step leaves one per kernel)',
          {'console.log': 'fh-taint: 0\r\nfh-taint: 160\r\n'},
          expect=['tainted 160: D (died), B (bad page)'])
    audit('a D taint before kexec fails, though the next kernel is clean',
          {'console.log': 'fh-taint: 128\r\nfh-taint: 0\r\n'},
          expect=['tainted 128: D (died)'])
    # The kexec step: its result counts, and a job that asked for it
    # must have one.
    kexec = '[1] kexec -e boots the same kernel\t[%s]\n\n# of passed:  %d\n# of failed:  %d\n'
    audit('the kexec step\'s PASS counts', {'job.sh': 'FH_KEXEC=1\n',
          'kexec.txt': kexec % ('PASS', 1, 0)}, want_rc=0,
          expect=['16 passed, 0 failed, 9 skipped'])
    audit('the kexec step\'s FAIL fails', {'job.sh': 'FH_KEXEC=1\n',
          'kexec.txt': kexec % ('FAIL', 0, 1)},
          expect=['kexec: kexec -e boots the same kernel'])
    audit('a job that asked for the kexec step and has no result fails',
          {'job.sh': 'FH_KEXEC=1\n'},
          expect=['asked for the kexec step and no boot left its result'])
    audit('a missing taint line fails', {'console.log': 'harness-guest: job exited\r\n'},
          expect=['no "fh-taint: N" line'])
    audit('a guest that died before its taint line fails for both',
          {'console.log': '[    5.0] Kernel panic - not syncing\r\n', 'job.status': None,
           'dmesg.txt': None, 'dmesg-boot.txt': DMESG},
          expect=['no "fh-taint: N" line', 'guest job did not finish',
                  'guest left no dmesg.txt'])
    # Known failures: each names its result; a stale one fails.
    audit('a known failure that passes now fails, named',
          {}, known=[('ftracetest: Basic trace file check', 'FAIL')],
          expect=['known-failures: ftracetest: Basic trace file check [STALE]: '
                  'listed as FAIL, PASSED now'])
    audit('a known failure that never ran fails, named',
          {}, known=[('ftracetest: ftrace - a case of the tree that did not run', 'FAIL')],
          expect=['known-failures: ftracetest: ftrace - a case of the tree that did '
                  'not run [STALE]: listed as FAIL, did not run at all'])
    audit('a known failure of no case fails, named',
          {}, known=[('ftracetest: ftrace - no such case', 'FAIL')],
          expect=['known-failures: ftracetest: ftrace - no such case [STALE]'])
    audit('a known failure outside a subset run is not checked',
          {'job.sh': 'FH_TESTS="ftrace/other.tc"\nFH_LAST=1\n'},
          known=[('ftracetest: ftrace - a case of the tree that did not run', 'FAIL')],
          want_rc=0, expect=['not checked (this run did not select them',
                             '    ftracetest: ftrace - a case of the tree that did not run'])
    audit('a known failure inside a subset run that did not run fails',
          {'job.sh': 'FH_TESTS="ftrace/gone.tc"\nFH_LAST=1\n'},
          known=[('ftracetest: ftrace - a case of the tree that did not run', 'FAIL')],
          expect=['[STALE]: listed as FAIL, did not run at all'])
    audit('a known failure with the wrong expected result fails',
          {}, known=[('ftracetest: ftrace - function glob filters', 'UNRESOLVED')],
          expect=['ftracetest: ftrace - function glob filters [FAIL]: '
                  'the known-failures entry expects UNRESOLVED'])
    audit('an old-style entry (no result) fails, named', {},
          known=['ftracetest: ftrace - another case | a reason'],
          expect=["known-failures: ftracetest: ftrace - another case | a reason [STALE]: "
                  "an entry is 'NAME | RESULT | reason'"])
    audit('an entry with an unknown result word fails', {},
          known=[('ftracetest: ftrace - another case', 'BROKEN')],
          expect=["is not one of FAIL, UNRESOLVED"])
    # Log waivers: by pattern, only the lines they match.
    warn = ('[    7.0] WARNING: CPU: 0 PID: 9 at kernel/tracepoint.c:406 '
            'tracepoint_probe_unregister+0x1f/0x30\n')
    other = '[    8.0] WARNING: CPU: 1 PID: 9 at kernel/foo.c:1 foo+0x1/0x2\n'
    tp = r'waive: WARNING: .* at kernel/tracepoint\.c:\d+ tracepoint_probe_unregister | planted'
    audit('a waived warning passes', {'log-problems.txt': warn}, known=[tp],
          want_rc=0, expect=['waived by', '15 passed, 0 failed, 9 skipped'])
    audit('an unwaived stock warning fails', {'log-problems.txt': warn + other},
          known=[tp], expect=['guest: kernel log free of', '1 line(s) not waived'])
    audit('the old name-wide log waiver fails, named', {'log-problems.txt': warn},
          known=['guest: kernel log free of oops/BUG/WARNING/lockdep/stall/hung task '
                 '| FAIL | everything'],
          expect=['[STALE]: cannot be listed', 'guest: kernel log free of'])
    # KUnit suites that print nothing.
    audit('a missing KUnit suite fails', {}, kunit='ftrace_glob\nftrace_rec ours\n',
          expect=['kunit: ftrace_rec [FAIL]: no result in the kernel log'])
    audit('KUnit suites of another variant or arch are not expected', {},
          kunit='ftrace_glob ours\nftrace_hash x86_64\nfprobe_test arm64\n'
          'ftrace_rec stock\n', want_rc=0, expect=['15 passed, 0 failed, 9 skipped'])
    # Livepatch kselftests of a share that reported nothing (a kernel
    # without /sys/kernel/livepatch once left them so).
    audit('livepatch kselftests with no result fail',
          {'job.sh': 'FH_TESTS="livepatch/test-ftrace.sh livepatch/test-state.sh"\n'
                     'FH_LAST=1\n'},
          expect=['livepatch: test-ftrace.sh [FAIL]: in this guest\'s share, no result',
                  'livepatch: test-state.sh [FAIL]'])
    audit('livepatch kselftests reported UNSUPPORTED and listed pass',
          {'job.sh': 'FH_TESTS="livepatch/test-ftrace.sh"\nFH_LAST=1\n',
           'livepatch.txt': '[1] test-ftrace.sh\t[UNSUPPORTED]\n\n# of passed:  0\n'
                            '# of failed:  0\n# of unsupported:  1\n'},
          known=[('livepatch: test-ftrace.sh', 'UNSUPPORTED')], want_rc=0,
          expect=['15 passed, 0 failed, 10 skipped'])
    # The lists in known-failures/ all parse.
    kdir = os.path.join(DATA, 'known-failures')
    for fn in sorted(os.listdir(kdir)):
        known, waivers, bad = summarize.load_known(os.path.join(kdir, fn))
        check('known-failures/%s parses' % fn, (bool(known or waivers), bad), (True, []))


KVM_ERROR = """\
KVM internal error. Suberror: 1
extra data[0]: 0x0000000000000000
extra data[1]: 0x0000000000000030
emulation failure
RAX=0000000000000000 RBX=ffffffff82a03e40 RCX=0000000000000000
"""

# A stand-in for qemu-system-x86_64: a boot under "-accel kvm" prints
# $FAKE_KVM (QEMU's KVM internal error, or nothing) and stops, as QEMU
# does (it pauses the guest); under TCG it "runs the job": the lines of
# guest-init.sh and the files a finished job leaves.
FAKE_QEMU = r"""#!/bin/bash
[ "$1" = --version ] && { echo "QEMU emulator version 7.2.0"; exit 0; }
out="" pidfile="" kvm=0 probe=1
while [ $# -gt 0 ]; do
	case $1 in
	-pidfile) pidfile=$2; shift ;;
	-accel) [ "${2%%,*}" = kvm ] && kvm=1; shift ;;
	-kernel) probe=0; shift ;;
	-fsdev) case $2 in *id=fhout,path=*) out=${2#*id=fhout,path=}; out=${out%%,*} ;; esac; shift ;;
	esac
	shift
done
[ -n "$pidfile" ] && echo $$ > "$pidfile"
echo "$(date +%s) kvm=$kvm probe=$probe" >> "$FAKE_LOG"
if [ $probe = 1 ]; then exec sleep 30; fi
if [ $kvm = 1 ]; then
	printf '%s' "$FAKE_KVM" >&2
	exec sleep 300
fi
echo "harness-guest: kernel 6.1.0-ours, 2 CPUs online, running /tmp/out/job.sh"
echo 0 > "$out/job.status"
: > "$out/dmesg.txt"
echo "fh-taint: 0"
"""


def test_accel():
    """accel.sh: FH_ACCEL forces an accelerator; the verdict on planted
    QEMU outputs; qemu-run.sh on a stand-in QEMU falls back to TCG."""
    acc = os.path.join(HOST, 'accel.sh')

    def choose(accel, arch='x86_64', icount='0', dev='/nonexistent'):
        env = dict(os.environ, FH_KVM_DEV=dev)
        env.pop('FH_ACCEL', None)
        if accel is not None:
            env['FH_ACCEL'] = accel
        p = subprocess.run([acc, 'choose', arch, icount], env=env,
                           capture_output=True, text=True)
        return p.returncode, p.stdout.strip()
    check('accel: FH_ACCEL=tcg', choose('tcg'), (0, 'tcg'))
    check('accel: FH_ACCEL=kvm', choose('kvm'), (0, 'kvm'))
    check('accel: FH_ACCEL=kvm on arm64 refused', choose('kvm', 'arm64')[0], 2)
    check('accel: FH_ACCEL=kvm with -icount refused', choose('kvm', icount='1')[0], 2)
    check('accel: FH_ACCEL=bogus refused', choose('bogus')[0], 2)
    check('accel: no /dev/kvm: tcg', choose(None), (0, 'tcg'))
    check('accel: arm64 auto: tcg', choose('auto', 'arm64'), (0, 'tcg'))

    def verdict(text, idle, env_add=None):
        with tempfile.NamedTemporaryFile('w', suffix='.log') as f:
            f.write(text)
            f.flush()
            p = subprocess.run([acc, 'verdict', f.name, str(idle)],
                               env=dict(os.environ, **(env_add or {})),
                               capture_output=True, text=True)
            return p.returncode, p.stdout.strip()
    boot = '[    0.000000] Linux version 6.1.0-ours\r\n'
    job = boot + 'harness-guest: kernel 6.1.0-ours, 2 CPUs online\r\n'
    rc, why = verdict(boot + KVM_ERROR, 0)
    check('accel: KVM internal error: rerun under TCG',
          (rc, 'KVM internal error. Suberror: 1' in why), (1, True))
    rc, why = verdict(job + '[1] a case\t[PASS]\r\n' + KVM_ERROR, 0)
    check('accel: KVM internal error after the job started: rerun', rc, 1)
    rc, why = verdict('error: kvm run failed Bad address\n', 0)
    check('accel: kvm run failed: rerun', rc, 1)
    rc, why = verdict(boot, 61)
    check('accel: no console progress for a minute: rerun',
          (rc, 'no console progress under KVM for 61s' in why), (1, True))
    check('accel: a quiet 59 s: goes on', verdict(boot, 59), (0, ''))
    check('accel: an empty console for a minute: rerun', verdict('', 60)[0], 1)
    check('accel: quiet once the job runs: goes on', verdict(job, 600), (0, ''))
    check('accel: FH_KVM_STALL', verdict(boot, 10, {'FH_KVM_STALL': '5'})[0], 1)
    check('accel: a clean boot: goes on', verdict(job, 1), (0, ''))

    # qemu-run.sh itself, on the stand-in QEMU (no guest boots).
    with tempfile.TemporaryDirectory() as d:
        qdir = os.path.join(d, 'bin')
        os.mkdir(qdir)
        fake = os.path.join(qdir, 'qemu-system-x86_64')
        with open(fake, 'w') as f:
            f.write(FAKE_QEMU)
        os.chmod(fake, 0o755)
        kvm = os.path.join(d, 'kvm')
        open(kvm, 'w').close()
        kernel = os.path.join(d, 'bzImage')
        open(kernel, 'w').close()
        jobf = os.path.join(d, 'job')
        with open(jobf, 'w') as f:
            f.write('true\n')

        def run(name, fake_kvm, env_add=None):
            out = os.path.join(d, name)
            env = dict(os.environ, FH_QEMU_DIR=qdir, FH_KVM_DEV=kvm, FH_ARCH='x86_64',
                       FH_KVM_STALL='4', FAKE_KVM=fake_kvm,
                       FAKE_LOG=os.path.join(d, name + '.qemu'),
                       FH_VMLINUX='/nonexistent', **(env_add or {}))
            env.pop('FH_ACCEL', None)
            env.update(env_add or {})
            t0 = time.time()
            p = subprocess.run([os.path.join(HOST, 'qemu-run.sh'), '-k', kernel,
                                '-o', out, '-j', jobf, '-t', '120'],
                               env=env, capture_output=True, text=True)
            boots = open(env['FAKE_LOG']).read().split('\n')
            return p, out, [b.split(' ', 1)[1] for b in boots if b], time.time() - t0
        p, out, boots, secs = run('interr', KVM_ERROR)
        said = [l for l in p.stdout.splitlines() if 'booting again under TCG' in l]
        check('qemu-run: a KVM internal error: killed, booted again under TCG',
              (p.returncode, boots, len(said), said and 'KVM internal error' in said[0],
               os.path.exists(os.path.join(out, 'console-kvm.log')),
               os.path.exists(os.path.join(out, 'accel.txt')), secs < 60),
              (0, ['kvm=1 probe=1', 'kvm=1 probe=0', 'kvm=0 probe=0'], 1, True,
               True, True, True))
        if p.returncode:
            print(p.stdout, p.stderr)
        p, out, boots, secs = run('stall', '')
        said = [l for l in p.stdout.splitlines() if 'booting again under TCG' in l]
        check('qemu-run: no console progress under KVM: booted again under TCG',
              (p.returncode, boots, len(said),
               said and 'no console progress under KVM' in said[0]),
              (0, ['kvm=1 probe=1', 'kvm=1 probe=0', 'kvm=0 probe=0'], 1, True))
        p, out, boots, secs = run('forced', KVM_ERROR, {'FH_ACCEL': 'tcg'})
        check('qemu-run: FH_ACCEL=tcg: no KVM at all',
              (p.returncode, boots, 'accel=tcg' in p.stdout), (0, ['kvm=0 probe=0'], True))


def test_layout():
    """The harness's folders: what each script finds by a path relative
    to its own resolves to a file (the guest sees the same paths: x86_64
    boots the host's root, arm64 mounts the repository at its path)."""
    top = os.path.dirname(os.path.dirname(os.path.dirname(HARNESS)))
    for path in (os.path.join(GUEST, 'guest-init.sh'),           # qemu-run.sh's init=
                 os.path.join(GUEST, 'job-check.sh'),            # check-guests.sh
                 os.path.join(GUEST, 'job-boots.sh'),            # boot-loop.sh
                 os.path.join(GUEST, 'case-watchdog.sh'),        # job-check.sh
                 os.path.join(HARNESS, 'report', 'logscan.sh'),  # job-check.sh, qemu-run.sh
                 os.path.join(HARNESS, 'data', 'timing-cases.txt'),  # job-check.sh
                 os.path.join(HOST, 'accel.sh'), os.path.join(HOST, 'hang-dump.sh'),
                 os.path.join(HOST, 'stale-watch.sh'),
                 os.path.join(top, 'tools/testing/selftests/ftrace/test.d/ftrace/fh-lib.sh')):
        check('layout: %s exists' % os.path.relpath(path, top), os.path.exists(path), True)
    # Each script's relative paths, resolved as the script resolves them.
    for script, expr, want in (
            ('guest/job-check.sh', r'FH_LOGSCAN=\$\(cd "\$\(dirname "\$\{BASH_SOURCE\[0\]\}"\)(/[^"]*)" && pwd\)(/\S+)',
             'report/logscan.sh'),
            ('guest/job-check.sh', r'list=\$\(dirname "\$\{BASH_SOURCE\[0\]\}"\)(/\S+)()',
             'data/timing-cases.txt'),
            ('host/check-guests.sh', r'"\$\(cd "\$here(/[^"]*)" && pwd\)(/[^"]+)"',
             'guest/job-check.sh'),
            ('host/boot-loop.sh', r'cat "\$here(/[^"]+)"()', 'guest/job-boots.sh'),
            ('host/qemu-run.sh', r'init=\$harness(/\S+)()', 'guest/guest-init.sh'),
            ('host/qemu-run.sh', r'"\$harness(/report/logscan\.sh)"()', 'report/logscan.sh')):
        text = open(os.path.join(HARNESS, script)).read()
        m = re.search(expr, text)
        base = os.path.dirname(os.path.join(HARNESS, script))
        if 'harness' in expr:
            base = HARNESS
        got = (os.path.relpath(os.path.normpath(base + m.group(1) + m.group(2)), HARNESS)
               if m else None)
        check('layout: %s finds %s' % (script, want), got, want)
    # guest-init.sh finds the repository from its own path.
    init = os.path.join(GUEST, 'guest-init.sh')
    line = [l for l in open(init) if l.startswith('top=${0%')][0]
    p = subprocess.run(['bash', '-c', line + 'echo "$top"', init],
                       capture_output=True, text=True)
    check('layout: guest-init.sh finds the repository', p.stdout.strip(), top)
    # rootfs.sh: a root made before the move gets an init that runs
    # guest/guest-init.sh, without a rebuild.
    with tempfile.TemporaryDirectory() as d:
        root = os.path.join(d, 'root')
        os.mkdir(root)
        text = open(os.path.join(HOST, 'rootfs.sh')).read()
        pkgs = ' '.join(re.search(r'pkgs="([^"]*)"', text).group(1).split())
        ver = re.search(r'stamp="\$arch\|\$top\|\$\(echo \$pkgs\)\|(\d+)"', text).group(1)
        with open(os.path.join(root, '.fh-stamp'), 'w') as f:
            f.write('arm64|%s|%s|%s\n' % (top, pkgs, ver))
        with open(os.path.join(root, 'fh-init'), 'w') as f:
            f.write('exec /bin/bash %s/tools/testing/ftrace-harness/guest-init.sh\n' % top)
        p = subprocess.run([os.path.join(HOST, 'rootfs.sh'), 'arm64', root, top],
                           capture_output=True, text=True)
        new = open(os.path.join(root, 'fh-init')).read()
        check('layout: rootfs.sh rewrites an old root\'s init',
              (p.returncode, 'exec /bin/bash %s/tools/testing/ftrace-harness/guest/'
               'guest-init.sh' % top in new, os.access(os.path.join(root, 'fh-init'), os.X_OK)),
              (0, True, True))


# The boot self-tests and KUnit results of DMESG that are not PASS: the
# crash cases' first guest boots with that log.
BOOT_NONPASS = [n for n in NONPASS if not n.startswith('ftracetest: ')]
CRASH_CASES = {'a': '', 'b': '', 'c': '', 'd': ''}
OOPS = ('[   20.100000] BUG: kernel NULL pointer dereference, address: 0000000000000008\n'
        '[   20.100000] #PF: supervisor read access in kernel mode\n'
        '[   20.100000] Oops: 0000 [#1] PREEMPT SMP NOPTI\n'
        '[   20.100000] CPU: 1 PID: 812 Comm: ftracetest Not tainted 6.12.0 #1\n'
        '[   20.100000] RIP: 0010:trace_fprobe_release+0x1b/0x50\n')
# What logscan.sh makes of OOPS.
OOPS_PROBLEMS = ('[   20.100000] BUG: kernel NULL pointer dereference, address: '
                 '0000000000000008\n[   20.100000] Oops: 0000 [#1] PREEMPT SMP NOPTI\n')
OOPS_WHY = ('the kernel died in it: BUG: kernel NULL pointer dereference, address: '
            '0000000000000008; RIP: 0010:trace_fprobe_release+0x1b/0x50')
OOPS_WAIVE = (r'waive: BUG: kernel NULL pointer dereference | planted: the crash' + '\n' +
              r'waive: Oops: 0000 \[#1\] | planted: the crash')
JOB_START = 'harness-guest: kernel 6.12.0, 2 CPUs online, running /tmp/out/job.sh\n'


def crash_tree(d, flags=None, last=False):
    """Cases a, b, c, d (ftrace/X.tc, 'crash - case X') under @d as an
    ftracetest directory; @flags: case -> its '# flags:' line; @last: a
    last.d case."""
    for c in 'abcd':
        os.makedirs(os.path.join(d, 'test.d', 'ftrace'), exist_ok=True)
        with open(os.path.join(d, 'test.d', 'ftrace', c + '.tc'), 'w') as f:
            f.write('#!/bin/sh\n# description: crash - case %s\n' % c.upper())
            if flags and c in flags:
                f.write('# flags: %s\n' % flags[c])
    if last:
        os.makedirs(os.path.join(d, 'last.d'), exist_ok=True)
        with open(os.path.join(d, 'last.d', 'anomaly.tc'), 'w') as f:
            f.write('#!/bin/sh\n# description: crash - the last case\n')


def crash_results(cases, cut=None):
    """ftracetest.txt of @cases ((letter, result or None), in order, an
    instance run as 'a+'), cut short after the first without a result,
    or with its totals."""
    lines = []
    for n, (c, res) in enumerate(cases, 1):
        inst = ' (instance) ' if c.endswith('+') else ''
        line = '[%d]%s crash - case %s' % (n, inst, c[0].upper())
        if res is None:
            return '\n'.join(lines + [line]) + '\n'
        lines.append(line + '\t[%s]' % res)
    return '\n'.join(lines) + '\n\n# of passed:  %d\n# of failed:  %d\n' % (
        sum(r == 'PASS' for _, r in cases), sum(r == 'FAIL' for _, r in cases))


def starts(*cases):
    """Console start lines of ftracetest cases ('a', an instance run 'a+')."""
    return ''.join('[   %d.000000] ftrace-harness: start ftracetest %d %stest.d/ftrace/%s.tc\n' %
                   (n, n, ' (instance) ' if c.endswith('+') else '', c[0])
                   for n, c in enumerate(cases, 1))


def crash_boot(d, name, tests, files, last=0):
    """A boot's directory @name under @d, its job's FH_TESTS @tests (the
    letters of ftrace/X.tc, or a list as it is), and @files."""
    g = os.path.join(d, name)
    os.makedirs(g)
    if isinstance(tests, str):
        tests = ' '.join('ftrace/%s.tc' % c for c in tests) or 'none'
    with open(os.path.join(g, 'job.sh'), 'w') as f:
        f.write('FH_FTRACETEST=%s\nFH_TESTS="%s"\nFH_LAST=%d\n' % (d, tests, last))
    for fn, text in files.items():
        with open(os.path.join(g, fn), 'w') as f:
            f.write(text)
    return g


def finished(ft, console=''):
    """The files of a boot that got to the end of its job."""
    return {'ftracetest.txt': ft, 'job.status': '0\n', 'dmesg.txt': '',
            'console.log': JOB_START + console + 'fh-taint: 0\n'}


def remaining(g, ftdir):
    """host/remaining.py on the boot in @g: exit status and its lines."""
    p = subprocess.run([sys.executable, os.path.join(HOST, 'remaining.py'), g, ftdir],
                       capture_output=True, text=True,
                       env=dict(os.environ, PYTHONDONTWRITEBYTECODE='1'))
    return p.returncode, p.stdout.splitlines(), p.stderr


def test_crash():
    """A guest whose kernel died in a case: which case, what is left, and
    the summary of its boots."""
    with tempfile.TemporaryDirectory() as d:
        crash_tree(d)
        # The first boot died in case 2 of 4 (b); the second ran c and d.
        g1 = crash_boot(d, 'guest1', 'abcd', {
            'dmesg-boot.txt': DMESG, 'console.log': JOB_START + starts('a', 'b') + OOPS,
            'ftracetest.txt': crash_results([('a', 'PASS'), ('b', None)]),
            'log-problems.txt': OOPS_PROBLEMS,
            'runner.txt': 'qemu-run.sh: FAIL: guest did not finish its job\n'})
        check('crash: remaining.py: the case after the one it died in',
              remaining(g1, d)[:2],
              (0, ['ftrace/c.tc ftrace/d.tc', '0',
                   'died in ftrace/b.tc: crash - case B: ' + OOPS_WHY]))
        os.makedirs(os.path.join(g1, 'ftracetest-logs'))
        with open(os.path.join(g1, 'ftracetest-logs', '2-b.tc-log.AbCdEf'), 'w') as f:
            f.write('+ echo\n+ the command the kernel died in\n')
        crash_boot(d, 'guest1.boot2', 'cd', finished(
            crash_results([('c', 'PASS'), ('d', 'PASS')]), starts('c', 'd')))
        check('crash: remaining.py: a boot that finished: no more',
              remaining(os.path.join(d, 'guest1.boot2'), d)[0], 1)
        # Died in the kexec step, after its tests: last.d is left.
        crash_tree(d, last=True)
        gk = crash_boot(d, 'guestk', 'ab', {
            'console.log': JOB_START + starts('a', 'b') +
            '[   3.000000] ftrace-harness: start harness 1 kexec\n',
            'ftracetest.txt': crash_results([('a', 'PASS'), ('b', 'PASS')])}, last=1)
        got = remaining(gk, d)
        check('crash: remaining.py: died in the kexec step: last.d is left',
              (got[0], got[1][:2], got[1][2].startswith("died: it died in the harness's kexec step")),
              (0, ['none', '1'], True))
        shutil.rmtree(gk)
        shutil.rmtree(os.path.join(d, 'last.d'))
        p = summarize_proc(d, BOOT_NONPASS)
        table = [l for l in p.stdout.splitlines() if re.match(r'^\S+ +ftracetest: crash', l)]
        check('crash: died in case 2 of 4: CRASH, the rest from the next boot',
              (p.returncode, table),
              (1, ['PASS              ftracetest: crash - case A',
                   'CRASH             ftracetest: crash - case B',
                   'PASS              ftracetest: crash - case C',
                   'PASS              ftracetest: crash - case D']))
        check('crash: the end of the log of the case it died in',
              ('Last lines of the log of ftracetest: crash - case B' in p.stdout,
               '    + the command the kernel died in' in p.stdout), (True, True))
        check('crash: the reason names the oops and the boots',
              '    ftracetest: crash - case B [CRASH]: %s (guest1; its share went on '
              'in guest1.boot2)' % OOPS_WHY in p.stdout, True)
        failed = p.stdout.split('\nFAILED:\n', 1)[-1]
        check('crash: unlisted, its boot\'s log, taint and end fail too',
              ('guest: kernel log free of' in failed,
               'guest1: no "fh-taint: N" line' in failed,
               'guest job did not finish (status missing)' in failed,
               'guest1.boot2' in failed.replace('in guest1.boot2)', '')),
              (True, True, True, False))
        listed = BOOT_NONPASS + [('ftracetest: crash - case B', 'CRASH'), OOPS_WAIVE]
        p = summarize_proc(d, listed)
        check('crash: listed with CRASH and its log waived: skipped, the rest counts',
              (p.returncode, p.stdout.strip().splitlines()[-1],
               '    ftracetest: crash - case B [CRASH]: reason' in p.stdout),
              (0, '15 passed, 0 failed, 7 skipped', True))
        p = summarize_proc(d, listed[:-1])
        check('crash: listed, its die lines not waived: fails',
              (p.returncode, 'Oops: 0000 [#1]' in p.stdout.split('\nFAILED:\n')[0]
               .split('Guest kernel log problems:')[-1]),
              (1, True))
        p = summarize_proc(d, BOOT_NONPASS + [('ftracetest: crash - case B', 'FAIL')])
        check('crash: an entry expecting another result fails',
              (p.returncode, 'ftracetest: crash - case B [CRASH]: the known-failures '
               'entry expects FAIL' in p.stdout), (1, True))
        # A die line in a boot that did not die in a listed case is never waived.
        with open(os.path.join(d, 'guest1.boot2', 'log-problems.txt'), 'w') as f:
            f.write(OOPS_PROBLEMS.replace('20.1', '30.1'))
        check('crash: the waiver leaves another boot\'s die line failing',
              summarize_proc(d, listed).returncode, 1)
        shutil.rmtree(os.path.join(d, 'guest1.boot2'))
        p = summarize_proc(d, listed)
        check('crash: no boot after it: the cases left have no result',
              (p.returncode, [l for l in p.stdout.splitlines() if 'no result' in l]),
              (1, ["    ftracetest: crash - case C [FAIL]: in this guest's share, no result; "
                   "its last boot, guest1, died before it (the kernel died in it: "
                   "BUG: kernel NULL pointer dereference, address: 0000000000000008; "
                   "RIP: 0010:trace_fprobe_release+0x1b/0x50)",
                   "    ftracetest: crash - case D [FAIL]: in this guest's share, no result; "
                   "its last boot, guest1, died before it (the kernel died in it: "
                   "BUG: kernel NULL pointer dereference, address: 0000000000000008; "
                   "RIP: 0010:trace_fprobe_release+0x1b/0x50)"]))

    def end(name, files, tests='abcd', flags=None, last=0):
        with tempfile.TemporaryDirectory() as d:
            crash_tree(d, flags, last=bool(last))
            return remaining(crash_boot(d, 'guest1', tests, files, last), d)[:2]
    # The kernel oopsed in b, ftracetest went on to c and hung in d: b.
    check('crash: oopsed, went on, then hung: the case it oopsed in',
          end('went on', {'console.log': JOB_START + starts('a', 'b') + OOPS + starts('c', 'd')[34:],
                          'ftracetest.txt': crash_results([('a', 'PASS'), ('b', 'FAIL'),
                                                           ('c', 'PASS'), ('d', None)])}),
          (0, ['ftrace/c.tc ftrace/d.tc', '0',
               'died in ftrace/b.tc: crash - case B: ' + OOPS_WHY]))
    check('crash: hung until the limit: the case that had started',
          end('hung', {'console.log': JOB_START + starts('a', 'b', 'c'),
                       'runner.txt': 'qemu-run.sh: FAIL: guest killed after the 2700s limit\n',
                       'ftracetest.txt': crash_results([('a', 'PASS'), ('b', 'PASS'),
                                                        ('c', None)])}),
          (0, ['ftrace/d.tc', '0', 'died in ftrace/c.tc: crash - case C: the guest was '
               'killed at its time limit while it ran, no oops, BUG or panic in its log']))
    check('crash: stuck after the watchdog\'s kill: the case that had started',
          end('stuck', {'console.log': JOB_START + starts('a', 'b', 'c') +
                        'harness: case 3 (c.tc) is stuck in the kernel: pids 612 outlived the '
                        'kill by 60s: ending this boot, the host boots again with the cases '
                        'left\n',
                        'ftracetest.txt': crash_results([('a', 'PASS'), ('b', 'PASS'),
                                                         ('c', None)])}),
          (0, ['ftrace/d.tc', '0', 'died in ftrace/c.tc: crash - case C: its processes '
               'outlived the case watchdog\'s kill, stuck in the kernel: the watchdog ended '
               'the boot']))
    check('crash: no start lines: the first case without a result',
          end('no starts', {'console.log': JOB_START + OOPS,
                            'ftracetest.txt': crash_results([('a', 'PASS'), ('b', None)])}),
          (0, ['ftrace/c.tc ftrace/d.tc', '0',
               'died in ftrace/b.tc: crash - case B: ' + OOPS_WHY]))
    check('crash: died between two cases: none is the crash, the rest runs',
          end('between', {'console.log': JOB_START + starts('a', 'b'),
                          'ftracetest.txt': crash_results([('a', 'PASS'), ('b', 'PASS')])[:60]}),
          (0, ['ftrace/c.tc ftrace/d.tc', '0',
               'died: it died between two tests, after crash - case B']))
    check('crash: died before its job started: not booted again',
          end('before', {'console.log': OOPS}),
          (1, ['none', '0', 'it died before its job started: not booted again']))
    check('crash: died in the last case: nothing left',
          end('last', {'console.log': JOB_START + starts('a', 'b', 'c', 'd') + OOPS,
                       'ftracetest.txt': crash_results([('a', 'PASS'), ('b', 'PASS'),
                                                        ('c', 'PASS'), ('d', None)])})[0],
          1)
    # Case a has an instance run, after every top-level run: it is owed.
    check('crash: a case whose instance run is owed runs again',
          end('instance', {'console.log': JOB_START + starts('a', 'b', 'c') + OOPS,
                           'ftracetest.txt': crash_results([('a', 'PASS'), ('b', 'PASS'),
                                                            ('c', None)])},
              flags={'a': 'instance'})[1][0],
          'ftrace/a.tc ftrace/d.tc')
    check('crash: died in an instance run: the other cases\' instance runs are left',
          end('in instance', {'console.log': JOB_START + starts('a', 'b', 'c', 'd', 'a+', 'b+') +
                              OOPS, 'ftracetest.txt': crash_results(
                                  [('a', 'PASS'), ('b', 'PASS'), ('c', 'PASS'), ('d', 'PASS'),
                                   ('a+', 'PASS'), ('b+', None)])},
              flags={'a': 'instance', 'b': 'instance', 'd': 'instance'})[1][:2],
          ['ftrace/d.tc', '0'])
    # The first guest: last.d stays at the end of what is left.
    lp_start = '[    9.000000] ftrace-harness: start livepatch 1 test-x.sh\n'
    check('crash: died in the last livepatch test: a boot for last.d alone',
          end('last.d', {'console.log': JOB_START + lp_start + OOPS},
              tests=['livepatch/test-x.sh'], last=1)[1][:2],
          ['none', '1'])
    check('crash: died in a case: last.d is left too',
          end('last.d left', {'console.log': JOB_START + starts('a') + OOPS,
                              'ftracetest.txt': crash_results([('a', None)])}, last=1)[1][:2],
          ['ftrace/b.tc ftrace/c.tc ftrace/d.tc', '1'])

    # The summary of a case run again for its instance run: only that run
    # counts from the second boot.
    with tempfile.TemporaryDirectory() as d:
        crash_tree(d, {'a': 'instance'})
        crash_boot(d, 'guest1', 'abcd', {
            'dmesg-boot.txt': DMESG, 'console.log': JOB_START + starts('a', 'b', 'c') + OOPS,
            'ftracetest.txt': crash_results([('a', 'PASS'), ('b', 'PASS'), ('c', None)]),
            'log-problems.txt': OOPS_PROBLEMS})
        crash_boot(d, 'guest1.boot2', 'ad', finished(crash_results(
            [('a', 'FAIL'), ('d', 'PASS'), ('a+', 'PASS')]), starts('a', 'd', 'a+')))
        p = summarize_proc(d, BOOT_NONPASS + [('ftracetest: crash - case C', 'CRASH'),
                                              OOPS_WAIVE])
        table = [l for l in p.stdout.splitlines() if re.match(r'^\S+ +ftracetest: crash', l)]
        check('crash: a case run again for its instance run counts that run alone',
              (p.returncode, table),
              (0, ['PASS              ftracetest: crash - case A',
                   'PASS              ftracetest: crash - case B',
                   'KNOWN-CRASH       ftracetest: crash - case C',
                   'PASS              ftracetest: crash - case D',
                   'PASS              ftracetest: crash - case A (instance)']))
        if p.returncode:
            print(p.stdout)


# A stand-in for qemu-run.sh: the job's share "runs", each case passing
# but those of $FAKE_CRASH, where the kernel dies (the files such a boot
# leaves); last.d when the job says so.
FAKE_QEMU_RUN = r"""#!/bin/bash
while getopts "k:m:o:j:t:" opt; do
	case $opt in o) out=$OPTARG ;; j) job=$OPTARG ;; *) ;; esac
done
rm -rf "$out"
mkdir -p "$out"
cp "$job" "$out/job.sh"
echo "${FH_KCMDLINE:-}" > "$out/cmdline.txt"
ftdir=$(sed -n 's/^FH_FTRACETEST=//p' "$job")
tests=$(sed -n 's/^FH_TESTS="\(.*\)"$/\1/p' "$job")
con=$out/console.log
echo "harness-guest: kernel 6.12.0, 2 CPUs online, running /tmp/out/job.sh" > "$con"
n=0
for t in $tests; do
	[ "$t" = none ] && continue
	n=$((n + 1))
	printf '[    %d.000000] ftrace-harness: start ftracetest %d test.d/%s\n' $n $n "$t" >> "$con"
	printf '[%d] %s' $n "$(sed -n 's/^# description: *//p' "$ftdir/test.d/$t")" >> "$out/ftracetest.txt"
	case " $FAKE_CRASH " in
	*" $t "*)
		printf '[   %d.100000] BUG: kernel NULL pointer dereference\n[   %d.100000] Oops: 0000 [#1] SMP\n' \
			$n $n | tee -a "$con" > "$out/log-problems.txt"
		echo "qemu-run.sh: FAIL: guest did not finish its job" > "$out/runner.txt"
		exit 1 ;;
	esac
	printf '\t[PASS]\n' >> "$out/ftracetest.txt"
done
[ $n -eq 0 ] || printf '\n# of passed:  %d\n# of failed:  0\n' $n >> "$out/ftracetest.txt"
if grep -q '^FH_LAST=1' "$job"; then
	echo "[   99.000000] ftrace-harness: start last 1 last.d/anomaly.tc" >> "$con"
	printf '[1] crash - the last case\t[PASS]\n\n# of passed:  1\n# of failed:  0\n' \
		> "$out/ftracetest-last.txt"
fi
: > "$out/dmesg.txt"
echo 0 > "$out/job.status"
echo "fh-taint: 0" >> "$con"
"""


def test_check_guests():
    """check-guests.sh with a stand-in qemu-run.sh: a guest boots again
    after each case its kernel died in, at most FH_EXTRA_BOOTS times;
    last.d once, in the first guest's last boot."""
    with tempfile.TemporaryDirectory() as d:
        tree = os.path.join(d, 'harness')
        for sub in ('host', 'report', 'guest'):
            os.makedirs(os.path.join(tree, sub))
        for src in ('host/check-guests.sh', 'host/remaining.py', 'report/summarize.py'):
            shutil.copy(os.path.join(HARNESS, src), os.path.join(tree, src))
        with open(os.path.join(tree, 'host', 'qemu-run.sh'), 'w') as f:
            f.write(FAKE_QEMU_RUN)
        os.chmod(os.path.join(tree, 'host', 'qemu-run.sh'), 0o755)
        ftdir = os.path.join(d, 'ftracetest')
        crash_tree(ftdir, last=True)
        shards = os.path.join(d, 'shards.txt')
        with open(shards, 'w') as f:
            f.write('ftrace/a.tc ftrace/b.tc ftrace/c.tc\nftrace/d.tc\n')

        def run(extra, crash):
            res = os.path.join(d, 'results-%s' % extra)
            p = subprocess.run([os.path.join(tree, 'host', 'check-guests.sh'), shards, res,
                                '/k', '/m', '60', ftdir, '/lp'], capture_output=True, text=True,
                               env=dict(os.environ, FH_EXTRA_BOOTS=extra, FAKE_CRASH=crash,
                                        PYTHONDONTWRITEBYTECODE='1'))
            boots = sorted(x for x in os.listdir(res) if os.path.isdir(os.path.join(res, x)))
            return p, res, boots

        def job(res, b):
            text = open(os.path.join(res, b, 'job.sh')).read()
            return (re.search(r'^FH_TESTS="(.*)"', text, re.M).group(1),
                    re.search(r'^FH_LAST=(\d)', text, re.M).group(1),
                    'kprobe_event=' in open(os.path.join(res, b, 'cmdline.txt')).read(),
                    os.path.exists(os.path.join(res, b, 'ftracetest-last.txt')))
        p, res, boots = run('3', 'ftrace/a.tc ftrace/b.tc')
        check('check-guests: booted again after each case it died in',
              (p.returncode, boots, [job(res, b) for b in boots]),
              (1, ['guest1', 'guest1.boot2', 'guest1.boot3', 'guest2'],
               [('ftrace/a.tc ftrace/b.tc ftrace/c.tc', '1', False, False),
                ('ftrace/b.tc ftrace/c.tc', '1', True, False),
                ('ftrace/c.tc', '1', True, True),
                ('ftrace/d.tc', '0', True, False)]))
        check('check-guests: says which case and what is left',
              ('g1| check-guests.sh: guest 1, boot 1: died in ftrace/a.tc: crash - case A: '
               'the kernel died in it: BUG: kernel NULL pointer dereference' in p.stdout,
               'g1| check-guests.sh: guest 1, boot 3: the 1 tests left, last.d' in p.stdout),
              (True, True))
        if len(boots) != 4:
            print(p.stdout, p.stderr)
        known = os.path.join(d, 'known.txt')
        with open(known, 'w') as f:
            f.write('ftracetest: crash - case A | CRASH | planted\n'
                    'ftracetest: crash - case B | CRASH | planted\n'
                    'waive: Oops: 0000 \\[#1\\] SMP | planted\n'
                    'waive: BUG: kernel NULL pointer | planted\n')
        empty = os.path.join(d, 'empty.txt')
        open(empty, 'w').close()
        env = dict(os.environ, FH_EXPECTED_BOOT=empty, FH_EXPECTED_KUNIT=empty,
                   PYTHONDONTWRITEBYTECODE='1')
        s = subprocess.run([sys.executable, os.path.join(HERE, 'summarize.py'), res, known,
                            ftdir], capture_output=True, text=True, env=env)
        check('check-guests: the summary of the boots: the crashes listed, the rest passes',
              (s.returncode, s.stdout.strip().splitlines()[-1]),
              (0, '5 passed, 0 failed, 2 skipped'))
        if s.returncode:
            print(s.stdout, s.stderr)
        p, res, boots = run('1', 'ftrace/a.tc ftrace/b.tc')
        s = subprocess.run([sys.executable, os.path.join(HERE, 'summarize.py'), res, known,
                            ftdir], capture_output=True, text=True, env=env)
        check('check-guests: FH_EXTRA_BOOTS=1: the case after the second crash has no result',
              (boots, 'no boot left (FH_EXTRA_BOOTS=1)' in p.stdout, s.returncode,
               "ftracetest: crash - case C [FAIL]: in this guest's share, no result" in s.stdout,
               "ftracetest: crash - the last case [FAIL]: in this guest's share" in s.stdout),
              (['guest1', 'guest1.boot2', 'guest2'], True, 1, True, True))
        p, res, boots = run('3', '')
        check('check-guests: nothing dies: one boot a guest',
              (p.returncode, boots), (0, ['guest1', 'guest2']))


def test_watchdog_death():
    """case-watchdog.sh ends the boot when the kernel dies (taint D) while
    a case runs, and only then: not when it was dead at the job's start,
    not outside job-check.sh (no FH_TAINT_START)."""
    def run(start, taint, secs=20):
        with tempfile.TemporaryDirectory() as d:
            logs = os.path.join(d, 'logs')
            os.mkdir(logs)
            open(os.path.join(logs, '3-slow.tc-log.AbCdEf'), 'w').close()
            with open(os.path.join(d, 'tainted'), 'w') as f:
                f.write('%d\n' % taint)
            ft = subprocess.Popen(['sleep', str(secs)])
            env = dict(os.environ, FH_CASE_FLOOR='0', FH_CASE_POLL='1',
                       FH_TAINTED=os.path.join(d, 'tainted'),
                       FH_SYSRQ=os.path.join(d, 'sysrq'))
            env.pop('FH_TAINT_START', None)
            if start is not None:
                env['FH_TAINT_START'] = str(start)
            t0 = time.time()
            wd = subprocess.Popen([os.path.join(GUEST, 'case-watchdog.sh'), str(ft.pid), logs,
                                   d, '/dev/null', '100'], env=env, stdout=subprocess.PIPE,
                                  text=True)
            # Gone at once when it ends the boot, else when the case ends.
            try:
                out = wd.communicate(timeout=secs - 2)[0]
            except subprocess.TimeoutExpired:
                ft.wait()
                out = wd.communicate()[0]
            gone = time.time() - t0 < secs - 1
            ft.kill()
            ft.wait()
            sysrq = os.path.join(d, 'sysrq')
            return (open(sysrq).read().strip() if os.path.exists(sysrq) else None,
                    'the kernel died (taint %d) while case 3 (slow.tc) ran' % taint in out,
                    gone)
    # At once: each waits for its stand-in case to end.
    cases = (('the kernel died while a case ran: the boot ends', (0, 640, 20),
              ('b', True, True)),
             ('dead before the job started: goes on', (128, 640, 4), (None, False, False)),
             ('not dead: goes on', (0, 512, 4), (None, False, False)),
             ('outside job-check.sh: no such check', (None, 640, 4), (None, False, False)))
    with concurrent.futures.ThreadPoolExecutor(len(cases)) as pool:
        got = list(pool.map(lambda c: run(*c[1]), cases))
    for (name, _, want), g in zip(cases, got):
        check('watchdog: ' + name, g, want)


def test_watchdog_stuck():
    """case-watchdog.sh ends the boot when a process it killed is still
    there the grace time later (stuck in the kernel), not when the kill
    took.  The stand-in's processes ignore SIGTERM, the watchdog's
    signal here: they outlive the kill as a task in D state would."""
    def run(case):
        with tempfile.TemporaryDirectory() as d:
            logs = os.path.join(d, 'logs')
            os.mkdir(logs)
            open(os.path.join(logs, '4-hang.tc-log.AbCdEf'), 'w').close()
            with open(os.path.join(d, 'costs'), 'w') as f:
                f.write('1 ftrace/hang.tc\n')
            ft = subprocess.Popen(['sh', '-c', case], stderr=subprocess.DEVNULL,
                                  start_new_session=True)
            env = dict(os.environ, FH_CASE_FLOOR='0', FH_CASE_POLL='1', FH_CASE_GRACE='2',
                       FH_CASE_KILL='TERM', FH_SYSRQ=os.path.join(d, 'sysrq'))
            env.pop('FH_TAINT_START', None)
            wd = subprocess.Popen([os.path.join(GUEST, 'case-watchdog.sh'), str(ft.pid), logs,
                                   d, os.path.join(d, 'costs'), '1'], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            try:
                out = wd.communicate(timeout=25)[0]
            except subprocess.TimeoutExpired:
                wd.kill()
                out = wd.communicate()[0]
            # The stand-in and its sleep, which ignores SIGTERM too.
            os.killpg(ft.pid, signal.SIGKILL)
            ft.wait()
            sysrq = os.path.join(d, 'sysrq')
            return (open(sysrq).read().strip() if os.path.exists(sysrq) else None,
                    'case 4 (hang.tc) is stuck in the kernel' in out,
                    os.path.exists(os.path.join(d, 'case-stopped.txt')))
    cases = (('a killed case still there after the grace: the boot ends',
              'trap "" TERM; sleep 30; :', ('b', True, True)),
             ('a killed case gone: goes on', 'sleep 31; sleep 6; :', (None, False, True)))
    with concurrent.futures.ThreadPoolExecutor(len(cases)) as pool:
        got = list(pool.map(lambda c: run(c[1]), cases))
    for (name, _, want), g in zip(cases, got):
        check('watchdog: ' + name, g, want)


test_parsers()
test_logscan()
test_summary()
test_retries()
test_guests()
test_watchdog()
test_watchdog_death()
test_watchdog_stuck()
test_hang_dump()
test_kernel_offset()
test_stale_watch()
test_bench_report()
test_audit()
test_accel()
test_layout()
test_crash()
test_check_guests()
print('harness self-test: %d passed, %d failed' %
      (results.count(True), results.count(False)))
sys.exit(0 if all(results) else 1)
