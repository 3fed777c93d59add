// SPDX-License-Identifier: GPL-2.0
/*
 * pf_flows: a wake-up's flow from its waker's instant to the woken
 * thread's when it runs (the latency schedlat.h measures), none for a
 * wake-up that never runs; an RPC matched across two hosts, each a
 * machine: a flow from the client's call to the server's handling and
 * one from its reply to the client, the four ends under one correlation
 * id, a call executed again no flow of its own; the critical path's
 * segments as slices under their threads, each joined to the next.
 */
#include "pf_fixture.h"

#include "analysis/critpath.h"
#include "analysis/rpcpair.h"

static struct procmap procs;
static struct trace_info info = { .procs = &procs, .first_ts = 1000 };

static int setup(void **state)
{
	if (pf_setup(state) || procmap_init(&procs) ||
	    procmap_set(&procs, 10, 10, "ten", 3) ||
	    procmap_set(&procs, 20, 20, "twenty", 6))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	procmap_free(&procs);
	return pf_teardown(state);
}

/* Track event k named name: its first start and end flow ids. */
struct mark {
	uint64_t start, end, track, ts, machine;
	char corr[96];
};

static unsigned int marks(const struct pf_run *r, struct mark *m,
			  unsigned int max)
{
	struct pbf pkt, te, f;
	unsigned int n = 0;

	while (n < max && pf_packet_with(r, PF_TRACEPACKET_TRACK_EVENT, n,
					 &pkt)) {
		te = pbr_sub(&pkt, PF_TRACEPACKET_TRACK_EVENT, 0);
		m[n] = (struct mark){
			.start = pbr_u(&te, PF_TRACKEVENT_FLOW_IDS, 0),
			.end = pbr_u(&te, PF_TRACKEVENT_TERMINATING_FLOW_IDS,
				     0),
			.track = pbr_u(&te, PF_TRACKEVENT_TRACK_UUID, 0),
			.ts = pbr_u(&pkt, PF_TRACEPACKET_TIMESTAMP, 0),
			.machine = pbr_u(&pkt, PF_TRACEPACKET_MACHINE_ID, 0),
		};
		if (pbr_get(te.p, te.len, PF_TRACKEVENT_CORRELATION_ID_STR, 0,
			    &f))
			snprintf(m[n].corr, sizeof(m[n].corr), "%.*s",
				 (int)f.len, (const char *)f.p);
		n++;
	}
	return n;
}

static void sched(struct pf_run *r, struct critpath *cp, unsigned int hook,
		  uint64_t ts, uint32_t tid, const struct pf_fv *v,
		  unsigned int n)
{
	struct record rec;
	struct event ev;

	pf_event_of(&ev, &rec, LKET_GROUP_TASK, hook, ts, tid, 0, v, n);
	if (r)
		pf_run_event(r, &ev, procmap_get(&procs, tid));
	if (cp)
		assert_int_equal(critpath_event(cp, &ev, NULL), 0);
}

#define SW(r, cp, ts, prev, next, st)					\
	sched(r, cp, LKET_HOOK_TASK_CTXSWITCH, ts, prev,		\
	      (const struct pf_fv[]){ PF_I(prev), PF_I(next), PF_I(st) }, 3)
#define WAKE(r, cp, ts, waker, tid, name)				\
	sched(r, cp, LKET_HOOK_TASK_WAKEUP, ts, waker,			\
	      (const struct pf_fv[]){ PF_I(tid), PF_I(tid), PF_STR(name),	\
				      PF_I(0) }, 4)

static void test_wakeups(void **state)
{
	struct pf_run r;
	struct mark m[8];

	(void)state;
	pf_run_begin(&r, "wake.pftrace", &info);
	SW(&r, NULL, 1000, 20, 10, 1);		/* 20 sleeps */
	WAKE(&r, NULL, 1100, 10, 20, "twenty");	/* 10 wakes it */
	WAKE(&r, NULL, 1150, 10, 30, "thirty");	/* never runs */
	SW(&r, NULL, 1300, 10, 20, 0);		/* it runs: 200 ns */
	pf_run_finish(&r);
	assert_int_equal(marks(&r, m, 8), 3);
	/* the waker's instants, on 10's track; the woken one's on 20's */
	assert_int_equal(m[0].ts, 1100);
	assert_int_equal(m[0].start >> 62, 2);
	assert_int_equal(m[1].ts, 1150);
	assert_true(m[1].start != m[0].start);
	assert_int_equal(m[2].ts, 1300);
	assert_int_equal(m[2].end, m[0].start);
	assert_int_equal(m[0].track, m[1].track);
	assert_true(m[2].track != m[0].track);
	free(r.data);
}

/* An RPC's client (host 0) and server (host 1) halves. */
static void rpc_event(struct pf_run *r, const char *host, unsigned int hook,
		      uint64_t ts, struct rpc_host *rh, const struct pf_fv *v,
		      unsigned int n)
{
	struct record rec;
	struct event ev;

	pf_event_of(&ev, &rec, LKET_GROUP_SUNRPC, hook, ts, 700, 0, v, n);
	ev.host = host;
	if (rh)
		assert_int_equal(rpc_host_event(rh, &ev), 0);
	if (r)
		pf_run_event(r, &ev, NULL);
}

static const char client[] = "client", server[] = "server";

static void rpcs(struct pf_run *r, struct rpc_host *c, struct rpc_host *s)
{
	const struct pf_fv call[] = { PF_I(5), PF_I(100003), PF_I(3),
				      PF_I(6), PF_I(1), PF_I(0) };
	const struct pf_fv serve[] = { PF_STR("nfsd"), PF_I(100003), PF_I(1),
				       PF_I(5), PF_I(100003), PF_I(3),
				       PF_I(1) };
	const struct pf_fv send[] = { PF_STR("nfsd"), PF_I(1), PF_I(5),
				      PF_I(100003), PF_I(3), PF_I(1) };
	const struct pf_fv release[] = { PF_I(5), PF_I(100003), PF_I(3),
					 PF_I(6), PF_I(0) };

	rpc_event(r, client, LKET_HOOK_SUNRPC_SCHED_EXECUTE_ENTRY, 1000, c,
		  call, 6);
	rpc_event(r, server, LKET_HOOK_SUNRPC_SVC_PROCESS_ENTRY, 1100, s,
		  serve, 7);
	rpc_event(r, server, LKET_HOOK_SUNRPC_SVC_SEND_ENTRY, 1200, s, send,
		  6);
	/* executed again (a retransmission): no flow of its own */
	rpc_event(r, client, LKET_HOOK_SUNRPC_SCHED_EXECUTE_ENTRY, 1250, c,
		  call, 6);
	rpc_event(r, client, LKET_HOOK_SUNRPC_SCHED_RELEASE_TASK_ENTRY, 1300,
		  c, release, 5);
}

static void test_rpc(void **state)
{
	struct trace_info hi[2] = { { .procs = &procs, .first_ts = 1000 },
				    { .procs = &procs, .first_ts = 1000 } };
	struct rpc_host c, s;
	struct trace_host th[2] = {
		{ .label = client, .info = &hi[0], .rpc = &c },
		{ .label = server, .info = &hi[1], .rpc = &s },
	};
	struct trace_info two = { .procs = &procs, .hosts = th, .nhosts = 2 };
	struct pf_run r;
	struct mark m[8];

	(void)state;
	rpc_host_init(&c);
	rpc_host_init(&s);
	rpcs(NULL, &c, &s);
	assert_int_equal(rpc_host_finish(&c), 0);
	assert_int_equal(rpc_host_finish(&s), 0);
	pf_run_begin(&r, "rpc.pftrace", &two);
	rpcs(&r, NULL, NULL);
	pf_run_finish(&r);
	assert_int_equal(marks(&r, m, 8), 5);
	/* execute -> process, send -> release; the second execute none */
	assert_int_equal(m[0].start >> 62, 1);
	assert_int_equal(m[1].end, m[0].start);
	assert_int_equal(m[2].start >> 62, 1);
	assert_true(m[2].start != m[0].start);
	assert_int_equal(m[4].end, m[2].start);
	assert_int_equal(m[3].start, 0);
	assert_int_equal(m[3].end, 0);
	assert_string_equal(m[0].corr, "rpc client-server prog 100003 xid 0x00000005");
	assert_string_equal(m[1].corr, m[0].corr);
	assert_string_equal(m[4].corr, m[0].corr);
	/* the server is machine 1, its track another than the client's */
	assert_int_equal(m[0].machine, 0);
	assert_int_equal(m[1].machine, 1);
	assert_true(m[0].track != m[1].track);
	rpc_host_free(&c);
	rpc_host_free(&s);
	free(r.data);
}

static int count(void *ctx, const struct critpath_seg *s)
{
	(void)s;
	++*(unsigned int *)ctx;
	return 0;
}

static void test_critpath(void **state)
{
	struct trace_info ti = { .procs = &procs, .first_ts = 1000 };
	struct critpath *cp;
	struct pf_run r;
	struct pbf pkt, d;
	struct mark m[32];
	unsigned int segs = 0, n, i, slices = 0, joined = 0;

	(void)state;
	assert_int_equal(critpath_new(&cp, 10), 0);
	/* 10 runs, sleeps; 20 runs and wakes it; 10 runs again */
	SW(NULL, cp, 1000, 0, 10, 0);
	SW(NULL, cp, 1100, 10, 20, 1);
	WAKE(NULL, cp, 1200, 20, 10, "ten");
	SW(NULL, cp, 1300, 20, 10, 1);
	SW(NULL, cp, 1400, 10, 0, 1);
	assert_int_equal(critpath_each(cp, count, &segs), 0);
	assert_true(segs >= 3);
	ti.critpath = cp;
	pf_run_begin(&r, "path.pftrace", &ti);
	pf_run_finish(&r);
	n = marks(&r, m, 32);
	/* a begin and an end each: each begin ends the flow before it */
	for (i = 0; i < n; i++)
		if (m[i].start) {
			slices++;
			joined += i && m[i].end;
		}
	assert_int_equal(slices, segs);
	assert_int_equal(joined, segs - 1);
	/* the tracks: "critical path of 10" under a thread's */
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_TRACK_DESCRIPTOR, 1,
				   &pkt));
	d = pbr_sub(&pkt, PF_TRACEPACKET_TRACK_DESCRIPTOR, 0);
	assert_true(pbr_u(&d, PF_TRACKDESCRIPTOR_PARENT_UUID, 0) != 0);
	d = pbr_sub(&d, PF_TRACKDESCRIPTOR_NAME, 0);
	assert_true(pbr_streq(&d, "critical path of 10"));
	critpath_free(cp);
	free(r.data);
}

UNIT_MAIN("pf_flows", setup, teardown,
	  UNIT_TEST(test_wakeups), UNIT_TEST(test_rpc),
	  UNIT_TEST(test_critpath))
