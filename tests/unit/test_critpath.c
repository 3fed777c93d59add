// SPDX-License-Identifier: GPL-2.0
/* critpath: a thread's own segments; a blocked one replaced by its
 * waker's path, two wakers deep; an interrupt's wake-up and a sleep
 * never woken shown as blocked; a thread never switched. */
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

static void wake(struct critpath *c, uint64_t ts, uint32_t waker,
		 int64_t tid, const char *name)
{
	struct record rec = { .timestamp = ts };
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
		cmocka_unit_test(test_unknown),
	};

	return cmocka_run_group_tests(tests, sched_setup, sched_teardown);
}
