// SPDX-License-Identifier: GPL-2.0
/* progress: the line's wording and sizes, and how often it may change. */
#include "unit.h"

#include "util/progress.h"

static void expect_line(uint64_t done, uint64_t total, const char *want)
{
	char buf[128];

	assert_int_equal(progress_format(buf, sizeof(buf), done, total),
			 (int)strlen(want));
	assert_string_equal(buf, want);
}

static void test_format(void **state)
{
	(void)state;
	expect_line(1200000000ull, 3000000000ull,
		    "lket-b2a: 1.2 GB of 3.0 GB, 40%");
	expect_line(0, 999, "lket-b2a: 0 B of 999 B, 0%");
	expect_line(1500, 1000000, "lket-b2a: 1.5 kB of 1.0 MB, 0%");
	/* 999.96 kB rounds up to the next unit, not to "1000.0 kB" */
	expect_line(999960, 999960, "lket-b2a: 1.0 MB of 1.0 MB, 100%");
	/* a file that grew while read: never past 100% */
	expect_line(2000, 1000, "lket-b2a: 1.0 kB of 1.0 kB, 100%");
	/* a pipe: its size is not known */
	expect_line(123456789, 0, "lket-b2a: 123.5 MB read");
}

static void test_due(void **state)
{
	struct progress p = { 0 };

	(void)state;
	/* the first look: nothing yet, a short run shows no line */
	assert_false(progress_due(&p, 1000));
	assert_false(progress_due(&p, 1000 + PROGRESS_INTERVAL_NS - 1));
	assert_true(progress_due(&p, 1000 + PROGRESS_INTERVAL_NS));
	assert_false(progress_due(&p, 1000 + 2 * PROGRESS_INTERVAL_NS - 1));
	assert_true(progress_due(&p, 1000 + 2 * PROGRESS_INTERVAL_NS));
}

UNIT_MAIN("progress", NULL, NULL,
	  UNIT_TEST(test_format), UNIT_TEST(test_due))
