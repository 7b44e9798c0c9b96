// SPDX-License-Identifier: GPL-2.0
/*
 * fh-perm: try to change tracing control files as an unprivileged user.
 *
 * tracefs is mounted 0700 by default, so an unprivileged open() of
 * /sys/kernel/tracing/current_tracer fails at the directory, and that
 * alone says nothing about the file.  So each target is tried twice
 * after dropping to UID:GID with no supplementary groups (which also
 * drops every capability):
 *
 *   by path:  open(PATH, O_WRONLY), mkdir(PATH) or rmdir(PATH): what a
 *             user meets;
 *   by inode: through an O_PATH descriptor root opened before the drop,
 *             reopened as /proc/self/fd/N (no directory search: only the
 *             file's own permission check is left), or mkdirat() /
 *             unlinkat() on the parent's O_PATH descriptor (the parent's
 *             write permission).
 *
 * Both must fail with EACCES or EPERM.  Should an open succeed, VALUE is
 * written so that the caller sees the change.  Each line of output says
 * what stopped the attempt: the first directory on the path the user
 * cannot search, and the file's owner and mode.
 *
 * Usage: fh-perm UID GID TARGET...
 *   TARGET: w:PATH=VALUE | mkdir:PATH | rmdir:PATH  (absolute paths)
 * Exit status: 0 every attempt denied with EACCES or EPERM, 1 one was not,
 * 2 cannot run.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_TARGETS	256

struct target {
	char kind;		/* 'w', 'm' (mkdir), 'r' (rmdir) */
	char *path;
	const char *value;	/* for 'w' */
	char *name;		/* last component, for 'm' and 'r' */
	int fd;			/* O_PATH: the file ('w') or its parent */
	char why[400];		/* what should deny it, found as root */
};

static uid_t uid;
static gid_t gid;

/* Whether UID:GID may search directory @st (mode bits only). */
static int can_search(const struct stat *st)
{
	if (st->st_uid == uid)
		return st->st_mode & 0100;
	if (st->st_gid == gid)
		return st->st_mode & 0010;
	return st->st_mode & 0001;
}

/* Note the first ancestor of @path that UID:GID cannot search. */
static void blocking_dir(const char *path, char *out, size_t len)
{
	char dir[256];
	size_t i;

	for (i = 1; path[i]; i++) {
		struct stat st;

		if (path[i] != '/')
			continue;
		if (i >= sizeof(dir))
			break;
		memcpy(dir, path, i);
		dir[i] = '\0';
		if (stat(dir, &st) == 0 && !can_search(&st)) {
			snprintf(out, len, "%s is %04o %u:%u", dir,
				 st.st_mode & 07777, st.st_uid, st.st_gid);
			return;
		}
	}
	snprintf(out, len, "every directory searchable");
}

static int setup(struct target *t, const char *arg)
{
	const char *p = strchr(arg, ':');
	char *copy, *parent;
	struct stat st;
	char dirs[320];

	if (!p || p[1] != '/')
		return -1;
	t->kind = !strncmp(arg, "w:", 2) ? 'w' :
		  !strncmp(arg, "mkdir:", 6) ? 'm' :
		  !strncmp(arg, "rmdir:", 6) ? 'r' : 0;
	if (!t->kind)
		return -1;
	t->path = strdup(p + 1);
	if (!t->path)
		return -1;
	if (t->kind == 'w') {
		char *eq = strchr(t->path, '=');

		if (!eq)
			return -1;
		*eq = '\0';
		t->value = eq + 1;
		t->fd = open(t->path, O_PATH);
	} else {
		copy = strdup(t->path);
		t->name = strdup(basename(t->path));
		parent = copy ? dirname(copy) : NULL;
		t->fd = parent ? open(parent, O_PATH | O_DIRECTORY) : -1;
		free(copy);
	}
	if (t->fd < 0 || fstat(t->fd, &st)) {
		fprintf(stderr, "fh-perm: %s: %s\n", t->path, strerror(errno));
		return -2;
	}
	blocking_dir(t->path, dirs, sizeof(dirs));
	snprintf(t->why, sizeof(t->why), "%s %04o %u:%u; %s",
		 t->kind == 'w' ? "file" : "parent", st.st_mode & 07777,
		 st.st_uid, st.st_gid, dirs);
	return 0;
}

/*
 * Describe one attempt's outcome; 1 if it was not denied as it must be.
 * @opened: open() succeeded and @ret, @err are write()'s.
 */
static int report(const char *how, int opened, int ret, int err, char *out,
		  size_t len)
{
	const char *stage = opened ? " (opened, write refused)" : "";

	if (ret >= 0) {
		snprintf(out, len, "%s: ALLOWED%s", how,
			 opened ? " (opened and written)" : "");
		return 1;
	}
	snprintf(out, len, "%s: %s%s", how, strerror(err), stage);
	return err != EACCES && err != EPERM;
}

/*
 * Open for writing (@fd from open()) and, if that worked, write the
 * value: the write handler may still refuse.  Sets *@opened.
 */
static int try_write(const struct target *t, int fd, int *opened, int *err)
{
	ssize_t n;

	*opened = fd >= 0;
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	n = write(fd, t->value, strlen(t->value));
	*err = errno;
	close(fd);
	return n < 0 ? -1 : 0;
}

static int attempt(const struct target *t)
{
	char a[128], b[128], self[64];
	int bad, ret, opened, err = 0;

	switch (t->kind) {
	case 'w':
		ret = try_write(t, open(t->path, O_WRONLY), &opened, &err);
		bad = report("by path", opened, ret, err, a, sizeof(a));
		snprintf(self, sizeof(self), "/proc/self/fd/%d", t->fd);
		ret = try_write(t, open(self, O_WRONLY), &opened, &err);
		bad |= report("by inode", opened, ret, err, b, sizeof(b));
		break;
	case 'm':
		ret = mkdir(t->path, 0755);
		err = errno;
		bad = report("by path", 0, ret, err, a, sizeof(a));
		ret = mkdirat(t->fd, t->name, 0755);
		err = errno;
		bad |= report("by parent", 0, ret, err, b, sizeof(b));
		break;
	default:
		ret = rmdir(t->path);
		err = errno;
		bad = report("by path", 0, ret, err, a, sizeof(a));
		ret = unlinkat(t->fd, t->name, AT_REMOVEDIR);
		err = errno;
		bad |= report("by parent", 0, ret, err, b, sizeof(b));
		break;
	}
	printf("%s %s: %s; %s (%s)%s\n", t->kind == 'w' ? "write" :
	       t->kind == 'm' ? "mkdir" : "rmdir", t->path, a, b, t->why,
	       bad ? "  <-- NOT DENIED" : "");
	return bad;
}

int main(int argc, char **argv)
{
	static struct target targets[MAX_TARGETS];
	int n = argc - 3, i, bad = 0;

	if (argc < 4 || n > MAX_TARGETS) {
		fprintf(stderr, "usage: fh-perm UID GID w:PATH=VALUE|mkdir:PATH|rmdir:PATH...\n");
		return 2;
	}
	uid = strtoul(argv[1], NULL, 10);
	gid = strtoul(argv[2], NULL, 10);
	if (!uid) {
		fprintf(stderr, "fh-perm: UID must not be 0\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		int ret = setup(&targets[i], argv[i + 3]);

		if (ret == -1)
			fprintf(stderr, "fh-perm: bad target '%s'\n", argv[i + 3]);
		if (ret)
			return 2;
	}
	/* Groups first: setgroups() needs the capability setuid() drops. */
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid)) {
		perror("fh-perm: dropping privileges");
		return 2;
	}
	if (geteuid() != uid || !setresuid(0, 0, 0)) {
		fprintf(stderr, "fh-perm: still privileged after the drop\n");
		return 2;
	}
	printf("fh-perm: running as uid %u gid %u, no groups\n", uid, gid);
	for (i = 0; i < n; i++)
		bad |= attempt(&targets[i]);
	return bad;
}
