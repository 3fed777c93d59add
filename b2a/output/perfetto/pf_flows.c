// SPDX-License-Identifier: GPL-2.0
/*
 * pf_flows.c - flows (pf.h): arrows in Perfetto from one event to
 * another, a flow id each, which the events carry.
 *
 *   wake-ups      from the waker's "wakeup" instant (at tskdispatch.wakeup
 *                 or wakeup_new, on the waker's thread) to the woken
 *                 thread's "woken" instant at the switch that runs it: the
 *                 scheduling latency's two ends as schedlat.h pairs them
 *                 (a wake-up that never runs has no flow)
 *   RPCs          across hosts, the calls rpc_match() matches (those of
 *                 --rpc-report): from the client's
 *                 sunrpc.sched.execute.entry to the server's
 *                 sunrpc.svc.process.entry, and from the server's
 *                 sunrpc.svc.send.entry to the client's
 *                 sunrpc.sched.release_task.entry, the first of each;
 *                 the four carry the same correlation id as well
 *   critical path --critical-path TID: its segments as slices on a
 *                 "critical path" track under each thread, oldest first,
 *                 each joined to the next
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critpath.h"
#include "analysis/rpcpair.h"
#include "analysis/schedlat.h"
#include "output/perfetto/pf.h"

/* flow ids: two bits say which kind, the rest tells them apart */
#define FLOW_RPC	(1ull << 62)
#define FLOW_WAKE	(2ull << 62)
#define FLOW_PATH	(3ull << 62)
#define FLOW_BITS	((1ull << 62) - 1)

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* ---- RPCs --------------------------------------------------------------- */

static uint64_t rpc_key(uint32_t prog, uint32_t xid)
{
	return (uint64_t)prog << 32 | xid;
}

/* The calls of client i that server j answered. */
static int add_matches(struct pf *p, size_t i, size_t j, size_t *cap)
{
	const struct rpc_host *c = p->trace->hosts[i].rpc;
	const struct rpc_host *s = p->trace->hosts[j].rpc;
	struct rpc_match *m;
	struct pf_rpc *bigger;
	uint64_t key;
	size_t n, k;
	int ret;

	if (!c || !s || !c->ncalls)
		return 0;
	ret = rpc_match(c, s, &m, &n);
	for (k = 0; !ret && k < n; k++) {
		key = rpc_key(m[k].call->prog, m[k].call->xid);
		/* a call two servers answered: the first's */
		if (u64map_find(&p->hosts[i].rpc_calls, key))
			continue;
		if (p->nrpcs == *cap) {
			*cap = *cap ? 2 * *cap : 256;
			bigger = realloc(p->rpcs, *cap * sizeof(*bigger));
			if (!bigger) {
				ret = -ENOMEM;
				break;
			}
			p->rpcs = bigger;
		}
		p->rpcs[p->nrpcs] = (struct pf_rpc){
			.xid = m[k].call->xid, .prog = m[k].call->prog,
			.client = (uint8_t)i, .server = (uint8_t)j,
		};
		ret = u64map_put(&p->hosts[i].rpc_calls, key,
				 (uint32_t)p->nrpcs);
		if (!ret && !u64map_find(&p->hosts[j].rpc_serves, key))
			ret = u64map_put(&p->hosts[j].rpc_serves, key,
					 (uint32_t)p->nrpcs);
		p->nrpcs++;
	}
	free(m);
	return ret;
}

int pf_flows_begin(struct pf *p)
{
	size_t i, j, cap = 0;
	int ret = 0;

	for (i = 0; !ret && i < p->trace->nhosts; i++)
		for (j = 0; !ret && j < p->trace->nhosts; j++)
			if (i != j)
				ret = add_matches(p, i, j, &cap);
	return ret;
}

void pf_flows_free(struct pf *p)
{
	free(p->rpcs);
	p->rpcs = NULL;
}

void pf_rpc_flows(struct pf *p, struct pf_host *h, const struct pf_class *c,
		  const struct event *ev, struct pf_flow_ids *fl)
{
	bool client = c->rpc == PF_RPC_EXECUTE || c->rpc == PF_RPC_RELEASE;
	/* the tapset's xids are in host order, 32 bits (rpcpair.h) */
	uint32_t xid = (uint32_t)pf_int(c, ev, client ? PF_F_XID : PF_F_RQ_XID,
					0);
	uint32_t prog = (uint32_t)pf_int(c, ev, client ? PF_F_PROG :
					 PF_F_RQ_PROG, 0);
	struct u64map_slot *slot = u64map_find(client ? &h->rpc_calls :
					       &h->rpc_serves,
					       rpc_key(prog, xid));
	struct pf_rpc *r;
	uint64_t id;

	if (!slot)
		return;
	r = &p->rpcs[slot->val];
	if (r->seen & (1u << c->rpc))
		return;
	r->seen |= (uint8_t)(1u << c->rpc);
	/* a call's flow, then its reply's */
	id = FLOW_RPC | ((uint64_t)slot->val << 1 |
			 (c->rpc == PF_RPC_SEND || c->rpc == PF_RPC_RELEASE));
	if (c->rpc == PF_RPC_EXECUTE || c->rpc == PF_RPC_SEND)
		fl->start[fl->nstart++] = id;
	else
		fl->end[fl->nend++] = id;
	snprintf(fl->correlation, sizeof(fl->correlation),
		 "rpc %.32s-%.32s prog %u xid 0x%08x",
		 p->hosts[r->client].label, p->hosts[r->server].label,
		 r->prog, r->xid);
}

/* ---- wake-ups ----------------------------------------------------------- */

static uint64_t wake_id(const struct pf_host *h, int32_t tid, uint64_t ts)
{
	return FLOW_WAKE |
	       (mix(ts ^ mix((uint64_t)h->index << 32 | (uint32_t)tid)) &
		FLOW_BITS);
}

static int on_wakeup(struct pf *p, struct pf_host *h, const struct pf_class *c,
		     const struct event *ev, const struct proc *proc)
{
	const struct value *name = pf_value(c, ev, PF_F_NAME);
	int32_t tid = (int32_t)pf_int(c, ev, PF_F_TID, 0);
	uint64_t ts = ev->rec->timestamp, uuid;
	struct pf_flow_ids fl = { .nstart = 1 };
	int ret;

	if (tid <= 0)
		return 0;
	ret = schedlat_wakeup(h->sched, tid, (int32_t)pf_int(c, ev, PF_F_PID,
							     -1),
			      name && name->f->type == LKET_STRING ? name->s :
			      "", name && name->f->type == LKET_STRING ?
			      name->slen : 0, ts, true, true);
	if (!ret)
		ret = pf_thread_track(p, h, ev->tid, proc, &uuid);
	if (ret)
		return ret;
	fl.start[0] = wake_id(h, tid, ts);
	return pf_track_mark(p, h, uuid, ts, PF_TRACKEVENT_TYPE_INSTANT,
			     "wakeup", &fl, "tid", tid);
}

static int on_switch(struct pf *p, struct pf_host *h, const struct pf_class *c,
		     const struct event *ev)
{
	int64_t prev = pf_int(c, ev, PF_F_PREV_PID, -1);
	int64_t next = pf_int(c, ev, PF_F_NEXT_PID, -1);
	int64_t state = pf_int(c, ev, PF_F_PREV_STATE, -1);
	struct pf_flow_ids fl = { .nend = 1 };
	struct schedlat_sample s;
	const struct proc *proc;
	struct proc woken;
	uint64_t uuid;
	int ret;

	if (prev < 0 || next < 0 || state == -1)
		return 0;
	/* prev_state is decoded unsigned (a dead task's 0x80 is 128) */
	ret = schedlat_switch(h->sched, (int32_t)prev, state, (int32_t)next,
			      ev->rec->timestamp, true, &s);
	if (ret <= 0)
		return ret;
	/* its process: lket-b2a's, else the wake-up record's */
	proc = procmap_thread(h->info->procs, (uint32_t)s.tid, ev->cpu);
	if ((!proc || proc->pid < 0) && s.pid >= 0) {
		memset(&woken, 0, sizeof(woken));
		woken.pid = s.pid;
		proc = &woken;
	}
	ret = pf_thread_track(p, h, (uint32_t)s.tid, proc, &uuid);
	if (ret)
		return ret;
	fl.end[0] = wake_id(h, s.tid, s.woken);
	return pf_track_mark(p, h, uuid, s.ran, PF_TRACKEVENT_TYPE_INSTANT,
			     "woken", &fl, "latency_ns",
			     (int64_t)(s.ran - s.woken));
}

int pf_sched_flows(struct pf *p, struct pf_host *h, const struct pf_class *c,
		   const struct event *ev, const struct proc *proc)
{
	if (c->sched == PF_SCHED_WAKEUP)
		return on_wakeup(p, h, c, ev, proc);
	if (c->sched == PF_SCHED_SWITCH)
		return on_switch(p, h, c, ev);
	return 0;
}

/* ---- the critical path -------------------------------------------------- */

struct path_ctx {
	struct pf *p;
	struct pf_host *h;
	uint64_t k;		/* segments so far */
	int32_t of;		/* the thread asked for */
};

/* The "critical path" track under thread tid's, described once. */
static int path_track(struct path_ctx *x, int32_t tid, uint64_t *uuid)
{
	struct pf *p = x->p;
	struct pf_host *h = x->h;
	struct pbuf *b = &p->out;
	uint64_t parent;
	char name[64];
	int ret;

	ret = pf_thread_track(p, h, (uint32_t)tid,
			      procmap_get(h->info->procs, (uint32_t)tid),
			      &parent);
	if (ret)
		return ret;
	*uuid = pf_uuid(h->index, PF_SUB_PATH, (uint32_t)tid);
	if (u64map_find(&h->threads, *uuid))
		return 0;
	ret = u64map_put(&h->threads, *uuid, 1);
	if (!ret)
		ret = pb_reserve(b, sizeof(name) + 16 * PB_FIELD_MAX);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "critical path of %d", x->of);
	pf_packet_head(p, h, 0);
	PB_OPEN(b, PF_TRACEPACKET_TRACK_DESCRIPTOR);
	PB_UINT(b, PF_TRACKDESCRIPTOR_UUID, *uuid);
	PB_UINT(b, PF_TRACKDESCRIPTOR_PARENT_UUID, parent);
	PB_STR(b, PF_TRACKDESCRIPTOR_NAME, name);
	return pb_close_all(b);
}

static int path_segment(void *ctx, const struct critpath_seg *s)
{
	static const char *const state[] = {
		[CRITPATH_RUNNING] = "running",
		[CRITPATH_RUNNABLE] = "runnable",
		[CRITPATH_BLOCKED] = "blocked",
		[CRITPATH_BLOCKED_ON] = "blocked on its waker",
	};
	struct path_ctx *x = ctx;
	struct pf_flow_ids fl = { 0 };
	uint64_t uuid;
	int ret = path_track(x, s->tid, &uuid);

	if (ret)
		return ret;
	/* from the segment before, to the next */
	if (x->k)
		fl.end[fl.nend++] = FLOW_PATH | x->k;
	fl.start[fl.nstart++] = FLOW_PATH | ++x->k;
	ret = pf_track_mark(x->p, x->h, uuid, s->start,
			    PF_TRACKEVENT_TYPE_SLICE_BEGIN, state[s->state],
			    &fl, s->state >= CRITPATH_BLOCKED ? "waker" :
			    "tid", s->state >= CRITPATH_BLOCKED ? s->waker :
			    s->tid);
	if (!ret)
		ret = pf_track_mark(x->p, x->h, uuid, s->end,
				    PF_TRACKEVENT_TYPE_SLICE_END, "", NULL,
				    NULL, 0);
	return ret;
}

int pf_critpath(struct pf *p, struct critpath *cp)
{
	struct path_ctx x = { .p = p, .h = &p->hosts[0] };

	x.of = critpath_tid(cp);
	return critpath_each(cp, path_segment, &x);
}
