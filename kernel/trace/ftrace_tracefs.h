/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracefs layer's shared state: the filter files (ftrace_tracefs_filter.c),
 * which the graph filter files (fgraph_tracefs.c) reuse, and the cursor
 * that every file listing records reads them with.
 */
#ifndef _KERNEL_TRACE_FTRACE_TRACEFS_H
#define _KERNEL_TRACE_FTRACE_TRACEFS_H

#include "trace.h"
#include "ftrace_internal.h"

/* A position in the records, for reading them through a seq_file. */
struct rec_cursor {
	struct ftrace_group	*g;
	unsigned int		idx;
	loff_t			pos;
	loff_t			end;		/* how many there were, once seen */
	unsigned long		gen;
};

typedef bool (*rec_pred_t)(void *arg, struct ftrace_group *g, struct dyn_ftrace *rec);

struct dyn_ftrace *ftrace_cursor_seek(struct rec_cursor *c, loff_t pos,
				      rec_pred_t want, void *arg,
				      struct ftrace_group **gp);

/* An open set_ftrace_filter or set_ftrace_notrace */
struct ftrace_filter_file {
	struct ftrace_ops	*ops;
	struct trace_array	*tr;
	int			flags;		/* FTRACE_ITER_* */
	bool			editing;
	bool			written;	/* a write succeeded */
	bool			failed;		/* a write failed */
	struct mutex		lock;		/* parser and edit, for writes */
	struct trace_parser	parser;
	struct ftrace_filter_edit edit;
	struct list_head	mods;		/* :mod: entries to remember */
	/* reading */
	struct rec_cursor	cur;
	struct ftrace_group	*g;
};

ssize_t ftrace_filter_read(struct file *file, char __user *ubuf, size_t cnt,
			   loff_t *ppos);
loff_t ftrace_filter_lseek(struct file *file, loff_t offset, int whence);
int ftrace_regex_open_install(struct trace_array *tr, struct ftrace_ops *ops, int flag,
			      int (*install)(struct ftrace_filter_edit *e),
			      struct inode *inode, struct file *file);

#endif /* _KERNEL_TRACE_FTRACE_TRACEFS_H */
