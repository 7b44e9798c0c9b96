// SPDX-License-Identifier: GPL-2.0
/*
 * The tracefs files set_graph_function and set_graph_notrace: filter files
 * whose edits are installed in the graph filters (fgraph_filter.c).
 */
#include <linux/ftrace.h>

#include "trace.h"
#include "ftrace_internal.h"
#include "ftrace_tracefs.h"

static int graph_function_open(struct inode *inode, struct file *file)
{
	return ftrace_regex_open_install(NULL, &fgraph_filter_ops, FTRACE_ITER_FILTER,
					 fgraph_filter_install, inode, file);
}

static int graph_notrace_open(struct inode *inode, struct file *file)
{
	return ftrace_regex_open_install(NULL, &fgraph_filter_ops, FTRACE_ITER_NOTRACE,
					 fgraph_filter_install, inode, file);
}

static const struct file_operations graph_function_fops = {
	.open		= graph_function_open,
	.read		= ftrace_filter_read,
	.write		= ftrace_filter_write,
	.llseek		= ftrace_filter_lseek,
	.release	= ftrace_regex_release,
};

static const struct file_operations graph_notrace_fops = {
	.open		= graph_notrace_open,
	.read		= ftrace_filter_read,
	.write		= ftrace_notrace_write,
	.llseek		= ftrace_filter_lseek,
	.release	= ftrace_regex_release,
};

/**
 * fgraph_create_files - create set_graph_function and set_graph_notrace
 * @parent: the top tracefs directory
 */
void fgraph_create_files(struct dentry *parent)
{
	trace_create_file("set_graph_function", TRACE_MODE_WRITE, parent, NULL,
			  &graph_function_fops);
	trace_create_file("set_graph_notrace", TRACE_MODE_WRITE, parent, NULL,
			  &graph_notrace_fops);
}
