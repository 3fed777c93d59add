/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tmpfile.h - an output file written under a temporary name beside it,
 * PATH.tmp-XXXXXX, and renamed over PATH only when the conversion
 * succeeded: a conversion that fails, or is interrupted, leaves what was
 * at PATH as it was, and no temporary file.
 *
 * A PATH that exists and is not a regular file (a terminal, /dev/null, a
 * pipe) is written in place: there is nothing there to keep.  A folder of
 * several files goes the same way (struct tmpdir).
 */
#ifndef LKET_TMPFILE_H
#define LKET_TMPFILE_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>

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
 * From now on, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU and
 * SIGXFSZ remove every temporary file and folder before they end the
 * process, of the same signal (those ignored stay ignored).
 */
int tmpfile_catch_signals(void);
/*
 * Hold those signals back, for steps that must not be cut in the middle
 * (a folder moved aside and another put in its place), and let them in.
 */
void tmpfile_hold_signals(sigset_t *old);
void tmpfile_release_signals(const sigset_t *old);

/*
 * A folder written under a temporary name beside it, PATH.tmp-XXXXXX,
 * and renamed to PATH when complete (lket-b2a --ctf).  Every file made in
 * it is named by tmpdir_file first, so that a signal can remove the
 * files, then the folder.
 */
struct tmpdir {
	char *path;	/* the temporary folder; NULL: none */
	char **files;	/* the paths of the files in it */
	size_t nfiles;
	char **dirs;	/* the paths of the folders in it, outer first */
	size_t ndirs;
};

/* Make the folder beside PATH, mode 0755. */
int tmpdir_make(struct tmpdir *d, const char *path);
/* Make the folder NAME in d (its parent made first), mode 0755. */
int tmpdir_subdir(struct tmpdir *d, const char *name);
/*
 * The path of the file NAME in d (the same each time for one NAME), in
 * *path, valid until d is committed or discarded; to be made after.
 */
int tmpdir_file(struct tmpdir *d, const char *name, const char **path);
/*
 * Rename d to PATH (missing, or an empty folder) and forget it; -errno
 * when rename() fails, d kept.
 */
int tmpdir_commit(struct tmpdir *d, const char *path);
/* Remove the files and the folder; a committed or zeroed d is fine. */
void tmpdir_discard(struct tmpdir *d);

#endif
