// SPDX-License-Identifier: GPL-2.0
/*
 * out_sqlite.c - an SQLite database (schema, rows and values in sql.h and
 * lket-b2a(1)): a sink of rows, each bound to its table's one prepared
 * statement.
 *
 * Written to the caller's temporary file (tmpfile.h) with the journal
 * off, in transactions of ROWS_PER_TX rows, with a page cache of
 * CACHE_KIB; indexes are made at the end, sorting through temporary
 * files.  Memory stays flat whatever the size of the trace.  The caller
 * puts the file in place: a conversion that fails leaves no database, and
 * never a half-written one.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/db/db.h"
#include "output/db/sql.h"
#include "output/output.h"
#include "output/registry.h"
#include "util/outbuf.h"

static const struct sql_dialect sqlite_dialect = {
	.int64 = "INTEGER", .bytes = "BLOB", .boolean = "INTEGER",
	/* printf's %x shows a negative integer's 64 bits */
	.hex_pre = "printf('0x%x', ", .hex_post = ")",
};

#define ROWS_PER_TX	(1u << 16)
#define CACHE_KIB	16384

struct sq {
	struct sql_output so;	/* first: the output is freed through it */
	struct sqlite_options opt;
	sqlite3 *db;
	sqlite3_stmt **stmts;	/* every table's, to finalize */
	size_t nstmts;
	char *scratch;		/* a row's strings, escaped */
	size_t scratch_size;
	uint64_t rows;
};

static struct sq *sq_of(struct sql_output *so)
{
	return (struct sq *)so;
}

/* An SQLite failure as a negative errno, and what SQLite said. */
static int fail(struct sq *s, int rc)
{
	const char *path = s->opt.path;

	switch (rc & 0xff) {
	case SQLITE_FULL:
		return sql_fail(&s->so, -ENOSPC, "%s: %s", path,
				strerror(ENOSPC));
	case SQLITE_NOMEM:
		return sql_fail(&s->so, -ENOMEM, "%s: %s", path,
				sqlite3_errmsg(s->db));
	case SQLITE_PERM:
	case SQLITE_READONLY:
	case SQLITE_CANTOPEN:
		return sql_fail(&s->so, -EACCES, "%s: %s", path,
				sqlite3_errmsg(s->db));
	default:
		return sql_fail(&s->so, -EIO, "%s: %s", path,
				sqlite3_errmsg(s->db));
	}
}

static int sq_exec(struct sql_output *so, const char *sql)
{
	struct sq *s = sq_of(so);
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : fail(s, rc);
}

/* INSERT INTO "t" VALUES (?,...), prepared for as long as the output. */
static int sq_open_table(struct sql_output *so, struct sql_table *t)
{
	struct sq *s = sq_of(so);
	sqlite3_stmt **bigger, *st;
	unsigned int i;
	char *sql, *p;
	int rc;

	bigger = realloc(s->stmts, (s->nstmts + 1) * sizeof(*bigger));
	if (!bigger)
		return -ENOMEM;
	s->stmts = bigger;
	sql = malloc(2 * SQL_NAME_MAX + 32 + 2 * t->nvalues);
	if (!sql)
		return -ENOMEM;
	p = sql_ident(sql + sprintf(sql, "INSERT INTO "), t->name);
	p += sprintf(p, " VALUES (?");
	for (i = 1; i < t->nvalues; i++)
		p += sprintf(p, ",?");
	sprintf(p, ")");
	rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
				&st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return fail(s, rc);
	s->stmts[s->nstmts++] = st;
	t->sink = st;
	return 0;
}

/* One file: the tables are made here, whatever exists says. */
static int sq_define(struct sql_output *so, const char *sql,
		     const char *exists)
{
	(void)exists;
	return sq_exec(so, sql);
}

/* One table for all hosts: the host is a column. */
static int sq_row(struct sql_output *so, struct sql_table *t, unsigned int h,
		  const struct sql_value *v)
{
	struct sq *s = sq_of(so);
	sqlite3_stmt *st = t->sink;
	size_t room = 0;
	unsigned int i;
	char *at, *e;
	int col, rc;

	(void)h;
	for (i = 0; i < t->nvalues; i++)
		room += sql_string_room(&v[i]);
	rc = buf_reserve(&s->scratch, &s->scratch_size, room + 1);
	if (rc)
		return rc;
	at = s->scratch;
	for (i = 0; i < t->nvalues; i++) {
		col = (int)i + 1;
		switch (v[i].type) {
		case SQL_NULL:
			sqlite3_bind_null(st, col);
			break;
		case SQL_INTEGER:
			sqlite3_bind_int64(st, col, v[i].i);
			break;
		case SQL_STRING:
			e = fmt_utf8_escaped(at, v[i].p, v[i].len, 0);
			sqlite3_bind_text(st, col, at, (int)(e - at),
					  SQLITE_STATIC);
			at = e;
			break;
		case SQL_HELD:
			sqlite3_bind_text(st, col, v[i].p, (int)v[i].len,
					  SQLITE_STATIC);
			break;
		case SQL_BLOB:
			sqlite3_bind_blob(st, col, v[i].p, (int)v[i].len,
					  SQLITE_STATIC);
			break;
		}
	}
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return fail(s, rc);
	if (++s->rows % ROWS_PER_TX == 0)
		return sq_exec(so, "COMMIT; BEGIN");
	return 0;
}

static void finalize_all(struct sq *s)
{
	size_t i;

	for (i = 0; i < s->nstmts; i++)
		sqlite3_finalize(s->stmts[i]);
	s->nstmts = 0;
}

static int sq_commit(struct sql_output *so)
{
	struct sq *s = sq_of(so);
	int ret = sq_exec(so, "COMMIT"), rc;

	finalize_all(s);
	if (ret)
		return ret;
	rc = sqlite3_close(s->db);
	s->db = NULL;
	return rc == SQLITE_OK ? 0 : -EIO;
}

static int sq_open(struct sql_output *so)
{
	struct sq *s = sq_of(so);
	char pragmas[512];
	struct stat st;
	int rc;

	if (!s->opt.replace && lstat(s->opt.path, &st) == 0)
		return sql_fail(so, -EEXIST,
				"%s exists: give --replace to overwrite it",
				s->opt.path);
	/* one thread: no locks, no memory statistics */
	sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	rc = sqlite3_open_v2(s->opt.file, &s->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK)
		return fail(s, rc);
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
	return sq_exec(so, pragmas);
}

static void sq_free(struct sql_output *so)
{
	struct sq *s = sq_of(so);

	finalize_all(s);
	if (s->db)
		sqlite3_close(s->db);
	free(s->stmts);
	free(s->scratch);
}

static const struct sql_sink_ops sqlite_sink = {
	.open = sq_open,
	.exec = sq_exec,
	.define = sq_define,
	.open_table = sq_open_table,
	.row = sq_row,
	.commit = sq_commit,
	.free = sq_free,
};

int output_sqlite_new(struct output **o, const struct sqlite_options *opt)
{
	struct sql_output *so;
	int ret;

	ret = sql_output_new(&so, sizeof(struct sq), &sqlite_sink,
			     &sqlite_dialect, opt->diag, opt->path, opt->host);
	if (ret)
		return ret;
	sq_of(so)->opt = *opt;
	*o = &so->o;
	return 0;
}

static int sqlite_create(struct output **o, const struct output_args *a)
{
	const struct sqlite_options opt = {
		.path = a->path, .file = a->file, .replace = a->set->replace,
		.host = a->set->host, .diag = a->set->diag,
	};

	return output_sqlite_new(o, &opt);
}

const struct output_decl output_sqlite_decl = {
	.option = "db", .letter = 'd', .arg = "FILE",
	.help =
"  -d, --db FILE  write an SQLite database (no lket.out unless -o or -f)\n",
	.target = OUTPUT_DB_FILE,
	.create = sqlite_create,
};
