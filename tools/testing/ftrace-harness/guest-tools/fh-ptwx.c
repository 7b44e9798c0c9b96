// SPDX-License-Identifier: GPL-2.0
/*
 * fh-ptwx: find writable and executable kernel mappings in a page table
 * dump, and check given addresses (trampolines) are read-only and
 * executable.
 *
 * Linux 6.1 runs its W+X check (CONFIG_DEBUG_WX) only once, at boot, on
 * both x86_64 and arm64: nothing asks for it later.  CONFIG_PTDUMP_DEBUGFS
 * shows the same walk in debugfs (x86: page_tables/kernel, arm64:
 * kernel_page_tables), one line per run of entries with equal
 * protections, so this program applies the boot check's rule to that
 * dump:
 *
 *   x86_64: "0x..-0x..   4K     ro    GLB x  pte"  (RW or ro; x or NX)
 *   arm64:  "0x..-0x..   4K PTE   ro x  SHD AF   UXN  MEM/NORMAL"
 *           (F marks an invalid entry; UXN absent: user-executable)
 *
 * A line is W+X when it is RW and x (and, on arm64, valid).  On arm64 the
 * boot check also fails any valid kernel mapping without UXN; so does
 * this one.  x86 prints each entry's own bits where its check combines
 * them with the upper levels'; the kernel's upper levels grant RW and
 * leave NX to the leaves, so the two agree.
 *
 * Usage: fh-ptwx DUMP [ADDR...]
 * Each ADDR (hex) must lie in a present, executable, read-only line.
 * Prints every offending line.  Exit status: 0 clean, 1 W+X (or non-UXN)
 * found or an ADDR not read-only+executable, 2 cannot read or parse DUMP.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ADDRS	4096

struct range {
	unsigned long long start, end;
	bool present, writable, exec, invalid, uxn, arm64;
};

/* Whether @tok is one of the whitespace-separated words of @flags. */
static bool has_word(const char *flags, const char *tok)
{
	size_t n = strlen(tok);
	const char *p = flags;

	while ((p = strstr(p, tok))) {
		bool start = p == flags || p[-1] == ' ' || p[-1] == '\t';
		bool end = p[n] == '\0' || p[n] == ' ' || p[n] == '\t' ||
			   p[n] == '\n';

		if (start && end)
			return true;
		p += n;
	}
	return false;
}

/* Parse one "0xSTART-0xEND  SIZE flags..." line; false for anything else. */
static bool parse_line(const char *line, struct range *r)
{
	char *end;
	const char *flags;

	if (strncmp(line, "0x", 2))
		return false;
	errno = 0;
	r->start = strtoull(line, &end, 16);
	if (errno || strncmp(end, "-0x", 3))
		return false;
	r->end = strtoull(end + 1, &end, 16);
	/* The last run ends where the address space wraps: at 0. */
	if (!r->end)
		r->end = ~0ULL;
	if (errno || r->end <= r->start)
		return false;
	flags = end;
	/*
	 * "RW" or "ro" is printed for every present (x86) or mapped (arm64)
	 * run; holes print neither.
	 */
	r->writable = has_word(flags, "RW");
	r->present = r->writable || has_word(flags, "ro");
	r->exec = r->present && has_word(flags, "x") && !has_word(flags, "NX");
	r->invalid = has_word(flags, "F");
	r->uxn = has_word(flags, "UXN");
	/* arm64 names the levels in capitals, x86 in lower case. */
	r->arm64 = has_word(flags, "PTE") || has_word(flags, "PMD") ||
		   has_word(flags, "PUD") || has_word(flags, "P4D") ||
		   has_word(flags, "PGD");
	return true;
}

int main(int argc, char **argv)
{
	static unsigned long long addrs[MAX_ADDRS];
	static bool addr_ok[MAX_ADDRS];
	unsigned long lines = 0, present = 0, exec = 0, wx = 0, nouxn = 0;
	int naddrs = argc - 2, i, bad = 0;
	bool arm64 = false;
	char buf[512];
	FILE *f;

	if (argc < 2 || naddrs > MAX_ADDRS) {
		fprintf(stderr, "usage: fh-ptwx DUMP [ADDR...] (at most %d)\n",
			MAX_ADDRS);
		return 2;
	}
	for (i = 0; i < naddrs; i++) {
		char *end;

		errno = 0;
		addrs[i] = strtoull(argv[i + 2], &end, 16);
		if (errno || *end) {
			fprintf(stderr, "fh-ptwx: bad address '%s'\n", argv[i + 2]);
			return 2;
		}
	}
	f = fopen(argv[1], "r");
	if (!f) {
		fprintf(stderr, "fh-ptwx: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	while (fgets(buf, sizeof(buf), f)) {
		struct range r;

		if (!parse_line(buf, &r))
			continue;
		lines++;
		arm64 |= r.arm64;
		if (!r.present || r.invalid)
			continue;
		present++;
		if (r.exec)
			exec++;
		if (r.writable && r.exec) {
			wx++;
			printf("W+X: %s", buf);
		}
		if (arm64 && !r.uxn) {
			nouxn++;
			printf("non-UXN: %s", buf);
		}
		for (i = 0; i < naddrs; i++) {
			if (addrs[i] < r.start || addrs[i] >= r.end)
				continue;
			addr_ok[i] = r.exec && !r.writable;
			printf("%llx: %s %s", addrs[i],
			       addr_ok[i] ? "ro+x:" : "NOT ro+x:", buf);
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "fh-ptwx: reading %s: %s\n", argv[1], strerror(errno));
		fclose(f);
		return 2;
	}
	fclose(f);
	/* An empty or foreign file would otherwise look clean. */
	if (!present || !exec) {
		fprintf(stderr,
			"fh-ptwx: %s: %lu lines, %lu present, %lu executable: not a page table dump\n",
			argv[1], lines, present, exec);
		return 2;
	}
	for (i = 0; i < naddrs; i++) {
		if (addr_ok[i])
			continue;
		printf("%llx: not in a present, read-only, executable mapping\n",
		       addrs[i]);
		bad = 1;
	}
	printf("fh-ptwx: %s (%s): %lu ranges, %lu present, %lu executable, %lu W+X%s",
	       argv[1], arm64 ? "arm64" : "x86", lines, present, exec, wx,
	       arm64 ? ", " : "\n");
	if (arm64)
		printf("%lu non-UXN\n", nouxn);
	if (naddrs)
		printf("fh-ptwx: %d addresses checked\n", naddrs);
	return (wx || nouxn || bad) ? 1 : 0;
}
