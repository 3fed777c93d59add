// SPDX-License-Identifier: GPL-2.0
/*
 * sql.c - the databases' one SQL layer (sql.h): names, DDL and rows,
 * written once for SQLite and PostgreSQL, which differ only in their
 * dialect's facts and in how they take rows (their sinks).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/report.h"
#include "output/db/sql.h"
#include "output/line/outfmt.h"
#include "runtime/lket_format.h"
#include "util/outbuf.h"

/*
 * Column names no field may take: the common columns, and the system
 * columns of PostgreSQL (a clash is an error) and SQLite (one hides it).
 */
static const char *const common_cols[] = {
	"host", "time", "cpu", "tid", "pid", "comm", "raw",
};
static const char *const system_cols[] = {
	"tableoid", "xmin", "cmin", "xmax", "cmax", "ctid", "oid", "rowid",
	"_rowid_",
};

/* Names of the fixed tables, views and indexes. */
static const char *const fixed_names[] = {
	"trace", "trace_pkey", "event_tables", "event_tables_pkey", "lket_parts",
	"processes", "lost", "unknown_events", "other_events",
	"events", "latency", "latency_histogram", "latency_by_event",
	"latency_by_process", "processes_tid", "unknown_events_time",
	"other_events_time", "stacks",
};

/* What each event table brings besides its own name: its indexes and
 * its view (sql_create_end()); the longest fixes a name's room. */
static const char *const table_suffixes[] = { "_time", "_tid_time", "_hex" };
#define TABLE_NAME_MAX	(SQL_NAME_MAX - 1 - 9)

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

char *sql_literal(char *p, const char *text)
{
	*p++ = '\'';
	for (; *text; text++) {
		if (*text == '\'')
			*p++ = '\'';
		*p++ = *text;
	}
	*p++ = '\'';
	*p = '\0';
	return p;
}

char *sql_ident(char *p, const char *name)
{
	*p++ = '"';
	for (; *name; name++) {
		if (*name == '"')
			*p++ = '"';
		*p++ = *name;
	}
	*p++ = '"';
	*p = '\0';
	return p;
}

/* Lower-case letters, digits and underscores only, not starting with a
 * digit, at most max bytes. */
static void sql_name(char *out, size_t max, const char *prefix,
		     const char *name)
{
	size_t n = 0;
	const char *s;

	for (s = prefix; *s && n < max; s++)
		out[n++] = *s;
	for (s = name; *s && n < max; s++) {
		char c = *s;

		out[n++] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ?
			   c : c >= 'A' && c <= 'Z' ? (char)(c + 32) : '_';
	}
	out[n] = '\0';
	if (out[0] >= '0' && out[0] <= '9')
		out[0] = '_';
}

/* name with "_suffix" after it, name cut so that both fit in max bytes */
static void with_suffix(char *out, size_t max, const char *name,
			const char *suffix)
{
	size_t k = strlen(suffix), n = strlen(name);

	if (n + k > max)
		n = max - k;
	memcpy(out, name, n);
	memcpy(out + n, suffix, k + 1);
}

static bool in(const char *const *list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

#define IN(list, name)	in(list, sizeof(list) / sizeof(list[0]), name)

/* SQLite keeps sqlite_*, PostgreSQL pg_* */
static bool reserved_prefix(const char *name)
{
	return !strncmp(name, "sqlite_", 7) || !strncmp(name, "pg_", 3);
}

static bool name_taken(const struct sql_schema *s, const char *name)
{
	size_t i;

	if (reserved_prefix(name) || IN(fixed_names, name))
		return true;
	for (i = 0; i < s->nnames; i++)
		if (!strcmp(s->names[i], name))
			return true;
	return false;
}

static int name_add(struct sql_schema *s, const char *name)
{
	char (*bigger)[SQL_NAME_MAX];

	if (s->nnames == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		bigger = realloc(s->names, s->cap * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		s->names = bigger;
	}
	snprintf(s->names[s->nnames++], SQL_NAME_MAX, "%s", name);
	return 0;
}

/* Free for a table: the name and every name that goes with it. */
static bool table_name_free(const struct sql_schema *s, const char *name)
{
	char n[SQL_NAME_MAX];
	size_t i;

	if (name_taken(s, name))
		return false;
	for (i = 0; i < sizeof(table_suffixes) / sizeof(table_suffixes[0]); i++) {
		snprintf(n, sizeof(n), "%s%s", name, table_suffixes[i]);
		if (name_taken(s, n))
			return false;
	}
	return true;
}

void sql_schema_init(struct sql_schema *s, const struct sql_dialect *dialect,
		     struct diag *diag, const char *label)
{
	memset(s, 0, sizeof(*s));
	s->dialect = dialect;
	s->diag = diag;
	s->label = label;
}

void sql_schema_free(struct sql_schema *s)
{
	free(s->names);
	free(s->tables);
	s->names = NULL;
	s->tables = NULL;
}

static void note(const struct sql_schema *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(const struct sql_schema *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!s->diag)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diagf(s->diag, DIAG_NOTE, s->label, -1, "%s", msg);
}

static bool col_taken(const struct sql_table *t, unsigned int n,
		      const char *name)
{
	unsigned int i;

	if (IN(common_cols, name) || IN(system_cols, name))
		return true;
	for (i = 0; i < n; i++)
		if (!strcmp(t->cols[i], name))
			return true;
	return false;
}

/* The columns before column n of a table. */
struct cols_before {
	const struct sql_table *t;
	unsigned int n;
};

static bool col_taken_before(const char *name, const void *ctx)
{
	const struct cols_before *c = ctx;

	return col_taken(c->t, c->n, name);
}

/* Column n of t, for a field named name. */
static void name_column(const struct sql_schema *s, struct sql_table *t,
			unsigned int n, const char *name)
{
	const struct cols_before before = { t, n };
	char base[SQL_NAME_MAX];
	unsigned int k;

	sql_name(base, SQL_NAME_MAX - 1, "", name);
	if (!col_taken(t, n, base)) {
		strcpy(t->cols[n], base);
		if (strlen(name) >= SQL_NAME_MAX)
			note(s, "table %s: field %s is column %s", t->name,
			     name, t->cols[n]);
		return;
	}
	/* f_tid, then f_tid_2 ...: JSON's keys' numbers */
	sql_name(base, SQL_NAME_MAX - 1, "f_", name);
	k = meta_unique_name(t->cols[n], SQL_NAME_MAX - 1, base,
			     col_taken_before, &before);
	/* f_tid for a field named like a common column: the rule itself */
	if (k > 1 || !IN(common_cols, name))
		note(s, "table %s: field %s is column %s", t->name, name,
		     t->cols[n]);
}

int sql_table_init(struct sql_schema *s, struct sql_table *t,
		   const struct event_meta *m, unsigned int group,
		   unsigned int hook)
{
	const struct field_list *lists[2] = { &m->sys, &m->user };
	struct sql_table **bigger;
	char full[256], base[SQL_NAME_MAX], suffix[32];
	unsigned int i, k, n = 0, tries;
	const struct field *f;

	memset(t, 0, sizeof(*t));
	t->fixed = -1;
	t->host = true;
	t->event = m->name ? m->name : "unknown";
	if (s->ntables >= SQL_MAX_TABLES) {
		if (!s->full_noted)
			note(s, "more than %d events: %s and those after it go to other_events",
			     SQL_MAX_TABLES, t->event);
		s->full_noted = true;
		return 1;
	}
	sql_name(full, sizeof(full) - 1, "", t->event);
	/* no suffix makes these free: SQLite's and PostgreSQL's prefixes */
	sql_name(base, TABLE_NAME_MAX,
		 reserved_prefix(full) ? "e_" : "", t->event);
	strcpy(t->name, base);
	/* taken: the event's IDs, then a number */
	for (tries = 0; !table_name_free(s, t->name); tries++) {
		if (tries)
			snprintf(suffix, sizeof(suffix), "_%u_%u_%u", group,
				 hook, tries + 1);
		else
			snprintf(suffix, sizeof(suffix), "_%u_%u", group, hook);
		with_suffix(t->name, TABLE_NAME_MAX, base, suffix);
	}
	if (strcmp(t->name, full))
		note(s, "event %s is table %s", t->event, t->name);

	t->ncols = m->sys.n + m->user.n;
	t->nvalues = SQL_COMMON + t->ncols + 1;
	t->cols = calloc(t->ncols ? t->ncols : 1, sizeof(*t->cols));
	t->kind = calloc(t->ncols ? t->ncols : 1, sizeof(*t->kind));
	bigger = realloc(s->tables, (s->ntables + 1) * sizeof(*bigger));
	if (bigger)
		s->tables = bigger;
	if (!t->cols || !t->kind || !bigger)
		goto nomem;
	for (k = 0; k < 2; k++)
		for (i = 0; i < lists[k]->n; i++, n++) {
			f = &lists[k]->f[i];
			name_column(s, t, n, f->name);
			t->kind[n] = f->type == LKET_STRING ? SQL_TEXT :
				     f->hex ? SQL_HEX : SQL_INT;
			t->has_hex |= f->hex;
		}
	if (name_add(s, t->name))
		goto nomem;
	for (i = 0; i < sizeof(table_suffixes) / sizeof(table_suffixes[0]); i++) {
		snprintf(base, sizeof(base), "%s%s", t->name, table_suffixes[i]);
		if (name_add(s, base))
			goto nomem;
	}
	s->tables[s->ntables++] = t;
	return 0;
nomem:
	sql_table_free(t);
	return -ENOMEM;
}

void sql_table_free(struct sql_table *t)
{
	free(t->cols);
	free(t->kind);
	t->cols = NULL;
	t->kind = NULL;
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
	[SQL_LATENCY] = { "latency", false, true, 14, {
		{ "scope", COL_TEXT }, { "what", COL_TEXT },
		{ "pid", COL_INT }, { "comm", COL_TEXT },
		{ "count", COL_I64 }, { "total_ns", COL_I64 },
		{ "min_ns", COL_I64 }, { "mean_ns", COL_I64 },
		{ "p50_ns", COL_I64 }, { "p90_ns", COL_I64 },
		{ "p99_ns", COL_I64 }, { "max_ns", COL_I64 },
		{ "unmatched_begin", COL_I64 },
		{ "unmatched_end", COL_I64 } }, { NULL, NULL } },
	[SQL_HISTOGRAM] = { "latency_histogram", false, true, 5, {
		{ "scope", COL_TEXT }, { "what", COL_TEXT },
		{ "pid", COL_INT }, { "bucket_ns", COL_I64 },
		{ "count", COL_I64 } }, { NULL, NULL } },
	[SQL_STACKS] = { "stacks", false, true, 4, {
		{ "id", COL_I64 }, { "depth", COL_INT },
		{ "frames", COL_TEXT }, { "addrs", COL_TEXT } }, { NULL, NULL } },
};

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
	    "CREATE VIEW latency_by_process AS SELECT host, what, pid, comm, count, total_ns, min_ns, mean_ns, p50_ns, p90_ns, p99_ns, max_ns FROM latency WHERE scope = 'process'");
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

/* ---- the rows: what every database output writes ---------------------- */

static struct sql_output *sql_of(struct output *o)
{
	return (struct sql_output *)o;
}

int sql_fail(struct sql_output *so, int err, const char *fmt, ...)
{
	va_list ap;

	if (so->error[0])
		return err;
	va_start(ap, fmt);
	vsnprintf(so->error, sizeof(so->error), fmt, ap);
	va_end(ap);
	return err;
}

/* A failure the sink had no words for: the errno's. */
static int failed(struct sql_output *so, int ret)
{
	if (ret < 0)
		sql_fail(so, ret, "%s: %s", so->name, strerror(-ret));
	return ret;
}

static int exec_text(struct sql_output *so, char *sql)
{
	int ret = sql ? so->sink->exec(so, sql) : -ENOMEM;

	free(sql);
	return ret;
}

/* Shared tables and views, made unless the table exists already. */
static int define_text(struct sql_output *so, char *sql, const char *exists)
{
	int ret = sql ? so->sink->define(so, sql, exists) : -ENOMEM;

	free(sql);
	return ret;
}

/*
 * The index in so->hosts of the host labelled label (an event's; NULL:
 * the one trace's), added on first sight; -E2BIG past SQL_MAX_HOSTS.
 */
static int host_of(struct sql_output *so, const char *label)
{
	const struct trace_info *info = so->trace;
	struct sql_host *h;
	unsigned int i;
	int ret;

	for (i = 0; i < so->nhosts; i++)
		if (so->hosts[i].label == label ||
		    (label && !strcmp(so->hosts[i].label, label)))
			return (int)i;
	if (!label && so->nhosts)
		return 0;
	if (so->nhosts == SQL_MAX_HOSTS)
		return -E2BIG;
	h = &so->hosts[so->nhosts];
	memset(h, 0, sizeof(*h));
	if (!label) {
		/* one trace: the label asked for, else its hostname */
		snprintf(so->host_label, sizeof(so->host_label), "%s",
			 so->host_opt ? so->host_opt :
			 info->hostname[0] ? info->hostname : "localhost");
		h->label = so->host_label;
	} else {
		h->label = label;
	}
	for (i = 0; i < info->nhosts; i++)
		if (!strcmp(info->hosts[i].label, h->label))
			h->trace = &info->hosts[i];
	if (so->sink->open_host) {
		ret = so->sink->open_host(so, so->nhosts);
		if (ret)
			return ret;
	}
	return (int)so->nhosts++;
}

int sql_output_new(struct sql_output **out, size_t size,
		   const struct sql_sink_ops *sink,
		   const struct sql_dialect *dialect, struct diag *diag,
		   const char *name, const char *host)
{
	struct sql_output *so = calloc(1, size);
	int i;

	if (!so)
		return -ENOMEM;
	so->o.ops = &sql_output_ops;
	so->sink = sink;
	so->name = name;
	so->host_opt = host;
	sql_schema_init(&so->schema, dialect, diag, name);
	for (i = 0; i < SQL_NFIXED; i++) {
		strcpy(so->fixed[i].name, fixed_tables[i].name);
		so->fixed[i].fixed = i;
		so->fixed[i].host = fixed_tables[i].host;
		so->fixed[i].nvalues = fixed_tables[i].ncols;
		if (fixed_tables[i].common)
			so->fixed[i].nvalues += SQL_COMMON;
		else if (fixed_tables[i].host)
			so->fixed[i].nvalues++;
	}
	/* the widest fixed table; event tables widen it */
	so->row_cap = fixed_tables[SQL_TRACE].ncols;
	so->row = calloc(so->row_cap, sizeof(*so->row));
	so->by_id = calloc(256 * 256, sizeof(*so->by_id));
	if (!so->row || !so->by_id) {
		sql_output_ops.free(&so->o);
		return -ENOMEM;
	}
	*out = so;
	return 0;
}

/* Row values: v[i] set, returning v + 1 */
static struct sql_value *put_null(struct sql_value *v)
{
	v->type = SQL_NULL;
	return v + 1;
}

static struct sql_value *put_int(struct sql_value *v, int64_t i)
{
	v->type = SQL_INTEGER;
	v->i = i;
	return v + 1;
}

/* i, or NULL when i is below zero (not known) */
static struct sql_value *put_known(struct sql_value *v, int64_t i)
{
	return i >= 0 ? put_int(v, i) : put_null(v);
}

static struct sql_value *put_bytes(struct sql_value *v,
				   enum sql_value_type type, const void *p,
				   size_t len)
{
	v->type = type;
	v->p = p;
	v->len = len;
	return v + 1;
}

static struct sql_value *put_string(struct sql_value *v, const char *s)
{
	return s ? put_bytes(v, SQL_STRING, s, strlen(s)) : put_null(v);
}

static int write_row(struct sql_output *so, struct sql_table *t,
		     unsigned int h)
{
	int ret;

	if (!t->sink && so->sink->open_table) {
		ret = so->sink->open_table(so, t);
		if (ret)
			return ret;
	}
	return so->sink->row(so, t, h, so->row);
}

/* The row of host h starts: its label */
static struct sql_value *row_host(struct sql_output *so, unsigned int h)
{
	return put_string(so->row, so->hosts[h].label);
}

/*
 * The databases' integers are signed 64-bit: a time past 2^63 - 1 ns
 * would wrap to a negative one.  Refused, in words.
 */
static int time_fits(struct sql_output *so, uint64_t ts)
{
	if (ts <= INT64_MAX)
		return 0;
	return sql_fail(so, -ERANGE,
			"%s: time %llu ns is past the databases' 64-bit signed integers (2^63 - 1 ns): not stored",
			so->name, (unsigned long long)ts);
}

static struct sql_value *put_common(struct sql_value *v,
				    const struct event *ev,
				    const struct proc *proc)
{
	v = put_int(v, (int64_t)ev->rec->timestamp);
	v = put_int(v, ev->cpu);
	v = put_int(v, ev->tid);
	v = put_known(v, proc ? proc->pid : -1);
	if (proc && proc->comm_len)
		return put_bytes(v, SQL_STRING, proc->comm, proc->comm_len);
	return put_null(v);
}

/* The table of events like ev, made on first sight. */
static int table_for(struct sql_output *so, const struct event *ev,
		     struct sql_table **out)
{
	size_t id = (ev->group & 0xff) << 8 | (ev->hook & 0xff);
	struct sql_table *t = calloc(1, sizeof(*t));
	struct sql_value *bigger;
	int ret;

	if (!t)
		return -ENOMEM;
	ret = sql_table_init(&so->schema, t, ev->meta, ev->group, ev->hook);
	if (ret) {
		free(t);
		if (ret < 0)
			return ret;
		so->by_id[id] = *out = &so->fixed[SQL_OTHER];
		return 0;
	}
	/* in the schema's list: freed with the output whatever comes next */
	if (t->nvalues > so->row_cap) {
		bigger = realloc(so->row, t->nvalues * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		so->row = bigger;
		so->row_cap = t->nvalues;
	}
	ret = define_text(so, sql_create_table(&so->schema, t), t->name);
	if (ret)
		return ret;
	so->by_id[id] = *out = t;
	return 0;
}

static int unknown_row(struct sql_output *so, unsigned int h,
		       const struct event *ev, const struct proc *proc)
{
	struct sql_value *v = put_common(row_host(so, h), ev, proc);

	v = put_int(v, ev->group);
	v = put_int(v, ev->hook);
	v = put_string(v, ev->meta && ev->meta->named ? ev->meta->name :
			  meta_catalogue_name(ev->group, ev->hook));
	put_bytes(v, SQL_BLOB, ev->rec->data + LKET_RECORD_HEAD_SIZE,
		  ev->rec->size - LKET_RECORD_HEAD_SIZE);
	return write_row(so, &so->fixed[SQL_UNKNOWN], h);
}

/* An event past the SQL_MAX_TABLES-th: its fields as text. */
static int other_row(struct sql_output *so, unsigned int h,
		     const struct event *ev, const struct proc *proc)
{
	struct sql_value *v = put_common(row_host(so, h), ev, proc);
	int ret = buf_reserve(&so->scratch, &so->scratch_size,
			      outfmt_fields_room(ev));

	if (ret)
		return ret;
	v = put_string(v, ev->meta->name);
	v = put_int(v, ev->group);
	v = put_int(v, ev->hook);
	put_bytes(v, SQL_HELD, so->scratch,
		  (size_t)(outfmt_fields(so->scratch, ev) - so->scratch));
	return write_row(so, &so->fixed[SQL_OTHER], h);
}

/* A stack written to the stacks table. */
struct sql_stack {
	uint64_t hash;
	const uint64_t *a;	/* its addresses (owned); NULL: a free slot */
	uint32_t n;
	unsigned int host;	/* ids are a host's: its stacks are its own */
	int64_t id;
};

static uint64_t stack_hash(const struct value *v, unsigned int host)
{
	uint64_t h = 0xcbf29ce484222325ull ^ v->n ^ (uint64_t)host << 32;
	uint32_t i;

	for (i = 0; i < v->n; i++)
		h = (h ^ v->a[i]) * 0x100000001b3ull;
	return h;
}

static struct sql_stack *stack_slot(struct sql_stack *tab, size_t size,
				    uint64_t hash, const uint64_t *a,
				    uint32_t n, unsigned int host)
{
	size_t i = (size_t)hash & (size - 1);

	while (tab[i].a && (tab[i].hash != hash || tab[i].n != n ||
			    tab[i].host != host || memcmp(tab[i].a, a, n * sizeof(*a))))
		i = (i + 1) & (size - 1);
	return &tab[i];
}

static int stacks_grow(struct sql_output *so)
{
	size_t size = so->stacks_size ? 2 * so->stacks_size : 1024, i;
	struct sql_stack *tab = calloc(size, sizeof(*tab)), *old = so->stacks;

	if (!tab)
		return -ENOMEM;
	for (i = 0; i < so->stacks_size; i++)
		if (old[i].a)
			*stack_slot(tab, size, old[i].hash, old[i].a,
				    old[i].n, old[i].host) = old[i];
	free(old);
	so->stacks = tab;
	so->stacks_size = size;
	return 0;
}

/* The id of v's stack in the stacks table, its row written first. */
static int stack_id(struct sql_output *so, unsigned int h,
		    const struct value *v, int64_t *id)
{
	uint64_t hash = stack_hash(v, h);
	size_t room = outfmt_addrs_room(v) + 20 * (size_t)v->n + 2;
	struct sql_value *row;
	struct sql_stack *e;
	uint64_t *copy;
	char *p, *q;
	uint32_t i;
	int ret;

	if (!so->stacks) {
		ret = define_text(so, sql_create_stacks(&so->schema),
				  "stacks");
		if (!ret)
			ret = stacks_grow(so);
		if (ret)
			return ret;
	}
	e = stack_slot(so->stacks, so->stacks_size, hash, v->a, v->n, h);
	if (e->a) {
		*id = e->id;
		return 0;
	}
	if (2 * (so->nstacks + 1) > so->stacks_size) {
		ret = stacks_grow(so);
		if (ret)
			return ret;
		e = stack_slot(so->stacks, so->stacks_size, hash, v->a, v->n, h);
	}
	copy = malloc((v->n ? v->n : 1) * sizeof(*copy));
	ret = copy ? buf_reserve(&so->stack_text, &so->stack_text_size, room) :
	      -ENOMEM;
	if (ret) {
		free(copy);
		return ret;
	}
	memcpy(copy, v->a, v->n * sizeof(*copy));
	e->hash = hash;
	e->a = copy;
	e->n = v->n;
	e->host = h;
	e->id = (int64_t)++so->nstacks;
	*id = e->id;
	/* frames as lket.out shows them; then the addresses alone */
	p = outfmt_addrs(so->stack_text, v, false);
	q = p;
	for (i = 0; i < v->n; i++) {
		if (i)
			*q++ = ' ';
		q = fmt_hex(q, v->a[i]);
	}
	row = put_int(row_host(so, h), e->id);
	row = put_int(row, v->n);
	row = put_bytes(row, SQL_STRING, so->stack_text,
			(size_t)(p - so->stack_text));
	put_bytes(row, SQL_STRING, p, (size_t)(q - p));
	return write_row(so, &so->fixed[SQL_STACKS], h);
}

static int sql_event(struct output *o, const struct event *ev,
		     const struct proc *proc)
{
	struct sql_output *so = sql_of(o);
	int64_t ids[2 * META_MAX_FIELDS];
	const struct value *val;
	struct sql_table *t;
	struct sql_value *v;
	unsigned int i, col, h;
	int ret = host_of(so, ev->host);

	if (ret < 0)
		return failed(so, ret);
	h = (unsigned int)ret;
	ret = time_fits(so, ev->rec->timestamp);
	if (ret)
		return ret;
	if (!so->hosts[h].events)
		so->hosts[h].first_ts = ev->rec->timestamp;
	so->hosts[h].events++;
	so->hosts[h].last_ts = ev->rec->timestamp;
	if (!ev->meta || !ev->meta->named || !ev->meta->sys.defined)
		return failed(so, unknown_row(so, h, ev, proc));
	t = so->by_id[(ev->group & 0xff) << 8 | (ev->hook & 0xff)];
	if (!t) {
		ret = table_for(so, ev, &t);
		if (ret)
			return failed(so, ret);
	}
	if (t == &so->fixed[SQL_OTHER])
		return failed(so, other_row(so, h, ev, proc));
	/* stacks' rows first: they use the row buffer */
	for (i = 0; i < ev->nvalues; i++)
		if (ev->v[i].f->type == LKET_ADDRS) {
			ret = stack_id(so, h, &ev->v[i], &ids[i]);
			if (ret)
				return failed(so, ret);
		}
	v = put_common(row_host(so, h), ev, proc);
	for (i = 0; i < t->ncols; i++)
		put_null(&v[i]);
	for (i = 0; i < ev->nvalues; i++) {
		val = &ev->v[i];
		col = sql_column(t, ev, i);
		if (col == t->ncols)
			continue;
		if (val->f->type == LKET_STRING)
			put_bytes(&v[col], SQL_STRING, val->s, val->slen);
		else if (val->f->type == LKET_ADDRS)
			put_int(&v[col], ids[i]);
		else
			put_int(&v[col], sql_int(val));
	}
	if (ev->raw_len)
		put_bytes(&v[t->ncols], SQL_BLOB, ev->raw, ev->raw_len);
	else
		put_null(&v[t->ncols]);
	return failed(so, write_row(so, t, h));
}

static int sql_lost(struct output *o, const struct seq_gap *g)
{
	struct sql_output *so = sql_of(o);
	struct sql_value *v;
	int h = host_of(so, g->host);

	if (h < 0)
		return failed(so, h);
	so->hosts[h].lost += seq_gap_count(g);
	v = put_int(row_host(so, (unsigned int)h), (int64_t)g->after_ts);
	v = g->before_ts ? put_int(v, (int64_t)g->before_ts) : put_null(v);
	v = put_int(v, (int64_t)seq_gap_count(g));
	/* dropped records: no flush numbers */
	v = g->records ? put_null(v) : put_int(v, g->first);
	v = g->records ? put_null(v) : put_int(v, g->last);
	/* the CPU when known (format version 2), as lket.out shows it */
	put_known(v, g->cpu);
	return failed(so, write_row(so, &so->fixed[SQL_LOST], (unsigned int)h));
}

static int sql_process(struct output *o, uint64_t ts, const struct proc *p,
		       int32_t ppid, const char *event, const char *host)
{
	struct sql_output *so = sql_of(o);
	struct sql_value *v;
	int h = host_of(so, host);

	if (h < 0)
		return failed(so, h);
	if (time_fits(so, ts))
		return -ERANGE;
	v = put_int(row_host(so, (unsigned int)h), (int64_t)ts);
	v = put_int(v, p->tid);
	v = put_known(v, p->pid);
	v = put_known(v, ppid);
	v = p->comm_len ? put_bytes(v, SQL_STRING, p->comm, p->comm_len) :
	    put_null(v);
	put_string(v, event);
	return failed(so, write_row(so, &so->fixed[SQL_PROCESSES],
				    (unsigned int)h));
}

/* The host, scope, what and pid of a latency row. */
static struct sql_value *put_latency_key(struct sql_output *so,
					 unsigned int h,
					 const struct latency *l)
{
	struct sql_value *v = row_host(so, h);

	v = put_string(v, l->per_process ? "process" : "event");
	v = put_string(v, l->what);
	return put_known(v, l->per_process ? l->pid : -1);
}

static int latency_rows(struct sql_output *so, unsigned int h,
			const struct latency *l)
{
	const uint64_t ns[] = {
		l->count, l->total, l->min, l->mean, l->p50, l->p90, l->p99,
		l->max, l->unmatched_begin, l->unmatched_end,
	};
	struct sql_value *v = put_latency_key(so, h, l);
	unsigned int i;
	int b, ret;

	v = l->per_process && l->comm[0] ? put_string(v, l->comm) :
	    put_null(v);
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		v = put_int(v, (int64_t)ns[i]);
	ret = write_row(so, &so->fixed[SQL_LATENCY], h);
	for (b = 0; !ret && b < REPORT_BUCKETS; b++) {
		if (!l->hist[b])
			continue;
		v = put_latency_key(so, h, l);
		/* bucket 63 holds the negative latencies (time went back):
		 * its bound is INT64_MIN */
		v = put_int(v, b ? (int64_t)(1ull << b) : 0);
		put_int(v, (int64_t)l->hist[b]);
		ret = write_row(so, &so->fixed[SQL_HISTOGRAM], h);
	}
	return ret;
}

/* The latency report: one trace's (several hosts have none) */
static int sql_report(struct output *o, const struct report *r)
{
	struct sql_output *so = sql_of(o);
	int ret = host_of(so, NULL);
	unsigned int h = (unsigned int)ret;
	size_t i;

	if (ret >= 0)
		ret = define_text(so, sql_create_report(&so->schema),
				  "latency");
	for (i = 0; !ret && i < report_count(r); i++)
		ret = latency_rows(so, h, report_get(r, i));
	return failed(so, ret);
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Host h's row of trace: what its header said, what came, its files. */
static int trace_row(struct sql_output *so, unsigned int h, uint64_t load)
{
	const struct sql_host *host = &so->hosts[h];
	const struct trace_info *info = host->trace ? host->trace->info :
					so->trace;
	struct sql_value *v = row_host(so, h);
	size_t n = 0, i;
	char *at;
	int ret;

	for (i = 0; i < info->nfiles; i++)
		n += 5 * strlen(info->files[i]) + 1;
	ret = buf_reserve(&so->scratch, &so->scratch_size, n + 1);
	if (ret)
		return ret;
	v = info->hostname[0] ? put_string(v, info->hostname) : put_null(v);
	v = info->machine[0] ? put_string(v, info->machine) : put_null(v);
	v = put_string(v, info->kernel);
	v = put_int(v, info->have_header);
	v = put_string(v, info->clock);
	v = put_int(v, info->wall_offset);
	/* how its clock was put on the first host's */
	v = host->trace ? put_int(v, host->trace->clock_offset) : put_null(v);
	v = host->trace && host->trace->uncertainty >= 0 ?
	    put_int(v, (int64_t)(host->trace->uncertainty + 0.5)) :
	    put_null(v);
	/*
	 * Those of the first and last events written, as their time columns
	 * have them: not the trace's first record (a task record, or one a
	 * filter left out); none without events
	 */
	v = host->events ? put_int(v, (int64_t)host->first_ts) : put_null(v);
	v = host->events ? put_int(v, (int64_t)host->last_ts) : put_null(v);
	v = put_int(v, (int64_t)host->events);
	v = put_int(v, (int64_t)host->lost);
	/* the files, one a line */
	at = so->scratch;
	for (i = 0; i < info->nfiles; i++) {
		at = fmt_utf8_escaped(at, info->files[i],
				      strlen(info->files[i]), 0);
		if (i + 1 < info->nfiles)
			*at++ = '\n';
	}
	v = put_bytes(v, SQL_HELD, so->scratch, (size_t)(at - so->scratch));
	put_int(v, (int64_t)load);
	return write_row(so, &so->fixed[SQL_TRACE], h);
}

static int sql_begin(struct output *o, const struct trace_info *trace)
{
	struct sql_output *so = sql_of(o);

	int ret;

	so->begin_ns = now_ns();
	so->trace = trace;
	ret = so->sink->open(so);
	if (!ret)
		ret = define_text(so, sql_create_base(&so->schema), "trace");
	return failed(so, ret);
}

/* A row of trace per host (one with no event too), the rows held back;
 * the events view (and the indexes); the commit. */
static int sql_finish(struct output *o)
{
	struct sql_output *so = sql_of(o);
	uint64_t load = now_ns() - so->begin_ns;
	unsigned int h;
	size_t i;
	int ret = 0;

	for (i = 0; ret >= 0 && i < so->trace->nhosts; i++)
		ret = host_of(so, so->trace->hosts[i].label);
	if (ret >= 0 && !so->trace->nhosts)
		ret = host_of(so, NULL);
	ret = ret < 0 ? ret : 0;
	for (h = 0; !ret && h < so->nhosts; h++)
		ret = trace_row(so, h, load);
	if (!ret && so->sink->flush)
		ret = so->sink->flush(so);
	if (!ret && !so->schema.dialect->partitioned)
		ret = exec_text(so, sql_create_end(&so->schema));
	if (!ret)
		ret = so->sink->commit(so);
	return failed(so, ret);
}

static const char *sql_error(const struct output *o)
{
	const struct sql_output *so = (const struct sql_output *)o;

	return so->error[0] ? so->error : NULL;
}

static void sql_free(struct output *o)
{
	struct sql_output *so = sql_of(o);
	size_t i;

	so->sink->free(so);
	for (i = 0; i < so->schema.ntables; i++) {
		sql_table_free(so->schema.tables[i]);
		free(so->schema.tables[i]);
	}
	sql_schema_free(&so->schema);
	for (i = 0; i < so->stacks_size; i++)
		free((uint64_t *)so->stacks[i].a);
	free(so->stacks);
	free(so->stack_text);
	free(so->row);
	free(so->scratch);
	free(so->by_id);
	free(so);
}

const struct output_ops sql_output_ops = {
	.begin = sql_begin,
	.event = sql_event,
	.lost = sql_lost,
	.process = sql_process,
	.report = sql_report,
	.finish = sql_finish,
	.error = sql_error,
	.free = sql_free,
};
