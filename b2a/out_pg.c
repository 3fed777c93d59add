// SPDX-License-Identifier: GPL-2.0
/*
 * out_pg.c - PostgreSQL: the schema of sqlschema.h in a schema of its own,
 * loaded with COPY inside one transaction, so that a failure (a refused
 * connection, a lost one, a missing permission) leaves nothing behind.
 *
 * Rows are kept per table in COPY text format and sent when a table's
 * buffer fills (one COPY can run at a time, and events of all tables come
 * interleaved), and all of them when PENDING_MAX bytes wait.  Strings
 * and integers as sqlschema.h says, the same as in SQLite.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/lket_format.h"
#include "outbuf.h"
#include "outfmt.h"
#include "output.h"
#include "report.h"
#include "sqlschema.h"

#define COPY_FLUSH	(1u << 20)
/* rows waiting in all tables' buffers: memory does not grow with the
 * number of tables either */
#define PENDING_MAX	(16u << 20)

static const struct sql_types pg_types = {
	.int64 = "BIGINT", .bytes = "BYTEA", .boolean = "BOOLEAN",
	/* to_hex() shows a negative bigint's 64 bits */
	.hex_pre = "'0x' || to_hex(", .hex_post = ")",
};

struct pgbuf {
	char name[SQL_NAME_MAX];	/* the table */
	char *buf;
	size_t len, cap;
};

struct pgtab {
	struct sql_table t;
	struct pgbuf b;
};

struct pg {
	struct output o;
	struct pg_options *opt;
	PGconn *conn;
	struct sql_schema schema;
	char label[SQL_NAME_MAX + 32];	/* for notes */
	struct pgtab **by_id;
	struct pgtab **list;
	size_t ntabs;
	struct pgtab other;		/* by_id of events in other_events */
	struct pgbuf unknown, procs, lost;
	size_t pending;			/* bytes in the tables' buffers */
	uint64_t events, last_ts, nlost;
	bool in_tx;
};

static void strip(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* A failure: the server's words for main, a negative errno. */
static int fail(struct pg *p, const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) :
			    NULL;

	snprintf(p->opt->message, sizeof(p->opt->message), "%s",
		 res && *PQresultErrorMessage(res) ? PQresultErrorMessage(res) :
		 PQerrorMessage(p->conn));
	strip(p->opt->message);
	if (PQstatus(p->conn) == CONNECTION_BAD) {
		if (!p->opt->message[0])
			snprintf(p->opt->message, sizeof(p->opt->message),
				 "the connection to the server was lost");
		return -ECONNRESET;
	}
	if (state && !strcmp(state, "42501"))
		return -EACCES;
	if (state && !strncmp(state, "53", 2))
		return -ENOSPC;
	return -EIO;
}

static int exec(struct pg *p, const char *sql)
{
	PGresult *res = PQexec(p->conn, sql);
	int ret = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK)
		ret = fail(p, res);
	PQclear(res);
	return ret;
}

static int room(struct pgbuf *b, size_t n)
{
	char *bigger;

	if (b->len + n <= b->cap)
		return 0;
	b->cap = 2 * (b->len + n);
	bigger = realloc(b->buf, b->cap);
	if (!bigger)
		return -ENOMEM;
	b->buf = bigger;
	return 0;
}

/* Send a table's rows with one COPY. */
static int send_rows(struct pg *p, struct pgbuf *b)
{
	char sql[2 * SQL_NAME_MAX + 64], *q;
	PGresult *res;
	int ret = 0;

	if (!b->len)
		return 0;
	q = sql + sprintf(sql, "COPY ");
	q = sql_ident(q, b->name);
	sprintf(q, " FROM STDIN");
	res = PQexec(p->conn, sql);
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		ret = fail(p, res);
		PQclear(res);
		return ret;
	}
	PQclear(res);
	if (PQputCopyData(p->conn, b->buf, (int)b->len) != 1 ||
	    PQputCopyEnd(p->conn, NULL) != 1)
		ret = fail(p, NULL);
	while ((res = PQgetResult(p->conn))) {
		if (!ret && PQresultStatus(res) != PGRES_COMMAND_OK)
			ret = fail(p, res);
		PQclear(res);
	}
	b->len = 0;
	return ret;
}

static int send_all(struct pg *p)
{
	size_t i;
	int ret;

	ret = send_rows(p, &p->unknown);
	if (!ret)
		ret = send_rows(p, &p->procs);
	if (!ret)
		ret = send_rows(p, &p->lost);
	if (!ret)
		ret = send_rows(p, &p->other.b);
	for (i = 0; !ret && i < p->ntabs; i++)
		ret = send_rows(p, &p->list[i]->b);
	p->pending = 0;
	return ret;
}

/* row: its first byte in b */
static int row_end(struct pg *p, struct pgbuf *b, size_t row)
{
	b->buf[b->len - 1] = '\n';	/* the last tab */
	p->pending += b->len - row;
	if (p->pending >= PENDING_MAX)
		return send_all(p);
	return b->len >= COPY_FLUSH ? send_rows(p, b) : 0;
}

static void put_null(struct pgbuf *b)
{
	memcpy(b->buf + b->len, "\\N\t", 3);
	b->len += 3;
}

static void put_i64(struct pgbuf *b, int64_t v)
{
	b->len = (size_t)(fmt_i64(b->buf + b->len, v) - b->buf);
	b->buf[b->len++] = '\t';
}

/* A string as the databases hold it, for COPY text format; room: 5 bytes
 * per byte, + 1. */
static void put_text(struct pgbuf *b, const char *s, size_t n)
{
	char *o = fmt_utf8_escaped(b->buf + b->len, s, n, ESC_COPY);

	*o++ = '\t';
	b->len = (size_t)(o - b->buf);
}

/* Text from..end (in b's own buffer, at or after its end) for COPY:
 * backslashes doubled. */
static void put_copy(struct pgbuf *b, const char *from, const char *end)
{
	char *o = b->buf + b->len;

	for (; from < end; from++) {
		if (*from == '\\')
			*o++ = '\\';
		*o++ = *from;
	}
	*o++ = '\t';
	b->len = (size_t)(o - b->buf);
}

static void put_bytea(struct pgbuf *b, const uint8_t *d, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	memcpy(b->buf + b->len, "\\\\x", 3);
	b->len += 3;
	for (i = 0; i < n; i++) {
		b->buf[b->len++] = hex[d[i] >> 4];
		b->buf[b->len++] = hex[d[i] & 15];
	}
	b->buf[b->len++] = '\t';
}

static void put_common(struct pgbuf *b, const struct event *ev,
		       const struct proc *proc)
{
	put_i64(b, (int64_t)ev->rec->timestamp);
	put_i64(b, ev->cpu);
	put_i64(b, ev->tid);
	if (proc && proc->pid >= 0)
		put_i64(b, proc->pid);
	else
		put_null(b);
	if (proc && proc->comm_len)
		put_text(b, proc->comm, proc->comm_len);
	else
		put_null(b);
}

static int table_for(struct pg *p, const struct event *ev, struct pgtab **out)
{
	size_t id = (ev->group & 0xff) << 8 | (ev->hook & 0xff);
	struct pgtab *t = calloc(1, sizeof(*t)), **bigger;
	char *sql;
	int ret;

	bigger = realloc(p->list, (p->ntabs + 1) * sizeof(*bigger));
	if (bigger)
		p->list = bigger;
	if (!t || !bigger) {
		free(t);
		return -ENOMEM;
	}
	ret = sql_table_init(&p->schema, &t->t, ev->meta, ev->group, ev->hook);
	if (ret) {
		free(t);
		if (ret < 0)
			return ret;
		p->by_id[id] = *out = &p->other;
		return 0;
	}
	/* listed first: freed with the output whatever happens next */
	p->list[p->ntabs++] = t;
	strcpy(t->b.name, t->t.name);
	sql = sql_create_table(&p->schema, &t->t);
	ret = sql ? exec(p, sql) : -ENOMEM;
	free(sql);
	if (ret)
		return ret;
	p->by_id[id] = *out = t;
	return 0;
}

static int pg_event(struct output *o, const struct event *ev,
		    const struct proc *proc)
{
	struct pg *p = (struct pg *)o;
	const struct value *v;
	unsigned int i, col;
	struct pgtab *t;
	struct pgbuf *b;
	const char *name;
	size_t row;
	char *e;
	int ret;

	p->events++;
	p->last_ts = ev->rec->timestamp;
	ret = 0;
	if (!ev->meta || !ev->meta->named || !ev->meta->sys.defined) {
		b = &p->unknown;
		if (room(b, 256 + 5 * PROC_COMM_LEN + 2 * ev->rec->size +
			 5 * 300))
			return -ENOMEM;
		row = b->len;
		put_common(b, ev, proc);
		put_i64(b, ev->group);
		put_i64(b, ev->hook);
		name = ev->meta && ev->meta->named ? ev->meta->name :
		       meta_catalogue_name(ev->group, ev->hook);
		if (name)
			put_text(b, name, strlen(name));
		else
			put_null(b);
		put_bytea(b, ev->rec->data + LKET_RECORD_HEAD_SIZE,
			  ev->rec->size - LKET_RECORD_HEAD_SIZE);
		return row_end(p, b, row);
	}
	t = p->by_id[(ev->group & 0xff) << 8 | (ev->hook & 0xff)];
	if (!t)
		ret = table_for(p, ev, &t);
	if (ret)
		return ret;
	b = &t->b;
	/* other_events: the fields' text, its backslashes doubled */
	if (room(b, 256 + 5 * PROC_COMM_LEN + 5 * (size_t)ev->rec->size +
		 (t->t.ncols + 1) * (OUTBUF_NUM_MAX + 4) + 2 * ev->raw_len +
		 (t == &p->other ? 2 * outfmt_fields_room(ev) + 5 * 256 : 0)))
		return -ENOMEM;
	row = b->len;
	put_common(b, ev, proc);
	if (t == &p->other) {
		put_text(b, ev->meta->name, strlen(ev->meta->name));
		put_i64(b, ev->group);
		put_i64(b, ev->hook);
		/* written once, then copied over itself with '\' doubled */
		e = outfmt_fields(b->buf + b->len + outfmt_fields_room(ev), ev);
		put_copy(b, b->buf + b->len + outfmt_fields_room(ev), e);
		return row_end(p, b, row);
	}
	for (col = 0; col < t->t.ncols; col++) {
		i = col < ev->meta->sys.n ? col :
		    ev->nsys + (col - ev->meta->sys.n);
		if ((col < ev->meta->sys.n && col >= ev->nsys) ||
		    i >= ev->nvalues) {
			put_null(b);
			continue;
		}
		v = &ev->v[i];
		if (v->f->type == LKET_STRING)
			put_text(b, v->s, v->slen);
		else
			put_i64(b, sql_int(v));
	}
	if (ev->raw_len)
		put_bytea(b, ev->raw, ev->raw_len);
	else
		put_null(b);
	return row_end(p, b, row);
}

static int pg_lost(struct output *o, const struct seq_gap *g)
{
	struct pg *p = (struct pg *)o;
	struct pgbuf *b = &p->lost;
	size_t row = b->len;

	p->nlost += seq_gap_count(g);
	if (room(b, 256))
		return -ENOMEM;
	put_i64(b, (int64_t)g->after_ts);
	if (g->before_ts)
		put_i64(b, (int64_t)g->before_ts);
	else
		put_null(b);
	put_i64(b, (int64_t)seq_gap_count(g));
	/* dropped records: no flush numbers */
	if (g->records) {
		put_null(b);
		put_null(b);
	} else {
		put_i64(b, g->first);
		put_i64(b, g->last);
	}
	/* the CPU when known (format version 2), as lket.out shows it */
	if (g->cpu >= 0)
		put_i64(b, g->cpu);
	else
		put_null(b);
	return row_end(p, b, row);
}

static int pg_process(struct output *o, uint64_t ts, const struct proc *pr,
		      int32_t ppid, const char *event)
{
	struct pg *p = (struct pg *)o;
	struct pgbuf *b = &p->procs;
	size_t row = b->len;

	if (room(b, 256 + 5 * PROC_COMM_LEN + 5 * strlen(event)))
		return -ENOMEM;
	put_i64(b, (int64_t)ts);
	put_i64(b, pr->tid);
	if (pr->pid >= 0)
		put_i64(b, pr->pid);
	else
		put_null(b);
	if (ppid >= 0)
		put_i64(b, ppid);
	else
		put_null(b);
	if (pr->comm_len)
		put_text(b, pr->comm, pr->comm_len);
	else
		put_null(b);
	put_text(b, event, strlen(event));
	return row_end(p, b, row);
}

static int pg_report(struct output *o, const struct report *r)
{
	struct pg *p = (struct pg *)o;
	struct pgbuf lat = { .name = "latency" }, hist = { .name = "latency_histogram" };
	const struct latency *l;
	size_t i, row;
	int b, ret;
	char *sql = sql_create_report(&p->schema);

	ret = sql ? exec(p, sql) : -ENOMEM;
	free(sql);
	for (i = 0; !ret && i < report_count(r); i++) {
		l = report_get(r, i);
		if (room(&lat, 2048 + 5 * strlen(l->what)) ||
		    room(&hist, 64 * (1400 + 5 * strlen(l->what)))) {
			ret = -ENOMEM;
			break;
		}
		row = lat.len;
		put_text(&lat, l->per_process ? "process" : "event",
			 l->per_process ? 7 : 5);
		put_text(&lat, l->what, strlen(l->what));
		if (l->per_process && l->pid >= 0)
			put_i64(&lat, l->pid);
		else
			put_null(&lat);
		if (l->per_process && l->comm[0])
			put_text(&lat, l->comm, strlen(l->comm));
		else
			put_null(&lat);
		put_i64(&lat, (int64_t)l->count);
		put_i64(&lat, (int64_t)l->total);
		put_i64(&lat, (int64_t)l->min);
		put_i64(&lat, (int64_t)l->mean);
		put_i64(&lat, (int64_t)l->p50);
		put_i64(&lat, (int64_t)l->p90);
		put_i64(&lat, (int64_t)l->p99);
		put_i64(&lat, (int64_t)l->max);
		put_i64(&lat, (int64_t)l->unmatched_begin);
		put_i64(&lat, (int64_t)l->unmatched_end);
		ret = row_end(p, &lat, row);
		for (b = 0; !ret && b < REPORT_BUCKETS; b++) {
			if (!l->hist[b])
				continue;
			row = hist.len;
			put_text(&hist, l->per_process ? "process" : "event",
				 l->per_process ? 7 : 5);
			put_text(&hist, l->what, strlen(l->what));
			if (l->per_process && l->pid >= 0)
				put_i64(&hist, l->pid);
			else
				put_null(&hist);
			/* bucket 63: negative latencies, INT64_MIN */
			put_i64(&hist, b ? (int64_t)(1ull << b) : 0);
			put_i64(&hist, (int64_t)l->hist[b]);
			ret = row_end(p, &hist, row);
		}
	}
	if (!ret)
		ret = send_rows(p, &lat);
	if (!ret)
		ret = send_rows(p, &hist);
	free(lat.buf);
	free(hist.buf);
	return ret;
}

static int pg_finish(struct output *o)
{
	struct pg *p = (struct pg *)o;
	const struct trace_info *info = o->trace;
	struct pgbuf b = { .name = "trace" };
	size_t i, n = 0;
	char *sql;
	int ret;

	ret = send_all(p);
	for (i = 0; i < info->nfiles; i++)
		n += strlen(info->files[i]) + 1;
	if (!ret && room(&b, 1024 + 5 * n))
		ret = -ENOMEM;
	if (!ret) {
		put_text(&b, info->have_header ? "t" : "f", 1);
		put_text(&b, info->clock, strlen(info->clock));
		put_text(&b, info->kernel, strlen(info->kernel));
		put_i64(&b, info->wall_offset);
		put_i64(&b, (int64_t)info->first_ts);
		put_i64(&b, (int64_t)p->last_ts);
		put_i64(&b, (int64_t)p->events);
		put_i64(&b, (int64_t)p->nlost);
		/* the files, one a line: \n in COPY text */
		for (i = 0; i < info->nfiles; i++) {
			put_text(&b, info->files[i], strlen(info->files[i]));
			b.buf[b.len - 1] = '\\';
			b.buf[b.len++] = 'n';
		}
		if (info->nfiles)
			b.len -= 2;
		b.buf[b.len++] = '\n';
		ret = send_rows(p, &b);
	}
	free(b.buf);
	if (!ret) {
		sql = sql_create_end(&p->schema);
		ret = sql ? exec(p, sql) : -ENOMEM;
		free(sql);
	}
	if (!ret)
		ret = exec(p, "COMMIT");
	if (!ret)
		p->in_tx = false;
	return ret;
}

static void pg_free(struct output *o)
{
	struct pg *p = (struct pg *)o;
	size_t i;

	for (i = 0; i < p->ntabs; i++) {
		sql_table_free(&p->list[i]->t);
		free(p->list[i]->b.buf);
		free(p->list[i]);
	}
	/* a transaction still open is rolled back with the connection */
	if (p->conn)
		PQfinish(p->conn);
	free(p->unknown.buf);
	free(p->procs.buf);
	free(p->lost.buf);
	free(p->other.b.buf);
	sql_schema_free(&p->schema);
	free(p->list);
	free(p->by_id);
	free(p);
}

int output_pg_new(struct output **o, struct pg_options *opt)
{
	struct pg *p = calloc(1, sizeof(*p));
	const char *params[1];
	char sql[4 * SQL_NAME_MAX + 256], *q;
	PGresult *res;
	int ret;

	opt->message[0] = '\0';
	if (!p)
		return -ENOMEM;
	p->opt = opt;
	p->o.event = pg_event;
	p->o.lost = pg_lost;
	p->o.process = pg_process;
	p->o.report = pg_report;
	p->o.finish = pg_finish;
	p->o.free = pg_free;
	strcpy(p->unknown.name, "unknown_events");
	strcpy(p->procs.name, "processes");
	strcpy(p->lost.name, "lost");
	strcpy(p->other.b.name, "other_events");
	snprintf(p->label, sizeof(p->label), "PostgreSQL schema %.*s",
		 SQL_NAME_MAX, opt->schema);
	sql_schema_init(&p->schema, &pg_types, opt->diag, p->label);
	p->by_id = calloc(256 * 256, sizeof(*p->by_id));
	if (!p->by_id || strlen(opt->schema) >= SQL_NAME_MAX) {
		ret = p->by_id ? -ENAMETOOLONG : -ENOMEM;
		goto err;
	}
	p->conn = PQconnectdb(opt->conninfo);
	if (!p->conn) {
		ret = -ENOMEM;
		goto err;
	}
	if (PQstatus(p->conn) != CONNECTION_OK) {
		snprintf(opt->message, sizeof(opt->message), "cannot connect: %s",
			 PQerrorMessage(p->conn));
		strip(opt->message);
		ret = -ECONNREFUSED;
		goto err;
	}
	ret = exec(p, "SET client_min_messages = warning; BEGIN");
	if (ret)
		goto err;
	p->in_tx = true;
	params[0] = opt->schema;
	res = PQexecParams(p->conn,
			   "SELECT 1 FROM pg_namespace WHERE nspname = $1",
			   1, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		ret = fail(p, res);
		PQclear(res);
		goto err;
	}
	if (PQntuples(res) && !opt->replace) {
		PQclear(res);
		ret = -EEXIST;
		goto err;
	}
	q = sql;
	if (PQntuples(res)) {
		q += sprintf(q, "DROP SCHEMA ");
		q = sql_ident(q, opt->schema);
		q += sprintf(q, " CASCADE; ");
	}
	PQclear(res);
	q += sprintf(q, "CREATE SCHEMA ");
	q = sql_ident(q, opt->schema);
	q += sprintf(q, "; SET LOCAL search_path TO ");
	sql_ident(q, opt->schema);
	ret = exec(p, sql);
	if (!ret) {
		char *base = sql_create_base(&p->schema);

		ret = base ? exec(p, base) : -ENOMEM;
		free(base);
	}
	if (ret)
		goto err;
	*o = &p->o;
	return 0;
err:
	pg_free(&p->o);
	return ret;
}
