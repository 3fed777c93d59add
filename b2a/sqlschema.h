/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sqlschema.h - the database schema both database outputs (SQLite and
 * PostgreSQL) share: one table per event, named after it, with the common
 * columns, then a column per field of the trace's metadata, then raw.
 *
 *   syscall_entry(time, cpu, tid, pid, comm, syscall_name, raw)
 *
 * A field whose name is taken (by a common column or an earlier field)
 * becomes f_NAME: process_snapshot(time, cpu, tid, pid, comm, f_tid,
 * f_pid, ppid, process_name, raw).  Events without metadata go to
 * unknown_events(time, cpu, tid, pid, comm, grp, hook, name, raw).
 */
#ifndef LKET_SQLSCHEMA_H
#define LKET_SQLSCHEMA_H

#include <stddef.h>

#include "meta.h"

#define SQL_NAME_MAX	128
#define SQL_COMMON	5	/* time cpu tid pid comm */

struct sql_table {
	char name[SQL_NAME_MAX];
	unsigned int ncols;	/* field columns: sys, then user */
	char (*cols)[SQL_NAME_MAX];
};

/* Work out the table of an event with metadata m.  -ENOMEM. */
int sql_table_init(struct sql_table *t, const struct event_meta *m);
void sql_table_free(struct sql_table *t);

/* "name" with quotes doubled, for SQL text; needs 2 * len + 3 bytes. */
char *sql_ident(char *p, const char *name);

/*
 * A second event whose table got the same name as an earlier one's: the
 * name gets the event's IDs, "_GROUP_HOOK".
 */
void sql_table_rename(struct sql_table *t, unsigned int group,
		      unsigned int hook);

/* The column types of a database: 64-bit integers, and bytes. */
struct sql_types {
	const char *int64;	/* "INTEGER" (SQLite), "BIGINT" */
	const char *bytes;	/* "BLOB" (SQLite), "BYTEA" */
};

/* Bytes enough for a statement naming t and each of its columns. */
size_t sql_text_size(const struct sql_table *t);

/* "CREATE TABLE ..." of t (for an event with metadata m) at p. */
char *sql_create_table(char *p, const struct sql_table *t,
		       const struct event_meta *m, const struct sql_types *ty);

#endif
