// SPDX-License-Identifier: GPL-2.0
/*
 * set_ftrace_pid and set_ftrace_notrace_pid: which tasks the function
 * callbacks of a trace array's ops see.  A sched_switch probe records in
 * each CPU's buffer data whether the task now running is traced, so the
 * call path only reads one per-CPU value.  With the function-fork option,
 * children of listed tasks join the lists.
 */
#include <linux/seq_file.h>
#include <linux/tracepoint.h>
#include <linux/slab.h>
#include <trace/events/sched.h>

#include "trace.h"
#include "ftrace_internal.h"

enum pid_kind { PIDS_TRACE, PIDS_NOTRACE };

/*
 * What pid_start() returns for an empty list, so that "no pid" is shown.
 * trace_pid_start() hands out pid + 1 as the iterator, and seq_read()
 * takes any IS_ERR() value as an error (a -1 sentinel reads as -EPERM),
 * so the sentinel is the address of an object of ours: neither.
 */
static const char ftrace_no_pids_token;
#define FTRACE_NO_PIDS	((void *)&ftrace_no_pids_token)

static struct trace_pid_list *pid_list_of(struct trace_array *tr,
					  enum pid_kind kind)
{
	return kind == PIDS_TRACE ?
		rcu_dereference_protected(tr->function_pids, lockdep_is_held(&ftrace_lock)) :
		rcu_dereference_protected(tr->function_no_pids, lockdep_is_held(&ftrace_lock));
}

static void update_cpu(struct trace_array *tr, struct task_struct *task)
{
	struct trace_pid_list *pids = rcu_dereference_sched(tr->function_pids);
	struct trace_pid_list *no_pids = rcu_dereference_sched(tr->function_no_pids);
	int val = FTRACE_PID_TRACE;

	if (pids || no_pids)
		val = trace_ignore_this_task(pids, no_pids, task) ?
			FTRACE_PID_IGNORE : task->pid;
	this_cpu_write(tr->array_buffer.data->ftrace_ignore_pid, val);
}

static void pid_sched_switch(void *data, bool preempt, struct task_struct *prev,
			     struct task_struct *next, unsigned int prev_state)
{
	update_cpu(data, next);
}

static void update_cpu_ipi(void *data)
{
	update_cpu(data, current);
}

static void pid_fork(void *data, struct task_struct *self, struct task_struct *task)
{
	struct trace_array *tr = data;

	trace_filter_add_remove_task(rcu_dereference_sched(tr->function_pids), self, task);
	trace_filter_add_remove_task(rcu_dereference_sched(tr->function_no_pids), self, task);
}

static void pid_exit(void *data, struct task_struct *task)
{
	struct trace_array *tr = data;

	trace_filter_add_remove_task(rcu_dereference_sched(tr->function_pids), NULL, task);
	trace_filter_add_remove_task(rcu_dereference_sched(tr->function_no_pids), NULL, task);
}

/**
 * ftrace_pid_follow_fork - make children of listed tasks join the lists
 * @tr: the trace array
 * @enable: on or off (the function-fork option)
 */
void ftrace_pid_follow_fork(struct trace_array *tr, bool enable)
{
	if (enable) {
		register_trace_sched_process_fork(pid_fork, tr);
		register_trace_sched_process_free(pid_exit, tr);
	} else {
		unregister_trace_sched_process_fork(pid_fork, tr);
		unregister_trace_sched_process_free(pid_exit, tr);
	}
}

/* Install new lists (NULL: empty) and make every CPU and ops follow. */
static void set_lists(struct trace_array *tr, struct trace_pid_list *pids,
		      struct trace_pid_list *no_pids, bool had_any)
{
	bool has_any = pids || no_pids;

	ftrace_assert_locked();
	rcu_assign_pointer(tr->function_pids, pids);
	rcu_assign_pointer(tr->function_no_pids, no_pids);
	if (has_any && !had_any)
		register_trace_sched_switch(pid_sched_switch, tr);
	else if (!has_any && had_any)
		unregister_trace_sched_switch(pid_sched_switch, tr);
	/*
	 * Lists gone: every CPU traces again, an offline one too.  It may
	 * have gone down ignoring its last task, and with no sched_switch
	 * probe left nothing would reset it when it comes back.  (The IPI
	 * below then sets the online ones again, after any probe still
	 * running there with the old lists.)
	 */
	if (!has_any) {
		int cpu;

		for_each_possible_cpu(cpu)
			WRITE_ONCE(per_cpu_ptr(tr->array_buffer.data, cpu)->ftrace_ignore_pid,
				   FTRACE_PID_TRACE);
	}
	on_each_cpu(update_cpu_ipi, tr, 1);
	ftrace_update_pid_func();
}

/**
 * ftrace_clear_pids - empty both pid lists of a trace array
 * @tr: the trace array
 */
void ftrace_clear_pids(struct trace_array *tr)
{
	struct trace_pid_list *pids, *no_pids;

	mutex_lock(&ftrace_lock);
	pids = pid_list_of(tr, PIDS_TRACE);
	no_pids = pid_list_of(tr, PIDS_NOTRACE);
	if (pids || no_pids)
		set_lists(tr, NULL, NULL, true);
	mutex_unlock(&ftrace_lock);
	synchronize_rcu_tasks_rude();
	trace_pid_list_free(pids);
	trace_pid_list_free(no_pids);
}

/**
 * ftrace_update_pid_func - pick callbacks again after a pid list changed
 *
 * Context: ftrace_lock held.
 */
void ftrace_update_pid_func(void)
{
	ftrace_assert_locked();
	if (!ftrace_dead)
		ftrace_apply();
}

struct pid_file {
	struct trace_array	*tr;
	enum pid_kind		kind;
};

static void *pid_start(struct seq_file *m, loff_t *pos)
{
	struct pid_file *pf = m->private;
	struct trace_pid_list *list;

	mutex_lock(&ftrace_lock);
	rcu_read_lock_sched();
	list = pf->kind == PIDS_TRACE ? rcu_dereference_sched(pf->tr->function_pids) :
					rcu_dereference_sched(pf->tr->function_no_pids);
	if (!list)
		return !*pos ? FTRACE_NO_PIDS : NULL;
	return trace_pid_start(list, pos);
}

static void *pid_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct pid_file *pf = m->private;
	struct trace_pid_list *list;

	if (v == FTRACE_NO_PIDS) {
		(*pos)++;
		return NULL;
	}
	list = pf->kind == PIDS_TRACE ? rcu_dereference_sched(pf->tr->function_pids) :
					rcu_dereference_sched(pf->tr->function_no_pids);
	return trace_pid_next(list, v, pos);
}

static void pid_stop(struct seq_file *m, void *v)
{
	rcu_read_unlock_sched();
	mutex_unlock(&ftrace_lock);
}

static int pid_show(struct seq_file *m, void *v)
{
	if (v == FTRACE_NO_PIDS) {
		seq_puts(m, "no pid\n");
		return 0;
	}
	return trace_pid_show(m, v);
}

static const struct seq_operations pid_seq_ops = {
	.start	= pid_start,
	.next	= pid_next,
	.stop	= pid_stop,
	.show	= pid_show,
};

static int pid_open(struct inode *inode, struct file *file, enum pid_kind kind)
{
	struct trace_array *tr = inode->i_private;
	struct pid_file *pf;
	int ret;

	ret = tracing_check_open_get_tr(tr);
	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		struct trace_pid_list *pids, *no_pids, *old;

		mutex_lock(&ftrace_lock);
		pids = pid_list_of(tr, PIDS_TRACE);
		no_pids = pid_list_of(tr, PIDS_NOTRACE);
		old = kind == PIDS_TRACE ? pids : no_pids;
		if (old)
			set_lists(tr, kind == PIDS_TRACE ? NULL : pids,
				  kind == PIDS_TRACE ? no_pids : NULL, true);
		mutex_unlock(&ftrace_lock);
		if (old) {
			synchronize_rcu_tasks_rude();
			trace_pid_list_free(old);
		}
	}
	pf = __seq_open_private(file, &pid_seq_ops, sizeof(*pf));
	if (!pf) {
		trace_array_put(tr);
		return -ENOMEM;
	}
	pf->tr = tr;
	pf->kind = kind;
	return 0;
}

static int pid_trace_open(struct inode *inode, struct file *file)
{
	return pid_open(inode, file, PIDS_TRACE);
}

static int pid_notrace_open(struct inode *inode, struct file *file)
{
	return pid_open(inode, file, PIDS_NOTRACE);
}

static ssize_t pid_write(struct file *file, const char __user *ubuf,
			 size_t cnt, loff_t *ppos)
{
	struct pid_file *pf = ((struct seq_file *)file->private_data)->private;
	struct trace_pid_list *pids, *no_pids, *old, *new = NULL;
	struct trace_array *tr = pf->tr;
	ssize_t ret;

	if (!cnt)
		return 0;
	mutex_lock(&ftrace_lock);
	if (ftrace_dead) {
		mutex_unlock(&ftrace_lock);
		return -ENODEV;
	}
	pids = pid_list_of(tr, PIDS_TRACE);
	no_pids = pid_list_of(tr, PIDS_NOTRACE);
	old = pf->kind == PIDS_TRACE ? pids : no_pids;
	ret = trace_pid_write(old, &new, ubuf, cnt);
	if (ret >= 0)
		set_lists(tr, pf->kind == PIDS_TRACE ? new : pids,
			  pf->kind == PIDS_TRACE ? no_pids : new, pids || no_pids);
	mutex_unlock(&ftrace_lock);
	if (ret < 0)
		return ret;
	/* Only a list that readers may still hold needs the wait. */
	if (old) {
		synchronize_rcu_tasks_rude();
		trace_pid_list_free(old);
	}
	*ppos += ret;
	return ret;
}

static int pid_release(struct inode *inode, struct file *file)
{
	struct trace_array *tr = inode->i_private;

	trace_array_put(tr);
	return seq_release_private(inode, file);
}

static const struct file_operations pid_fops = {
	.open		= pid_trace_open,
	.write		= pid_write,
	.read		= seq_read,
	.llseek		= tracing_lseek,
	.release	= pid_release,
};

static const struct file_operations notrace_pid_fops = {
	.open		= pid_notrace_open,
	.write		= pid_write,
	.read		= seq_read,
	.llseek		= tracing_lseek,
	.release	= pid_release,
};

/**
 * ftrace_init_tracefs - a trace array's pid files
 * @tr: the trace array
 * @d_tracer: its directory
 */
void ftrace_init_tracefs(struct trace_array *tr, struct dentry *d_tracer)
{
	trace_create_file("set_ftrace_pid", TRACE_MODE_WRITE, d_tracer, tr, &pid_fops);
	trace_create_file("set_ftrace_notrace_pid", TRACE_MODE_WRITE, d_tracer, tr,
			  &notrace_pid_fops);
}
