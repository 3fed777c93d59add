// SPDX-License-Identifier: GPL-2.0
/*
 * out_pg.c - PostgreSQL: the schema of sql.h in a schema that the loads
 * of several hosts share, each host's rows in partitions of its own.
 *
 * Two connections.  One makes what loads share (the schema, the parent
 * tables, views, their row in event_tables), each time in a short
 * transaction of its own under the schema's advisory lock, so that loads
 * running at once see each other's tables and never make one twice.  The
 * other loads in one transaction: each host's rows go with COPY into
 * tables of their own (NAME#N, N the host's number from lket_parts),
 * which are given their indexes and attached as the host's partitions
 * just before the commit, in the order of their names (two loads never
 * wait on each other in a circle).  A failure leaves none of the host's
 * rows.  A host loaded already is refused, or with --replace dropped in
 * the same transaction (lket_drop_host()): such a load holds the schema's
 * lock until its commit, and makes the shared tables itself.
 *
 * Rows are kept per partition in COPY text format and sent when a
 * buffer fills (one COPY can run at a time, and events of all tables
 * come interleaved), and all of them when PENDING_MAX bytes wait.
 */
#include <errno.h>
#include <limits.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/db/db.h"
#include "output/db/out_pg.h"
#include "output/db/sql.h"
#include "output/line/outfmt.h"
#include "output/output.h"
#include "output/registry.h"
#include "util/outbuf.h"

#define COPY_FLUSH	(1u << 20)
/* rows waiting in all tables' buffers: memory does not grow with the
 * number of tables either */
#define PENDING_MAX	(16u << 20)

static const struct sql_dialect pg_dialect = {
	.int64 = "BIGINT", .bytes = "BYTEA", .boolean = "BOOLEAN",
	/* to_hex() shows a negative bigint's 64 bits */
	.hex_pre = "'0x' || to_hex(", .hex_post = ")",
	.partitioned = true,
};

/* A table's rows of one host, waiting for COPY into part. */
struct pgbuf {
	char part[SQL_NAME_MAX + 24];
	const struct sql_table *t;
	unsigned int host;
	bool attach;		/* a partition of t, attached at the end */
	char *buf;
	size_t len, cap;
};

/* t->sink: its buffer of each host (trace, event_tables: [0] only) */
struct pgtab {
	struct pgbuf *host[SQL_MAX_HOSTS];
};

struct pg {
	struct sql_output so;	/* first: the output is freed through it */
	struct pg_options opt;
	PGconn *conn;		/* the load */
	PGconn *ddl;		/* the shared tables */
	bool locked;		/* conn holds the schema's lock (replace) */
	char lock[4 * SQL_NAME_MAX + 96];	/* SELECT pg_advisory_xact_lock */
	char label[SQL_NAME_MAX + 32];	/* for notes */
	long long part[SQL_MAX_HOSTS];	/* each host's number */
	struct pgbuf **bufs;	/* every partition's */
	size_t nbufs;
	size_t pending;		/* bytes in the buffers */
	struct pgtab **tabs;
	size_t ntabs;
};

static struct pg *pg_of(struct sql_output *so)
{
	return (struct pg *)so;
}

/* The length of libpq's message s without the line break and spaces it
 * ends with. */
static int trimmed(const char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	return n > INT_MAX ? INT_MAX : (int)n;
}

/* A failure: a negative errno, and the server's words, whole. */
static int fail(struct pg *p, PGconn *conn, const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) :
			    NULL;
	const char *msg = res && *PQresultErrorMessage(res) ?
			  PQresultErrorMessage(res) : PQerrorMessage(conn);
	int n = trimmed(msg);

	if (PQstatus(conn) == CONNECTION_BAD && !n)
		return sql_fail(&p->so, -ECONNRESET,
				"PostgreSQL: the connection to the server was lost");
	if (PQstatus(conn) == CONNECTION_BAD)
		return sql_fail(&p->so, -ECONNRESET, "PostgreSQL: %.*s", n,
				msg);
	return sql_fail(&p->so, state && !strcmp(state, "42501") ? -EACCES :
			state && !strncmp(state, "53", 2) ? -ENOSPC : -EIO,
			"PostgreSQL: %.*s", n, msg);
}

static int exec_on(struct pg *p, PGconn *conn, const char *sql)
{
	PGresult *res = PQexec(conn, sql);
	int ret = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK)
		ret = fail(p, conn, res);
	PQclear(res);
	return ret;
}

/* SQL text made for conn, run and freed */
static int exec_text(struct pg *p, PGconn *conn, char *sql)
{
	int ret = sql ? exec_on(p, conn, sql) : -ENOMEM;

	free(sql);
	return ret;
}

/* One row of sql with n text parameters, into res (to PQclear()). */
static int query(struct pg *p, PGconn *conn, const char *sql, int n,
		 const char *const *params, PGresult **res)
{
	*res = PQexecParams(conn, sql, n, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(*res) == PGRES_TUPLES_OK)
		return 0;
	n = fail(p, conn, *res);
	PQclear(*res);
	*res = NULL;
	return n;
}

static int pg_exec(struct sql_output *so, const char *sql)
{
	struct pg *p = pg_of(so);

	return exec_on(p, p->conn, sql);
}

/* Where what loads share is made: its own connection, or the load's
 * when that holds the lock; the lock taken, in a transaction. */
static PGconn *shared_begin(struct pg *p, int *ret)
{
	if (p->locked) {
		*ret = 0;
		return p->conn;
	}
	*ret = exec_on(p, p->ddl, "BEGIN");
	if (!*ret)
		*ret = exec_on(p, p->ddl, p->lock);
	return p->ddl;
}

static int shared_end(struct pg *p, int ret)
{
	if (p->locked)
		return ret;
	if (ret) {
		PQclear(PQexec(p->ddl, "ROLLBACK"));
		return ret;
	}
	return exec_on(p, p->ddl, "COMMIT");
}

static int pg_define(struct sql_output *so, const char *sql,
		     const char *exists)
{
	struct pg *p = pg_of(so);
	char name[2 * SQL_NAME_MAX + 3];
	const char *params[1] = { name };
	PGconn *conn;
	PGresult *res;
	bool made = false;
	int ret;

	conn = shared_begin(p, &ret);
	if (!ret && exists) {
		sql_ident(name, exists);
		ret = query(p, conn, "SELECT to_regclass($1) IS NOT NULL", 1,
			    params, &res);
		if (!ret) {
			made = !strcmp(PQgetvalue(res, 0, 0), "t");
			PQclear(res);
		}
	}
	if (!ret && !made)
		ret = exec_on(p, conn, sql);
	return shared_end(p, ret);
}

/* Send a partition's rows with one COPY. */
static int send_rows(struct pg *p, struct pgbuf *b)
{
	char sql[2 * sizeof(b->part) + 64], *q;
	PGresult *res;
	int ret = 0;

	if (!b->len)
		return 0;
	q = sql_ident(sql + sprintf(sql, "COPY "), b->part);
	/* a partition made in this transaction: its rows written frozen */
	sprintf(q, " FROM STDIN%s", b->attach ? " WITH (FREEZE)" : "");
	res = PQexec(p->conn, sql);
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		ret = fail(p, p->conn, res);
		PQclear(res);
		return ret;
	}
	PQclear(res);
	if (PQputCopyData(p->conn, b->buf, (int)b->len) != 1 ||
	    PQputCopyEnd(p->conn, NULL) != 1)
		ret = fail(p, p->conn, NULL);
	while ((res = PQgetResult(p->conn))) {
		if (!ret && PQresultStatus(res) != PGRES_COMMAND_OK)
			ret = fail(p, p->conn, res);
		PQclear(res);
	}
	b->len = 0;
	return ret;
}

static int pg_flush(struct sql_output *so)
{
	struct pg *p = pg_of(so);
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < p->nbufs; i++)
		ret = send_rows(p, p->bufs[i]);
	p->pending = 0;
	return ret;
}

/*
 * Host h's rows come: refused if the schema has it, unless --replace,
 * which drops it (lket_drop_host()) with the schema's lock held to the
 * end; its number for its partitions' names.
 */
static int pg_open_host(struct sql_output *so, unsigned int h)
{
	struct pg *p = pg_of(so);
	const char *params[1] = { so->hosts[h].label };
	PGresult *res;
	bool exists;
	int ret;

	ret = query(p, p->conn, "SELECT count(*) FROM trace WHERE host = $1",
		    1, params, &res);
	if (ret)
		return ret;
	exists = strcmp(PQgetvalue(res, 0, 0), "0");
	PQclear(res);
	if (exists && !p->opt.replace)
		return sql_fail(so, -EEXIST,
				"PostgreSQL schema %s has host %s: give --replace to reload it",
				p->opt.schema, so->hosts[h].label);
	if (exists && !p->locked) {
		ret = exec_on(p, p->conn, p->lock);
		p->locked = !ret;
	}
	if (!ret && exists)
		ret = query(p, p->conn, "SELECT lket_drop_host($1)", 1, params,
			    &res);
	if (!ret && exists)
		PQclear(res);
	if (!ret)
		ret = query(p, p->conn, "SELECT nextval('lket_parts')", 0,
			    NULL, &res);
	if (ret)
		return ret;
	p->part[h] = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	return 0;
}

static int pg_open_table(struct sql_output *so, struct sql_table *t)
{
	struct pg *p = pg_of(so);
	struct pgtab **bigger, *tab = calloc(1, sizeof(*tab));

	bigger = realloc(p->tabs, (p->ntabs + 1) * sizeof(*bigger));
	if (bigger)
		p->tabs = bigger;
	if (!tab || !bigger) {
		free(tab);
		return -ENOMEM;
	}
	p->tabs[p->ntabs++] = tab;
	t->sink = tab;
	return 0;
}

/* The buffer of t's rows of host h: a partition made on first sight. */
static int open_part(struct pg *p, const struct sql_table *t, unsigned int h,
		     struct pgbuf **out)
{
	struct pgbuf **bigger, *b = calloc(1, sizeof(*b));
	int ret;

	bigger = realloc(p->bufs, (p->nbufs + 1) * sizeof(*bigger));
	if (bigger)
		p->bufs = bigger;
	if (!b || !bigger) {
		free(b);
		return -ENOMEM;
	}
	b->t = t;
	b->host = h;
	b->attach = t->host;
	if (b->attach)
		snprintf(b->part, sizeof(b->part), "%s#%lld", t->name,
			 p->part[h]);
	else
		snprintf(b->part, sizeof(b->part), "%s", t->name);
	ret = b->attach ? exec_text(p, p->conn,
				    sql_create_part(t, b->part,
						    p->so.hosts[h].label)) : 0;
	if (ret) {
		free(b);
		return ret;
	}
	p->bufs[p->nbufs++] = b;
	*out = b;
	return 0;
}

/* Room for v in COPY text format, and the tab or newline after it. */
static size_t value_room(const struct sql_value *v)
{
	switch (v->type) {
	case SQL_INTEGER:
		return OUTBUF_NUM_MAX + 1;
	case SQL_STRING:
		return 5 * v->len + 1;
	case SQL_BLOB:
	case SQL_HELD:
		return 2 * v->len + 4;
	default:
		return 3;
	}
}

/* Text as the databases hold it, for COPY: backslashes doubled, line
 * breaks as \n. */
static char *put_held(char *o, const char *from, size_t len)
{
	const char *end = from + len;

	for (; from < end; from++) {
		if (*from == '\\' || *from == '\n')
			*o++ = '\\';
		*o++ = *from == '\n' ? 'n' : *from;
	}
	return o;
}

static char *put_value(char *o, const struct sql_value *v)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *d = v->p;
	size_t i;

	switch (v->type) {
	case SQL_NULL:
		return put_lit(o, "\\N");
	case SQL_INTEGER:
		return fmt_i64(o, v->i);
	case SQL_STRING:
		return fmt_utf8_escaped(o, v->p, v->len, ESC_COPY);
	case SQL_HELD:
		return put_held(o, v->p, v->len);
	case SQL_BLOB:
		o = put_lit(o, "\\\\x");
		for (i = 0; i < v->len; i++) {
			*o++ = hex[d[i] >> 4];
			*o++ = hex[d[i] & 15];
		}
		return o;
	}
	return o;
}

size_t pg_copy_room(const struct sql_value *v, unsigned int n)
{
	size_t room = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		room += value_room(&v[i]);
	return room;
}

char *pg_copy_row(char *o, const struct sql_value *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		o = put_value(o, &v[i]);
		*o++ = i + 1 < n ? '\t' : '\n';
	}
	return o;
}

static int pg_row(struct sql_output *so, struct sql_table *t, unsigned int h,
		  const struct sql_value *v)
{
	struct pg *p = pg_of(so);
	struct pgbuf **slot = &((struct pgtab *)t->sink)->host[t->host ? h : 0];
	size_t row, room = pg_copy_room(v, t->nvalues);
	struct pgbuf *b;
	int ret;

	if (!*slot) {
		ret = open_part(p, t, h, slot);
		if (ret)
			return ret;
	}
	b = *slot;
	row = b->len;
	if (buf_reserve(&b->buf, &b->cap, b->len + room))
		return -ENOMEM;
	b->len = (size_t)(pg_copy_row(b->buf + b->len, v, t->nvalues) -
			  b->buf);
	p->pending += b->len - row;
	if (p->pending >= PENDING_MAX)
		return pg_flush(so);
	return b->len >= COPY_FLUSH ? send_rows(p, b) : 0;
}

/* The events view, over every event table of the schema (event_tables):
 * those of other loads too. */
static int events_view(struct pg *p)
{
	const char **names = NULL, **events = NULL;
	PGresult *res = NULL;
	PGconn *conn;
	int ret, i, n = 0;

	conn = shared_begin(p, &ret);
	if (!ret)
		ret = query(p, conn, "SELECT name, event FROM event_tables ORDER BY name",
			    0, NULL, &res);
	if (!ret) {
		n = PQntuples(res);
		names = calloc((size_t)n + 1, sizeof(*names));
		events = calloc((size_t)n + 1, sizeof(*events));
		ret = names && events ? 0 : -ENOMEM;
	}
	for (i = 0; !ret && i < n; i++) {
		names[i] = PQgetvalue(res, i, 0);
		events[i] = PQgetvalue(res, i, 1);
	}
	if (!ret)
		ret = exec_text(p, conn, sql_create_events_view((size_t)n,
								names, events));
	free(names);
	free(events);
	PQclear(res);
	return shared_end(p, ret);
}

static int by_part(const void *a, const void *b)
{
	const struct pgbuf *x = *(struct pgbuf *const *)a;
	const struct pgbuf *y = *(struct pgbuf *const *)b;

	return strcmp(x->part, y->part);
}

/* The events view; each partition indexed and attached, in the order of
 * their names; the commit. */
static int pg_commit(struct sql_output *so)
{
	struct pg *p = pg_of(so);
	struct pgbuf *b;
	size_t i;
	int ret = events_view(p);

	qsort(p->bufs, p->nbufs, sizeof(*p->bufs), by_part);
	for (i = 0; !ret && i < p->nbufs; i++) {
		b = p->bufs[i];
		if (b->attach)
			ret = exec_text(p, p->conn,
					sql_attach(b->t, b->part,
						   so->hosts[b->host].label));
	}
	return ret ? ret : exec_on(p, p->conn, "COMMIT");
}

/* DROP TABLE of each partition of host label, and its trace row: the
 * one way a host goes (--replace uses it too). */
static const char drop_host_fn[] =
	"CREATE OR REPLACE FUNCTION lket_drop_host(label TEXT) RETURNS INTEGER "
	"LANGUAGE plpgsql AS $lket$ DECLARE r RECORD; n INTEGER := 0; BEGIN "
	"FOR r IN SELECT c.oid::regclass AS part FROM pg_inherits i "
	"JOIN pg_class c ON c.oid = i.inhrelid "
	"JOIN pg_class t ON t.oid = i.inhparent "
	"WHERE t.relnamespace = %s::regnamespace "
	"AND pg_get_expr(c.relpartbound, c.oid) = format('FOR VALUES IN (%%L)', label) "
	"LOOP EXECUTE format('DROP TABLE %%s', r.part); n := n + 1; END LOOP; "
	"EXECUTE format('DELETE FROM %%s WHERE host = %%L', %s::regnamespace::text || '.trace', label); "
	"RETURN n; END $lket$";

/* Connect twice; make the schema and what is the PostgreSQL sink's own
 * (lket_parts, lket_drop_host()) unless there; begin the load. */
static int pg_open(struct sql_output *so)
{
	struct pg *p = pg_of(so);
	const char *params[1] = { p->opt.schema };
	char ident[2 * SQL_NAME_MAX + 3], lit[4 * SQL_NAME_MAX + 8];
	char sql[sizeof(drop_host_fn) + 4 * sizeof(lit)];
	const char *msg;
	PGresult *res;
	int ret, old;

	if (strlen(p->opt.schema) >= SQL_NAME_MAX)
		return -ENAMETOOLONG;
	p->conn = PQconnectdb(p->opt.conninfo);
	p->ddl = p->conn ? PQconnectdb(p->opt.conninfo) : NULL;
	if (!p->conn || !p->ddl)
		return -ENOMEM;
	if (PQstatus(p->conn) != CONNECTION_OK ||
	    PQstatus(p->ddl) != CONNECTION_OK) {
		msg = PQerrorMessage(PQstatus(p->conn) != CONNECTION_OK ?
				     p->conn : p->ddl);
		return sql_fail(so, -ECONNREFUSED,
				"PostgreSQL: cannot connect: %.*s",
				trimmed(msg), msg);
	}
	sql_ident(ident, p->opt.schema);
	sql_literal(lit, ident);
	snprintf(p->lock, sizeof(p->lock),
		 "SELECT pg_advisory_xact_lock(hashtext(%s))", lit);
	ret = exec_on(p, p->ddl, "SET client_min_messages = warning");
	if (!ret)
		ret = exec_on(p, p->conn, "SET client_min_messages = warning");
	if (!ret)
		shared_begin(p, &ret);
	/* a schema of an older lket-b2a: tables without hosts */
	if (!ret)
		ret = query(p, p->ddl, "SELECT count(*) FROM information_schema.columns "
			    "WHERE table_schema = $1 AND table_name = 'trace' AND column_name = 'header' "
			    "AND NOT EXISTS (SELECT 1 FROM information_schema.columns "
			    "WHERE table_schema = $1 AND table_name = 'trace' AND column_name = 'host')",
			    1, params, &res);
	if (!ret) {
		old = strcmp(PQgetvalue(res, 0, 0), "0");
		PQclear(res);
		if (old)
			ret = sql_fail(so, -EEXIST,
				       "PostgreSQL schema %s was loaded by an older lket-b2a (no hosts): drop it or give another --schema",
				       p->opt.schema);
	}
	if (!ret) {
		snprintf(sql, sizeof(sql),
			 "CREATE SCHEMA IF NOT EXISTS %s; SET search_path TO %s; "
			 "CREATE SEQUENCE IF NOT EXISTS lket_parts", ident,
			 ident);
		ret = exec_on(p, p->ddl, sql);
	}
	if (!ret) {
		snprintf(sql, sizeof(sql), drop_host_fn, lit, lit);
		ret = exec_on(p, p->ddl, sql);
	}
	ret = shared_end(p, ret);
	if (!ret) {
		snprintf(sql, sizeof(sql),
			 "BEGIN; SET LOCAL search_path TO %s", ident);
		ret = exec_on(p, p->conn, sql);
	}
	return ret;
}

static void pg_free(struct sql_output *so)
{
	struct pg *p = pg_of(so);
	size_t i;

	for (i = 0; i < p->nbufs; i++) {
		free(p->bufs[i]->buf);
		free(p->bufs[i]);
	}
	free(p->bufs);
	for (i = 0; i < p->ntabs; i++)
		free(p->tabs[i]);
	free(p->tabs);
	/* a transaction still open is rolled back with the connection */
	if (p->conn)
		PQfinish(p->conn);
	if (p->ddl)
		PQfinish(p->ddl);
}

static const struct sql_sink_ops pg_sink = {
	.open = pg_open,
	.exec = pg_exec,
	.define = pg_define,
	.open_host = pg_open_host,
	.open_table = pg_open_table,
	.row = pg_row,
	.flush = pg_flush,
	.commit = pg_commit,
	.free = pg_free,
};

int output_pg_new(struct output **o, const struct pg_options *opt)
{
	struct sql_output *so;
	struct pg *p;
	int ret;

	ret = sql_output_new(&so, sizeof(*p), &pg_sink, &pg_dialect,
			     opt->diag, "PostgreSQL", opt->host);
	if (ret)
		return ret;
	p = pg_of(so);
	p->opt = *opt;
	/* the notes name the schema */
	snprintf(p->label, sizeof(p->label), "PostgreSQL schema %.*s",
		 SQL_NAME_MAX, opt->schema);
	so->schema.label = p->label;
	*o = &so->o;
	return 0;
}

static int pg_create(struct output **o, const struct output_args *a)
{
	const struct pg_options opt = {
		.conninfo = a->path, .schema = a->set->schema,
		.replace = a->set->replace, .host = a->set->host,
		.diag = a->set->diag,
	};

	return output_pg_new(o, &opt);
}

/* --schema and --host are the settings' (cli/options.c); their help is
 * here, beside what they are for */
const struct output_decl output_pg_decl = {
	.option = "pg", .arg = "CONNINFO", .label = "PostgreSQL",
	.help =
"      --pg CONNINFO  load into PostgreSQL (libpq connection string)\n"
"      --schema NAME  PostgreSQL schema (default: named after the trace);\n"
"                 the traces of any number of hosts share one\n"
"      --host LABEL  the host of a single trace in the databases (default:\n"
"                 the hostname its header gives)\n",
	.target = OUTPUT_SERVICE,
	.create = pg_create,
};
