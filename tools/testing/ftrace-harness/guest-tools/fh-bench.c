// SPDX-License-Identifier: GPL-2.0
/*
 * fh-bench: the timed operations of 'make bench' (job-bench.sh), each
 * measured around the system calls alone, so that no fork or exec of a
 * shell command is counted.  Prints two numbers: the nanoseconds of
 * CLOCK_MONOTONIC the operation took, and those of this thread's own CPU
 * time (CLOCK_THREAD_CPUTIME_ID).  Under QEMU's '-icount shift=0' a
 * nanosecond is one executed instruction: the first number counts every
 * instruction run meanwhile, by any task, plus the idle time the virtual
 * clock skipped while the operation slept (grace periods, timers); the
 * second only the instructions this thread ran.
 *
 *   fh-bench syscall N       N getppid() system calls
 *   fh-bench rw N [STATS]    N 1-byte reads of /dev/zero, each followed by
 *                            a 1-byte write to /dev/null (dd bs=1); with
 *                            STATS (a per_cpu/cpuN/stats file of tracefs)
 *                            a third number: the events that CPU's buffer
 *                            took from just before to just after the loop
 *                            (entries plus overrun, read on both sides),
 *                            which counts the traced calls of the loop and
 *                            of the interrupts in it, but not those of
 *                            this program's exec and exit, which vary
 *   fh-bench write FILE STR  open FILE for writing (truncating, as the
 *                            shell's '>' does), write STR and a newline,
 *                            close: what 'echo STR > FILE' does to a
 *                            control file, whose work may be done at the
 *                            write (current_tracer) or at the close
 *                            (set_ftrace_filter)
 *   fh-bench copy FILE SRC   the same with the contents of the file SRC,
 *                            read beforehand and written in 128 KiB
 *                            writes, as cat writes
 *   fh-bench load FILE       load the module FILE (finit_module(), no
 *                            parameters), as insmod does once it has
 *                            opened the file
 *   fh-bench unload NAME     unload the module NAME (delete_module())
 *
 * Exit status 1 (and a message) if an operation fails: a timing of a
 * failed write is not a figure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The two clocks at start(), then what stop() measured since. */
static long long wall_ns, cpu_ns;

static void start(void)
{
	wall_ns = clock_ns(CLOCK_MONOTONIC);
	cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static void stop(void)
{
	cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_ns;
	wall_ns = clock_ns(CLOCK_MONOTONIC) - wall_ns;
}

static void die(const char *what)
{
	fprintf(stderr, "fh-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long count(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || n <= 0) {
		fprintf(stderr, "fh-bench: '%s' is not a positive number\n", s);
		exit(2);
	}
	return n;
}

static void bench_syscall(long n)
{
	start();
	/* syscall(): glibc must not answer from a cache. */
	while (n--)
		syscall(SYS_getppid);
	stop();
}

/* Events written to one CPU's buffer so far: -1 without a stats file. */
static long long events = -1;

static long long buffer_events(int fd)
{
	char buf[1024], *line;
	long long n = 0;
	ssize_t len = pread(fd, buf, sizeof(buf) - 1, 0);

	if (len <= 0)
		die("stats");
	buf[len] = '\0';
	for (line = buf; line; ) {
		if (!strncmp(line, "entries:", 8) || !strncmp(line, "overrun:", 8))
			n += atoll(line + 8);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return n;
}

static void bench_rw(long n, const char *stats)
{
	int in = open("/dev/zero", O_RDONLY);
	int out = open("/dev/null", O_WRONLY);
	int st = stats ? open(stats, O_RDONLY) : -1;
	char c;

	if (in < 0 || out < 0)
		die("/dev/zero or /dev/null");
	if (stats && st < 0)
		die(stats);
	if (stats)
		events = buffer_events(st);
	start();
	while (n--) {
		if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
			die("read or write");
	}
	stop();
	if (stats) {
		events = buffer_events(st) - events;
		close(st);
	}
	close(in);
	close(out);
}

/* Write len bytes of buf to file, as the shell's '>' then close does. */
static void bench_write(const char *file, const char *buf, size_t len)
{
	size_t done = 0;
	int fd;

	start();
	fd = open(file, O_WRONLY | O_TRUNC);
	if (fd < 0)
		die(file);
	while (done < len) {
		size_t chunk = len - done > 131072 ? 131072 : len - done;
		ssize_t w = write(fd, buf + done, chunk);

		if (w <= 0)
			die(file);
		done += w;
	}
	if (close(fd))
		die(file);
	stop();
}

static void bench_load(const char *file)
{
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		die(file);
	start();
	if (syscall(SYS_finit_module, fd, "", 0))
		die(file);
	stop();
	close(fd);
}

static void bench_unload(const char *name)
{
	start();
	if (syscall(SYS_delete_module, name, O_NONBLOCK))
		die(name);
	stop();
}

static char *slurp(const char *file, size_t *len)
{
	struct stat st;
	char *buf;
	int fd = open(file, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die(file);
	buf = malloc(st.st_size + 1);
	if (!buf)
		die("malloc");
	*len = 0;
	while (*len < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + *len, st.st_size - *len);

		if (r <= 0)
			die(file);
		*len += r;
	}
	close(fd);
	return buf;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "syscall")) {
		bench_syscall(count(argv[2]));
	} else if ((argc == 3 || argc == 4) && !strcmp(argv[1], "rw")) {
		bench_rw(count(argv[2]), argc == 4 ? argv[3] : NULL);
	} else if (argc == 4 && !strcmp(argv[1], "write")) {
		size_t len = strlen(argv[3]);
		char *buf = malloc(len + 1);

		if (!buf)
			die("malloc");
		memcpy(buf, argv[3], len);
		buf[len] = '\n';
		bench_write(argv[2], buf, len + 1);
	} else if (argc == 4 && !strcmp(argv[1], "copy")) {
		size_t len;
		char *buf = slurp(argv[3], &len);

		bench_write(argv[2], buf, len);
	} else if (argc == 3 && !strcmp(argv[1], "load")) {
		bench_load(argv[2]);
	} else if (argc == 3 && !strcmp(argv[1], "unload")) {
		bench_unload(argv[2]);
	} else {
		fprintf(stderr, "usage: fh-bench syscall N | rw N [STATS] | %s\n",
			"write FILE STR | copy FILE SRC | load FILE | unload NAME");
		return 2;
	}
	if (events >= 0)
		printf("%lld %lld %lld\n", wall_ns, cpu_ns, events);
	else
		printf("%lld %lld\n", wall_ns, cpu_ns);
	return 0;
}
