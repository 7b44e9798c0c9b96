#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the files of the ftrace core call down their layers only.

The layer table is the one at the top of kernel/trace/ftrace_internal.h:

    Layers, lowest first ...
     *   1 data:        ftrace_rec.c ftrace_hash.c
     *   2 call path:   ftrace_call.c
     *                  (a line without a number continues the layer above)

The calls are read from the built objects: an object that leaves a symbol
undefined calls (or reads) the object of the table that defines it.  The
check fails, naming the symbols, when a file calls a file of a higher
layer, or when files of one layer call each other round in a circle.

Usage:
    check-ftrace-layers.py [--nm NM] [--sources DIR] HEADER OBJDIR
    check-ftrace-layers.py --self-test
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

TABLE_START = re.compile(r'^\s*\*\s*Layers, lowest first')
ROW = re.compile(r'^\s*\*\s+(\d+)\s+([\w /-]+):\s*(.*)$')
CONT = re.compile(r'^\s*\*\s{3,}((?:[\w-]+\.c\s*)+)$')


def read_table(header):
    """Return [(number, name, [files])] from the header's layer table."""
    layers = []
    inside = False
    with open(header) as f:
        for line in f:
            if not inside:
                inside = bool(TABLE_START.match(line))
                continue
            m = ROW.match(line)
            if m:
                layers.append((int(m.group(1)), m.group(2).strip(),
                               m.group(3).split()))
                continue
            m = CONT.match(line)
            if m and layers:
                layers[-1][2].extend(m.group(1).split())
                continue
            if layers:
                break
    if not layers:
        sys.exit(f'{header}: no layer table ("Layers, lowest first")')
    return layers


def symbols(nm, obj):
    """Return (defined, undefined) global symbols of one object."""
    out = subprocess.run([nm, obj], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == 'U':
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in 'BDGRTVW':
            defined.add(parts[2])
    return defined, undefined


def check(layers, objdir, nm='nm', sources=()):
    """Return the list of problems, empty when the calls go down only."""
    layer_of = {}
    for number, name, files in layers:
        for f in files:
            if f in layer_of:
                return [f'{f} is in two layers']
            layer_of[f] = (number, name)
    problems = [f'{f} is in no layer of the table'
                for f in sorted(sources) if f not in layer_of]

    defined_in = {}
    undefined = {}
    for f in layer_of:
        obj = os.path.join(objdir, f[:-2] + '.o')
        if not os.path.exists(obj):
            continue	# not built in this configuration
        defs, undefined[f] = symbols(nm, obj)
        for s in defs:
            defined_in[s] = f

    calls = {}
    for f, undefs in undefined.items():
        for s in undefs:
            g = defined_in.get(s)
            if g and g != f:
                calls.setdefault((f, g), set()).add(s)

    for (f, g), syms in sorted(calls.items()):
        (lf, nf), (lg, ng) = layer_of[f], layer_of[g]
        if lg > lf:
            problems.append(f'upward call: {f} ({lf} {nf}) -> {g} ({lg} {ng}): '
                            + ' '.join(sorted(syms)))

    # Circles among files of one layer (across layers, the upward check
    # already names one call of any circle).
    succ = {}
    for (f, g) in calls:
        if layer_of[f][0] == layer_of[g][0]:
            succ.setdefault(f, set()).add(g)
    for scc in strongly_connected(succ):
        if len(scc) > 1:
            inner = [f'{f} -> {g} ({" ".join(sorted(calls[(f, g)]))})'
                     for f in sorted(scc) for g in sorted(succ.get(f, ()))
                     if g in scc]
            problems.append('files call each other: ' + '; '.join(inner))
    return problems


def strongly_connected(succ):
    """Tarjan's algorithm, iterative; yields sets of nodes."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    nodes = set(succ) | {g for gs in succ.values() for g in gs}
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(succ.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    scc = set()
                    while True:
                        x = stack.pop()
                        on_stack.discard(x)
                        scc.add(x)
                        if x == v:
                            break
                    out.append(scc)
            elif w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                on_stack.add(w)
                work.append((w, iter(sorted(succ.get(w, ())))))
            elif w in on_stack:
                low[v] = min(low[v], index[w])
    return out


SELF_TEST_HEADER = """/*
 * Layers, lowest first:
 *   1 data:      low.c
 *   2 engine:    mid.c
 *                mid2.c
 *   3 files:     top.c
 */
"""


def self_test():
    """Build tiny objects with the host's compiler and check the checker."""
    cc = shutil.which('gcc') or shutil.which('cc')
    if not cc:
        sys.exit('check-ftrace-layers: self-test needs a C compiler')
    cases = {
        'clean': ({'low.c': 'int low(void) { return 1; }',
                   'mid.c': 'int low(void); int mid(void) { return low(); }',
                   'mid2.c': 'int mid(void); int mid2(void) { return mid(); }',
                   'top.c': 'int mid2(void); int top(void) { return mid2(); }'},
                  None),
        'upward call': ({'low.c': 'int top(void); int low(void) { return top(); }',
                         'mid.c': 'int mid(void) { return 0; }',
                         'mid2.c': 'int mid2(void) { return 0; }',
                         'top.c': 'int top(void) { return 0; }'},
                        'upward call: low.c (1 data) -> top.c (3 files): top'),
        'upward read': ({'low.c': 'extern int top_state; int low(void) { return top_state; }',
                         'mid.c': 'int mid(void) { return 0; }',
                         'mid2.c': 'int mid2(void) { return 0; }',
                         'top.c': 'int top_state;'},
                        'upward call: low.c (1 data) -> top.c (3 files): top_state'),
        'circle': ({'low.c': 'int low(void) { return 1; }',
                    'mid.c': 'int mid2(void); int mid(void) { return mid2(); }',
                    'mid2.c': 'int mid(void); int mid2(void) { return mid(); }',
                    'top.c': 'int top(void) { return 0; }'},
                   'files call each other: mid.c -> mid2.c (mid2); mid2.c -> mid.c (mid)'),
    }
    # A source the table does not name.
    extra = {'unlisted': ['new.c']}
    cases['unlisted'] = (cases['clean'][0], 'new.c is in no layer of the table')
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        header = os.path.join(tmp, 'internal.h')
        with open(header, 'w') as f:
            f.write(SELF_TEST_HEADER)
        layers = read_table(header)
        for name, (sources, expect) in cases.items():
            objdir = os.path.join(tmp, name.replace(' ', '-'))
            os.mkdir(objdir)
            for src, text in sources.items():
                path = os.path.join(objdir, src)
                with open(path, 'w') as f:
                    f.write(text + '\n')
                subprocess.run([cc, '-c', '-O0', '-o', path[:-2] + '.o', path],
                               check=True)
            problems = check(layers, objdir, sources=list(sources) + extra.get(name, []))
            if expect is None:
                ok = not problems
            else:
                ok = expect in problems
            print(f'  layers self-test: {name}: {"ok" if ok else "WRONG"}'
                  + ('' if ok else f' (got {problems})'))
            failed += not ok
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--nm', default='nm')
    ap.add_argument('--self-test', action='store_true')
    ap.add_argument('--sources', action='append', default=[],
                    help='directory whose .c files must all be in the table (repeatable)')
    ap.add_argument('header', nargs='?')
    ap.add_argument('objdir', nargs='?')
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if not args.header or not args.objdir:
        ap.error('HEADER and OBJDIR are needed')
    layers = read_table(args.header)
    sources = sorted({f for d in args.sources if os.path.isdir(d)
                      for f in os.listdir(d) if f.endswith('.c')})
    problems = check(layers, args.objdir, args.nm, sources)
    for p in problems:
        print(f'check-ftrace-layers: {p}', file=sys.stderr)
    if problems:
        print(f'check-ftrace-layers: {len(problems)} problem(s); the layer table '
              f'is at the top of {os.path.basename(args.header)}', file=sys.stderr)
        return 1
    nfiles = sum(len(f) for _, _, f in layers)
    print(f'  LAYERS  {nfiles} files in {len(layers)} layers, calls go down only')
    return 0


if __name__ == '__main__':
    sys.exit(main())
