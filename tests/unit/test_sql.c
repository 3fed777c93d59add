// SPDX-License-Identifier: GPL-2.0
/*
 * sql: the databases' names (renames, f_ columns, other_events), their
 * DDL in a dialect, and the rows every database output writes, seen
 * through a sink that writes each down as text (sql_names.c, sql_ddl.c,
 * sql_rows.c).
 */
#include "unit.h"
#include "sql_fixture.h"

#include "analysis/report.h"
#include "output/db/sql.h"

static const struct sql_dialect dialect = {
	.int64 = "I64", .bytes = "BYTES", .boolean = "BOOL",
	.hex_pre = "hex(", .hex_post = ")",
};

/* ---- names ------------------------------------------------------------- */

static void table_of(struct sql_schema *s, struct sql_table *t,
		     unsigned int group, unsigned int hook)
{
	assert_int_equal(sql_table_init(s, t, meta_get(&meta, group, hook),
					group, hook), 0);
}

static void test_names(void **state)
{
	struct sql_table entry, snap, again;
	struct sql_schema s;
	struct diag_log log;

	(void)state;
	diag_log_init(&log);
	sql_schema_init(&s, &dialect, &log.d, "x.db");
	table_of(&s, &entry, 1, 1);
	assert_string_equal(entry.name, "syscall_entry");
	assert_int_equal(entry.ncols, 1);
	assert_int_equal(entry.nvalues, SQL_COMMON + 1 + 1);
	assert_string_equal(entry.cols[0], "syscall_name");
	assert_int_equal(entry.kind[0], SQL_TEXT);
	/* common column names: the rule, no note; the second x numbered as
	 * JSON numbers its key (x_2), noted */
	table_of(&s, &snap, 2, 1);
	assert_string_equal(snap.name, "proc_snap");
	assert_string_equal(snap.cols[0], "f_tid");
	assert_string_equal(snap.cols[1], "f_pid");
	assert_string_equal(snap.cols[2], "x");
	assert_string_equal(snap.cols[3], "x_2");
	assert_string_equal(meta_get(&meta, 2, 1)->sys.f[3].key_suffix, "_2");
	/* the same event's name again: its IDs */
	table_of(&s, &again, 1, 1);
	assert_string_equal(again.name, "syscall_entry_1_1");
	assert_int_equal(log.n, 2);
	assert_diag(&log, 0, DIAG_NOTE, "x.db", -1,
		    "table proc_snap: field x is column x_2");
	assert_diag(&log, 1, DIAG_NOTE, "x.db", -1,
		    "event syscall.entry is table syscall_entry_1_1");
	sql_table_free(&entry);
	sql_table_free(&snap);
	sql_table_free(&again);
	sql_schema_free(&s);
}

/* Past SQL_MAX_TABLES tables, events go to other_events: noted once. */
static void test_table_limit(void **state)
{
	static struct sql_table t[SQL_MAX_TABLES + 2];
	struct sql_schema s;
	struct diag_log log;
	unsigned int i;

	(void)state;
	diag_log_init(&log);
	/* the renames of the same event unnoted */
	sql_schema_init(&s, &dialect, NULL, "x.db");
	for (i = 0; i < SQL_MAX_TABLES; i++)
		table_of(&s, &t[i], 1, 1);
	s.diag = &log.d;
	assert_int_equal(sql_table_init(&s, &t[i], meta_get(&meta, 3, 5), 3, 5),
			 1);
	assert_int_equal(sql_table_init(&s, &t[i + 1], meta_get(&meta, 2, 1),
					2, 1), 1);
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_NOTE, "x.db", -1,
		    "more than 400 events: io.submit and those after it go to other_events");
	for (i = 0; i < SQL_MAX_TABLES; i++)
		sql_table_free(&t[i]);
	sql_schema_free(&s);
}

/* ---- DDL --------------------------------------------------------------- */

static void test_ddl(void **state)
{
	struct sql_table io;
	struct sql_schema s;
	char *sql;

	(void)state;
	sql_schema_init(&s, &dialect, NULL, "x.db");
	sql = sql_create_base(&s);
	assert_string_equal(sql,
		"CREATE TABLE trace (host TEXT PRIMARY KEY, hostname TEXT, machine TEXT, kernel TEXT, header BOOL, clock TEXT, wall_offset I64, clock_offset I64, clock_uncertainty I64, first_time I64, last_time I64, events I64, lost I64, files TEXT, load_ns I64);"
		"CREATE TABLE event_tables (name TEXT PRIMARY KEY, event TEXT);"
		"CREATE TABLE processes (host TEXT NOT NULL, time I64, tid I64, pid INTEGER, ppid INTEGER, comm TEXT, event TEXT);"
		"CREATE TABLE lost (host TEXT NOT NULL, time I64, until I64, count I64, first_seq I64, last_seq I64, cpu INTEGER);"
		"CREATE TABLE unknown_events (host TEXT NOT NULL, time I64 NOT NULL, cpu INTEGER, tid I64, pid INTEGER, comm TEXT, grp INTEGER, hook INTEGER, name TEXT, raw BYTES);"
		"CREATE TABLE other_events (host TEXT NOT NULL, time I64 NOT NULL, cpu INTEGER, tid I64, pid INTEGER, comm TEXT, event TEXT, grp INTEGER, hook INTEGER, fields TEXT);");
	free(sql);
	sql = sql_create_report(&s);
	assert_non_null(strstr(sql, "CREATE TABLE latency (host TEXT NOT NULL, scope TEXT, what TEXT, pid INTEGER, tid INTEGER, comm TEXT, count I64, total_ns I64, min_ns I64, mean_ns I64, p50_ns I64, p90_ns I64, p99_ns I64, max_ns I64, unmatched_begin I64, unmatched_end I64);"
			       "CREATE TABLE latency_histogram (host TEXT NOT NULL, scope TEXT, what TEXT, pid INTEGER, tid INTEGER, bucket_ns I64, count I64);"
			       "CREATE VIEW latency_by_event AS SELECT host, "));
	free(sql);
	table_of(&s, &io, 3, 5);
	sql = sql_create_table(&s, &io);
	assert_string_equal(sql, "CREATE TABLE \"io_submit\" (host TEXT NOT NULL, time I64 NOT NULL, cpu INTEGER, tid I64, pid INTEGER, comm TEXT, \"buf_addr\" I64, \"request_flags\" I64, \"count\" I64, \"u\" I64, raw BYTES);"
		/* the dialect shows hex fields */
		"CREATE VIEW \"io_submit_hex\" AS SELECT host, time, cpu, tid, pid, comm, CASE WHEN \"buf_addr\" IS NOT NULL THEN hex(\"buf_addr\") END AS \"buf_addr\", CASE WHEN \"request_flags\" IS NOT NULL THEN hex(\"request_flags\") END AS \"request_flags\", \"count\", \"u\", raw FROM \"io_submit\";"
		"INSERT INTO event_tables VALUES ('io_submit', 'io.submit')");
	free(sql);
	sql = sql_create_end(&s);
	assert_non_null(strstr(sql, "DROP VIEW IF EXISTS events; CREATE VIEW events AS SELECT host, time, cpu, tid, pid, comm, CAST('io.submit' AS TEXT) AS event FROM \"io_submit\" UNION ALL "));
	/* not partitioned: the indexes after the load */
	assert_non_null(strstr(sql, "CREATE INDEX \"io_submit_tid_time\" ON \"io_submit\"(tid, time);"));
	assert_non_null(strstr(sql, "CREATE INDEX \"processes_tid\" ON \"processes\"(tid, time);"));
	free(sql);
	sql_table_free(&io);
	sql_schema_free(&s);
}

/* Partitioned by host: parents with their indexes, a host's own table
 * attached with indexes like theirs; quotes in labels doubled. */
static void test_ddl_partitioned(void **state)
{
	static const struct sql_dialect parted = {
		.int64 = "I64", .bytes = "BYTES", .boolean = "BOOL",
		.hex_pre = "hex(", .hex_post = ")", .partitioned = true,
	};
	const char *names[] = { "a", "b\"c" }, *events[] = { "x.a", "it's" };
	struct sql_table io;
	struct sql_schema s;
	char *sql;

	(void)state;
	sql_schema_init(&s, &parted, NULL, "x");
	sql = sql_create_base(&s);
	/* trace and event_tables are the schema's, not a host's */
	assert_non_null(strstr(sql, "files TEXT, load_ns I64);CREATE TABLE event_tables (name TEXT PRIMARY KEY, event TEXT);CREATE TABLE processes (host TEXT NOT NULL, "));
	assert_non_null(strstr(sql, "event TEXT) PARTITION BY LIST (host);CREATE INDEX \"processes_tid\" ON \"processes\"(tid, time);CREATE TABLE lost"));
	assert_non_null(strstr(sql, "cpu INTEGER) PARTITION BY LIST (host);CREATE TABLE unknown_events"));
	free(sql);
	table_of(&s, &io, 3, 5);
	sql = sql_create_table(&s, &io);
	assert_non_null(strstr(sql, "raw BYTES) PARTITION BY LIST (host);"
			       "CREATE INDEX \"io_submit_time\" ON \"io_submit\"(time);"
			       "CREATE INDEX \"io_submit_tid_time\" ON \"io_submit\"(tid, time);"
			       "CREATE VIEW \"io_submit_hex\""));
	free(sql);
	sql = sql_create_end(&s);
	assert_null(strstr(sql, "CREATE INDEX"));
	free(sql);
	sql = sql_create_part(&io, "io_submit#3", "o'k");
	assert_string_equal(sql, "CREATE TABLE \"io_submit#3\" (LIKE \"io_submit\", CHECK (host = 'o''k'))");
	free(sql);
	sql = sql_attach(&io, "io_submit#3", "o'k");
	assert_string_equal(sql, "CREATE INDEX ON \"io_submit#3\"(time);CREATE INDEX ON \"io_submit#3\"(tid, time);"
			    "ALTER TABLE \"io_submit\" ATTACH PARTITION \"io_submit#3\" FOR VALUES IN ('o''k')");
	free(sql);
	sql = sql_create_events_view(2, names, events);
	assert_non_null(strstr(sql, "CAST('x.a' AS TEXT) AS event FROM \"a\" UNION ALL SELECT host, time, cpu, tid, pid, comm, CAST('it''s' AS TEXT) AS event FROM \"b\"\"c\" UNION ALL "));
	free(sql);
	sql_table_free(&io);
	sql_schema_free(&s);
}

/* ---- rows, through a sink that writes them down ------------------------ */

struct text_sink {
	struct sql_output so;	/* first: freed through it */
	char log[8192];
	size_t len;
	const char *fail;	/* fail the exec that has this in it */
	int opened, committed, freed_tables;
};

static struct text_sink *ts_of(struct sql_output *so)
{
	return (struct text_sink *)so;
}

__attribute__((format(printf, 2, 3)))
static void ts_put(struct text_sink *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	t->len += (size_t)vsnprintf(t->log + t->len, sizeof(t->log) - t->len,
				    fmt, ap);
	va_end(ap);
	assert_true(t->len < sizeof(t->log));
}

static int ts_open(struct sql_output *so)
{
	ts_of(so)->opened++;
	return 0;
}

/* DDL: only its first three words, which say what it makes */
static int ts_exec(struct sql_output *so, const char *sql)
{
	struct text_sink *t = ts_of(so);
	const char *end = sql;
	int words;

	if (t->fail && strstr(sql, t->fail))
		return -EIO;
	for (words = 0; *end && words < 3; end++)
		words += *end == ' ';
	ts_put(t, "exec %.*s\n", (int)(end - sql - 1), sql);
	return 0;
}

/* shared DDL: its first three words, and what it is made unless */
static int ts_define(struct sql_output *so, const char *sql,
		     const char *exists)
{
	struct text_sink *t = ts_of(so);
	const char *end = sql;
	int words;

	if (t->fail && strstr(sql, t->fail))
		return -EIO;
	for (words = 0; *end && words < 3; end++)
		words += *end == ' ';
	ts_put(t, "define %.*s unless %s\n", (int)(end - sql - 1), sql,
	       exists ? exists : "-");
	return 0;
}

static int ts_open_host(struct sql_output *so, unsigned int h)
{
	ts_put(ts_of(so), "host %u %s\n", h, so->hosts[h].label);
	return 0;
}

static int ts_row(struct sql_output *so, struct sql_table *table,
		  unsigned int h, const struct sql_value *v)
{
	struct text_sink *t = ts_of(so);
	unsigned int i;
	size_t k;

	ts_put(t, "%s[%u]:", table->name, h);
	for (i = 0; i < table->nvalues; i++) {
		switch (v[i].type) {
		case SQL_NULL:
			ts_put(t, " NULL");
			break;
		case SQL_INTEGER:
			/* the load's time: not known in advance */
			if (table->fixed == SQL_TRACE && i + 1 == table->nvalues)
				ts_put(t, " %s", v[i].i > 0 ? "ns" : "none");
			else
				ts_put(t, " %lld", (long long)v[i].i);
			break;
		case SQL_STRING:
			ts_put(t, " s'%.*s'", (int)v[i].len,
			       (const char *)v[i].p);
			break;
		case SQL_HELD:
			ts_put(t, " h'%.*s'", (int)v[i].len,
			       (const char *)v[i].p);
			break;
		case SQL_BLOB:
			ts_put(t, " x'");
			for (k = 0; k < v[i].len; k++)
				ts_put(t, "%02x", ((const uint8_t *)v[i].p)[k]);
			ts_put(t, "'");
			break;
		}
	}
	ts_put(t, "\n");
	return 0;
}

static int ts_commit(struct sql_output *so)
{
	ts_of(so)->committed++;
	return 0;
}

static void ts_free(struct sql_output *so)
{
	(void)so;
}

static const struct sql_sink_ops text_sink_ops = {
	.open = ts_open,
	.exec = ts_exec,
	.define = ts_define,
	.open_host = ts_open_host,
	.row = ts_row,
	.commit = ts_commit,
	.free = ts_free,
};

static struct text_sink *ts_host(const char *host)
{
	struct sql_output *so;

	assert_int_equal(sql_output_new(&so, sizeof(struct text_sink),
					&text_sink_ops, &dialect, NULL, "x.db",
					host),
			 0);
	return ts_of(so);
}

static struct text_sink *ts_new(void)
{
	return ts_host(NULL);
}

static void test_rows(void **state)
{
	struct text_sink *t = ts_new();
	struct output *o = &t->so.o;
	const struct proc init = { .tid = 1, .pid = 1, .comm = "init",
				   .comm_len = 4 };

	(void)state;
	assert_int_equal(o->ops->begin(o, &fixture_info), 0);
	assert_int_equal(t->opened, 1);
	assert_int_equal(fixture_send(o, rec_entry, &bash), 0);
	assert_int_equal(fixture_send(o, rec_io, NULL), 0);
	assert_int_equal(fixture_send(o, rec_io_extra, NULL), 0);
	assert_int_equal(fixture_send(o, rec_unknown, NULL), 0);
	assert_int_equal(o->ops->lost(o, &gap_flush), 0);
	assert_int_equal(o->ops->lost(o, &gap_records), 0);
	assert_int_equal(o->ops->process(o, 900, &init, 0, "process.snapshot", NULL),
			 0);
	assert_int_equal(o->ops->finish(o), 0);
	assert_int_equal(t->committed, 1);
	assert_string_equal(t->log,
		"define CREATE TABLE trace unless trace\n"
		/* no hostname in the header: localhost */
		"host 0 localhost\n"
		"define CREATE TABLE \"syscall_entry\" unless syscall_entry\n"
		"syscall_entry[0]: s'localhost' 1234 2 100 42 s'bash' s'a\tb\\c' NULL\n"
		"define CREATE TABLE \"io_submit\" unless io_submit\n"
		/* hex fields unsigned at their width, as 64 bits */
		"io_submit[0]: s'localhost' 5000 0 7 NULL NULL -131391334100992 32769 -5 -1 NULL\n"
		"io_submit[0]: s'localhost' 6000 0 7 NULL NULL 16 1 2 NULL x'abcd'\n"
		"unknown_events[0]: s'localhost' 8000 1 1 NULL NULL 200 9 NULL x'deadbeef'\n"
		"lost[0]: s'localhost' 2000 3000 1 9 9 NULL\n"
		"lost[0]: s'localhost' 4000 NULL 2 NULL NULL 3\n"
		"processes[0]: s'localhost' 900 1 1 0 s'init' s'process.snapshot'\n"
		/* one trace: no clock offset; files each as held, one a line */
		"trace[0]: s'localhost' NULL NULL s'6.1.0' 1 s'global' -5 NULL NULL 1234 8000 4 3 h't_0\nodd\\nname_1' ns\n"
		"exec DROP VIEW IF\n");
	o->ops->free(o);
}

/* Several hosts: each row with its event's host, a trace row for each
 * (one without events too), their clocks; --host names one trace. */
static void test_hosts(void **state)
{
	struct trace_info b_info = fixture_info;
	struct trace_info info = fixture_info;
	const struct trace_host hosts[] = {
		{ .label = "a", .info = &fixture_info },
		{ .label = "b", .info = &b_info, .clock_offset = -70,
		  .uncertainty = 4.6 },
		{ .label = "c", .info = &fixture_info, .uncertainty = -1 },
	};
	struct text_sink *t = ts_new();
	struct output *o = &t->so.o;

	(void)state;
	strcpy(b_info.hostname, "nfs-b");
	strcpy(b_info.machine, "x86_64");
	info.hosts = hosts;
	info.nhosts = 3;
	assert_int_equal(o->ops->begin(o, &info), 0);
	assert_int_equal(fixture_send_host(o, rec_entry, &bash, "b"), 0);
	assert_int_equal(fixture_send_host(o, rec_entry, &bash, "a"), 0);
	assert_int_equal(fixture_send_host(o, rec_io, NULL, "b"), 0);
	assert_int_equal(o->ops->finish(o), 0);
	assert_non_null(strstr(t->log,
		"host 0 b\n"
		"define CREATE TABLE \"syscall_entry\" unless syscall_entry\n"
		"syscall_entry[0]: s'b' 1234 2 100 42 s'bash' s'a\tb\\c' NULL\n"
		"host 1 a\n"
		"syscall_entry[1]: s'a' 1234 2 100 42 s'bash' s'a\tb\\c' NULL\n"));
	assert_non_null(strstr(t->log, "io_submit[0]: s'b' 5000 "));
	assert_non_null(strstr(t->log,
		"host 2 c\n"
		"trace[0]: s'b' s'nfs-b' s'x86_64' s'6.1.0' 1 s'global' -5 -70 5 1234 5000 2 0 "));
	assert_non_null(strstr(t->log,
		"trace[1]: s'a' NULL NULL s'6.1.0' 1 s'global' -5 0 0 1234 1234 1 0 "));
	/* no RPC pairs: the uncertainty not known; no events: no first
	 * and last times */
	assert_non_null(strstr(t->log,
		"trace[2]: s'c' NULL NULL s'6.1.0' 1 s'global' -5 0 NULL NULL NULL 0 0 "));
	o->ops->free(o);

	t = ts_host("lab-1");
	o = &t->so.o;
	assert_int_equal(o->ops->begin(o, &b_info), 0);
	assert_int_equal(fixture_send(o, rec_entry, &bash), 0);
	assert_non_null(strstr(t->log, "host 0 lab-1\nd"));
	o->ops->free(o);
	/* else the header's hostname */
	t = ts_new();
	o = &t->so.o;
	assert_int_equal(o->ops->begin(o, &b_info), 0);
	assert_int_equal(fixture_send(o, rec_entry, &bash), 0);
	assert_non_null(strstr(t->log, "host 0 nfs-b\nd"));
	o->ops->free(o);
}

/* Events past the table limit: their fields as other_events text. */
static void test_other_events(void **state)
{
	struct text_sink *t = ts_new();
	struct output *o = &t->so.o;

	(void)state;
	assert_int_equal(o->ops->begin(o, &fixture_info), 0);
	t->so.schema.ntables = SQL_MAX_TABLES;
	t->so.schema.full_noted = true;
	assert_int_equal(fixture_send(o, rec_io, NULL), 0);
	t->so.schema.ntables = 0;
	assert_non_null(strstr(t->log, "other_events[0]: s'localhost' 5000 0 7 NULL NULL s'io.submit' 3 5 h'buf_addr=0xffff888012345000 request_flags=0x8001 count=-5 u=-1'\n"));
	o->ops->free(o);
}

static void test_report_rows(void **state)
{
	struct text_sink *t = ts_new();
	struct output *o = &t->so.o;
	struct report *r;

	(void)state;
	assert_int_equal(report_new(&r), 0);
	assert_int_equal(report_finish(r), 0);
	assert_int_equal(o->ops->begin(o, &fixture_info), 0);
	assert_int_equal(o->ops->report(o, r), 0);
	assert_non_null(strstr(t->log, "define CREATE TABLE latency unless latency\n"));
	report_free(r);
	o->ops->free(o);
}

/* A sink that fails without words: the errno's, with the name. */
static void test_failure_words(void **state)
{
	struct text_sink *t = ts_new();
	struct output *o = &t->so.o;

	(void)state;
	t->fail = "CREATE TABLE \"syscall_entry\"";
	assert_int_equal(o->ops->begin(o, &fixture_info), 0);
	assert_null(o->ops->error(o));
	assert_int_equal(fixture_send(o, rec_entry, &bash), -EIO);
	assert_string_equal(o->ops->error(o), "x.db: Input/output error");
	o->ops->free(o);
}

UNIT_MAIN("sql", meta_setup, meta_teardown,
	  UNIT_TEST(test_names), UNIT_TEST(test_table_limit),
	  UNIT_TEST(test_ddl), UNIT_TEST(test_ddl_partitioned),
	  UNIT_TEST(test_rows), UNIT_TEST(test_hosts),
	  UNIT_TEST(test_other_events), UNIT_TEST(test_report_rows),
	  UNIT_TEST(test_failure_words))
