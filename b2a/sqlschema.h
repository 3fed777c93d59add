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

#endif
