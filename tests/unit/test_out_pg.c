// SPDX-License-Identifier: GPL-2.0
/*
 * out_pg: rows in COPY text format, byte for byte, as they go to the
 * server; a refused connection and a schema name too long reported in
 * words.  The load into a real server is tests/db's.
 */
#include "unit.h"
#include "sql_fixture.h"

#include "output/db/db.h"
#include "output/db/out_pg.h"

/* The COPY text of the n values at v, in no more than the room asked
 * for; to free. */
static char *copy_row(const struct sql_value *v, unsigned int n)
{
	size_t room = pg_copy_room(v, n);
	char *buf = malloc(room + 1), *end;

	assert_non_null(buf);
	end = pg_copy_row(buf, v, n);
	assert_true((size_t)(end - buf) <= room);
	*end = '\0';
	return buf;
}

static void expect_row(const struct sql_value *v, unsigned int n,
		       const char *want)
{
	char *row = copy_row(v, n);

	assert_string_equal(row, want);
	free(row);
}

static void test_numbers_and_null(void **state)
{
	const struct sql_value v[] = {
		{ .type = SQL_INTEGER, .i = 0 },
		{ .type = SQL_NULL },
		{ .type = SQL_INTEGER, .i = INT64_MIN },
		{ .type = SQL_INTEGER, .i = INT64_MAX },
	};

	(void)state;
	expect_row(v, 4, "0\t\\N\t-9223372036854775808\t9223372036854775807\n");
}

/* Strings as the databases hold them (\t, \\, \xNN), then COPY doubles
 * every backslash; held text's line breaks become \n. */
static void test_text(void **state)
{
	static const char s[] = "a\tb\\c\n\xff \"q\" \xc3\xa9";
	static const char held[] = "t_0\nodd\\nname_1";
	const struct sql_value v[] = {
		{ .type = SQL_STRING, .p = s, .len = sizeof(s) - 1 },
		{ .type = SQL_HELD, .p = held, .len = sizeof(held) - 1 },
		{ .type = SQL_STRING, .p = "", .len = 0 },
	};

	(void)state;
	expect_row(v, 3, "a\\\\tb\\\\\\\\c\\\\n\\\\xff \"q\" \xc3\xa9\t"
		   "t_0\\nodd\\\\nname_1\t\n");
}

static void test_bytea(void **state)
{
	static const uint8_t raw[] = { 0x00, 0xab, 0xff };
	const struct sql_value v[] = {
		{ .type = SQL_BLOB, .p = raw, .len = sizeof(raw) },
		{ .type = SQL_BLOB, .p = raw, .len = 0 },
	};

	(void)state;
	expect_row(v, 2, "\\\\x00abff\t\\\\x\n");
}

/* The widest values fit the room asked for: control bytes escaped
 * (five bytes each), backslashes doubled. */
static void test_room(void **state)
{
	static char ctl[1000], slash[1000];
	struct sql_value v[8];
	unsigned int i;

	(void)state;
	memset(ctl, 0x01, sizeof(ctl));
	memset(slash, '\\', sizeof(slash));
	for (i = 0; i < 8; i++)
		v[i] = i % 2 ? (struct sql_value){ .type = SQL_STRING,
						   .p = ctl,
						   .len = sizeof(ctl) } :
			(struct sql_value){ .type = SQL_HELD, .p = slash,
					    .len = sizeof(slash) };
	free(copy_row(v, 8));
}

static struct output *pg_new(const char *schema)
{
	const struct pg_options opt = {
		/* no server there: refused at once */
		.conninfo = "host=/nonexistent/lket port=1 connect_timeout=2",
		.schema = schema,
	};
	struct output *o;

	assert_int_equal(output_pg_new(&o, &opt), 0);
	return o;
}

static void test_refused(void **state)
{
	struct output *o = pg_new("t");
	const char *msg;

	(void)state;
	assert_int_equal(o->ops->begin(o, &fixture_info), -ECONNREFUSED);
	msg = o->ops->error(o);
	assert_non_null(msg);
	assert_memory_equal(msg, "PostgreSQL: cannot connect: ", 28);
	/* libpq's words, without the line break it ends them with */
	assert_true(msg[strlen(msg) - 1] != '\n');
	o->ops->free(o);
}

static void test_schema_too_long(void **state)
{
	char schema[SQL_NAME_MAX + 1];
	struct output *o;

	(void)state;
	memset(schema, 's', SQL_NAME_MAX);
	schema[SQL_NAME_MAX] = '\0';
	o = pg_new(schema);
	assert_int_equal(o->ops->begin(o, &fixture_info), -ENAMETOOLONG);
	assert_string_equal(o->ops->error(o), "PostgreSQL: File name too long");
	o->ops->free(o);
}

UNIT_MAIN("out_pg", meta_setup, meta_teardown,
	  UNIT_TEST(test_numbers_and_null), UNIT_TEST(test_text),
	  UNIT_TEST(test_bytea), UNIT_TEST(test_room), UNIT_TEST(test_refused),
	  UNIT_TEST(test_schema_too_long))
