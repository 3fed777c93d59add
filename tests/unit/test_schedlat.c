// SPDX-License-Identifier: GPL-2.0
/* schedlat: a wake-up ends at the switch that runs its thread; one the
 * thread absorbs while running is dropped; a later one replaces it; the
 * idle task and threads never woken give none; the filter's say. */
#include "unit.h"

#include "analysis/schedlat.h"

static void wake(struct schedlat *s, int32_t tid, uint64_t ts, bool sel)
{
	assert_int_equal(schedlat_wakeup(s, tid, 42, "worker", 6, ts, true,
					 sel), 0);
}

/* The switch at ts from prev to next: the latency it ends, or -1. */
static int64_t sw(struct schedlat *s, int32_t prev, int64_t state,
		  int32_t next, uint64_t ts, struct schedlat_sample *w)
{
	int ret = schedlat_switch(s, prev, state, next, ts, false, w);

	assert_true(ret == 0 || ret == 1);
	return ret ? (int64_t)(w->ran - w->woken) : -1;
}

static void test_wakeup_to_switch(void **state)
{
	struct schedlat_sample w;
	struct schedlat *s;

	(void)state;
	assert_int_equal(schedlat_new(&s), 0);
	/* woken at 1000, switched out asleep just after (the waker ran on
	 * another CPU), run at 4000: 3000 ns */
	wake(s, 7, 1000, true);
	assert_int_equal(sw(s, 7, 1, 0, 1100, &w), -1);
	assert_int_equal(schedlat_pending(s), 1);
	assert_int_equal(sw(s, 0, 0, 7, 4000, &w), 3000);
	assert_int_equal(w.tid, 7);
	assert_int_equal(w.pid, 42);
	assert_string_equal(w.comm, "worker");
	assert_true(w.selected);
	assert_int_equal(schedlat_pending(s), 0);
	/* its next run without a wake-up ends nothing */
	assert_int_equal(sw(s, 7, 0, 0, 5000, &w), -1);
	assert_int_equal(sw(s, 0, 0, 7, 6000, &w), -1);
	schedlat_free(s);
}

static void test_absorbed_and_replaced(void **state)
{
	struct schedlat_sample w;
	struct schedlat *s;

	(void)state;
	assert_int_equal(schedlat_new(&s), 0);
	/* woken while it runs, then preempted: its wait is not a wake-up's */
	wake(s, 8, 1000, true);
	assert_int_equal(sw(s, 8, 0, 0, 2000, &w), -1);
	assert_int_equal(sw(s, 0, 0, 8, 9000, &w), -1);
	/* an absorbed wake-up left pending (it slept again after) is
	 * replaced by the wake-up of that sleep */
	wake(s, 8, 10000, true);
	wake(s, 8, 20000, true);
	assert_int_equal(sw(s, 0, 0, 8, 20500, &w), 500);
	/* the idle task is never woken */
	wake(s, 0, 30000, true);
	assert_int_equal(sw(s, 5, 1, 0, 31000, &w), -1);
	assert_int_equal(schedlat_pending(s), 0);
	schedlat_free(s);
}

static void test_selected(void **state)
{
	struct schedlat_sample w;
	struct schedlat *s;

	(void)state;
	assert_int_equal(schedlat_new(&s), 0);
	/* neither end passed the filter, or the switch alone did */
	wake(s, 9, 100, false);
	assert_int_equal(schedlat_switch(s, 0, 0, 9, 200, false, &w), 1);
	assert_false(w.selected);
	wake(s, 9, 300, false);
	assert_int_equal(schedlat_switch(s, 0, 0, 9, 400, true, &w), 1);
	assert_true(w.selected);
	/* only selected wake-ups count as pending at the end */
	wake(s, 10, 500, false);
	wake(s, 11, 500, true);
	assert_int_equal(schedlat_pending(s), 1);
	/* a long name is cut to the kernel's 16 bytes */
	assert_int_equal(schedlat_wakeup(s, 12, 1, "a-very-long-thread-name",
					 23, 600, true, true), 0);
	assert_int_equal(schedlat_switch(s, 0, 0, 12, 700, false, &w), 1);
	assert_string_equal(w.comm, "a-very-long-thre");
	schedlat_free(s);
}

/* Many threads at once: slots are reused, none mixed up. */
static void test_many(void **state)
{
	struct schedlat_sample w;
	struct schedlat *s;
	int32_t t;

	(void)state;
	assert_int_equal(schedlat_new(&s), 0);
	for (t = 1; t <= 5000; t++)
		wake(s, t, (uint64_t)t, true);
	for (t = 1; t <= 5000; t += 2)
		assert_int_equal(sw(s, 0, 0, t, 10000, &w), 10000 - t);
	for (t = 1; t <= 5000; t += 2)
		wake(s, t, 20000, true);
	for (t = 1; t <= 5000; t++)
		assert_int_equal(sw(s, 0, 0, t, 30000, &w),
				 t % 2 ? 10000 : 30000 - t);
	assert_int_equal(schedlat_pending(s), 0);
	schedlat_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wakeup_to_switch),
		cmocka_unit_test(test_absorbed_and_replaced),
		cmocka_unit_test(test_selected),
		cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
