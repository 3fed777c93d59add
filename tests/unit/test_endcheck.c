// SPDX-License-Identifier: GPL-2.0
/* endcheck: the files against the counts at the end of the trace. */
#include "unit.h"

#include "analysis/endcheck.h"

#define MAX_REPORTS	8

struct reports {
	unsigned int n;
	struct endcheck_report r[MAX_REPORTS];
};

static void on_report(void *ctx, const struct endcheck_report *r)
{
	struct reports *reports = ctx;

	assert_true(reports->n < MAX_REPORTS);
	reports->r[reports->n++] = *r;
}

struct fixture {
	struct endcheck e;
	struct reports reports;
	struct endcheck_findings f;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* n records of cpu, 100 ns apart from ts */
static void found(struct endcheck *e, unsigned int cpu, unsigned int n,
		  uint64_t ts)
{
	while (n--) {
		endcheck_found(e, cpu, ts);
		ts += 100;
	}
}

static void finish(struct fixture *f, bool expected)
{
	endcheck_finish(&f->e, expected, on_report, &f->reports, &f->f);
}

static void test_all_there(void **state)
{
	struct fixture *f = *state;

	endcheck_file(&f->e, 0);
	endcheck_file(&f->e, 1);
	found(&f->e, 0, 10, 1000);
	found(&f->e, 1, 4, 1000);
	endcheck_packet(&f->e, 1, 2);
	endcheck_cpu_end(&f->e, 0, 10, 0);
	endcheck_cpu_end(&f->e, 1, 4, 2);
	endcheck_trace_end(&f->e, 0, 0);
	finish(f, true);
	assert_int_equal(f->reports.n, 0);
	assert_int_equal(f->f.missing, 0);
	assert_int_equal(f->f.dropped, 0);
	assert_int_equal(f->f.skipped, 0);
}

static void test_tail_lost(void **state)
{
	struct fixture *f = *state;
	const struct endcheck_report *r = &f->reports.r[0];

	endcheck_file(&f->e, 0);
	endcheck_file(&f->e, 1);
	found(&f->e, 0, 10, 1000);
	found(&f->e, 1, 3, 5000);
	endcheck_cpu_end(&f->e, 0, 10, 0);
	endcheck_cpu_end(&f->e, 1, 7, 0);
	endcheck_trace_end(&f->e, 0, 0);
	finish(f, true);
	assert_int_equal(f->reports.n, 1);
	assert_int_equal(r->what, ENDCHECK_MISSING);
	assert_int_equal(r->cpu, 1);
	assert_int_equal(r->n, 4);
	assert_int_equal(r->written, 7);
	assert_int_equal(r->last_ts, 5200);
	assert_false(r->gaps);
	assert_int_equal(f->f.missing, 4);
}

/* frames lost in the middle: the count cannot say where */
static void test_gap_and_tail(void **state)
{
	struct fixture *f = *state;

	endcheck_file(&f->e, 0);
	found(&f->e, 0, 5, 1000);
	endcheck_gap(&f->e, 0);
	endcheck_cpu_end(&f->e, 0, 8, 0);
	endcheck_trace_end(&f->e, 0, 0);
	finish(f, true);
	assert_int_equal(f->reports.n, 1);
	assert_int_equal(f->reports.r[0].what, ENDCHECK_MISSING);
	assert_true(f->reports.r[0].gaps);
	assert_int_equal(f->f.missing, 3);
}

/* drops after the CPU's last packet record: no packet says them */
static void test_dropped_after_last_packet(void **state)
{
	struct fixture *f = *state;

	endcheck_file(&f->e, 0);
	found(&f->e, 0, 5, 1000);
	endcheck_packet(&f->e, 0, 3);
	endcheck_cpu_end(&f->e, 0, 5, 10);
	endcheck_trace_end(&f->e, 0, 0);
	finish(f, true);
	assert_int_equal(f->reports.n, 1);
	assert_int_equal(f->reports.r[0].what, ENDCHECK_DROPPED);
	assert_int_equal(f->reports.r[0].n, 7);
	assert_int_equal(f->reports.r[0].last_ts, 1400);
	assert_int_equal(f->f.dropped, 7);
	assert_int_equal(f->f.missing, 0);
}

static void test_surplus_and_no_cpu_end(void **state)
{
	struct fixture *f = *state;

	endcheck_file(&f->e, 0);
	endcheck_file(&f->e, 2);
	found(&f->e, 0, 6, 1000);
	found(&f->e, 2, 1, 1000);
	endcheck_cpu_end(&f->e, 0, 5, 0);
	endcheck_trace_end(&f->e, 0, 0);
	finish(f, true);
	assert_int_equal(f->reports.n, 2);
	assert_int_equal(f->reports.r[0].what, ENDCHECK_SURPLUS);
	assert_int_equal(f->reports.r[0].n, 1);
	assert_int_equal(f->reports.r[1].what, ENDCHECK_NO_CPU_END);
	assert_int_equal(f->reports.r[1].cpu, 2);
	assert_int_equal(f->f.missing, 0);
}

/* a CPU whose file was not given is left out, not lost */
static void test_file_not_given(void **state)
{
	struct fixture *f = *state;

	endcheck_file(&f->e, 0);
	found(&f->e, 0, 2, 1000);
	endcheck_cpu_end(&f->e, 0, 2, 0);
	endcheck_cpu_end(&f->e, 1, 9, 0);
	endcheck_trace_end(&f->e, 0, 0);
	finish(f, true);
	assert_int_equal(f->reports.n, 1);
	assert_int_equal(f->reports.r[0].what, ENDCHECK_NO_FILE);
	assert_int_equal(f->reports.r[0].n, 9);
	assert_int_equal(f->f.missing, 0);
}

/* an empty file of a CPU is given: its records are lost */
static void test_empty_file(void **state)
{
	struct fixture *f = *state;

	endcheck_file(&f->e, 1);
	endcheck_cpu_end(&f->e, 1, 9, 0);
	endcheck_trace_end(&f->e, 0, 0);
	finish(f, true);
	assert_int_equal(f->reports.n, 1);
	assert_int_equal(f->reports.r[0].what, ENDCHECK_MISSING);
	assert_int_equal(f->f.missing, 9);
}

static void test_skipped_and_errors(void **state)
{
	struct fixture *f = *state;

	endcheck_trace_end(&f->e, 14, 2);
	finish(f, true);
	assert_int_equal(f->reports.n, 2);
	assert_int_equal(f->reports.r[0].what, ENDCHECK_SKIPPED);
	assert_int_equal(f->reports.r[0].n, 14);
	assert_int_equal(f->reports.r[1].what, ENDCHECK_ERRORS);
	assert_int_equal(f->reports.r[1].n, 2);
	assert_int_equal(f->f.skipped, 14);
}

static void test_no_end(void **state)
{
	struct fixture *f = *state;

	found(&f->e, 0, 2, 1000);
	finish(f, true);
	assert_int_equal(f->reports.n, 1);
	assert_int_equal(f->reports.r[0].what, ENDCHECK_NO_END);
}

/* formats 1 and 2 have no end: nothing to say */
static void test_no_end_not_expected(void **state)
{
	struct fixture *f = *state;

	found(&f->e, 0, 2, 1000);
	finish(f, false);
	assert_int_equal(f->reports.n, 0);
}

/* the CPU ends came, the trace's end did not: it was cut in between */
static void test_cut_after_cpu_ends(void **state)
{
	struct fixture *f = *state;

	endcheck_file(&f->e, 0);
	found(&f->e, 0, 2, 1000);
	endcheck_cpu_end(&f->e, 0, 2, 0);
	finish(f, false);
	assert_int_equal(f->reports.n, 1);
	assert_int_equal(f->reports.r[0].what, ENDCHECK_NO_END);
}

static void test_bad_cpu_ignored(void **state)
{
	struct fixture *f = *state;

	endcheck_cpu_end(&f->e, -1, 5, 0);
	endcheck_cpu_end(&f->e, ENDCHECK_CPUS, 5, 0);
	endcheck_trace_end(&f->e, 0, 0);
	finish(f, true);
	assert_int_equal(f->reports.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_all_there, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tail_lost, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gap_and_tail, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dropped_after_last_packet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_surplus_and_no_cpu_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_not_given, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_skipped_and_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_end_not_expected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cut_after_cpu_ends, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_cpu_ignored, setup, teardown),
	};

	return cmocka_run_group_tests_name("endcheck", tests, NULL, NULL);
}
