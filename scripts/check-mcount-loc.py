#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the recorded call sites against the disassembly.

check-mcount-loc.py [--arch x86_64|arm64] [--objdump OBJDUMP] [--nm NM]
                    vmlinux [module.ko...]

x86_64 with NOPs from the build (CONFIG_PREFER_C_RECORDMCOUNT):
scripts/recordmcount turned each "call __fentry__" into the 5-byte NOP and
its relocation into R_X86_64_NONE; no call to __fentry__ may be left, and
the sites must match the records:

  vmlinux  the sorted table between __start_mcount_loc and
           __stop_mcount_loc, read from the file (without the copies of
           its last entry that pad it where 'recordmcount -V' dropped the
           dead sites), against the functions of 'objdump -d' that start
           with that NOP (after an ENDBR64, if any)
  modules  the relocations of .rela__mcount_loc, resolved to section +
           offset through the symbol table, against the NOPs that
           'objdump -dr' shows with an R_X86_64_NONE to __fentry__

x86_64 without them: the sites are the calls to __fentry__, and the table
is not padded.

arm64: the compiler's patchable entries (-fpatchable-function-entry=N,M,
read from the build's own command lines) are the sites: every function
that starts with two NOPs (after its BTI landing pad, if any) and has M
NOPs just before its symbol must have a record at the first of all of
them, and every record must point at such an entry (or at a run of N
NOPs: the body of an overridden weak function).  vmlinux's table is read
from the R_AARCH64_RELATIVE relocations that fill it; a module's is
__patchable_function_entries.  With a slot word (M > 0) vmlinux went
through 'recordmcount -V': each live entry opens with "mov x9, x30" and a
NOP, the table is sorted and padded, and no record may point at a dead body.
CALL_OPS entries (M > 0, no ftrace_slot_calls in vmlinux) keep their
NOPs, and the build's sorttable zeroed the dead weak bodies' records.

x86_64 where the build's sorttable zeroed the records of the calls that
open no function (bodies of overridden weak functions, which lost their
symbol): one zero per such call, and the call needs no record.

It also checks that the vmlinux table is sorted where the boot code relies
on it (BUILDTIME_MCOUNT_SORT in ./.config, or arm64 with a slot word).
Prints one line per file and exits 1 on any difference, listing the first
few addresses.
"""
import functools
import os
import re
import struct
import subprocess
import sys


def elf_headers(data):
    """Section headers of a 64-bit LE ELF file, each (name, type, flags,
    addr, offset, size, link, info, align, entsize) with the name resolved.
    """
    if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
        raise ValueError('not a 64-bit little-endian ELF file')
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    if shnum == 0:
        shnum, = struct.unpack_from('<Q', data, shoff + 0x20)
    heads = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
             for i in range(shnum)]
    stroff = heads[shstrndx][4]
    out = []
    for h in heads:
        end = data.index(b'\0', stroff + h[0])
        out.append((data[stroff + h[0]:end].decode(),) + h[1:])
    return out


def run(cmd):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                          universal_newlines=True).stdout


def relative_relocs(data):
    """Target address -> value of each R_AARCH64_RELATIVE in .rela.dyn."""
    vals = {}
    for name, _, _, _, off, size, _, _, _, _ in elf_headers(data):
        if name == '.rela.dyn':
            for k in range(size // 24):
                where, info, addend = struct.unpack_from('<QQq', data, off + 24 * k)
                if info & 0xffffffff == 1027:       # R_AARCH64_RELATIVE
                    vals[where] = addend & (2 ** 64 - 1)
    return vals


@functools.lru_cache(maxsize=None)
def symbols(nm, path):
    """Name -> address of each symbol PATH defines (one nm run per file)."""
    syms = {}
    for line in run([nm, path]).splitlines():
        f = line.split()
        if len(f) == 3:
            syms[f[2]] = int(f[0], 16)
    return syms


def vmlinux_table(path, nm, arch):
    data = open(path, 'rb').read()
    syms = symbols(nm, path)
    start, stop = syms['__start_mcount_loc'], syms['__stop_mcount_loc']
    if arch == 'arm64':
        vals = relative_relocs(data)
        return [vals.get(a, 0) for a in range(start, stop, 8)]
    for name, _, _, addr, off, size, _, _, _, _ in elf_headers(data):
        if addr <= start < addr + size:
            base = off + start - addr
            n = (stop - start) // 8
            return list(struct.unpack_from('<%dQ' % n, data, base))
    raise ValueError('__start_mcount_loc is in no section')


FUNC = re.compile(r'^([0-9a-f]+) <([^>]+)>:$')
INSN = re.compile(r'^\s*([0-9a-f]+):\s+(\S+)\s*(\S*)')
CALL = re.compile(r'^\s*([0-9a-f]+):\s+call\s+[0-9a-f]+ <__fentry__>')
NOP5 = 'nopl 0x0(%rax,%rax,1)'


def vmlinux_sites(path, objdump, nops):
    """x86_64: the functions of vmlinux that start with the NOP (after an
    ENDBR64), and the calls to __fentry__ left; or,
    without NOPS, the calls and nothing left.  Third: the calls that open a
    function (the others are in bodies the linker left without a symbol)."""
    sites, calls, entries = [], [], []
    first = None        # the current function's first instructions
    for line in run([objdump, '-d', '--no-show-raw-insn', path]).splitlines():
        m = FUNC.match(line)
        if m:
            first = []
            continue
        m = CALL.match(line)
        if m:
            calls.append(int(m.group(1), 16))
        m = INSN.match(line)
        if not m or first is None:
            continue
        insn = ' '.join(line.split('\t', 1)[-1].split())
        first.append(insn)
        if first[:-1] in ([], ['endbr64']):
            if insn == NOP5:
                sites.append(int(m.group(1), 16))
            elif CALL.match(line):
                entries.append(int(m.group(1), 16))
        if insn != 'endbr64' or len(first) > 1:
            first = None
    return ((sites, calls, entries) if nops else (calls, [], entries))


def dropped_weak(table, calls, entries):
    """x86_64 sorttable zeroes the record of a call that opens no function
    (the body of an overridden weak function): the table without those
    zeros, and the calls they stood for, or None when they do not match."""
    zeros = table.count(0)
    if not zeros:
        return table, set()
    table = [a for a in table if a]
    gone = set(calls) - set(table)
    if len(gone) != zeros or gone & set(entries):
        return None
    return table, gone


def strip_padding(table):
    """The table without the copies of its last entry that pad it."""
    n = len(table)
    while n > 1 and table[n - 1] == table[n - 2]:
        n -= 1
    return table[:n]


def entry_nops(path, objdump, skip, prefix, reloc=False, prepared=False):
    """arm64 patchable entries in the disassembly of PATH.

    Returns the (section, address) of the first NOP of each entry: PREFIX
    NOPs just before a function's symbol, then two that open it (after its
    BTI landing pad or PACIASP, if any; with PREPARED, "mov x9, x30" and
    a NOP), functions named in SKIP left out;
    and the set of (section, address) of every run of PREFIX + 2 NOPs
    (where a record may point: the body of an overridden weak function).
    """
    sites, runs = [], set()
    opening = ['mov x9, x30' if prepared else 'nop', 'nop']
    section = None
    func = []       # first instructions of the current function
    label = None    # the current function's address
    before = []     # the NOPs just before it: (address)
    nops = []       # the run of NOPs just seen: (address)
    args = [objdump, '-d' + ('r' if reloc else ''), '--no-show-raw-insn', path]
    for line in run(args).splitlines():
        m = re.match(r'^Disassembly of section (\S+):', line)
        if m:
            section, func, nops = m.group(1), None, []
            continue
        m = FUNC.match(line)
        if m:
            func = None if m.group(2) in skip else []
            label = int(m.group(1), 16)
            before = [a for a in nops if a < label][-prefix:] if prefix else []
            continue
        m = INSN.match(line)
        if not m or ': R_' in line:
            continue
        addr, op = int(m.group(1), 16), m.group(2)
        if op == 'mov' and re.search(r'\smov\s+x9, x30$', line):
            op = 'mov x9, x30'
        nops = nops + [addr] if op == 'nop' else []
        if len(nops) >= prefix + 2:
            runs.add((section, nops[-(prefix + 2)]))
        if func is None or len(func) >= 3:
            continue
        func.append((addr, op))
        ops = [f[1] for f in func]
        first = None
        if ops[:2] == opening and len(ops) == 2:
            first = func[0][0]
        elif (len(ops) == 3 and ops[0] in ('bti', 'hint', 'paciasp') and
              ops[1:] == opening):
            first = func[1][0]
        if first is None:
            continue
        func = None
        want = [label - 4 * (prefix - i) for i in range(prefix)]
        if before == want:
            sites.append((section, label - 4 * prefix if prefix else first))
    return sites, runs


def entry_layout():
    """N, M of -fpatchable-function-entry in the build of the current
    directory (the flags every traced C file of init/ was compiled with)."""
    cmd = read_text('init/.main.o.cmd')
    m = re.search(r'-fpatchable-function-entry=(\d+)(?:,(\d+))?', cmd)
    if not m:
        raise ValueError('init/main.o was not built with -fpatchable-function-entry')
    return int(m.group(1)), int(m.group(2) or 0)


def asm_functions(nm):
    """Functions defined by the assembly objects of the build in the
    current directory: their NOPs are alternatives, not patchable entries."""
    names = set()
    for root, _, files in os.walk('.'):
        for fn in files:
            if not (fn.startswith('.') and fn.endswith('.o.cmd')):
                continue
            cmd = read_text(os.path.join(root, fn))
            if not re.search(r'^source_\S+ := \S+\.S$', cmd, re.M):
                continue
            obj = os.path.join(root, fn[1:-4])
            if not os.path.exists(obj):
                continue
            for line in run([nm, '--defined-only', obj]).splitlines():
                f = line.split()
                if len(f) == 3 and f[1] in 'tTwW':
                    names.add(f[2])
    return names


def read_text(path):
    with open(path, errors='replace') as f:
        return f.read()


def arm64_sites(path, objdump, skip, prefix, recorded, reloc=False,
                prepared=False):
    """The sites of PATH: the function entries, and the records that point
    at a run of NOPs as long as an entry (dead weak bodies; none once
    'recordmcount -V' PREPARED vmlinux)."""
    sites, pairs = entry_nops(path, objdump, skip, prefix, reloc, prepared)
    if prepared:
        return [a for _, a in sites]
    if reloc:
        return sites + [r for r in set(recorded) - set(sites) if r in pairs]
    addrs = [a for _, a in sites]
    have = {a for _, a in pairs}
    return addrs + [r for r in set(recorded) - set(addrs) if r in have]


def module_table(path, arm64=False):
    """(section, offset) of each record in a module's .rela__mcount_loc
    (arm64: .rela__patchable_function_entries; on x86_64 that section
    lists CALL_PADDING's padding, which is not ftrace's).

    A record is relocated against a symbol plus addend; the symbol may be a
    section symbol or a function, so resolve it to the section it is
    defined in and its value there.
    """
    data = open(path, 'rb').read()
    heads = elf_headers(data)
    names = [h[0] for h in heads]
    xindex = {}
    for h in heads:
        if h[1] == 18:      # SHT_SYMTAB_SHNDX
            xindex = dict(enumerate(struct.unpack_from(
                '<%dI' % (h[5] // 4), data, h[4])))
    recs = []
    for i, h in enumerate(heads):
        if names[i] != ('.rela__patchable_function_entries' if arm64
                        else '.rela__mcount_loc'):
            continue
        sym = heads[h[6]]          # sh_link: the symbol table
        for k in range(h[5] // 24):
            _, info, addend = struct.unpack_from('<QQq', data, h[4] + 24 * k)
            idx = info >> 32
            _, _, _, shndx, value, _ = struct.unpack_from(
                '<IBBHQQ', data, sym[4] + 24 * idx)
            if shndx == 0xffff:     # SHN_XINDEX
                shndx = xindex[idx]
            recs.append((names[shndx], value + addend))
    return recs


def module_sites(path, objdump, nops):
    """(section, offset) of each NOP of a module whose relocation to
    __fentry__ was made R_X86_64_NONE, and of each call to __fentry__ left;
    or, without NOPS, of the calls, and nothing left."""
    sites, calls = [], []
    section = None
    last = None
    for line in run([objdump, '-dr', '--no-show-raw-insn', path]).splitlines():
        m = re.match(r'^Disassembly of section (\S+):', line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r'^\s*([0-9a-f]+):\s+(\S+)', line)
        if m and not line.lstrip().startswith(m.group(1) + ': R_'):
            last = (int(m.group(1), 16), m.group(2))
            continue
        m = re.match(r'^\s*([0-9a-f]+): R_X86_64_(\S+)\s+__fentry__-0x4', line)
        if not m or not last or int(m.group(1), 16) != last[0] + 1:
            continue
        if m.group(2) == 'NONE' and last[1] == 'nopl':
            sites.append((section, last[0]))
        elif last[1] == 'call':
            calls.append((section, last[0]))
    return (sites, calls) if nops else (calls, [])


def no_calls_left(label, calls, fmt):
    """x86_64: a call to __fentry__ that recordmcount left is a site the
    kernel would never see."""
    if calls:
        print('  MCOUNT  %s: %d calls to __fentry__ left, e.g. %s' %
              (label, len(calls), fmt(calls[0])))
    return not calls


def compare(label, recorded, called, fmt):
    missing = sorted(set(called) - set(recorded))
    extra = sorted(set(recorded) - set(called))
    dups = len(recorded) - len(set(recorded))
    ok = not missing and not extra and not dups
    print('  MCOUNT  %s: %d sites, %d records%s' %
          (label, len(called), len(recorded), '' if ok else ': MISMATCH'))
    for what, items in (('not recorded', missing), ('not a site', extra)):
        for i in items[:5]:
            print('    %s: %s' % (what, fmt(i)))
        if len(items) > 5:
            print('    ... %d more %s' % (len(items) - 5, what))
    if dups:
        print('    %d duplicate records' % dups)
    return ok


def config_has(option, default):
    try:
        return 'CONFIG_%s=y\n' % option in open('.config').read()
    except OSError:
        return default


def drop_zeroed(table):
    """TABLE without the records the build's sorttable zeroed (those of
    dead weak bodies), saying how many there were."""
    zeros = table.count(0)
    if zeros:
        print('  MCOUNT  vmlinux: %d records of dead weak bodies zeroed at '
              'build' % zeros)
    return [a for a in table if a]


def buildtime_sort():
    return config_has('BUILDTIME_MCOUNT_SORT', True)


def nop_sites():
    """Whether the build made the x86_64 sites NOPs: our recordmcount, or
    the compiler (-mnop-mcount)."""
    return config_has('PREFER_C_RECORDMCOUNT', False) or compiler_nops()


def compiler_nops():
    """Whether the compiler wrote the x86_64 sites as NOPs (-mnop-mcount,
    HAVE_NOP_MCOUNT): modules' NOPs carry no relocation, and the build's
    sorttable zeroed vmlinux's dead records."""
    return config_has('HAVE_NOP_MCOUNT', False)


def module_entry_nops(path, objdump):
    """(section, offset) of each function of a module that starts with the
    5-byte NOP (after an ENDBR64)."""
    sites = []
    section, first = None, None
    for line in run([objdump, '-d', '--no-show-raw-insn', path]).splitlines():
        m = re.match(r'^Disassembly of section (\S+):', line)
        if m:
            section, first = m.group(1), None
            continue
        if FUNC.match(line):
            first = []
            continue
        m = INSN.match(line)
        if not m or first is None:
            continue
        insn = ' '.join(line.split('\t', 1)[-1].split())
        first.append(insn)
        if insn == NOP5 and first[:-1] in ([], ['endbr64']):
            sites.append((section, int(m.group(1), 16)))
        if insn != 'endbr64' or len(first) > 1:
            first = None
    return sites


def main(argv):
    tool = {'objdump': 'objdump', 'nm': 'nm', 'arch': 'x86_64'}
    while argv and argv[0].startswith('--'):
        tool[argv[0][2:]] = argv[1]
        argv = argv[2:]
    if not argv or tool['arch'] not in ('x86_64', 'arm64'):
        print(__doc__)
        return 2
    arm64 = tool['arch'] == 'arm64'
    if arm64:
        cross = os.environ.get('CROSS_COMPILE', 'aarch64-linux-gnu-')
        for t in ('objdump', 'nm'):
            if tool[t] == t:
                tool[t] = cross + t
    ok = True
    table = vmlinux_table(argv[0], tool['nm'], tool['arch'])
    skip = asm_functions(tool['nm']) if arm64 else set()
    prefix = 0
    if arm64:
        total, prefix = entry_layout()
        if total - prefix != 2:
            print('  MCOUNT  vmlinux: -fpatchable-function-entry=%d,%d: '
                  'expected two NOPs in each function' % (total, prefix))
            return 1
    # A slot word before each function means 'recordmcount -V' prepared
    # vmlinux's sites; CALL_OPS entries (an ops literal there, and no
    # ftrace_slot_calls) keep their NOPs.
    prepared = (arm64 and prefix > 0 and
                'ftrace_slot_calls' in symbols(tool['nm'], argv[0]))
    if prepared:
        table = strip_padding(table)
    elif arm64:
        table = drop_zeroed(table)
    if (buildtime_sort() or prepared) and table != sorted(table):
        print('  MCOUNT  vmlinux: table not sorted')
        ok = False
    if arm64:
        calls = arm64_sites(argv[0], tool['objdump'], skip, prefix, table,
                            prepared=prepared)
    else:
        nops = nop_sites()
        if nops:
            table = strip_padding(table)
        if compiler_nops():
            table = drop_zeroed(table)
        calls, left, entries = vmlinux_sites(argv[0], tool['objdump'], nops)
        ok &= no_calls_left('vmlinux', left, hex)
        if not nops:
            kept = dropped_weak(table, calls, entries)
            if kept is None:
                print('  MCOUNT  vmlinux: %d zeroed records, not one per '
                      'call in a body without a symbol' % table.count(0))
                ok = False
            else:
                table, gone = kept
                calls = [a for a in calls if a not in gone]
                if gone:
                    print('  MCOUNT  vmlinux: %d records of dead weak bodies '
                          'zeroed at build' % len(gone))
    ok &= compare('vmlinux', table, calls, hex)
    for ko in argv[1:]:
        recs = module_table(ko, arm64)
        if arm64:
            calls = arm64_sites(ko, tool['objdump'], skip, prefix, recs,
                                reloc=True)
        elif compiler_nops():
            calls = module_entry_nops(ko, tool['objdump'])
            left = module_sites(ko, tool['objdump'], False)[0]
        else:
            calls, left = module_sites(ko, tool['objdump'], nops)
            ok &= no_calls_left(ko.rsplit('/', 1)[-1], left,
                                lambda r: '%s+%#x' % r)
        ok &= compare(ko.rsplit('/', 1)[-1], recs, calls,
                      lambda r: '%s+%#x' % r)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
