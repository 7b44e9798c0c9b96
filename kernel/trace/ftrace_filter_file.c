// SPDX-License-Identifier: GPL-2.0
/*
 * The write side of set_ftrace_filter, set_ftrace_notrace and the graph
 * filter files.  An open for writing edits a private copy committed at
 * close; each write is all or nothing.  A trace array's file also takes
 * commands and ":mod:" entries for modules not loaded yet, through the
 * editor's extension.
 */
#include <linux/kallsyms.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"
#include "ftrace_files.h"

/*
 * A symbol as kallsyms prints it, with room for wildcards: scripts rely
 * on which tokens are refused.
 */
#define FILTER_TOKEN_MAX	(KSYM_SYMBOL_LEN + 4)

/*
 * A longer write is taken in pieces (short writes the writer's stdio
 * finishes), so that one huge write() cannot need memory for all of its
 * text and patterns at once.
 */
#define FILTER_WRITE_CHUNK	SZ_64K

static struct ftrace_filter_file *edit_file(struct ftrace_filter_edit *e)
{
	return container_of(e, struct ftrace_filter_file, edit);
}

/* A ":mod:" of a module not loaded yet is remembered; a command runs now. */
static int file_token(struct ftrace_filter_edit *e, char *token, char *cmd,
		      char *param)
{
	struct ftrace_filter_file *ff = edit_file(e);

	if (!ff->tr)
		return -EINVAL;
	if (!strcmp(cmd, "mod"))
		return ftrace_mod_cache_add(ff->tr, &ff->mods, token, param,
					    token[0] == '!');
	return ftrace_run_command(ff->tr, e->hash, token, cmd, param, !e->notr);
}

static struct list_head *file_cache(struct ftrace_filter_file *ff)
{
	return ff->edit.notr ? &ff->tr->mod_notrace : &ff->tr->mod_trace;
}

/* The session's entries began as a copy of the cache, so they replace it. */
static void file_commit(struct ftrace_filter_edit *e)
{
	struct ftrace_filter_file *ff = edit_file(e);
	struct list_head *cache;

	if (!ff->tr)
		return;
	cache = file_cache(ff);
	ftrace_mod_cache_clear(cache);
	list_splice_tail_init(&ff->mods, cache);
	/*
	 * A filter waiting for a module must not read as empty (all
	 * functions); a notrace list waiting for one excludes nothing yet.
	 */
	if (!e->notr && !list_empty(cache))
		e->hash->flags |= FTRACE_HASH_FL_MOD;
}

static void file_done(struct ftrace_filter_edit *e)
{
	ftrace_mod_cache_clear(&edit_file(e)->mods);
}

static const struct ftrace_filter_edit_ext file_ext = {
	.token	= file_token,
	.commit	= file_commit,
	.done	= file_done,
};

/**
 * ftrace_regex_open - open a filter file of an ops
 * @tr: the trace array owning the file (probes, :mod: cache), or NULL
 * @ops: the ops whose hash the file edits
 * @flag: FTRACE_ITER_FILTER or FTRACE_ITER_NOTRACE, maybe with
 *	FTRACE_ITER_DO_PROBES to list the probes of @tr when read
 * @inode: the file's inode
 * @file: the file
 *
 * Return: 0, -ENODEV once ftrace is dead (for writers), -ENOMEM.
 */
int ftrace_regex_open(struct trace_array *tr, struct ftrace_ops *ops, int flag,
		      struct inode *inode, struct file *file)
{
	struct ftrace_filter_file *ff;
	int ret;

	ret = tracing_check_open_get_tr(tr);
	if (ret)
		return ret;
	ff = kzalloc(sizeof(*ff), GFP_KERNEL);
	if (!ff) {
		ret = -ENOMEM;
		goto put;
	}
	ff->ops = ops;
	ff->tr = tr;
	ff->flags = flag;
	INIT_LIST_HEAD(&ff->mods);
	mutex_init(&ff->lock);
	ftrace_ops_init(ops);

	if (file->f_mode & FMODE_WRITE) {
		if (ftrace_dead) {
			ret = -ENODEV;
			goto free;
		}
		/* It returns 1, not an errno: a positive open() is a VFS WARN. */
		if (trace_parser_get_init(&ff->parser, FILTER_TOKEN_MAX)) {
			ret = -ENOMEM;
			goto free;
		}
		ret = ftrace_filter_edit_begin(&ff->edit, ops, &file_ext,
					       flag & FTRACE_ITER_NOTRACE,
					       file->f_flags & O_TRUNC);
		if (ret)
			goto parser;
		ff->editing = true;
		if (tr && !ff->edit.truncate) {
			mutex_lock(&ftrace_lock);
			ret = ftrace_mod_cache_copy(&ff->mods, file_cache(ff));
			mutex_unlock(&ftrace_lock);
			if (ret)
				goto edit;
		}
	}
	ret = ftrace_filter_seq_open(ff, file);
	if (ret)
		goto edit;
	return 0;
edit:
	if (ff->editing)
		ftrace_filter_edit_end(&ff->edit, false);
parser:
	trace_parser_put(&ff->parser);
free:
	kfree(ff);
put:
	if (tr)
		trace_array_put(tr);
	return ret;
}

static ssize_t regex_write(struct file *file, const char __user *ubuf,
			   size_t cnt, loff_t *ppos)
{
	struct ftrace_filter_file *ff = ftrace_filter_file_of(file);
	struct trace_parser *parser = &ff->parser;
	size_t done = 0;
	char *text;
	int ret = 0;
	size_t len = 0;

	if (!ff->editing)
		return -EBADF;
	if (!cnt)
		return 0;
	/* pwrite() and io_uring do not serialise on the file position. */
	mutex_lock(&ff->lock);
	/*
	 * The first token may have begun in an earlier write: room for what
	 * the parser holds, this write up to the chunk and a token past it,
	 * a space after each token and the NUL.
	 */
	text = kvmalloc(parser->idx + min_t(size_t, cnt, FILTER_WRITE_CHUNK + parser->size) + 2,
			GFP_KERNEL);
	if (!text) {
		ret = -ENOMEM;
		goto failed;
	}
	while (done < cnt && done < FILTER_WRITE_CHUNK) {
		ssize_t read = trace_get_user(parser, ubuf + done, cnt - done, ppos);

		if (read < 0) {
			ret = read;
			break;
		}
		if (!read)
			break;
		done += read;
		if (parser->fail) {
			ret = -EINVAL;
			trace_parser_clear(parser);
			break;
		}
		if (trace_parser_loaded(parser) && !trace_parser_cont(parser)) {
			memcpy(text + len, parser->buffer, parser->idx);
			len += parser->idx;
			text[len++] = ' ';
			trace_parser_clear(parser);
		}
	}
	text[len] = '\0';
	if (!ret)
		ret = ftrace_filter_edit_text(&ff->edit, text);
	kvfree(text);
	if (ret)
		goto failed;
	/* A name still open (no separator yet) is applied when it ends. */
	if (len)
		ff->written = true;
	mutex_unlock(&ff->lock);
	return done;

failed:
	/* Nothing of a failed write applies, not even a name it left open. */
	trace_parser_clear(parser);
	ff->failed = true;
	mutex_unlock(&ff->lock);
	return ret;
}

/**
 * ftrace_filter_write - write handler of a filter file
 * @file: the file
 * @ubuf: the user's patterns
 * @cnt: their length
 * @ppos: file position
 *
 * Return: the bytes taken (a long write is taken in pieces), or a
 * negative errno, and then nothing of this write applies.
 */
ssize_t ftrace_filter_write(struct file *file, const char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	return regex_write(file, ubuf, cnt, ppos);
}

/**
 * ftrace_notrace_write - write handler of a notrace file
 * @file: the file
 * @ubuf: the user's patterns
 * @cnt: their length
 * @ppos: file position
 *
 * Return: as ftrace_filter_write().
 */
ssize_t ftrace_notrace_write(struct file *file, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	return regex_write(file, ubuf, cnt, ppos);
}

/**
 * ftrace_regex_release - close a filter file, committing its edit
 * @inode: the file's inode
 * @file: the file
 *
 * An O_TRUNC open replaces the set, unless a write failed and none
 * applied a name: then the set is kept as it was.
 *
 * Return: 0; an error installing the edit is logged, as close cannot
 * report it to a shell.
 */
int ftrace_regex_release(struct inode *inode, struct file *file)
{
	struct ftrace_filter_file *ff = ftrace_filter_file_of(file);
	struct trace_parser *parser = &ff->parser;
	struct trace_array *tr = ff->tr;
	int ret;

	if (ff->editing) {
		if (trace_parser_loaded(parser) && !parser->fail) {
			parser->buffer[parser->idx] = '\0';
			if (ftrace_filter_edit_text(&ff->edit, parser->buffer))
				ff->failed = true;
			else
				ff->written = true;
		}
		ret = ftrace_filter_edit_end(&ff->edit, ff->written ||
					     (ff->edit.truncate && !ff->failed));
		if (ret)
			pr_warn("ftrace: filter not installed: %d\n", ret);
		trace_parser_put(parser);
	}
	ftrace_filter_seq_release(ff, inode, file);
	mutex_destroy(&ff->lock);
	kfree(ff);
	if (tr)
		trace_array_put(tr);
	return 0;
}
