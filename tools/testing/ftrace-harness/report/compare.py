#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the last 'make check' of ours with the last one of stock.

compare.py OURS_SUMMARY STOCK_SUMMARY

Reads the result tables of the two summary.txt files and prints every test
whose result differs, then the counts.  Exit status 1 when a test passes on
stock but not on ours.
"""
import re
import sys


def table(path):
    res = {}
    head = []
    inside = False
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('RESULT '):
            inside = True
        elif inside and not line:
            break
        elif inside:
            result, name = line.split(None, 1)
            res[name] = result
        elif ':' in line:
            head.append(line)
    return res, head


def main():
    ours, ohead = table(sys.argv[1])
    stock, shead = table(sys.argv[2])
    print('ours:  ' + '; '.join(ohead[:3]))
    print('stock: ' + '; '.join(shead[:3]))
    worse = 0
    print('%-14s %-14s %s' % ('OURS', 'STOCK', 'TEST'))
    for name in sorted(set(ours) | set(stock)):
        a, b = ours.get(name, '-'), stock.get(name, '-')
        if a != b:
            print('%-14s %-14s %s' % (a, b, name))
            if b == 'PASS' and a != 'PASS':
                worse += 1
    same = sum(1 for n in ours if stock.get(n) == ours[n])
    print('%d tests with the same result, %d pass on stock but not on ours'
          % (same, worse))
    return 1 if worse else 0


if __name__ == '__main__':
    sys.exit(main())
