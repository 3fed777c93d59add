// SPDX-License-Identifier: GPL-2.0
/* report: pairs per thread, lifecycles per request, what does not pair up,
 * percentiles, histograms, and the filter's say. */
#include "unit.h"

#include "analysis/report.h"

static struct meta meta;

static int setup(void **state)
{
	(void)state;
	if (meta_init(&meta) ||
	    meta_register(&meta, 1, 1, false, "STRING", "syscall_name") ||
	    meta_name(&meta, 1, 1, "syscall.entry") ||
	    meta_register(&meta, 1, 2, false, "STRING", "syscall_name") ||
	    meta_name(&meta, 1, 2, "syscall.return") ||
	    meta_register(&meta, 9, 1, false, "INT64", "ctx") ||
	    meta_name(&meta, 9, 1, "aio.io_setup.entry") ||
	    meta_register(&meta, 9, 2, false, "INT64", "return") ||
	    meta_name(&meta, 9, 2, "aio.io_setup.return") ||
	    meta_register(&meta, 3, 1, false, "STRING:INT64",
			  "elevator_name:request_addr") ||
	    meta_name(&meta, 3, 1, "ioscheduler.elv_add_request") ||
	    meta_register(&meta, 3, 4, false, "INT64", "request_addr") ||
	    meta_name(&meta, 3, 4, "ioscheduler.elv_next_request.return") ||
	    meta_register(&meta, 3, 5, false, "STRING:INT64",
			  "elevator_name:request_addr") ||
	    meta_name(&meta, 3, 5, "ioscheduler.elv_completed_request"))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	meta_free(&meta);
	return 0;
}

static const struct proc bash = { .tid = 100, .pid = 42, .comm = "bash",
				  .comm_len = 4 };
static const struct proc cat = { .tid = 200, .pid = 7, .comm = "cat",
				 .comm_len = 3 };

/* Hand an event to r: a string value s, or an integer i. */
static void feed(struct report *r, unsigned int group, unsigned int hook,
		 const struct proc *p, uint64_t ts, const char *s, int64_t i,
		 bool selected)
{
	struct record rec = { .timestamp = ts };
	struct event ev = { .rec = &rec, .tid = p->tid, .group = group,
			    .hook = hook };
	const struct event_meta *m = meta_get(&meta, group, hook);
	unsigned int k;

	ev.meta = m;
	ev.nsys = ev.nvalues = m->sys.n;
	for (k = 0; k < m->sys.n; k++) {
		ev.v[k].f = &m->sys.f[k];
		if (m->sys.f[k].type == LKET_STRING) {
			ev.v[k].s = s;
			ev.v[k].slen = (uint32_t)strlen(s);
		} else {
			ev.v[k].i = i;
		}
	}
	const struct selection sel = { .passed = selected, .record = selected };

	assert_int_equal(report_event(r, &ev, p, &sel), 0);
}

static const struct latency *find(const struct report *r, const char *what,
				  int32_t pid)
{
	size_t i;

	for (i = 0; i < report_count(r); i++)
		if (!strcmp(report_get(r, i)->what, what) &&
		    (report_get(r, i)->scope == LATENCY_PROCESS) == (pid != -1) &&
		    report_get(r, i)->scope != LATENCY_THREAD &&
		    (pid == -1 || report_get(r, i)->pid == pid))
			return report_get(r, i);
	fail_msg("no %s for %d", what, pid);
	return NULL;
}

static void test_pairs(void **state)
{
	const struct latency *l;
	struct report *r;
	uint64_t t = 1000;
	int i;

	(void)state;
	assert_int_equal(report_new(&r), 0);
	/* 1..100 us of read by bash, 3 us of read by cat */
	for (i = 1; i <= 100; i++, t += 200000) {
		feed(r, 1, 1, &bash, t, "read", 0, true);
		feed(r, 1, 2, &bash, t + (uint64_t)i * 1000, "read", 0, true);
	}
	feed(r, 1, 1, &cat, t, "read", 0, true);
	/* bash's entry and return of another call interleave with cat's */
	feed(r, 1, 1, &bash, t + 10, "write", 0, true);
	feed(r, 1, 2, &cat, t + 3000, "read", 0, true);
	assert_int_equal(report_finish(r), 0);
	l = find(r, "syscall(read)", -1);
	assert_int_equal(l->count, 101);
	assert_int_equal(l->min, 1000);
	assert_int_equal(l->max, 100000);
	assert_int_equal(l->total, 5050000 + 3000);
	assert_int_equal(l->p50, 50000);
	assert_int_equal(l->p90, 90000);
	assert_int_equal(l->p99, 99000);
	assert_int_equal(l->mean, (5050000 + 3000) / 101);
	assert_int_equal(l->hist[9], 1);	/* 1000 in [512, 1024) */
	assert_int_equal(l->hist[16], 35);	/* 66..100 us */
	l = find(r, "syscall(read)", 7);
	assert_int_equal(l->count, 1);
	assert_string_equal(l->comm, "cat");
	l = find(r, "syscall(write)", -1);
	assert_int_equal(l->count, 0);
	assert_int_equal(l->unmatched_begin, 1);	/* never returned */
	report_free(r);
}

static void test_unmatched(void **state)
{
	const struct latency *l;
	struct report *r;

	(void)state;
	assert_int_equal(report_new(&r), 0);
	feed(r, 9, 2, &bash, 100, NULL, 0, true);	/* return, no entry */
	feed(r, 9, 1, &bash, 200, NULL, 0, true);
	feed(r, 9, 1, &bash, 300, NULL, 0, true);	/* enters again */
	feed(r, 9, 2, &bash, 700, NULL, 0, true);	/* pairs with 300 */
	feed(r, 9, 2, &cat, 800, NULL, 0, false);	/* filtered out */
	assert_int_equal(report_finish(r), 0);
	l = find(r, "aio.io_setup", -1);
	assert_int_equal(l->count, 1);
	assert_int_equal(l->min, 400);
	assert_int_equal(l->unmatched_begin, 1);
	assert_int_equal(l->unmatched_end, 1);
	report_free(r);
}

/* A pair counts when either end passed the filter, never when neither. */
static void test_selected(void **state)
{
	struct report *r;

	(void)state;
	assert_int_equal(report_new(&r), 0);
	feed(r, 1, 1, &bash, 100, "a", 0, false);
	feed(r, 1, 2, &bash, 200, "a", 0, true);
	feed(r, 1, 1, &bash, 300, "b", 0, true);
	feed(r, 1, 2, &bash, 500, "b", 0, false);
	feed(r, 1, 1, &bash, 600, "c", 0, false);
	feed(r, 1, 2, &bash, 900, "c", 0, false);
	assert_int_equal(report_finish(r), 0);
	assert_int_equal(find(r, "syscall(a)", -1)->count, 1);
	assert_int_equal(find(r, "syscall(b)", -1)->total, 200);
	assert_int_equal(report_count(r), 4);	/* a, b; per process a, b */
	report_free(r);
}

static void test_requests(void **state)
{
	const struct latency *l;
	struct report *r;
	int64_t a = (int64_t)0xffff888000100000ull;

	(void)state;
	assert_int_equal(report_new(&r), 0);
	feed(r, 3, 1, &bash, 1000, "mq", a, true);
	feed(r, 3, 1, &cat, 1500, "mq", a + 8, true);	/* never completes */
	feed(r, 3, 4, &cat, 3000, "", a, true);
	feed(r, 3, 4, &cat, 3500, "", a, true);		/* requeued: first counts */
	feed(r, 3, 5, &cat, 10000, "mq", a, true);
	feed(r, 3, 5, &cat, 11000, "mq", a + 16, true);	/* no beginning */
	assert_int_equal(report_finish(r), 0);
	l = find(r, "ioscheduler add->dispatch", -1);
	assert_int_equal(l->count, 1);
	assert_int_equal(l->total, 2000);
	assert_int_equal(find(r, "ioscheduler dispatch->complete", -1)->total, 7000);
	l = find(r, "ioscheduler add->complete", -1);
	assert_int_equal(l->total, 9000);
	assert_int_equal(l->unmatched_begin, 1);
	assert_int_equal(l->unmatched_end, 1);
	/* the request belongs to the process that added it */
	assert_int_equal(find(r, "ioscheduler add->complete", 42)->count, 1);
	report_free(r);
}

static void test_text(void **state)
{
	char path[PATH_MAX_UNIT], text[8192];
	struct report *r;
	ssize_t n;
	int fd;

	(void)state;
	assert_int_equal(report_new(&r), 0);
	feed(r, 1, 1, &bash, 1000, "read", 0, true);
	feed(r, 1, 2, &bash, 2500, "read", 0, true);
	assert_int_equal(report_finish(r), 0);
	snprintf(path, sizeof(path), "%s/report", unit_dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(report_write(r, fd), 0);
	n = pread(fd, text, sizeof(text) - 1, 0);
	assert_true(n > 0);
	text[n] = '\0';
	assert_non_null(strstr(text, "syscall(read)                                     1              1.500              1.500"));
	assert_non_null(strstr(text, "                    1024 ns            1 ########################################\n"));
	assert_non_null(strstr(text, "syscall(read)                                  42 bash                      1"));
	close(fd);
	report_free(r);
}

/* Nothing paired: an empty report, and no sort of nothing (UBSan) */
static void test_nothing(void **state)
{
	struct report *r;

	(void)state;
	assert_int_equal(report_new(&r), 0);
	feed(r, 1, 2, &bash, 2500, "read", 0, true);
	assert_int_equal(report_finish(r), 0);
	/* the return without entry is counted, no latency */
	assert_int_equal(report_count(r), 1);
	assert_int_equal(report_get(r, 0)->count, 0);
	assert_int_equal(report_get(r, 0)->unmatched_end, 1);
	report_free(r);
	assert_int_equal(report_new(&r), 0);
	assert_int_equal(report_finish(r), 0);
	assert_int_equal(report_count(r), 0);
	report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_unmatched),
		cmocka_unit_test(test_selected),
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_nothing),
	};

	if (unit_dir_setup(NULL))
		return 1;
	return cmocka_run_group_tests_name("report", tests, setup, teardown) |
	       unit_dir_teardown(NULL);
}
