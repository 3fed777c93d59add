// SPDX-License-Identifier: GPL-2.0
/* outfmt: times, JSON and CSV text, as every line output writes them. */
#include "unit.h"

#include "output/line/outfmt.h"

static void expect_time(enum time_format f, const struct trace_info *t,
			uint64_t ts, const char *want)
{
	struct timefmt tf;
	char buf[OUTFMT_TIME_MAX + 1], *end;

	timefmt_init(&tf, f);
	assert_int_equal(timefmt_begin(&tf, t), 0);
	end = timefmt_put(&tf, buf, ts);
	*end = '\0';
	assert_string_equal(buf, want);
}

static void test_times(void **state)
{
	const struct trace_info t = {
		.have_header = true, .first_ts = 1000000000ull,
		/* trace time 0 is 2023-11-14T22:13:20 UTC */
		.wall_offset = 1700000000000000000ll,
	};

	(void)state;
	expect_time(TIME_ABS, &t, 1234567890123ull, "1234.567890123");
	expect_time(TIME_REL, &t, 1500000000ull, "0.500000000");
	expect_time(TIME_RAW, &t, 1234567890123ull, "1234567890123");
	expect_time(TIME_WALL, &t, 5000000001ull,
		    "2023-11-14T22:13:25.000000001");
}

static void test_json(void **state)
{
	char buf[128], *end;

	(void)state;
	/* the text as lket.out escapes it (\\ and \n), in JSON's quoting:
	 * a reader gets lket.out's words */
	end = outfmt_json_string(buf, "a\"b\\c\n", 6);
	*end = '\0';
	assert_string_equal(buf, "a\\\"b\\\\\\\\c\\\\n");
	end = outfmt_json_int(buf, -5);
	*end = '\0';
	assert_string_equal(buf, "-5");
	/* past 2^53: a string, exact in every reader */
	end = outfmt_json_int(buf, 9007199254740993ll);
	*end = '\0';
	assert_string_equal(buf, "\"9007199254740993\"");
	end = outfmt_json_uint(buf, 18446744073709551615ull);
	*end = '\0';
	assert_string_equal(buf, "\"18446744073709551615\"");
}

static void test_csv(void **state)
{
	char buf[128], *end;

	(void)state;
	end = outfmt_csv_cell(buf, "plain", 5);
	*end = '\0';
	assert_string_equal(buf, "plain");
	end = outfmt_csv_cell(buf, "a,\"b\"", 5);
	*end = '\0';
	assert_string_equal(buf, "\"a,\"\"b\"\"\"");
	/* what a spreadsheet would take for a formula */
	end = outfmt_csv_cell(buf, "=1+1", 4);
	*end = '\0';
	assert_string_equal(buf, "'=1+1");
}

UNIT_MAIN("outfmt", NULL, NULL,
	  UNIT_TEST(test_times), UNIT_TEST(test_json), UNIT_TEST(test_csv))
