// SPDX-License-Identifier: GPL-2.0
/*
 * pf_classes: what each event becomes, worked out once from its
 * metadata: a context switch the kernel's sched_switch with its fields'
 * sources found, a task record two kernel events, system calls
 * raw_syscalls on x86-64 and track events elsewhere, a pair's entry and
 * return slices under its label, a lone record an instant in its group,
 * an event of no metadata an instant of its own name, metadata nothing;
 * a field the trace lacks left out; the class kept until the metadata
 * changes.
 */
#include "pf_fixture.h"

static struct pf *p;
static struct procmap procs;
static struct trace_info info = { .procs = &procs };

static int setup(void **state)
{
	if (pf_setup(state) || procmap_init(&procs) ||
	    pf_new(&p, -1, "x", NULL) || pf_begin(p, &info))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	pf_free(p);
	procmap_free(&procs);
	return pf_teardown(state);
}

static struct pf_class *class_of(unsigned int group, unsigned int hook,
				 unsigned int n)
{
	static const struct pf_fv none[8];
	struct record rec;
	struct event ev;

	pf_event_of(&ev, &rec, group, hook, 1, 1, 0, none, n);
	return pf_class_of(&p->hosts[0], &ev);
}

static void test_kernel(void **state)
{
	struct pf_class *c = class_of(LKET_GROUP_TASK,
				      LKET_HOOK_TASK_CTXSWITCH, 3);

	(void)state;
	assert_non_null(c);
	assert_int_equal(c->kind, PF_KERNEL);
	assert_int_equal(c->sched, PF_SCHED_SWITCH);
	assert_int_equal(c->ntp, 1);
	assert_string_equal(c->tp[0].tp->name, "sched_switch");
	assert_int_equal(c->tp[0].tp->field, PF_FTRACEEVENT_SCHED_SWITCH);
	/* the seven fields; prev_comm the name of prev_pid (field 0) */
	assert_int_equal(c->tp[0].n, 7);
	assert_int_equal(c->tp[0].f[0].from[0], 0);
	assert_int_equal(c->tp[0].f[0].lf->source, LTTNG_COMM_OF_FIELD);
	assert_int_equal(c->f[PF_F_PREV_STATE], 2);
	/* worked out once */
	assert_ptr_equal(class_of(LKET_GROUP_TASK, LKET_HOOK_TASK_CTXSWITCH,
				  3), c);

	c = class_of(LKET_GROUP_LKET, LKET_HOOK_TASK_NEW, 4);
	assert_int_equal(c->kind, PF_KERNEL);
	assert_int_equal(c->ntp, 2);
	assert_string_equal(c->tp[0].tp->name, "task_newtask");
	assert_string_equal(c->tp[1].tp->name, "sched_process_fork");
	c = class_of(LKET_GROUP_LKET, LKET_HOOK_TASK_EXEC, 3);
	assert_int_equal(c->tp[0].tp->field, PF_FTRACEEVENT_TASK_RENAME);
	c = class_of(LKET_GROUP_IOSCHED, LKET_HOOK_IOSCHED_ELV_ADD_REQUEST, 5);
	assert_string_equal(c->tp[0].tp->name, "block_rq_insert");
	c = class_of(LKET_GROUP_TASK, LKET_HOOK_TASK_CPUIDLE, 1);
	assert_int_equal(c->kind, PF_CPU_IDLE);
	c = class_of(LKET_GROUP_PROCESS, LKET_HOOK_PROCESS_SNAPSHOT, 4);
	assert_int_equal(c->kind, PF_SNAPSHOT);
	/* metadata is no event */
	c = class_of(LKET_GROUP_LKET, LKET_HOOK_TRACE_HEADER, 0);
	assert_int_equal(c->kind, PF_NOTHING);
}

static void test_syscalls(void **state)
{
	struct pf_class *c;

	(void)state;
	p->hosts[0].x86_64 = true;
	c = class_of(LKET_GROUP_SYSCALL, LKET_HOOK_SYSCALL_ENTRY, 1);
	assert_int_equal(c->kind, PF_SYS_ENTER);
	/* a track event when Perfetto cannot name it: a pair keyed by name */
	assert_int_equal(c->role, PF_ENTRY);
	assert_string_equal(c->name, "syscall");
	assert_int_equal(c->key, 0);
	c = class_of(LKET_GROUP_SYSCALL, LKET_HOOK_SYSCALL_RETURN, 2);
	assert_int_equal(c->kind, PF_SYS_EXIT);
	assert_int_equal(c->f[PF_F_RETURN], 1);
	/* another machine: numbers unknown, track events */
	p->hosts[0].x86_64 = false;
	pf_classes_free(&p->hosts[0]);
	p->hosts[0].classes = calloc(256 * 256, sizeof(*p->hosts[0].classes));
	assert_non_null(p->hosts[0].classes);
	c = class_of(LKET_GROUP_SYSCALL, LKET_HOOK_SYSCALL_ENTRY, 1);
	assert_int_equal(c->kind, PF_TRACK);
	p->hosts[0].x86_64 = true;
}

static void test_track(void **state)
{
	struct pf_class *c;
	struct record rec;
	struct event ev;

	(void)state;
	c = class_of(LKET_GROUP_IOSYSCALL, LKET_HOOK_IOSYSCALL_OPEN_ENTRY, 3);
	assert_int_equal(c->kind, PF_TRACK);
	assert_int_equal(c->role, PF_ENTRY);
	assert_string_equal(c->name, "iosyscall.open");
	assert_int_equal(c->cat_len, strlen("iosyscall"));
	assert_memory_equal(c->cat, "iosyscall", c->cat_len);
	assert_int_equal(c->key, -1);
	c = class_of(LKET_GROUP_IOSYSCALL, LKET_HOOK_IOSYSCALL_OPEN_RETURN, 1);
	assert_int_equal(c->role, PF_RETURN);
	assert_string_equal(c->name, "iosyscall.open");
	c = class_of(LKET_GROUP_PAGEFAULT, LKET_HOOK_PAGEFAULT, 2);
	assert_int_equal(c->role, PF_INSTANT);
	assert_string_equal(c->name, "pagefault");
	assert_int_equal(c->cat_len, strlen("pagefault"));
	c = class_of(LKET_GROUP_SUNRPC, LKET_HOOK_SUNRPC_SCHED_EXECUTE_ENTRY,
		     6);
	assert_int_equal(c->rpc, PF_RPC_EXECUTE);
	assert_true(c->f[PF_F_XID] >= 0 && c->f[PF_F_PROG] >= 0);
	/* an event no metadata describes */
	memset(&ev, 0, sizeof(ev));
	rec.timestamp = 1;
	ev.rec = &rec;
	ev.group = 200;
	ev.hook = 9;
	c = pf_class_of(&p->hosts[0], &ev);
	assert_int_equal(c->kind, PF_TRACK);
	assert_string_equal(c->name, "unknown[200:9]");
	assert_memory_equal(c->cat, "unknown", c->cat_len);
}

/* A trace whose sched_switch lacks prev_state: the field left out. */
static void test_older_trace(void **state)
{
	struct meta m;
	struct record rec = { .timestamp = 1 };
	struct event ev = { .rec = &rec, .group = 4, .hook = 1 };
	struct pf_class *c;
	unsigned int i;

	(void)state;
	assert_int_equal(meta_init(&m), 0);
	assert_int_equal(meta_register(&m, 4, 1, false, "INT32:INT32",
				       "prev_pid:next_pid"), 0);
	assert_int_equal(meta_name(&m, 4, 1, "tskdispatch.ctxswitch"), 0);
	ev.meta = meta_get(&m, 4, 1);
	c = pf_class_of(&p->hosts[0], &ev);
	assert_int_equal(c->kind, PF_KERNEL);
	assert_int_equal(c->tp[0].n, 6);
	for (i = 0; i < c->tp[0].n; i++)
		assert_string_not_equal(c->tp[0].f[i].lf->name, "prev_state");
	assert_int_equal(c->f[PF_F_PREV_STATE], -1);
	/* the metadata changes: worked out again */
	ev.meta = meta_get(&pf_meta, 4, 1);
	c = pf_class_of(&p->hosts[0], &ev);
	assert_int_equal(c->tp[0].n, 7);
	meta_free(&m);
}

UNIT_MAIN("pf_classes", setup, teardown,
	  UNIT_TEST(test_kernel), UNIT_TEST(test_syscalls),
	  UNIT_TEST(test_track), UNIT_TEST(test_older_trace))
