/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clash.h - outputs that would destroy an input or another output, found
 * before anything is written: an output that is an input file (the same
 * device and inode, whatever the names and links), a folder output
 * (--ctf DIR, replaced whole) that holds an input at any depth, or an
 * output that is the same file as another.
 */
#ifndef LKET_CLASH_H
#define LKET_CLASH_H

#include <stddef.h>

/* An output as the command line names it. */
struct clash_out {
	const char *option;	/* -o, --ctf, ... */
	const char *path;	/* NULL: not written; "-": standard output */
};

enum clash_kind {
	CLASH_NONE,
	CLASH_INPUT,		/* the output is input file with */
	CLASH_HOLDS_INPUT,	/* the output, a folder, holds input with */
	CLASH_OUTPUT,		/* the same file as output with */
};

struct clash {
	enum clash_kind kind;
	size_t out;		/* the output that clashes */
	size_t with;		/* the input's or the other output's index */
};

/*
 * The first clash of outs with the inputs (files; "-" is standard input,
 * the file it comes from) or with each other, in c.  An output that is
 * not a regular file nor a folder (a terminal, /dev/null, a pipe) loses
 * nothing by being written: it clashes with nothing.
 */
void clash_find(const struct clash_out *outs, size_t nouts,
		char *const *inputs, size_t ninputs, struct clash *c);

#endif
