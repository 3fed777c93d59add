// SPDX-License-Identifier: GPL-2.0
/* tmpfile.c - output files put in place only when complete. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmpfile.h"

/* lket-b2a has three file outputs at most: -o, --report, -d */
#define TMPFILE_MAX	8

/*
 * The temporary files the signal handler removes.  Changed only with the
 * signals blocked, so the handler never sees a slot half set.
 */
static char *volatile pending[TMPFILE_MAX];
static const int caught[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	int i;

	for (i = 0; i < TMPFILE_MAX; i++)
		if (pending[i])
			unlink(pending[i]);
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

/* With the signals blocked. */
static int remember(char *tmp)
{
	int i;

	for (i = 0; i < TMPFILE_MAX; i++)
		if (!pending[i]) {
			pending[i] = tmp;
			return 0;
		}
	return -EMFILE;
}

/* With the signals blocked. */
static void forget(const char *tmp)
{
	int i;

	for (i = 0; i < TMPFILE_MAX; i++)
		if (pending[i] == tmp)
			pending[i] = NULL;
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
	if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
		t->target = realpath(path, NULL);
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
	ret = remember(t->tmp);
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
