// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/lket_format.h"
#include "sqlschema.h"

/*
 * Column names no field may take: the common columns, and the system
 * columns of PostgreSQL (a clash is an error) and SQLite (one hides it).
 */
static const char *const common_cols[] = {
	"time", "cpu", "tid", "pid", "comm", "raw",
};
static const char *const system_cols[] = {
	"tableoid", "xmin", "cmin", "xmax", "cmax", "ctid", "oid", "rowid",
	"_rowid_",
};

/* Names of the fixed tables, views and indexes. */
static const char *const fixed_names[] = {
	"trace", "processes", "lost", "unknown_events", "other_events",
	"events", "latency", "latency_histogram", "latency_by_event",
	"latency_by_process", "processes_tid", "unknown_events_time",
	"other_events_time",
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

int sql_schema_init(struct sql_schema *s, const struct sql_types *ty,
		    struct diag *diag, const char *label)
{
	memset(s, 0, sizeof(*s));
	s->ty = ty;
	s->diag = diag;
	s->label = label;
	return 0;
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

/* Column n of t, for a field named name. */
static void name_column(const struct sql_schema *s, struct sql_table *t,
			unsigned int n, const char *name)
{
	char base[SQL_NAME_MAX], suffix[16];
	unsigned int k;

	sql_name(base, SQL_NAME_MAX - 1, "", name);
	if (!col_taken(t, n, base)) {
		strcpy(t->cols[n], base);
		if (strlen(name) >= SQL_NAME_MAX)
			note(s, "table %s: field %s is column %s", t->name,
			     name, t->cols[n]);
		return;
	}
	sql_name(t->cols[n], SQL_NAME_MAX - 1, "f_", name);
	for (k = 2; col_taken(t, n, t->cols[n]); k++) {
		snprintf(suffix, sizeof(suffix), "_%u", k);
		sql_name(base, SQL_NAME_MAX - 1, "f_", name);
		with_suffix(t->cols[n], SQL_NAME_MAX - 1, base, suffix);
	}
	/* f_tid for a field named like a common column: the rule itself */
	if (k > 2 || !IN(common_cols, name))
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

char *sql_create_base(const struct sql_schema *s)
{
	const char *i64 = s->ty->int64;
	struct sqltext t = { 0 };

	cat(&t, "CREATE TABLE trace (header %s, clock TEXT, kernel TEXT, wall_offset %s, first_time %s, last_time %s, events %s, lost %s, files TEXT);",
	    s->ty->boolean, i64, i64, i64, i64, i64);
	cat(&t, "CREATE TABLE processes (time %s, tid %s, pid INTEGER, ppid INTEGER, comm TEXT, event TEXT);",
	    i64, i64);
	cat(&t, "CREATE TABLE lost (time %s, until %s, count %s, first_seq %s, last_seq %s, cpu INTEGER);",
	    i64, i64, i64, i64, i64);
	cat(&t, "CREATE TABLE unknown_events (time %s NOT NULL, cpu INTEGER, tid %s, pid INTEGER, comm TEXT, grp INTEGER, hook INTEGER, name TEXT, raw %s);",
	    i64, i64, s->ty->bytes);
	cat(&t, "CREATE TABLE other_events (time %s NOT NULL, cpu INTEGER, tid %s, pid INTEGER, comm TEXT, event TEXT, grp INTEGER, hook INTEGER, fields TEXT)",
	    i64, i64);
	return text_done(&t);
}

char *sql_create_report(const struct sql_schema *s)
{
	const char *i64 = s->ty->int64;
	struct sqltext t = { 0 };

	cat(&t, "CREATE TABLE latency (scope TEXT, what TEXT, pid INTEGER, comm TEXT, count %s, total_ns %s, min_ns %s, mean_ns %s, p50_ns %s, p90_ns %s, p99_ns %s, max_ns %s, unmatched_begin %s, unmatched_end %s);",
	    i64, i64, i64, i64, i64, i64, i64, i64, i64, i64);
	cat(&t, "CREATE TABLE latency_histogram (scope TEXT, what TEXT, pid INTEGER, bucket_ns %s, count %s);",
	    i64, i64);
	cat(&t, "CREATE VIEW latency_by_event AS SELECT what, count, total_ns, min_ns, mean_ns, p50_ns, p90_ns, p99_ns, max_ns, unmatched_begin, unmatched_end FROM latency WHERE scope = 'event';"
	    "CREATE VIEW latency_by_process AS SELECT what, pid, comm, count, total_ns, min_ns, mean_ns, p50_ns, p90_ns, p99_ns, max_ns FROM latency WHERE scope = 'process'");
	return text_done(&t);
}

char *sql_create_table(const struct sql_schema *s, const struct sql_table *t)
{
	struct sqltext q = { 0 };
	unsigned int i;

	cat(&q, "CREATE TABLE ");
	cat_ident(&q, t->name);
	cat(&q, " (time %s NOT NULL, cpu INTEGER, tid %s, pid INTEGER, comm TEXT",
	    s->ty->int64, s->ty->int64);
	for (i = 0; i < t->ncols; i++) {
		cat(&q, ", ");
		cat_ident(&q, t->cols[i]);
		cat(&q, " %s", t->kind[i] == SQL_TEXT ? "TEXT" : s->ty->int64);
	}
	cat(&q, ", raw %s)", s->ty->bytes);
	return text_done(&q);
}

/* CREATE INDEX "table_suffix" ON "table"(columns); */
static void cat_index(struct sqltext *q, const char *table, const char *suffix,
		      const char *columns)
{
	char name[SQL_NAME_MAX + 16];

	snprintf(name, sizeof(name), "%s%s", table, suffix);
	cat(q, "CREATE INDEX ");
	cat_ident(q, name);
	cat(q, " ON ");
	cat_ident(q, table);
	cat(q, "(%s);", columns);
}

char *sql_create_end(const struct sql_schema *s)
{
	const struct sql_table *t;
	struct sqltext q = { 0 };
	char name[SQL_NAME_MAX + 16];
	const char *e;
	unsigned int c;
	size_t i;

	cat(&q, "CREATE VIEW events AS ");
	for (i = 0; i < s->ntables; i++) {
		t = s->tables[i];
		cat(&q, "SELECT time, cpu, tid, pid, comm, CAST('");
		/* event names are letters, digits, '_' and '.': no quote */
		for (e = t->event; *e; e++) {
			if (*e == '\'')
				cat(&q, "'");
			cat(&q, "%c", *e);
		}
		cat(&q, "' AS TEXT) AS event FROM ");
		cat_ident(&q, t->name);
		cat(&q, " UNION ALL ");
	}
	cat(&q, "SELECT time, cpu, tid, pid, comm, coalesce(name, 'unknown') FROM unknown_events UNION ALL "
	    "SELECT time, cpu, tid, pid, comm, event FROM other_events UNION ALL "
	    "SELECT time, cpu, NULL, NULL, NULL, CASE WHEN first_seq IS NULL THEN 'lket.dropped' ELSE 'lket.lost' END FROM lost;");
	/* hex-shown fields as lket.out shows them */
	for (i = 0; i < s->ntables; i++) {
		t = s->tables[i];
		if (!t->has_hex)
			continue;
		snprintf(name, sizeof(name), "%s_hex", t->name);
		cat(&q, "CREATE VIEW ");
		cat_ident(&q, name);
		cat(&q, " AS SELECT time, cpu, tid, pid, comm");
		for (c = 0; c < t->ncols; c++) {
			cat(&q, ", ");
			if (t->kind[c] == SQL_HEX) {
				cat(&q, "CASE WHEN ");
				cat_ident(&q, t->cols[c]);
				cat(&q, " IS NOT NULL THEN %s", s->ty->hex_pre);
				cat_ident(&q, t->cols[c]);
				cat(&q, "%s END AS ", s->ty->hex_post);
			}
			cat_ident(&q, t->cols[c]);
		}
		cat(&q, ", raw FROM ");
		cat_ident(&q, t->name);
		cat(&q, ";");
	}
	/*
	 * After the load, which they would slow down: time for ranges, (tid,
	 * time) for what a thread did next (the entry/return pairing of
	 * lket-b2a(1)'s examples).
	 */
	cat(&q, "CREATE INDEX processes_tid ON processes(tid, time);"
	    "CREATE INDEX unknown_events_time ON unknown_events(time);"
	    "CREATE INDEX other_events_time ON other_events(time);");
	for (i = 0; i < s->ntables; i++) {
		cat_index(&q, s->tables[i]->name, "_time", "time");
		cat_index(&q, s->tables[i]->name, "_tid_time", "tid, time");
	}
	return text_done(&q);
}
