/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inputs.h - the files lket-b2a reads, from its arguments: files, prefixes
 * (PREFIX_N, PREFIXcpuN: input/tracename.h), folders and standard input,
 * each perhaps as LABEL=TRACE, one host of several.
 */
#ifndef LKET_INPUTS_H
#define LKET_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

#define LKET_MAX_HOSTS		64

struct options;

/* The files to read; with LABEL=TRACE arguments, whose host each is. */
struct inputs {
	char **paths;
	size_t n, cap;
	size_t *host_of;	/* per path: its host's index */
	char *labels[LKET_MAX_HOSTS];
	size_t nhosts;
};

/* A host label: letters, digits, '_', '-', '.', HOST_LABEL_MAX at most */
bool host_label_valid(const char *s, size_t n);
/* The arguments from argv[first] on as files; -1 to go on, or the exit
 * status. */
int inputs_collect(int argc, char **argv, int first, struct inputs *in);
/*
 * --follow started before its tracer: while an argument names no file
 * yet (a prefix), collect them again every 100 ms, then once more when
 * the first have come, for every CPU's.  Says so unless quiet.  -1 to go
 * on, or the exit status.
 */
int inputs_await(int argc, char **argv, int first, struct inputs *in,
		 bool quiet);
/*
 * What several hosts' traces cannot go into yet, refused; what their
 * outputs need to know (o->set.text.hosts).  -1 to go on, or the exit
 * status.
 */
int inputs_check_hosts(struct options *o, const struct inputs *in);
void inputs_free(struct inputs *in);

#endif
