// SPDX-License-Identifier: GPL-2.0
/* critpath: a thread's own segments; a blocked one replaced by its
 * waker's path, two wakers deep; an interrupt's wake-up and a sleep
 * never woken shown as blocked, and what the trace says nothing of; a
 * thread never switched; the segments kept, bounded. */
#include "sched_fixture.h"

#include "analysis/critpath.h"


/* A switch on behalf of tid from prev to next, or (hook 3) tid wakes
 * prev, named as next says (a string) */
static void sw(struct critpath *c, uint64_t ts, uint32_t tid, int64_t prev,
	       int64_t next, int64_t state)
{
	struct record rec = { .timestamp = ts };
	struct event ev = { .rec = &rec, .tid = tid, .group = 4, .hook = 1 };
	const struct event_meta *m = meta_get(&sched_meta, 4, 1);
	const int64_t v[] = { prev, next, state };
	unsigned int k;

	ev.meta = m;
	ev.nsys = ev.nvalues = m->sys.n;
	for (k = 0; k < m->sys.n; k++) {
		ev.v[k].f = &m->sys.f[k];
		ev.v[k].i = v[k];
	}
	assert_int_equal(critpath_event(c, &ev, NULL), 0);
}

/* A wake-up in interrupt context: the record's task is the one it hit */
static uint16_t wake_flags;

static void wake(struct critpath *c, uint64_t ts, uint32_t waker,
		 int64_t tid, const char *name)
{
	struct record rec = { .timestamp = ts, .flags = wake_flags };
	struct event ev = { .rec = &rec, .tid = waker, .group = 4, .hook = 3 };
	const struct event_meta *m = meta_get(&sched_meta, 4, 3);
	unsigned int k;

	ev.meta = m;
	ev.nsys = ev.nvalues = m->sys.n;
	for (k = 0; k < m->sys.n; k++)
		ev.v[k].f = &m->sys.f[k];
	ev.v[0].i = tid;
	ev.v[1].i = tid;
	ev.v[2].s = name;
	ev.v[2].slen = (uint32_t)strlen(name);
	assert_int_equal(critpath_event(c, &ev, NULL), 0);
}

static int write_path(void *c, int fd)
{
	return critpath_write(c, fd);
}

static void test_chain(void **state)
{
	struct critpath *c;
	char text[4096];

	(void)state;
	assert_int_equal(critpath_new(&c, 10), 0);
	/* A (10) runs 0-100 on CPU 0, then blocks; B (20) runs 100-150,
	 * blocks; C (30) runs 150-170 and wakes B; B runs 170-190 and
	 * wakes A; A runs 200-300, blocks, an interrupt wakes it at 400;
	 * it runs 410-500 and blocks to the end (600) */
	wake(c, 0, 0, 10, "a");
	sw(c, 0, 0, 0, 10, 0);
	wake(c, 1, 10, 20, "b");
	wake(c, 1, 10, 30, "c");
	sw(c, 100, 10, 10, 20, 1);
	sw(c, 150, 20, 20, 30, 1);
	wake(c, 170, 30, 20, "b");
	sw(c, 170, 30, 30, 20, 1);
	wake(c, 190, 20, 10, "a");
	sw(c, 200, 20, 20, 10, 1);
	sw(c, 300, 10, 10, 0, 1);
	wake(c, 400, 0, 10, "a");
	sw(c, 410, 0, 0, 10, 0);
	sw(c, 500, 10, 10, 0, 2);
	sw(c, 600, 0, 0, 30, 0);
	sched_written("path", text, sizeof(text), write_path, c);
	assert_string_equal(text,
		"# lket-b2a critical path of thread 10 (a), 0.000000000 to 0.000000600; times in microseconds; a waker's path is indented under what it ended\n"
		"start                          duration      tid comm             state\n"
		"0.000000000               0.100       10 a                running\n"
		"0.000000100               0.090       10 a                blocked on 20 (b), who woke it at 0.000000190\n"
		"0.000000100                 0.050       20 b                running\n"
		"0.000000150                 0.020       20 b                blocked on 30 (c), who woke it at 0.000000170\n"
		"0.000000150                   0.020       30 c                running\n"
		"0.000000170                 0.020       20 b                running\n"
		"0.000000190               0.010       10 a                runnable\n"
		"0.000000200               0.100       10 a                running\n"
		"0.000000300               0.100       10 a                blocked, woken by 0 (an interrupt or the idle task) at 0.000000400\n"
		"0.000000400               0.010       10 a                runnable\n"
		"0.000000410               0.090       10 a                running\n"
		"0.000000500               0.100       10 a                blocked, not woken in the trace\n"
		"\n"
		"on the path: running 0.380 (thread 10's 0.290); runnable 0.020 (thread 10's 0.020); blocked 0.200 (thread 10's 0.200)\n");
	critpath_free(c);
}

/* Woken while still on its CPU, then switched out asleep: runnable at
 * once (the waker on another CPU came first), never blocked. */
static void test_early(void **state)
{
	struct critpath *c;
	char text[2048];

	(void)state;
	assert_int_equal(critpath_new(&c, 10), 0);
	wake(c, 0, 0, 10, "a");
	sw(c, 0, 0, 0, 10, 0);
	wake(c, 90, 20, 10, "a");
	sw(c, 100, 10, 10, 0, 1);
	sw(c, 130, 0, 0, 10, 0);
	sw(c, 200, 10, 10, 0, 0);
	sched_written("path", text, sizeof(text), write_path, c);
	assert_non_null(strstr(text,
		"0.000000100               0.030       10 a                runnable\n"));
	assert_null(strstr(text, "blocked,"));
	assert_non_null(strstr(text, "blocked 0.000 (thread 10's 0.000)\n"));
	critpath_free(c);
}

/* A timer's interrupt that hits 20 wakes 10: 20's work is not 10's
 * path.  Then 30, first seen running on CPU 1 after 10 blocked, wakes
 * it: the time before 30's first segment is 10's, blocked. */
static void test_irq_unseen(void **state)
{
	struct critpath *c;
	char text[2048];

	(void)state;
	assert_int_equal(critpath_new(&c, 10), 0);
	sw(c, 0, 0, 0, 10, 0);
	sw(c, 0, 0, 0, 20, 0);
	sw(c, 100, 10, 10, 0, 1);
	wake_flags = LKET_RECORD_IRQ;
	wake(c, 200, 20, 10, "a");
	wake_flags = 0;
	sw(c, 210, 0, 0, 10, 0);
	sw(c, 300, 10, 10, 0, 1);
	sw(c, 350, 20, 20, 30, 1);
	wake(c, 400, 30, 10, "a");
	sw(c, 400, 0, 0, 10, 0);
	sw(c, 500, 10, 10, 0, 0);
	sched_written("path", text, sizeof(text), write_path, c);
	assert_non_null(strstr(text,
		"0.000000100               0.100       10 a                blocked, woken by an interrupt of 20 (?) at 0.000000200\n"
		"0.000000200               0.010       10 a                runnable\n"));
	assert_non_null(strstr(text,
		"0.000000300               0.050       10 a                blocked, woken by 30 (?) at 0.000000400, of whom the trace says nothing before 0.000000350\n"
		"0.000000350               0.050       10 a                blocked on 30 (?), who woke it at 0.000000400\n"
		"0.000000350                 0.050       30 ?                running\n"));
	assert_non_null(strstr(text,
		"on the path: running 0.340 (thread 10's 0.290); runnable 0.010 (thread 10's 0.010); blocked 0.150 (thread 10's 0.150)\n"));
	critpath_free(c);
}

/*
 * 20 and 30 take turns on CPU 1, each waking the other, 10 ns each: while
 * 10 is blocked, all of it is kept, and its path goes through them; once
 * it runs, what they do is no path's, and little of it is kept.
 */
static void test_kept(void **state)
{
	struct critpath *c;
	size_t size = 4 << 20;
	char *text = malloc(size);
	uint64_t t = 1000;
	int32_t cur = 20, other = 30;
	int i;

	(void)state;
	assert_int_equal(critpath_new(&c, 10), 0);
	sw(c, 0, 0, 0, 10, 0);
	sw(c, 0, 0, 0, cur, 0);
	sw(c, 1000, 10, 10, 0, 1);
	for (i = 0; i < 6000; i++, t += 10) {
		wake(c, t + 5, (uint32_t)cur, other, "x");
		sw(c, t + 10, (uint32_t)cur, cur, other, 1);
		cur ^= 20 ^ 30;
		other ^= 20 ^ 30;
	}
	assert_true(critpath_kept(c) >= 2 * 6000 - 2);
	wake(c, t + 5, (uint32_t)cur, 10, "a");
	sw(c, t + 5, 0, 0, 10, 0);
	for (i = 0; i < 20000; i++, t += 10) {
		wake(c, t + 5, (uint32_t)cur, other, "x");
		sw(c, t + 10, (uint32_t)cur, cur, other, 1);
		cur ^= 20 ^ 30;
		other ^= 20 ^ 30;
	}
	assert_true(critpath_kept(c) < 5000);
	sw(c, t, 10, 10, 0, 1);
	sched_written("path", text, size, write_path, c);
	/* all 60.005 us of 10's sleep is theirs, on the path: 45 running
	 * and 15 runnable, and nothing blocked */
	assert_non_null(strstr(text, "\non the path: running 246.000 (thread 10's 200.995); runnable 15.000 (thread 10's 0.000); blocked 0.000 (thread 10's 0.000)\n"));
	free(text);
	critpath_free(c);
}

static void test_unknown(void **state)
{
	struct critpath *c;
	char text[512];

	(void)state;
	assert_int_equal(critpath_new(&c, 99), 0);
	sw(c, 0, 0, 0, 10, 0);
	sched_written("path", text, sizeof(text), write_path, c);
	assert_string_equal(text, "# lket-b2a critical path of thread 99 (?): no context switch of it in the trace\n");
	critpath_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_early),
		cmocka_unit_test(test_irq_unseen),
		cmocka_unit_test(test_kept),
		cmocka_unit_test(test_unknown),
	};

	return cmocka_run_group_tests(tests, sched_setup, sched_teardown);
}
