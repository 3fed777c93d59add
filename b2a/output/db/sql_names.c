// SPDX-License-Identifier: GPL-2.0
/*
 * sql_names.c - the databases' names (sql.h): tables and columns named
 * after the events and fields, kept clear of the fixed names, of each
 * other and of the dialect's system columns, within SQL_NAME_MAX.
 *
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/db/sql.h"

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
	va_list ap;

	if (!s->diag)
		return;
	va_start(ap, fmt);
	vdiagf(s->diag, DIAG_NOTE, s->label, -1, fmt, ap);
	va_end(ap);
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

/*
 * Column n of t, for a field named name: the name, f_ in front when a
 * common or a system column has it (f_tid, f_xmin); met again in the
 * event, numbered as JSON numbers its keys (x, x_2; f_tid, f_tid_2:
 * meta_unique_name()), cut to SQL_NAME_MAX - 1 bytes.
 */
static void name_column(const struct sql_schema *s, struct sql_table *t,
			unsigned int n, const char *name)
{
	const struct cols_before before = { t, n };
	bool common = IN(common_cols, name);
	char base[SQL_NAME_MAX];
	unsigned int k;

	sql_name(base, SQL_NAME_MAX - 1,
		 common || IN(system_cols, name) ? "f_" : "", name);
	k = meta_unique_name(t->cols[n], SQL_NAME_MAX - 1, base,
			     col_taken_before, &before);
	/* f_tid for a field named like a common column: the rule itself */
	if (strcmp(t->cols[n], name) && (k > 1 || !common))
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
