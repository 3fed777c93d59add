// SPDX-License-Identifier: GPL-2.0
/*
 * out_pg.c - PostgreSQL: the schema of sql.h in a schema of its own,
 * loaded with COPY inside one transaction, so that a failure (a refused
 * connection, a lost one, a missing permission) leaves nothing behind.
 *
 * A sink of rows: they are kept per table in COPY text format and sent
 * when a table's buffer fills (one COPY can run at a time, and events of
 * all tables come interleaved), and all of them when PENDING_MAX bytes
 * wait.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outbuf.h"
#include "outfmt.h"
#include "out_pg.h"
#include "output.h"
#include "sql.h"

#define COPY_FLUSH	(1u << 20)
/* rows waiting in all tables' buffers: memory does not grow with the
 * number of tables either */
#define PENDING_MAX	(16u << 20)

static const struct sql_dialect pg_dialect = {
	.int64 = "BIGINT", .bytes = "BYTEA", .boolean = "BOOLEAN",
	/* to_hex() shows a negative bigint's 64 bits */
	.hex_pre = "'0x' || to_hex(", .hex_post = ")",
};

/* A table's rows waiting for COPY. */
struct pgbuf {
	const char *table;
	char *buf;
	size_t len, cap;
};

struct pg {
	struct sql_output so;	/* first: the output is freed through it */
	struct pg_options opt;
	PGconn *conn;
	char label[SQL_NAME_MAX + 32];	/* for notes */
	struct pgbuf **bufs;	/* every table's */
	size_t nbufs;
	size_t pending;		/* bytes in the tables' buffers */
};

static struct pg *pg_of(struct sql_output *so)
{
	return (struct pg *)so;
}

/* libpq's message s without the line break and spaces it ends with */
static const char *trim(char *out, size_t size, const char *s)
{
	size_t n = (size_t)snprintf(out, size, "%s", s);

	for (n = n < size ? n : size - 1; n && (out[n - 1] == '\n' ||
						 out[n - 1] == ' '); n--)
		out[n - 1] = '\0';
	return out;
}

/* A failure: a negative errno, and the server's words. */
static int fail(struct pg *p, const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) :
			    NULL;
	char msg[512];

	trim(msg, sizeof(msg), res && *PQresultErrorMessage(res) ?
	     PQresultErrorMessage(res) : PQerrorMessage(p->conn));
	if (PQstatus(p->conn) == CONNECTION_BAD)
		return sql_fail(&p->so, -ECONNRESET, "PostgreSQL: %s",
				msg[0] ? msg : "the connection to the server was lost");
	return sql_fail(&p->so, state && !strcmp(state, "42501") ? -EACCES :
			state && !strncmp(state, "53", 2) ? -ENOSPC : -EIO,
			"PostgreSQL: %s", msg);
}

static int pg_exec(struct sql_output *so, const char *sql)
{
	struct pg *p = pg_of(so);
	PGresult *res = PQexec(p->conn, sql);
	int ret = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK)
		ret = fail(p, res);
	PQclear(res);
	return ret;
}

/* Send a table's rows with one COPY. */
static int send_rows(struct pg *p, struct pgbuf *b)
{
	char sql[2 * SQL_NAME_MAX + 64], *q;
	PGresult *res;
	int ret = 0;

	if (!b->len)
		return 0;
	q = sql_ident(sql + sprintf(sql, "COPY "), b->table);
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

static int pg_open_table(struct sql_output *so, struct sql_table *t)
{
	struct pg *p = pg_of(so);
	struct pgbuf **bigger, *b = calloc(1, sizeof(*b));

	bigger = realloc(p->bufs, (p->nbufs + 1) * sizeof(*bigger));
	if (bigger)
		p->bufs = bigger;
	if (!b || !bigger) {
		free(b);
		return -ENOMEM;
	}
	b->table = t->name;
	p->bufs[p->nbufs++] = b;
	t->sink = b;
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

static int pg_row(struct sql_output *so, struct sql_table *t,
		  const struct sql_value *v)
{
	struct pg *p = pg_of(so);
	struct pgbuf *b = t->sink;
	size_t row = b->len, room = pg_copy_room(v, t->nvalues);

	if (buf_reserve(&b->buf, &b->cap, b->len + room))
		return -ENOMEM;
	b->len = (size_t)(pg_copy_row(b->buf + b->len, v, t->nvalues) -
			  b->buf);
	p->pending += b->len - row;
	if (p->pending >= PENDING_MAX)
		return pg_flush(so);
	return b->len >= COPY_FLUSH ? send_rows(p, b) : 0;
}

static int pg_commit(struct sql_output *so)
{
	return pg_exec(so, "COMMIT");
}

/* Connect; in a transaction, make the schema (drop the old one with
 * --replace) and work in it. */
static int pg_open(struct sql_output *so)
{
	struct pg *p = pg_of(so);
	const char *params[1] = { p->opt.schema };
	char sql[4 * SQL_NAME_MAX + 256], msg[512], *q;
	PGresult *res;
	bool exists;
	int ret;

	if (strlen(p->opt.schema) >= SQL_NAME_MAX)
		return -ENAMETOOLONG;
	p->conn = PQconnectdb(p->opt.conninfo);
	if (!p->conn)
		return -ENOMEM;
	if (PQstatus(p->conn) != CONNECTION_OK)
		return sql_fail(so, -ECONNREFUSED,
				"PostgreSQL: cannot connect: %s",
				trim(msg, sizeof(msg),
				     PQerrorMessage(p->conn)));
	ret = pg_exec(so, "SET client_min_messages = warning; BEGIN");
	if (ret)
		return ret;
	res = PQexecParams(p->conn,
			   "SELECT 1 FROM pg_namespace WHERE nspname = $1",
			   1, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		ret = fail(p, res);
		PQclear(res);
		return ret;
	}
	exists = PQntuples(res) > 0;
	PQclear(res);
	if (exists && !p->opt.replace)
		return sql_fail(so, -EEXIST,
				"PostgreSQL schema %s exists: give --replace to overwrite it",
				p->opt.schema);
	q = sql;
	if (exists)
		q = put_lit(sql_ident(put_lit(q, "DROP SCHEMA "), p->opt.schema),
			    " CASCADE; ");
	q = put_lit(sql_ident(put_lit(q, "CREATE SCHEMA "), p->opt.schema),
		    "; SET LOCAL search_path TO ");
	*sql_ident(q, p->opt.schema) = '\0';
	return pg_exec(so, sql);
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
	/* a transaction still open is rolled back with the connection */
	if (p->conn)
		PQfinish(p->conn);
}

static const struct sql_sink_ops pg_sink = {
	.open = pg_open,
	.exec = pg_exec,
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
			     opt->diag, "PostgreSQL");
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
