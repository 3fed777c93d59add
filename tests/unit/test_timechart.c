// SPDX-License-Identifier: GPL-2.0
/* timechart: columns that widen and keep every nanosecond. */
#include "unit.h"

#include "output/chart/timechart.h"

static uint64_t lane_ns(const struct tc_lane *l, enum tc_state st)
{
	uint64_t ns = 0;
	size_t i;

	for (i = 0; i < TC_COLUMNS; i++)
		ns += l->col[i].ns[st];
	return ns;
}

static void test_widen(void **state)
{
	struct timechart tc;
	struct tc_lane *a, *b;
	size_t i;
	uint32_t ended = 0;

	(void)state;
	tc_init(&tc);
	a = tc_lane_new(&tc);
	b = tc_lane_new(&tc);
	assert_non_null(a);
	assert_non_null(b);
	/* 1 ns a column at first: 500 columns */
	tc_span(&tc, a, 1000, 1500, TC_SYSCALL);
	assert_int_equal(tc.width, 1);
	assert_int_equal(tc_used(&tc), 500);
	tc_mark(&tc, a, 1200, TC_FORK);
	/* a second later: columns of 2^20 ns (1000 of them > 1 s) */
	tc_span(&tc, a, 1500, 1000001000ull, TC_SLEEP);
	tc_request(&tc, b, 5000, 1000000000ull);
	assert_int_equal(tc.width, 1u << 20);
	assert_true(tc_used(&tc) > TC_COLUMNS / 2);
	assert_true(tc_used(&tc) <= TC_COLUMNS);
	/* not a nanosecond lost in the merges */
	assert_int_equal(lane_ns(a, TC_SYSCALL), 500);
	assert_int_equal(lane_ns(a, TC_SLEEP), 1000001000ull - 1500);
	assert_int_equal(lane_ns(b, TC_RUN), 1000000000ull - 5000);
	assert_int_equal(a->col[0].mark[TC_FORK], 1);
	for (i = 0; i < TC_COLUMNS; i++) {
		ended += b->col[i].count;
		if (b->col[i].count)
			assert_int_equal(b->col[i].longest,
					 1000000000ull - 5000);
	}
	assert_int_equal(ended, 1);
	/* time going back: column 0 */
	assert_int_equal(tc_column(&tc, 10), 0);
	tc_free(&tc);
}

static void test_run_top(void **state)
{
	struct timechart tc;
	struct tc_lane *cpu;

	(void)state;
	tc_init(&tc);
	cpu = tc_lane_new(&tc);
	tc_column(&tc, 0);
	tc_column(&tc, 9999);	/* 10 ns a column, 16 after doubling */
	tc_run(&tc, cpu, 0, 3, 7);
	tc_run(&tc, cpu, 3, 12, 8);
	/* column 0 (0..15): tid 8 ran longest in one stretch */
	assert_int_equal(tc.width, 16);
	assert_int_equal(cpu->col[0].ns[TC_RUN], 12);
	assert_int_equal(cpu->col[0].top_tid, 8);
	tc_free(&tc);
}

UNIT_MAIN("timechart", NULL, NULL,
	  UNIT_TEST(test_widen), UNIT_TEST(test_run_top))
