// SPDX-License-Identifier: GPL-2.0
/* align: a host's clock offset and drift from ordered pairs. */
#include "unit.h"

#include "analysis/align.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The correction that is true here: offset at t0, drift. */
struct truth {
	double offset, drift;
	int64_t t0;
	int64_t spacing;	/* between RPCs, ns */
};

static double correction(const struct truth *tr, int64_t t)
{
	return tr->offset + tr->drift * (double)(t - tr->t0);
}

/*
 * n RPCs as the server sees them, every tr->spacing from t0: the call arrives
 * w1 after the client sent it, the reply w2 after the server sent it
 * (20..220 us each way), the server takes 5..105 us.
 */
static void rpcs(struct align *a, const struct truth *tr, int n)
{
	int64_t process, send;
	int i;

	for (i = 0; i < n; i++) {
		int64_t w1 = 20000 + (int64_t)(next_rand() % 200000);
		int64_t w2 = 20000 + (int64_t)(next_rand() % 200000);

		process = tr->t0 + (int64_t)i * tr->spacing +
			  (int64_t)(next_rand() % 1000);
		send = process + 5000 + (int64_t)(next_rand() % 100000);
		/* client's send: the correction at process, less w1 */
		assert_int_equal(align_add(a, process,
					   (int64_t)correction(tr, process) - w1,
					   false), 0);
		assert_int_equal(align_add(a, send,
					   (int64_t)correction(tr, send) + w2 + 1,
					   true), 0);
	}
}

static void check_truth(const struct truth *tr, int n, double max_unc)
{
	struct align a;
	struct align_result r;
	double truth;

	align_init(&a);
	rpcs(&a, tr, n);
	assert_int_equal(align_fit(&a, &r), 0);
	truth = correction(tr, r.pivot);
	/* the truth is within the uncertainty, which is useful */
	assert_true(r.offset - r.uncertainty <= truth + 1);
	assert_true(r.offset + r.uncertainty >= truth - 1);
	/* half the two shortest wire times, 20 us each, and a little */
	assert_true(r.uncertainty < max_unc);
	assert_true(r.drift_min <= tr->drift + 1e-9);
	assert_true(r.drift_max >= tr->drift - 1e-9);
	assert_true(r.drift > tr->drift - 5e-6 && r.drift < tr->drift + 5e-6);
	assert_int_equal(r.nlower, (size_t)n);
	assert_int_equal(r.nupper, (size_t)n);
	align_free(&a);
}

/* Two seconds apart, no drift. */
static void test_offset(void **state)
{
	const struct truth tr = { -2000001234.0, 0, 5000000000ll, 1000000 };

	(void)state;
	check_truth(&tr, 1000, 25000);
}

/* 50 ppm over ten seconds: 500 us, more than a wire time; found. */
static void test_drift(void **state)
{
	const struct truth tr = { 3000000.5, 50e-6, 1000000000ll, 10000000 };

	(void)state;
	check_truth(&tr, 1000, 25000);
}

static void test_negative_drift(void **state)
{
	const struct truth tr = { 17.0, -120e-6, 42, 10000000 };

	(void)state;
	check_truth(&tr, 400, 25000);
}

/* Bounds that pin it down: offset between 20 and 30 at t = 0..1000. */
static void test_interval(void **state)
{
	struct align a;
	struct align_result r;

	(void)state;
	align_init(&a);
	assert_int_equal(align_add(&a, 0, 10, false), 0);
	assert_int_equal(align_add(&a, 1000, 20, false), 0);
	assert_int_equal(align_add(&a, 0, 30, true), 0);
	assert_int_equal(align_add(&a, 1000, 40, true), 0);
	assert_int_equal(align_fit(&a, &r), 0);
	assert_int_equal(r.pivot, 500);
	assert_true(r.offset >= 20 && r.offset <= 30);
	assert_true(r.uncertainty >= 5 && r.uncertainty < 6);
	align_free(&a);
}

/* Pairs close in time do not bound the drift: no drift is assumed. */
static void test_drift_open(void **state)
{
	struct align a;
	struct align_result r;

	(void)state;
	align_init(&a);
	assert_int_equal(align_add(&a, 0, 100, false), 0);
	assert_int_equal(align_add(&a, 10, 300, true), 0);
	assert_int_equal(align_fit(&a, &r), 0);
	assert_true(r.drift == 0);
	assert_true(r.drift_min <= -ALIGN_MAX_DRIFT * 0.999);
	assert_true(r.drift_max >= ALIGN_MAX_DRIFT * 0.999);
	assert_true(r.offset >= 100 && r.offset <= 300);
	align_free(&a);
}

/* A call received before it was sent: no line meets the bounds. */
static void test_contradiction(void **state)
{
	struct align a;
	struct align_result r;

	(void)state;
	align_init(&a);
	assert_int_equal(align_add(&a, 1000, 100, false), 0);
	assert_int_equal(align_add(&a, 1000, 50, true), 0);
	assert_int_equal(align_add(&a, 2000, 100, false), 0);
	assert_int_equal(align_add(&a, 2000, 150, true), 0);
	assert_int_equal(align_fit(&a, &r), -EDOM);
	align_free(&a);
}

/* A drift beyond ALIGN_MAX_DRIFT is no clock: a contradiction too. */
static void test_drift_too_large(void **state)
{
	struct align a;
	struct align_result r;

	(void)state;
	align_init(&a);
	assert_int_equal(align_add(&a, 0, 0, false), 0);
	assert_int_equal(align_add(&a, 0, 10, true), 0);
	assert_int_equal(align_add(&a, 1000000, 5000, false), 0);
	assert_int_equal(align_add(&a, 1000000, 5010, true), 0);
	assert_int_equal(align_fit(&a, &r), -EDOM);
	align_free(&a);
}

static void test_no_pairs(void **state)
{
	struct align a;
	struct align_result r;

	(void)state;
	align_init(&a);
	assert_int_equal(align_fit(&a, &r), -ENODATA);
	/* lower bounds alone bound nothing from above */
	assert_int_equal(align_add(&a, 0, 10, false), 0);
	assert_int_equal(align_fit(&a, &r), -ENODATA);
	align_free(&a);
}

UNIT_MAIN("align", NULL, NULL,
	  UNIT_TEST(test_offset), UNIT_TEST(test_drift),
	  UNIT_TEST(test_negative_drift), UNIT_TEST(test_interval),
	  UNIT_TEST(test_drift_open), UNIT_TEST(test_contradiction),
	  UNIT_TEST(test_drift_too_large), UNIT_TEST(test_no_pairs))
