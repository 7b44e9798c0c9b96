// SPDX-License-Identifier: GPL-2.0
/*
 * A module of 1,000 traceable functions and nothing else, for 'make
 * bench': loading it while the function tracer is on every site measures
 * what the core does with a new module's sites (set up their records,
 * then switch every one of them on), against the same load with no
 * tracer.  Built as an external module against either variant.
 */
#include <linux/module.h>

/*
 * The functions differ so that the compiler cannot fold them into one,
 * and the table keeps them.  (These macros expand to definitions and to
 * an initializer list: checkpatch's "complex values" error does not
 * apply.)
 */
#define FN(a, b, c) \
	static noinline int bench_fn_##a##b##c(int x) { return x * 1##a##b##c + c; }
#define FN10(a, b) FN(a, b, 0) FN(a, b, 1) FN(a, b, 2) FN(a, b, 3) FN(a, b, 4) \
		   FN(a, b, 5) FN(a, b, 6) FN(a, b, 7) FN(a, b, 8) FN(a, b, 9)
#define FN100(a) FN10(a, 0) FN10(a, 1) FN10(a, 2) FN10(a, 3) FN10(a, 4) \
		 FN10(a, 5) FN10(a, 6) FN10(a, 7) FN10(a, 8) FN10(a, 9)
FN100(0) FN100(1) FN100(2) FN100(3) FN100(4)
FN100(5) FN100(6) FN100(7) FN100(8) FN100(9)

#define P(a, b, c) bench_fn_##a##b##c
#define P10(a, b) P(a, b, 0), P(a, b, 1), P(a, b, 2), P(a, b, 3), P(a, b, 4), \
		  P(a, b, 5), P(a, b, 6), P(a, b, 7), P(a, b, 8), P(a, b, 9)
#define P100(a) P10(a, 0), P10(a, 1), P10(a, 2), P10(a, 3), P10(a, 4), \
		P10(a, 5), P10(a, 6), P10(a, 7), P10(a, 8), P10(a, 9)
int (* const ftrace_bench_fns[])(int) = {
	P100(0), P100(1), P100(2), P100(3), P100(4),
	P100(5), P100(6), P100(7), P100(8), P100(9),
};
EXPORT_SYMBOL_GPL(ftrace_bench_fns);

MODULE_DESCRIPTION("1,000 traceable functions");
MODULE_LICENSE("GPL");
