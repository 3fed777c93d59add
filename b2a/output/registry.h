/* SPDX-License-Identifier: GPL-2.0 */
/*
 * registry.h - every output lket-b2a can write, each declared once by its
 * own module (struct output_decl: its option, what it takes, its help and
 * its constructor) and listed in one table (registry.c).  The command
 * line, the usage, the clash checks and the tee are made by walking the
 * table: none of them names an output.
 */
#ifndef LKET_REGISTRY_H
#define LKET_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "output/output.h"
#include "util/diag.h"

/* What the command line says that several outputs share (cli/options.c). */
struct output_settings {
	struct text_options text;
	const char *format;	/* -f: text, json, csv or none */
	bool summary;		/* --stat */
	bool replace;		/* --replace: an existing target goes */
	const char *host;	/* --host: one trace's label; NULL: its own */
	const char *schema;	/* --schema, else the trace's name */
	unsigned int timechart_procs;
	struct diag *diag;	/* the outputs' notes */
};

enum output_target {
	OUTPUT_FILE,		/* written to a descriptor; "-": stdout */
	OUTPUT_DB_FILE,		/* a file the output opens by name: no
				   stdout, and an existing one is kept
				   unless --replace */
	OUTPUT_FOLDER,		/* made whole, put in place at the end */
	OUTPUT_SERVICE,		/* a connection string: nothing on disk */
};

/* What an output's constructor is given. */
struct output_args {
	const char *path;	/* as named: a file, folder or conninfo */
	int fd;			/* OUTPUT_FILE: where to write */
	const char *file;	/* OUTPUT_DB_FILE: the temporary to write */
	const struct output_settings *set;
};

struct output_decl {
	const char *option;	/* the long option: "db" is --db */
	char letter;		/* its short one; 0: none */
	const char *arg;	/* what it takes: FILE, DIR, CONNINFO */
	const char *help;	/* its lines in --help, with their options' */
	/* how messages name it when its path would not do (a connection
	 * string may hold a password); NULL: by its path */
	const char *label;
	enum output_target target;
	/* the output written when no other is asked for (-o lket.out) */
	bool fallback;
	bool one_host;		/* refuses several hosts' traces, for now */
	bool picture;		/* a whole document: not two on stdout */
	bool needs_report;	/* calls for the latency report (report op) */
	int (*create)(struct output **o, const struct output_args *a);
};

/* The registry's outputs at the most (registry.c checks it): the size of
 * the arrays that hold one thing per output. */
#define OUTPUTS_MAX	16

/* The table, in --help order, which is also the order of the tee. */
extern const struct output_decl *const output_registry[];
extern const size_t output_registry_size;

/* "-d" or "--ctf": how messages name it. */
const char *output_decl_name(const struct output_decl *d, char *buf,
			     size_t size);
/*
 * d's output, made from a; refused (-ENOSYS, nothing left) if it lacks
 * one of the ops every output must have: begin, event, lost, finish, free.
 */
int output_decl_create(const struct output_decl *d,
		       const struct output_args *a, struct output **o);
/* Has o every op the converter calls unconditionally? */
bool output_ops_complete(const struct output_ops *ops);

#endif
