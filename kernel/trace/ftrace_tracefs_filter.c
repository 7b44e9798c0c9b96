// SPDX-License-Identifier: GPL-2.0
/*
 * The filter files: set_ftrace_filter and set_ftrace_notrace of each trace
 * array, and the reading and writing that the graph filter files share.
 * An open for writing edits a private copy committed at close; each write
 * is all or nothing.  A trace array's file also takes commands and ":mod:"
 * entries for modules not loaded yet, through the editor's extension.
 */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"
#include "ftrace_tracefs.h"

/* ---- Walking the records from a seq_file ---- */

/**
 * ftrace_cursor_seek - the @pos-th record that @want accepts
 * @c: the reader's cursor
 * @pos: the position, from 0
 * @want: the predicate
 * @arg: its argument
 * @gp: set to the record's group
 *
 * Reads continue where the last one stopped unless the groups changed,
 * so a full read stays linear.
 *
 * Context: ftrace_lock held.
 * Return: the record, or NULL past the last one (@c->end then counts them).
 */
struct dyn_ftrace *ftrace_cursor_seek(struct rec_cursor *c, loff_t pos,
				      rec_pred_t want, void *arg,
				      struct ftrace_group **gp)
{
	struct ftrace_group *g;
	struct dyn_ftrace *rec;
	loff_t n = 0;
	unsigned int i = 0;

	ftrace_assert_locked();
	g = list_first_entry_or_null(&ftrace_groups, struct ftrace_group, list);
	if (c->g && c->gen == ftrace_groups_gen && c->pos <= pos) {
		g = c->g;
		i = c->idx;
		n = c->pos;
	}
	for (; g && !list_entry_is_head(g, &ftrace_groups, list);
	     g = list_next_entry(g, list), i = 0) {
		for (; i < g->count; i++) {
			rec = &g->recs[i];
			if (rec->flags & FTRACE_REC_FREED || !want(arg, g, rec))
				continue;
			if (n++ < pos)
				continue;
			c->g = g;
			c->idx = i;
			c->pos = pos;
			c->gen = ftrace_groups_gen;
			*gp = g;
			return rec;
		}
	}
	c->g = NULL;
	c->end = n;
	return NULL;
}

/* ---- Reading set_ftrace_filter / set_ftrace_notrace ---- */

/*
 * The file lists the addresses in the hash, or a line saying the hash is
 * empty; then remembered :mod: entries and, for the filter, the probes of
 * filter commands.  Those come as one last item.
 */
#define FILTER_EXTRAS	((void *)2)	/* SEQ_START_TOKEN is 1 */

static struct ftrace_hash *shown_hash(struct ftrace_filter_file *ff)
{
	struct ftrace_ops_hash *h = ff->ops->func_hash;

	return ff->flags & FTRACE_ITER_NOTRACE ?
		rcu_dereference_protected(h->notrace_hash, 1) :
		rcu_dereference_protected(h->filter_hash, 1);
}

static bool filter_want(void *arg, struct ftrace_group *g, struct dyn_ftrace *rec)
{
	return ftrace_lookup_ip(arg, ftrace_rec_ip(g, rec));
}

static void *filter_item(struct ftrace_filter_file *ff, loff_t pos)
{
	struct ftrace_hash *hash = shown_hash(ff);
	struct dyn_ftrace *rec;

	if (ftrace_hash_empty(hash))
		return pos == 0 ? SEQ_START_TOKEN : pos == 1 ? FILTER_EXTRAS : NULL;
	rec = ftrace_cursor_seek(&ff->cur, pos, filter_want, hash, &ff->g);
	if (rec)
		return rec;
	/* The extras come right after the last record. */
	return pos == ff->cur.end ? FILTER_EXTRAS : NULL;
}

static void *filter_start(struct seq_file *m, loff_t *pos)
{
	struct ftrace_filter_file *ff = m->private;

	/* The probes' ->print() reads data that their ->free() frees. */
	if (ff->flags & FTRACE_ITER_DO_PROBES)
		ftrace_probes_lock();
	mutex_lock(&ftrace_lock);
	return filter_item(ff, *pos);
}

static void filter_stop(struct seq_file *m, void *v)
{
	struct ftrace_filter_file *ff = m->private;

	mutex_unlock(&ftrace_lock);
	if (ff->flags & FTRACE_ITER_DO_PROBES)
		ftrace_probes_unlock();
}

static void *filter_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct ftrace_filter_file *ff = m->private;

	++*pos;
	if (v == FILTER_EXTRAS)
		return NULL;
	return filter_item(ff, *pos);
}

static int filter_show(struct seq_file *m, void *v)
{
	struct ftrace_filter_file *ff = m->private;
	struct trace_array *tr = ff->tr;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, ff->flags & FTRACE_ITER_NOTRACE ?
			 "#### no functions disabled ####\n" :
			 "#### all functions enabled ####\n");
		return 0;
	}
	if (v == FILTER_EXTRAS) {
		if (!tr)
			return 0;
		ftrace_mod_cache_show(m, ff->flags & FTRACE_ITER_NOTRACE ?
				      &tr->mod_notrace : &tr->mod_trace);
		if (ff->flags & FTRACE_ITER_DO_PROBES)
			ftrace_probes_show(m, tr);
		return 0;
	}
	seq_printf(m, "%ps\n", (void *)ftrace_rec_ip(ff->g, v));
	return 0;
}

static const struct seq_operations filter_seq_ops = {
	.start	= filter_start,
	.next	= filter_next,
	.stop	= filter_stop,
	.show	= filter_show,
};

/* A file open only for writing keeps its state without a seq_file. */
static int filter_seq_open(struct ftrace_filter_file *ff, struct file *file)
{
	int ret;

	if (!(file->f_mode & FMODE_READ)) {
		file->private_data = ff;
		return 0;
	}
	ret = seq_open(file, &filter_seq_ops);
	if (!ret)
		((struct seq_file *)file->private_data)->private = ff;
	return ret;
}

static struct ftrace_filter_file *filter_file_of(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

static void filter_seq_release(struct ftrace_filter_file *ff,
			       struct inode *inode, struct file *file)
{
	if (file->f_mode & FMODE_READ)
		seq_release(inode, file);
}

static int filter_open(struct inode *inode, struct file *file)
{
	struct ftrace_ops *ops = inode->i_private;

	return ftrace_regex_open(ops->private, ops,
				 FTRACE_ITER_FILTER | FTRACE_ITER_DO_PROBES,
				 inode, file);
}

static int notrace_open(struct inode *inode, struct file *file)
{
	struct ftrace_ops *ops = inode->i_private;

	return ftrace_regex_open(ops->private, ops, FTRACE_ITER_NOTRACE,
				 inode, file);
}

/**
 * ftrace_filter_lseek - llseek of a filter file
 * @file: the file
 * @offset: as lseek(2)
 * @whence: as lseek(2)
 *
 * Return: the new position (always 0 for a file open only for writing).
 */
loff_t ftrace_filter_lseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	file->f_pos = 0;
	return 0;
}

/**
 * ftrace_filter_read - read handler of a filter file
 * @file: the file
 * @ubuf: the user's buffer
 * @cnt: its size
 * @ppos: file position
 *
 * Return: bytes read, or -EBADF for a file not open for reading.
 */
ssize_t ftrace_filter_read(struct file *file, char __user *ubuf, size_t cnt,
			   loff_t *ppos)
{
	if (!(file->f_mode & FMODE_READ))
		return -EBADF;
	return seq_read(file, ubuf, cnt, ppos);
}

static const struct file_operations filter_fops = {
	.open		= filter_open,
	.read		= ftrace_filter_read,
	.write		= ftrace_filter_write,
	.llseek		= ftrace_filter_lseek,
	.release	= ftrace_regex_release,
};

static const struct file_operations notrace_fops = {
	.open		= notrace_open,
	.read		= ftrace_filter_read,
	.write		= ftrace_notrace_write,
	.llseek		= ftrace_filter_lseek,
	.release	= ftrace_regex_release,
};

/**
 * ftrace_create_filter_files - set_ftrace_filter and set_ftrace_notrace
 * @tr: the trace array; the files edit its ops
 * @parent: the directory
 */
void ftrace_create_filter_files(struct trace_array *tr, struct dentry *parent)
{
	trace_create_file("set_ftrace_filter", TRACE_MODE_WRITE, parent, tr->ops,
			  &filter_fops);
	trace_create_file("set_ftrace_notrace", TRACE_MODE_WRITE, parent, tr->ops,
			  &notrace_fops);
}

/**
 * ftrace_destroy_filter_files - free the hashes behind an instance's files
 * @ops: the instance's ops, no longer registered
 */
void ftrace_destroy_filter_files(struct ftrace_ops *ops)
{
	ftrace_free_filter(ops);
}

/* ---- Writing ---- */

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

/* The file's entries began as a copy of the cache, so they replace it. */
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
 * ftrace_regex_open_install - open a filter file of an ops
 * @tr: the trace array owning the file (probes, :mod: cache), or NULL
 * @ops: the ops whose hash the file edits
 * @flag: FTRACE_ITER_FILTER or FTRACE_ITER_NOTRACE, maybe with
 *	FTRACE_ITER_DO_PROBES to list the probes of @tr when read
 * @install: the install hook of the file's edits, or NULL
 * @inode: the file's inode
 * @file: the file
 *
 * Return: 0, -ENODEV once ftrace is dead (for writers), -ENOMEM.
 */
int ftrace_regex_open_install(struct trace_array *tr, struct ftrace_ops *ops, int flag,
			      int (*install)(struct ftrace_filter_edit *e),
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
		ff->edit.install = install;
		ff->editing = true;
		if (tr && !ff->edit.truncate) {
			mutex_lock(&ftrace_lock);
			ret = ftrace_mod_cache_copy(&ff->mods, file_cache(ff));
			mutex_unlock(&ftrace_lock);
			if (ret)
				goto edit;
		}
	}
	ret = filter_seq_open(ff, file);
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

/**
 * ftrace_regex_open - open a filter file of an ops
 * @tr: the trace array owning the file (probes, :mod: cache), or NULL
 * @ops: the ops whose hash the file edits
 * @flag: as for ftrace_regex_open_install()
 * @inode: the file's inode
 * @file: the file
 *
 * Return: as ftrace_regex_open_install().
 */
int ftrace_regex_open(struct trace_array *tr, struct ftrace_ops *ops, int flag,
		      struct inode *inode, struct file *file)
{
	return ftrace_regex_open_install(tr, ops, flag, NULL, inode, file);
}

static ssize_t regex_write(struct file *file, const char __user *ubuf,
			   size_t cnt, loff_t *ppos)
{
	struct ftrace_filter_file *ff = filter_file_of(file);
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
	struct ftrace_filter_file *ff = filter_file_of(file);
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
	filter_seq_release(ff, inode, file);
	mutex_destroy(&ff->lock);
	kfree(ff);
	if (tr)
		trace_array_put(tr);
	return 0;
}
