// SPDX-License-Identifier: GPL-2.0
/*
 * Editing an ops' filter and notrace hashes, and the in-kernel API on top
 * of it.  An edit works on a private copy of one hash, committed at its
 * end; tokens the editor does not know (commands, modules not loaded yet)
 * go to the edit's extension, as the tracefs files provide.
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "trace.h"
#include "ftrace_internal.h"

static const char token_separators[] = " \t\n";

static struct ftrace_hash *current_hash(struct ftrace_ops *ops, bool notr)
{
	struct ftrace_ops_hash *h = ops->func_hash;

	return notr ? rcu_dereference_protected(h->notrace_hash, 1) :
			 rcu_dereference_protected(h->filter_hash, 1);
}

/* No ftrace_lock: a module's group is freed only after a grace period. */
static bool module_loaded(const char *name)
{
	struct ftrace_group *g;
	bool found = false;

	rcu_read_lock();
	for_each_ftrace_group(g) {
		if (g->mod && !strcmp(module_name(g->mod), name)) {
			found = true;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/**
 * ftrace_pattern_add - parse one pattern of a write onto a batch
 * @batch: list of struct ftrace_pattern, in the order written
 * @token: "func", "!func" (remove), or a position ("42", "!42")
 * @module: restrict it to this module's functions, or NULL
 *
 * Return: 0, or -ENOMEM.
 */
int ftrace_pattern_add(struct list_head *batch, const char *token,
		       const char *module)
{
	size_t len = strlen(token) + 1;
	struct ftrace_pattern *pat;
	char *func;

	pat = kzalloc(struct_size(pat, text, len + (module ? strlen(module) + 1 : 0)),
		      GFP_KERNEL);
	if (!pat)
		return -ENOMEM;
	memcpy(pat->text, token, len);
	func = pat->text;
	if (*func == '!') {
		pat->remove = true;
		func++;
	}
	if (module) {
		pat->module = pat->text + len;
		strcpy(pat->module, module);
		if (!*func)
			func = "*";
		/*
		 * "!glob" means every function outside those modules, the
		 * kernel's own included; "" or "*" every module.
		 */
		if (*module == '!') {
			pat->mod_exclude = true;
			pat->module++;
		}
		ftrace_glob_parse(&pat->mod, pat->module);
	}
	ftrace_glob_parse(&pat->func, func);
	pat->exact = pat->func.type == MATCH_FULL;
	list_add_tail(&pat->list, batch);
	return 0;
}

/**
 * ftrace_patterns_free - free a batch of patterns
 * @batch: list of struct ftrace_pattern; left empty
 */
void ftrace_patterns_free(struct list_head *batch)
{
	struct ftrace_pattern *pat, *tmp;

	list_for_each_entry_safe(pat, tmp, batch, list)
		kfree(pat);
	INIT_LIST_HEAD(batch);
}

/*
 * All or nothing: *@copy is the edited copy of @hash (NULL for an empty
 * batch).  Return: 0, -EINVAL if a pattern matched nothing, -ENOMEM.
 */
static int match_batch(struct list_head *batch, struct ftrace_hash *hash,
		       struct ftrace_hash **copy)
{
	struct ftrace_pattern *pat;
	struct ftrace_hash *c;
	int ret;

	*copy = NULL;
	if (list_empty(batch))
		return 0;
	c = ftrace_hash_copy(hash);
	if (!c)
		return -ENOMEM;
	mutex_lock(&ftrace_lock);
	ret = ftrace_match_patterns(batch, c);
	mutex_unlock(&ftrace_lock);
	list_for_each_entry(pat, batch, list)
		if (!ret && !pat->hits)
			ret = -EINVAL;
	if (ret) {
		ftrace_hash_free(c);
		return ret;
	}
	*copy = c;
	return 0;
}

/* Run only once the patterns have matched. */
struct ext_token {
	struct list_head	list;
	char			*token;
	char			*cmd;
	char			*param;
};

static void split_token(char *token, char **cmd, char **param)
{
	*cmd = NULL;
	*param = NULL;
	*cmd = strchr(token, ':');
	if (!*cmd)
		return;
	*(*cmd)++ = '\0';
	*param = strchr(*cmd, ':');
	if (*param)
		*(*param)++ = '\0';
}

static bool module_glob(const char *param)
{
	return !*param || *param == '!' || strpbrk(param, "*?[\\");
}

/*
 * A pattern, or a ":mod:" of a loaded module or a module glob, joins the
 * batch; anything else is deferred to the extension.  A glob matches only
 * what is loaded now and, like any pattern, fails the write if it matches
 * nothing.
 */
static int edit_token(struct ftrace_filter_edit *e, char *token,
		      struct list_head *batch, struct list_head *deferred)
{
	struct ext_token *x;
	char *cmd, *param;

	split_token(token, &cmd, &param);
	if (!cmd)
		return ftrace_pattern_add(batch, token, NULL);
	if (!strcmp(cmd, "mod")) {
		/* "f:mod" names no module: it means "f". */
		if (!param)
			return ftrace_pattern_add(batch, token, NULL);
		if (module_glob(param) || module_loaded(param))
			return ftrace_pattern_add(batch, token, param);
	}
	if (!e->ext)
		return -EINVAL;
	x = kmalloc(sizeof(*x), GFP_KERNEL);
	if (!x)
		return -ENOMEM;
	x->token = token;
	x->cmd = cmd;
	x->param = param;
	list_add_tail(&x->list, deferred);
	return 0;
}

/**
 * ftrace_filter_edit_text - apply a buffer of whitespace-separated tokens
 * @e: the edit
 * @text: the tokens (modified)
 *
 * A ',' is part of a token; callers taking comma lists split them first.
 * The patterns are all matched before any command runs, so that a write
 * refused for a pattern that matches nothing has run none.  A command
 * cannot be undone: if one fails, those before it stay done.
 *
 * Return: 0 or a negative errno; on error the edit's hash is unchanged.
 */
int ftrace_filter_edit_text(struct ftrace_filter_edit *e, char *text)
{
	struct ftrace_hash *copy = NULL;
	struct ext_token *x, *tmp;
	LIST_HEAD(deferred);
	LIST_HEAD(batch);
	char *token;
	int ret = 0;

	while (!ret && (token = strsep(&text, token_separators)) != NULL) {
		if (*token)
			ret = edit_token(e, token, &batch, &deferred);
	}
	if (!ret)
		ret = match_batch(&batch, e->hash, &copy);
	list_for_each_entry_safe(x, tmp, &deferred, list) {
		if (!ret)
			ret = e->ext->token(e, x->token, x->cmd, x->param);
		kfree(x);
	}
	if (!ret && copy) {
		ftrace_hash_free(e->hash);
		e->hash = copy;
	} else {
		ftrace_hash_free(copy);
	}
	ftrace_patterns_free(&batch);
	return ret;
}

/**
 * ftrace_filter_edit_begin - start editing one hash of an ops
 * @e: the edit, zeroed by the caller
 * @ops: the ops
 * @ext: what the edit's owner adds to the editor, or NULL
 * @notr: edit the notrace hash instead of the filter
 * @reset: start from an empty set
 *
 * Of two concurrent edits of one hash, the last committed wins.
 *
 * Return: 0 or -ENOMEM.
 */
int ftrace_filter_edit_begin(struct ftrace_filter_edit *e, struct ftrace_ops *ops,
			     const struct ftrace_filter_edit_ext *ext, bool notr,
			     bool reset)
{
	ftrace_ops_init(ops);
	e->ops = ops;
	e->ext = ext;
	e->notr = notr;
	e->truncate = reset;
	mutex_lock(&ops->func_hash->regex_lock);
	mutex_lock(&ftrace_lock);
	e->hash = ftrace_hash_copy(reset ? NULL : current_hash(ops, notr));
	mutex_unlock(&ftrace_lock);
	mutex_unlock(&ops->func_hash->regex_lock);
	return e->hash ? 0 : -ENOMEM;
}

/**
 * ftrace_filter_edit_end - commit (or drop) an edit
 * @e: the edit
 * @commit: install the edited set
 *
 * Return: 0, or the error of installing it (-EBUSY, -ENODEV).
 */
int ftrace_filter_edit_end(struct ftrace_filter_edit *e, bool commit)
{
	int ret = 0;

	mutex_lock(&e->ops->func_hash->regex_lock);
	mutex_lock(&ftrace_lock);
	if (commit && ftrace_dead) {
		ret = -ENODEV;
		commit = false;
	}
	if (commit) {
		e->hash->flags &= ~FTRACE_HASH_FL_MOD;
		if (e->ext)
			e->ext->commit(e);
		if (e->install)
			ret = e->install(e);
		else
			ret = ftrace_ops_set_hashes(e->ops, e->notr ? NULL : e->hash,
						    e->notr ? e->hash : NULL);
	} else {
		ftrace_hash_free(e->hash);
	}
	if (e->ext)
		e->ext->done(e);
	e->hash = NULL;
	mutex_unlock(&ftrace_lock);
	mutex_unlock(&e->ops->func_hash->regex_lock);
	return ret;
}

static int set_from_buffer(struct ftrace_ops *ops, unsigned char *buf, int len,
			   int reset, bool notr)
{
	struct ftrace_filter_edit e = {};
	char *text = NULL;
	int ret;

	if (buf) {
		text = kmemdup_nul(buf, len, GFP_KERNEL);
		if (!text)
			return -ENOMEM;
		/*
		 * A buffer without a pattern would commit an empty filter,
		 * which traces every function: refuse it.
		 */
		if (!text[strspn(text, token_separators)]) {
			kfree(text);
			return -EINVAL;
		}
	}
	ret = ftrace_filter_edit_begin(&e, ops, NULL, notr, reset);
	if (!ret) {
		ret = text ? ftrace_filter_edit_text(&e, text) : 0;
		ret = ftrace_filter_edit_end(&e, !ret) ?: ret;
	}
	kfree(text);
	return ret;
}

/**
 * ftrace_set_filter - edit an ops' filter with patterns
 * @ops: the ops
 * @buf: whitespace-separated patterns, as written to set_ftrace_filter
 * @len: length of @buf
 * @reset: start from an empty filter
 *
 * Return: 0, -EINVAL if a pattern matches nothing or @buf holds none
 * (nothing changes, @reset included), -ENOMEM, -EBUSY, -ENODEV.
 */
int ftrace_set_filter(struct ftrace_ops *ops, unsigned char *buf, int len, int reset)
{
	return set_from_buffer(ops, buf, len, reset, false);
}
EXPORT_SYMBOL_GPL(ftrace_set_filter);

/**
 * ftrace_set_notrace - edit an ops' notrace hash with patterns
 * @ops: the ops
 * @buf: whitespace-separated patterns
 * @len: length of @buf
 * @reset: start from an empty set
 *
 * Return: as ftrace_set_filter().
 */
int ftrace_set_notrace(struct ftrace_ops *ops, unsigned char *buf, int len, int reset)
{
	return set_from_buffer(ops, buf, len, reset, true);
}
EXPORT_SYMBOL_GPL(ftrace_set_notrace);

/**
 * ftrace_set_global_filter - edit the top-level set_ftrace_filter
 * @buf: patterns, or NULL
 * @len: length of @buf
 * @reset: start from an empty filter
 */
void ftrace_set_global_filter(unsigned char *buf, int len, int reset)
{
	set_from_buffer(&global_ops, buf, len, reset, false);
}
EXPORT_SYMBOL_GPL(ftrace_set_global_filter);

/**
 * ftrace_set_global_notrace - edit the top-level set_ftrace_notrace
 * @buf: patterns, or NULL
 * @len: length of @buf
 * @reset: start from an empty set
 */
void ftrace_set_global_notrace(unsigned char *buf, int len, int reset)
{
	set_from_buffer(&global_ops, buf, len, reset, true);
}
EXPORT_SYMBOL_GPL(ftrace_set_global_notrace);

/**
 * ftrace_set_filter_ips - add or remove call sites by address
 * @ops: the ops
 * @ips: call-site addresses, or the start addresses of their functions
 * @cnt: how many
 * @remove: remove them instead of adding
 * @reset: start from an empty filter
 *
 * Return: 0, -EINVAL if an address has no call site, -ENOENT if one is not
 * in the filter when removing, -ENOMEM, -EBUSY, -ENODEV.
 */
int ftrace_set_filter_ips(struct ftrace_ops *ops, unsigned long *ips,
			  unsigned int cnt, int remove, int reset)
{
	struct ftrace_filter_edit e = {};
	unsigned int i;
	int ret;

	ret = ftrace_filter_edit_begin(&e, ops, NULL, false, reset);
	if (ret)
		return ret;
	for (i = 0; i < cnt && !ret; i++) {
		unsigned long ip = ftrace_location(ips[i]);

		if (!ip)
			ret = -EINVAL;
		else if (remove)
			ret = ftrace_hash_remove(e.hash, ip) ? 0 : -ENOENT;
		else
			ret = ftrace_hash_add(e.hash, ip);
	}
	return ftrace_filter_edit_end(&e, !ret) ?: ret;
}
EXPORT_SYMBOL_GPL(ftrace_set_filter_ips);

/**
 * ftrace_set_filter_ip - add or remove one call site by address
 * @ops: the ops
 * @ip: the call site, or the start of its function
 * @remove: remove it instead of adding
 * @reset: start from an empty filter
 *
 * Return: as ftrace_set_filter_ips().
 */
int ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip,
			 int remove, int reset)
{
	return ftrace_set_filter_ips(ops, &ip, 1, remove, reset);
}
EXPORT_SYMBOL_GPL(ftrace_set_filter_ip);

/**
 * ftrace_free_filter_locked - free the hashes of an unregistered ops
 * @ops: the ops; a registered one, or one sharing global_ops' hashes,
 *	keeps them
 *
 * Context: ftrace_lock held.
 */
void ftrace_free_filter_locked(struct ftrace_ops *ops)
{
	struct ftrace_ops_hash *h = ops->func_hash;

	ftrace_assert_locked();
	if (ftrace_ops_registered(ops) || h != &ops->local_hash)
		return;
	ftrace_sync_unlinked();
	ftrace_hash_free(rcu_dereference_protected(h->filter_hash, 1));
	ftrace_hash_free(rcu_dereference_protected(h->notrace_hash, 1));
	RCU_INIT_POINTER(h->filter_hash, NULL);
	RCU_INIT_POINTER(h->notrace_hash, NULL);
}

/**
 * ftrace_free_filter - free the hashes of an unregistered ops
 * @ops: the ops
 */
void ftrace_free_filter(struct ftrace_ops *ops)
{
	ftrace_ops_init(ops);
	mutex_lock(&ftrace_lock);
	ftrace_free_filter_locked(ops);
	mutex_unlock(&ftrace_lock);
}
EXPORT_SYMBOL_GPL(ftrace_free_filter);

/**
 * ftrace_ops_set_global_filter - make an ops follow the top-level filter
 * @ops: an ops that was never used
 */
void ftrace_ops_set_global_filter(struct ftrace_ops *ops)
{
	if (!ops->func_hash) {
		ftrace_ops_init(ops);
		ops->func_hash = &global_ops.local_hash;
	}
}
EXPORT_SYMBOL_GPL(ftrace_ops_set_global_filter);

/**
 * ftrace_set_early_filter_install - apply a boot-time list of functions
 * @ops: the ops
 * @buf: comma-separated patterns (modified)
 * @enable: the filter if non-zero, else the notrace hash
 * @install: the edit's install hook, or NULL
 *
 * A name that matches nothing is reported; the others still apply.
 */
void __init ftrace_set_early_filter_install(struct ftrace_ops *ops, char *buf,
					    int enable,
					    int (*install)(struct ftrace_filter_edit *e))
{
	struct ftrace_filter_edit e = {};
	char *name;

	if (ftrace_filter_edit_begin(&e, ops, NULL, !enable, false))
		return;
	e.install = install;
	while ((name = strsep(&buf, ",")) != NULL) {
		if (*name && ftrace_filter_edit_text(&e, name))
			pr_warn("ftrace: boot %s \"%s\" matched nothing; ignored\n",
				enable ? "filter" : "notrace", name);
	}
	ftrace_filter_edit_end(&e, true);
}

/**
 * ftrace_set_early_filter - apply a boot-time list of functions
 * @ops: the ops
 * @buf: comma-separated patterns (modified)
 * @enable: the filter if non-zero, else the notrace hash
 */
void __init ftrace_set_early_filter(struct ftrace_ops *ops, char *buf, int enable)
{
	ftrace_set_early_filter_install(ops, buf, enable, NULL);
}
