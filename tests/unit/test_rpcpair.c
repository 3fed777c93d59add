// SPDX-License-Identifier: GPL-2.0
/* rpcpair: a host's RPC events folded into calls and halves, matched. */
#include "unit.h"

#include "analysis/rpcpair.h"
#include "decode/meta.h"

static struct field f_xid = { .name = "xid" }, f_prog = { .name = "prog" },
	f_rq_xid = { .name = "rq_xid" }, f_rq_prog = { .name = "rq_prog" },
	f_rq_vers = { .name = "rq_vers" }, f_rq_proc = { .name = "rq_proc" };

static struct event_meta m_execute = {
	.ev = LKET_EV_SUNRPC_SCHED_EXECUTE_ENTRY },
	m_release = { .ev = LKET_EV_SUNRPC_SCHED_RELEASE_TASK_ENTRY },
	m_process = { .ev = LKET_EV_SUNRPC_SVC_PROCESS_ENTRY },
	m_send = { .ev = LKET_EV_SUNRPC_SVC_SEND_ENTRY },
	m_other = { .ev = LKET_EV_SUNRPC_SVC_DROP_ENTRY };

static void fields_init(void)
{
	f_xid.type = f_prog.type = f_rq_xid.type = f_rq_prog.type = LKET_INT64;
	f_rq_vers.type = f_rq_proc.type = LKET_INT8;
}

/* A client event: meta, time, xid (as the INT64 field holds it), prog. */
static void client(struct rpc_host *h, struct event_meta *m, uint64_t ts,
		   int64_t xid, int64_t prog)
{
	struct record rec = { .timestamp = ts };
	struct event ev = { .rec = &rec, .meta = m, .nvalues = 2 };

	ev.v[0] = (struct value){ .f = &f_xid, .i = xid };
	ev.v[1] = (struct value){ .f = &f_prog, .i = prog };
	assert_int_equal(rpc_host_event(h, &ev), 0);
}

static void server(struct rpc_host *h, struct event_meta *m, uint64_t ts,
		   int64_t xid, int64_t prog, int64_t proc)
{
	struct record rec = { .timestamp = ts };
	struct event ev = { .rec = &rec, .meta = m, .nvalues = 4 };

	ev.v[0] = (struct value){ .f = &f_rq_xid, .i = xid };
	ev.v[1] = (struct value){ .f = &f_rq_prog, .i = prog };
	ev.v[2] = (struct value){ .f = &f_rq_vers, .i = 3 };
	ev.v[3] = (struct value){ .f = &f_rq_proc, .i = proc };
	assert_int_equal(rpc_host_event(h, &ev), 0);
}

static void test_fold_and_match(void **state)
{
	struct rpc_host c, s;
	struct rpc_match *m;
	size_t n;

	(void)state;
	fields_init();
	rpc_host_init(&c);
	rpc_host_init(&s);
	client(&c, &m_execute, 100, 7, 100003);
	client(&c, &m_execute, 150, 7, 100003);	/* executed again */
	/* an xid past 2^31: the INT64 field sign-extends it */
	client(&c, &m_execute, 200, -2, 100003);
	client(&c, &m_release, 300, 99, 100003);	/* never executed */
	client(&c, &m_release, 500, 7, 100003);
	client(&c, &m_release, 600, 7, 100003);	/* the last counts */
	client(&c, &m_release, 700, -2, 100003);
	client(&c, &m_execute, 800, 8, 100005);	/* never answered */
	server(&s, &m_process, 1300, 7, 100003, 7);
	server(&s, &m_process, 1310, 7, 100003, 7);	/* retransmitted */
	server(&s, &m_process, 1350, 0xfffffffe, 100003, 6);
	server(&s, &m_send, 1400, 7, 100003, 7);
	server(&s, &m_send, 1410, 7, 100003, 7);
	server(&s, &m_process, 1500, 8, 100003, 1);	/* another program */
	server(&s, &m_other, 1600, 7, 100003, 7);	/* not wanted */
	/* file by file: an earlier execute of another CPU's file counts */
	client(&c, &m_execute, 90, 7, 100003);
	client(&c, &m_execute, 95, 7, 100003);
	assert_int_equal(rpc_host_finish(&c), 0);
	assert_int_equal(rpc_host_finish(&s), 0);

	assert_int_equal(c.ncalls, 3);
	assert_int_equal(c.nserves, 0);
	assert_int_equal(c.calls[0].xid, 7);
	assert_int_equal(c.calls[0].execute, 90);
	assert_int_equal(c.calls[0].release, 600);
	/* in the order first seen; the release of 99 alone is no call */
	assert_int_equal(c.calls[1].xid, 0xfffffffe);
	assert_int_equal(c.calls[1].release, 700);
	assert_int_equal(c.calls[2].xid, 8);
	assert_int_equal(c.calls[2].release, 0);
	assert_int_equal(s.nserves, 3);
	assert_int_equal(s.serves[0].process, 1300);
	assert_int_equal(s.serves[0].send, 1400);
	assert_int_equal(s.serves[0].proc, 7);
	assert_int_equal(s.serves[2].send, 0);

	assert_int_equal(rpc_match(&c, &s, &m, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(m[0].call->xid, 7);
	assert_int_equal(m[0].serve->process, 1300);
	assert_int_equal(m[1].call->xid, 0xfffffffe);
	assert_int_equal(m[1].serve->proc, 6);
	free(m);
	/* a client's calls are no server's halves */
	assert_int_equal(rpc_match(&s, &c, &m, &n), 0);
	assert_int_equal(n, 0);
	free(m);
	rpc_host_free(&c);
	rpc_host_free(&s);
}

/* More calls than the first hash table holds: every one found. */
static void test_many(void **state)
{
	struct rpc_host c, s;
	struct rpc_match *m;
	size_t n;
	int i;

	(void)state;
	fields_init();
	rpc_host_init(&c);
	rpc_host_init(&s);
	for (i = 0; i < 5000; i++) {
		client(&c, &m_execute, 1000 + 10 * (uint64_t)i, 100000 + i, 100003);
		server(&s, &m_process, 1003 + 10 * (uint64_t)i, 100000 + i, 100003, 1);
	}
	for (i = 0; i < 5000; i++) {
		client(&c, &m_release, 1009 + 10 * (uint64_t)i, 100000 + i, 100003);
		server(&s, &m_send, 1006 + 10 * (uint64_t)i, 100000 + i, 100003, 1);
	}
	assert_int_equal(rpc_host_finish(&c), 0);
	assert_int_equal(rpc_host_finish(&s), 0);
	assert_int_equal(c.ncalls, 5000);
	assert_int_equal(s.nserves, 5000);
	assert_int_equal(rpc_match(&c, &s, &m, &n), 0);
	assert_int_equal(n, 5000);
	for (i = 0; i < 5000; i++) {
		assert_int_equal(m[i].call->xid, m[i].serve->xid);
		assert_int_equal(m[i].call->release - m[i].call->execute, 9);
		assert_int_equal(m[i].serve->send - m[i].serve->process, 3);
	}
	free(m);
	rpc_host_free(&c);
	rpc_host_free(&s);
}

static void test_empty(void **state)
{
	struct rpc_host c, s;
	struct rpc_match *m;
	size_t n = 1;

	(void)state;
	rpc_host_init(&c);
	rpc_host_init(&s);
	assert_int_equal(rpc_host_finish(&c), 0);
	assert_int_equal(rpc_host_finish(&s), 0);
	assert_int_equal(rpc_match(&c, &s, &m, &n), 0);
	assert_int_equal(n, 0);
	free(m);
	rpc_host_free(&c);
	rpc_host_free(&s);
}

UNIT_MAIN("rpcpair", NULL, NULL,
	  UNIT_TEST(test_fold_and_match), UNIT_TEST(test_many),
	  UNIT_TEST(test_empty))
