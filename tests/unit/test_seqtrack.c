// SPDX-License-Identifier: GPL-2.0
/* seqtrack: lost flushes from their sequence numbers. */
#include "unit.h"

#include "analysis/seqtrack.h"

#define MAX_GAPS	8

struct gaps {
	unsigned int n;
	struct seq_gap g[MAX_GAPS];
};

static void on_gap(void *ctx, const struct seq_gap *gap)
{
	struct gaps *gaps = ctx;

	assert_true(gaps->n < MAX_GAPS);
	gaps->g[gaps->n++] = *gap;
}

struct fixture {
	struct seqtrack t;
	struct gaps gaps;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	seqtrack_init(&f->t, on_gap, &f->gaps);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

static void expect_gap(const struct gaps *gaps, unsigned int i,
		       uint32_t first, uint32_t last, uint64_t after_ts,
		       uint64_t before_ts)
{
	assert_true(i < gaps->n);
	assert_int_equal(gaps->g[i].first, first);
	assert_int_equal(gaps->g[i].last, last);
	assert_int_equal(gaps->g[i].after_ts, after_ts);
	assert_int_equal(gaps->g[i].before_ts, before_ts);
}

static void test_contiguous(void **state)
{
	struct fixture *f = *state;
	uint32_t seq;

	for (seq = 1; seq <= 1000; seq++)
		seqtrack_see(&f->t, seq, seq * 10);
	seqtrack_finish(&f->t);
	assert_int_equal(f->gaps.n, 0);
	assert_int_equal(f->t.lost, 0);
}

static void test_gap(void **state)
{
	struct fixture *f = *state;

	seqtrack_see(&f->t, 1, 10);
	seqtrack_see(&f->t, 2, 20);
	seqtrack_see(&f->t, 5, 50);
	seqtrack_see(&f->t, 6, 60);
	seqtrack_finish(&f->t);
	assert_int_equal(f->gaps.n, 1);
	expect_gap(&f->gaps, 0, 3, 4, 20, 50);
	assert_int_equal(f->t.lost, 2);
}

static void test_two_gaps(void **state)
{
	struct fixture *f = *state;

	seqtrack_see(&f->t, 10, 100);
	seqtrack_see(&f->t, 12, 120);
	seqtrack_see(&f->t, 13, 130);
	seqtrack_see(&f->t, 20, 200);
	seqtrack_finish(&f->t);
	assert_int_equal(f->gaps.n, 2);
	expect_gap(&f->gaps, 0, 11, 11, 100, 120);
	expect_gap(&f->gaps, 1, 14, 19, 130, 200);
	assert_int_equal(f->t.lost, 7);
}

/*
 * Each record of a flush reports the flush's number: the gap lies between
 * the last record of the flush before it and the first of the flush after.
 */
static void test_gap_timestamps(void **state)
{
	struct fixture *f = *state;

	seqtrack_see(&f->t, 1, 10);
	seqtrack_see(&f->t, 1, 11);
	seqtrack_see(&f->t, 1, 12);
	seqtrack_see(&f->t, 3, 30);
	seqtrack_see(&f->t, 3, 31);
	seqtrack_see(&f->t, 3, 32);
	seqtrack_see(&f->t, 4, 40);
	seqtrack_finish(&f->t);
	assert_int_equal(f->gaps.n, 1);
	expect_gap(&f->gaps, 0, 2, 2, 12, 30);
}

/* Flushes of different CPUs reach the tracker a little out of order. */
static void test_out_of_order(void **state)
{
	struct fixture *f = *state;
	static const uint32_t order[] = { 1, 3, 2, 4, 7, 5, 6, 9, 8, 10 };
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		seqtrack_see(&f->t, order[i], i * 10);
	assert_int_equal(f->gaps.n, 0);
	seqtrack_finish(&f->t);
	assert_int_equal(f->gaps.n, 0);
	assert_int_equal(f->t.lost, 0);
}

/* Every record of a flush reports its number: repeats are no news. */
static void test_duplicates(void **state)
{
	struct fixture *f = *state;

	seqtrack_see(&f->t, 1, 10);
	seqtrack_see(&f->t, 1, 11);
	seqtrack_see(&f->t, 2, 20);
	seqtrack_see(&f->t, 2, 21);
	seqtrack_see(&f->t, 1, 12);
	seqtrack_see(&f->t, 4, 40);
	seqtrack_see(&f->t, 4, 41);
	seqtrack_see(&f->t, 3, 30);
	seqtrack_see(&f->t, 3, 31);
	seqtrack_see(&f->t, 2, 22);
	seqtrack_finish(&f->t);
	assert_int_equal(f->gaps.n, 0);
	assert_int_equal(f->t.lost, 0);
}

/* What is missing below the highest number is only known at the end. */
static void test_gap_at_end(void **state)
{
	struct fixture *f = *state;

	seqtrack_see(&f->t, 1, 10);
	seqtrack_see(&f->t, 2, 20);
	seqtrack_see(&f->t, 3, 30);
	seqtrack_see(&f->t, 7, 70);
	assert_int_equal(f->gaps.n, 0);
	seqtrack_finish(&f->t);
	assert_int_equal(f->gaps.n, 1);
	expect_gap(&f->gaps, 0, 4, 6, 30, 70);
	assert_int_equal(f->t.lost, 3);
}

/* A number a window ahead pushes what fell out of the window out as lost. */
static void test_window(void **state)
{
	struct fixture *f = *state;
	uint32_t far = 2 + SEQTRACK_WINDOW + 100;

	seqtrack_see(&f->t, 1, 10);
	seqtrack_see(&f->t, 2, 20);
	seqtrack_see(&f->t, 4, 40);
	seqtrack_see(&f->t, far, 1000);
	/* 3 fell out of the window: reported now, not at the end */
	assert_true(f->gaps.n >= 1);
	expect_gap(&f->gaps, 0, 3, 3, 20, 40);
	seqtrack_finish(&f->t);
	/* all of 5 .. far - 1 lost, first and last included */
	assert_int_equal(f->t.lost, 1 + (far - 5));
	assert_int_equal(f->gaps.g[1].first, 5);
	assert_int_equal(f->gaps.g[f->gaps.n - 1].last, far - 1);
	assert_int_equal(f->gaps.g[f->gaps.n - 1].before_ts, 1000);
}

/* Numbers wrap at 2^32. */
static void test_wrap(void **state)
{
	struct fixture *f = *state;

	seqtrack_see(&f->t, 0xfffffffe, 10);
	seqtrack_see(&f->t, 0xffffffff, 20);
	seqtrack_see(&f->t, 1, 40);
	seqtrack_finish(&f->t);
	assert_int_equal(f->gaps.n, 1);
	expect_gap(&f->gaps, 0, 0, 0, 20, 40);
	assert_int_equal(f->t.lost, 1);
}

static void test_nothing_seen(void **state)
{
	struct fixture *f = *state;

	seqtrack_finish(&f->t);
	assert_int_equal(f->gaps.n, 0);
	assert_int_equal(f->t.lost, 0);
}

/* Format version 2: one run per file, numbered by its CPU alone. */
struct run_fixture {
	struct seqrun r;
	struct gaps gaps;
};

static int run_setup(void **state)
{
	struct run_fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	seqrun_init(&f->r, 3, on_gap, &f->gaps);
	*state = f;
	return 0;
}

static void test_run_contiguous(void **state)
{
	struct run_fixture *f = *state;
	uint32_t seq;

	for (seq = 1; seq <= 1000; seq++) {
		seqrun_see(&f->r, seq, seq * 10);
		/* a second record in the same flush */
		seqrun_see(&f->r, seq, seq * 10 + 1);
	}
	assert_int_equal(f->gaps.n, 0);
	assert_int_equal(f->r.lost, 0);
}

static void test_run_gap(void **state)
{
	struct run_fixture *f = *state;

	seqrun_see(&f->r, 7, 70);
	seqrun_see(&f->r, 7, 75);	/* the flush's last record */
	seqrun_see(&f->r, 11, 110);	/* 8, 9, 10 lost */
	seqrun_see(&f->r, 12, 120);
	seqrun_see(&f->r, 14, 140);	/* 13 lost */
	assert_int_equal(f->gaps.n, 2);
	expect_gap(&f->gaps, 0, 8, 10, 75, 110);
	expect_gap(&f->gaps, 1, 13, 13, 120, 140);
	assert_int_equal(f->gaps.g[0].cpu, 3);
	assert_int_equal(f->r.lost, 4);
}

static void test_run_wrap(void **state)
{
	struct run_fixture *f = *state;

	seqrun_see(&f->r, 0xfffffffe, 10);
	seqrun_see(&f->r, 0xffffffff, 20);
	seqrun_see(&f->r, 1, 40);	/* 0 lost */
	assert_int_equal(f->gaps.n, 1);
	expect_gap(&f->gaps, 0, 0, 0, 20, 40);
	assert_int_equal(f->r.lost, 1);
}

/* An older number (a damaged file) is no gap, and no loss. */
static void test_run_older(void **state)
{
	struct run_fixture *f = *state;

	seqrun_see(&f->r, 5, 50);
	seqrun_see(&f->r, 6, 60);
	seqrun_see(&f->r, 2, 65);
	seqrun_see(&f->r, 7, 70);
	assert_int_equal(f->gaps.n, 0);
	assert_int_equal(f->r.lost, 0);
}

/* A run whose numbers start at 1 (a flight recording's CPU): a first
 * flush above it is a gap from 1, with no time before it; one at 1 none. */
static void test_run_expect(void **state)
{
	struct run_fixture *f = *state;

	seqrun_expect(&f->r, 1);
	seqrun_see(&f->r, 4, 40);
	seqrun_see(&f->r, 5, 50);
	assert_int_equal(f->gaps.n, 1);
	expect_gap(&f->gaps, 0, 1, 3, 0, 40);
	assert_int_equal(f->r.lost, 3);
	seqrun_init(&f->r, 3, on_gap, &f->gaps);
	seqrun_expect(&f->r, 1);
	seqrun_see(&f->r, 1, 10);
	seqrun_see(&f->r, 2, 20);
	assert_int_equal(f->gaps.n, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_contiguous, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_gap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_gaps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gap_timestamps, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_out_of_order, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_duplicates, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_gap_at_end, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_expect, run_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_nothing_seen, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_run_contiguous, run_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_run_gap, run_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_run_wrap, run_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_run_older, run_setup,
						teardown),
	};

	return cmocka_run_group_tests_name("seqtrack", tests, NULL, NULL);
}
