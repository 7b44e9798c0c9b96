// SPDX-License-Identifier: GPL-2.0
/*
 * fh-fuzz: random and adversarial writes to the control files of the ftrace
 * core, checked against a model.
 *
 * Two writer processes, pinned to CPU 0 and CPU 1, each own a disjoint set
 * of files, so each one's model of its own files is exact: a write the
 * kernel accepted changes the model as the 6.1 contract says, a rejected
 * one changes nothing.  A third process switches tracers meanwhile, so
 * filter changes patch live code.  Every few writes, and at the end, each
 * file is read back and compared with the model (as sorted lists of lines
 * where the kernel defines no order).
 *
 * The model is conditioned on what each write() returned, because the
 * contract allows two readings in places:
 *  - stock 6.1 takes one token per write() and returns the bytes up to its
 *    delimiter, ours takes every token of a write, all or nothing: the
 *    model applies the complete tokens within the bytes the kernel says it
 *    consumed;
 *  - a set_ftrace_filter opened with O_TRUNC whose every write failed is
 *    committed empty by stock and kept by ours (func-filter-nomatch-keeps.tc
 *    documents ours): after such a session either state is accepted, and
 *    checked at once;
 *  - kernel.ftrace_enabled: whatever value the kernel accepted must read
 *    back (stock takes any integer, ours only 0 and 1).
 * Where the model is sure a write must be accepted or refused it says so,
 * and a kernel that disagrees fails the run.  Inputs on which stock and
 * ours are known to differ (see the report of issue 13) are generated only
 * with --divergent.
 *
 * fh-fuzz --selftest checks the pure logic (tokenizer, regex types,
 * number parsing) without a kernel.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define INSTANCE	"fh_fuzz"
#define RING		20
#define TOKEN_LIMIT	4000	/* longer tokens overflow both kernels' parser */
#define LONG_TOKEN	5000
#define MAX_PIDS	64
#define MAX_MODS	32
#define PID_LIMIT	(1u << 30)	/* the pid lists' upper bound */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- small helpers ---- */

static const char *tracefs = "/sys/kernel/tracing";
static bool verbose;
static bool divergent;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "fh-fuzz: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rng_state = 1;

static uint64_t rnd(void)
{
	/* xorshift64*: reproducible with --seed */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static unsigned int rn(unsigned int n)
{
	return n ? rnd() % n : 0;
}

static bool chance(unsigned int percent)
{
	return rn(100) < percent;
}

static char *path_of(const char *rel)
{
	char *p = xmalloc(strlen(tracefs) + strlen(rel) + 2);

	sprintf(p, "%s/%s", tracefs, rel);
	return p;
}

/* Whole file into a NUL-terminated buffer; NULL and errno on failure. */
static char *slurp(const char *path, size_t *lenp)
{
	size_t len = 0, cap = 65536;
	char *buf;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	buf = xmalloc(cap + 1);
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += n;
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			if (!buf)
				die("out of memory");
		}
	}
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

/* One open/write/close; returns write()'s result, errno kept. */
static ssize_t write_once(const char *path, const char *buf, size_t len, int flags)
{
	ssize_t ret;
	int fd, err;

	fd = open(path, O_WRONLY | flags);
	if (fd < 0)
		return -1;
	ret = write(fd, buf, len);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

/* ---- lists of lines, compared as sorted multisets ---- */

struct lines {
	char **v;
	int n, cap;
};

static void lines_add(struct lines *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			die("out of memory");
	}
	l->v[l->n++] = xstrdup(s);
}

static void lines_free(struct lines *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static void lines_split(struct lines *l, char *text)
{
	char *s = text, *nl;

	while (*s) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		lines_add(l, s);
		if (!nl)
			break;
		s = nl + 1;
	}
}

/* Equal as multisets; prints the difference to stderr when not. */
static bool lines_same(struct lines *exp, struct lines *got, bool print)
{
	int i = 0, j = 0, shown = 0;
	bool same = true;

	qsort(exp->v, exp->n, sizeof(char *), cmp_str);
	qsort(got->v, got->n, sizeof(char *), cmp_str);
	while (i < exp->n || j < got->n) {
		int c = i == exp->n ? 1 : j == got->n ? -1 : strcmp(exp->v[i], got->v[j]);

		if (!c) {
			i++, j++;
			continue;
		}
		same = false;
		if (print && shown++ < 40)
			fprintf(stderr, "    %s %s\n", c < 0 ? "expected, missing:" :
				"read, unexpected: ", c < 0 ? exp->v[i] : got->v[j]);
		if (c < 0)
			i++;
		else
			j++;
	}
	if (print && !same)
		fprintf(stderr, "    (%d lines expected, %d read)\n", exp->n, got->n);
	return same;
}

/* ---- the functions: available_filter_functions ---- */

struct rec {
	char *line;	/* as listed: "name" or "name [module]" */
	char *name;
	char *mod;	/* NULL in vmlinux */
	bool valid;	/* a real name, not __ftrace_invalid_address___N */
};

static struct rec *recs;
static int nrec;
static int *core_pool, ncore;	/* valid vmlinux functions, to draw names from */
static char *loaded_mods[64];
static int nloaded;

static void load_functions(const char *path)
{
	struct lines l = {};
	char *text = slurp(path, NULL);

	if (!text)
		die("cannot read %s: %s", path, strerror(errno));
	lines_split(&l, text);
	free(text);
	recs = xmalloc(l.n * sizeof(*recs));
	core_pool = xmalloc(l.n * sizeof(int));
	for (int i = 0; i < l.n; i++) {
		struct rec *r = &recs[nrec++];
		char *sp, *br;

		r->line = l.v[i];
		r->name = xstrdup(r->line);
		sp = strchr(r->name, ' ');
		if (sp) {
			*sp = '\0';
			br = strchr(sp + 1, '[');
			if (br) {
				r->mod = xstrdup(br + 1);
				if (strchr(r->mod, ']'))
					*strchr(r->mod, ']') = '\0';
			}
		}
		r->valid = strncmp(r->name, "__ftrace_invalid_address__", 26) != 0;
		if (r->valid && !r->mod && strlen(r->name) >= 8)
			core_pool[ncore++] = i;
		if (r->mod) {
			int k;

			for (k = 0; k < nloaded; k++)
				if (!strcmp(loaded_mods[k], r->mod))
					break;
			if (k == nloaded && nloaded < 64)
				loaded_mods[nloaded++] = xstrdup(r->mod);
		}
	}
	free(l.v);
}

static bool module_is_loaded(const char *m)
{
	char buf[256];
	FILE *f;

	for (int k = 0; k < nloaded; k++)
		if (!strcmp(loaded_mods[k], m))
			return true;
	/* A module without traceable functions is loaded all the same. */
	f = fopen("/proc/modules", "r");
	if (!f)
		return false;
	while (fgets(buf, sizeof(buf), f)) {
		char *sp = strchr(buf, ' ');

		if (sp)
			*sp = '\0';
		if (!strcmp(buf, m)) {
			fclose(f);
			return true;
		}
	}
	fclose(f);
	return false;
}

/* ---- what the kernel's parsers do (the user-visible contract) ---- */

/* The kernel's isspace(): Latin-1 NBSP (0xa0) is a space too. */
static bool kspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

/*
 * The tokenizer of the filter and pid files (trace_get_user()): one call
 * skips leading spaces unless a token is pending, then takes one token up
 * to a space or NUL, which it consumes too.  A token that reaches the end
 * of the write stays pending for the next write.
 */
struct parser {
	char buf[TOKEN_LIMIT + 1];
	int idx;
	bool cont;
	bool fail;
};

/* One call: returns the bytes it consumed, -1 on overflow. */
static long parse_step(struct parser *p, const char *b, size_t n)
{
	size_t pos = 0;

	if (!n)
		return 0;
	if (!p->cont) {
		while (pos < n && kspace(b[pos]))
			pos++;
		p->idx = 0;
		if (pos == n)
			return n;
		if (!b[pos])
			return pos + 1;
	} else if (kspace(b[0]) || !b[0]) {
		p->buf[p->idx] = '\0';
		p->cont = false;
		return 1;
	}
	while (pos < n && b[pos] && !kspace(b[pos])) {
		if (p->idx >= TOKEN_LIMIT) {
			p->fail = true;
			return -1;
		}
		p->buf[p->idx++] = b[pos++];
	}
	p->buf[p->idx] = '\0';
	if (pos < n) {
		p->cont = false;
		return pos + 1;
	}
	p->cont = true;
	return n;
}

static bool parser_complete(const struct parser *p)
{
	return !p->fail && p->idx && !p->cont;
}

/* kstrtoul(): optional '+', base prefix when base is 0, one trailing '\n'. */
/* A hex digit's value, or 16 (no digit in any base) for anything else. */
static unsigned int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 16;
}

static int kstrtoul_model(const char *s, unsigned int base, uint64_t *res)
{
	uint64_t v = 0;
	int digits = 0;

	if (*s == '+')
		s++;
	if (base == 0) {
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2])) {
			base = 16;
			s += 2;
		} else if (s[0] == '0') {
			base = 8;
		} else {
			base = 10;
		}
	} else if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
	}
	for (;; s++, digits++) {
		unsigned int d;

		d = digit_value(*s);
		if (d >= base)
			break;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (!digits)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

/* kstrtoul_from_user(): at most 66 bytes, cut at the first NUL. */
static int kstrtoul_user_model(const char *b, size_t n, unsigned int base, uint64_t *res)
{
	char tmp[67];

	if (n > 66)
		n = 66;
	memcpy(tmp, b, n);
	tmp[n] = '\0';
	return kstrtoul_model(tmp, base, res);
}

/* The regex types of filter_parse_regex(). */
enum mtype { M_FULL, M_FRONT, M_MIDDLE, M_END, M_GLOB, M_INDEX };

struct glob {
	enum mtype type;
	char search[TOKEN_LIMIT + 1];
	bool not;
};

static void glob_parse(struct glob *g, const char *s)
{
	size_t len;

	g->not = s[0] == '!';
	if (g->not)
		s++;
	len = strlen(s);
	g->type = M_FULL;
	if (isdigit((unsigned char)s[0])) {
		g->type = M_INDEX;
		strcpy(g->search, s);
		return;
	}
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '[' || s[i] == '?' || s[i] == '\\') {
			g->type = M_GLOB;
			break;
		}
		if (s[i] != '*')
			continue;
		if (i == 0) {
			g->type = M_END;
			continue;
		}
		if (i == len - 1)
			g->type = g->type == M_END ? M_MIDDLE : M_FRONT;
		else
			g->type = M_GLOB;
		break;
	}
	if (g->type == M_GLOB) {
		strcpy(g->search, s);
		return;
	}
	strcpy(g->search, s + (s[0] == '*'));
	if (g->type == M_FRONT || g->type == M_MIDDLE)
		g->search[strlen(g->search) - 1] = '\0';
}

static bool glob_match(const struct glob *g, const char *name)
{
	size_t sl = strlen(g->search), nl = strlen(name);

	switch (g->type) {
	case M_FULL:
		return !strcmp(name, g->search);
	case M_FRONT:
		return !strncmp(name, g->search, sl);
	case M_MIDDLE:
		return strstr(name, g->search);
	case M_END:
		return nl >= sl && !memcmp(name + nl - sl, g->search, sl);
	case M_GLOB:
		/* lib/glob.c is !fnmatch(pat, str, 0) without [^...] */
		return !fnmatch(g->search, name, 0);
	case M_INDEX:
		break;
	}
	return false;
}

/* ---- the files and their models ---- */

enum kind { K_FILTER, K_GRAPH, K_PID, K_DEPTH, K_PROFILE, K_OPTION, K_SYSCTL };

struct wrec {
	char what[112];
	ssize_t ret;
	int err;
};

struct target {
	const char *name;	/* as printed */
	char *path;
	enum kind kind;
	bool notrace;		/* set_ftrace_notrace, set_graph_notrace */
	bool probes;		/* the top set_ftrace_filter: commands */
	/* set models */
	unsigned char *in;	/* per record */
	int count;
	char *mods[MAX_MODS];	/* cached "func:mod:module" entries */
	int nmods;
	unsigned char *probe;	/* traceon probes, top filter only */
	int nprobe;
	uint32_t pids[MAX_PIDS];
	int npids;
	long long value;	/* numeric files */
	long long orig;
	/* session of a filter or graph file */
	int fd;
	bool trunc;
	bool any_ok, any_fail;
	struct parser parser;
	unsigned char *sin;
	int scount;
	char *smods[MAX_MODS];
	int snmods;
	/* statistics */
	long writes, accepted, rejected, checks;
	double busy;		/* seconds in one_step(), checks included */
	struct wrec ring[RING];
	int ring_pos;
};

struct stats {
	long files, writes, accepted, rejected, checks;
};

static struct target *targets[32];
static int ntargets;
static long writes_per_file = 100;
static long check_every = 16;
/*
 * Mean pause between two tracer switches, in ms.  A switch holds
 * trace_types_lock and ftrace_lock across its grace periods, so the
 * writers wait for it: at the default 40 ms they spend most of their time
 * waiting (a run's writes then stop far short of --writes 10000 in the
 * filter files).
 */
static long switch_pause_ms = 40;
static double deadline;
/*
 * Seconds between two progress lines of a writer (0: none).  A run to
 * --writes 10000 takes over an hour under TCG: without them, a slow run
 * and a stuck one look the same until it ends.
 */
static double progress_every = 300;
static double started;		/* when main() began */

static struct target *add_target(const char *rel, enum kind kind)
{
	struct target *t = xmalloc(sizeof(*t));
	struct stat st;

	t->path = rel[0] == '/' ? xstrdup(rel) : path_of(rel);
	if (stat(t->path, &st)) {
		printf("fh-fuzz: %s missing, not fuzzed\n", rel);
		free(t->path);
		free(t);
		return NULL;
	}
	t->name = rel;
	t->kind = kind;
	t->fd = -1;
	t->in = xmalloc(nrec);
	t->sin = xmalloc(nrec);
	if (kind == K_FILTER)
		t->probe = xmalloc(nrec);
	targets[ntargets++] = t;
	return t;
}

static void describe(char *out, size_t cap, const char *b, size_t n, int flags)
{
	size_t o = 0;

	o += snprintf(out + o, cap - o, "%s%zu:\"", flags & O_TRUNC ? "T" :
		      flags & O_APPEND ? "A" : "", n);
	for (size_t i = 0; i < n && o + 8 < cap; i++) {
		unsigned char c = b[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			out[o++] = c;
		else
			o += snprintf(out + o, cap - o, "\\x%02x", c);
	}
	snprintf(out + o, cap - o, n && o + 8 >= cap ? "...\"" : "\"");
}

static void record(struct target *t, const char *b, size_t n, int flags, ssize_t ret, int err)
{
	struct wrec *w = &t->ring[t->ring_pos++ % RING];

	describe(w->what, sizeof(w->what), b, n, flags);
	w->ret = ret;
	w->err = ret < 0 ? err : 0;
	t->writes++;
	if (ret < 0)
		t->rejected++;
	else
		t->accepted++;
	if (verbose)
		fprintf(stderr, "%s: %s -> %zd %s\n", t->name, w->what, ret,
			ret < 0 ? strerror(err) : "");
}

static void print_ring(struct target *t)
{
	fprintf(stderr, "  last writes to %s (T: opened O_TRUNC, A: O_APPEND; return):\n",
		t->name);
	for (int i = 0; i < RING; i++) {
		struct wrec *w = &t->ring[(t->ring_pos + i) % RING];

		if (!w->what[0])
			continue;
		fprintf(stderr, "    %s -> %zd%s%s\n", w->what, w->ret,
			w->ret < 0 ? " " : "", w->ret < 0 ? strerror(w->err) : "");
	}
}

static void fail(struct target *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "FAIL: %s: ", t->name);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	print_ring(t);
	exit(1);
}

/* ---- filter and graph files: one token against the model ---- */

enum verdict { V_OK, V_BAD, V_EITHER };

static void mods_remove(char **mods, int *n, int i)
{
	free(mods[i]);
	mods[i] = mods[--*n];
}

/*
 * simple_strtoul(s, NULL, 0), which stock reads positions with: the
 * longest number at the start, in the base its prefix says, and no error.
 */
static uint64_t lenient_number(const char *s)
{
	unsigned int base = 10;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2])) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	for (;; s++) {
		unsigned int d;

		d = digit_value(*s);
		if (d >= base)
			break;
		v = v * base + d;
	}
	return v;
}

/*
 * Whether a ":mod:" parameter admits a function of @mod (NULL: the
 * kernel's own), as ftrace.rst documents: a module glob, "" and "*" every
 * module, a leading '!' everything outside.
 */
static bool mod_admits(const char *param, const char *mod)
{
	bool exclude = *param == '!', in;

	param += exclude;
	if (!mod)
		in = false;
	else if (!*param || !strcmp(param, "*"))
		in = true;
	else
		in = !fnmatch(param, mod, 0);
	return in != exclude;
}

/* Records a pattern selects (a position: the line it names); how many. */
static int select_recs(const struct glob *g, const char *module, unsigned char *sel)
{
	int hits = 0;

	memset(sel, 0, nrec);
	if (g->type == M_INDEX) {
		/* Plain decimals read the same in stock and ours */
		uint64_t pos = lenient_number(g->search);

		if (!pos || pos > (uint64_t)nrec)
			return 0;
		sel[pos - 1] = 1;
		return 1;
	}
	for (int i = 0; i < nrec; i++) {
		if (!recs[i].valid)
			continue;
		if (module && !mod_admits(module, recs[i].mod))
			continue;
		if (glob_match(g, recs[i].name)) {
			sel[i] = 1;
			hits++;
		}
	}
	return hits;
}

static unsigned char *selbuf;

/*
 * The verdict the 6.1 contract gives one complete token of a filter or
 * graph file; with @apply, its effect on the session (or, for commands,
 * on the file's probes at once).
 */
static enum verdict eval_token(struct target *t, const char *token, bool apply)
{
	char func[TOKEN_LIMIT + 1], *cmd = NULL, *param = NULL;
	const char *module = NULL;
	struct glob g;
	int hits, inset = 0;

	strcpy(func, token);
	if (t->kind == K_FILTER) {
		cmd = strchr(func, ':');
		if (cmd) {
			*cmd++ = '\0';
			param = strchr(cmd, ':');
			if (param)
				*param++ = '\0';
		}
	}
	if (cmd && !strcmp(cmd, "mod")) {
		if (!param) {
			/* "f:mod" names no module: it is plain "f" */
			cmd = NULL;
		} else if (!*param || strpbrk(param, "*?[!\\") || module_is_loaded(param)) {
			/*
			 * A module glob, or a loaded module: matched now.  Stock
			 * would remember a glob that matches nothing (and never
			 * apply it), ours refuses it: generated only with hits.
			 */
			module = param;
			cmd = NULL;
		} else if (func[0] == '!') {
			/* forget cached entries (stock: of any session) */
			int found = 0;
			char want[TOKEN_LIMIT + 64];

			for (int i = 0; i < t->snmods; i++) {
				char *e = t->smods[i], *m = strstr(e, ":mod:");

				if (!m || strcmp(m + 5, param))
					continue;
				snprintf(want, sizeof(want), "%s:mod:%s", func + 1, param);
				if (!strcmp(func + 1, "*") || !strcmp(e, want)) {
					found++;
					if (apply)
						mods_remove(t->smods, &t->snmods, i--);
				}
			}
			return found ? V_OK : V_BAD;
		} else {
			char e[TOKEN_LIMIT + 64];

			if (t->snmods == MAX_MODS)
				return V_EITHER;	/* never generated */
			snprintf(e, sizeof(e), "%s:mod:%s", func, param);
			if (apply)
				t->smods[t->snmods++] = xstrdup(e);
			return V_OK;
		}
	}
	if (cmd && !strcmp(cmd, "traceon") && t->probes && !param) {
		bool remove = func[0] == '!';
		int fresh = 0;

		glob_parse(&g, func + remove);
		if (g.type == M_INDEX)
			return V_EITHER;	/* never generated */
		hits = select_recs(&g, NULL, selbuf);
		for (int i = 0; i < nrec; i++) {
			if (!selbuf[i])
				continue;
			if (remove ? t->probe[i] : !t->probe[i])
				fresh++;
			if (apply && remove && t->probe[i]) {
				t->probe[i] = 0;
				t->nprobe--;
			} else if (apply && !remove && !t->probe[i]) {
				t->probe[i] = 1;
				t->nprobe++;
			}
		}
		return hits && fresh ? V_OK : V_BAD;
	}
	if (cmd)
		return V_BAD;	/* unknown command, a count, a notrace file */

	glob_parse(&g, func);
	if (g.type == M_INDEX && t->kind == K_GRAPH)
		return V_BAD;	/* stock: no positions in the graph files */
	hits = select_recs(&g, module, selbuf);
	if (!hits)
		return V_BAD;
	for (int i = 0; i < nrec; i++) {
		if (!selbuf[i])
			continue;
		inset += t->sin[i];
		if (!apply)
			continue;
		if (g.not && t->sin[i]) {
			t->sin[i] = 0;
			t->scount--;
		} else if (!g.not && !t->sin[i]) {
			t->sin[i] = 1;
			t->scount++;
		}
	}
	/* stock's graph files refuse removing what is not there, ours not */
	if (t->kind == K_GRAPH && g.not && !inset)
		return V_EITHER;
	return V_OK;
}

static void session_open(struct target *t, bool trunc)
{
	t->fd = open(t->path, O_WRONLY | (trunc ? O_TRUNC : O_APPEND));
	if (t->fd < 0)
		fail(t, "open: %s", strerror(errno));
	t->trunc = trunc;
	t->any_ok = false;
	t->any_fail = false;
	memset(&t->parser, 0, sizeof(t->parser));
	if (trunc) {
		memset(t->sin, 0, nrec);
		t->scount = 0;
	} else {
		memcpy(t->sin, t->in, nrec);
		t->scount = t->count;
	}
	while (t->snmods)
		free(t->smods[--t->snmods]);
	/* stock forgets the cache at an O_TRUNC open, ours at the commit */
	for (int i = 0; !trunc && i < t->nmods; i++)
		t->smods[t->snmods++] = xstrdup(t->mods[i]);
}

static bool check(struct target *t, bool print);

static void commit_session(struct target *t)
{
	memcpy(t->in, t->sin, nrec);
	t->count = t->scount;
	for (int i = 0; i < t->nmods; i++)
		free(t->mods[i]);
	memcpy(t->mods, t->smods, t->snmods * sizeof(char *));
	t->nmods = t->snmods;
	t->snmods = 0;
}

static void session_close(struct target *t)
{
	bool all_failed;

	/* A token left pending is applied at close; it was generated valid. */
	if (parser_complete(&t->parser) || (t->parser.cont && !t->parser.fail)) {
		enum verdict v;

		t->parser.buf[t->parser.idx] = '\0';
		v = eval_token(t, t->parser.buf, true);
		if (v == V_OK)
			t->any_ok = true;
		else
			t->any_fail = true;
	}
	close(t->fd);
	t->fd = -1;
	all_failed = t->trunc && t->any_fail && !t->any_ok;
	if (!all_failed) {
		commit_session(t);
		return;
	}
	/*
	 * A write of an O_TRUNC session failed and none applied a name:
	 * stock commits the empty set (and had forgotten the :mod: cache at
	 * open), ours keeps the old one.  Either is accepted; the read-back
	 * says which.
	 */
	if (check(t, false))
		return;		/* unchanged: ours */
	commit_session(t);
	if (!check(t, true))
		fail(t,
		     "an O_TRUNC session whose writes all failed left neither the old nor an empty set");
}

/* A copy of what tokens change, to try a write's tokens in order. */
struct snap {
	unsigned char *sin, *probe;
	int scount, nprobe, snmods;
	char *smods[MAX_MODS];
};

static void snap_take(struct target *t, struct snap *s)
{
	s->sin = xmalloc(nrec);
	memcpy(s->sin, t->sin, nrec);
	s->probe = xmalloc(nrec);
	if (t->probe)
		memcpy(s->probe, t->probe, nrec);
	s->scount = t->scount;
	s->nprobe = t->nprobe;
	s->snmods = t->snmods;
	for (int i = 0; i < t->snmods; i++)
		s->smods[i] = xstrdup(t->smods[i]);
}

static void snap_restore(struct target *t, struct snap *s)
{
	memcpy(t->sin, s->sin, nrec);
	if (t->probe)
		memcpy(t->probe, s->probe, nrec);
	t->scount = s->scount;
	t->nprobe = s->nprobe;
	while (t->snmods)
		free(t->smods[--t->snmods]);
	memcpy(t->smods, s->smods, sizeof(s->smods));
	t->snmods = s->snmods;
	free(s->sin);
	free(s->probe);
}

/*
 * One write() to an open filter or graph file.  The model takes the
 * complete tokens within the bytes the kernel says it consumed.
 */
static void regex_write(struct target *t, const char *b, size_t n)
{
	struct parser before = t->parser, sim = t->parser;
	bool may_fail = false, pending_after = false;
	struct snap snap;
	ssize_t ret;
	size_t pos;
	int err;

	/*
	 * What could make this write fail: a bad token or an overflow.  The
	 * tokens are tried in order on a copy, as one may depend on another
	 * ("!f" after "f" in a graph file).
	 */
	snap_take(t, &snap);
	for (pos = 0; pos < n;) {
		long r = parse_step(&sim, b + pos, n - pos);

		if (r < 0) {
			may_fail = true;
			break;
		}
		pos += r;
		if (parser_complete(&sim)) {
			if (eval_token(t, sim.buf, false) != V_OK)
				may_fail = true;
			eval_token(t, sim.buf, true);
			sim.idx = 0;
		}
	}
	snap_restore(t, &snap);
	ret = write(t->fd, b, n);
	err = errno;
	record(t, b, n, t->trunc ? O_TRUNC : O_APPEND, ret, err);
	if (ret < 0) {
		if (!may_fail)
			fail(t, "write refused (%s), the model accepts every token of it",
			     strerror(err));
		t->any_fail = true;
		/* Nothing of it applies; the parser is left clean. */
		t->parser = before;
		t->parser.idx = 0;
		t->parser.cont = false;
		if (sim.fail)
			t->parser.fail = true;
		return;
	}
	if ((size_t)ret > n)
		fail(t, "write returned %zd for %zu bytes", ret, n);
	sim = before;
	for (pos = 0; pos < (size_t)ret;) {
		long r = parse_step(&sim, b + pos, ret - pos);

		if (r < 0)
			fail(t, "write accepted, the model's parser overflows");
		pos += r;
		if (parser_complete(&sim)) {
			if (eval_token(t, sim.buf, false) == V_BAD)
				fail(t, "write accepted, the model refuses its token \"%.80s\"",
				     sim.buf);
			eval_token(t, sim.buf, true);
			sim.idx = 0;
			/*
			 * Only a write that applied a name counts for the
			 * close: one that only began a name, or held only
			 * blanks, leaves an O_TRUNC session whose other
			 * writes failed to keep the old set in ours.
			 */
			t->any_ok = true;
		}
	}
	pending_after = sim.cont;
	/* Stock stops after one token, ours takes all: nothing else fits. */
	if ((size_t)ret < n && pending_after)
		fail(t, "short write (%zd of %zu) inside a token", ret, n);
	t->parser = sim;
}

/* ---- generators ---- */

static const char *rand_name(void)
{
	return recs[core_pool[rn(ncore)]].name;
}

/* A name already in the set, if any (for removals). */
static const char *name_in_set(const unsigned char *set, int count)
{
	int start, i;

	if (!count)
		return rand_name();
	start = rn(nrec);
	for (i = 0; i < nrec; i++) {
		int k = (start + i) % nrec;

		if (set[k] && recs[k].valid)
			return recs[k].name;
	}
	return rand_name();
}

/* A glob built from a long name, so that it selects few functions. */
static void narrow_glob(char *out, size_t cap)
{
	const char *nm = rand_name();
	size_t len = strlen(nm);
	unsigned int cut = 1 + rn(3), at;

	switch (rn(5)) {
	case 0:
		snprintf(out, cap, "%.*s*", (int)(len - cut), nm);
		break;
	case 1:
		snprintf(out, cap, "*%s", nm + cut);
		break;
	case 2:
		snprintf(out, cap, "*%.*s*", (int)(len - 2), nm + 1);
		break;
	case 3:
		at = rn(len);
		snprintf(out, cap, "%.*s?%s", at, nm, nm + at + 1);
		break;
	default:
		at = rn(len);
		snprintf(out, cap, "%.*s[%c%c]%s", at, nm, nm[at], 'a' + rn(26), nm + at + 1);
		break;
	}
}

static void garbage(char *out, size_t len, bool binary)
{
	/* No glob, escape, command or position characters: a plain name. */
	static const char alpha[] = "abcdefghijklmnopqrstuvwxyz_ABCXYZ.#%@-+=/~";

	for (size_t i = 0; i < len; i++) {
		if (binary) {
			unsigned char c;

			do
				c = 1 + rn(255);
			while (kspace(c) || strchr("*?[\\:!,", c) || isdigit(c));
			out[i] = c;
		} else {
			out[i] = alpha[rn(sizeof(alpha) - 1)];
		}
	}
	out[len] = '\0';
}

/* One token for a filter or graph file; *alone: must be its write's only token. */
static void gen_token(struct target *t, char *out, size_t cap, bool *alone)
{
	unsigned int c = rn(100);
	char g[256];

	*alone = false;
	if (c < 24) {
		snprintf(out, cap, "%s", rand_name());
	} else if (c < 38) {
		snprintf(out, cap, "!%s", name_in_set(t->sin, t->scount));
	} else if (c < 52) {
		narrow_glob(out, cap);
	} else if (c < 56) {
		narrow_glob(g, sizeof(g));
		snprintf(out, cap, "!%s", g);
	} else if (c < 58 && nloaded) {
		/*
		 * A function of a loaded module, by ":mod:" (the graph files:
		 * stock refuses ":mod:" there, ours takes it: --divergent).
		 */
		int k = rn(nrec);

		while (!recs[k].mod || !recs[k].valid)
			k = (k + 1) % nrec;
		snprintf(out, cap, "%s%s:mod:%s", chance(30) ? "!" : "", recs[k].name, recs[k].mod);
		if (t->kind == K_GRAPH && !divergent)
			snprintf(out, cap, "%s", rand_name());
		if (t->kind != K_FILTER || chance(50))
			return;
		/* ftrace.rst's module globs, each sure to match something */
		switch (rn(4)) {
		case 0:
			snprintf(out, cap, "%s:mod:%s", recs[k].name, chance(50) ? "*" : "");
			break;
		case 1:
			snprintf(out, cap, "%s%s:mod:%.*s*", chance(30) ? "!" : "",
				 recs[k].name, 1 + rn(strlen(recs[k].mod)), recs[k].mod);
			break;
		case 2:
			snprintf(out, cap, "%s:mod:!%s", rand_name(), recs[k].mod);
			break;
		default:
			snprintf(out, cap, "%s%s:mod:!*", chance(30) ? "!" : "", rand_name());
			break;
		}
	} else if (c < 61) {
		snprintf(out, cap, "fh_fuzz_no_such_function_%u", rn(1000));
	} else if (c < 68) {
		/* positions: a line of available_filter_functions */
		int k = core_pool[rn(ncore)] + 1;

		if (t->kind == K_GRAPH && !divergent)
			snprintf(out, cap, "%s", rand_name());
		else
			snprintf(out, cap, "%s%d", chance(30) ? "!" : "", k);
		*alone = t->kind == K_GRAPH;
	} else if (c < 71) {
		snprintf(out, cap, "%s%u", chance(20) ? "!" : "",
			 chance(50) ? 0 : nrec + 1 + rn(1000));
	} else if (c < 76) {
		garbage(out, 1 + rn(40), false);
	} else if (c < 79) {
		garbage(out, 1 + rn(40), true);
	} else if (c < 85) {
		/* a module that is not loaded: remembered until it is */
		unsigned int m = rn(3);

		if (chance(50)) {
			snprintf(out, cap, "%s:mod:fh_fuzz_nomod%u", rand_name(), m);
		} else if (chance(50)) {
			snprintf(out, cap, "*:mod:fh_fuzz_nomod%u", m);
		} else {
			narrow_glob(g, sizeof(g));
			snprintf(out, cap, "%s:mod:fh_fuzz_nomod%u", g, m);
		}
		*alone = true;
		if (t->kind == K_FILTER && t->snmods >= MAX_MODS - 1)
			snprintf(out, cap, "%s", rand_name());
	} else if (c < 87) {
		/* forgetting cached entries, also those of earlier sessions */
		unsigned int m = rn(3);

		if (t->snmods && chance(70)) {
			char *e = xstrdup(t->smods[rn(t->snmods)]);

			snprintf(out, cap, "!%s", e);
			free(e);
		} else {
			snprintf(out, cap, "!%s:mod:fh_fuzz_nomod%u",
				 chance(50) ? "*" : rand_name(), m);
		}
		*alone = true;
	} else if (c < 92 && t->probes) {
		if (chance(40) && t->nprobe)
			snprintf(out, cap, "!%s:traceon", name_in_set(t->probe, t->nprobe));
		else
			snprintf(out, cap, "%s%s:traceon", chance(10) ? "!" : "", rand_name());
		*alone = true;
	} else if (c < 95) {
		/* unknown commands, a count that is no number */
		static const char * const bad[] = { "fhbogus", "", "traceon:junk", "Traceon" };

		snprintf(out, cap, "%s:%s", rand_name(), bad[rn(4)]);
		*alone = true;
	} else if (c < 97) {
		/* no ',' separator in the files: one name that matches nothing */
		snprintf(out, cap, "%s,%s", rand_name(), rand_name());
		*alone = true;
	} else if (c < 98 && (t->kind != K_GRAPH || divergent)) {
		/*
		 * Positions read with simple_strtoul(…, 0) (the graph files:
		 * stock refuses positions there, ours takes them: --divergent).
		 */
		static const char * const q[] = { "010", "5abc", "0x1f", "08" };

		snprintf(out, cap, "%s", q[rn(4)]);
		*alone = true;
	} else if (c < 99 && (t->kind != K_GRAPH || divergent)) {
		/*
		 * "f:mod" is "f" (the graph files: stock takes no ':' there,
		 * ours reads "f:mod" as "f": --divergent).
		 */
		snprintf(out, cap, "%s:mod", rand_name());
		*alone = true;
	} else {
		snprintf(out, cap, "%s", rand_name());
	}
}

static const char *const delims[] = { " ", "\n", "\t", "\r\n", " \n", "\v", "\f", "\xa0" };

static size_t put_delim(char *b, size_t at)
{
	unsigned int d = rn(9);

	if (d == 8) {
		b[at] = '\0';	/* NUL ends a token as well */
		return at + 1;
	}
	memcpy(b + at, delims[d], strlen(delims[d]));
	return at + strlen(delims[d]);
}

static bool deadline_passed(void)
{
	return deadline && now() > deadline;
}

/* One open, a few writes, close. */
static void regex_session(struct target *t)
{
	static char b[LONG_TOKEN + 8192];
	char tok[LONG_TOKEN + 1];
	bool trunc = chance(t->count + t->nmods > 60 ? 70 : 25);
	int nw = 1 + rn(4);
	char rest[512] = "";
	bool alone;

	session_open(t, trunc);
	for (int w = 0; w < nw && t->writes < writes_per_file; w++) {
		unsigned int style = rn(100);
		size_t n = 0;

		if (t->parser.cont) {
			const char *pb = t->parser.buf + (t->parser.buf[0] == '!');

			/* finish the pending token, or leave it for the close */
			if (chance(30) && w == nw - 1)
				break;
			/*
			 * Mostly with the rest of the token it began; else as
			 * it is, or longer (not after digits: stock reads
			 * "12_x" as position 12).
			 */
			if (chance(70))
				n = snprintf(b, sizeof(rest), "%s", rest);
			else
				n = snprintf(b, 64, "%s", chance(50) ||
					     isdigit((unsigned char)*pb) ? "" : "_x");
			n = put_delim(b, n);
		} else if (style < 55) {
			if (chance(15))
				b[n++] = ' ';
			gen_token(t, tok, 512, &alone);
			n += sprintf(b + n, "%s", tok);
			n = put_delim(b, n);
		} else if (style < 75) {
			int k = 2 + rn(3);

			for (int i = 0; i < k; i++) {
				do
					gen_token(t, tok, 512, &alone);
				while (alone);
				n += sprintf(b + n, "%s", tok);
				n = put_delim(b, n);
			}
		} else if (style < 87) {
			/*
			 * A plain token split across writes.  Not a number in
			 * a graph file: the session may end the token early,
			 * and a prefix of an out-of-range number ("1735" of
			 * "17350") is a position, which only ours takes there.
			 */
			do
				gen_token(t, tok, 512, &alone);
			while (alone || (t->kind == K_GRAPH && !divergent &&
					 isdigit((unsigned char)tok[tok[0] == '!'])));
			n = 1 + rn(strlen(tok));
			memcpy(b, tok, n);
			snprintf(rest, sizeof(rest), "%s", tok + n);
			if (w == nw - 1)
				nw++;	/* give the rest its write */
		} else if (style < 92) {
			n = 1 + rn(4);
			for (size_t i = 0; i < n; i++)
				b[i] = " \n\t"[rn(3)];
		} else if (style < 95) {
			n = 0;	/* empty write */
		} else {
			/* longer than any parser takes: refused, then the session ends */
			memset(b, 'a' + rn(26), LONG_TOKEN);
			n = LONG_TOKEN;
			if (chance(50))
				b[n++] = '\n';
			nw = w + 1;
		}
		if (!n) {
			ssize_t r = write(t->fd, b, 0);

			record(t, b, 0, t->trunc ? O_TRUNC : O_APPEND, r, errno);
			if (r != 0)
				fail(t, "an empty write returned %zd", r);
			continue;
		}
		regex_write(t, b, n);
		if (t->parser.fail)
			break;
	}
	if (t->parser.cont && chance(50)) {
		/* The pending part is a prefix of a plain token: end it. */
		b[0] = '\n';
		regex_write(t, b, 1);
	}
	session_close(t);
}

/* ---- pid files ---- */

static void pid_write(struct target *t)
{
	char b[512];
	size_t n = 0;
	int k = rn(4);
	bool trunc = chance(t->npids > MAX_PIDS / 2 ? 80 : 20);
	uint32_t add[16];
	int nadd = 0, bad = 0;
	struct parser p = {};
	size_t pos = 0, used = 0;
	ssize_t ret;
	int err;

	for (int i = 0; i < k; i++) {
		unsigned int c = rn(100);

		if (c < 60) {
			n += sprintf(b + n, "%u", 1 + rn(40000));
		} else if (c < 65) {
			n += sprintf(b + n, "0x%x", rn(40000));
		} else if (c < 68) {
			n += sprintf(b + n, "+%u", rn(40000));
		} else if (c < 72) {
			n += sprintf(b + n, "%u", PID_LIMIT - 1 - rn(2));
		} else if (c < 76) {
			n += sprintf(b + n, "%u", PID_LIMIT + rn(2));
		} else if (c < 80) {
			n += sprintf(b + n, "-%u", rn(10));
		} else if (c < 84) {
			n += sprintf(b + n, "%llu", (1ULL << 32) + rn(100));
		} else if (c < 88) {
			n += sprintf(b + n, "18446744073709551616");
		} else if (c < 92) {
			garbage(b + n, 1 + rn(8), chance(50));
			n += strlen(b + n);
		} else if (c < 95) {
			b[n++] = '0';
		} else {
			memset(b + n, '7', 200);	/* longer than the pid parser */
			n += 200;
		}
		if (i < k - 1 || chance(70))
			n = put_delim(b, n);
	}
	/*
	 * The model of trace_pid_write(): a fresh parser per write, tokens
	 * until one is not loaded (only spaces, or a NUL first); any bad one
	 * refuses the whole write.  A pid is taken as (pid_t) of the value.
	 */
	while (pos < n) {
		long r;
		uint64_t v;

		p.idx = 0;
		p.cont = false;
		r = parse_step(&p, b + pos, n - pos);
		if (r < 0 || p.idx > 127) {
			bad = 1;
			break;
		}
		pos += r;
		if (!p.idx)
			break;
		p.buf[p.idx] = '\0';
		if (kstrtoul_model(p.buf, 0, &v) || (uint32_t)v >= PID_LIMIT) {
			bad = 1;
			break;
		}
		if (nadd < 16)
			add[nadd++] = (uint32_t)v;
	}
	used = pos;
	ret = write_once(t->path, b, n, trunc ? O_TRUNC : 0);
	err = errno;
	record(t, b, n, trunc ? O_TRUNC : 0, ret, err);
	if (trunc)
		t->npids = 0;	/* O_TRUNC clears the list at open */
	if (!n) {
		if (ret != 0)
			fail(t, "an empty write returned %zd", ret);
		return;
	}
	if (ret < 0) {
		if (!bad)
			fail(t, "refused (%s), the model accepts it", strerror(err));
		return;
	}
	if (bad)
		fail(t, "accepted, the model refuses it");
	if ((size_t)ret != used)
		fail(t, "returned %zd, the model consumes %zu bytes", ret, used);
	for (int i = 0; i < nadd; i++) {
		int j;

		for (j = 0; j < t->npids && t->pids[j] != add[i]; j++)
			;
		if (j == t->npids && t->npids < MAX_PIDS)
			t->pids[t->npids++] = add[i];
		else if (j == t->npids)
			die("pid model full");
	}
}

/* ---- numeric files ---- */

static const char *const numcases[] = {
	"0", "1", "0\n", "1\n", "2", "5\n", "+3", "010", "-1", "0x10", "4294967295",
	"4294967296", "2147483648\n", "18446744073709551615", "18446744073709551616", "abc",
	" 1", "1 ", "1\n\n", "\n", "", "\xff\x01", "100", "3", "0\n", "1", "20",
};

static void num_write(struct target *t)
{
	const char *nc;
	char b[256];
	size_t n;
	enum verdict v = V_BAD;
	long long nv = t->value;
	uint64_t val;
	int perr;
	ssize_t ret;
	int err;

	if (chance(5)) {
		memset(b, 'x', 200);	/* longer than kstrtoul_from_user looks */
		n = 200;
	} else if (chance(5)) {
		memcpy(b, "1\0junk", 6);	/* the number ends at the NUL */
		n = 6;
	} else if (t->kind != K_DEPTH && chance(50)) {
		n = sprintf(b, "%u%s", rn(2), chance(50) ? "\n" : "");
	} else {
		nc = numcases[rn(ARRAY_SIZE(numcases))];
		n = strlen(nc);
		memcpy(b, nc, n);
	}
	perr = kstrtoul_user_model(b, n, 10, &val);
	switch (t->kind) {
	case K_DEPTH:
		if (!perr) {
			v = val > UINT32_MAX ? V_EITHER : V_OK;
			nv = (uint32_t)val;	/* stock keeps the low 32 bits */
		}
		break;
	case K_PROFILE:
		if (!perr) {
			nv = !!val;
			/* enabling fails with EBUSY while function_graph runs */
			v = nv && !t->value ? V_EITHER : V_OK;
		}
		break;
	case K_OPTION:
		if (!perr && val <= 1) {
			v = V_OK;
			nv = val;
		}
		break;
	default:
		die("%s on %s", __func__, t->name);
	}
	if (!n)
		v = V_EITHER;	/* an empty write: 0 or EINVAL, no change */
	ret = write_once(t->path, b, n, O_TRUNC);
	err = errno;
	record(t, b, n, O_TRUNC, ret, err);
	if (ret < 0 && v == V_OK)
		fail(t, "refused (%s), the model accepts it", strerror(err));
	if (ret >= 0 && v == V_BAD)
		fail(t, "accepted, the model refuses it");
	if (ret >= 0 && n)
		t->value = nv;
}

/* kernel.ftrace_enabled (proc_dointvec in stock, 0 or 1 only in ours) */
struct sysctl_case {
	const char *s;
	enum verdict v;
	long long value;
};

static const struct sysctl_case sysctl_cases[] = {
	{ "0\n", V_OK, 0 }, { "1\n", V_OK, 1 }, { "0", V_OK, 0 }, { "1", V_OK, 1 },
	{ " 1\n", V_OK, 1 }, { "1 \n", V_OK, 1 }, { "2\n", V_EITHER, 2 },
	{ "-1\n", V_EITHER, -1 }, { "abc\n", V_BAD, 0 }, { "1x\n", V_BAD, 0 },
	{ "\xfe\n", V_BAD, 0 }, { "0\n", V_OK, 0 }, { "1\n", V_OK, 1 },
};

static void sysctl_write(struct target *t)
{
	const struct sysctl_case *sc = &sysctl_cases[rn(sizeof(sysctl_cases) /
							sizeof(sysctl_cases[0]))];
	size_t n = strlen(sc->s);
	ssize_t ret = write_once(t->path, sc->s, n, O_TRUNC);
	int err = errno;

	record(t, sc->s, n, O_TRUNC, ret, err);
	if (ret < 0) {
		if (sc->v == V_OK && !(err == EBUSY && sc->value == 0))
			fail(t, "refused (%s), the model accepts it", strerror(err));
		/* stock: a permanent ops keeps ftrace on, as 1 */
		if (err == EBUSY && sc->value == 0 && t->value)
			t->value = 1;
		return;
	}
	if (sc->v == V_BAD)
		fail(t, "accepted, the model refuses it");
	if ((size_t)ret != n)
		fail(t, "returned %zd of %zu", ret, n);
	t->value = sc->value;
}

/* ---- read-back ---- */

/* What the model says the file reads back. */
static void expected_lines(struct target *t, struct lines *exp_)
{
	char buf[64 + TOKEN_LIMIT];
	struct lines exp = *exp_;

	switch (t->kind) {
	case K_FILTER:
	case K_GRAPH:
		for (int i = 0; i < nrec; i++)
			if (t->in[i])
				lines_add(&exp, recs[i].line);
		if (!t->count && (t->notrace || t->kind == K_GRAPH || !t->nmods))
			lines_add(&exp, t->notrace ? "#### no functions disabled ####" :
				  "#### all functions enabled ####");
		for (int i = 0; i < t->nmods; i++)
			lines_add(&exp, t->mods[i]);
		for (int i = 0; t->probe && i < nrec; i++) {
			if (!t->probe[i])
				continue;
			snprintf(buf, sizeof(buf), "%s:traceon:unlimited", recs[i].line);
			lines_add(&exp, buf);
		}
		break;
	case K_PID:
		if (!t->npids)
			lines_add(&exp, "no pid");
		for (int i = 0; i < t->npids; i++) {
			snprintf(buf, sizeof(buf), "%u", t->pids[i]);
			lines_add(&exp, buf);
		}
		break;
	case K_DEPTH:
		snprintf(buf, sizeof(buf), "%d", (int32_t)(uint32_t)t->value);
		lines_add(&exp, buf);
		break;
	default:
		snprintf(buf, sizeof(buf), "%lld", t->value);
		lines_add(&exp, buf);
		break;
	}
	*exp_ = exp;
}

static bool check(struct target *t, bool print)
{
	struct lines exp = {}, got = {};
	char *text;
	bool same;

	expected_lines(t, &exp);
	text = slurp(t->path, NULL);
	if (!text)
		fail(t, "read: %s", strerror(errno));
	lines_split(&got, text);
	free(text);
	t->checks++;
	same = lines_same(&exp, &got, false);
	if (!same && print) {
		fprintf(stderr, "FAIL: %s does not read back what the model predicts:\n", t->name);
		lines_same(&exp, &got, true);
		print_ring(t);
	}
	lines_free(&exp);
	lines_free(&got);
	return same;
}

static void one_step(struct target *t)
{
	long before = t->writes;
	double t0 = now();

	switch (t->kind) {
	case K_FILTER:
	case K_GRAPH:
		regex_session(t);
		break;
	case K_PID:
		pid_write(t);
		break;
	case K_SYSCTL:
		sysctl_write(t);
		break;
	default:
		num_write(t);
		break;
	}
	if (t->writes / check_every != before / check_every && !check(t, true))
		exit(1);
	t->busy += now() - t0;
}

/* ---- processes ---- */

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		printf("fh-fuzz: cannot pin to CPU %d (%s), running unpinned\n",
		       cpu, strerror(errno));
}

/*
 * One line: the writes each of a writer's files has had so far, and the
 * mean milliseconds one of them took (read-back checks included): the
 * slowest file sets the pace of its writer.
 */
static void progress(struct target **mine, int n, int cpu)
{
	char line[1024];
	int o;

	o = snprintf(line, sizeof(line), "fh-fuzz: CPU %d, %.0f s in, writes so far:",
		     cpu, now() - started);
	for (int i = 0; i < n && o < (int)sizeof(line); i++)
		o += snprintf(line + o, sizeof(line) - o, " %s %ld (%.0f ms)",
			      mine[i]->name, mine[i]->writes, mine[i]->writes ?
			      1000 * mine[i]->busy / mine[i]->writes : 0.0);
	printf("%s\n", line);
}

/* A writer: its files only, until each has had its writes. */
static void writer(struct target **mine, int n, int cpu, int out_fd)
{
	struct stats st = {};
	double next_progress;
	int left;

	pin(cpu);
	rng_state ^= 0x9e3779b97f4a7c15ULL * (cpu + 1);
	next_progress = progress_every ? now() + progress_every : 0;
	do {
		struct target *t;

		left = 0;
		for (int i = 0; i < n; i++)
			left += mine[i]->writes < writes_per_file;
		if (!left || deadline_passed())
			break;
		if (next_progress && now() > next_progress) {
			progress(mine, n, cpu);
			next_progress += progress_every;
		}
		do
			t = mine[rn(n)];
		while (t->writes >= writes_per_file);
		one_step(t);
	} while (left);
	for (int i = 0; i < n; i++) {
		if (!check(mine[i], true))
			exit(1);
		st.files++;
		st.writes += mine[i]->writes;
		st.accepted += mine[i]->accepted;
		st.rejected += mine[i]->rejected;
		st.checks += mine[i]->checks;
		printf("fh-fuzz: %s: %ld writes (%ld accepted, %ld rejected), %ld checks, %.0f s%s\n",
		       mine[i]->name, mine[i]->writes, mine[i]->accepted, mine[i]->rejected,
		       mine[i]->checks, mine[i]->busy, mine[i]->writes < writes_per_file ?
		       ", stopped by the time limit" : "");
	}
	if (write(out_fd, &st, sizeof(st)) != sizeof(st))
		exit(3);
	exit(0);
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* Switches the tracers while the writers write; checks each switch. */
static void switcher(bool graph)
{
	static const char * const top[] = { "nop", "function", "function_graph" };
	static const char * const inst[] = { "nop", "function" };
	char *ptop = path_of("current_tracer");
	char *pinst = path_of("instances/" INSTANCE "/current_tracer");
	long switches = 0, refused = 0;

	signal(SIGTERM, on_term);
	while (!stop) {
		bool in_inst = chance(40);
		const char *tr = in_inst ? inst[rn(2)] : top[rn(graph ? 3 : 2)];
		const char *p = in_inst ? pinst : ptop;
		ssize_t r = write_once(p, tr, strlen(tr), O_TRUNC);
		char *back;

		if (r < 0) {
			/* EBUSY: function_profile_enabled holds the graph */
			if (errno != EBUSY && errno != EINTR) {
				fprintf(stderr, "FAIL: %s refused by %s: %s\n",
					tr, p, strerror(errno));
				exit(1);
			}
			refused++;
		} else {
			switches++;
			back = slurp(p, NULL);
			if (!back || strncmp(back, tr, strlen(tr)) || back[strlen(tr)] != '\n') {
				fprintf(stderr, "FAIL: %s: wrote %s, reads %s\n", p, tr,
					back ? back : strerror(errno));
				exit(1);
			}
			free(back);
		}
		usleep(switch_pause_ms * 500 + rn(switch_pause_ms * 1000 + 1));
	}
	printf("fh-fuzz: tracer switches: %ld done, %ld refused (EBUSY), %ld ms apart on average\n",
	       switches, refused, switch_pause_ms);
	exit(0);
}

/* ---- set-up and restore ---- */

static void truncate_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd >= 0)
		close(fd);
}

/* A probe's line ("name:cmd:..."), not a function's or a :mod: entry's. */
static bool probe_line(const char *s)
{
	const char *colon = strchr(s, ':');

	return s[0] != '#' && colon && !strstr(s, ":mod:");
}

/*
 * Removes every probe of a filter file.  One "!name:cmd" removes the
 * probes of every function of that name (inv_show has five), so the
 * lines of the others then fail: only a probe still listed afterwards
 * is a failure.
 */
static void remove_probes(const char *path)
{
	char *text = slurp(path, NULL), *s, *nl;

	for (s = text; s && *s; s = nl + 1) {
		char name[600], cmd[64], b[700], *colon, *sp;

		nl = strchr(s, '\n');
		if (!nl)
			break;
		*nl = '\0';
		if (!probe_line(s))
			continue;
		colon = strchr(s, ':');
		snprintf(name, sizeof(name), "%.*s", (int)(colon - s), s);
		sp = strchr(name, ' ');
		if (sp)
			*sp = '\0';
		snprintf(cmd, sizeof(cmd), "%s", colon + 1);
		if (strchr(cmd, ':'))
			*strchr(cmd, ':') = '\0';
		snprintf(b, sizeof(b), "!%s:%s\n", name, cmd);
		write_once(path, b, strlen(b), O_APPEND);
	}
	free(text);
	text = slurp(path, NULL);
	for (s = text; s && *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			break;
		*nl = '\0';
		if (probe_line(s))
			fprintf(stderr, "fh-fuzz: cannot remove probe %s\n", s);
	}
	free(text);
}

static void restore(void)
{
	char *p;

	p = path_of("current_tracer");
	write_once(p, "nop", 3, O_TRUNC);
	free(p);
	p = path_of("instances/" INSTANCE "/current_tracer");
	write_once(p, "nop", 3, O_TRUNC);
	free(p);
	for (int i = 0; i < ntargets; i++) {
		struct target *t = targets[i];
		char b[32];

		switch (t->kind) {
		case K_FILTER:
			if (t->probes)
				remove_probes(t->path);
			/* fall through */
		case K_GRAPH:
		case K_PID:
			truncate_file(t->path);
			break;
		default:
			snprintf(b, sizeof(b), "%lld\n", t->orig);
			if (write_once(t->path, b, strlen(b), O_TRUNC) < 0)
				fprintf(stderr, "fh-fuzz: cannot restore %s to %lld: %s\n",
					t->name, t->orig, strerror(errno));
			break;
		}
	}
	p = path_of("instances/" INSTANCE);
	if (rmdir(p) && errno != ENOENT)
		fprintf(stderr, "fh-fuzz: cannot remove %s: %s\n", p, strerror(errno));
	free(p);
}

static long long read_number(struct target *t)
{
	char *text = slurp(t->path, NULL);
	long long v;

	if (!text)
		die("cannot read %s: %s", t->path, strerror(errno));
	v = strtoll(text, NULL, 10);
	free(text);
	return v;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: fh-fuzz [--writes N] [--seed S] [--check-every K] [--time-limit SEC]\n"
		"               [--switch-pause MS] [--progress SEC]\n"
		"               [--tracefs DIR] [--divergent] [--verbose]\n"
		"       fh-fuzz --selftest [available_filter_functions-like file]\n");
	exit(2);
}

static int selftest(const char *funcs);

int main(int argc, char **argv)
{
	struct target *a[16], *b[16];
	int na = 0, nb = 0, status, fds[2], failed = 0;
	struct stats total = {}, st;
	double limit = 0;
	uint64_t seed = 0;
	pid_t pa, pb, pc;
	char *p;
	bool graph;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--selftest"))
			return selftest(i + 1 < argc ? argv[i + 1] : NULL);
		else if (!strcmp(argv[i], "--writes") && i + 1 < argc)
			writes_per_file = atol(argv[++i]);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--check-every") && i + 1 < argc)
			check_every = atol(argv[++i]);
		else if (!strcmp(argv[i], "--time-limit") && i + 1 < argc)
			limit = atof(argv[++i]);
		else if (!strcmp(argv[i], "--switch-pause") && i + 1 < argc)
			switch_pause_ms = atol(argv[++i]);
		else if (!strcmp(argv[i], "--progress") && i + 1 < argc)
			progress_every = atof(argv[++i]);
		else if (!strcmp(argv[i], "--tracefs") && i + 1 < argc)
			tracefs = argv[++i];
		else if (!strcmp(argv[i], "--divergent"))
			divergent = true;
		else if (!strcmp(argv[i], "--verbose"))
			verbose = true;
		else
			usage();
	}
	if (writes_per_file < 1 || check_every < 1)
		usage();
	if (!seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	rng_state = seed * 2 + 1;	/* xorshift needs a non-zero state */
	printf("fh-fuzz: seed %llu (rerun with --seed %llu)\n",
	       (unsigned long long)seed, (unsigned long long)seed);

	started = now();
	p = path_of("available_filter_functions");
	load_functions(p);
	free(p);
	if (ncore < 100)
		die("only %d functions to draw names from", ncore);
	selbuf = xmalloc(nrec);
	printf("fh-fuzz: %d functions listed, %d loaded modules with functions\n", nrec, nloaded);

	p = path_of("instances/" INSTANCE);
	rmdir(p);
	if (mkdir(p, 0755))
		die("mkdir %s: %s", p, strerror(errno));
	free(p);

	/* Process A: CPU 0. */
#define ADD(arr, n, rel, kind) do {				\
		struct target *t_ = add_target(rel, kind);	\
								\
		if (t_)						\
			(arr)[(n)++] = t_;			\
	} while (0)
	ADD(a, na, "set_ftrace_filter", K_FILTER);
	if (na)
		a[0]->probes = true;
	ADD(a, na, "set_graph_function", K_GRAPH);
	ADD(a, na, "set_ftrace_pid", K_PID);
	ADD(a, na, "max_graph_depth", K_DEPTH);
	ADD(a, na, "/proc/sys/kernel/ftrace_enabled", K_SYSCTL);
	/*
	 * function-fork is left alone: with it, the pid lists follow forks
	 * and exits, which no model of the writes can predict; so is
	 * func_stack_trace, a stack trace per traced call (far too slow
	 * under emulation).
	 */
	ADD(a, na, "options/function-trace", K_OPTION);
	ADD(a, na, "options/funcgraph-proc", K_OPTION);
	ADD(a, na, "options/funcgraph-irqs", K_OPTION);
	ADD(a, na, "options/funcgraph-tail", K_OPTION);
	/*
	 * A writer's files take their turns at random, so its slowest files
	 * set its pace: the filter and pid files (about 100 and 70 ms a
	 * write under TCG, the others 2-35) are shared out so that both
	 * writers need about as long for their counts.  A filter and its
	 * notrace file, or a pid file and its notrace one, have different
	 * writers.
	 */
	ADD(a, na, "instances/" INSTANCE "/set_ftrace_notrace", K_FILTER);
	ADD(a, na, "instances/" INSTANCE "/set_ftrace_pid", K_PID);
	/* Process B: CPU 1. */
	ADD(b, nb, "set_ftrace_notrace", K_FILTER);
	ADD(b, nb, "set_graph_notrace", K_GRAPH);
	ADD(b, nb, "set_ftrace_notrace_pid", K_PID);
	ADD(b, nb, "function_profile_enabled", K_PROFILE);
	ADD(b, nb, "instances/" INSTANCE "/set_ftrace_filter", K_FILTER);
	ADD(b, nb, "instances/" INSTANCE "/set_ftrace_notrace_pid", K_PID);
#undef ADD
	for (int i = 0; i < ntargets; i++) {
		struct target *t = targets[i];

		t->notrace = strstr(t->name, "notrace");
		if (t->kind >= K_DEPTH) {
			t->value = read_number(t);
			t->orig = t->value;
		}
	}
	p = path_of("set_graph_function");
	graph = access(p, F_OK) == 0;
	free(p);

	/* Start from empty sets, and check that they read back empty. */
	restore();
	p = path_of("instances/" INSTANCE);
	if (mkdir(p, 0755))
		die("mkdir %s: %s", p, strerror(errno));
	free(p);
	for (int i = 0; i < ntargets; i++) {
		if (!check(targets[i], true)) {
			restore();
			fprintf(stderr, "FAIL: %s does not read back as expected at the start\n",
				targets[i]->name);
			return 1;
		}
		targets[i]->checks = 0;
	}
	if (limit)
		deadline = now() + limit;
	printf("fh-fuzz: %d files (%d on CPU 0, %d on CPU 1), %ld writes each, check every %ld%s\n",
	       ntargets, na, nb, writes_per_file, check_every,
	       divergent ? ", with the inputs stock and ours treat differently" : "");

	if (pipe(fds))
		die("pipe: %s", strerror(errno));
	pc = fork();
	if (!pc)
		switcher(graph);
	pa = fork();
	if (!pa)
		writer(a, na, 0, fds[1]);
	pb = fork();
	if (!pb)
		writer(b, nb, 1, fds[1]);
	close(fds[1]);
	for (int live = 2; live;) {
		pid_t w = wait(&status);

		if (w < 0)
			break;
		if (w == pc) {
			fprintf(stderr, "FAIL: the tracer switcher stopped early\n");
			failed = 1;
			pc = 0;
			continue;
		}
		if (w != pa && w != pb)
			continue;
		live--;
		if (WIFEXITED(status) && !WEXITSTATUS(status))
			continue;
		fprintf(stderr, "FAIL: the writer on CPU %d %s %d\n", w == pa ? 0 : 1,
			WIFEXITED(status) ? "exited with" : "was killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		failed = 1;
		/* no need to wait for the other one */
		kill(w == pa ? pb : pa, SIGKILL);
	}
	if (pc > 0) {
		kill(pc, SIGTERM);
		waitpid(pc, &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "FAIL: the tracer switcher failed\n");
			failed = 1;
		}
	}
	while (read(fds[0], &st, sizeof(st)) == sizeof(st)) {
		total.files += st.files;
		total.writes += st.writes;
		total.accepted += st.accepted;
		total.rejected += st.rejected;
		total.checks += st.checks;
	}
	restore();
	printf("fh-fuzz: files %ld, writes per file %ld, writes %ld (accepted %ld, rejected %ld), checks %ld, %.0f s%s\n",
	       total.files, writes_per_file, total.writes, total.accepted, total.rejected,
	       total.checks, now() - started, failed ? ", FAILED" : "");
	return failed;
}

/* ---- --selftest: the pure logic, without a kernel ---- */

static int st_fails;

#define EXPECT(cond) do {						\
		if (!(cond)) {						\
			st_fails++;					\
			fprintf(stderr, "selftest: line %d: %s\n",	\
				__LINE__, #cond);			\
		}							\
	} while (0)

/* Tokens trace_get_user() would hand over for one write, joined by '|'. */
static void tokens_of(struct parser *p, const char *b, size_t n, char *out, long *consumed)
{
	size_t pos = 0;

	out[0] = '\0';
	while (pos < n) {
		long r = parse_step(p, b + pos, n - pos);

		if (r < 0) {
			strcat(out, "<overflow>");
			break;
		}
		pos += r;
		if (parser_complete(p)) {
			strcat(out, p->buf);
			strcat(out, "|");
			p->idx = 0;
		}
	}
	*consumed = pos;
}

static void selftest_parser(void)
{
	struct parser p = {};
	char out[256];
	long used;

	tokens_of(&p, "a b\tc\n", 6, out, &used);
	EXPECT(!strcmp(out, "a|b|c|") && used == 6 && !p.cont);
	/* one call consumes the token and its delimiter only */
	memset(&p, 0, sizeof(p));
	EXPECT(parse_step(&p, "  ab cd", 7) == 5 && parser_complete(&p) && !strcmp(p.buf, "ab"));
	/* a token at the end of a write waits for the next one */
	memset(&p, 0, sizeof(p));
	tokens_of(&p, "sched_", 6, out, &used);
	EXPECT(!out[0] && p.cont && used == 6);
	tokens_of(&p, "fork\n", 5, out, &used);
	EXPECT(!strcmp(out, "sched_fork|"));
	/* a pending token ends at a space that begins the next write */
	memset(&p, 0, sizeof(p));
	tokens_of(&p, "abc", 3, out, &used);
	EXPECT(parse_step(&p, " def", 4) == 1 && parser_complete(&p) && !strcmp(p.buf, "abc"));
	/* NUL ends a token; a NUL first ends the call */
	memset(&p, 0, sizeof(p));
	EXPECT(parse_step(&p, "ab\0cd", 5) == 3 && !strcmp(p.buf, "ab"));
	memset(&p, 0, sizeof(p));
	EXPECT(parse_step(&p, " \0cd", 4) == 2 && !parser_complete(&p));
	/* the kernel's isspace() takes 0xa0; glibc's does not */
	memset(&p, 0, sizeof(p));
	tokens_of(&p, "a\240b ", 4, out, &used);
	EXPECT(!strcmp(out, "a|b|"));
	/* overflow */
	{
		static char big[LONG_TOKEN];

		memset(big, 'x', sizeof(big));
		memset(&p, 0, sizeof(p));
		EXPECT(parse_step(&p, big, sizeof(big)) < 0 && p.fail && !parser_complete(&p));
	}
	/* only spaces */
	memset(&p, 0, sizeof(p));
	EXPECT(parse_step(&p, " \n\t", 3) == 3 && !parser_complete(&p));
}

static void selftest_regex(void)
{
	struct glob g;

	glob_parse(&g, "vfs_read");
	EXPECT(g.type == M_FULL && !g.not && glob_match(&g, "vfs_read") &&
	       !glob_match(&g, "vfs_readv"));
	glob_parse(&g, "vfs_*");
	EXPECT(g.type == M_FRONT && !strcmp(g.search, "vfs_") && glob_match(&g, "vfs_read"));
	glob_parse(&g, "*_read");
	EXPECT(g.type == M_END && !strcmp(g.search, "_read") && glob_match(&g, "vfs_read") &&
	       !glob_match(&g, "vfs_readv"));
	glob_parse(&g, "*fs_re*");
	EXPECT(g.type == M_MIDDLE && !strcmp(g.search, "fs_re") && glob_match(&g, "vfs_readv"));
	glob_parse(&g, "!v*s_read");
	EXPECT(g.type == M_GLOB && g.not && glob_match(&g, "vfs_read") &&
	       !glob_match(&g, "vfs_readv"));
	glob_parse(&g, "vfs_rea?");
	EXPECT(g.type == M_GLOB && glob_match(&g, "vfs_read") && !glob_match(&g, "vfs_re"));
	glob_parse(&g, "vfs_[rw]ead");
	EXPECT(g.type == M_GLOB && glob_match(&g, "vfs_read") && !glob_match(&g, "vfs_xead"));
	glob_parse(&g, "vfs_[a-s]ead");
	EXPECT(glob_match(&g, "vfs_read") && !glob_match(&g, "vfs_wead"));
	glob_parse(&g, "12");
	EXPECT(g.type == M_INDEX && !strcmp(g.search, "12"));
	glob_parse(&g, "!3x");
	EXPECT(g.type == M_INDEX && g.not);
	EXPECT(lenient_number("010") == 8 && lenient_number("5abc") == 5 &&
	       lenient_number("0x1f") == 31 && lenient_number("08") == 0 &&
	       lenient_number("12") == 12);
	glob_parse(&g, "*");
	EXPECT(g.type == M_END && !g.search[0] && glob_match(&g, "anything"));
	glob_parse(&g, "**");
	EXPECT(g.type == M_MIDDLE && !g.search[0]);
	glob_parse(&g, "a*b*");
	EXPECT(g.type == M_GLOB);
	glob_parse(&g, "!");
	EXPECT(g.type == M_FULL && g.not && !g.search[0] && !glob_match(&g, "x"));
}

static void selftest_numbers(void)
{
	uint64_t v;

	EXPECT(!kstrtoul_model("12", 0, &v) && v == 12);
	EXPECT(!kstrtoul_model("0x1f", 0, &v) && v == 31);
	EXPECT(!kstrtoul_model("010", 0, &v) && v == 8);
	EXPECT(!kstrtoul_model("010", 10, &v) && v == 10);
	EXPECT(kstrtoul_model("08", 0, &v) == -EINVAL);
	EXPECT(kstrtoul_model("0x10", 10, &v) == -EINVAL);
	EXPECT(!kstrtoul_model("+5\n", 10, &v) && v == 5);
	EXPECT(kstrtoul_model("5\n\n", 10, &v) == -EINVAL);
	EXPECT(kstrtoul_model(" 5", 10, &v) == -EINVAL);
	EXPECT(kstrtoul_model("-1", 10, &v) == -EINVAL);
	EXPECT(kstrtoul_model("", 10, &v) == -EINVAL);
	EXPECT(!kstrtoul_model("18446744073709551615", 10, &v) && v == UINT64_MAX);
	EXPECT(kstrtoul_model("18446744073709551616", 10, &v) == -ERANGE);
	EXPECT(!kstrtoul_model("0", 0, &v) && v == 0);
	EXPECT(kstrtoul_model("0x", 0, &v) == -EINVAL);
	EXPECT(!kstrtoul_user_model("1\0junk", 6, 10, &v) && v == 1);
}

/* The model against a list of functions: names, positions, removals. */
static void selftest_model(void)
{
	struct target t = { .name = "model", .kind = K_FILTER, .probes = true };
	struct target gr = { .name = "graph", .kind = K_GRAPH };
	const char *n0 = recs[core_pool[0]].name;
	char tok[600];
	int dup = -1;

	t.in = xmalloc(nrec);
	t.sin = xmalloc(nrec);
	t.probe = xmalloc(nrec);
	gr.in = xmalloc(nrec);
	gr.sin = xmalloc(nrec);
	EXPECT(eval_token(&t, n0, true) == V_OK && t.scount >= 1);
	EXPECT(eval_token(&t, "fh_fuzz_no_such_function", true) == V_BAD);
	snprintf(tok, sizeof(tok), "!%s", n0);
	EXPECT(eval_token(&t, tok, true) == V_OK && t.scount == 0);
	/* removing what is not there: fine in set_ftrace_filter ... */
	EXPECT(eval_token(&t, tok, true) == V_OK);
	/* ... either way in set_graph_function */
	EXPECT(eval_token(&gr, tok, true) == V_EITHER);
	EXPECT(eval_token(&gr, "12", false) == V_BAD);
	snprintf(tok, sizeof(tok), "%d", core_pool[0] + 1);
	EXPECT(eval_token(&t, tok, true) == V_OK && t.sin[core_pool[0]] && t.scount == 1);
	EXPECT(eval_token(&t, "0", false) == V_BAD);
	snprintf(tok, sizeof(tok), "%d", nrec + 1);
	EXPECT(eval_token(&t, tok, false) == V_BAD);
	snprintf(tok, sizeof(tok), "%s:mod:fh_fuzz_nomod1", n0);
	EXPECT(eval_token(&t, tok, true) == V_OK && t.snmods == 1 && !strcmp(t.smods[0], tok));
	EXPECT(eval_token(&t, "!*:mod:fh_fuzz_nomod1", true) == V_OK && t.snmods == 0);
	EXPECT(eval_token(&t, "!*:mod:fh_fuzz_nomod1", true) == V_BAD);
	snprintf(tok, sizeof(tok), "%s:traceon", n0);
	EXPECT(eval_token(&t, tok, true) == V_OK && t.nprobe >= 1);
	EXPECT(eval_token(&t, tok, true) == V_BAD);	/* already there */
	snprintf(tok, sizeof(tok), "!%s:traceon", n0);
	EXPECT(eval_token(&t, tok, true) == V_OK && t.nprobe == 0);
	EXPECT(eval_token(&t, tok, true) == V_BAD);
	snprintf(tok, sizeof(tok), "%s:traceon:junk", n0);
	EXPECT(eval_token(&t, tok, false) == V_BAD);
	snprintf(tok, sizeof(tok), "%s:fhbogus", n0);
	EXPECT(eval_token(&t, tok, false) == V_BAD);
	/* a name listed twice selects both */
	for (int i = 0; i < ncore && dup < 0; i++)
		for (int j = i + 1; j < ncore && j < i + 50; j++)
			if (!strcmp(recs[core_pool[i]].name, recs[core_pool[j]].name))
				dup = core_pool[i];
	if (dup >= 0) {
		int before = t.scount;

		EXPECT(eval_token(&t, recs[dup].name, true) == V_OK && t.scount >= before + 2);
	}
	/* module globs: "*" and "" every module, "!*" the kernel, "!m" not m */
	if (nloaded) {
		struct glob all;
		int k = 0, nmod = 0, nm = 0, nvalid = 0;
		char pre[64];

		while (!recs[k].mod || !recs[k].valid)
			k++;
		for (int i = 0; i < nrec; i++) {
			nvalid += recs[i].valid;
			nmod += recs[i].valid && recs[i].mod;
			nm += recs[i].valid && recs[i].mod && !strcmp(recs[i].mod, recs[k].mod);
		}
		glob_parse(&all, strcpy(tok, "*"));
		EXPECT(select_recs(&all, "*", selbuf) == nmod);
		EXPECT(select_recs(&all, "", selbuf) == nmod);
		EXPECT(select_recs(&all, "!*", selbuf) == nvalid - nmod);
		EXPECT(select_recs(&all, recs[k].mod, selbuf) == nm);
		snprintf(pre, sizeof(pre), "!%s", recs[k].mod);
		EXPECT(select_recs(&all, pre, selbuf) == nvalid - nm);
		snprintf(pre, sizeof(pre), "%.2s*", recs[k].mod);
		EXPECT(select_recs(&all, pre, selbuf) >= nm);
	}
	/* the generators' globs stay narrow */
	for (int k = 0; k < 200; k++) {
		struct glob g;

		narrow_glob(tok, 256);
		glob_parse(&g, tok);
		EXPECT(select_recs(&g, NULL, selbuf) >= 1);
	}
}

static int selftest(const char *funcs)
{
	selftest_parser();
	selftest_regex();
	selftest_numbers();
	if (funcs) {
		load_functions(funcs);
		selbuf = xmalloc(nrec);
		if (ncore < 10)
			die("%s: too few functions", funcs);
		selftest_model();
	}
	printf("selftest: %s%s\n", st_fails ? "FAILED" : "ok",
	       funcs ? "" : " (no function list: model tests skipped)");
	return st_fails ? 1 : 0;
}
