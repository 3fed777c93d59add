// SPDX-License-Identifier: GPL-2.0
/* tracename: the per-CPU file-name rule, and what is left of a name. */
#include "unit.h"

#include "input/tracename.h"

static void test_cpu(void **state)
{
	(void)state;
	assert_int_equal(tracename_cpu("stpd_cpu3"), 3);
	assert_int_equal(tracename_cpu("dir/t_12"), 12);
	assert_int_equal(tracename_cpu("t_cpu9"), 9);
	assert_int_equal(tracename_cpu("tcpu0"), 0);
	/* no CPU part: no number, five digits, a number after a letter */
	assert_int_equal(tracename_cpu("trace"), -1);
	assert_int_equal(tracename_cpu("t_12345"), -1);
	assert_int_equal(tracename_cpu("t5"), -1);
	assert_int_equal(tracename_cpu("d_1/trace"), -1);
}

static void test_len(void **state)
{
	(void)state;
	assert_int_equal(tracename_len("trace_0"), 5);
	assert_int_equal(tracename_len("tracecpu0"), 5);
	assert_int_equal(tracename_len("trace_cpu10"), 5);
	assert_int_equal(tracename_len("stpd_cpu3"), 4);
	assert_int_equal(tracename_len("trace"), 0);
}

static void test_stem(void **state)
{
	(void)state;
	assert_int_equal(tracename_stem("t_0"), 1);
	assert_int_equal(tracename_stem("t_cpu1"), 1);
	assert_int_equal(tracename_stem("t_"), 1);
	assert_int_equal(tracename_stem("t__0"), 1);
	assert_int_equal(tracename_stem("stpd_cpu0"), 4);
	/* "cpu" with no number after it is the name's own */
	assert_int_equal(tracename_stem("mycpu"), 5);
	assert_int_equal(tracename_stem("2024"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu),
		cmocka_unit_test(test_len),
		cmocka_unit_test(test_stem),
	};

	return cmocka_run_group_tests_name("tracename", tests, NULL, NULL);
}
