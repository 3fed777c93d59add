// SPDX-License-Identifier: GPL-2.0
/*
 * tmpfile.c - output files and folders put in place only when complete;
 * the temporaries removed by the signals that end the process.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/tmpfile.h"

/* A temporary the signal handler removes: a file, or a folder. */
struct pending {
	char *path;	/* NULL: a free slot */
	bool dir;
};

/*
 * The temporaries the signal handler removes, files first, then the
 * folders they were in.  Changed only with the signals blocked, so the
 * handler never sees a slot half set, nor the array moved.
 */
static struct pending *volatile pending;
static volatile size_t npending;	/* slots in use or free */
static size_t pending_cap;
/* those that end the process by default, from outside (^C, ^\, kill,
 * a hangup, a reader gone) or for a limit */
static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
			      SIGXCPU, SIGXFSZ };

static void on_signal(int sig)
{
	struct pending *p = pending;
	size_t n = npending, i;

	for (i = 0; i < n; i++)
		if (p[i].path && !p[i].dir)
			unlink(p[i].path);
	/* a folder inside another was remembered after it */
	for (i = n; i-- > 0;)
		if (p[i].path && p[i].dir)
			rmdir(p[i].path);
	/* SA_RESETHAND made it the default again: die of it */
	raise(sig);
}

int tmpfile_catch_signals(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		if (sigaction(caught[i], NULL, &old))
			return -errno;
		/* nohup and background jobs ignore some: keep it so */
		if (old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(caught[i], &sa, NULL))
			return -errno;
	}
	return 0;
}

static void block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaddset(&set, caught[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

void tmpfile_hold_signals(sigset_t *old)
{
	block(old);
}

void tmpfile_release_signals(const sigset_t *old)
{
	unblock(old);
}

/* With the signals blocked. */
static int remember(char *tmp, bool dir)
{
	struct pending *bigger;
	size_t i;

	for (i = 0; i < npending; i++)
		if (!pending[i].path)
			break;
	if (i == pending_cap) {
		pending_cap = pending_cap ? 2 * pending_cap : 8;
		bigger = realloc(pending, pending_cap * sizeof(*bigger));
		if (!bigger) {
			pending_cap = i;
			return -ENOMEM;
		}
		pending = bigger;
	}
	pending[i].path = tmp;
	pending[i].dir = dir;
	if (i == npending)
		npending = i + 1;
	return 0;
}

/* With the signals blocked. */
static void forget(const char *tmp)
{
	size_t i;

	for (i = 0; i < npending; i++)
		if (pending[i].path == tmp)
			pending[i].path = NULL;
}

mode_t tmpfile_new_mode(mode_t mode)
{
	mode_t mask = umask(0);

	umask(mask);
	return mode & ~mask;
}

/* Close fd, remove and forget the temporary file, free the names. */
static void release(struct tmpfile *t, bool remove)
{
	sigset_t old;

	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->tmp) {
		block(&old);
		if (remove)
			unlink(t->tmp);
		forget(t->tmp);
		unblock(&old);
	}
	free(t->tmp);
	free(t->target);
	t->tmp = t->target = NULL;
}

/*
 * Where the symbolic link path leads, followed link by link, when what it
 * names is not made yet (realpath() fails then): a relative link is read
 * from its own folder.  NULL and errno on failure, ELOOP past 40 links.
 */
static char *dangling_target(const char *path)
{
	char *p = strdup(path), *next, *slash;
	char buf[4096];
	struct stat st;
	ssize_t n;
	int i;

	for (i = 0; p && i < 40; i++) {
		if (lstat(p, &st) || !S_ISLNK(st.st_mode))
			return p;
		n = readlink(p, buf, sizeof(buf) - 1);
		if (n < 0 || n == sizeof(buf) - 1) {
			free(p);
			errno = n < 0 ? errno : ENAMETOOLONG;
			return NULL;
		}
		buf[n] = '\0';
		slash = strrchr(p, '/');
		if (buf[0] == '/' || !slash)
			next = strdup(buf);
		else if ((next = malloc((size_t)(slash - p) + 2 + (size_t)n)))
			sprintf(next, "%.*s/%s", (int)(slash - p), p, buf);
		free(p);
		p = next;
	}
	if (p) {
		free(p);
		errno = ELOOP;
	}
	return NULL;
}

int tmpfile_open(struct tmpfile *t, const char *path)
{
	struct stat st, lst;
	bool exists = stat(path, &st) == 0;
	mode_t mode = exists ? st.st_mode & 07777 : tmpfile_new_mode(0644);
	sigset_t old;
	int ret;

	t->target = t->tmp = NULL;
	t->fd = -1;
	if (exists && !S_ISREG(st.st_mode)) {
		t->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (t->fd < 0)
			return -errno;
		t->target = strdup(path);
		if (!t->target) {
			close(t->fd);
			t->fd = -1;
			return -ENOMEM;
		}
		return 0;
	}
	/* replace the file a link points to, not the link */
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
		t->target = exists ? realpath(path, NULL) :
			    dangling_target(path);
	else
		t->target = strdup(path);
	if (!t->target)
		return -errno;
	t->tmp = malloc(strlen(t->target) + sizeof(".tmp-XXXXXX"));
	if (!t->tmp) {
		ret = -ENOMEM;
		goto err;
	}
	strcpy(t->tmp, t->target);
	strcat(t->tmp, ".tmp-XXXXXX");
	block(&old);
	ret = remember(t->tmp, false);
	if (!ret) {
		t->fd = mkostemp(t->tmp, O_CLOEXEC);
		if (t->fd < 0) {
			ret = -errno;
			forget(t->tmp);
		}
	}
	unblock(&old);
	if (ret)
		goto err;
	if (fchmod(t->fd, mode)) {
		ret = -errno;
		release(t, true);
		return ret;
	}
	return 0;
err:
	free(t->tmp);
	free(t->target);
	t->tmp = t->target = NULL;
	return ret;
}

int tmpfile_commit(struct tmpfile *t, bool replace)
{
	int ret;

	if (!t->target)
		return 0;
	if (t->fd >= 0 && close(t->fd)) {
		/* the data may not all be there (NFS, a full disk) */
		ret = -errno;
		t->fd = -1;
		release(t, true);
		return ret;
	}
	t->fd = -1;
	ret = 0;
	if (t->tmp && (replace ? rename(t->tmp, t->target) :
		       link(t->tmp, t->target)))
		ret = -errno;
	/* a signal before this removes a name that is gone or a link's
	 * second name: PATH is whole either way */
	release(t, ret || !replace);
	return ret;
}

void tmpfile_discard(struct tmpfile *t)
{
	if (t->target)
		release(t, true);
}

int tmpdir_make(struct tmpdir *d, const char *path)
{
	sigset_t old;
	int ret;

	*d = (struct tmpdir){ 0 };
	d->path = malloc(strlen(path) + sizeof(".tmp-XXXXXX"));
	if (!d->path)
		return -ENOMEM;
	strcpy(d->path, path);
	strcat(d->path, ".tmp-XXXXXX");
	/* remembered first: mkdtemp() fills in the name where it is */
	block(&old);
	ret = remember(d->path, true);
	if (!ret && !mkdtemp(d->path)) {
		ret = -errno;
		forget(d->path);
	}
	unblock(&old);
	if (ret) {
		free(d->path);
		d->path = NULL;
		return ret;
	}
	chmod(d->path, tmpfile_new_mode(0755));	/* mkdtemp() made it 0700 */
	return 0;
}

int tmpdir_file(struct tmpdir *d, const char *name, const char **path)
{
	char *p, **bigger;
	sigset_t old;
	size_t i;
	int ret;

	for (i = 0; i < d->nfiles; i++)
		if (!strcmp(d->files[i] + strlen(d->path) + 1, name)) {
			*path = d->files[i];
			return 0;
		}
	bigger = realloc(d->files, (d->nfiles + 1) * sizeof(*bigger));
	if (!bigger)
		return -ENOMEM;
	d->files = bigger;
	p = malloc(strlen(d->path) + 1 + strlen(name) + 1);
	if (!p)
		return -ENOMEM;
	sprintf(p, "%s/%s", d->path, name);
	block(&old);
	ret = remember(p, false);
	unblock(&old);
	if (ret) {
		free(p);
		return ret;
	}
	d->files[d->nfiles++] = p;
	*path = p;
	return 0;
}

int tmpdir_subdir(struct tmpdir *d, const char *name)
{
	char *p, **bigger;
	sigset_t old;
	int ret;

	bigger = realloc(d->dirs, (d->ndirs + 1) * sizeof(*bigger));
	if (!bigger)
		return -ENOMEM;
	d->dirs = bigger;
	p = malloc(strlen(d->path) + 1 + strlen(name) + 1);
	if (!p)
		return -ENOMEM;
	sprintf(p, "%s/%s", d->path, name);
	block(&old);
	ret = remember(p, true);
	if (!ret && mkdir(p, tmpfile_new_mode(0755))) {
		ret = -errno;
		forget(p);
	}
	unblock(&old);
	if (ret) {
		free(p);
		return ret;
	}
	d->dirs[d->ndirs++] = p;
	return 0;
}

/* Forget d and free it; with remove, its files and folders go first. */
static void tmpdir_release(struct tmpdir *d, bool remove)
{
	sigset_t old;
	size_t i;

	block(&old);
	for (i = 0; i < d->nfiles; i++) {
		if (remove)
			unlink(d->files[i]);
		forget(d->files[i]);
	}
	for (i = d->ndirs; i-- > 0;) {
		if (remove)
			rmdir(d->dirs[i]);
		forget(d->dirs[i]);
	}
	if (d->path) {
		if (remove)
			rmdir(d->path);
		forget(d->path);
	}
	unblock(&old);
	for (i = 0; i < d->nfiles; i++)
		free(d->files[i]);
	for (i = 0; i < d->ndirs; i++)
		free(d->dirs[i]);
	free(d->files);
	free(d->dirs);
	free(d->path);
	*d = (struct tmpdir){ 0 };
}

int tmpdir_commit(struct tmpdir *d, const char *path)
{
	if (!d->path)
		return 0;
	if (rename(d->path, path))
		return -errno;
	/* a signal before this removes names that are gone: path is whole */
	tmpdir_release(d, false);
	return 0;
}

void tmpdir_discard(struct tmpdir *d)
{
	tmpdir_release(d, true);
}
