// SPDX-License-Identifier: GPL-2.0
/*
 * out_sqlite: a database written and read back value for value; an
 * existing database refused, one that cannot be opened reported in
 * SQLite's words.
 */
#include <sqlite3.h>

#include "unit.h"

#include "output/db/db.h"
#include "sql_fixture.h"

struct db {
	char path[PATH_MAX_UNIT], file[PATH_MAX_UNIT];
	struct sqlite_options opt;
	struct output *o;
};

/* An output for unit_dir/name, written to an empty temporary file. */
static void db_new(struct db *d, const char *name, bool replace)
{
	char tmp[32];

	snprintf(tmp, sizeof(tmp), "%.20s.tmp", name);
	snprintf(d->path, sizeof(d->path), "%s/%s", unit_dir, name);
	unit_write(d->file, sizeof(d->file), tmp, "", 0);
	d->opt = (struct sqlite_options){ .path = d->path, .file = d->file,
					  .replace = replace };
	assert_int_equal(output_sqlite_new(&d->o, &d->opt), 0);
}

/* The one value that sql selects from the written database, as text. */
static void expect_sql(const char *file, const char *sql, const char *want)
{
	sqlite3_stmt *st;
	sqlite3 *db;

	assert_int_equal(sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY,
					 NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	if (!want)
		assert_int_equal(sqlite3_column_type(st, 0), SQLITE_NULL);
	else
		assert_string_equal((const char *)sqlite3_column_text(st, 0),
				    want);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static void test_written(void **state)
{
	struct db d;
	const char *f = d.file;

	(void)state;
	db_new(&d, "x.db", false);
	assert_int_equal(d.o->ops->begin(d.o, &fixture_info), 0);
	assert_int_equal(fixture_send(d.o, rec_entry, &bash), 0);
	assert_int_equal(fixture_send(d.o, rec_io, NULL), 0);
	assert_int_equal(fixture_send(d.o, rec_io_extra, NULL), 0);
	assert_int_equal(fixture_send(d.o, rec_snap, NULL), 0);
	assert_int_equal(fixture_send(d.o, rec_unknown, NULL), 0);
	assert_int_equal(d.o->ops->lost(d.o, &gap_flush), 0);
	assert_int_equal(d.o->ops->lost(d.o, &gap_records), 0);
	assert_int_equal(d.o->ops->process(d.o, 900, &bash, 1, "process.fork", NULL),
			 0);
	assert_int_equal(d.o->ops->finish(d.o), 0);
	assert_null(d.o->ops->error(d.o));
	d.o->ops->free(d.o);

	/* strings as lket.out writes them: \t and \\ */
	expect_sql(f, "SELECT syscall_name || '|' || comm || '|' || pid FROM syscall_entry",
		     "a\\tb\\\\c|bash|42");
	/* a kernel address: its 64 bits, shown in hex by the view */
	expect_sql(f, "SELECT buf_addr FROM io_submit WHERE time = 5000",
		     "-131391334100992");
	expect_sql(f, "SELECT buf_addr || ' ' || request_flags || ' ' || count FROM io_submit_hex WHERE time = 5000",
		     "0xffff888012345000 0x8001 -5");
	/* a record longer than its fields: no user value, the rest raw */
	expect_sql(f, "SELECT u FROM io_submit WHERE time = 6000", NULL);
	expect_sql(f, "SELECT hex(raw) FROM io_submit WHERE time = 6000",
		     "ABCD");
	expect_sql(f, "SELECT f_tid || ' ' || f_pid || ' ' || x || ' ' || x_2 FROM proc_snap",
		     "42 41 5 6");
	expect_sql(f, "SELECT grp || ':' || hook || ' ' || hex(raw) FROM unknown_events",
		     "200:9 DEADBEEF");
	expect_sql(f, "SELECT count(*) || ' ' || sum(count) || ' ' || max(cpu) FROM lost",
		     "2 3 3");
	expect_sql(f, "SELECT first_seq FROM lost WHERE cpu = 3", NULL);
	expect_sql(f, "SELECT ppid || ' ' || event FROM processes",
		     "1 process.fork");
	expect_sql(f, "SELECT header || ' ' || clock || ' ' || events || ' ' || lost || ' ' || last_time FROM trace",
		     "1 global 5 3 8000");
	expect_sql(f, "SELECT files FROM trace", "t_0\nodd\\nname_1");
	expect_sql(f, "SELECT group_concat(event, ',') FROM (SELECT event FROM events ORDER BY time)",
		     "syscall.entry,lket.lost,lket.dropped,io.submit,io.submit,proc.snap,unknown");
}

/*
 * trace.first_time and last_time: the first and last events written, not
 * the trace's first record (a task record, one a filter left out); NULL
 * when none was written.
 */
static void test_first_last(void **state)
{
	struct trace_info info = fixture_info;
	struct db d;

	(void)state;
	info.first_ts = 1000;
	db_new(&d, "t.db", false);
	assert_int_equal(d.o->ops->begin(d.o, &info), 0);
	assert_int_equal(fixture_send(d.o, rec_entry, &bash), 0);
	assert_int_equal(fixture_send(d.o, rec_io, NULL), 0);
	assert_int_equal(d.o->ops->finish(d.o), 0);
	d.o->ops->free(d.o);
	expect_sql(d.file, "SELECT first_time || ' ' || last_time FROM trace",
		   "1234 5000");
	expect_sql(d.file, "SELECT first_time = (SELECT min(time) FROM events) FROM trace",
		   "1");

	db_new(&d, "none.db", false);
	assert_int_equal(d.o->ops->begin(d.o, &info), 0);
	assert_int_equal(d.o->ops->finish(d.o), 0);
	d.o->ops->free(d.o);
	expect_sql(d.file, "SELECT first_time FROM trace", NULL);
	expect_sql(d.file, "SELECT last_time FROM trace", NULL);
}

/* An existing database: refused, in words main prints as they are. */
static void test_exists(void **state)
{
	char msg[512];
	char path[PATH_MAX_UNIT];
	struct db d;

	(void)state;
	db_new(&d, "old.db", false);
	unit_write(path, sizeof(path), "old.db", "x", 1);
	assert_int_equal(d.o->ops->begin(d.o, &fixture_info), -EEXIST);
	snprintf(msg, sizeof(msg), "%s exists: give --replace to overwrite it",
		 d.path);
	assert_string_equal(d.o->ops->error(d.o), msg);
	d.o->ops->free(d.o);

	/* --replace */
	db_new(&d, "old.db", true);
	assert_int_equal(d.o->ops->begin(d.o, &fixture_info), 0);
	assert_int_equal(d.o->ops->finish(d.o), 0);
	d.o->ops->free(d.o);
}

/* No file to write to: SQLite's words, with the database's name. */
static void test_cannot_open(void **state)
{
	char msg[512];
	struct db d;

	(void)state;
	db_new(&d, "gone.db", false);
	unlink(d.file);
	assert_int_equal(d.o->ops->begin(d.o, &fixture_info), -EACCES);
	snprintf(msg, sizeof(msg), "%s: unable to open database file",
		 d.path);
	assert_string_equal(d.o->ops->error(d.o), msg);
	d.o->ops->free(d.o);
}

static int setup(void **state)
{
	return unit_dir_setup(state) || meta_setup(state);
}

static int teardown(void **state)
{
	meta_teardown(state);
	return unit_dir_teardown(state);
}

UNIT_MAIN("out_sqlite", setup, teardown,
	  UNIT_TEST(test_written), UNIT_TEST(test_first_last),
	  UNIT_TEST(test_exists), UNIT_TEST(test_cannot_open))
