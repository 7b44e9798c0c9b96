// SPDX-License-Identifier: GPL-2.0
/*
 * fh-forkwait: change tracing while a fork is held inside copy_process().
 *
 * copy_process() settles a child's graph state early (the kernel's
 * ftrace_graph_init_task()) and links the child on the task list late,
 * after copy_mm().  A userfaultfd with UFFD_FEATURE_EVENT_FORK, registered
 * on a page of the parent, makes copy_mm() wait at its end until a reader
 * has read the fork event.  So one thread forks; the main thread sees the
 * event queued, writes each VALUE to its FILE while the fork is held
 * between those two points, then reads the event and lets the fork
 * finish.  The child makes CALLS getppid() system calls and exits.
 *
 * The fork is a raw clone system call, and nothing runs in the window
 * but system calls: glibc's fork() holds the stdio and malloc locks
 * across the system call, so printf() in the window would wait for ever.
 *
 * Usage: fh-forkwait CALLS FILE=VALUE...
 * Prints, for each write, "wrote FILE=VALUE" or its error, then "child PID".
 * Exit status: 0 every write done with the fork held, 1 a write failed,
 * 2 cannot run (no userfaultfd, the fork was not held...).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static long calls;
static int fork_returned;	/* __atomic accesses */
static pid_t child = -1;
static int fork_errno;

static void *forker(void *unused)
{
	pid_t pid;
	long i;

	(void)unused;
	pid = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		/* Only system calls here: the child of a threaded process. */
		for (i = 0; i < calls; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	if (pid < 0)
		fork_errno = errno;
	child = pid;
	__atomic_store_n(&fork_returned, 1, __ATOMIC_RELEASE);
	return NULL;
}

#define MAX_TARGETS	16

/* One write, in the window: system calls only.  Return: 0 or an errno. */
static int write_file(const char *path, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return errno;
	n = write(fd, value, len);
	if (n < 0)
		err = errno;
	else if (n != (ssize_t)len)
		err = EIO;
	if (close(fd) && !err)
		err = errno;
	return err;
}

int main(int argc, char **argv)
{
	struct uffdio_api api = { .api = UFFD_API, .features = UFFD_FEATURE_EVENT_FORK };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	long page = sysconf(_SC_PAGESIZE);
	struct uffd_msg msg;
	char *path[MAX_TARGETS], *value[MAX_TARGETS];
	int err[MAX_TARGETS], ntargets = argc - 2;
	struct pollfd pfd;
	pthread_t thread;
	int uffd, i, bad = 0, status;
	void *region;
	char *end;

	if (argc < 2) {
		fprintf(stderr, "usage: fh-forkwait CALLS FILE=VALUE...\n");
		return 2;
	}
	calls = strtol(argv[1], &end, 10);
	if (*end || calls < 0) {
		fprintf(stderr, "fh-forkwait: bad CALLS '%s'\n", argv[1]);
		return 2;
	}
	if (ntargets > MAX_TARGETS) {
		fprintf(stderr, "fh-forkwait: at most %d targets\n", MAX_TARGETS);
		return 2;
	}
	for (i = 0; i < ntargets; i++) {
		path[i] = argv[i + 2];
		value[i] = strchr(path[i], '=');
		if (!value[i]) {
			fprintf(stderr, "fh-forkwait: bad target '%s' (FILE=VALUE)\n", path[i]);
			return 2;
		}
		*value[i]++ = '\0';
	}
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0) {
		printf("userfaultfd: %s\n", strerror(errno));
		return 2;
	}
	if (ioctl(uffd, UFFDIO_API, &api)) {
		printf("UFFDIO_API with UFFD_FEATURE_EVENT_FORK: %s\n", strerror(errno));
		return 2;
	}
	region = mmap(NULL, page, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED) {
		printf("mmap: %s\n", strerror(errno));
		return 2;
	}
	reg.range.start = (unsigned long)region;
	reg.range.len = page;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		printf("UFFDIO_REGISTER: %s\n", strerror(errno));
		return 2;
	}
	fflush(stdout);
	if (pthread_create(&thread, NULL, forker, NULL)) {
		printf("pthread_create failed\n");
		return 2;
	}

	pfd.fd = uffd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 60000) != 1) {
		printf("no fork event in 60 s (fork returned: %d)\n",
		       __atomic_load_n(&fork_returned, __ATOMIC_ACQUIRE));
		return 2;
	}
	for (i = 0; i < ntargets; i++)
		err[i] = write_file(path[i], value[i]);
	if (__atomic_load_n(&fork_returned, __ATOMIC_ACQUIRE)) {
		printf("the fork returned before its event was read: not held\n");
		return 2;
	}
	if (read(uffd, &msg, sizeof(msg)) != sizeof(msg)) {
		printf("reading the fork event: %s\n", strerror(errno));
		return 2;
	}
	if (msg.event != UFFD_EVENT_FORK) {
		printf("event %u, not UFFD_EVENT_FORK\n", msg.event);
		return 2;
	}
	close(msg.arg.fork.ufd);
	pthread_join(thread, NULL);
	for (i = 0; i < ntargets; i++) {
		if (err[i]) {
			printf("%s: writing '%s': %s\n", path[i], value[i], strerror(err[i]));
			bad = 1;
		} else {
			printf("wrote %s=%s\n", path[i], value[i]);
		}
	}
	if (child < 0) {
		printf("fork: %s\n", strerror(fork_errno));
		return 2;
	}
	printf("child %d\n", child);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		printf("child %d did not exit cleanly (status %#x)\n", child, status);
		return 2;
	}
	return bad;
}
