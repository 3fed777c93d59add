/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sql.h - the one SQL layer of both database outputs (SQLite and
 * PostgreSQL): the schema, its names, the rows and how values are stored;
 * what differs between the two is data (struct sql_dialect), and each
 * database is only a sink of rows (struct sql_sink_ops).
 *
 * One table per event, named after it, with the common columns, then a
 * column per field of the trace's metadata, then raw:
 *
 *   syscall_entry(host, time, cpu, tid, pid, comm, syscall_name, raw)
 *
 * host is the label of the event's host: several hosts' traces share the
 * tables, and trace has a row per host.  PostgreSQL partitions every
 * table with a host column by it (the dialect's partitioned): a host is a
 * partition of each, loaded as a table of its own and attached at the end
 * (sql_create_part(), sql_attach()), so that loads of several hosts run
 * at once and dropping a host is dropping its partitions.
 *
 * A field whose name is taken (by a common column or an earlier field)
 * becomes f_NAME, then f_NAME_2, ...: process_snapshot(time, cpu, tid,
 * pid, comm, f_tid, f_pid, ppid, process_name, raw).  A table whose name
 * is taken (by the fixed tables, by SQLite or PostgreSQL, by an earlier
 * event) gets the event's IDs, NAME_GROUP_HOOK.  Events without metadata
 * go to unknown_events(time, cpu, tid, pid, comm, grp, hook, name, raw);
 * those of events past the SQL_MAX_TABLES-th to other_events(time, cpu,
 * tid, pid, comm, event, grp, hook, fields).  Renames and other_events are
 * noted through diag, once each.
 *
 * A call stack (an ADDRS field) is a row of stacks(id, depth, frames,
 * addrs), made with the first event that has one: each distinct stack
 * once, its frames as lket.out shows them ("[ksys_write+0x5, ...]") and
 * its addresses in hex; the event's column holds the stack's id.
 */
#ifndef LKET_SQL_H
#define LKET_SQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"
#include "decode/meta.h"
#include "output/output.h"
#include "util/diag.h"

/* PostgreSQL keeps 63 bytes of a name: every name fits, in both. */
#define SQL_NAME_MAX	64
#define SQL_COMMON	6	/* host time cpu tid pid comm */
/* Hosts of one output at most */
#define SQL_MAX_HOSTS	64
/*
 * Event tables at most: SQLite's events view is one compound SELECT (500
 * terms at most), and PostgreSQL locks every table, index and view it
 * creates until the one COMMIT (64 per connection by default).
 */
#define SQL_MAX_TABLES	400

/* What differs between the databases' SQL. */
struct sql_dialect {
	const char *int64;	/* "INTEGER" (SQLite), "BIGINT" */
	const char *bytes;	/* "BLOB" (SQLite), "BYTEA" */
	const char *boolean;	/* "INTEGER" (SQLite), "BOOLEAN" */
	const char *hex_pre, *hex_post;	/* around a column: its '0x...' */
	/* tables with a host column partitioned by it; their indexes made
	 * with them (else after the load) */
	bool partitioned;
};

enum sql_kind { SQL_INT, SQL_HEX, SQL_TEXT };

struct sql_table {
	char name[SQL_NAME_MAX];
	const char *event;	/* the event's name; NULL: a fixed table */
	int fixed;		/* enum sql_fixed; -1: an event's table */
	bool host;		/* a host column first (partitioned by it) */
	unsigned int ncols;	/* field columns: sys, then user */
	char (*cols)[SQL_NAME_MAX];
	uint8_t *kind;		/* enum sql_kind of each */
	bool has_hex;
	unsigned int nvalues;	/* in each row: every column */
	void *sink;		/* the sink's own: a statement, a buffer */
};

/* The names given out in one database, and its event tables. */
struct sql_schema {
	const struct sql_dialect *dialect;
	struct diag *diag;	/* notes of renames; may be NULL */
	const char *label;	/* the database, for the notes */
	char (*names)[SQL_NAME_MAX];
	size_t nnames, cap;
	struct sql_table **tables;
	size_t ntables;
	bool full_noted;
};

void sql_schema_init(struct sql_schema *s, const struct sql_dialect *dialect,
		     struct diag *diag, const char *label);
/* Frees the names; the tables are the caller's (sql_table_free()). */
void sql_schema_free(struct sql_schema *s);

/* The fixed tables (trace, event_tables, processes, lost,
 * unknown_events, other_events): SQL text, to free. */
char *sql_create_base(const struct sql_schema *s);
/* The latency report's tables and views: SQL text, to free. */
char *sql_create_report(const struct sql_schema *s);
/* The stacks table: SQL text, to free. */
char *sql_create_stacks(const struct sql_schema *s);

/*
 * Work out the table of event (group, hook) with metadata m and add it to
 * s.  Returns 0; 1 when s has SQL_MAX_TABLES already (the event goes to
 * other_events); -ENOMEM.
 */
int sql_table_init(struct sql_schema *s, struct sql_table *t,
		   const struct event_meta *m, unsigned int group,
		   unsigned int hook);
void sql_table_free(struct sql_table *t);
/* t as the fixed table SQL_TRACE, SQL_PROCESSES...: its name and width. */
void sql_fixed_table(struct sql_table *t, int fixed);
/* "CREATE TABLE ..." of t, its NAME_hex view, its row of event_tables
 * (and, partitioned, its indexes): SQL text, to free. */
char *sql_create_table(const struct sql_schema *s, const struct sql_table *t);
/* After the load: the events view (and, not partitioned, the indexes). */
char *sql_create_end(const struct sql_schema *s);
/* The events view of the n event tables names[i] of events[i]. */
char *sql_create_events_view(size_t n, const char *const *names,
			     const char *const *events);
/*
 * Partitioned: host's rows of t go to a table part made like t with
 * sql_create_part(), then given t's indexes and attached to t as host's
 * partition with sql_attach().  SQL text, to free.
 */
char *sql_create_part(const struct sql_table *t, const char *part,
		      const char *host);
char *sql_attach(const struct sql_table *t, const char *part,
		 const char *host);

/* 'text' with quotes doubled: a literal; needs 2 * len + 3 bytes. */
char *sql_literal(char *p, const char *text);

/* "name" with quotes doubled, for SQL text; needs 2 * len + 3 bytes. */
char *sql_ident(char *p, const char *name);

/*
 * A field's integer as both databases store it: the value lket.out
 * shows, as a signed 64-bit integer, so a hex-shown field is unsigned at
 * its width and one of 2^63 or more (a kernel address) is its two's
 * complement, value - 2^64: the same 64 bits.  NAME_hex views show them
 * as lket.out does.
 */
static inline int64_t sql_int(const struct value *v)
{
	return v->f->hex ? (int64_t)value_unsigned(v) : v->i;
}

/* The column of t that value i of ev goes to; t->ncols if none. */
static inline unsigned int sql_column(const struct sql_table *t,
				      const struct event *ev, unsigned int i)
{
	unsigned int col = i < ev->nsys ? i : ev->meta->sys.n + (i - ev->nsys);

	return col < t->ncols ? col : t->ncols;
}

/* One value of a row. */
enum sql_value_type {
	SQL_NULL,
	SQL_INTEGER,
	SQL_STRING,	/* bytes, held as fmt_utf8_escaped() writes them */
	SQL_HELD,	/* text already so held, lines apart by '\n' */
	SQL_BLOB,
};

struct sql_value {
	enum sql_value_type type;
	int64_t i;
	const void *p;
	size_t len;
};

/*
 * A database as a sink of rows: SQLite binds them to a statement per
 * table, PostgreSQL gathers them for COPY.  Each returns 0 or a negative
 * errno, after sql_fail() has said what the database said.
 */
struct sql_output;
struct sql_sink_ops {
	/* Open the database, start the transaction (the output's begin). */
	int (*open)(struct sql_output *so);
	int (*exec)(struct sql_output *so, const char *sql);
	/*
	 * The schema's tables and views that loads share: made unless the
	 * table named exists (another load made them).  PostgreSQL commits
	 * them at once, so that loads of other hosts see them.
	 */
	int (*define)(struct sql_output *so, const char *sql,
		      const char *exists);
	/* Optional: the rows of host h (so->hosts[h]) come next. */
	int (*open_host)(struct sql_output *so, unsigned int h);
	/* Optional: t exists, rows come next (t->sink is the sink's). */
	int (*open_table)(struct sql_output *so, struct sql_table *t);
	/* t->nvalues values, of host h */
	int (*row)(struct sql_output *so, struct sql_table *t,
		   unsigned int h, const struct sql_value *v);
	/* Optional: send what is held back, before the indexes. */
	int (*flush)(struct sql_output *so);
	/* The end: what is left sent, the transaction committed. */
	int (*commit)(struct sql_output *so);
	/* The sink's own state; the tables' sink pointers included. */
	void (*free)(struct sql_output *so);
};

enum sql_fixed {
	SQL_TRACE, SQL_EVENT_TABLES, SQL_PROCESSES, SQL_LOST, SQL_UNKNOWN,
	SQL_OTHER, SQL_LATENCY, SQL_HISTOGRAM, SQL_STACKS, SQL_NFIXED,
};

/* A host of the output, and what came of it. */
struct sql_host {
	const char *label;
	const struct trace_host *trace;	/* several hosts: its own */
	uint64_t events, lost;
	uint64_t first_ts, last_ts;	/* of the events written */
};

/*
 * What both database outputs are: each embeds this first in its own
 * state and gives its sink; the output's ops are sql_output_ops.  The
 * scratch holds the text of SQL_HELD values of the row being written.
 */
struct sql_output {
	struct output o;
	const struct sql_sink_ops *sink;
	struct sql_schema schema;
	const struct trace_info *trace;
	const char *name;	/* the database, in error messages */
	const char *host_opt;	/* one trace: its label; NULL: hostname */
	char host_label[72];	/* one trace: the label it got */
	struct sql_host hosts[SQL_MAX_HOSTS];
	unsigned int nhosts;
	uint64_t begin_ns;	/* CLOCK_MONOTONIC at begin: the load's time */
	struct sql_table fixed[SQL_NFIXED];
	struct sql_table **by_id;	/* group << 8 | hook */
	struct sql_value *row;		/* room for the widest row */
	unsigned int row_cap;
	char *scratch;		/* text a row holds: fields, files */
	size_t scratch_size;
	/* the call stacks written to the stacks table, by their addresses */
	struct sql_stack *stacks;	/* open addressing; NULL: none yet */
	size_t stacks_size, nstacks;
	char *stack_text;		/* a stacks row's text */
	size_t stack_text_size;
	char *error;		/* what the database said, whole; NULL:
				   nothing */
};

extern const struct output_ops sql_output_ops;

/*
 * A database output of size bytes (the sink's state, sql_output first),
 * zeroed, for a database named name (in messages) whose notes go to diag.
 */
int sql_output_new(struct sql_output **so, size_t size,
		   const struct sql_sink_ops *sink,
		   const struct sql_dialect *dialect, struct diag *diag,
		   const char *name, const char *host);
/* Say what the database said (printf format) and return err. */
int sql_fail(struct sql_output *so, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Bytes a value needs to be held as a string: an SQL_STRING escaped
 * (fmt_utf8_escaped()), at most; other values are held as they are. */
static inline size_t sql_string_room(const struct sql_value *v)
{
	return v->type == SQL_STRING ? 5 * v->len : 0;
}

#endif
