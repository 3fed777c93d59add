// SPDX-License-Identifier: GPL-2.0
/*
 * rpcpair.c - SUNRPC calls of each host, matched client to server across
 * hosts (rpcpair.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rpcpair.h"
#include "runtime/lket_ids.h"

#define NONE	UINT64_MAX	/* no such event seen */

/* An RPC event as it came: its key (program, xid), time, and whether it
 * begins its side (execute, process) or ends it (release, send). */
struct rpc_ev {
	uint64_t key, ts;
	uint8_t vers, proc;
	bool first;
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
	free(h->ev[0]);
	free(h->ev[1]);
	free(h->calls);
	free(h->serves);
	rpc_host_init(h);
}

static uint64_t key_of(uint32_t xid, uint32_t prog)
{
	return (uint64_t)prog << 32 | xid;
}

/*
 * Sort by key: least significant byte first, stable, a pass skipped when
 * every key has the same byte there (the program, mostly).  Linear, and
 * it reads and writes in order: no cache miss per event, as a hash has.
 */
static int radix_sort(struct rpc_ev *v, size_t n)
{
	struct rpc_ev *tmp, *a = v, *b, *swap;
	size_t count[256], i, sum, c;
	unsigned int shift;

	if (n < 2)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	b = tmp;
	for (shift = 0; shift < 64; shift += 8) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(a[i].key >> shift) & 0xff]++;
		if (count[(a[0].key >> shift) & 0xff] == n)
			continue;
		for (sum = 0, i = 0; i < 256; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[count[(a[i].key >> shift) & 0xff]++] = a[i];
		swap = a;
		a = b;
		b = swap;
	}
	if (a != v)
		memcpy(v, a, n * sizeof(*v));
	free(tmp);
	return 0;
}

/* The value of a field, by its index in the event's metadata. */
static int field_index(const struct event *ev, const char *name)
{
	unsigned int i;

	for (i = 0; i < ev->nvalues; i++)
		if (!strcmp(ev->v[i].f->name, name))
			return (int)i;
	return -1;
}

/* Where the fields of an event's metadata are, looked up once. */
static const int *fields_of(struct rpc_host *h, const struct event *ev,
			    bool client)
{
	static const char *const names[2][4] = {
		{ "rq_xid", "rq_prog", "rq_vers", "rq_proc" },
		{ "xid", "prog", NULL, NULL },
	};
	struct rpc_fields *f;
	size_t i, k;

	for (i = 0; i < RPC_FIELD_CACHE && h->fields[i].meta; i++)
		if (h->fields[i].meta == ev->meta &&
		    h->fields[i].nvalues == ev->nvalues)
			return h->fields[i].idx;
	f = &h->fields[i < RPC_FIELD_CACHE ? i : 0];
	f->meta = ev->meta;
	f->nvalues = ev->nvalues;
	for (k = 0; k < 4; k++)
		f->idx[k] = names[client][k] ? field_index(ev, names[client][k]) :
			    -1;
	return f->idx;
}

static uint32_t field(const struct event *ev, int i)
{
	return i >= 0 && ev->v[i].f->type != LKET_STRING ?
	       (uint32_t)ev->v[i].i : 0;
}

int rpc_host_event(struct rpc_host *h, const struct event *ev)
{
	struct rpc_ev *bigger, *e;
	const int *idx;
	bool client;
	int k;

	if (!ev->meta || ev->meta->ev < 0 || !wanted[ev->meta->ev])
		return 0;
	k = ev->meta->ev;
	client = k == LKET_EV_SUNRPC_SCHED_EXECUTE_ENTRY ||
		 k == LKET_EV_SUNRPC_SCHED_RELEASE_TASK_ENTRY;
	if (h->nev[client] == h->cap[client]) {
		h->cap[client] = h->cap[client] ? 2 * h->cap[client] : 1024;
		bigger = realloc(h->ev[client],
				 h->cap[client] * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		h->ev[client] = bigger;
	}
	idx = fields_of(h, ev, client);
	e = &h->ev[client][h->nev[client]++];
	e->key = key_of(field(ev, idx[0]), field(ev, idx[1]));
	e->ts = ev->rec->timestamp;
	e->vers = (uint8_t)field(ev, idx[2]);
	e->proc = (uint8_t)field(ev, idx[3]);
	e->first = k == LKET_EV_SUNRPC_SCHED_EXECUTE_ENTRY ||
		   k == LKET_EV_SUNRPC_SVC_PROCESS_ENTRY;
	return 0;
}

/* The events of one key, client's: its call, if it was executed. */
static void fold_call(struct rpc_host *h, const struct rpc_ev *e, size_t n)
{
	struct rpc_call c = { .xid = (uint32_t)e->key,
			      .prog = (uint32_t)(e->key >> 32),
			      .execute = NONE };
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i].first && e[i].ts < c.execute)
			c.execute = e[i].ts;
		else if (!e[i].first && e[i].ts > c.release)
			c.release = e[i].ts;
	if (c.execute == NONE)
		return;
	if (c.release < c.execute)
		c.release = 0;
	h->calls[h->ncalls++] = c;
}

/* The events of one key, server's: its half, if it was processed. */
static void fold_serve(struct rpc_host *h, const struct rpc_ev *e, size_t n)
{
	struct rpc_serve s = { .xid = (uint32_t)e->key,
			       .prog = (uint32_t)(e->key >> 32),
			       .process = NONE, .send = NONE };
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i].first && e[i].ts < s.process) {
			s.process = e[i].ts;
			s.vers = e[i].vers;
			s.proc = e[i].proc;
		} else if (!e[i].first && e[i].ts < s.send) {
			s.send = e[i].ts;
		}
	if (s.process == NONE)
		return;
	if (s.send == NONE || s.send < s.process)
		s.send = 0;
	h->serves[h->nserves++] = s;
}

int rpc_host_finish(struct rpc_host *h)
{
	size_t side, i, j;
	int ret;

	h->calls = malloc((h->nev[1] ? h->nev[1] : 1) * sizeof(*h->calls));
	h->serves = malloc((h->nev[0] ? h->nev[0] : 1) * sizeof(*h->serves));
	if (!h->calls || !h->serves)
		return -ENOMEM;
	for (side = 0; side < 2; side++) {
		ret = radix_sort(h->ev[side], h->nev[side]);
		if (ret)
			return ret;
		for (i = 0; i < h->nev[side]; i = j) {
			for (j = i + 1; j < h->nev[side] &&
			     h->ev[side][j].key == h->ev[side][i].key; j++)
				;
			if (side)
				fold_call(h, &h->ev[side][i], j - i);
			else
				fold_serve(h, &h->ev[side][i], j - i);
		}
		free(h->ev[side]);
		h->ev[side] = NULL;
		h->nev[side] = h->cap[side] = 0;
	}
	return 0;
}

int rpc_match(const struct rpc_host *client, const struct rpc_host *server,
	      struct rpc_match **m, size_t *n)
{
	size_t i = 0, j = 0, k = 0;
	uint64_t a, b;

	*n = 0;
	*m = malloc((client->ncalls ? client->ncalls : 1) * sizeof(**m));
	if (!*m)
		return -ENOMEM;
	/* both sorted by program, then xid */
	while (i < client->ncalls && j < server->nserves) {
		a = key_of(client->calls[i].xid, client->calls[i].prog);
		b = key_of(server->serves[j].xid, server->serves[j].prog);
		if (a < b) {
			i++;
		} else if (a > b) {
			j++;
		} else {
			(*m)[k++] = (struct rpc_match){ &client->calls[i],
							&server->serves[j] };
			i++;
			j++;
		}
	}
	*n = k;
	return 0;
}
