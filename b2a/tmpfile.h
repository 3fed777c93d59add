/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tmpfile.h - an output file written under a temporary name beside it,
 * PATH.tmp-XXXXXX, and renamed over PATH only when the conversion
 * succeeded: a conversion that fails, or is interrupted, leaves what was
 * at PATH as it was, and no temporary file.
 *
 * A PATH that exists and is not a regular file (a terminal, /dev/null, a
 * pipe) is written in place: there is nothing there to keep.
 */
#ifndef LKET_TMPFILE_H
#define LKET_TMPFILE_H

#include <stdbool.h>
#include <sys/types.h>

struct tmpfile {
	char *target;	/* what is renamed over: PATH, or where it links to */
	char *tmp;	/* the temporary name; NULL when written in place */
	int fd;		/* to write to; -1 once closed */
};

/* mode less the umask: what a file or folder made now gets */
mode_t tmpfile_new_mode(mode_t mode);
/*
 * Open t for writing PATH.  A new file gets mode 0644 less the umask, a
 * replaced one keeps its mode; a symbolic link stays, its file is
 * replaced.
 */
int tmpfile_open(struct tmpfile *t, const char *path);
/*
 * Close t and put it at PATH.  replace false: link, so that a PATH that
 * appeared meanwhile is kept (-EEXIST).  The temporary file is gone
 * afterwards, whatever the result.
 */
int tmpfile_commit(struct tmpfile *t, bool replace);
/* Close t and remove the temporary file; a closed or zeroed t is fine. */
void tmpfile_discard(struct tmpfile *t);
/*
 * From now on, SIGINT, SIGTERM and SIGHUP remove every open temporary
 * file before they end the process (those ignored stay ignored).
 */
int tmpfile_catch_signals(void);

#endif
