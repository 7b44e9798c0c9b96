#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize one harness boot: boot self-tests, KUnit, ftracetest, guest log.

summarize.py OUTDIR KNOWN_FAILURES FTRACETEST_DIR [header line...]

Reads what the guests left in OUTDIR/guest1, OUTDIR/guest2... (or in
OUTDIR itself, one guest): dmesg-boot.txt and dmesg.txt, ftracetest.txt,
ftracetest-last.txt (the cases of last.d, run after the suite),
livepatch.txt, log-problems.txt, runner.txt, job.status; prints a table of every test and
its result, the listed results with their reasons, and a closing line
'N passed, N failed, N skipped'.  The same text goes to OUTDIR/summary.txt.

Only PASS passes.  Any other result (FAIL, UNRESOLVED, UNTESTED,
UNSUPPORTED, XFAIL, SKIP) counts as failed unless KNOWN_FAILURES lists the
test with a reason; listed ones are counted as skipped and printed with
their reason.  A boot self-test named in expected-boot.txt (beside this
script) that printed no result fails too, so does a KTAP plan that does
not match the results parsed.  Exit status 1 on any failure.

KNOWN_FAILURES has one test per line, 'NAME | reason', NAME exactly as the
table prints it ('#' starts a comment line).
"""
import os
import re
import sys

TS = r'^\[\s*\d+\.\d+\]\s?'


def read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except FileNotFoundError:
        return None


# trace.c's disable_tracing_selftest(): the startup self-tests that had
# not run yet will not run.
SELFTESTS_OFF = re.compile(r'Ftrace startup test is disabled due to (.+)$', re.M)
TESTING = re.compile(r'(?:\w+: )?Testing (.+?):(.*)$')
VERDICT = re.compile(r'^(?:\([^)]*\)\s*)*(PASSED|FAILED|OK)\b')


def boot_selftests(dmesg):
    """'Testing X: PASSED' lines of the tracer startup self-tests.

    A test may print '(...)' progress lines between its 'Testing X: ' and
    its verdict (the ftrace ops tests do).  The verdict is PASSED, OK or
    FAILED on the test's own line or on such a continuation line; other
    lines in between are skipped but never lend their words, and the next
    'Testing' line ends the search.  Per-event checks ('Testing event X:
    OK') are not counted: a broken event trips a WARN, which the log scan
    reports.
    """
    results = []
    seen = {}
    lines = [re.sub(TS, '', l) for l in dmesg.splitlines()]
    for i, line in enumerate(lines):
        m = TESTING.match(line)
        if not m or m.group(1).startswith('event '):
            continue
        res = 'FAIL'
        own = m.group(2)
        if re.search(r'\bFAILED\b', own):
            res = 'FAIL'
        elif re.search(r'\b(PASSED|OK)\b', own):
            res = 'PASS'
        else:
            for later in lines[i + 1:]:
                if TESTING.match(later):
                    break
                v = VERDICT.match(later.strip())
                if v:
                    res = 'FAIL' if v.group(1) == 'FAILED' else 'PASS'
                    break
        name = m.group(1)
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:      # the event suite runs twice
            name += ' (run %d)' % seen[name]
        results.append(('boot', name, res, ''))
    return results


def ktap_plan_problems(dmesg):
    """Top-level KTAP plans ('1..N') against the suite results that follow."""
    problems = []
    plan = None
    got = 0
    for raw in dmesg.splitlines() + ['KTAP version 1']:
        line = re.sub(TS, '', raw)
        if line.startswith('KTAP version') or line.startswith('TAP version'):
            if plan is not None and plan != got:
                problems.append('KTAP plan of %d suites, %d results' % (plan, got))
            plan, got = None, 0
        elif plan is None and re.match(r'^1\.\.(\d+)', line):
            plan = int(line[3:].split()[0])
        elif re.match(r'^(not )?ok \d+ ', line):
            got += 1
    return problems


def kunit(dmesg):
    """KTAP test cases from the kernel log: 'suite.case' per result line."""
    results = []
    suite = []
    for raw in dmesg.splitlines():
        line = re.sub(TS, '', raw)
        # '# Subtest: X' is indented like X's own cases: at depth d it
        # names the test at depth d - 1 of the nesting.
        m = re.match(r'^(\s*)# Subtest: (\S+)', line)
        if m:
            depth = len(m.group(1)) // 4
            del suite[max(depth - 1, 0):]
            suite.append(m.group(2))
            continue
        m = re.match(r'^(\s*)(not ok|ok) \d+ (?:- )?([^#]*?)\s*(#\s*(\S+)(.*))?$', line)
        if not m:
            continue
        depth = len(m.group(1)) // 4
        if depth == 0:
            continue        # suite totals; the cases are counted
        name = '.'.join(suite[:depth] + [m.group(3)])
        directive = (m.group(5) or '').upper()
        if directive == 'SKIP':
            res = 'SKIP'
        else:
            res = 'PASS' if m.group(2) == 'ok' else 'FAIL'
        results.append(('kunit', name, res, (m.group(6) or '').strip()))
    return results


def ftracetest_requires(ftdir):
    """Map each .tc description to its '# requires:' line."""
    req = {}
    walk = [w for d in ('test.d', 'last.d') for w in os.walk(os.path.join(ftdir, d))]
    for root, _, files in walk:
        for fn in files:
            if not fn.endswith('.tc'):
                continue
            desc = need = ''
            for line in open(os.path.join(root, fn), errors='replace'):
                if line.startswith('# description:'):
                    desc = line.split(':', 1)[1].strip()
                elif line.startswith('# requires:'):
                    need = line.split(':', 1)[1].strip()
            req[desc] = need
    return req


# The start of a case's line in ftracetest's output: "[N] " or
# "[N] (instance) ", then the description.
CASE_LINE = r'^\[(\d+)\](?: \(instance\) )?'
# A case's result line: number, description, result.
CASE_RESULT = CASE_LINE + r'(.*?)\s*\[(\w+)\]\s*$'


def case_name(desc, line):
    """A case's name: its description, marked when run in an instance."""
    return desc.strip() + (' (instance)' if '(instance)' in line else '')


def ftracetest(text, requires, suite='ftracetest', stopped=None):
    """Results and totals of one ftracetest run.

    stopped: case number -> why case-watchdog.sh stopped it, given as the
    reason of its FAIL.  A run cut short ends with a case's "[N] desc"
    and no result: that case is a FAIL too, the one the guest stopped in.
    """
    results = []
    totals = {}
    lines = text.splitlines()
    for line in lines:
        m = re.match(CASE_RESULT, line)
        if m:
            desc = m.group(2).strip()
            name = case_name(desc, line)
            res = {'PASS': 'PASS', 'FAIL': 'FAIL', 'UNRESOLVED': 'UNRESOLVED',
                   'UNTESTED': 'UNTESTED', 'UNSUPPORTED': 'UNSUPPORTED',
                   'XFAIL': 'XFAIL'}.get(m.group(3), 'FAIL')
            why = ''
            if res == 'UNSUPPORTED':
                why = 'requires: ' + (requires.get(desc) or '(see test)')
            elif res != 'PASS' and stopped and int(m.group(1)) in stopped:
                why = stopped[int(m.group(1))]
            results.append((suite, name, res, why))
        m = re.match(r'^# of (\w+)(?:\(.*\))?:\s+(\d+)', line)
        if m:
            totals[m.group(1)] = int(m.group(2))
    last = [l for l in lines if l.strip()][-1:]
    m = re.match(CASE_LINE + r'(.*\S)\s*$', last[0]) if last else None
    if m and not totals and not re.search(r'\[\w+\]\s*$', last[0]):
        results.append((suite, case_name(m.group(2), last[0]), 'FAIL',
                        'cut short: the guest stopped while this case ran'))
    return results, totals


def stopped_cases(gdir):
    """Case number -> reason, from case-watchdog.sh's case-stopped.txt."""
    stopped = {}
    for line in (read(os.path.join(gdir, 'case-stopped.txt')) or '').splitlines():
        f = line.split('|')
        if len(f) == 3 and f[0].isdigit():
            stopped[int(f[0])] = ('stopped by the guest after %s s (its limit: %s s); '
                                  'the stuck processes are in case-hang-%s.txt' %
                                  (f[1], f[2], f[0]))
    return stopped


def ftracetest_run(text, requires, what, suite='ftracetest', stopped=None):
    """Results of one ftracetest run, checked against its own totals."""
    ft, totals = ftracetest(text, requires, suite, stopped)
    problems = []
    if not ft:
        problems.append('%s produced no results' % what)
    names = {'passed': 'PASS', 'failed': 'FAIL', 'unresolved': 'UNRESOLVED',
             'untested': 'UNTESTED', 'unsupported': 'UNSUPPORTED',
             'xfailed': 'XFAIL'}
    for key, res in names.items():
        got = sum(1 for r in ft if r[2] == res)
        if key in totals and totals[key] != got:
            problems.append('%s says %d %s, parsed %d' %
                            (what, totals[key], key, got))
    if ft and not totals:
        problems.append('%s did not print its totals (cut short?)' % what)
    return ft, problems


def failed_case_logs(gdir):
    """Case name -> the last lines of its ftracetest log, for each case of
    this guest's ftracetest.txt that did not pass (ftracetest -k keeps
    every case's log as N-file-log.XXXXXX)."""
    logs = {}
    ldir = os.path.join(gdir, 'ftracetest-logs')
    for line in (read(os.path.join(gdir, 'ftracetest.txt')) or '').splitlines():
        m = re.match(CASE_RESULT, line)
        if not m or m.group(3) in ('PASS', 'UNSUPPORTED'):
            continue
        try:
            files = [f for f in os.listdir(ldir)
                     if f.startswith(m.group(1) + '-') and '-log.' in f]
        except OSError:
            files = []
        if files:
            text = read(os.path.join(ldir, files[0])) or ''
            logs[case_name(m.group(2), line)] = (os.path.join(ldir, files[0]),
                                                 text.splitlines()[-FAILED_LOG_LINES:])
    return logs


def list_lines(path):
    """Non-blank lines of a list file, '#' comment lines left out."""
    return [l.strip() for l in (read(path) or '').splitlines()
            if l.strip() and not l.lstrip().startswith('#')]


def expected_boot():
    """Boot self-tests that must print a result (expected-boot.txt)."""
    return list_lines(os.environ.get('FH_EXPECTED_BOOT') or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'expected-boot.txt'))


def load_known(path):
    known = {}
    for line in list_lines(path):
        name, _, why = line.partition('|')
        known[name.strip()] = why.strip() or '(no reason given)'
    return known


# Lines of a failed case's log shown in the summary: CI shows the output,
# not the files, and a failure there must explain itself.
FAILED_LOG_LINES = 25


def guests(out):
    """The per-guest results directories of a run, first guest first.

    'make check' leaves one directory per guest, OUT/guest1, OUT/guest2...
    (check-guests.sh); a directory without them is one guest's own.
    """
    dirs = sorted((d for d in os.listdir(out) if re.match(r'^guest\d+$', d)
                   and os.path.isdir(os.path.join(out, d))),
                  key=lambda d: int(d[5:]))
    return [os.path.join(out, d) for d in dirs] or [out]


def case_description(ftdir, case):
    """The '# description:' of test.d/CASE, or CASE if it has none."""
    for line in (read(os.path.join(ftdir, 'test.d', case)) or '').splitlines():
        if line.startswith('# description:'):
            return line.split(':', 1)[1].strip()
    return case


def timing_cases():
    """Description -> reason of each case of timing-cases.txt (beside this
    script): the guest runs such a case once more when it fails."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.environ.get('FH_TIMING_CASES') or os.path.join(here, 'timing-cases.txt')
    cases = {}
    for line in list_lines(path):
        case, _, why = line.partition('|')
        cases[case.strip()] = why.strip()
    return cases


def with_retries(results, retry_text, requires):
    """A case of timing-cases.txt that failed and passed when the guest ran
    it again (ftracetest-retry.txt) counts as passed, its result saying
    so; one that failed again, or was not run again, stays failed."""
    if not retry_text:
        return results
    again = {name: res for _, name, res, _ in ftracetest(retry_text, requires)[0]}
    out = []
    for suite, name, res, why in results:
        if res == 'FAIL' and again.get(name) == 'PASS':
            res, why = 'PASS', 'RETRIED'
        out.append((suite, name, res, why))
    return out


def guest_results(gdir, first, requires):
    """Results and harness problems of one guest.

    Boot self-tests and KUnit are read from the log the job saved when it
    started (dmesg-boot.txt): the suites can push the boot lines out of
    the kernel's log buffer before dmesg.txt is taken at the end.  Only
    the first guest runs the boot self-tests; every guest runs KUnit, and
    a later guest's KUnit result is reported only when it is not PASS
    (the first guest's table lists each case once).
    """
    results, problems = [], []
    tag = '' if first else ' (%s)' % os.path.basename(gdir)
    for line in (read(os.path.join(gdir, 'runner.txt')) or '').splitlines():
        problems.append(line.replace('qemu-run.sh: FAIL: ', '') + tag)
    status = read(os.path.join(gdir, 'job.status'))
    if read(os.path.join(gdir, 'dmesg.txt')) is None:
        problems.append('guest left no dmesg.txt (it did not finish)' + tag)
    if status is None or status.strip() != '0':
        problems.append('guest job did not finish (status %s)%s' %
                        (status.strip() if status else 'missing', tag))
    dmesg = (read(os.path.join(gdir, 'dmesg-boot.txt')) or
             read(os.path.join(gdir, 'dmesg.txt')) or
             read(os.path.join(gdir, 'console.log')) or '')

    if first:
        boot = boot_selftests(dmesg)
        have = {name for _, name, _, _ in boot}
        missing = [name for name in expected_boot() if name not in have]
        off = SELFTESTS_OFF.search(dmesg)
        if off and missing:
            # The kernel said why they did not run (kprobe_event= on its
            # command line, say, or a hang the tests recovered from): one
            # result with its reason, not one 'no result' per test.  (The
            # event filter test ignores the switch and still runs.)
            boot.append(('boot', 'startup self-tests', 'SKIP',
                         '%d did not run, the kernel disabled them: %s' %
                         (len(missing), off.group(1).strip())))
        else:
            boot += [('boot', name, 'FAIL', 'no result in the kernel log')
                     for name in missing]
        results += boot
    problems += [p + tag for p in ktap_plan_problems(dmesg)]
    results += [(s, n + tag, r, w) for s, n, r, w in kunit(dmesg)
                if first or r != 'PASS']

    job = read(os.path.join(gdir, 'job.sh')) or ''
    m = re.search(r'^FH_TESTS="([^"]*)"', job, re.M)
    share = m.group(1).split() if m else []
    has_tc = not share or any(t.endswith('.tc') for t in share)
    has_last = not re.search(r'^FH_LAST=0', job, re.M)
    for line in (read(os.path.join(gdir, 'case-watchdog-error.txt')) or '').splitlines():
        problems.append('case watchdog did not run: %s%s' % (line, tag))
    for fn, what, expected in (('ftracetest.txt', 'ftracetest', has_tc),
                               ('ftracetest-last.txt', 'ftracetest last.d', has_last)):
        text = read(os.path.join(gdir, fn))
        if text is None and not expected:
            continue        # this guest's share had no such cases
        ft, ft_problems = ftracetest_run(text or '', requires, what,
                                         stopped=(stopped_cases(gdir)
                                                  if fn == 'ftracetest.txt' else None))
        if fn == 'ftracetest.txt':
            ft = with_retries(ft, read(os.path.join(gdir, 'ftracetest-retry.txt')),
                              requires)
        results += ft
        problems += [p + tag for p in ft_problems]
    # Client suites written in ftracetest's format by the guest job; a
    # kernel or share without them (no livepatch.txt at all) has nothing
    # to report.
    # kmemleak.txt: the DEBUG=1 kernel's leak scan after the suites, one
    # result per guest (named with the guest), where each livepatch
    # script runs in one guest only.
    for fn, what, suite, per_guest in (
            ('livepatch.txt', 'livepatch kselftests', 'livepatch', False),
            ('kmemleak.txt', 'kmemleak scan', 'kmemleak', True)):
        text = read(os.path.join(gdir, fn))
        if text is None:
            continue
        ft, ft_problems = ftracetest_run(text, {}, what, suite)
        if per_guest:
            ft = [(s, n + tag, r, w) for s, n, r, w in ft]
        results += ft
        problems += [p + tag for p in ft_problems]
    return results, problems


def main():
    out, known_path, ftdir = sys.argv[1:4]
    header = sys.argv[4:]
    known = load_known(known_path)
    lines = list(header)
    results = []
    problems = []

    requires = ftracetest_requires(ftdir)
    logp = ''
    hangs = []
    case_logs = {}
    for i, gdir in enumerate(guests(out)):
        case_logs.update(failed_case_logs(gdir))
        r, p = guest_results(gdir, i == 0, requires)
        results += r
        problems += p
        lp = (read(os.path.join(gdir, 'log-problems.txt')) or '').strip()
        if lp and gdir != out:
            lp = '\n'.join('%s: %s' % (os.path.basename(gdir), l)
                           for l in lp.splitlines())
        logp = '\n'.join(x for x in (logp, lp) if x)
        for fn in sorted(f for f in os.listdir(gdir) if re.match(r'^case-hang-\d+\.txt$', f)):
            hangs.append((os.path.join(gdir, fn), read(os.path.join(gdir, fn)) or ''))

    results.append(('guest', 'kernel log free of oops/BUG/WARNING/lockdep/stall/hung task',
                    'FAIL' if logp else 'PASS', ''))
    for p in problems:
        results.append(('harness', p, 'FAIL', ''))

    # Classify: only PASS passes; anything else needs a listed reason.
    passed, failed, listed, fixed, retried = [], [], [], [], []
    for suite, name, res, why in results:
        full = '%s: %s' % (suite, name)
        if res == 'PASS':
            passed.append(full)
            if why == 'RETRIED':
                retried.append(full)
            if full in known:
                fixed.append(full)
        elif full in known:
            listed.append((full, res, known[full]))
        else:
            failed.append((full, res, why))

    lines.append('')
    lines.append('%-17s %s' % ('RESULT', 'TEST'))
    for suite, name, res, why in results:
        full = '%s: %s' % (suite, name)
        shown = res
        if res != 'PASS' and full in known:
            shown = 'KNOWN-' + res
        elif why == 'RETRIED':
            shown = 'FAIL,PASS'
        lines.append('%-17s %s' % (shown, full))
    if logp:
        lines.append('')
        lines.append('Guest kernel log problems:')
        lines += ['    ' + l for l in logp.splitlines()[:60]]
    if listed:
        lines.append('')
        lines.append('Listed in %s, counted as skipped:' % known_path)
        for full, res, why in listed:
            lines.append('    %s [%s]: %s' % (full, res, why))
    if retried:
        reasons = {}
        for case, why in timing_cases().items():
            desc = case_description(ftdir, case)
            reasons[desc] = '%s: %s' % (case, why)
        lines.append('')
        lines.append('Failed, then passed when run again (timing-cases.txt: the '
                     'verdict depends on emulated time):')
        for full in retried:
            desc = full.split(': ', 1)[1]
            lines.append('    %s (%s)' % (full, reasons.get(desc, 'no reason listed')))
    if fixed:
        lines.append('')
        lines.append('Listed as known failures but PASSED now (take them off the list):')
        lines += ['    ' + f for f in fixed]
    stale = [k for k in known if k not in {'%s: %s' % (r[0], r[1]) for r in results}]
    if stale:
        lines.append('')
        lines.append('Listed as known failures but not run at all:')
        lines += ['    ' + s for s in stale]
    # What a stopped case was waiting for, here since CI shows the
    # output and not the files.
    for path, text in hangs:
        lines.append('')
        lines.append('Stopped by the guest (case-watchdog.sh), from %s:' % path)
        lines += ['    ' + l for l in text.splitlines()[:80]]
    for full, res, why in failed:
        suite, name = full.split(': ', 1)
        if suite != 'ftracetest' or name not in case_logs:
            continue
        path, tail = case_logs[name]
        lines.append('')
        lines.append('Last lines of the log of %s (%s):' % (full, path))
        lines += ['    ' + l for l in tail]
    if failed:
        lines.append('')
        lines.append('FAILED:')
        for full, res, why in failed:
            lines.append('    %s [%s]%s' % (full, res, (': ' + why) if why else ''))
    lines.append('')
    lines.append('%d passed, %d failed, %d skipped' %
                 (len(passed), len(failed), len(listed)))
    text = '\n'.join(lines) + '\n'
    with open(os.path.join(out, 'summary.txt'), 'w') as f:
        f.write(text)
    sys.stdout.write(text)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
