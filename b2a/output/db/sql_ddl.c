// SPDX-License-Identifier: GPL-2.0
/*
 * sql_ddl.c - the databases' DDL (sql.h): the fixed tables, each event's
 * table, its indexes and views, the partitions of PostgreSQL, written
 * once for both dialects.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/db/sql.h"
/* A growing SQL text; NULL once memory ran out. */
struct sqltext {
	char *s;
	size_t len, cap;
	bool failed;
};

static void cat(struct sqltext *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void cat(struct sqltext *t, const char *fmt, ...)
{
	va_list ap;
	char *bigger;
	int n;

	if (t->failed)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0,
		      fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->failed = true;
		return;
	}
	if (!t->s || t->len + (size_t)n >= t->cap) {
		t->cap = 2 * (t->len + (size_t)n + 256);
		bigger = realloc(t->s, t->cap);
		if (!bigger) {
			t->failed = true;
			return;
		}
		t->s = bigger;
		va_start(ap, fmt);
		vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
	}
	t->len += (size_t)n;
}

static void cat_ident(struct sqltext *t, const char *name)
{
	char q[2 * SQL_NAME_MAX + 3];

	sql_ident(q, name);
	cat(t, "%s", q);
}

static char *text_done(struct sqltext *t)
{
	if (t->failed) {
		free(t->s);
		return NULL;
	}
	return t->s;
}

/* The type of a fixed column, in the dialect's words. */
enum col_type {
	COL_TIME, COL_I64, COL_INT, COL_TEXT, COL_BYTES, COL_BOOL,
	COL_HOST,	/* the host label: TEXT NOT NULL */
	COL_KEY,	/* TEXT PRIMARY KEY */
};

struct fixed_col {
	const char *name;
	enum col_type type;
};

/* The columns every event table starts with. */
static const struct fixed_col common[SQL_COMMON] = {
	{ "host", COL_HOST }, { "time", COL_TIME }, { "cpu", COL_INT },
	{ "tid", COL_I64 }, { "pid", COL_INT }, { "comm", COL_TEXT },
};
static const struct fixed_col host_col = { "host", COL_HOST };

/* An index: its name's suffix (after the table's), its columns. */
struct index {
	const char *suffix, *cols;
};

/* Every event table's */
static const struct index event_indexes[] = {
	{ "_time", "time" }, { "_tid_time", "tid, time" },
};

struct fixed_table {
	const char *name;
	bool common;		/* the common columns first (host too) */
	bool host;		/* a host column first: partitioned */
	unsigned int ncols;	/* then these */
	struct fixed_col cols[15];
	struct index index;	/* .cols NULL: none */
};

static const struct fixed_table fixed_tables[SQL_NFIXED] = {
	[SQL_TRACE] = { "trace", false, false, 15, {
		{ "host", COL_KEY }, { "hostname", COL_TEXT },
		{ "machine", COL_TEXT }, { "kernel", COL_TEXT },
		{ "header", COL_BOOL }, { "clock", COL_TEXT },
		{ "wall_offset", COL_I64 }, { "clock_offset", COL_I64 },
		{ "clock_uncertainty", COL_I64 },
		{ "first_time", COL_I64 }, { "last_time", COL_I64 },
		{ "events", COL_I64 }, { "lost", COL_I64 },
		{ "files", COL_TEXT }, { "load_ns", COL_I64 } }, { NULL, NULL } },
	[SQL_EVENT_TABLES] = { "event_tables", false, false, 2, {
		{ "name", COL_KEY }, { "event", COL_TEXT } }, { NULL, NULL } },
	[SQL_PROCESSES] = { "processes", false, true, 6, {
		{ "time", COL_I64 }, { "tid", COL_I64 }, { "pid", COL_INT },
		{ "ppid", COL_INT }, { "comm", COL_TEXT },
		{ "event", COL_TEXT } }, { "_tid", "tid, time" } },
	[SQL_LOST] = { "lost", false, true, 6, {
		{ "time", COL_I64 }, { "until", COL_I64 },
		{ "count", COL_I64 }, { "first_seq", COL_I64 },
		{ "last_seq", COL_I64 }, { "cpu", COL_INT } }, { NULL, NULL } },
	[SQL_UNKNOWN] = { "unknown_events", true, true, 4, {
		{ "grp", COL_INT }, { "hook", COL_INT }, { "name", COL_TEXT },
		{ "raw", COL_BYTES } }, { "_time", "time" } },
	[SQL_OTHER] = { "other_events", true, true, 4, {
		{ "event", COL_TEXT }, { "grp", COL_INT },
		{ "hook", COL_INT }, { "fields", COL_TEXT } },
		{ "_time", "time" } },
	[SQL_LATENCY] = { "latency", false, true, 15, {
		{ "scope", COL_TEXT }, { "what", COL_TEXT },
		{ "pid", COL_INT }, { "tid", COL_INT }, { "comm", COL_TEXT },
		{ "count", COL_I64 }, { "total_ns", COL_I64 },
		{ "min_ns", COL_I64 }, { "mean_ns", COL_I64 },
		{ "p50_ns", COL_I64 }, { "p90_ns", COL_I64 },
		{ "p99_ns", COL_I64 }, { "max_ns", COL_I64 },
		{ "unmatched_begin", COL_I64 },
		{ "unmatched_end", COL_I64 } }, { NULL, NULL } },
	[SQL_HISTOGRAM] = { "latency_histogram", false, true, 6, {
		{ "scope", COL_TEXT }, { "what", COL_TEXT },
		{ "pid", COL_INT }, { "tid", COL_INT }, { "bucket_ns", COL_I64 },
		{ "count", COL_I64 } }, { NULL, NULL } },
	[SQL_STACKS] = { "stacks", false, true, 4, {
		{ "id", COL_I64 }, { "depth", COL_INT },
		{ "frames", COL_TEXT }, { "addrs", COL_TEXT } }, { NULL, NULL } },
};

void sql_fixed_table(struct sql_table *t, int fixed)
{
	const struct fixed_table *ft = &fixed_tables[fixed];

	strcpy(t->name, ft->name);
	t->fixed = fixed;
	t->host = ft->host;
	t->nvalues = ft->ncols;
	if (ft->common)
		t->nvalues += SQL_COMMON;
	else if (ft->host)
		t->nvalues++;
}

/* The indexes of t (idx: room for 2); how many. */
static unsigned int table_indexes(const struct sql_table *t,
				  const struct index **idx)
{
	if (t->fixed < 0) {
		*idx = event_indexes;
		return 2;
	}
	*idx = &fixed_tables[t->fixed].index;
	return (*idx)->cols ? 1 : 0;
}

static const char *col_type_name(const struct sql_dialect *d,
				 enum col_type type)
{
	switch (type) {
	case COL_INT:
		return "INTEGER";
	case COL_TEXT:
		return "TEXT";
	case COL_HOST:
		return "TEXT NOT NULL";
	case COL_KEY:
		return "TEXT PRIMARY KEY";
	case COL_BYTES:
		return d->bytes;
	case COL_BOOL:
		return d->boolean;
	default:
		return d->int64;
	}
}

static void cat_column(struct sqltext *t, const struct sql_dialect *d,
		       const struct fixed_col *c)
{
	cat(t, "%s %s%s", c->name, col_type_name(d, c->type),
	    c->type == COL_TIME ? " NOT NULL" : "");
}

static void cat_common(struct sqltext *t, const struct sql_dialect *d)
{
	unsigned int i;

	for (i = 0; i < SQL_COMMON; i++) {
		cat(t, i ? ", " : "");
		cat_column(t, d, &common[i]);
	}
}

/* CREATE INDEX "table_suffix" ON "table"(columns); */
static void cat_index(struct sqltext *q, const char *table,
		      const struct index *idx)
{
	char name[SQL_NAME_MAX + 16];

	snprintf(name, sizeof(name), "%s%s", table, idx->suffix);
	cat(q, "CREATE INDEX ");
	cat_ident(q, name);
	cat(q, " ON ");
	cat_ident(q, table);
	cat(q, "(%s);", idx->cols);
}

/* CREATE TABLE of fixed tables first to last */
static void cat_fixed(struct sqltext *t, const struct sql_dialect *d,
		      enum sql_fixed first, enum sql_fixed last)
{
	const struct fixed_table *ft;
	unsigned int i;
	int k;

	for (k = first; k <= (int)last; k++) {
		ft = &fixed_tables[k];
		cat(t, "CREATE TABLE %s (", ft->name);
		if (ft->common)
			cat_common(t, d);
		else if (ft->host)
			cat_column(t, d, &host_col);
		for (i = 0; i < ft->ncols; i++) {
			cat(t, i || ft->host ? ", " : "");
			cat_column(t, d, &ft->cols[i]);
		}
		cat(t, ")%s;", d->partitioned && ft->host ?
		    " PARTITION BY LIST (host)" : "");
		if (d->partitioned && ft->index.cols)
			cat_index(t, ft->name, &ft->index);
	}
}

char *sql_create_base(const struct sql_schema *s)
{
	struct sqltext t = { 0 };

	cat_fixed(&t, s->dialect, SQL_TRACE, SQL_OTHER);
	return text_done(&t);
}

char *sql_create_report(const struct sql_schema *s)
{
	struct sqltext t = { 0 };

	cat_fixed(&t, s->dialect, SQL_LATENCY, SQL_HISTOGRAM);
	cat(&t, "CREATE VIEW latency_by_event AS SELECT host, what, count, total_ns, min_ns, mean_ns, p50_ns, p90_ns, p99_ns, max_ns, unmatched_begin, unmatched_end FROM latency WHERE scope = 'event';"
	    "CREATE VIEW latency_by_process AS SELECT host, what, pid, comm, count, total_ns, min_ns, mean_ns, p50_ns, p90_ns, p99_ns, max_ns FROM latency WHERE scope = 'process';"
	    "CREATE VIEW latency_by_thread AS SELECT host, what, tid, pid, comm, count, total_ns, min_ns, mean_ns, p50_ns, p90_ns, p99_ns, max_ns FROM latency WHERE scope = 'thread'");
	return text_done(&t);
}

char *sql_create_stacks(const struct sql_schema *s)
{
	struct sqltext t = { 0 };

	cat_fixed(&t, s->dialect, SQL_STACKS, SQL_STACKS);
	return text_done(&t);
}

/* 'text' as an SQL literal */
static void cat_literal(struct sqltext *q, const char *text)
{
	char *lit = malloc(2 * strlen(text) + 3);

	if (!lit) {
		q->failed = true;
		return;
	}
	sql_literal(lit, text);
	cat(q, "%s", lit);
	free(lit);
}

/* t's hex-shown fields as lket.out shows them: the view NAME_hex. */
static void cat_hex_view(struct sqltext *q, const struct sql_schema *s,
			 const struct sql_table *t)
{
	char name[SQL_NAME_MAX + 16];
	unsigned int c;

	snprintf(name, sizeof(name), "%s_hex", t->name);
	cat(q, "CREATE VIEW ");
	cat_ident(q, name);
	cat(q, " AS SELECT host, time, cpu, tid, pid, comm");
	for (c = 0; c < t->ncols; c++) {
		cat(q, ", ");
		if (t->kind[c] == SQL_HEX) {
			cat(q, "CASE WHEN ");
			cat_ident(q, t->cols[c]);
			cat(q, " IS NOT NULL THEN %s", s->dialect->hex_pre);
			cat_ident(q, t->cols[c]);
			cat(q, "%s END AS ", s->dialect->hex_post);
		}
		cat_ident(q, t->cols[c]);
	}
	cat(q, ", raw FROM ");
	cat_ident(q, t->name);
	cat(q, ";");
}

char *sql_create_table(const struct sql_schema *s, const struct sql_table *t)
{
	const struct index *idx;
	struct sqltext q = { 0 };
	unsigned int i, n;

	cat(&q, "CREATE TABLE ");
	cat_ident(&q, t->name);
	cat(&q, " (");
	cat_common(&q, s->dialect);
	for (i = 0; i < t->ncols; i++) {
		cat(&q, ", ");
		cat_ident(&q, t->cols[i]);
		cat(&q, " %s", t->kind[i] == SQL_TEXT ? "TEXT" :
		    s->dialect->int64);
	}
	cat(&q, ", raw %s)%s;", s->dialect->bytes,
	    s->dialect->partitioned ? " PARTITION BY LIST (host)" : "");
	n = s->dialect->partitioned ? table_indexes(t, &idx) : 0;
	for (i = 0; i < n; i++)
		cat_index(&q, t->name, &idx[i]);
	if (t->has_hex)
		cat_hex_view(&q, s, t);
	cat(&q, "INSERT INTO event_tables VALUES (");
	cat_literal(&q, t->name);
	cat(&q, ", ");
	cat_literal(&q, t->event);
	cat(&q, ")");
	return text_done(&q);
}

char *sql_create_events_view(size_t n, const char *const *names,
			     const char *const *events)
{
	struct sqltext q = { 0 };
	size_t i;

	cat(&q, "DROP VIEW IF EXISTS events; CREATE VIEW events AS ");
	for (i = 0; i < n; i++) {
		cat(&q, "SELECT host, time, cpu, tid, pid, comm, CAST(");
		cat_literal(&q, events[i]);
		cat(&q, " AS TEXT) AS event FROM ");
		cat_ident(&q, names[i]);
		cat(&q, " UNION ALL ");
	}
	cat(&q, "SELECT host, time, cpu, tid, pid, comm, coalesce(name, 'unknown') FROM unknown_events UNION ALL "
	    "SELECT host, time, cpu, tid, pid, comm, event FROM other_events UNION ALL "
	    "SELECT host, time, cpu, NULL, NULL, NULL, CASE WHEN first_seq IS NULL THEN 'lket.dropped' ELSE 'lket.lost' END FROM lost;");
	return text_done(&q);
}

char *sql_create_end(const struct sql_schema *s)
{
	const char **names = calloc(s->ntables + 1, sizeof(*names));
	const char **events = calloc(s->ntables + 1, sizeof(*events));
	struct sqltext q = { 0 };
	const struct index *idx;
	unsigned int k, n;
	char *view = NULL;
	size_t i;

	for (i = 0; names && events && i < s->ntables; i++) {
		names[i] = s->tables[i]->name;
		events[i] = s->tables[i]->event;
	}
	if (names && events)
		view = sql_create_events_view(s->ntables, names, events);
	free(names);
	free(events);
	if (!view)
		return NULL;
	cat(&q, "%s", view);
	free(view);
	if (s->dialect->partitioned)
		return text_done(&q);
	/*
	 * After the load, which they would slow down: time for ranges, (tid,
	 * time) for what a thread did next (the entry/return pairing of
	 * lket-b2a(1)'s examples).
	 */
	for (k = SQL_PROCESSES; k <= SQL_OTHER; k++)
		if (fixed_tables[k].index.cols)
			cat_index(&q, fixed_tables[k].name,
				  &fixed_tables[k].index);
	for (i = 0; i < s->ntables; i++) {
		n = table_indexes(s->tables[i], &idx);
		for (k = 0; k < n; k++)
			cat_index(&q, s->tables[i]->name, &idx[k]);
	}
	return text_done(&q);
}

char *sql_create_part(const struct sql_table *t, const char *part,
		      const char *host)
{
	struct sqltext q = { 0 };

	/* the check spares the attach a scan of the rows */
	cat(&q, "CREATE TABLE ");
	cat_ident(&q, part);
	cat(&q, " (LIKE ");
	cat_ident(&q, t->name);
	cat(&q, ", CHECK (host = ");
	cat_literal(&q, host);
	cat(&q, "))");
	return text_done(&q);
}

char *sql_attach(const struct sql_table *t, const char *part,
		 const char *host)
{
	const struct index *idx;
	struct sqltext q = { 0 };
	unsigned int i, n = table_indexes(t, &idx);

	/* indexes like the parent's: the attach takes them as its own */
	for (i = 0; i < n; i++) {
		cat(&q, "CREATE INDEX ON ");
		cat_ident(&q, part);
		cat(&q, "(%s);", idx[i].cols);
	}
	cat(&q, "ALTER TABLE ");
	cat_ident(&q, t->name);
	cat(&q, " ATTACH PARTITION ");
	cat_ident(&q, part);
	cat(&q, " FOR VALUES IN (");
	cat_literal(&q, host);
	cat(&q, ")");
	return text_done(&q);
}
