// SPDX-License-Identifier: GPL-2.0
/*
 * out_sqlite.c - an SQLite database (schema and values in sqlschema.h and
 * lket-b2a(1)): a table per event, processes, lost, trace, other_events,
 * the view events, and with a report, latency and latency_histogram.
 *
 * Written to the caller's temporary file (tmpfile.h) with the journal
 * off, in transactions of ROWS_PER_TX rows through one prepared statement
 * per table, with a page cache of CACHE_KIB; indexes are made at the end,
 * sorting through temporary files.  Memory stays flat whatever the size of
 * the trace.  The caller puts the file in place: a conversion that fails
 * leaves no database, and never a half-written one.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../runtime/lket_format.h"
#include "outbuf.h"
#include "outfmt.h"
#include "output.h"
#include "report.h"
#include "sqlschema.h"

static const struct sql_types sqlite_types = {
	.int64 = "INTEGER", .bytes = "BLOB", .boolean = "INTEGER",
	/* printf's %x shows a negative integer's 64 bits */
	.hex_pre = "printf('0x%x', ", .hex_post = ")",
};

#define ROWS_PER_TX	(1u << 16)
#define CACHE_KIB	16384

struct sqtab {
	struct sql_table t;
	sqlite3_stmt *ins;
};

struct sq {
	struct output o;
	struct sqlite_options *opt;
	sqlite3 *db;
	struct sql_schema schema;
	struct sqtab **by_id;		/* group << 8 | hook */
	struct sqtab **list;
	size_t ntabs;
	struct sqtab other;		/* by_id of events in other_events */
	sqlite3_stmt *ins_unknown, *ins_proc, *ins_lost;
	char *scratch;			/* a row's strings, escaped */
	size_t scratch_size;
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
	char *sql = NULL, *p;
	unsigned int i;
	int ret;

	t = calloc(1, sizeof(*t));
	bigger = realloc(s->list, (s->ntabs + 1) * sizeof(*bigger));
	if (bigger)
		s->list = bigger;
	if (!t || !bigger) {
		free(t);
		return -ENOMEM;
	}
	ret = sql_table_init(&s->schema, &t->t, ev->meta, ev->group, ev->hook);
	if (ret) {
		free(t);
		if (ret < 0)
			return ret;
		s->by_id[id] = *out = &s->other;
		return 0;
	}
	/* listed first: freed with the output whatever happens next */
	s->list[s->ntabs++] = t;
	sql = sql_create_table(&s->schema, &t->t);
	if (!sql)
		return -ENOMEM;
	ret = exec(s, sql);
	free(sql);
	if (ret)
		return ret;
	sql = malloc(2 * SQL_NAME_MAX + 32 + 2 * (SQL_COMMON + t->t.ncols + 1));
	if (!sql)
		return -ENOMEM;
	p = sql + sprintf(sql, "INSERT INTO ");
	p = sql_ident(p, t->t.name);
	p += sprintf(p, " VALUES (?");
	for (i = 1; i < SQL_COMMON + t->t.ncols + 1; i++)
		p += sprintf(p, ",?");
	sprintf(p, ")");
	ret = prepare(s, sql, &t->ins);
	free(sql);
	if (ret)
		return ret;
	s->by_id[id] = *out = t;
	return 0;
}

/* Room for a row's escaped strings: n bytes. */
static int scratch_room(struct sq *s, size_t n)
{
	char *bigger;

	if (n <= s->scratch_size)
		return 0;
	bigger = realloc(s->scratch, n);
	if (!bigger)
		return -ENOMEM;
	s->scratch = bigger;
	s->scratch_size = n;
	return 0;
}

/* Bind str as the databases hold strings, escaped at *at (scratch). */
static void bind_text(sqlite3_stmt *st, int col, const char *str, size_t len,
		      char **at)
{
	char *e = fmt_utf8_escaped(*at, str, len, 0);

	sqlite3_bind_text(st, col, *at, (int)(e - *at), SQLITE_STATIC);
	*at = e;
}

static void bind_common(sqlite3_stmt *st, const struct event *ev,
			const struct proc *proc, char **at)
{
	sqlite3_bind_int64(st, 1, (sqlite3_int64)ev->rec->timestamp);
	sqlite3_bind_int(st, 2, (int)ev->cpu);
	sqlite3_bind_int64(st, 3, ev->tid);
	if (proc && proc->pid >= 0)
		sqlite3_bind_int(st, 4, proc->pid);
	else
		sqlite3_bind_null(st, 4);
	if (proc && proc->comm_len)
		bind_text(st, 5, proc->comm, proc->comm_len, at);
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
	char *at, *e;
	int ret;

	s->events++;
	s->last_ts = ev->rec->timestamp;
	ret = scratch_room(s, 4 * PROC_COMM_LEN + 5 * (size_t)ev->rec->size +
			   outfmt_fields_room(ev) + 1024);
	if (ret)
		return ret;
	at = s->scratch;
	if (!ev->meta || !ev->meta->named || !ev->meta->sys.defined) {
		st = s->ins_unknown;
		bind_common(st, ev, proc, &at);
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
	bind_common(st, ev, proc, &at);
	if (t == &s->other) {
		sqlite3_bind_text(st, 6, ev->meta->name, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 7, (int)ev->group);
		sqlite3_bind_int(st, 8, (int)ev->hook);
		e = outfmt_fields(at, ev);
		sqlite3_bind_text(st, 9, at, (int)(e - at), SQLITE_STATIC);
		return step(s, st);
	}
	for (i = 0; i < t->t.ncols; i++)
		sqlite3_bind_null(st, SQL_COMMON + 1 + (int)i);
	for (i = 0; i < ev->nvalues; i++) {
		v = &ev->v[i];
		col = sql_column(&t->t, ev, i);
		if (col == t->t.ncols)
			continue;
		if (v->f->type == LKET_STRING)
			bind_text(st, SQL_COMMON + 1 + (int)col, v->s, v->slen,
				  &at);
		else
			sqlite3_bind_int64(st, SQL_COMMON + 1 + (int)col,
					   sql_int(v));
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

	s->lost += seq_gap_count(g);
	sqlite3_bind_int64(st, 1, (sqlite3_int64)g->after_ts);
	if (g->before_ts)
		sqlite3_bind_int64(st, 2, (sqlite3_int64)g->before_ts);
	else
		sqlite3_bind_null(st, 2);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)seq_gap_count(g));
	/* dropped records: no flush numbers */
	if (g->records) {
		sqlite3_bind_null(st, 4);
		sqlite3_bind_null(st, 5);
	} else {
		sqlite3_bind_int64(st, 4, g->first);
		sqlite3_bind_int64(st, 5, g->last);
	}
	/* the CPU when known (format version 2), as lket.out shows it */
	if (g->cpu >= 0)
		sqlite3_bind_int64(st, 6, g->cpu);
	else
		sqlite3_bind_null(st, 6);
	return step(s, st);
}

static int sq_process(struct output *o, uint64_t ts, const struct proc *p,
		      int32_t ppid, const char *event)
{
	struct sq *s = (struct sq *)o;
	sqlite3_stmt *st = s->ins_proc;
	char *at;
	int ret;

	ret = scratch_room(s, 4 * (PROC_COMM_LEN + strlen(event)) + 16);
	if (ret)
		return ret;
	at = s->scratch;
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
		bind_text(st, 5, p->comm, p->comm_len, &at);
	else
		sqlite3_bind_null(st, 5);
	bind_text(st, 6, event, strlen(event), &at);
	return step(s, st);
}

static int sq_report(struct output *o, const struct report *r)
{
	struct sq *s = (struct sq *)o;
	sqlite3_stmt *lat = NULL, *hist = NULL;
	const struct latency *l;
	size_t i;
	int b, ret;

	char *sql = sql_create_report(&s->schema), *at;

	ret = sql ? exec(s, sql) : -ENOMEM;
	free(sql);
	if (!ret)
		ret = prepare(s, "INSERT INTO latency VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", &lat);
	if (!ret)
		ret = prepare(s, "INSERT INTO latency_histogram VALUES (?,?,?,?,?)", &hist);
	for (i = 0; !ret && i < report_count(r); i++) {
		l = report_get(r, i);
		ret = scratch_room(s, 8 * (strlen(l->what) + sizeof(l->comm)));
		if (ret)
			break;
		at = s->scratch;
		sqlite3_bind_text(lat, 1, l->per_process ? "process" : "event",
				  -1, SQLITE_STATIC);
		bind_text(lat, 2, l->what, strlen(l->what), &at);
		if (l->per_process && l->pid >= 0)
			sqlite3_bind_int(lat, 3, l->pid);
		else
			sqlite3_bind_null(lat, 3);
		if (l->per_process && l->comm[0])
			bind_text(lat, 4, l->comm, strlen(l->comm), &at);
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
			bind_text(hist, 2, l->what, strlen(l->what), &at);
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

/* The trace row; the events view, the NAME_hex views, the indexes. */
static int sq_schema_end(struct sq *s)
{
	const struct trace_info *info = s->o.trace;
	sqlite3_stmt *st = NULL;
	size_t n = 0, i;
	char *sql, *at;
	int ret;

	for (i = 0; i < info->nfiles; i++)
		n += strlen(info->files[i]) + 1;
	ret = scratch_room(s, 4 * (n + sizeof(info->clock) +
				   sizeof(info->kernel)) + 16);
	if (!ret)
		ret = prepare(s, "INSERT INTO trace VALUES (?,?,?,?,?,?,?,?,?)",
			      &st);
	if (ret)
		return ret;
	at = s->scratch;
	sqlite3_bind_int(st, 1, info->have_header);
	bind_text(st, 2, info->clock, strlen(info->clock), &at);
	bind_text(st, 3, info->kernel, strlen(info->kernel), &at);
	sqlite3_bind_int64(st, 4, info->wall_offset);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)info->first_ts);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)s->last_ts);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)s->events);
	sqlite3_bind_int64(st, 8, (sqlite3_int64)s->lost);
	/* the files, one a line */
	sql = at;
	for (i = 0; i < info->nfiles; i++) {
		at = fmt_utf8_escaped(at, info->files[i],
				      strlen(info->files[i]), 0);
		if (i + 1 < info->nfiles)
			*at++ = '\n';
	}
	sqlite3_bind_text(st, 9, sql, (int)(at - sql), SQLITE_STATIC);
	ret = step(s, st);
	sqlite3_finalize(st);
	if (ret)
		return ret;
	sql = sql_create_end(&s->schema);
	ret = sql ? exec(s, sql) : -ENOMEM;
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
	sqlite3_finalize(s->other.ins);
	s->ins_unknown = s->ins_proc = s->ins_lost = s->other.ins = NULL;
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
	sqlite3_finalize(s->other.ins);
	if (s->db)
		sqlite3_close(s->db);
	sql_schema_free(&s->schema);
	free(s->scratch);
	free(s->list);
	free(s->by_id);
	free(s);
}

int output_sqlite_new(struct output **o, struct sqlite_options *opt)
{
	struct sq *s = calloc(1, sizeof(*s));
	char pragmas[512], *sql;
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
	sql_schema_init(&s->schema, &sqlite_types, opt->diag, opt->path);
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
	/*
	 * A bounded page cache, dirty pages spilled to the file as it fills
	 * (there is no journal to keep them for), sorts for the indexes
	 * through temporary files: memory does not grow with the trace.
	 */
	snprintf(pragmas, sizeof(pragmas),
		 "PRAGMA page_size = 16384; PRAGMA journal_mode = OFF;"
		 "PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;"
		 "PRAGMA temp_store = FILE; PRAGMA cache_size = -%d;"
		 "PRAGMA cache_spill = ON; BEGIN", CACHE_KIB);
	ret = exec(s, pragmas);
	if (!ret) {
		sql = sql_create_base(&s->schema);
		ret = sql ? exec(s, sql) : -ENOMEM;
		free(sql);
	}
	if (!ret)
		ret = prepare(s, "INSERT INTO other_events VALUES (?,?,?,?,?,?,?,?,?)",
			      &s->other.ins);
	if (!ret)
		ret = prepare(s, "INSERT INTO unknown_events VALUES (?,?,?,?,?,?,?,?,?)",
			      &s->ins_unknown);
	if (!ret)
		ret = prepare(s, "INSERT INTO processes VALUES (?,?,?,?,?,?)",
			      &s->ins_proc);
	if (!ret)
		ret = prepare(s, "INSERT INTO lost VALUES (?,?,?,?,?,?)",
			      &s->ins_lost);
	if (ret)
		goto err;
	*o = &s->o;
	return 0;
err:
	sq_free(&s->o);
	return ret;
}
