// SPDX-License-Identifier: GPL-2.0
/* tracename: the per-CPU file-name rule, and what is left of a name. */
#include "unit.h"

#include "input/tracename.h"

/*
 * A name: its CPU (-1: not a per-CPU file), its NAME's length, its stem,
 * its rotated file's number (-1: not one).
 */
static const struct {
	const char *name;
	int cpu;
	size_t len, stem;
	int rotation;
} names[] = {
	{ "stpd_cpu3", 3, 4, 4, -1 },
	{ "/tmp/t/stpd_cpu0", 0, 11, 11, -1 },	/* of the whole string */
	{ "trace_12", 12, 5, 5, -1 },
	{ "dir/trace_255", 255, 9, 9, -1 },
	{ "t_cpu9", 9, 1, 1, -1 },
	{ "tracecpu0", 0, 5, 5, -1 },
	{ "cpu7", 7, 0, 0, -1 },
	{ "t__0", 0, 2, 1, -1 },	/* the stem loses every '_' */
	/* no CPU part: no number, five digits, a number after a letter */
	{ "x/foo", -1, 0, 5, -1 },
	{ "foo12", -1, 0, 3, -1 },
	{ "trace_", -1, 0, 5, -1 },
	{ "trace_12345", -1, 0, 5, -1 },
	{ "run_4/foo", -1, 0, 9, -1 },
	/* "cpu" with no number after it is the name's own */
	{ "mycpu", -1, 0, 5, -1 },
	{ "2024", -1, 0, 0, -1 },
	/* a rotated trace's files (lket-run-traced --rotate): NAME_N.K */
	{ "t_1.0", 1, 1, 1, 0 },
	{ "dir/lket.out_12.345", 12, 12, 12, 345 },
	{ "stpd_cpu2.7", 2, 4, 4, 7 },
	/* not a CPU before the number: a name's own dot */
	{ "trace.3", -1, 0, 6, -1 },
	{ "t_x.3", -1, 0, 4, -1 },
	{ "t_1.", -1, 0, 4, -1 },
	{ "t_1.1234567890", -1, 0, 4, -1 },
};

static void test_names(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(tracename_cpu(names[i].name), names[i].cpu);
		assert_int_equal(tracename_len(names[i].name), names[i].len);
		assert_int_equal(tracename_stem(names[i].name), names[i].stem);
		assert_int_equal(tracename_rotation(names[i].name),
				 names[i].rotation);
	}
}

UNIT_MAIN("tracename", NULL, NULL, UNIT_TEST(test_names))
