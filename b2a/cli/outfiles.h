/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfiles.h - what a run writes, from the command line: each file under
 * a temporary name (util/tmpfile.h) put in place only if all went well,
 * refused first if it would destroy an input or another output
 * (cli/clash.h), and the registry's outputs made on them, as one.
 */
#ifndef LKET_OUTFILES_H
#define LKET_OUTFILES_H

#include <stdbool.h>

#include "cli/inputs.h"
#include "cli/options.h"
#include "util/tmpfile.h"

struct outfile {
	char option[40];	/* how messages name it: -d, --report */
	const char *path;	/* NULL: not written; "-": standard output */
	int decl;		/* its output in the registry; -1: a report */
	bool keep;		/* an existing one stays unless --replace */
	bool folder;		/* the output makes it: no tmpfile here */
	struct tmpfile t;
};

/* In the order they are checked and put in place: a database (which
 * alone may refuse when it is put in place) first, folders last. */
struct outfiles {
	struct outfile f[OUTPUTS_MAX + 5];
	size_t n;
	int report, rpc;	/* --report's and --rpc-report's */
	int offcpu, offcpu_folded;	/* --offcpu's, --offcpu-folded's */
	int critpath;			/* --critical-path's */
};

/*
 * The files of o, refused if one clashes (*refused; messages said why),
 * else each open beside its target.  *what: the one that failed.
 */
int outfiles_open(struct outfiles *fs, const struct options *o,
		  const struct inputs *in, const char **what, bool *refused);
/* Where the file i (an index of fs->f, or -1: none) is written. */
int outfiles_fd(const struct outfiles *fs, int i);
/* Every output o asks for, made on its file, as one (a tee of several);
 * *what: the one that failed, NULL when several are made. */
int outfiles_outputs(const struct outfiles *fs, const struct options *o,
		     struct output **out, const char **what);
/* Put every file in place; *what: the one that failed. */
int outfiles_commit(struct outfiles *fs, bool replace, const char **what);
/* Remove what was not put in place. */
void outfiles_discard(struct outfiles *fs);

#endif
