// SPDX-License-Identifier: GPL-2.0
/*
 * fh-failnth: walk the allocation points of one operation with fail-nth.
 *
 * Writing N to /proc/self/task/<tid>/fail-nth makes the Nth fault
 * injection point this task reaches fail (a slab or page allocation, once
 * failslab and fail_page_alloc let GFP_KERNEL through: fault-inject.tc
 * sets them up).  For N = 1, 2, ... this program arms fail-nth, performs
 * the operation and nothing else, reads fail-nth back (nonzero: the Nth
 * point was never reached, the operation ran without a failure and the
 * walk is over) and checks the outcome:
 *
 *   - failed: errno is ENOMEM (or one given with -e) and the state reads
 *     back exactly as before;
 *   - succeeded although a point failed (a retry or a fallback absorbed
 *     it): the state is what the fault-free operation leaves, or with -A
 *     the state before (the change is committed in ->release(), whose
 *     error the VFS drops), or the -K command accepts it;
 *
 * then undoes a success (-u) and checks that the start state is back.
 * The shell would add its own allocations to the count, hence this
 * program; the state, undo and probe commands are shell commands it runs
 * outside the armed window.
 *
 * The fault-free reference run arms fail-nth with a huge N and so also
 * counts the points (P).  -k K walks every N up to HEAD, then about K
 * values of N spread over the rest of 1..P (and P itself), for a short
 * run; otherwise every N up to -m MAX.
 *
 * Usage: fh-failnth [options] NAME OP ARGS...
 *   OP: write FILE TEXT | append FILE TEXT | mkdir DIR | insmod KO [PARAMS]
 *       | rmmod NAME | fork
 *   (write opens FILE with O_TRUNC, append with O_APPEND; both write TEXT
 *   and a newline, as echo does, in one write(2), then close it)
 *   -s CMD  state command (required); its output is the state
 *   -u CMD  undo a successful operation
 *   -p CMD  functional probe, run in the state after a success
 *   -r      after each failure, redo the operation without faults, check
 *           the state and the probe, and undo it
 *   -A      a success may leave the start state (see above)
 *   -K CMD  accepts a success's unexpected state when it exits 0
 *   -F CMD  accepts a failure's changed state when it exits 0 (a state
 *           the interface documents for a failure, then undone with -u)
 *   -e ERR  another accepted errno (a number), repeatable
 *   -k K, -m MAX  as above (MAX defaults to 2000)
 * Exit status: 0 all outcomes right, 1 a wrong outcome, 2 cannot run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Far more points than any operation has, for the counting run. */
#define COUNT_ARM	1000000000u
#define MAX_ERRS	8
/* A sampled walk takes every n up to this one first. */
#define HEAD		8u

static const char *name;
static const char *state_cmd, *undo_cmd, *probe_cmd, *absorb_cmd, *failed_cmd;
static int redo, allow_start;
static int errs[MAX_ERRS] = { ENOMEM };
static int nr_errs = 1;
static int nth_fd = -1;
static char **op;
static int op_args;
static int ko_fd = -1;
static char *text;	/* what write and append write: TEXT and a newline */

static void die(int status, const char *fmt, ...)
{
	va_list ap;

	printf("fault-inject: %s: ", name ? name : "fh-failnth");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	exit(status);
}

static void nth_set(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(nth_fd, buf, len, 0) != len)
		die(2, "cannot write fail-nth: %s", strerror(errno));
}

static unsigned int nth_get(void)
{
	char buf[16];
	ssize_t len = pread(nth_fd, buf, sizeof(buf) - 1, 0);

	if (len <= 0)
		die(2, "cannot read fail-nth: %s", strerror(errno));
	buf[len] = 0;
	return strtoul(buf, NULL, 10);
}

/*
 * The operation, and only it, between arming and reading fail-nth.
 * Returns 0 or the errno of the first step that failed.
 */
static int run_op(void)
{
	const char *what = op[0];
	int err = 0;

	if (!strcmp(what, "write") || !strcmp(what, "append")) {
		size_t len = strlen(text);
		int flags = O_WRONLY | (what[0] == 'a' ? O_APPEND : O_TRUNC);
		int fd = open(op[1], flags);
		ssize_t w;

		if (fd < 0)
			return errno;
		w = write(fd, text, len);
		if (w < 0)
			err = errno;
		else if ((size_t)w != len)
			err = EIO;	/* a short write: reported below */
		if (close(fd) && !err)
			err = errno;
		return err;
	}
	if (!strcmp(what, "mkdir"))
		return mkdir(op[1], 0755) ? errno : 0;
	if (!strcmp(what, "insmod")) {
		const char *params = op_args > 2 ? op[2] : "";

		return syscall(SYS_finit_module, ko_fd, params, 0) ? errno : 0;
	}
	if (!strcmp(what, "rmmod"))
		return syscall(SYS_delete_module, op[1], O_NONBLOCK) ? errno : 0;
	if (!strcmp(what, "fork")) {
		pid_t pid = fork();
		int status;

		if (pid < 0)
			return errno;
		if (!pid) {
			/*
			 * The child returns through a few kernel functions
			 * (the graph tracer's return stack, if it got one) and
			 * exits 0; a broken return stack would kill it.
			 */
			char buf[64];
			int fd = open("/proc/self/stat", O_RDONLY);

			if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0)
				_exit(3);
			close(fd);
			_exit(getppid() > 0 ? 0 : 4);
		}
		/* Waiting is not part of the operation, but it has no points. */
		if (waitpid(pid, &status, 0) != pid)
			return errno;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			return -status - 1;	/* a child gone wrong: never ok */
		return 0;
	}
	die(2, "unknown operation %s", what);
	return 0;
}

/* The output of a shell command, malloc'ed. */
static char *capture(const char *cmd)
{
	size_t size = 4096, len = 0;
	char *out = malloc(size);
	FILE *f;
	size_t r;

	fflush(stdout);
	f = popen(cmd, "r");
	if (!f || !out)
		die(2, "cannot run '%s'", cmd);
	while ((r = fread(out + len, 1, size - len - 1, f)) > 0) {
		len += r;
		if (len + 1 == size) {
			size *= 2;
			out = realloc(out, size);
			if (!out)
				die(2, "out of memory");
		}
	}
	out[len] = 0;
	if (pclose(f))
		die(2, "state command '%s' failed", cmd);
	return out;
}

static int shell(const char *cmd)
{
	int status;

	fflush(stdout);
	status = system(cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Print a state, indented, at most 30 lines of it. */
static void show(const char *label, const char *s)
{
	int lines = 0;

	printf("  %s:\n", label);
	while (*s && lines < 30) {
		const char *nl = strchr(s, '\n');
		int len = nl ? nl - s : (int)strlen(s);

		printf("    %.*s\n", len, s);
		s += len + (nl ? 1 : 0);
		lines++;
	}
	if (*s)
		printf("    ...\n");
}

static int errno_ok(int err)
{
	int i;

	for (i = 0; i < nr_errs; i++)
		if (err == errs[i])
			return 1;
	return 0;
}

static const char *errname(int err)
{
	static char buf[64];

	if (err < 0)
		snprintf(buf, sizeof(buf), "the child died (wait status %d)", -err - 1);
	else
		snprintf(buf, sizeof(buf), "%s (%d)", strerror(err), err);
	return buf;
}

static char *start, *after;
static unsigned long n_failed, n_absorbed, n_uncommitted, n_accepted, n_failed_other;

/*
 * The state now must be @want; otherwise say @what, show both states
 * (labelled @want_label and @got_label) and fail.
 */
static void expect_state(unsigned int n, const char *what, const char *want_label,
			 const char *want, const char *got_label)
{
	char *s = capture(state_cmd);

	if (strcmp(s, want)) {
		printf("fault-inject: %s: n=%u: %s\n", name, n, what);
		show(want_label, want);
		show(got_label, s);
		die(1, "FAIL");
	}
	free(s);
}

/* Undo a success and check that the start state is back. */
static void undo(unsigned int n)
{
	if (undo_cmd && shell(undo_cmd))
		die(1, "n=%u: the undo command '%s' failed", n, undo_cmd);
	expect_state(n, "undoing the operation did not restore the start",
		     "start", start, "now");
}

static void probe(unsigned int n, const char *when)
{
	if (probe_cmd && shell(probe_cmd))
		die(1, "n=%u: FAIL: the probe '%s' failed %s", n, probe_cmd, when);
}

/* One step of the walk; returns 0 once the Nth point was not reached. */
static int step(unsigned int n)
{
	unsigned int left;
	char *s;
	int err;

	nth_set(n);
	err = run_op();
	left = nth_get();
	nth_set(0);

	if (err < 0)
		die(1, "n=%u: FAIL: %s", n, errname(err));
	if (left) {
		/* No injected failure: the plain operation, which must work. */
		if (err)
			die(1, "n=%u: FAIL: the operation failed without an injected failure: %s",
			    n, errname(err));
		expect_state(n, "FAIL: a fault-free run left another state",
			     "expected", after, "got");
		undo(n);
		return 0;
	}

	s = capture(state_cmd);
	if (err) {
		if (!errno_ok(err))
			die(1, "n=%u: FAIL: the operation failed with %s, not ENOMEM",
			    n, errname(err));
		if (strcmp(s, start) && failed_cmd && !shell(failed_cmd)) {
			n_failed_other++;
			if (!redo)
				undo(n);
		} else if (strcmp(s, start)) {
			printf("fault-inject: %s: n=%u: FAIL: failed with %s but changed the state\n",
			       name, n, errname(err));
			show("before", start);
			show("after the failure", s);
			undo(n);	/* best effort, to leave the system usable */
			die(1, "FAIL");
		} else {
			n_failed++;
		}
		if (redo) {
			err = run_op();
			if (err)
				die(1, "n=%u: FAIL: the operation fails after a failure: %s",
				    n, errname(err));
			expect_state(n, "FAIL: after a failure, the operation leaves another state",
				     "expected", after, "got");
			probe(n, "when the operation was redone after a failure");
			undo(n);
		}
	} else if (!strcmp(s, after)) {
		n_absorbed++;
		probe(n, "after a success with an injected failure");
		undo(n);
	} else if (allow_start && !strcmp(s, start)) {
		n_uncommitted++;
	} else if (absorb_cmd && !shell(absorb_cmd)) {
		n_accepted++;
		undo(n);
	} else {
		printf("fault-inject: %s: n=%u: FAIL: succeeded under an injected failure with a wrong state\n",
		       name, n);
		show("expected", after);
		show("got", s);
		undo(n);
		die(1, "FAIL");
	}
	free(s);
	return 1;
}

int main(int argc, char **argv)
{
	unsigned int k = 0, max = 2000, points, stride, n, last = 0, tried = 0;
	char path[64];
	int opt, err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "+s:u:p:rAK:F:e:k:m:")) != -1) {
		switch (opt) {
		case 's':
			state_cmd = optarg;
			break;
		case 'u':
			undo_cmd = optarg;
			break;
		case 'p':
			probe_cmd = optarg;
			break;
		case 'r':
			redo = 1;
			break;
		case 'A':
			allow_start = 1;
			break;
		case 'K':
			absorb_cmd = optarg;
			break;
		case 'F':
			failed_cmd = optarg;
			break;
		case 'e':
			if (nr_errs == MAX_ERRS)
				die(2, "too many -e");
			errs[nr_errs++] = atoi(optarg);
			break;
		case 'k':
			k = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			max = strtoul(optarg, NULL, 0);
			break;
		default:
			die(2, "bad option (see the comment at the top of fh-failnth.c)");
		}
	}
	if (argc - optind < 2 || !state_cmd)
		die(2, "usage: fh-failnth -s STATE [options] NAME OP ARGS...");
	name = argv[optind];
	op = argv + optind + 1;
	op_args = argc - optind - 1;
	if ((!strcmp(op[0], "write") || !strcmp(op[0], "append")) && op_args != 3)
		die(2, "usage: %s FILE TEXT", op[0]);
	if ((!strcmp(op[0], "mkdir") || !strcmp(op[0], "insmod") ||
	     !strcmp(op[0], "rmmod")) && op_args < 2)
		die(2, "usage: %s PATH", op[0]);
	if (!strcmp(op[0], "write") || !strcmp(op[0], "append")) {
		/*
		 * As echo writes it: a filter file parses a token once a
		 * newline ends it, so that write(2) reports its errors.
		 */
		text = malloc(strlen(op[2]) + 2);
		if (!text)
			die(2, "out of memory");
		sprintf(text, "%s\n", op[2]);
	}
	if (!strcmp(op[0], "insmod")) {
		ko_fd = open(op[1], O_RDONLY | O_CLOEXEC);
		if (ko_fd < 0)
			die(2, "cannot open %s: %s", op[1], strerror(errno));
	}

	snprintf(path, sizeof(path), "/proc/self/task/%ld/fail-nth", (long)syscall(SYS_gettid));
	nth_fd = open(path, O_RDWR | O_CLOEXEC);
	if (nth_fd < 0)
		die(2, "cannot open %s: %s", path, strerror(errno));

	/* The reference run, counting the points on the way. */
	start = capture(state_cmd);
	nth_set(COUNT_ARM);
	err = run_op();
	points = COUNT_ARM - nth_get();
	nth_set(0);
	if (err)
		die(1, "FAIL: the operation fails without faults: %s", errname(err));
	after = capture(state_cmd);
	/* fork changes nothing lasting: its check is the child's exit. */
	if (!strcmp(after, start) && strcmp(op[0], "fork"))
		die(2, "the operation does not change the state: nothing to check");
	probe(0, "after the fault-free operation");
	undo(0);
	if (!points)
		die(2, "the operation reached no fault injection point");

	/*
	 * -m caps a walk of every n; a sampled walk is bounded by -k, and
	 * takes every n up to HEAD first: the first points are the common
	 * path (open, copying the write), which a stride would step over
	 * (a positive return of open() went unseen that way).
	 */
	stride = k && points > k ? points / k : 1;
	for (n = 1; n <= max || stride > 1; n += n < HEAD ? 1 : stride) {
		/* A short walk takes P itself last, the final point. */
		if (stride > 1 && n > points && last < points)
			n = points;
		else if (stride > 1 && n > points)
			break;
		tried++;
		last = n;
		if (!step(n))
			break;
	}
	printf("fault-inject: %s: %u points in the fault-free run; walked n=1..%u %s (%u runs): %lu failed with the right errno and state, %lu succeeded with the fault-free state, %lu left the start state (change dropped at close), %lu degraded but accepted, %lu failed into a documented state",
	       name, points, last, stride > 1 ? "in steps" : "every n", tried,
	       n_failed, n_absorbed, n_uncommitted, n_accepted, n_failed_other);
	if (stride > 1)
		printf(" (every n up to %u, then step %u)", HEAD, stride);
	if (stride == 1 && n > max)
		printf("; stopped at the cap %u", max);
	printf("\nfault-inject: %s: PASS\n", name);
	return 0;
}
