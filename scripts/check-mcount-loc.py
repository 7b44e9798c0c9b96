#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the recorded fentry call sites against the disassembly.

check-mcount-loc.py [--objdump OBJDUMP] vmlinux [module.ko...]

Every "call __fentry__" in the disassembly of traced code must have a
record in the call-site table, and every record must point at such a call:

  vmlinux  the sorted table between __start_mcount_loc and
           __stop_mcount_loc, read from the file, against the addresses of
           the calls in 'objdump -d'
  modules  the relocations of .rela__mcount_loc, resolved to section +
           offset through the symbol table, against the calls that
           'objdump -dr' shows relocated to __fentry__

It also checks that the vmlinux table is sorted, which the boot code relies
on when BUILDTIME_MCOUNT_SORT is set.  Prints one line per file and exits 1
on any difference, listing the first few addresses.
"""
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


def vmlinux_table(path, nm):
    data = open(path, 'rb').read()
    syms = {}
    for line in run([nm, path]).splitlines():
        f = line.split()
        if len(f) == 3 and f[2] in ('__start_mcount_loc', '__stop_mcount_loc'):
            syms[f[2]] = int(f[0], 16)
    start, stop = syms['__start_mcount_loc'], syms['__stop_mcount_loc']
    for name, _, _, addr, off, size, _, _, _, _ in elf_headers(data):
        if addr <= start < addr + size:
            base = off + start - addr
            n = (stop - start) // 8
            return list(struct.unpack_from('<%dQ' % n, data, base))
    raise ValueError('__start_mcount_loc is in no section')


CALL = re.compile(r'^\s*([0-9a-f]+):\s+call\s+[0-9a-f]+ <__fentry__>')


def vmlinux_calls(path, objdump):
    out = run([objdump, '-d', '--no-show-raw-insn', path])
    return [int(m.group(1), 16) for m in map(CALL.match, out.splitlines()) if m]


def module_table(path):
    """(section, offset) of each record in a module's .rela__mcount_loc.

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
        if names[i] != '.rela__mcount_loc':
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


def module_calls(path, objdump):
    """(section, offset) of each call relocated to __fentry__ in a module."""
    calls = []
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
        m = re.match(r'^\s*([0-9a-f]+): R_X86_64_(?:PLT|PC)32\s+__fentry__-0x4', line)
        if m and last and last[1] == 'call' and int(m.group(1), 16) == last[0] + 1:
            calls.append((section, last[0]))
    return calls


def compare(label, recorded, called, fmt):
    missing = sorted(set(called) - set(recorded))
    extra = sorted(set(recorded) - set(called))
    dups = len(recorded) - len(set(recorded))
    ok = not missing and not extra and not dups
    print('  MCOUNT  %s: %d call sites, %d records%s' %
          (label, len(called), len(recorded), '' if ok else ': MISMATCH'))
    for what, items in (('not recorded', missing), ('not a call', extra)):
        for i in items[:5]:
            print('    %s: %s' % (what, fmt(i)))
        if len(items) > 5:
            print('    ... %d more %s' % (len(items) - 5, what))
    if dups:
        print('    %d duplicate records' % dups)
    return ok


def main(argv):
    tool = {'objdump': 'objdump', 'nm': 'nm'}
    while argv and argv[0].startswith('--'):
        tool[argv[0][2:]] = argv[1]
        argv = argv[2:]
    if not argv:
        print(__doc__)
        return 2
    ok = True
    table = vmlinux_table(argv[0], tool['nm'])
    if table != sorted(table):
        print('  MCOUNT  vmlinux: table not sorted')
        ok = False
    ok &= compare('vmlinux', table, vmlinux_calls(argv[0], tool['objdump']),
                  hex)
    for ko in argv[1:]:
        ok &= compare(ko.rsplit('/', 1)[-1], module_table(ko),
                      module_calls(ko, tool['objdump']),
                      lambda r: '%s+%#x' % r)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
