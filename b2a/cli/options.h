/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h - lket-b2a's command line: what it asks for, parsed with
 * getopt from the options of its own and those of every output in the
 * registry (output/registry.h).
 */
#ifndef LKET_OPTIONS_H
#define LKET_OPTIONS_H

#include <stdbool.h>

#include "analysis/filter.h"
#include "analysis/symbols.h"
#include "output/registry.h"

/* --timechart-procs: the default, and the most (the SVG's size bound
 * holds for any number; beyond this the lanes get too coarse) */
#define TIMECHART_PROCS		16
#define TIMECHART_PROCS_MAX	100

/* What the command line asks for. */
struct options {
	struct output_settings set;
	/* per registry entry, what its option names; NULL: not asked */
	const char *paths[OUTPUTS_MAX];
	struct filter filter;
	struct symbols_options symbols;
	bool no_symbols;
	bool quiet;		/* -q */
	bool follow;		/* --follow: the trace is still written */
	const char *report_path, *rpc_path;
	const char *offcpu_path, *offcpu_folded_path;
	int32_t critpath_tid;		/* --critical-path; 0: none */
	const char *critpath_path;	/* where it goes: "-" by default */
	char schema[64];	/* --pg without --schema: the trace's name */
};

/* Empty options, their defaults set; options_free() releases them. */
void options_init(struct options *o);
void options_free(struct options *o);
/*
 * The options, and what follows from them (default file names, which
 * output is written); argv[optind] on are the inputs.  diag is what the
 * outputs take their notes to.  -1 to go on, or the exit status (0 after
 * --help or --version).
 */
int options_parse(int argc, char **argv, struct options *o,
		  struct diag *diag);
/* Is registry entry i asked for? */
static inline bool options_want(const struct options *o, size_t i)
{
	return o->paths[i] != NULL;
}

#endif
