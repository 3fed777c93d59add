// SPDX-License-Identifier: GPL-2.0
/*
 * pf_ftrace: kernel events in their CPU's bundle as Perfetto's ftrace
 * data source writes them: sched_switch with both tasks' names,
 * priorities as the kernel's and LKET's state bits as sched_switch
 * reports them (0x80, a dead task, read unsigned: no -128), raw_syscalls
 * by x86-64 number with a negative return, an idle CPU leaving idle at
 * its switch to a task, a thread's task record as task_newtask and
 * sched_process_fork, a block request's device and rwbs; a bundle goes
 * out when it is full.
 */
#include "pf_fixture.h"

static struct procmap procs;
static struct trace_info info = { .procs = &procs, .first_ts = 1000 };

static int setup(void **state)
{
	if (pf_setup(state) || procmap_init(&procs) ||
	    procmap_set(&procs, 10, 10, "ten", 3) ||
	    procmap_set(&procs, 20, 10, "twenty", 6))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	procmap_free(&procs);
	return pf_teardown(state);
}

/* The k-th kernel event of CPU cpu in the trace, its message num. */
static bool kernel_event(const struct pf_run *r, unsigned int cpu,
			 uint32_t num, unsigned int k, struct pbf *ev,
			 struct pbf *msg)
{
	struct pbf pkt, b;
	unsigned int i, j;

	for (i = 0; pf_packet_with(r, PF_TRACEPACKET_FTRACE_EVENTS, i, &pkt);
	     i++) {
		b = pbr_sub(&pkt, PF_TRACEPACKET_FTRACE_EVENTS, 0);
		if (pbr_u(&b, PF_FTRACEEVENTBUNDLE_CPU, ~0ull) != cpu)
			continue;
		for (j = 0; pbr_get(b.p, b.len, PF_FTRACEEVENTBUNDLE_EVENT, j,
				    ev); j++)
			if (pbr_get(ev->p, ev->len, num, 0, msg) && !k--)
				return true;
	}
	return false;
}

static void sw(struct pf_run *r, uint64_t ts, unsigned int cpu, int64_t prev,
	       int64_t next, int64_t state)
{
	const struct pf_fv v[] = { PF_I(prev), PF_I(next), PF_I(state) };
	struct record rec;
	struct event ev;

	pf_event_of(&ev, &rec, LKET_GROUP_TASK, LKET_HOOK_TASK_CTXSWITCH, ts,
		    (uint32_t)prev, cpu, v, 3);
	pf_run_event(r, &ev, procmap_thread(&procs, (uint32_t)prev, cpu));
}

static void test_sched_switch(void **state)
{
	struct pf_run r;
	struct pbf ev, m, s;

	(void)state;
	pf_run_begin(&r, "switch.pftrace", &info);
	sw(&r, 1000, 0, 10, 20, 1);
	/* INT8 0x80 decodes as -128: a dead task's bit, unsigned */
	sw(&r, 1100, 0, 20, 0, -128);
	sw(&r, 1200, 1, 0, 10, 0x42);
	pf_run_finish(&r);

	assert_true(kernel_event(&r, 0, PF_FTRACEEVENT_SCHED_SWITCH, 0, &ev,
				 &m));
	assert_int_equal(pbr_u(&ev, PF_FTRACEEVENT_TIMESTAMP, 0), 1000);
	assert_int_equal(pbr_u(&ev, PF_FTRACEEVENT_PID, 0), 10);
	s = pbr_sub(&m, PF_SCHEDSWITCHFTRACEEVENT_PREV_COMM, 0);
	assert_true(pbr_streq(&s, "ten"));
	s = pbr_sub(&m, PF_SCHEDSWITCHFTRACEEVENT_NEXT_COMM, 0);
	assert_true(pbr_streq(&s, "twenty"));
	assert_int_equal(pbr_u(&m, PF_SCHEDSWITCHFTRACEEVENT_PREV_PID, 0), 10);
	assert_int_equal(pbr_u(&m, PF_SCHEDSWITCHFTRACEEVENT_NEXT_PID, 0), 20);
	assert_int_equal(pbr_u(&m, PF_SCHEDSWITCHFTRACEEVENT_PREV_PRIO, 0),
			 120);
	assert_int_equal(pbr_u(&m, PF_SCHEDSWITCHFTRACEEVENT_PREV_STATE, 9), 1);
	assert_true(kernel_event(&r, 0, PF_FTRACEEVENT_SCHED_SWITCH, 1, &ev,
				 &m));
	assert_int_equal(pbr_u(&m, PF_SCHEDSWITCHFTRACEEVENT_PREV_STATE, 0),
			 0x10);
	s = pbr_sub(&m, PF_SCHEDSWITCHFTRACEEVENT_NEXT_COMM, 0);
	assert_true(pbr_streq(&s, "swapper/0"));
	/* parked and interruptible: the highest, as the kernel reports */
	assert_true(kernel_event(&r, 1, PF_FTRACEEVENT_SCHED_SWITCH, 0, &ev,
				 &m));
	assert_int_equal(pbr_u(&m, PF_SCHEDSWITCHFTRACEEVENT_PREV_STATE, 0),
			 0x40);
	free(r.data);
}

static void test_syscalls_idle(void **state)
{
	const struct pf_fv enter[] = { PF_STR("openat") };
	const struct pf_fv ret[] = { PF_STR("openat"), PF_I(-2) };
	const struct pf_fv idle[] = { PF_I(0) };
	struct pf_run r;
	struct record rec;
	struct event ev;
	struct pbf e, m;

	(void)state;
	pf_run_begin(&r, "sys.pftrace", &info);
	pf_event_of(&ev, &rec, LKET_GROUP_SYSCALL, LKET_HOOK_SYSCALL_ENTRY,
		    1000, 10, 0, enter, 1);
	pf_run_event(&r, &ev, NULL);
	pf_event_of(&ev, &rec, LKET_GROUP_SYSCALL, LKET_HOOK_SYSCALL_RETURN,
		    1500, 10, 0, ret, 2);
	pf_run_event(&r, &ev, NULL);
	pf_event_of(&ev, &rec, LKET_GROUP_TASK, LKET_HOOK_TASK_CPUIDLE,
		    2000, 0, 0, idle, 1);
	pf_run_event(&r, &ev, NULL);
	/* the idle task to itself: still idle; then a task */
	sw(&r, 2500, 0, 0, 0, 0);
	sw(&r, 3000, 0, 0, 10, 0);
	pf_run_finish(&r);

	assert_true(kernel_event(&r, 0, PF_FTRACEEVENT_SYS_ENTER, 0, &e, &m));
	assert_int_equal(pbr_u(&m, PF_SYSENTERFTRACEEVENT_ID, 0), 257);
	assert_int_equal(pbr_u(&e, PF_FTRACEEVENT_PID, 0), 10);
	assert_true(kernel_event(&r, 0, PF_FTRACEEVENT_SYS_EXIT, 0, &e, &m));
	assert_int_equal(pbr_u(&m, PF_SYSEXITFTRACEEVENT_ID, 0), 257);
	assert_int_equal((int64_t)pbr_u(&m, PF_SYSEXITFTRACEEVENT_RET, 0), -2);
	assert_int_equal(pbr_u(&e, PF_FTRACEEVENT_TIMESTAMP, 0), 1500);
	assert_true(kernel_event(&r, 0, PF_FTRACEEVENT_CPU_IDLE, 0, &e, &m));
	assert_int_equal(pbr_u(&m, PF_CPUIDLEFTRACEEVENT_STATE, 9), 0);
	assert_int_equal(pbr_u(&e, PF_FTRACEEVENT_TIMESTAMP, 0), 2000);
	assert_true(kernel_event(&r, 0, PF_FTRACEEVENT_CPU_IDLE, 1, &e, &m));
	assert_int_equal(pbr_u(&m, PF_CPUIDLEFTRACEEVENT_STATE, 0),
			 4294967295u);
	assert_int_equal(pbr_u(&e, PF_FTRACEEVENT_TIMESTAMP, 0), 3000);
	assert_false(kernel_event(&r, 0, PF_FTRACEEVENT_CPU_IDLE, 2, &e, &m));
	free(r.data);
}

static void test_tasks_block(void **state)
{
	/* tid 30, a thread of 10, forked by 10 */
	const struct pf_fv task[] = { PF_I(30), PF_I(10), PF_I(1),
				      PF_STR("ten") };
	const struct pf_fv exec[] = { PF_I(10), PF_I(10),
				      PF_STR("/usr/bin/dd") };
	/* sda2 (8, 2), a synchronous write */
	const struct pf_fv rq[] = { PF_STR("mq-deadline"), PF_I(8), PF_I(2),
				    PF_I(0xffff888000001000ll),
				    PF_I(1 | 1 << 11) };
	struct pf_run r;
	struct record rec;
	struct event ev;
	struct pbf e, m, s;

	(void)state;
	pf_run_begin(&r, "tasks.pftrace", &info);
	pf_event_of(&ev, &rec, LKET_GROUP_LKET, LKET_HOOK_TASK_NEW, 1000, 10,
		    1, task, 4);
	assert_int_equal(r.o->ops->task(r.o, &ev,
					procmap_thread(&procs, 10, 1)), 0);
	pf_event_of(&ev, &rec, LKET_GROUP_LKET, LKET_HOOK_TASK_EXEC, 1100, 10,
		    1, exec, 3);
	assert_int_equal(r.o->ops->task(r.o, &ev, NULL), 0);
	pf_event_of(&ev, &rec, LKET_GROUP_IOSCHED,
		    LKET_HOOK_IOSCHED_ELV_ADD_REQUEST, 1200, 10, 1, rq, 5);
	pf_run_event(&r, &ev, procmap_thread(&procs, 10, 1));
	pf_run_finish(&r);

	assert_true(kernel_event(&r, 1, PF_FTRACEEVENT_TASK_NEWTASK, 0, &e,
				 &m));
	assert_int_equal(pbr_u(&m, PF_TASKNEWTASKFTRACEEVENT_PID, 0), 30);
	assert_int_equal(pbr_u(&m, PF_TASKNEWTASKFTRACEEVENT_CLONE_FLAGS, 0),
			 0x10000);
	assert_int_equal(pbr_u(&e, PF_FTRACEEVENT_PID, 0), 10);
	assert_true(kernel_event(&r, 1, PF_FTRACEEVENT_SCHED_PROCESS_FORK, 0,
				 &e, &m));
	assert_int_equal(pbr_u(&m, PF_SCHEDPROCESSFORKFTRACEEVENT_CHILD_PID,
			       0), 30);
	assert_int_equal(pbr_u(&m, PF_SCHEDPROCESSFORKFTRACEEVENT_PARENT_PID,
			       0), 10);
	/* an exec renames its task after the file */
	assert_true(kernel_event(&r, 1, PF_FTRACEEVENT_TASK_RENAME, 0, &e,
				 &m));
	s = pbr_sub(&m, PF_TASKRENAMEFTRACEEVENT_NEWCOMM, 0);
	assert_true(pbr_streq(&s, "dd"));
	assert_true(kernel_event(&r, 1, PF_FTRACEEVENT_SCHED_PROCESS_EXEC, 0,
				 &e, &m));
	s = pbr_sub(&m, PF_SCHEDPROCESSEXECFTRACEEVENT_FILENAME, 0);
	assert_true(pbr_streq(&s, "/usr/bin/dd"));
	assert_true(kernel_event(&r, 1, PF_FTRACEEVENT_BLOCK_RQ_INSERT, 0, &e,
				 &m));
	assert_int_equal(pbr_u(&m, PF_BLOCKRQINSERTFTRACEEVENT_DEV, 0),
			 8 << 20 | 2);
	s = pbr_sub(&m, PF_BLOCKRQINSERTFTRACEEVENT_RWBS, 0);
	assert_true(pbr_streq(&s, "WS"));
	s = pbr_sub(&m, PF_BLOCKRQINSERTFTRACEEVENT_COMM, 0);
	assert_true(pbr_streq(&s, "ten"));
	free(r.data);
}

/* Bundles go out as they fill: every event there, in order. */
static void test_bundles(void **state)
{
	const struct pf_fv enter[] = { PF_STR("getppid") };
	struct pf_run r;
	struct record rec;
	struct event ev;
	struct pbf pkt, e, m;
	unsigned int i, bundles = 0;

	(void)state;
	pf_run_begin(&r, "bundles.pftrace", &info);
	for (i = 0; i < 5000; i++) {
		pf_event_of(&ev, &rec, LKET_GROUP_SYSCALL,
			    LKET_HOOK_SYSCALL_ENTRY, 1000 + i, 10, 0, enter, 1);
		pf_run_event(&r, &ev, NULL);
	}
	pf_run_finish(&r);
	while (pf_packet_with(&r, PF_TRACEPACKET_FTRACE_EVENTS, bundles, &pkt))
		bundles++;
	assert_true(bundles >= 2);
	for (i = 0; i < 5000; i += 499) {
		assert_true(kernel_event(&r, 0, PF_FTRACEEVENT_SYS_ENTER, i, &e,
					 &m));
		assert_int_equal(pbr_u(&e, PF_FTRACEEVENT_TIMESTAMP, 0),
				 1000 + i);
	}
	free(r.data);
}

UNIT_MAIN("pf_ftrace", setup, teardown,
	  UNIT_TEST(test_sched_switch), UNIT_TEST(test_syscalls_idle),
	  UNIT_TEST(test_tasks_block), UNIT_TEST(test_bundles))
