/* SPDX-License-Identifier: GPL-2.0 */
/*
 * follow.h - read a trace while its tracer writes it (lket-b2a --follow).
 *
 * A per-CPU file at its end is not done while its writer (stapio) has it
 * open: the reader waits for it to grow, and goes on.  A file is done when
 * no one has it open for writing any more (a read lease can be taken on
 * it), or when the user has stopped following (SIGINT or SIGTERM): then
 * what it holds is read to its end, and the conversion ends as a
 * conversion of a finished trace does.  A rotated trace's file (NAME_N.K)
 * is done, too, when the next file of its CPU exists (lket-rotate makes
 * it before it closes this one), and its CPU's records go on there
 * (follow_next_file()).  Before it waits, the reader has what was
 * converted so far written out (idle), so that the lines of a live trace
 * appear as its records do.  The merge by time waits only for files that
 * may still hold an earlier record: the tracer's beacons (lket(5), LIVE
 * TRACES) keep a quiet CPU's file from holding it back.
 */
#ifndef LKET_FOLLOW_H
#define LKET_FOLLOW_H

#include <stdbool.h>
#include <stdint.h>

#include "util/diag.h"

struct follow {
	/* called before the reader sleeps; NULL: nothing to do */
	void (*idle)(void *ctx);
	void *ctx;
	unsigned int interval_ms;	/* between looks at a file */
	struct diag *diag;
};

#define FOLLOW_INTERVAL_MS	20

/*
 * From now on, the first SIGINT or SIGTERM stops following, and only
 * that: the handlers there were before (util/tmpfile.h's) take the next.
 */
int follow_catch_stop(void);
/* Has the user stopped following? */
bool follow_stopped(void);

/*
 * A rotated trace's file (NAME_N.K, input/tracename.h) goes on in the
 * next file of its CPU: the lowest NAME_N.J, J > K, in its folder
 * (J > K + 1 when the rotation deleted those between before they were
 * read).  Returns it (malloc'd), or NULL: none yet, or path is not a
 * rotated file's.
 */
char *follow_next_file(const char *path);

/*
 * fd, path's, has been read to its end, size bytes: 1 it has grown, read
 * on; 0 it is done (its writer closed it, the user stopped following, or
 * it was cut shorter than that, which is said), read what is left and end
 * there.  Waits until one or the other.
 */
int follow_wait(struct follow *f, int fd, const char *path, uint64_t size);

#endif
