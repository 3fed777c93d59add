// SPDX-License-Identifier: GPL-2.0
/*
 * pf_track: track events on their thread's track, which is described
 * once (a pair's on a track of its own under it, named by its label,
 * described once too): an LKET_PAIR entry begins a slice its return
 * ends, as the latency report pairs them (a return with no entry open is
 * an instant; the end names its slice); a lone record an instant; every
 * field an argument of its type (hex unsigned, an address a pointer, a
 * string with control bytes escaped as lket-b2a escapes them); the first
 * stack the callstack, another an argument, a kernel event's stacks an
 * instant; the process snapshot one process tree, a task record's name,
 * a fork's child and an execve's new name one of its own.
 */
#include "pf_fixture.h"

static struct meta stack_meta;
static struct procmap procs;
static struct trace_info info = { .procs = &procs, .first_ts = 1000 };

static int setup(void **state)
{
	if (pf_setup(state) || procmap_init(&procs) ||
	    procmap_set(&procs, 10, 10, "ten", 3) || meta_init(&stack_meta) ||
	    meta_from_catalogue(&stack_meta, LKET_GROUP_TASK,
				LKET_HOOK_TASK_CTXSWITCH) ||
	    meta_register(&stack_meta, LKET_GROUP_TASK,
			  LKET_HOOK_TASK_CTXSWITCH, true, "ADDRS", "stack"))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	meta_free(&stack_meta);
	procmap_free(&procs);
	return pf_teardown(state);
}

/* The trace's k-th track event, its packet in *pkt. */
static bool track_event(const struct pf_run *r, unsigned int k,
			struct pbf *pkt, struct pbf *te)
{
	if (!pf_packet_with(r, PF_TRACEPACKET_TRACK_EVENT, k, pkt))
		return false;
	*te = pbr_sub(pkt, PF_TRACEPACKET_TRACK_EVENT, 0);
	return true;
}

/* The string an iid names among the trace's interned data of field f. */
static bool interned(const struct pf_run *r, uint32_t f, uint64_t iid,
		     const char *want)
{
	struct pbf pkt, data, e, s;
	unsigned int i, k;

	for (i = 0; pf_packet_with(r, PF_TRACEPACKET_INTERNED_DATA, i, &pkt);
	     i++) {
		data = pbr_sub(&pkt, PF_TRACEPACKET_INTERNED_DATA, 0);
		for (k = 0; pbr_get(data.p, data.len, f, k, &e); k++)
			if (pbr_u(&e, 1, 0) == iid) {
				s = pbr_sub(&e, 2, 0);
				return pbr_streq(&s, want);
			}
	}
	return false;
}

static void ev_of(struct pf_run *r, unsigned int group, unsigned int hook,
		  uint64_t ts, const struct pf_fv *v, unsigned int n)
{
	struct record rec;
	struct event ev;

	pf_event_of(&ev, &rec, group, hook, ts, 10, 0, v, n);
	pf_run_event(r, &ev, procmap_get(&procs, 10));
}

static void test_pairs(void **state)
{
	const struct pf_fv open[] = { PF_STR("/tmp/a\tb"), PF_I(0x41),
				      PF_I(420) };
	const struct pf_fv ret[] = { PF_I(3) };
	const struct pf_fv fault[] = { PF_I(0x7f0000001000ll), PF_I(1) };
	static const uint64_t want[] = {
		PF_TRACKEVENT_TYPE_SLICE_BEGIN, PF_TRACKEVENT_TYPE_SLICE_END,
		PF_TRACKEVENT_TYPE_INSTANT, PF_TRACKEVENT_TYPE_SLICE_BEGIN,
		PF_TRACKEVENT_TYPE_SLICE_BEGIN, PF_TRACKEVENT_TYPE_SLICE_END,
		PF_TRACKEVENT_TYPE_INSTANT,
	};
	struct pf_run r;
	struct pbf pkt, te, a, s, d;
	uint64_t uuid = 0, thread = 0;
	unsigned int i;

	(void)state;
	pf_run_begin(&r, "pairs.pftrace", &info);
	ev_of(&r, 8, 1, 1000, open, 3);	/* iosyscall.open.entry */
	ev_of(&r, 8, 2, 1100, ret, 1);		/* .return: the end */
	ev_of(&r, 8, 2, 1200, ret, 1);		/* none open: instant */
	ev_of(&r, 8, 1, 1300, open, 3);
	ev_of(&r, 8, 1, 1400, open, 3);	/* enters again */
	ev_of(&r, 8, 2, 1500, ret, 1);		/* ends the last */
	ev_of(&r, LKET_GROUP_PAGEFAULT, LKET_HOOK_PAGEFAULT, 1600, fault, 2);
	pf_run_finish(&r);

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_true(track_event(&r, i, &pkt, &te));
		assert_int_equal(pbr_u(&te, PF_TRACKEVENT_TYPE, 0), want[i]);
		/* the pair's on a track of its own, the other not */
		if (!i)
			uuid = pbr_u(&te, PF_TRACKEVENT_TRACK_UUID, 0);
		if (i == 6)
			thread = pbr_u(&te, PF_TRACKEVENT_TRACK_UUID, 0);
		else
			assert_int_equal(pbr_u(&te, PF_TRACKEVENT_TRACK_UUID,
					       1), uuid);
		/* every one named, the end too */
		assert_true(interned(&r, PF_INTERNEDDATA_EVENT_NAMES,
				     pbr_u(&te, PF_TRACKEVENT_NAME_IID, 0),
				     i < 6 ? "iosyscall.open" : "pagefault"));
		assert_true(interned(&r, PF_INTERNEDDATA_EVENT_CATEGORIES,
				     pbr_u(&te, PF_TRACKEVENT_CATEGORY_IIDS,
					   0),
				     i < 6 ? "iosyscall" : "pagefault"));
	}
	assert_false(track_event(&r, i, &pkt, &te));
	/* the thread's track described once, as the thread it is, then
	 * the pair's under it, named by its label */
	assert_int_not_equal(thread, uuid);
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_TRACK_DESCRIPTOR, 0,
				   &pkt));
	d = pbr_sub(&pkt, PF_TRACEPACKET_TRACK_DESCRIPTOR, 0);
	assert_int_equal(pbr_u(&d, PF_TRACKDESCRIPTOR_UUID, 0), thread);
	d = pbr_sub(&d, PF_TRACKDESCRIPTOR_THREAD, 0);
	assert_int_equal(pbr_u(&d, PF_THREADDESCRIPTOR_TID, 0), 10);
	assert_int_equal(pbr_u(&d, PF_THREADDESCRIPTOR_PID, 0), 10);
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_TRACK_DESCRIPTOR, 1,
				   &pkt));
	d = pbr_sub(&pkt, PF_TRACEPACKET_TRACK_DESCRIPTOR, 0);
	assert_int_equal(pbr_u(&d, PF_TRACKDESCRIPTOR_UUID, 0), uuid);
	assert_int_equal(pbr_u(&d, PF_TRACKDESCRIPTOR_PARENT_UUID, 0), thread);
	s = pbr_sub(&d, PF_TRACKDESCRIPTOR_NAME, 0);
	assert_true(pbr_streq(&s, "iosyscall.open"));
	assert_false(pf_packet_with(&r, PF_TRACEPACKET_TRACK_DESCRIPTOR, 2,
				    &pkt));
	/* the entry's arguments: a string escaped, hex, a plain number */
	assert_true(track_event(&r, 0, &pkt, &te));
	a = pbr_sub(&te, PF_TRACKEVENT_DEBUG_ANNOTATIONS, 0);
	assert_true(interned(&r, PF_INTERNEDDATA_DEBUG_ANNOTATION_NAMES,
			     pbr_u(&a, PF_DEBUGANNOTATION_NAME_IID, 0),
			     "filename"));
	s = pbr_sub(&a, PF_DEBUGANNOTATION_STRING_VALUE, 0);
	assert_true(pbr_streq(&s, "/tmp/a\\tb"));
	a = pbr_sub(&te, PF_TRACKEVENT_DEBUG_ANNOTATIONS, 1);
	assert_int_equal(pbr_u(&a, PF_DEBUGANNOTATION_UINT_VALUE, 0), 0x41);
	a = pbr_sub(&te, PF_TRACKEVENT_DEBUG_ANNOTATIONS, 2);
	assert_int_equal(pbr_u(&a, PF_DEBUGANNOTATION_INT_VALUE, 0), 420);
	assert_true(track_event(&r, 6, &pkt, &te));
	a = pbr_sub(&te, PF_TRACKEVENT_DEBUG_ANNOTATIONS, 0);
	assert_int_equal(pbr_u(&a, PF_DEBUGANNOTATION_POINTER_VALUE, 0),
			 0x7f0000001000ull);
	free(r.data);
}

/* A context switch with a stack: sched_switch, and an instant with the
 * stack as its callstack, outermost first. */
static void test_kernel_stack(void **state)
{
	static const uint64_t addr[] = { 0xffffffff81000010ull,
					 0xffffffff81000020ull };
	static const char *const sym[] = { "schedule+0x10", NULL };
	const struct event_meta *m = meta_get(&stack_meta, 4, 1);
	struct record rec = { .timestamp = 2000, .size = 64 };
	struct event ev = { .rec = &rec, .meta = m, .group = 4, .hook = 1,
			    .tid = 10, .nsys = 3, .nvalues = 4, .naddrs = 2 };
	struct pf_run r;
	struct pbf pkt, te, cs;
	unsigned int k;

	(void)state;
	for (k = 0; k < 3; k++)
		ev.v[k].f = &m->sys.f[k];
	ev.v[0].i = 10;
	ev.v[3].f = &m->user.f[0];
	ev.v[3].a = addr;
	ev.v[3].n = 2;
	ev.v[3].syms = sym;
	pf_run_begin(&r, "kstack.pftrace", &info);
	pf_run_event(&r, &ev, procmap_get(&procs, 10));
	pf_run_finish(&r);
	assert_true(track_event(&r, 0, &pkt, &te));
	assert_int_equal(pbr_u(&te, PF_TRACKEVENT_TYPE, 0),
			 PF_TRACKEVENT_TYPE_INSTANT);
	assert_true(interned(&r, PF_INTERNEDDATA_EVENT_NAMES,
			     pbr_u(&te, PF_TRACKEVENT_NAME_IID, 0),
			     "tskdispatch.ctxswitch"));
	/* the stack alone: not the switch's fields */
	assert_int_equal(pbr_count(te.p, te.len,
				   PF_TRACKEVENT_DEBUG_ANNOTATIONS), 0);
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_INTERNED_DATA, 0, &pkt));
	pkt = pbr_sub(&pkt, PF_TRACEPACKET_INTERNED_DATA, 0);
	cs = pbr_sub(&pkt, PF_INTERNEDDATA_CALLSTACKS, 0);
	assert_int_equal(pbr_u(&cs, PF_CALLSTACK_IID, 0),
			 pbr_u(&te, PF_TRACKEVENT_CALLSTACK_IID, 1));
	assert_true(interned(&r, PF_INTERNEDDATA_FUNCTION_NAMES,
			     pbr_u(&cs, PF_CALLSTACK_FRAME_IDS, 0),
			     "0xffffffff81000020"));
	assert_true(interned(&r, PF_INTERNEDDATA_FUNCTION_NAMES,
			     pbr_u(&cs, PF_CALLSTACK_FRAME_IDS, 0) + 1,
			     "schedule+0x10"));
	/* and the switch itself in CPU 0's bundle */
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_FTRACE_EVENTS, 0, &pkt));
	free(r.data);
}

static void test_process_tree(void **state)
{
	const struct pf_fv a[] = { PF_I(10), PF_I(10), PF_I(1),
				   PF_STR("ten") };
	const struct pf_fv b[] = { PF_I(11), PF_I(10), PF_I(1),
				   PF_STR("worker") };
	struct pf_run r;
	struct pbf pkt, tree, t, s;

	(void)state;
	pf_run_begin(&r, "tree.pftrace", &info);
	ev_of(&r, LKET_GROUP_PROCESS, LKET_HOOK_PROCESS_SNAPSHOT, 1000, a, 4);
	ev_of(&r, LKET_GROUP_PROCESS, LKET_HOOK_PROCESS_SNAPSHOT, 1000, b, 4);
	pf_run_finish(&r);
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_PROCESS_TREE, 0, &pkt));
	assert_false(pf_packet_with(&r, PF_TRACEPACKET_PROCESS_TREE, 1, &t));
	assert_int_equal(pbr_u(&pkt, PF_TRACEPACKET_TIMESTAMP, 0), 1000);
	tree = pbr_sub(&pkt, PF_TRACEPACKET_PROCESS_TREE, 0);
	/* one process (its main thread's), two threads */
	assert_int_equal(pbr_count(tree.p, tree.len,
				   PF_PROCESSTREE_PROCESSES), 1);
	t = pbr_sub(&tree, PF_PROCESSTREE_PROCESSES, 0);
	assert_int_equal(pbr_u(&t, PF_PROCESSTREE_PROCESS_PID, 0), 10);
	assert_int_equal(pbr_u(&t, PF_PROCESSTREE_PROCESS_PPID, 0), 1);
	t = pbr_sub(&tree, PF_PROCESSTREE_THREADS, 1);
	assert_int_equal(pbr_u(&t, PF_PROCESSTREE_THREAD_TID, 0), 11);
	assert_int_equal(pbr_u(&t, PF_PROCESSTREE_THREAD_TGID, 0), 10);
	s = pbr_sub(&t, PF_PROCESSTREE_THREAD_NAME, 0);
	assert_true(pbr_streq(&s, "worker"));
	free(r.data);
}

/* The task records' names in the process tree too, each at its time:
 * Perfetto names threads by it before the kernel's renames. */
static void test_tree_tasks(void **state)
{
	const struct pf_fv task[] = { PF_I(30), PF_I(10), PF_I(1),
				      PF_STR("ten") };
	const struct pf_fv exec[] = { PF_I(10), PF_I(10),
				      PF_STR("/usr/bin/dd") };
	struct pf_run r;
	struct record rec;
	struct event ev;
	struct pbf pkt, tree, t, s;

	(void)state;
	pf_run_begin(&r, "tasks.pftrace", &info);
	pf_event_of(&ev, &rec, LKET_GROUP_LKET, LKET_HOOK_TASK_NEW, 1000, 10,
		    0, task, 4);
	assert_int_equal(r.o->ops->task(r.o, &ev, NULL), 0);
	pf_event_of(&ev, &rec, LKET_GROUP_LKET, LKET_HOOK_TASK_EXEC, 1100, 10,
		    0, exec, 3);
	assert_int_equal(r.o->ops->task(r.o, &ev, NULL), 0);
	pf_run_finish(&r);
	/* a new thread: the thread alone, named */
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_PROCESS_TREE, 0, &pkt));
	assert_int_equal(pbr_u(&pkt, PF_TRACEPACKET_TIMESTAMP, 0), 1000);
	tree = pbr_sub(&pkt, PF_TRACEPACKET_PROCESS_TREE, 0);
	assert_int_equal(pbr_count(tree.p, tree.len,
				   PF_PROCESSTREE_PROCESSES), 0);
	t = pbr_sub(&tree, PF_PROCESSTREE_THREADS, 0);
	assert_int_equal(pbr_u(&t, PF_PROCESSTREE_THREAD_TID, 0), 30);
	assert_int_equal(pbr_u(&t, PF_PROCESSTREE_THREAD_TGID, 0), 10);
	/* an exec of a main thread: its process, by the file's name */
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_PROCESS_TREE, 1, &pkt));
	assert_int_equal(pbr_u(&pkt, PF_TRACEPACKET_TIMESTAMP, 0), 1100);
	tree = pbr_sub(&pkt, PF_TRACEPACKET_PROCESS_TREE, 0);
	t = pbr_sub(&tree, PF_PROCESSTREE_PROCESSES, 0);
	s = pbr_sub(&t, PF_PROCESSTREE_PROCESS_CMDLINE, 0);
	assert_true(pbr_streq(&s, "dd"));
	t = pbr_sub(&tree, PF_PROCESSTREE_THREADS, 0);
	s = pbr_sub(&t, PF_PROCESSTREE_THREAD_NAME, 0);
	assert_true(pbr_streq(&s, "dd"));
	/* no thread descriptor names a thread (it would outrank these) */
	assert_false(pf_packet_with(&r, PF_TRACEPACKET_TRACK_DESCRIPTOR, 0,
				    &pkt));
	free(r.data);
}

/* A fork names its child as its parent ("ten"), an execve its writer by
 * the file's last component, as lket-b2a's process map does; both stay
 * track events on the writer's track. */
static void test_tree_fork_execve(void **state)
{
	const struct pf_fv fork[] = { PF_I(40), PF_I(40), PF_I(10) };
	const struct pf_fv exec[] = { PF_I(10), PF_STR("/bin/sh") };
	struct pf_run r;
	struct pbf pkt, tree, t, s, te;

	(void)state;
	pf_run_begin(&r, "fork.pftrace", &info);
	ev_of(&r, LKET_GROUP_PROCESS, LKET_HOOK_PROCESS_FORK, 1200, fork, 3);
	ev_of(&r, LKET_GROUP_PROCESS, LKET_HOOK_PROCESS_EXECVE, 1300, exec,
	      2);
	pf_run_finish(&r);
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_PROCESS_TREE, 0, &pkt));
	assert_int_equal(pbr_u(&pkt, PF_TRACEPACKET_TIMESTAMP, 0), 1200);
	tree = pbr_sub(&pkt, PF_TRACEPACKET_PROCESS_TREE, 0);
	t = pbr_sub(&tree, PF_PROCESSTREE_PROCESSES, 0);
	assert_int_equal(pbr_u(&t, PF_PROCESSTREE_PROCESS_PID, 0), 40);
	assert_int_equal(pbr_u(&t, PF_PROCESSTREE_PROCESS_PPID, 0), 10);
	t = pbr_sub(&tree, PF_PROCESSTREE_THREADS, 0);
	assert_int_equal(pbr_u(&t, PF_PROCESSTREE_THREAD_TID, 0), 40);
	s = pbr_sub(&t, PF_PROCESSTREE_THREAD_NAME, 0);
	assert_true(pbr_streq(&s, "ten"));
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_PROCESS_TREE, 1, &pkt));
	assert_int_equal(pbr_u(&pkt, PF_TRACEPACKET_TIMESTAMP, 0), 1300);
	tree = pbr_sub(&pkt, PF_TRACEPACKET_PROCESS_TREE, 0);
	t = pbr_sub(&tree, PF_PROCESSTREE_THREADS, 0);
	assert_int_equal(pbr_u(&t, PF_PROCESSTREE_THREAD_TID, 0), 10);
	s = pbr_sub(&t, PF_PROCESSTREE_THREAD_NAME, 0);
	assert_true(pbr_streq(&s, "sh"));
	/* and the records themselves, as instants */
	assert_true(track_event(&r, 0, &pkt, &te));
	assert_true(interned(&r, PF_INTERNEDDATA_EVENT_NAMES,
			     pbr_u(&te, PF_TRACKEVENT_NAME_IID, 0),
			     "process.fork"));
	assert_true(track_event(&r, 1, &pkt, &te));
	free(r.data);
}

/* A thread whose process lket-b2a does not know: its track names one of
 * its own (Perfetto drops a thread's track that names none). */
static void test_unknown_process(void **state)
{
	const struct pf_fv fault[] = { PF_I(0x1000), PF_I(1) };
	struct pf_run r;
	struct record rec;
	struct event ev;
	struct pbf pkt, d;

	(void)state;
	pf_run_begin(&r, "unknown.pftrace", &info);
	pf_event_of(&ev, &rec, LKET_GROUP_PAGEFAULT, LKET_HOOK_PAGEFAULT, 1000,
		    77, 0, fault, 2);
	pf_run_event(&r, &ev, NULL);
	pf_run_finish(&r);
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_TRACK_DESCRIPTOR, 0,
				   &pkt));
	d = pbr_sub(&pkt, PF_TRACEPACKET_TRACK_DESCRIPTOR, 0);
	d = pbr_sub(&d, PF_TRACKDESCRIPTOR_THREAD, 0);
	assert_int_equal(pbr_u(&d, PF_THREADDESCRIPTOR_TID, 0), 77);
	assert_int_equal(pbr_u(&d, PF_THREADDESCRIPTOR_PID, 0), 77);
	free(r.data);
}

UNIT_MAIN("pf_track", setup, teardown,
	  UNIT_TEST(test_pairs), UNIT_TEST(test_kernel_stack),
	  UNIT_TEST(test_process_tree), UNIT_TEST(test_tree_tasks),
	  UNIT_TEST(test_tree_fork_execve),
	  UNIT_TEST(test_unknown_process))
