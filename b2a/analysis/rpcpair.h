/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcpair.h - SUNRPC calls across hosts: what each host's trace says of
 * its RPCs, as client and as server, and each client call matched with
 * its server half by xid and program.
 *
 * Client: sunrpc.sched.execute.entry (xid, prog) starts a call,
 * sunrpc.sched.release_task.entry (xid, prog) ends it.  Server:
 * sunrpc.svc.process.entry (rq_xid, rq_prog, rq_vers, rq_proc) takes it
 * in, sunrpc.svc.send.entry (rq_xid, rq_prog) sends the reply.  The
 * tapset records both xids in host byte order (ntohl of rq_xid, the
 * transport's counter as it is), so they compare as they are, 32 bits.
 * A call executed again, or a request the server saw twice (a
 * retransmission), keeps its first execute, its last release, its first
 * process and its first send: the times that the order of events across
 * the hosts bounds whichever copy was answered.  Events may come in any
 * order (file by file); they are kept as they come and sorted by program
 * and xid at the end (a radix sort: in order through memory, where a hash
 * would miss the cache at each event).
 *
 * Memory: per RPC event 24 bytes, twice that while sorting.
 */
#ifndef LKET_RPCPAIR_H
#define LKET_RPCPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"

struct rpc_call {		/* a client's call */
	uint32_t xid, prog;
	uint64_t execute;	/* first sunrpc.sched.execute.entry */
	uint64_t release;	/* last release_task.entry; 0: none */
};

struct rpc_serve {		/* a server's half */
	uint32_t xid, prog, vers, proc;
	uint64_t process;	/* first sunrpc.svc.process.entry */
	uint64_t send;		/* first sunrpc.svc.send.entry; 0: none */
};

#define RPC_FIELD_CACHE	4

/* Where an event's xid, prog, vers, proc are (-1: it has none). */
struct rpc_fields {
	const void *meta;
	unsigned int nvalues;
	int idx[4];
};

struct rpc_ev;

/* One host's RPCs, as client (calls) and as server (serves), each
 * sorted by program and xid. */
struct rpc_host {
	struct rpc_call *calls;
	size_t ncalls;
	struct rpc_serve *serves;
	size_t nserves;
	struct rpc_ev *ev[2];	/* as they come: servers' [0], clients' [1] */
	size_t nev[2], cap[2];
	struct rpc_fields fields[RPC_FIELD_CACHE];
};

struct rpc_match {
	const struct rpc_call *call;
	const struct rpc_serve *serve;
};

void rpc_host_init(struct rpc_host *h);
void rpc_host_free(struct rpc_host *h);
/* Which events rpc_host_event() wants, indexed by LKET_EV_*. */
const bool *rpc_events(void);
/* An event of the host's, in its time order; 0 or -ENOMEM. */
int rpc_host_event(struct rpc_host *h, const struct event *ev);
/* All events seen: calls never executed, halves never processed go. */
int rpc_host_finish(struct rpc_host *h);
/*
 * The calls of client that server answered (a host is never its own
 * server here), by program and xid: *m (free() it), *n.  0, -ENOMEM.
 */
int rpc_match(const struct rpc_host *client, const struct rpc_host *server,
	      struct rpc_match **m, size_t *n);

#endif
