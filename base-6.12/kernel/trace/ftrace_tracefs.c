// SPDX-License-Identifier: GPL-2.0
/*
 * The core's tracefs files other than the filter files
 * (the lists of call sites, the anomaly knob), the
 * kernel.ftrace_enabled sysctl, the ftrace_filter= boot parameters, and
 * the hooks trace.c calls to tie trace arrays to ops.
 */
#include <linux/kprobes.h>
#include <linux/seq_file.h>
#include <linux/tracefs.h>
#include <linux/sysctl.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <asm/setup.h>

#include "trace.h"
#include "ftrace_internal.h"
#include "ftrace_tracefs.h"

/*
 * ---- available_filter_functions{,_addrs}, enabled_functions and
 * touched_functions ----
 */

enum rec_file_kind {
	RF_AVAIL,
	RF_ADDRS,	/* each line opens with the site's address (libbpf) */
	RF_ENABLED,	/* the sites that are calls now, and what they call */
	RF_TOUCHED,	/* ... that have been calls since boot */
};

struct rec_file {
	struct rec_cursor	cur;
	enum rec_file_kind	kind;
	struct ftrace_group	*g;
};

static bool rec_file_want(void *arg, struct ftrace_group *g, struct dyn_ftrace *rec)
{
	struct rec_file *rf = arg;

	switch (rf->kind) {
	case RF_ENABLED:
		return rec->flags & FTRACE_REC_ENABLED;
	case RF_TOUCHED:
		return rec->flags & FTRACE_REC_USED;
	default:
		return true;
	}
}

static void *rf_start(struct seq_file *m, loff_t *pos)
{
	struct rec_file *rf = m->private;

	mutex_lock(&ftrace_lock);
	if (ftrace_dead)
		return NULL;
	return ftrace_cursor_seek(&rf->cur, *pos, rec_file_want, rf, &rf->g);
}

static void *rf_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct rec_file *rf = m->private;

	++*pos;
	return ftrace_cursor_seek(&rf->cur, *pos, rec_file_want, rf, &rf->g);
}

static void rf_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&ftrace_lock);
}

static int rf_show(struct seq_file *m, void *v)
{
	struct rec_file *rf = m->private;
	struct dyn_ftrace *rec = v;
	unsigned long ip = ftrace_rec_ip(rf->g, rec);

	if (rf->kind == RF_ADDRS)
		seq_printf(m, "%lx ", ip);
	seq_printf(m, "%ps", (void *)ip);
	if (rf->kind >= RF_ENABLED) {
		unsigned int slot = ftrace_rec_slot(rec->flags, ip);

		/* The O column (an ops literal at the site) is never set here. */
		seq_printf(m, " (%u)%s%s%s  %s", ftrace_rec_count(rec),
			   rec->flags & FTRACE_REC_REGS_EN ? " R" : "  ",
			   rec->flags & FTRACE_REC_IPMODIFY ? " I" : "  ",
			   rec->flags & FTRACE_REC_DIRECT ? " D" : "  ",
			   rec->flags & FTRACE_REC_MODIFIED ? " M " : "   ");
		/*
		 * In the format tools parse: the trampoline, the ops'
		 * callback, what the trampoline calls; nothing for the
		 * shared trampolines.
		 */
		if (slot)
			seq_printf(m, "\ttramp: %pS (%pS) ->%pS",
				   (void *)ftrace_rec_target(rec->flags, ip),
				   ftrace_tramp_ops_func(slot), ftrace_tramp_func(slot));
		if (rec->flags & FTRACE_REC_DIRECT)
			seq_printf(m, "\n\tdirect-->%pS",
				   (void *)ftrace_find_rec_direct(ip));
	}
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations rec_file_seq_ops = {
	.start	= rf_start,
	.next	= rf_next,
	.stop	= rf_stop,
	.show	= rf_show,
};

static int rec_file_open(struct inode *inode, struct file *file,
			 enum rec_file_kind kind)
{
	struct rec_file *rf;
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;
	rf = __seq_open_private(file, &rec_file_seq_ops, sizeof(*rf));
	if (!rf)
		return -ENOMEM;
	rf->kind = kind;
	return 0;
}

/* One file per kind; the kind rides in the inode's private data. */
static int rf_open(struct inode *inode, struct file *file)
{
	return rec_file_open(inode, file, (uintptr_t)inode->i_private);
}

static const struct file_operations rec_file_fops = {
	.open		= rf_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release_private,
};

/* ---- Anomaly injection, for the tests ---- */

static ssize_t inject_write(struct file *file, const char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	unsigned int n;
	int ret;

	ret = kstrtouint_from_user(ubuf, cnt, 10, &n);
	if (ret)
		return ret;
	if (n > 1000)
		return -EINVAL;
	atomic_set(&ftrace_inject_mismatch, n);
	return cnt;
}

static ssize_t inject_read(struct file *file, char __user *ubuf, size_t cnt,
			   loff_t *ppos)
{
	char buf[16];
	int len = scnprintf(buf, sizeof(buf), "%d\n",
			    atomic_read(&ftrace_inject_mismatch));

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static const struct file_operations inject_fops = {
	.open		= tracing_open_generic,
	.read		= inject_read,
	.write		= inject_write,
	.llseek		= default_llseek,
};

/**
 * ftrace_init_tracefs_toplevel - the core's files at the top of tracefs
 * @tr: the top-level trace array
 * @d_tracer: the directory (NULL: the top)
 */
void ftrace_init_tracefs_toplevel(struct trace_array *tr, struct dentry *d_tracer)
{
	static const char *const names[] = {
		[RF_AVAIL]	= "available_filter_functions",
		[RF_ADDRS]	= "available_filter_functions_addrs",
		[RF_ENABLED]	= "enabled_functions",
		[RF_TOUCHED]	= "touched_functions",
	};
	uintptr_t kind;

	for (kind = 0; kind < ARRAY_SIZE(names); kind++)
		trace_create_file(names[kind], TRACE_MODE_READ, d_tracer,
				  (void *)kind, &rec_file_fops);
	ftrace_create_filter_files(tr, d_tracer);
	fgraph_create_files(d_tracer);
	if (IS_ENABLED(CONFIG_FTRACE_ANOMALY_TEST))
		trace_create_file("ftrace_inject_mismatch", TRACE_MODE_WRITE,
				  d_tracer, NULL, &inject_fops);
	ftrace_profile_tracefs(d_tracer);
}

/* ---- kernel.ftrace_enabled ---- */

static int zero_ = 0, one_ = 1;

static int ftrace_enabled_sysctl(const struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	struct ctl_table t = *table;
	struct ftrace_ops *op;
	int val, ret;

	mutex_lock(&ftrace_lock);
	val = ftrace_enabled;
	t.data = &val;
	t.extra1 = &zero_;
	t.extra2 = &one_;
	ret = proc_dointvec_minmax(&t, write, buffer, lenp, ppos);
	if (ret || !write || val == ftrace_enabled)
		goto out;
	if (ftrace_dead) {
		ret = -ENODEV;
		goto out;
	}
	if (!val) {
		for_each_ftrace_op(op, ftrace_ops_list) {
			if (op->flags & FTRACE_OPS_FL_PERMANENT) {
				ret = -EBUSY;
				goto out;
			}
		}
	}
	ftrace_enabled = val;
	ret = ftrace_apply();
out:
	mutex_unlock(&ftrace_lock);
	return ret;
}

static struct ctl_table ftrace_sysctls[] = {
	{
		.procname	= "ftrace_enabled",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= ftrace_enabled_sysctl,
	},
};

static int __init ftrace_sysctl_init(void)
{
	register_sysctl_init("kernel", ftrace_sysctls);
	return 0;
}
late_initcall(ftrace_sysctl_init);

/* ---- What trace.c asks of the core ---- */

/**
 * ftrace_is_dead - whether an anomaly stopped function tracing
 *
 * Return: 1 if dead.
 */
int ftrace_is_dead(void)
{
	return READ_ONCE(ftrace_dead);
}

/**
 * ftrace_kill - stop function tracing for good (a self-test failed)
 */
void ftrace_kill(void)
{
	mutex_lock(&ftrace_lock);
	if (!ftrace_dead) {
		ftrace_enabled = 0;
		ftrace_apply();
		ftrace_dead = 1;
		kprobe_ftrace_kill();
	}
	mutex_unlock(&ftrace_lock);
}

/**
 * ftrace_init_trace_array - the core's lists in a new trace array
 * @tr: the trace array
 */
void ftrace_init_trace_array(struct trace_array *tr)
{
	INIT_LIST_HEAD(&tr->func_probes);
	INIT_LIST_HEAD(&tr->mod_trace);
	INIT_LIST_HEAD(&tr->mod_notrace);
}

/**
 * ftrace_init_global_array_ops - the top-level trace array uses global_ops
 * @tr: the top-level trace array
 */
void __init ftrace_init_global_array_ops(struct trace_array *tr)
{
	tr->ops = &global_ops;
	tr->ops->private = tr;
	ftrace_init_trace_array(tr);
	init_array_fgraph_ops(tr, tr->ops);
}

/**
 * ftrace_init_array_ops - set the callback of a trace array's ops
 * @tr: the trace array
 * @func: the callback
 */
void ftrace_init_array_ops(struct trace_array *tr, ftrace_func_t func)
{
	tr->ops->func = func;
	tr->ops->private = tr;
}

/**
 * ftrace_reset_array_ops - the trace array's ops back to doing nothing
 * @tr: the trace array
 */
void ftrace_reset_array_ops(struct trace_array *tr)
{
	tr->ops->func = ftrace_stub;
}

/* ---- Boot parameters ftrace_filter= and ftrace_notrace= ---- */

bool ftrace_filter_param __initdata;
static char boot_filter[COMMAND_LINE_SIZE] __initdata;
static char boot_notrace[COMMAND_LINE_SIZE] __initdata;

static int __init set_boot_filter(char *str)
{
	ftrace_filter_param = true;
	strscpy(boot_filter, str, sizeof(boot_filter));
	return 1;
}
__setup("ftrace_filter=", set_boot_filter);

static int __init set_boot_notrace(char *str)
{
	ftrace_filter_param = true;
	strscpy(boot_notrace, str, sizeof(boot_notrace));
	return 1;
}
__setup("ftrace_notrace=", set_boot_notrace);

static int __init apply_boot_filters(void)
{
	if (boot_filter[0])
		ftrace_set_early_filter(&global_ops, boot_filter, 1);
	if (boot_notrace[0])
		ftrace_set_early_filter(&global_ops, boot_notrace, 0);
	return 0;
}
core_initcall(apply_boot_filters);
