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

A guest whose kernel died in a test was booted again with the rest of
its share (check-guests.sh): OUTDIR/guestN.boot2, .boot3... are read as
part of guest N.  Each test of the share gets one result: from the boot
that ran it before any death, CRASH for the test a boot died in (the
kernel died, or the boot ended, while it ran: boot_end()), and a FAIL
for a test no boot ran.

Only PASS passes.  Any other result (FAIL, UNRESOLVED, UNTESTED,
UNSUPPORTED, XFAIL, SKIP, CRASH) counts as failed unless KNOWN_FAILURES lists the
test with that very result and a reason; listed ones are counted as
skipped and printed with their reason.  A listed test that got another
result, passed, or (in a run that selected it) did not run at all fails
the run, naming the entry; an entry for a test the run did not select
(TESTS=, SKIP=, PART=) is reported as not checked.  A boot self-test
named in expected-boot.txt, a KUnit suite named in expected-kunit.txt
(both in ../data/, or FH_EXPECTED_BOOT, FH_EXPECTED_KUNIT) or a livepatch
kselftest of a guest's share that printed no result fails too, so does a
KTAP plan that does not match the results parsed.  Every guest must end
with its 'fh-taint: N' console line (guest-init.sh) and without the D
(died) or B (bad page) taint; a die line ('... [#N]') anywhere in its
kernel log fails the run, whatever is listed.  The one exception is the
boot of a CRASH that KNOWN_FAILURES lists: its missing taint line, its
D taint and its unfinished job are what that crash explains, and its
die lines may be waived by pattern like any other line.  Exit status 1
on any failure.

KNOWN_FAILURES has one test per line, 'NAME | RESULT | reason', NAME
exactly as the table prints it, RESULT the one it is expected to get;
'waive: PATTERN | reason' excuses the kernel log lines that PATTERN (a
Python regular expression) matches, and only those ('#' starts a
comment line).  FH_VARIANT and FH_ARCH (ours/stock, x86_64/arm64) choose
the lines of expected-kunit.txt that apply.
"""
import collections
import functools
import operator
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
        # 'ftrace regs(no arch support)': the same test, in the form that
        # checks an arch without saved regs refuses them.
        name, _, note = m.group(1).partition('(')
        name = name.rstrip()
        note = note.rstrip(')')
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:      # the event suite runs twice
            name += ' (run %d)' % seen[name]
        results.append(('boot', name, res, note))
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


def ftracetest(text, requires, suite='ftracetest', stopped=None, cut_short=True):
    """Results and totals of one ftracetest run.

    stopped: case number -> why case-watchdog.sh stopped it, given as the
    reason of its FAIL.  A run cut short ends with a case's "[N] desc"
    and no result: that case is a FAIL too, the one the guest stopped in
    (cut_short=False: no result, for the boots of a guest whose kernel
    died, where boot_end() names that case).
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
    if cut_short and m and not totals and not re.search(r'\[\w+\]\s*$', last[0]):
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


def data_dir():
    """The harness's lists: data/ beside report/ (this script's folder)."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        'data')


def expected_boot():
    """Boot self-tests that must print a result (expected-boot.txt)."""
    return list_lines(os.environ.get('FH_EXPECTED_BOOT') or
                      os.path.join(data_dir(), 'expected-boot.txt'))


def expected_kunit():
    """KUnit suites that must print a result on this variant and arch
    (expected-kunit.txt: 'SUITE [ours|stock] [x86_64|arm64]', a line
    without a variant or an arch applying to every one)."""
    variant = os.environ.get('FH_VARIANT', '')
    arch = os.environ.get('FH_ARCH', '')
    suites = []
    for line in list_lines(os.environ.get('FH_EXPECTED_KUNIT') or
                           os.path.join(data_dir(), 'expected-kunit.txt')):
        words = line.split()
        variants = [w for w in words[1:] if w in ('ours', 'stock')]
        arches = [w for w in words[1:] if w in ('x86_64', 'arm64')]
        if variants and variant and variant not in variants:
            continue
        if arches and arch and arch not in arches:
            continue
        suites.append(words[0])
    return suites


# The results a known-failure entry may expect.
RESULT_WORDS = ('FAIL', 'UNRESOLVED', 'UNTESTED', 'UNSUPPORTED', 'XFAIL', 'SKIP',
                'CRASH')
# Results no entry may list: log lines are waived by pattern ('waive:'),
# and a die line or a D or B taint is never excused (but in the boot of
# a listed CRASH, see main()).
LOG_RESULT = 'guest: kernel log free of oops/BUG/WARNING/lockdep/stall/hung task'
TAINT_RESULT = 'guest: kernel not tainted D (died) or B (bad page) at the end'
UNLISTABLE = (LOG_RESULT, TAINT_RESULT)


def load_known(path):
    """Entries, waivers and malformed lines of a known-failures file.

    Returns (known, waivers, bad): known maps NAME to (RESULT, reason),
    waivers is a list of (compiled PATTERN, reason, PATTERN), bad a list
    of (line, what is wrong with it)."""
    known, waivers, bad = {}, [], []
    for line in list_lines(path):
        if line.startswith('waive:'):
            pat, _, why = line[len('waive:'):].partition('|')
            pat, why = pat.strip(), why.strip()
            try:
                rx = re.compile(pat)
            except re.error as e:
                bad.append((line, 'bad pattern: %s' % e))
                continue
            if not pat or not why:
                bad.append((line, "a waiver is 'waive: PATTERN | reason'"))
                continue
            waivers.append((rx, why, pat))
            continue
        fields = [f.strip() for f in line.split('|', 2)]
        if len(fields) != 3 or not fields[2]:
            bad.append((line, "an entry is 'NAME | RESULT | reason'"))
            continue
        name, res, why = fields
        if res not in RESULT_WORDS:
            bad.append((line, 'expected result %r is not one of %s' %
                        (res, ', '.join(RESULT_WORDS))))
        elif name in UNLISTABLE:
            bad.append((line, 'cannot be listed: kernel log lines are waived by '
                        "pattern ('waive: PATTERN | reason'), and a die line or "
                        'a D or B taint never is (but in the boot of a test '
                        'listed as CRASH)'))
        elif name in known:
            bad.append((line, 'listed twice'))
        else:
            known[name] = (res, why)
    return known, waivers, bad


# A die() line, x86's "invalid opcode: 0000 [#1] PREEMPT SMP", arm64's
# "Internal error: Oops: ... [#1]": never waived.
DIE_LINE = re.compile(r'\[#\d+\]')
# /proc/sys/kernel/tainted bits that fail a run: D (died, bit 7) and B
# (bad page, bit 5; also set by KASAN and SLUB reports).
TAINT_FAIL = {128: 'D (died)', 32: 'B (bad page)'}
TAINT_LINE = re.compile(r'fh-taint: (\d+)')


def guest_taint(gdir):
    """None when the guest's console has no fh-taint line, else the flags
    of all of them (the kexec step leaves one per kernel)."""
    found = TAINT_LINE.findall(read(os.path.join(gdir, 'console.log')) or '')
    return functools.reduce(operator.or_, map(int, found)) if found else None


def kunit_suites(dmesg):
    """Names of the KUnit suites with a top-level KTAP result line."""
    names = set()
    for raw in dmesg.splitlines():
        m = re.match(r'^(?:not ok|ok) \d+ (?:- )?(\S+)', re.sub(TS, '', raw))
        if m:
            names.add(m.group(1))
    return names


def guest_selection(gdir):
    """The tests of a guest's share (its job.sh's FH_TESTS), None when it
    ran everything (no FH_TESTS, or an empty one)."""
    job = read(os.path.join(gdir, 'job.sh'))
    m = re.search(r'^FH_TESTS="([^"]*)"', job or '', re.M)
    if not m or not m.group(1).split():
        return None
    return set(m.group(1).split())


def case_paths(ftdir):
    """Description -> path of each ftracetest case ('test.d/ftrace/x.tc',
    'last.d/y.tc')."""
    paths = {}
    for d in ('test.d', 'last.d'):
        top = os.path.join(ftdir, d)
        for root, _, files in os.walk(top):
            for fn in files:
                if not fn.endswith('.tc'):
                    continue
                p = os.path.join(root, fn)
                for line in (read(p) or '').splitlines():
                    if line.startswith('# description:'):
                        paths.setdefault(line.split(':', 1)[1].strip(),
                                         os.path.relpath(p, ftdir))
                        break
    return paths


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
    """Description -> reason of each case of timing-cases.txt (data_dir()):
    the guest runs such a case once more when it fails."""
    path = os.environ.get('FH_TIMING_CASES') or os.path.join(data_dir(), 'timing-cases.txt')
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


# A guest's boots.  check-guests.sh boots a guest again when its kernel
# died in a test: RESULTS/guestN is the first boot, guestN.boot2,
# guestN.boot3... the next ones, each running what the one before left
# (host/remaining.py, from the functions below).

def guest_boots(gdir, out):
    """The boots of the guest in @gdir, first first: @gdir, then its
    guestN.bootM siblings."""
    if gdir == out:
        return [gdir]
    parent, base = os.path.split(gdir)
    more = []
    for d in os.listdir(parent):
        m = re.match(re.escape(base) + r'\.boot(\d+)$', d)
        if m and os.path.isdir(os.path.join(parent, d)):
            more.append((int(m.group(1)), os.path.join(parent, d)))
    return [gdir] + [d for _, d in sorted(more)]


def job_setting(gdir, name):
    """The value of @name in a boot's job.sh, or None."""
    m = re.search(r'^%s=(\S*)$' % name, read(os.path.join(gdir, 'job.sh')) or '', re.M)
    return m.group(1) if m else None


def job_tests(gdir):
    """(tests, last) of a boot's job.sh: its FH_TESTS as a list, None when
    it ran everything (no FH_TESTS, or an empty one), [] for 'none' (a
    boot for last.d alone); and whether it ran last.d (FH_LAST)."""
    job = read(os.path.join(gdir, 'job.sh')) or ''
    m = re.search(r'^FH_TESTS="([^"]*)"', job, re.M)
    tests = m.group(1).split() if m else []
    last = not re.search(r'^FH_LAST=0', job, re.M)
    if tests == ['none']:
        return [], last
    return tests or None, last


# One run of a test in a boot: kind 'tc' (an ftracetest case at the top
# level), 'tc-instance' (its run in an instance), 'livepatch', 'last'
# and 'last-instance' (last.d's cases); path as FH_TESTS names it
# ('ftrace/x.tc', 'livepatch/test-x.sh'; 'last.d/x.tc'); suite and name
# as the table prints them.
Run = collections.namedtuple('Run', 'kind path suite name')


def run_key(run):
    return (run.kind, run.path)


def tc_info(ftdir, path):
    """(description, whether it has an instance run) of the ftracetest
    case at @path under FTRACETEST_DIR, read as ftracetest reads them."""
    text = read(os.path.join(ftdir, path)) or ''
    m = re.search(r'^#[ \t]*description:(.*)$', text, re.M)
    return (m.group(1).strip() if m else path,
            bool(re.search(r'^#[ \t]*flags:.*instance', text, re.M)))


def last_cases(ftdir):
    """last.d's cases ('last.d/x.tc'), in ftracetest's order for a
    directory (find | sort)."""
    found = []
    for root, _, files in os.walk(os.path.join(ftdir, 'last.d')):
        found += [os.path.join(root, f) for f in files if f.endswith('.tc')]
    return [os.path.relpath(p, ftdir) for p in sorted(found)]


def run_order(tests, last, ftdir):
    """The runs of a boot's job in the order the guest makes them
    (job-check.sh): the ftracetest cases of @tests in the order given (a
    list given to ftracetest is not sorted), then the instance runs of
    those whose flags ask for one (ftracetest's second loop), the
    livepatch kselftests, then, with @last, the cases of last.d."""
    def cases(kind, paths, under):
        info = [(p, tc_info(ftdir, under + p)) for p in paths]
        return ([Run(kind, p, 'ftracetest', d) for p, (d, _) in info] +
                [Run(kind + '-instance', p, 'ftracetest', d + ' (instance)')
                 for p, (d, inst) in info if inst])
    tests = tests or []
    order = cases('tc', [t for t in tests if not t.startswith('livepatch/')], 'test.d/')
    order += [Run('livepatch', t, 'livepatch', t[len('livepatch/'):])
              for t in tests if t.startswith('livepatch/')]
    if last:
        order += cases('last', last_cases(ftdir), '')
    return order


def boot_runs(gdir, requires):
    """What a boot's result files say: (kinds of run, results) pairs."""
    def results(fn, req, suite='ftracetest', stopped=None):
        return ftracetest(read(os.path.join(gdir, fn)) or '', req, suite,
                          stopped, cut_short=False)[0]
    ft = with_retries(results('ftracetest.txt', requires, stopped=stopped_cases(gdir)),
                      read(os.path.join(gdir, 'ftracetest-retry.txt')), requires)
    return ((('tc', 'tc-instance'), ft),
            (('last', 'last-instance'), results('ftracetest-last.txt', requires)),
            (('livepatch',), results('livepatch.txt', {}, 'livepatch')))


def assign(order, runs):
    """Run key -> its result in this boot, each result given to the first
    run of @order of its name without one; and the results no run names."""
    got, extra = {}, []
    for kinds, results in runs:
        for r in results:
            run = next((x for x in order if x.kind in kinds and x.name == r[1]
                        and run_key(x) not in got), None)
            if run:
                got[run_key(run)] = r
            else:
                extra.append(r)
    return got, extra


# A test's start in the kernel log: job-check.sh's lines, written to
# /dev/kmsg as each ftracetest case and livepatch kselftest starts,
# 'ftrace-harness: start RUN N [(instance) ]PATH', RUN ftracetest, retry
# (timing-cases.txt's second run), last (last.d) or livepatch; 'harness'
# for a step of the job after the tests (the kmemleak scan).
START_LINE = re.compile(r'\[\s*\d+\.\d+\] ftrace-harness: start (\w+) \d+\s+'
                        r'(\(instance\)\s+)?(\S+)')
# Where the kernel died: a die line ('Oops: 0000 [#1] PREEMPT SMP') or a
# panic; and the first line of the report (the die line unless one of
# these comes first), and where it died (x86's RIP, arm64's pc).
DEATH_LINE = re.compile(r'\[\s*\d+\.\d+\] .*(?:\[#\d+\]|Kernel panic)')
DEATH_FIRST = re.compile(r'\[\s*\d+\.\d+\] (?:BUG:|kernel BUG|Unable to handle|'
                         r'general protection fault|Internal error|Kernel panic)')
DEATH_WHERE = re.compile(r'\[\s*\d+\.\d+\] ((?:RIP: |pc : )\S+)')
# guest-init.sh's line as it starts the job.
JOB_START = 'harness-guest: kernel '
# case-watchdog.sh's line as it ends a boot whose case outlived its kill.
STUCK_LINE = re.compile(r'harness: case \d+ \(\S+\) is stuck in the kernel')


def start_key(m):
    """The run key a START_LINE match names."""
    run, inst, path = m.group(1), m.group(2), m.group(3)
    if run not in ('ftracetest', 'retry', 'last', 'livepatch'):
        return (run, path)          # the harness's own step, no test
    if run == 'livepatch':
        return ('livepatch', 'livepatch/' + path)
    if run == 'last':
        return ('last-instance' if inst else 'last', path[path.rfind('last.d/'):])
    i = path.rfind('test.d/')
    path = path[i + len('test.d/'):] if i >= 0 else path
    if run == 'retry':
        return ('retry', path)
    return ('tc-instance' if inst else 'tc', path)


def death_text(lines, death):
    """The first line of the report ending in the die or panic line at
    @death, with where the kernel was ('; RIP: 0010:f+0x1/0x2')."""
    first = death
    for i in range(death - 1, max(death - 30, -1), -1):
        if START_LINE.search(lines[i]):
            break
        if DEATH_FIRST.search(lines[i]):
            first = i
    text = re.sub(r'^.*?\[\s*\d+\.\d+\]\s*', '', lines[first]).strip()
    where = next((m.group(1) for l in lines[death:death + 60]
                  for m in [DEATH_WHERE.search(l)] if m), None)
    return text + ('; ' + where if where else '')


# How a boot ended: died (its job did not finish, or its kernel died after
# the job started), started (the job started), cut (the runs of its
# order before this index count), crashed (the run it died in, or None)
# and why.
BootEnd = collections.namedtuple('BootEnd', 'died started cut crashed why')


def boot_state(gdir):
    """(console lines, index of the job's start or None, index of the first
    die or panic line after it or None, whether the job finished)."""
    lines = [l.rstrip('\r') for l in (read(os.path.join(gdir, 'console.log')) or '').splitlines()]
    start = next((i for i, l in enumerate(lines) if JOB_START in l), None)
    death = None
    if start is not None:
        death = next((i for i in range(start, len(lines)) if DEATH_LINE.search(lines[i])), None)
    return lines, start, death, os.path.exists(os.path.join(gdir, 'job.status'))


def boot_died(gdir):
    """Whether a boot's job started, and then its kernel died or the job
    did not finish."""
    _, start, death, finished = boot_state(gdir)
    return start is not None and (death is not None or not finished)


def boot_end(gdir, order, got):
    """How the boot in @gdir ended, its runs @order and their results @got.

    The run the kernel died in is the one whose start line (START_LINE)
    is the last before the first die or panic line; with no death in the
    log (a hang until the limit, QEMU gone), the last started, if it has
    no result.  Without start lines, the first run without a result.  Its
    results after that run are not counted: they ran on a kernel that
    had died, or never ran.
    """
    lines, start, death, finished = boot_state(gdir)
    if start is None:
        return BootEnd(not finished, False, len(order) if finished else 0, None,
                       'it died before its job started')
    if finished and death is None:
        return BootEnd(False, True, len(order), None, 'its job finished')
    pos = {run_key(r): i for i, r in enumerate(order)}
    ft_end = next((i for i, r in enumerate(order) if not r.kind.startswith('tc')), len(order))
    runner = read(os.path.join(gdir, 'runner.txt')) or ''
    stuck = next((i for i in range(start, len(lines)) if STUCK_LINE.search(lines[i])), None)
    if death is not None:
        why = 'the kernel died in it: ' + death_text(lines, death)
    elif stuck is not None:
        # The case whose kill did not take is the last to have started
        # before the watchdog said so: its shell, stuck, holds ftracetest.
        death = stuck
        why = ('its processes outlived the case watchdog\'s kill, stuck in the kernel: '
               'the watchdog ended the boot')
    elif 'killed after the' in runner:
        why = 'the guest was killed at its time limit while it ran, no oops, BUG or panic in its log'
    else:
        why = 'QEMU exited while it ran, no oops, BUG or panic in its log'
    starts = [(i, start_key(m)) for i, l in enumerate(lines[start:], start)
              for m in [START_LINE.search(l)] if m]
    before = [k for i, k in starts if death is None or i < death]

    def place(key):
        """(index, run) of a start line's run; a second run (retry) stands
        after every ftracetest run, its case's top-level run the one named."""
        if key[0] == 'retry':
            key = ('tc', key[1])
            return (ft_end, order[pos[key]]) if key in pos else None
        return (pos[key], order[pos[key]]) if key in pos else None
    if before and before[-1][0] == 'harness':
        # A step of the job after the tests (the kexec step): the tests
        # that had not run yet are left.
        i = next((i for i, r in enumerate(order) if run_key(r) not in got), len(order))
        return BootEnd(True, True, i, None,
                       'it died in the harness\'s %s step: %s' % (before[-1][1], why))
    placed = place(before[-1]) if before else None
    if placed:
        at, run = placed
        if before[-1][0] == 'retry':
            retried = ftracetest(read(os.path.join(gdir, 'ftracetest-retry.txt')) or '',
                                 {}, cut_short=False)[0]
            done = any(r[1] == run.name for r in retried)
        else:
            done = run_key(run) in got
        if death is not None or not done:
            return BootEnd(True, True, at, run, why)
        return BootEnd(True, True, at if before[-1][0] == 'retry' else at + 1, None,
                       'it died between two tests, after %s' % run.name)
    if starts and not before:
        return BootEnd(True, True, 0, None, 'the kernel died before its first test: ' +
                       death_text(lines, death))
    # No start lines: the first run without a result.
    i = next((i for i, r in enumerate(order) if run_key(r) not in got), None)
    if i is None:
        return BootEnd(True, True, len(order), None,
                       'it died after its last test' +
                       (': ' + death_text(lines, death) if death is not None else ''))
    return BootEnd(True, True, i, order[i], why)


def crash_log(gdir, order, run):
    """The ftracetest log of the run a boot died in, or None: ftracetest
    numbers its runs in order, the instance runs after the others."""
    if not run.kind.startswith(('tc', 'last')):
        return None
    group = [r for r in order if r.kind.split('-')[0] == run.kind.split('-')[0]]
    n = group.index(run) + 1
    ldir = os.path.join(gdir, 'ftracetest-logs' + ('-last' if run.kind.startswith('last') else ''))
    try:
        files = sorted(f for f in os.listdir(ldir) if f.startswith('%d-' % n) and '-log.' in f)
    except OSError:
        files = []
    return os.path.join(ldir, files[0]) if files else None


def chain_results(boots, requires, ftdir):
    """Test results of a guest's boots, each test of its share once.

    The first boot's job names the share.  A boot's results count up to
    the run it died in (boot_end()); that run is a CRASH, and the other
    runs of its test go with it (no boot runs that test again); the runs
    after it are owed to the next boot.  A run still owed after the last
    boot has no result: a FAIL.  A boot that runs a case again for its
    instance run alone (the instance runs follow all the others) counts
    only that one.  Returns (results, crashes: (boot, full name, log or
    None), ends: boot -> BootEnd).
    """
    tests, last = job_tests(boots[0])
    share = run_order(tests, last, ftdir)
    owed = {run_key(r) for r in share}
    counted, extra, crashes, ends, gone = {}, [], [], {}, set()
    for b in boots:
        t, lst = job_tests(b)
        order = run_order(t, lst, ftdir)
        got, more = assign(order, boot_runs(b, requires))
        end = ends[b] = boot_end(b, order, got)
        extra += more
        for r in order[:end.cut]:
            if run_key(r) in owed and run_key(r) in got:
                counted[run_key(r)] = got[run_key(r)]
                owed.discard(run_key(r))
        if end.crashed:
            r = end.crashed
            nxt = boots.index(b) + 1
            why = '%s (%s%s)' % (end.why, os.path.basename(b),
                                 ('; its share went on in %s' % os.path.basename(boots[nxt])
                                  if nxt < len(boots) else ''))
            counted[run_key(r)] = (r.suite, r.name, 'CRASH', why)
            owed = {k for k in owed if k[1] != r.path}
            gone.add(r.path)
            crashes.append((b, '%s: %s' % (r.suite, r.name), crash_log(b, order, r)))
    results = []
    lastb = ends[boots[-1]]
    for r in share:
        if run_key(r) in counted:
            results.append(counted[run_key(r)])
        elif r.path not in gone:
            results.append((r.suite, r.name, 'FAIL', "in this guest's share, no result%s" %
                            ('; its last boot, %s, died before it (%s)' %
                             (os.path.basename(boots[-1]), lastb.why) if lastb.died else '')))
    return results + extra, crashes, ends


def chained(boots):
    """Whether a guest's results are read boot by boot (chain_results()):
    its job named a share, and it booted more than once or its one boot
    died."""
    return job_tests(boots[0])[0] is not None and (len(boots) > 1 or boot_died(boots[0]))


def totals_problems(text, requires, what, suite='ftracetest'):
    """An ftracetest run's totals against its results, for a boot whose
    job finished (one that died never printed them)."""
    if text is None:
        return []
    return [p for p in ftracetest_run(text, requires, what, suite)[1]
            if not p.endswith('produced no results')]


# runner.txt lines (qemu-run.sh) that only say a boot did not finish.
UNFINISHED = ('guest did not finish its job', 'guest killed after the')


def boot_log_results(gdir, first, tag):
    """Boot self-tests (first guest only) and KUnit of a guest's first boot.

    They are read from the log the job saved when it started
    (dmesg-boot.txt): the suites can push the boot lines out of the
    kernel's log buffer before dmesg.txt is taken at the end.  Every guest
    runs KUnit, and a later guest's KUnit result is reported only when it
    is not PASS (the first guest's table lists each case once).  A
    guest's later boots run the same kernel on the same command line (the
    first guest's skip the boot self-tests): their KUnit is not read.
    """
    results, problems = [], []
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
    # A suite that prints nothing fails nothing by its cases: the list
    # says which must report.
    have = kunit_suites(dmesg)
    results += [('kunit', name + tag, 'FAIL',
                 'no result in the kernel log (expected-kunit.txt)')
                for name in expected_kunit() if name not in have]
    return results, problems


def share_results(gdir, requires, tag):
    """Test results and problems of a guest that booted once and did not
    die: its result files as they are, each checked against its totals."""
    results, problems = [], []
    job = read(os.path.join(gdir, 'job.sh')) or ''
    m = re.search(r'^FH_TESTS="([^"]*)"', job, re.M)
    share = m.group(1).split() if m else []
    has_tc = not share or any(t.endswith('.tc') for t in share)
    has_last = not re.search(r'^FH_LAST=0', job, re.M)
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
    text = read(os.path.join(gdir, 'livepatch.txt'))
    if text is not None:
        ft, ft_problems = ftracetest_run(text, {}, 'livepatch kselftests', 'livepatch')
        results += ft
        problems += [p + tag for p in ft_problems]
    # Every livepatch kselftest of the share reports a result: a kernel
    # without /sys/kernel/livepatch has job-check.sh write UNSUPPORTED.
    sel = guest_selection(gdir)
    got = {n for s, n, _, _ in results if s == 'livepatch'}
    for t in sorted(sel or ()):
        if t.startswith('livepatch/') and t[len('livepatch/'):] not in got:
            results.append(('livepatch', t[len('livepatch/'):], 'FAIL',
                            'in this guest\'s share, no result%s' % tag))
    return results, problems


def guest_results(boots, first, requires, ftdir):
    """Results and harness problems of one guest, over its boots.

    Returns (results, problems, crashes, excusable): crashes as
    chain_results() gives them, excusable maps a boot that died in a test
    to its problems that only say it did not finish, which a listed CRASH
    of that test explains (main() decides).
    """
    gdir = boots[0]
    results, problems, excusable = [], [], {}
    crashes, ends = [], {}
    chain = chained(boots)
    if chain:
        share, crashes, ends = chain_results(boots, requires, ftdir)
    gtag = '' if first else ' (%s)' % os.path.basename(gdir)
    for j, b in enumerate(boots):
        tag = gtag if j == 0 else ' (%s)' % os.path.basename(b)
        end = ends.get(b)
        mine = excusable.setdefault(b, []) if end and end.crashed else problems
        for line in (read(os.path.join(b, 'runner.txt')) or '').splitlines():
            (mine if any(u in line for u in UNFINISHED) else problems).append(
                line.replace('qemu-run.sh: FAIL: ', '') + tag)
        status = read(os.path.join(b, 'job.status'))
        if read(os.path.join(b, 'dmesg.txt')) is None:
            mine.append('guest left no dmesg.txt (it did not finish)' + tag)
        if status is None or status.strip() != '0':
            (mine if status is None else problems).append(
                'guest job did not finish (status %s)%s' %
                (status.strip() if status else 'missing', tag))
        for line in (read(os.path.join(b, 'case-watchdog-error.txt')) or '').splitlines():
            problems.append('case watchdog did not run: %s%s' % (line, tag))
        if j == 0:
            r, p = boot_log_results(b, first, gtag)
            results += r
            problems += p
            if not chain:
                r, p = share_results(b, requires, gtag)
                results += r
                problems += p
        if chain and status is not None:
            for fn, what, suite, req in (
                    ('ftracetest.txt', 'ftracetest', 'ftracetest', requires),
                    ('ftracetest-last.txt', 'ftracetest last.d', 'ftracetest', requires),
                    ('livepatch.txt', 'livepatch kselftests', 'livepatch', {})):
                problems += [p + tag for p in
                             totals_problems(read(os.path.join(b, fn)), req, what, suite)]
        # kmemleak.txt: the DEBUG=1 kernel's leak scan after the suites,
        # one result per guest (named with the guest), from the boot that
        # got to the end of the job.
        # kexec.txt: the kexec step's result (kexec-step.sh), likewise.
        for fn, what, suite in (('kmemleak.txt', 'kmemleak scan', 'kmemleak'),
                                ('kexec.txt', 'kexec step', 'kexec')):
            text = read(os.path.join(b, fn))
            if text is not None:
                ft, ft_problems = ftracetest_run(text, {}, what, suite)
                results += [(s, n + gtag, r, w) for s, n, r, w in ft]
                problems += [p + tag for p in ft_problems]
    if (any(job_setting(b, 'FH_KEXEC') == '1' for b in boots) and
            not any(os.path.exists(os.path.join(b, 'kexec.txt')) for b in boots)):
        problems.append('the job asked for the kexec step and no boot left its '
                        'result (kexec.txt)' + gtag)
    if chain:
        results += share
    return results, problems, crashes, excusable


def log_results(loglines, waivers):
    """The kernel log result from the guests' log-problems lines,
    (line, whether it is of the boot of a listed CRASH) pairs: a line
    fails unless a waiver's pattern matches it; a die line always fails,
    but in the boot of a listed CRASH.  Returns (result, unwaived lines,
    waived (line, reason) pairs, waiver patterns that matched nothing)."""
    bad, waived, used = [], [], set()
    for line, crash_listed in loglines:
        hit = None
        if crash_listed or not DIE_LINE.search(line):
            hit = next((w for w in waivers if w[0].search(line)), None)
        if hit:
            waived.append((line, hit[2]))
            used.add(hit[2])
        else:
            bad.append(line)
    why = ''
    if bad:
        why = '%d line(s) not waived (Guest kernel log problems, below)' % len(bad)
    result = ('guest', LOG_RESULT.split(': ', 1)[1], 'FAIL' if bad else 'PASS', why)
    return result, bad, waived, [w[2] for w in waivers if w[2] not in used]


def taint_result(taints):
    """One result for every guest's last fh-taint line: (guest, value or
    None) pairs."""
    why = []
    for g, value in taints:
        if value is None:
            why.append('%s: no "fh-taint: N" line on its console (the job '
                       'did not end, or guest-init.sh did not print it)' % g)
            continue
        flags = [f for bit, f in sorted(TAINT_FAIL.items(), reverse=True) if value & bit]
        if flags:
            why.append('%s: tainted %d: %s' % (g, value, ', '.join(flags)))
    return ('guest', TAINT_RESULT.split(': ', 1)[1], 'FAIL' if why else 'PASS',
            '; '.join(why))


def main():
    out, known_path, ftdir = sys.argv[1:4]
    header = sys.argv[4:]
    known, waivers, bad_entries = load_known(known_path)
    lines = list(header)
    results = []
    problems = []

    requires = ftracetest_requires(ftdir)
    hangs = []
    case_logs = {}
    taints = []
    selection, ran_all, ran_last = set(), False, False
    crashes, excusable, boot_dirs = [], {}, []
    for i, gdir in enumerate(guests(out)):
        boots = guest_boots(gdir, out)
        boot_dirs += boots
        for b in boots:
            case_logs.update(failed_case_logs(b))
        r, p, c, e = guest_results(boots, i == 0, requires, ftdir)
        results += r
        problems += p
        crashes += c
        excusable.update(e)
        sel = guest_selection(gdir)
        if sel is None:
            ran_all = True
        else:
            selection |= sel
        if not re.search(r'^FH_LAST=0', read(os.path.join(gdir, 'job.sh')) or '', re.M):
            ran_last = True
    # A boot that died in a test listed as CRASH: what only says it did
    # not finish is that crash, and so are its missing taint line, its D
    # taint and its die lines, which the waivers may then match.
    listed_crash = {b for b, full, _ in crashes if known.get(full, ('',))[0] == 'CRASH'}
    for b, ps in excusable.items():
        if b not in listed_crash:
            problems += ps
    for b, full, log in crashes:
        if log:
            text = read(log) or ''
            case_logs[full.split(': ', 1)[1]] = (log, text.splitlines()[-FAILED_LOG_LINES:])
    loglines = []
    for b in boot_dirs:
        for line in (read(os.path.join(b, 'log-problems.txt')) or '').strip().splitlines():
            if b != out:
                line = '%s: %s' % (os.path.basename(b), line)
            loglines.append((line, b in listed_crash))
        for fn in sorted(f for f in os.listdir(b) if re.match(r'^case-hang-\d+\.txt$', f)):
            hangs.append((os.path.join(b, fn), read(os.path.join(b, fn)) or ''))
        if b not in listed_crash:
            taints.append((os.path.basename(b), guest_taint(b)))

    # Every guest shard.py gave a share to left its directory: one that
    # never started would otherwise take its share's tests out unseen.
    for n, share in enumerate((read(os.path.join(out, 'shards.txt')) or '').splitlines(), 1):
        if share.split() and not os.path.isdir(os.path.join(out, 'guest%d' % n)):
            problems.append('guest %d of shards.txt left no results directory '
                            '(guest%d): its %d tests did not run' %
                            (n, n, len(share.split())))

    log_result, log_bad, log_waived, waivers_unused = log_results(loglines, waivers)
    results.append(log_result)
    results.append(taint_result(taints))
    for p in problems:
        results.append(('harness', p, 'FAIL', ''))

    # Classify: only PASS passes; anything else needs an entry that
    # expects that very result.
    passed, failed, listed, retried = [], [], [], []
    stale = []      # (entry, what is wrong): each fails the run
    for suite, name, res, why in results:
        full = '%s: %s' % (suite, name)
        entry = known.get(full)
        if res == 'PASS':
            passed.append(full)
            if why == 'RETRIED':
                retried.append(full)
            if entry:
                stale.append((full, 'listed as %s, PASSED now: take the entry off'
                              % entry[0]))
        elif entry and entry[0] == res:
            listed.append((full, res, entry[1]))
        elif entry:
            failed.append((full, res, 'the known-failures entry expects %s%s' %
                           (entry[0], ('; ' + why) if why else '')))
        else:
            failed.append((full, res, why))
    for line, what in bad_entries:
        stale.append((line, what))

    # Entries of tests that did not run: stale if the run selected them
    # (a full run selects every test), not checked if not.
    ran = {'%s: %s' % (r[0], r[1]) for r in results}
    paths = case_paths(ftdir)
    disabled = any(r[0] == 'boot' and r[1] == 'startup self-tests' for r in results)
    unchecked = []
    for full in known:
        if full in ran:
            continue
        suite, _, name = full.partition(': ')
        picked = True
        if suite == 'ftracetest':
            path = paths.get(re.sub(r' \(instance\)$', '', name))
            if path is None:
                stale.append((full, 'no ftracetest case has this description'))
                continue
            if path.startswith('last.d/'):
                picked = ran_last
            else:
                picked = ran_all or path[len('test.d/'):] in selection
        elif suite == 'livepatch':
            picked = ran_all or 'livepatch/' + name in selection
        elif suite == 'boot' and disabled:
            picked = False
        if picked:
            stale.append((full, 'listed as %s, did not run at all' % known[full][0]))
        else:
            unchecked.append(full)

    lines.append('')
    lines.append('%-17s %s' % ('RESULT', 'TEST'))
    for suite, name, res, why in results:
        full = '%s: %s' % (suite, name)
        shown = res
        if res != 'PASS' and full in known and known[full][0] == res:
            shown = 'KNOWN-' + res
        elif why == 'RETRIED':
            shown = 'FAIL,PASS'
        lines.append('%-17s %s' % (shown, full))
    if log_bad:
        lines.append('')
        lines.append('Guest kernel log problems:')
        lines += ['    ' + l for l in log_bad[:60]]
    if log_waived:
        lines.append('')
        lines.append('Guest kernel log lines waived by %s:' % known_path)
        lines += ['    %s (waive: %s)' % (l, pat) for l, pat in log_waived[:60]]
    if waivers_unused:
        lines.append('')
        lines.append('Waivers that matched no line of this run:')
        lines += ['    waive: ' + pat for pat in waivers_unused]
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
    if unchecked:
        lines.append('')
        lines.append('Listed as known failures, not checked (this run did not '
                     'select them: TESTS=, SKIP=, PART=):')
        lines += ['    ' + u for u in unchecked]
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
    # Stale and malformed entries fail the run, each named.
    failed += [('known-failures: ' + entry, 'STALE', what) for entry, what in stale]
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
