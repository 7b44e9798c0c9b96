// SPDX-License-Identifier: GPL-2.0
/*
 * fh-pwrite: writes to one open filter file that a shell cannot make.
 *
 * race FILE ROUNDS NAME...: one thread per NAME writes "NAME\n" ROUNDS
 *	times with pwrite() on one descriptor, opened O_WRONLY (appending,
 *	so the set is what it was plus the names).  write() serialises the
 *	threads of a process on the file position; pwrite() does not, so
 *	the kernel's parser of the file sees the threads at once.  Every
 *	write is a whole name that matches: each must take all its bytes.
 *
 * big FILE COUNT NAME: one write() of COUNT times "NAME\n", then writes
 *	of what the kernel did not take until all is taken, as stdio does.
 *	Prints the bytes the first write took: what one write() may cost
 *	the kernel follows from it.
 *
 * Exit status: 0 every write took its bytes, 1 one failed or took none,
 * 2 bad usage or the file would not open.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct writer {
	pthread_t thread;
	const char *name;
	long failed;
	int first_errno;
};

static int fd;
static long rounds;

static void *race_one(void *arg)
{
	struct writer *w = arg;
	char line[256];
	size_t len;
	ssize_t ret;
	long i;

	len = snprintf(line, sizeof(line), "%s\n", w->name);
	for (i = 0; i < rounds; i++) {
		ret = pwrite(fd, line, len, 0);
		if (ret == (ssize_t)len)
			continue;
		if (!w->failed++)
			w->first_errno = ret < 0 ? errno : 0;
	}
	return NULL;
}

static int race(int argc, char **argv)
{
	struct writer *w;
	long failed = 0;
	int i, n = argc - 4;

	rounds = atol(argv[3]);
	if (n < 1 || rounds < 1)
		return 2;
	for (i = 0; i < n; i++)
		if (strlen(argv[4 + i]) > 200)
			return 2;
	w = calloc(n, sizeof(*w));
	if (!w)
		return 2;
	for (i = 0; i < n; i++) {
		w[i].name = argv[4 + i];
		if (pthread_create(&w[i].thread, NULL, race_one, &w[i]))
			return 2;
	}
	for (i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		printf("race: %s: %ld of %ld writes failed%s%s\n", w[i].name,
		       w[i].failed, rounds, w[i].failed ? ", the first: " : "",
		       w[i].failed ? (w[i].first_errno ? strerror(w[i].first_errno) :
				      "a short write") : "");
		failed += w[i].failed;
	}
	return failed ? 1 : 0;
}

static int big(char **argv)
{
	long count = atol(argv[3]);
	const char *name = argv[4];
	size_t len = strlen(name) + 1, size, done = 0;
	ssize_t ret;
	char *buf;
	long i;

	if (count < 1 || len > 200)
		return 2;
	size = len * count;
	buf = malloc(size);
	if (!buf)
		return 2;
	for (i = 0; i < count; i++) {
		memcpy(buf + i * len, name, len - 1);
		buf[i * len + len - 1] = '\n';
	}
	while (done < size) {
		ret = write(fd, buf + done, size - done);
		if (ret <= 0) {
			printf("big: a write at byte %zu of %zu: %s\n", done, size,
			       ret < 0 ? strerror(errno) : "took nothing");
			return 1;
		}
		if (!done)
			printf("big: the first write took %zd of %zu bytes\n", ret, size);
		done += ret;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int ret;

	if (argc < 5 || (strcmp(argv[1], "race") && strcmp(argv[1], "big"))) {
		fprintf(stderr, "usage: fh-pwrite race FILE ROUNDS NAME... | big FILE COUNT NAME\n");
		return 2;
	}
	fd = open(argv[2], O_WRONLY | O_APPEND);
	if (fd < 0) {
		fprintf(stderr, "fh-pwrite: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	ret = argv[1][0] == 'r' ? race(argc, argv) : big(argv);
	if (close(fd)) {
		printf("fh-pwrite: close: %s\n", strerror(errno));
		ret = ret ? ret : 1;
	}
	fflush(stdout);
	return ret;
}
