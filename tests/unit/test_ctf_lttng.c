// SPDX-License-Identifier: GPL-2.0
/* ctf_lttng: which events map to LTTng's, and the values of LTTng's fields. */
#include "unit.h"

#include "output/ctf/ctf_lttng.h"

static const struct field f_prev = { .type = LKET_INT32, .name = "prev_pid" };
static const struct field f_next = { .type = LKET_INT32, .name = "next_pid" };
static const struct field f_state = { .type = LKET_INT8, .name = "prev_state" };
static const struct field f_major = { .type = LKET_INT8, .name = "disk_major" };
static const struct field f_minor = { .type = LKET_INT8, .name = "disk_minor" };
static const struct field f_flags = { .type = LKET_INT64, .name = "request_flags" };

static const struct lttng_field *field_named(const struct lttng_event *l,
					     const char *name)
{
	unsigned int i;

	for (i = 0; i < l->nfields; i++)
		if (!strcmp(l->fields[i].name, name))
			return &l->fields[i];
	fail_msg("no field %s in %s", name, l->name);
	return NULL;
}

static void test_which(void **state)
{
	(void)state;
	assert_string_equal(lttng_event_of(LKET_EV_TASK_CTXSWITCH)->name,
			    "sched_switch");
	assert_true(lttng_event_of(LKET_EV_SYSCALL_ENTRY)->per_syscall);
	assert_string_equal(lttng_event_of(LKET_EV_SYSCALL_RETURN)->name,
			    "syscall_exit_");
	assert_string_equal(lttng_event_of(LKET_EV_TASK_NEW)->name,
			    "sched_process_fork");
	/* NFS and the rest keep LKET's names */
	assert_null(lttng_event_of(LKET_EV_NFS_FOP_WRITE_ENTRY));
	assert_null(lttng_event_of(LKET_EV_TASK_RENAME));
	assert_null(lttng_event_of(-1));
	assert_true(lttng_shadows(lttng_event_of(LKET_EV_TASK_CTXSWITCH),
				  "prev_state"));
	assert_false(lttng_shadows(lttng_event_of(LKET_EV_TASK_CTXSWITCH),
				   "prev_pid"));
	/* tgkill's pid is LKET's tid: LKET's pid (the tgid) stays */
	assert_false(lttng_shadows(&lttng_syscall_of("tgkill")->event,
				   "pid"));
	assert_true(lttng_shadows(&lttng_syscall_of("tgkill")->event, "sig"));
}

/* a switch from 10 (named) to 11 (not known): names from the map */
static void test_sched_switch(void **state)
{
	const struct lttng_event *l = lttng_event_of(LKET_EV_TASK_CTXSWITCH);
	struct event ev = {
		.tid = 10, .cpu = 1, .nvalues = 3,
		.v = { { &f_prev, 10, NULL, 0 }, { &f_next, 11, NULL, 0 },
		       { &f_state, 2, NULL, 0 } },
	};
	struct procmap pm;
	struct lttng_value v;

	(void)state;
	assert_int_equal(procmap_init(&pm), 0);
	assert_int_equal(procmap_set(&pm, 10, 10, "dd", 2), 0);
	lttng_value(field_named(l, "prev_comm"), &ev, NULL, &pm, &v);
	assert_string_equal(v.s, "dd");
	assert_int_equal(v.slen, 2);
	lttng_value(field_named(l, "next_comm"), &ev, NULL, &pm, &v);
	assert_string_equal(v.s, "");
	lttng_value(field_named(l, "next_tid"), &ev, NULL, &pm, &v);
	assert_int_equal(v.i, 11);
	lttng_value(field_named(l, "prev_state"), &ev, NULL, &pm, &v);
	assert_int_equal(v.i, 2);
	lttng_value(field_named(l, "next_prio"), &ev, NULL, &pm, &v);
	assert_int_equal(v.i, 20);
	/* to the idle task: CPU 1's, swapper/1 */
	ev.v[1].i = 0;
	lttng_value(field_named(l, "next_comm"), &ev, NULL, &pm, &v);
	assert_string_equal(v.s, "swapper/1");
	assert_int_equal(v.slen, 9);
	procmap_free(&pm);
}

/* minor 200 is -56 as a signed INT8: dev_t and rwbs as the kernel has */
static void test_block(void **state)
{
	const struct lttng_event *l =
		lttng_event_of(LKET_EV_IOSCHED_ELV_ADD_REQUEST);
	struct event ev = {
		.tid = 7, .nvalues = 3,
		.v = { { &f_major, 8, NULL, 0 }, { &f_minor, -56, NULL, 0 },
		       /* REQ_OP_WRITE | REQ_SYNC | REQ_FUA */
		       { &f_flags, 1 | 1 << 11 | 1 << 17, NULL, 0 } },
	};
	const struct proc writer = { .tid = 7, .pid = 6, .comm = "kworker",
				     .comm_len = 7 };
	struct procmap pm;
	struct lttng_value v;

	(void)state;
	assert_int_equal(procmap_init(&pm), 0);
	lttng_value(field_named(l, "dev"), &ev, &writer, &pm, &v);
	assert_int_equal(v.i, 8 << 20 | 200);
	lttng_value(field_named(l, "rwbs"), &ev, &writer, &pm, &v);
	/* RWBS_FLAG_WRITE | RWBS_FLAG_SYNC | RWBS_FLAG_FUA */
	assert_int_equal(v.i, 1 | 1 << 5 | 1 << 9);
	lttng_value(field_named(l, "comm"), &ev, &writer, &pm, &v);
	assert_string_equal(v.s, "kworker");
	lttng_value(field_named(l, "tid"), &ev, &writer, &pm, &v);
	assert_int_equal(v.i, 7);
	procmap_free(&pm);
}

/* the calls an iosyscall hook records, by LTTng's names; the others */
static void test_syscalls(void **state)
{
	const struct lttng_syscall *c;

	(void)state;
	c = lttng_syscall_of("openat");
	assert_non_null(c);
	assert_string_equal(c->lttng, "openat");
	assert_int_equal(c->hook, LKET_EV_IOSYSCALL_OPEN_ENTRY);
	assert_int_equal(c->hook_return, LKET_EV_IOSYSCALL_OPEN_RETURN);
	assert_string_equal(c->event.fields[0].name, "dfd");
	assert_int_equal(c->event.fields[0].constant, -1);
	assert_string_equal(field_named(&c->event, "filename")->from, "filename");
	c = lttng_syscall_of("sendfile");
	assert_string_equal(c->lttng, "sendfile64");
	assert_ptr_equal(lttng_syscall_of_return(LKET_EV_IOSYSCALL_SENDFILE_RETURN),
			 c);
	assert_null(lttng_syscall_of_return(LKET_EV_IOSYSCALL_SENDFILE_ENTRY));
	assert_string_equal(field_named(&lttng_syscall_of("write")->event,
					"buf")->from, "buf_addr");
	assert_null(lttng_syscall_of("getpid"));
	assert_null(lttng_syscall_of(NULL));
	/* LTTng's analyses read these at entry; not getpid's */
	assert_true(lttng_syscall_needs_args("read"));
	assert_true(lttng_syscall_needs_args("dup2"));
	assert_false(lttng_syscall_needs_args("getpid"));
	/* recorded, but not read by LTTng's analyses: keeps its name */
	assert_non_null(lttng_syscall_of("kill"));
	assert_false(lttng_syscall_needs_args("kill"));
}

/* syscall.return's ret: from its return, none in an older trace */
static void test_exit_ret(void **state)
{
	struct field with[] = { { .type = LKET_STRING, .name = "syscall_name" },
				{ .type = LKET_INT64, .name = "return" } };
	struct event_meta m = { .ev = LKET_EV_SYSCALL_RETURN,
				.sys = { with, 2, true, NULL } };
	const struct lttng_event *l;

	(void)state;
	l = lttng_event_of_meta(&m);
	assert_int_equal(l->nfields, 1);
	assert_string_equal(l->fields[0].name, "ret");
	m.sys.n = 1;
	l = lttng_event_of_meta(&m);
	assert_string_equal(l->name, "syscall_exit_");
	assert_int_equal(l->nfields, 0);
	assert_null(lttng_event_of_meta(NULL));
}

UNIT_MAIN("ctf_lttng", NULL, NULL,
	  UNIT_TEST(test_which), UNIT_TEST(test_sched_switch),
	  UNIT_TEST(test_block), UNIT_TEST(test_syscalls),
	  UNIT_TEST(test_exit_ret))
