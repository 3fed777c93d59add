/* SPDX-License-Identifier: GPL-2.0 */
/*
 * db.h - the database outputs' constructors: an SQLite file and a
 * PostgreSQL schema, both made by the one SQL layer (sql.h).
 */
#ifndef LKET_DB_H
#define LKET_DB_H

#include <stdbool.h>

#include "output/output.h"
#include "util/diag.h"

struct sqlite_options {
	const char *path;	/* the database asked for */
	const char *file;	/* where to write it: an empty file that the
				   caller puts at path when all went well */
	bool replace;		/* else an existing path is refused (-EEXIST) */
	const char *host;	/* one trace's host label; NULL: its hostname */
	struct diag *diag;	/* notes: renamed tables and columns */
};

/* SQLite database written to opt->file (a temporary file, tmpfile.h), for
 * opt->path: a failed conversion leaves no database behind.  Opened at
 * begin; the strings of opt must last as long as the output. */
int output_sqlite_new(struct output **o, const struct sqlite_options *opt);

struct pg_options {
	const char *conninfo;
	const char *schema;	/* created if missing, shared by hosts */
	bool replace;		/* a host loaded already: reloaded, else
				   -EEXIST */
	const char *host;	/* one trace's host label; NULL: its hostname */
	struct diag *diag;	/* notes: renamed tables and columns */
};

/* PostgreSQL: one transaction, COPY; nothing is left if it fails.
 * Connects at begin; the strings of opt must last as long as the output. */
int output_pg_new(struct output **o, const struct pg_options *opt);

#endif
