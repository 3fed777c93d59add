// SPDX-License-Identifier: GPL-2.0
/*
 * follow.c - read a trace while its tracer writes it (see follow.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "input/follow.h"
#include "input/tracename.h"

static volatile sig_atomic_t stopped;
static const int stop_signals[] = { SIGINT, SIGTERM };
static struct sigaction before[sizeof(stop_signals) / sizeof(stop_signals[0])];

static void on_stop(int sig)
{
	size_t i;

	stopped = 1;
	/* the next one does what it did before */
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &before[i], NULL);
	(void)sig;
}

int follow_catch_stop(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		if (sigaction(stop_signals[i], &sa, &before[i]))
			return -errno;
	return 0;
}

bool follow_stopped(void)
{
	return stopped;
}

/*
 * Has anyone fd's file open for writing?  1 yes, 0 no, < 0 cannot be
 * told (-errno: the file system has no leases, or the file is another
 * user's and this process may not lease it).  A read lease is granted
 * only when no one has the file open for writing; it is given back at
 * once.
 */
static int has_writer(int fd)
{
	if (fcntl(fd, F_SETLEASE, F_RDLCK) == 0) {
		fcntl(fd, F_SETLEASE, F_UNLCK);
		return 0;
	}
	return errno == EAGAIN || errno == EBUSY ? 1 : -errno;
}

/*
 * The length of a rotated file's path up to the '.' before its number
 * ("dir/NAME_N."), which its CPU's other files share; 0: not a rotated
 * file's.
 */
static size_t rotation_stem(const char *path)
{
	const char *dot = strrchr(path, '.');

	return tracename_rotation(path) >= 0 && dot ?
	       (size_t)(dot - path) + 1 : 0;
}

/* Does the rotated file after path (NAME_N.K+1) exist? */
static bool next_made(const char *path)
{
	size_t stem = rotation_stem(path);
	struct stat st;
	char *next;
	bool made;

	if (!stem || asprintf(&next, "%.*s%d", (int)stem, path,
			      tracename_rotation(path) + 1) < 0)
		return false;
	made = !stat(next, &st);
	free(next);
	return made;
}

char *follow_next_file(const char *path)
{
	size_t stem = rotation_stem(path), dirlen;
	const char *slash = strrchr(path, '/');
	int k = tracename_rotation(path), best = -1, j;
	char *dir, *next = NULL;
	struct dirent *e;
	DIR *d;

	if (!stem)
		return NULL;
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	dir = dirlen ? strndup(path, dirlen) : strdup(".");
	d = dir ? opendir(dir) : NULL;
	free(dir);
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		j = tracename_rotation(e->d_name);
		if (j > k && (best < 0 || j < best) &&
		    strlen(e->d_name) > stem - dirlen &&
		    !strncmp(e->d_name, path + dirlen, stem - dirlen) &&
		    e->d_name[stem - dirlen] >= '0' &&
		    e->d_name[stem - dirlen] <= '9')
			best = j;
	}
	closedir(d);
	if (best >= 0 && asprintf(&next, "%.*s%d", (int)stem, path, best) < 0)
		next = NULL;
	return next;
}

int follow_wait(struct follow *f, int fd, const char *path, uint64_t size)
{
	struct timespec pause = {
		.tv_sec = f->interval_ms / 1000,
		.tv_nsec = (long)(f->interval_ms % 1000) * 1000000,
	};
	bool idle_done = false, said = false;
	struct stat st;
	int w;

	for (;;) {
		if (fstat(fd, &st) < 0)
			return 0;	/* no file to wait for */
		if ((uint64_t)st.st_size > size)
			return 1;
		/* a tracer starting again over the same files */
		if ((uint64_t)st.st_size < size) {
			diagf(f->diag, DIAG_DAMAGE, path, (int64_t)st.st_size,
			      "cut to %llu bytes while read (a new trace written over it?): read no further",
			      (unsigned long long)st.st_size);
			return 0;
		}
		if (stopped)
			return 0;
		/* a rotated file is done when its writer has made the next
		   (lket-rotate makes it first, then closes this one) */
		if (next_made(path))
			return 0;
		w = has_writer(fd);
		if (w == 0)
			return 0;
		/* no lease: a later file, made since, says it all the same
		   (the next may be gone already, deleted by the rotation) */
		if (w < 0 && rotation_stem(path)) {
			char *next = follow_next_file(path);

			free(next);
			if (next)
				return 0;
		}
		if (w < 0 && !said) {
			said = true;
			diagf(f->diag, DIAG_NOTE, path, -1,
			      "cannot tell when its writer is done (%s): followed until interrupted",
			      strerror(-w));
		}
		if (!idle_done && f->idle)
			f->idle(f->ctx);
		idle_done = true;
		nanosleep(&pause, NULL);	/* a signal ends it early */
	}
}
