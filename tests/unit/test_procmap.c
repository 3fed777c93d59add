// SPDX-License-Identifier: GPL-2.0
/* procmap: thread -> process ID and name. */
#include "unit.h"

#include "analysis/procmap.h"

static int setup(void **state)
{
	struct procmap *pm = malloc(sizeof(*pm));

	if (!pm || procmap_init(pm)) {
		free(pm);
		return -1;
	}
	*state = pm;
	return 0;
}

static int teardown(void **state)
{
	procmap_free(*state);
	free(*state);
	return 0;
}

static void expect_proc(const struct procmap *pm, uint32_t tid, int32_t pid,
			const char *comm)
{
	const struct proc *p = procmap_get(pm, tid);

	assert_non_null(p);
	assert_int_equal(p->tid, tid);
	assert_int_equal(p->pid, pid);
	assert_int_equal(p->comm_len, strlen(comm));
	assert_memory_equal(p->comm, comm, strlen(comm));
}

static void test_set_get(void **state)
{
	struct procmap *pm = *state;

	assert_null(procmap_get(pm, 42));
	assert_int_equal(procmap_set(pm, 42, 40, "bash", 4), 0);
	expect_proc(pm, 42, 40, "bash");
	assert_int_equal(procmap_set(pm, 0xffffffffu, 1, "max", 3), 0);
	expect_proc(pm, 0xffffffffu, 1, "max");
	assert_int_equal(pm->used, 2);
	assert_null(procmap_get(pm, 43));
	/* a new name replaces the old one, whatever their lengths */
	assert_int_equal(procmap_set(pm, 42, 40, "sh", 2), 0);
	expect_proc(pm, 42, 40, "sh");
	assert_int_equal(pm->used, 2);
}

static void test_growth(void **state)
{
	struct procmap *pm = *state;
	char comm[PROC_COMM_LEN + 1];
	uint32_t tid;

	for (tid = 1; tid <= 5000; tid++) {
		snprintf(comm, sizeof(comm), "t%u", tid);
		assert_int_equal(procmap_set(pm, tid * 7, (int32_t)tid, comm,
					     strlen(comm)), 0);
	}
	assert_int_equal(pm->used, 5000);
	assert_true(pm->mask + 1 > 2 * 5000);
	for (tid = 1; tid <= 5000; tid++) {
		snprintf(comm, sizeof(comm), "t%u", tid);
		expect_proc(pm, tid * 7, (int32_t)tid, comm);
		assert_null(procmap_get(pm, tid * 7 + 1));
	}
}

static void test_partial(void **state)
{
	struct procmap *pm = *state;

	/* pid first (fork), name later (execve) */
	assert_int_equal(procmap_set(pm, 100, 99, NULL, 0), 0);
	expect_proc(pm, 100, 99, "");
	assert_int_equal(procmap_set(pm, 100, -1, "cat", 3), 0);
	expect_proc(pm, 100, 99, "cat");
	assert_int_equal(procmap_set(pm, 100, 98, NULL, 0), 0);
	expect_proc(pm, 100, 98, "cat");
	/* name first, pid unknown */
	assert_int_equal(procmap_set(pm, 200, -1, "kworker/0:1", 11), 0);
	expect_proc(pm, 200, -1, "kworker/0:1");
	assert_int_equal(pm->used, 2);
}

static void test_long_comm(void **state)
{
	struct procmap *pm = *state;
	static const char name[] = "a-very-long-process-name";
	const struct proc *p;

	assert_int_equal(procmap_set(pm, 7, 7, name, strlen(name)), 0);
	p = procmap_get(pm, 7);
	assert_int_equal(p->comm_len, PROC_COMM_LEN);
	assert_memory_equal(p->comm, name, PROC_COMM_LEN);
}

/*
 * A fork: the child takes its parent's name, read from the map itself,
 * while the map grows (a trace of thousands of forks, tests/guest/stress.sh).
 */
static void test_name_from_map_while_growing(void **state)
{
	struct procmap *pm = *state;
	const struct proc *parent;
	uint32_t tid;

	assert_int_equal(procmap_set(pm, 1, 1, "stress-ng-fork", 14), 0);
	for (tid = 2; tid <= 5000; tid++) {
		parent = procmap_get(pm, 1);
		assert_non_null(parent);
		assert_int_equal(procmap_set(pm, tid, (int32_t)tid,
					     parent->comm, parent->comm_len), 0);
	}
	assert_true(pm->mask + 1 > 2 * 5000);
	for (tid = 1; tid <= 5000; tid++)
		expect_proc(pm, tid, (int32_t)tid, "stress-ng-fork");
}

static void test_tid0(void **state)
{
	struct procmap *pm = *state;

	assert_int_equal(procmap_set(pm, 0, 0, "swapper/0", 9), 0);
	assert_null(procmap_get(pm, 0));
	assert_int_equal(pm->used, 0);
}

/* Thread 0 as a CPU's event sees it: that CPU's idle task, swapper/N. */
static void test_thread_idle(void **state)
{
	struct procmap *pm = *state;
	const struct proc *p0, *p7;
	uint32_t tid;

	p0 = procmap_thread(pm, 0, 0);
	p7 = procmap_thread(pm, 0, 7);
	assert_int_equal(p0->pid, 0);
	assert_int_equal(p0->comm_len, 9);
	assert_memory_equal(p0->comm, "swapper/0", 9);
	assert_int_equal(p7->comm_len, 9);
	assert_memory_equal(p7->comm, "swapper/7", 9);
	assert_memory_equal(procmap_thread(pm, 0, 255)->comm, "swapper/255",
			    11);
	/* two CPUs' idle tasks are two names to the outputs' caches */
	assert_int_not_equal(p0->gen, p7->gen);
	assert_null(procmap_thread(pm, 42, 0));
	assert_int_equal(procmap_set(pm, 42, 42, "ls", 2), 0);
	assert_ptr_equal(procmap_thread(pm, 42, 3), procmap_get(pm, 42));
	/* and so they stay when the table grows */
	for (tid = 1000; tid < 3000; tid++)
		assert_int_equal(procmap_set(pm, tid, 1, "x", 1), 0);
	assert_memory_equal(procmap_thread(pm, 0, 7)->comm, "swapper/7", 9);
	assert_true(pm->gen >= 2001);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_set_get, setup, teardown),
		cmocka_unit_test_setup_teardown(test_growth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_partial, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_comm, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_name_from_map_while_growing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_tid0, setup, teardown),
		cmocka_unit_test_setup_teardown(test_thread_idle, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("procmap", tests, NULL, NULL);
}
