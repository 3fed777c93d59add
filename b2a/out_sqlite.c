// SPDX-License-Identifier: GPL-2.0
/*
 * out_sqlite.c - an SQLite database (schema in sqlschema.h and
 * lket-b2a(1)): a table per event, processes, lost, trace, the view
 * events, and with a report, latency and latency_histogram.
 *
 * Written to the caller's temporary file (tmpfile.h) with the journal
 * off, in transactions of ROWS_PER_TX rows through one prepared statement
 * per table; indexes are made at the end.  The caller puts the file in
 * place: a conversion that fails leaves no database, and never a
 * half-written one.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../runtime/lket_format.h"
#include "output.h"
#include "report.h"
#include "sqlschema.h"

static const struct sql_types sqlite_types = {
	.int64 = "INTEGER", .bytes = "BLOB"
};

#define ROWS_PER_TX	(1u << 20)

struct sqtab {
	struct sql_table t;
	sqlite3_stmt *ins;
	const char *event;	/* the event's name */
};

struct sq {
	struct output o;
	struct sqlite_options *opt;
	sqlite3 *db;
	struct sqtab **by_id;		/* group << 8 | hook */
	struct sqtab **list;
	size_t ntabs;
	sqlite3_stmt *ins_unknown, *ins_proc, *ins_lost;
	uint64_t rows, events, last_ts, lost;
};

/* An SQLite failure as a negative errno; its message for main. */
static int fail(struct sq *s, int rc)
{
	if (s->db && !s->opt->message[0])
		snprintf(s->opt->message, sizeof(s->opt->message), "%s",
			 sqlite3_errmsg(s->db));
	switch (rc & 0xff) {
	case SQLITE_FULL:
		snprintf(s->opt->message, sizeof(s->opt->message), "%s",
			 strerror(ENOSPC));
		return -ENOSPC;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_PERM:
	case SQLITE_READONLY:
	case SQLITE_CANTOPEN:
		return -EACCES;
	default:
		return -EIO;
	}
}

static int exec(struct sq *s, const char *sql)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : fail(s, rc);
}

static int prepare(struct sq *s, const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
				    st, NULL);

	return rc == SQLITE_OK ? 0 : fail(s, rc);
}

static int step(struct sq *s, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return fail(s, rc);
	if (++s->rows % ROWS_PER_TX == 0)
		return exec(s, "COMMIT; BEGIN");
	return 0;
}

/* The table of events like ev, made on first sight. */
static int table_for(struct sq *s, const struct event *ev, struct sqtab **out)
{
	size_t id = (ev->group & 0xff) << 8 | (ev->hook & 0xff);
	struct sqtab *t, **bigger;
	char *sql, *p;
	unsigned int i;
	int ret, tries;

	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	ret = sql_table_init(&t->t, ev->meta);
	if (ret) {
		free(t);
		return ret;
	}
	t->event = ev->meta->name;
	sql = malloc(sql_text_size(&t->t));
	if (!sql) {
		ret = -ENOMEM;
		goto err;
	}
	/* two events may make one name: the second gets its IDs added */
	for (tries = 0; tries < 2; tries++) {
		if (tries)
			sql_table_rename(&t->t, ev->group, ev->hook);
		sql_create_table(sql, &t->t, ev->meta, &sqlite_types);
		if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK)
			break;
	}
	if (tries == 2) {
		ret = fail(s, sqlite3_errcode(s->db));
		goto err;
	}
	p = sql + sprintf(sql, "INSERT INTO ");
	p = sql_ident(p, t->t.name);
	p += sprintf(p, " VALUES (?");
	for (i = 1; i < SQL_COMMON + t->t.ncols + 1; i++)
		p += sprintf(p, ",?");
	sprintf(p, ")");
	ret = prepare(s, sql, &t->ins);
	if (ret)
		goto err;
	bigger = realloc(s->list, (s->ntabs + 1) * sizeof(*bigger));
	if (!bigger) {
		ret = -ENOMEM;
		goto err;
	}
	s->list = bigger;
	s->list[s->ntabs++] = t;
	s->by_id[id] = t;
	free(sql);
	*out = t;
	return 0;
err:
	free(sql);
	sqlite3_finalize(t->ins);
	sql_table_free(&t->t);
	free(t);
	return ret;
}

static void bind_common(sqlite3_stmt *st, const struct event *ev,
			const struct proc *proc)
{
	sqlite3_bind_int64(st, 1, (sqlite3_int64)ev->rec->timestamp);
	sqlite3_bind_int(st, 2, (int)ev->cpu);
	sqlite3_bind_int64(st, 3, ev->tid);
	if (proc && proc->pid >= 0)
		sqlite3_bind_int(st, 4, proc->pid);
	else
		sqlite3_bind_null(st, 4);
	if (proc && proc->comm_len)
		sqlite3_bind_text(st, 5, proc->comm, proc->comm_len,
				  SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 5);
}

static int sq_event(struct output *o, const struct event *ev,
		    const struct proc *proc)
{
	struct sq *s = (struct sq *)o;
	const struct value *v;
	struct sqtab *t;
	sqlite3_stmt *st;
	unsigned int i, col;
	const char *name;
	int ret;

	s->events++;
	s->last_ts = ev->rec->timestamp;
	if (!ev->meta || !ev->meta->named || !ev->meta->sys.defined) {
		st = s->ins_unknown;
		bind_common(st, ev, proc);
		sqlite3_bind_int(st, 6, (int)ev->group);
		sqlite3_bind_int(st, 7, (int)ev->hook);
		name = ev->meta && ev->meta->named ? ev->meta->name :
		       meta_catalogue_name(ev->group, ev->hook);
		if (name)
			sqlite3_bind_text(st, 8, name, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 8);
		sqlite3_bind_blob(st, 9, ev->rec->data + LKET_RECORD_HEAD_SIZE,
				  (int)(ev->rec->size - LKET_RECORD_HEAD_SIZE),
				  SQLITE_STATIC);
		return step(s, st);
	}
	t = s->by_id[(ev->group & 0xff) << 8 | (ev->hook & 0xff)];
	if (!t) {
		ret = table_for(s, ev, &t);
		if (ret)
			return ret;
	}
	st = t->ins;
	bind_common(st, ev, proc);
	for (i = 0; i < t->t.ncols; i++)
		sqlite3_bind_null(st, SQL_COMMON + 1 + (int)i);
	for (i = 0; i < ev->nvalues; i++) {
		v = &ev->v[i];
		col = i < ev->nsys ? i : ev->meta->sys.n + (i - ev->nsys);
		if (col >= t->t.ncols)
			continue;
		if (v->f->type == LKET_STRING)
			sqlite3_bind_text(st, SQL_COMMON + 1 + (int)col, v->s,
					  (int)v->slen, SQLITE_STATIC);
		else
			sqlite3_bind_int64(st, SQL_COMMON + 1 + (int)col, v->i);
	}
	if (ev->raw_len)
		sqlite3_bind_blob(st, SQL_COMMON + 1 + (int)t->t.ncols, ev->raw,
				  (int)ev->raw_len, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, SQL_COMMON + 1 + (int)t->t.ncols);
	return step(s, st);
}

static int sq_lost(struct output *o, const struct seq_gap *g)
{
	struct sq *s = (struct sq *)o;
	sqlite3_stmt *st = s->ins_lost;

	s->lost += (uint64_t)(g->last - g->first) + 1;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)g->after_ts);
	if (g->before_ts)
		sqlite3_bind_int64(st, 2, (sqlite3_int64)g->before_ts);
	else
		sqlite3_bind_null(st, 2);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)(g->last - g->first) + 1);
	sqlite3_bind_int64(st, 4, g->first);
	sqlite3_bind_int64(st, 5, g->last);
	return step(s, st);
}

static int sq_process(struct output *o, uint64_t ts, const struct proc *p,
		      int32_t ppid, const char *event)
{
	struct sq *s = (struct sq *)o;
	sqlite3_stmt *st = s->ins_proc;

	sqlite3_bind_int64(st, 1, (sqlite3_int64)ts);
	sqlite3_bind_int64(st, 2, p->tid);
	if (p->pid >= 0)
		sqlite3_bind_int(st, 3, p->pid);
	else
		sqlite3_bind_null(st, 3);
	if (ppid >= 0)
		sqlite3_bind_int(st, 4, ppid);
	else
		sqlite3_bind_null(st, 4);
	if (p->comm_len)
		sqlite3_bind_text(st, 5, p->comm, p->comm_len, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 5);
	sqlite3_bind_text(st, 6, event, -1, SQLITE_STATIC);
	return step(s, st);
}

static int sq_report(struct output *o, const struct report *r)
{
	struct sq *s = (struct sq *)o;
	sqlite3_stmt *lat = NULL, *hist = NULL;
	const struct latency *l;
	size_t i;
	int b, ret;

	ret = exec(s, "CREATE TABLE latency (scope TEXT, what TEXT, pid INTEGER, comm TEXT, count INTEGER, total_ns INTEGER, min_ns INTEGER, mean_ns INTEGER, p50_ns INTEGER, p90_ns INTEGER, p99_ns INTEGER, max_ns INTEGER, unmatched_begin INTEGER, unmatched_end INTEGER);"
		   "CREATE TABLE latency_histogram (scope TEXT, what TEXT, pid INTEGER, bucket_ns INTEGER, count INTEGER);"
		   "CREATE VIEW latency_by_event AS SELECT what, count, total_ns, min_ns, mean_ns, p50_ns, p90_ns, p99_ns, max_ns, unmatched_begin, unmatched_end FROM latency WHERE scope = 'event';"
		   "CREATE VIEW latency_by_process AS SELECT what, pid, comm, count, total_ns, min_ns, mean_ns, p50_ns, p90_ns, p99_ns, max_ns FROM latency WHERE scope = 'process'");
	if (!ret)
		ret = prepare(s, "INSERT INTO latency VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", &lat);
	if (!ret)
		ret = prepare(s, "INSERT INTO latency_histogram VALUES (?,?,?,?,?)", &hist);
	for (i = 0; !ret && i < report_count(r); i++) {
		l = report_get(r, i);
		sqlite3_bind_text(lat, 1, l->per_process ? "process" : "event",
				  -1, SQLITE_STATIC);
		sqlite3_bind_text(lat, 2, l->what, -1, SQLITE_STATIC);
		if (l->per_process && l->pid >= 0)
			sqlite3_bind_int(lat, 3, l->pid);
		else
			sqlite3_bind_null(lat, 3);
		if (l->per_process && l->comm[0])
			sqlite3_bind_text(lat, 4, l->comm, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(lat, 4);
		sqlite3_bind_int64(lat, 5, (sqlite3_int64)l->count);
		sqlite3_bind_int64(lat, 6, (sqlite3_int64)l->total);
		sqlite3_bind_int64(lat, 7, (sqlite3_int64)l->min);
		sqlite3_bind_int64(lat, 8, (sqlite3_int64)l->mean);
		sqlite3_bind_int64(lat, 9, (sqlite3_int64)l->p50);
		sqlite3_bind_int64(lat, 10, (sqlite3_int64)l->p90);
		sqlite3_bind_int64(lat, 11, (sqlite3_int64)l->p99);
		sqlite3_bind_int64(lat, 12, (sqlite3_int64)l->max);
		sqlite3_bind_int64(lat, 13, (sqlite3_int64)l->unmatched_begin);
		sqlite3_bind_int64(lat, 14, (sqlite3_int64)l->unmatched_end);
		ret = step(s, lat);
		for (b = 0; !ret && b < REPORT_BUCKETS; b++) {
			if (!l->hist[b])
				continue;
			sqlite3_bind_text(hist, 1, l->per_process ? "process" :
					  "event", -1, SQLITE_STATIC);
			sqlite3_bind_text(hist, 2, l->what, -1, SQLITE_STATIC);
			if (l->per_process && l->pid >= 0)
				sqlite3_bind_int(hist, 3, l->pid);
			else
				sqlite3_bind_null(hist, 3);
			/* bucket 63 holds the negative latencies (time
			 * went back): its bound is INT64_MIN */
			sqlite3_bind_int64(hist, 4,
					   b ? (sqlite3_int64)(1ull << b) : 0);
			sqlite3_bind_int64(hist, 5, (sqlite3_int64)l->hist[b]);
			ret = step(s, hist);
		}
	}
	sqlite3_finalize(lat);
	sqlite3_finalize(hist);
	return ret;
}

/* Append to a growing SQL text. */
static int sql_cat(char **sql, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);
	char *bigger;

	if (*len + n + 1 > *cap) {
		*cap = 2 * (*len + n + 1);
		bigger = realloc(*sql, *cap);
		if (!bigger)
			return -ENOMEM;
		*sql = bigger;
	}
	memcpy(*sql + *len, s, n + 1);
	*len += n;
	return 0;
}

/* The trace row, the events view, the indexes. */
static int sq_schema_end(struct sq *s)
{
	const struct trace_info *info = s->o.trace;
	char *sql = NULL, part[4 * SQL_NAME_MAX + 256], *p;
	const char *e;
	size_t len = 0, cap = 0, i;
	sqlite3_stmt *st = NULL;
	int ret;

	ret = prepare(s, "INSERT INTO trace VALUES (?,?,?,?,?,?,?,?,?)", &st);
	if (ret)
		return ret;
	sqlite3_bind_int(st, 1, info->have_header);
	sqlite3_bind_text(st, 2, info->clock, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, info->kernel, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, info->wall_offset);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)info->first_ts);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)s->last_ts);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)s->events);
	sqlite3_bind_int64(st, 8, (sqlite3_int64)s->lost);
	for (i = 0; !ret && i < info->nfiles; i++) {
		ret = sql_cat(&sql, &len, &cap, info->files[i]);
		if (!ret && i + 1 < info->nfiles)
			ret = sql_cat(&sql, &len, &cap, "\n");
	}
	if (!ret)
		sqlite3_bind_text(st, 9, sql ? sql : "", -1, SQLITE_STATIC);
	if (!ret)
		ret = step(s, st);
	sqlite3_finalize(st);
	len = 0;
	if (!ret)
		ret = sql_cat(&sql, &len, &cap, "CREATE VIEW events AS ");
	for (i = 0; !ret && i < s->ntabs; i++) {
		p = part + sprintf(part, "SELECT time, cpu, tid, pid, comm, '");
		/* the event name in an SQL string literal */
		for (e = s->list[i]->event; *e && p < part + 300; e++) {
			if (*e == '\'')
				*p++ = '\'';
			*p++ = *e;
		}
		p += sprintf(p, "' AS event FROM ");
		p = sql_ident(p, s->list[i]->t.name);
		sprintf(p, " UNION ALL ");
		ret = sql_cat(&sql, &len, &cap, part);
	}
	if (!ret)
		ret = sql_cat(&sql, &len, &cap,
			      "SELECT time, cpu, tid, pid, comm, coalesce(name, 'unknown') AS event FROM unknown_events UNION ALL SELECT time, NULL, NULL, NULL, NULL, 'lket.lost' FROM lost;"
			      "CREATE INDEX processes_tid ON processes(tid);"
			      "CREATE INDEX unknown_events_time ON unknown_events(time);");
	for (i = 0; !ret && i < s->ntabs; i++) {
		const char *name = s->list[i]->t.name;
		char idx[SQL_NAME_MAX + 8];

		p = part + sprintf(part, "CREATE INDEX ");
		snprintf(idx, sizeof(idx), "%s_time", name);
		p = sql_ident(p, idx);
		p += sprintf(p, " ON ");
		p = sql_ident(p, name);
		p += sprintf(p, "(time); CREATE INDEX ");
		snprintf(idx, sizeof(idx), "%s_tid", name);
		p = sql_ident(p, idx);
		p += sprintf(p, " ON ");
		p = sql_ident(p, name);
		sprintf(p, "(tid);");
		ret = sql_cat(&sql, &len, &cap, part);
	}
	if (!ret)
		ret = exec(s, sql);
	free(sql);
	return ret;
}

static int sq_finish(struct output *o)
{
	struct sq *s = (struct sq *)o;
	int ret, rc;
	size_t i;

	ret = sq_schema_end(s);
	if (!ret)
		ret = exec(s, "COMMIT");
	for (i = 0; i < s->ntabs; i++) {
		sqlite3_finalize(s->list[i]->ins);
		s->list[i]->ins = NULL;
	}
	sqlite3_finalize(s->ins_unknown);
	sqlite3_finalize(s->ins_proc);
	sqlite3_finalize(s->ins_lost);
	s->ins_unknown = s->ins_proc = s->ins_lost = NULL;
	if (ret)
		return ret;
	rc = sqlite3_close(s->db);
	s->db = NULL;
	return rc == SQLITE_OK ? 0 : -EIO;
}

static void sq_free(struct output *o)
{
	struct sq *s = (struct sq *)o;
	size_t i;

	for (i = 0; i < s->ntabs; i++) {
		sqlite3_finalize(s->list[i]->ins);
		sql_table_free(&s->list[i]->t);
		free(s->list[i]);
	}
	sqlite3_finalize(s->ins_unknown);
	sqlite3_finalize(s->ins_proc);
	sqlite3_finalize(s->ins_lost);
	if (s->db)
		sqlite3_close(s->db);
	free(s->list);
	free(s->by_id);
	free(s);
}

int output_sqlite_new(struct output **o, struct sqlite_options *opt)
{
	struct sq *s = calloc(1, sizeof(*s));
	struct stat st;
	int ret, rc;

	opt->message[0] = '\0';
	if (!s)
		return -ENOMEM;
	s->opt = opt;
	s->o.event = sq_event;
	s->o.lost = sq_lost;
	s->o.process = sq_process;
	s->o.report = sq_report;
	s->o.finish = sq_finish;
	s->o.free = sq_free;
	if (!opt->replace && lstat(opt->path, &st) == 0) {
		ret = -EEXIST;
		goto err;
	}
	s->by_id = calloc(256 * 256, sizeof(*s->by_id));
	if (!s->by_id) {
		ret = -ENOMEM;
		goto err;
	}
	/* one thread: no locks, no memory statistics */
	sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	rc = sqlite3_open_v2(opt->file, &s->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		ret = fail(s, rc);
		goto err;
	}
	ret = exec(s, "PRAGMA page_size = 16384; PRAGMA journal_mode = OFF;"
		   "PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;"
		   "PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536;"
		   "BEGIN;"
		   "CREATE TABLE trace (header INTEGER, clock TEXT, kernel TEXT, wall_offset INTEGER, first_time INTEGER, last_time INTEGER, events INTEGER, lost INTEGER, files TEXT);"
		   "CREATE TABLE processes (time INTEGER, tid INTEGER, pid INTEGER, ppid INTEGER, comm TEXT, event TEXT);"
		   "CREATE TABLE lost (time INTEGER, until INTEGER, count INTEGER, first_seq INTEGER, last_seq INTEGER);"
		   "CREATE TABLE unknown_events (time INTEGER NOT NULL, cpu INTEGER, tid INTEGER, pid INTEGER, comm TEXT, grp INTEGER, hook INTEGER, name TEXT, raw BLOB)");
	if (!ret)
		ret = prepare(s, "INSERT INTO unknown_events VALUES (?,?,?,?,?,?,?,?,?)",
			      &s->ins_unknown);
	if (!ret)
		ret = prepare(s, "INSERT INTO processes VALUES (?,?,?,?,?,?)",
			      &s->ins_proc);
	if (!ret)
		ret = prepare(s, "INSERT INTO lost VALUES (?,?,?,?,?)",
			      &s->ins_lost);
	if (ret)
		goto err;
	*o = &s->o;
	return 0;
err:
	sq_free(&s->o);
	return ret;
}
