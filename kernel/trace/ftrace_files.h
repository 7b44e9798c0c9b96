/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The filter files' state, shared by ftrace_filter_file.c (writing) and
 * ftrace_files.c (reading).
 */
#ifndef _KERNEL_TRACE_FTRACE_FILES_H
#define _KERNEL_TRACE_FTRACE_FILES_H

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

int ftrace_filter_seq_open(struct ftrace_filter_file *ff, struct file *file);
void ftrace_filter_seq_release(struct ftrace_filter_file *ff,
			       struct inode *inode, struct file *file);
struct ftrace_filter_file *ftrace_filter_file_of(struct file *file);
ssize_t ftrace_filter_read(struct file *file, char __user *ubuf, size_t cnt,
			   loff_t *ppos);
loff_t ftrace_filter_lseek(struct file *file, loff_t offset, int whence);

#endif /* _KERNEL_TRACE_FTRACE_FILES_H */
