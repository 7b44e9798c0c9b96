// SPDX-License-Identifier: GPL-2.0
/*
 * Filter commands: the ":cmd" of "func:cmd:param" written to a filter
 * file, registered by the tracers and events that take one.
 */
#include <linux/seq_file.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

static LIST_HEAD(ftrace_commands);
static DEFINE_MUTEX(ftrace_cmd_mutex);

/**
 * register_ftrace_command - add a filter command ("func:NAME:param")
 * @cmd: the command
 *
 * Return: 0, or -EBUSY if the name is taken.
 */
int register_ftrace_command(struct ftrace_func_command *cmd)
{
	struct ftrace_func_command *p;
	int ret = 0;

	mutex_lock(&ftrace_cmd_mutex);
	list_for_each_entry(p, &ftrace_commands, list) {
		if (!strcmp(p->name, cmd->name)) {
			ret = -EBUSY;
			goto out;
		}
	}
	list_add(&cmd->list, &ftrace_commands);
out:
	mutex_unlock(&ftrace_cmd_mutex);
	return ret;
}

/**
 * unregister_ftrace_command - remove a filter command
 * @cmd: the command
 *
 * Return: 0, or -ENODEV if it was not registered.
 */
int unregister_ftrace_command(struct ftrace_func_command *cmd)
{
	struct ftrace_func_command *p, *n;
	int ret = -ENODEV;

	mutex_lock(&ftrace_cmd_mutex);
	list_for_each_entry_safe(p, n, &ftrace_commands, list) {
		if (p == cmd) {
			list_del_init(&p->list);
			ret = 0;
		}
	}
	mutex_unlock(&ftrace_cmd_mutex);
	return ret;
}

/**
 * ftrace_run_command - run "func:cmd:param" written to a filter file
 * @tr: the file's trace array
 * @hash: the hash being edited
 * @func: the function glob, with a leading '!' to undo
 * @cmd: the command's name
 * @param: its parameter, or NULL
 * @enable: 1 for set_ftrace_filter, 0 for set_ftrace_notrace
 *
 * Return: the command's result, or -EINVAL for an unknown command.
 */
int ftrace_run_command(struct trace_array *tr, struct ftrace_hash *hash,
		       char *func, char *cmd, char *param, int enable)
{
	struct ftrace_func_command *p;
	int ret = -EINVAL;

	mutex_lock(&ftrace_cmd_mutex);
	list_for_each_entry(p, &ftrace_commands, list) {
		if (!strcmp(p->name, cmd)) {
			ret = p->func(tr, hash, func, cmd, param, enable);
			break;
		}
	}
	mutex_unlock(&ftrace_cmd_mutex);
	return ret;
}
