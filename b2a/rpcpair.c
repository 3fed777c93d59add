// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/lket_ids.h"
#include "rpcpair.h"

enum rpc_kind { RPC_EXECUTE, RPC_RELEASE, RPC_PROCESS, RPC_SEND };

struct rpc_ev {
	uint64_t ts;
	uint32_t xid, prog;
	uint8_t kind, vers, proc;
};

static const bool wanted[LKET_NR_EVENTS] = {
	[LKET_EV_SUNRPC_SCHED_EXECUTE_ENTRY] = true,
	[LKET_EV_SUNRPC_SCHED_RELEASE_TASK_ENTRY] = true,
	[LKET_EV_SUNRPC_SVC_PROCESS_ENTRY] = true,
	[LKET_EV_SUNRPC_SVC_SEND_ENTRY] = true,
};

const bool *rpc_events(void)
{
	return wanted;
}

void rpc_host_init(struct rpc_host *h)
{
	memset(h, 0, sizeof(*h));
}

void rpc_host_free(struct rpc_host *h)
{
	free(h->ev);
	free(h->calls);
	free(h->serves);
	rpc_host_init(h);
}

int rpc_host_event(struct rpc_host *h, const struct event *ev)
{
	struct rpc_ev *bigger, *e;
	bool client;

	if (!ev->meta || ev->meta->ev < 0 || !wanted[ev->meta->ev])
		return 0;
	if (h->nev == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 1024;
		bigger = realloc(h->ev, h->cap * sizeof(*h->ev));
		if (!bigger)
			return -ENOMEM;
		h->ev = bigger;
	}
	client = ev->meta->ev == LKET_EV_SUNRPC_SCHED_EXECUTE_ENTRY ||
		 ev->meta->ev == LKET_EV_SUNRPC_SCHED_RELEASE_TASK_ENTRY;
	e = &h->ev[h->nev++];
	e->ts = ev->rec->timestamp;
	e->xid = (uint32_t)event_int(ev, client ? "xid" : "rq_xid", 0);
	e->prog = (uint32_t)event_int(ev, client ? "prog" : "rq_prog", 0);
	e->vers = (uint8_t)event_int(ev, "rq_vers", 0);
	e->proc = (uint8_t)event_int(ev, "rq_proc", 0);
	e->kind = ev->meta->ev == LKET_EV_SUNRPC_SCHED_EXECUTE_ENTRY ?
		  RPC_EXECUTE :
		  ev->meta->ev == LKET_EV_SUNRPC_SCHED_RELEASE_TASK_ENTRY ?
		  RPC_RELEASE :
		  ev->meta->ev == LKET_EV_SUNRPC_SVC_PROCESS_ENTRY ?
		  RPC_PROCESS : RPC_SEND;
	return 0;
}

/* By side (client first), xid, program, then time: stable folding. */
static int cmp_ev(const void *a, const void *b)
{
	const struct rpc_ev *x = a, *y = b;
	int sx = x->kind >= RPC_PROCESS, sy = y->kind >= RPC_PROCESS;

	if (sx != sy)
		return sx - sy;
	if (x->xid != y->xid)
		return x->xid < y->xid ? -1 : 1;
	if (x->prog != y->prog)
		return x->prog < y->prog ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static void fold_call(struct rpc_host *h, const struct rpc_ev *e)
{
	struct rpc_call *c = h->ncalls ? &h->calls[h->ncalls - 1] : NULL;

	if (!c || c->xid != e->xid || c->prog != e->prog) {
		/* a release without execute starts nothing */
		if (e->kind != RPC_EXECUTE)
			return;
		c = &h->calls[h->ncalls++];
		*c = (struct rpc_call){ .xid = e->xid, .prog = e->prog,
					.execute = e->ts };
		return;
	}
	if (e->kind == RPC_RELEASE)
		c->release = e->ts;	/* the last, in time order */
}

static void fold_serve(struct rpc_host *h, const struct rpc_ev *e)
{
	struct rpc_serve *s = h->nserves ? &h->serves[h->nserves - 1] : NULL;

	if (!s || s->xid != e->xid || s->prog != e->prog) {
		if (e->kind != RPC_PROCESS)
			return;
		s = &h->serves[h->nserves++];
		*s = (struct rpc_serve){ .xid = e->xid, .prog = e->prog,
					 .vers = e->vers, .proc = e->proc,
					 .process = e->ts };
		return;
	}
	if (e->kind == RPC_SEND && !s->send)
		s->send = e->ts;
}

int rpc_host_finish(struct rpc_host *h)
{
	size_t i;

	h->calls = calloc(h->nev ? h->nev : 1, sizeof(*h->calls));
	h->serves = calloc(h->nev ? h->nev : 1, sizeof(*h->serves));
	if (!h->calls || !h->serves)
		return -ENOMEM;
	if (h->nev > 1)
		qsort(h->ev, h->nev, sizeof(*h->ev), cmp_ev);
	for (i = 0; i < h->nev; i++) {
		if (h->ev[i].kind < RPC_PROCESS)
			fold_call(h, &h->ev[i]);
		else
			fold_serve(h, &h->ev[i]);
	}
	free(h->ev);
	h->ev = NULL;
	h->nev = h->cap = 0;
	return 0;
}

int rpc_match(const struct rpc_host *client, const struct rpc_host *server,
	      struct rpc_match **m, size_t *n)
{
	size_t i = 0, j = 0, k = 0;
	const struct rpc_call *c;
	const struct rpc_serve *s;

	*n = 0;
	*m = malloc((client->ncalls ? client->ncalls : 1) * sizeof(**m));
	if (!*m)
		return -ENOMEM;
	while (i < client->ncalls && j < server->nserves) {
		c = &client->calls[i];
		s = &server->serves[j];
		if (c->xid != s->xid ? c->xid < s->xid : c->prog < s->prog) {
			i++;
		} else if (c->xid != s->xid || c->prog != s->prog) {
			j++;
		} else {
			(*m)[k++] = (struct rpc_match){ c, s };
			i++;
			j++;
		}
	}
	*n = k;
	return 0;
}
