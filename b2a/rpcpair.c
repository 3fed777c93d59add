// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/lket_ids.h"
#include "rpcpair.h"

#define NONE	UINT64_MAX	/* no such event seen (yet) */

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

static void table_free(struct rpc_table *t)
{
	free(t->slot);
	t->slot = NULL;
	t->mask = 0;
}

void rpc_host_free(struct rpc_host *h)
{
	table_free(&h->call_table);
	table_free(&h->serve_table);
	free(h->calls);
	free(h->serves);
	rpc_host_init(h);
}

static uint32_t hash(uint32_t xid, uint32_t prog)
{
	uint64_t k = ((uint64_t)prog << 32 | xid) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(k >> 32);
}

/*
 * The slot of (xid, prog) in t, whose entries are indexes + 1 into an
 * array of n entries that key() reads; 0 is an empty slot.
 */
#define LOOKUP(t, arr, xid_, prog_) ({					\
	uint32_t i_ = hash(xid_, prog_) & (t)->mask;			\
	while ((t)->slot[i_] && ((arr)[(t)->slot[i_] - 1].xid != (xid_) || \
				 (arr)[(t)->slot[i_] - 1].prog != (prog_))) \
		i_ = (i_ + 1) & (t)->mask;				\
	i_;								\
})

/* Room for one more of n entries: at most half full. */
#define GROW(t, arr, n, ret) do {					\
	uint32_t *old_ = (t)->slot, size_ = (t)->mask + 1, j_;		\
	(ret) = 0;							\
	if (old_ && 2 * ((n) + 1) <= size_)				\
		break;							\
	size_ = old_ ? 2 * size_ : 1024;				\
	while (size_ < 2 * ((n) + 1))					\
		size_ *= 2;						\
	(t)->slot = calloc(size_, sizeof(*(t)->slot));			\
	if (!(t)->slot) {						\
		(t)->slot = old_;					\
		(ret) = -ENOMEM;					\
		break;							\
	}								\
	(t)->mask = size_ - 1;						\
	for (j_ = 0; j_ < (n); j_++)					\
		(t)->slot[LOOKUP(t, arr, (arr)[j_].xid,			\
				 (arr)[j_].prog)] = j_ + 1;		\
	free(old_);							\
} while (0)

static int grow_array(void **arr, size_t *cap, size_t n, size_t size)
{
	void *bigger;

	if (n < *cap)
		return 0;
	*cap = *cap ? 2 * *cap : 1024;
	bigger = realloc(*arr, *cap * size);
	if (!bigger)
		return -ENOMEM;
	*arr = bigger;
	return 0;
}

/* The call (xid, prog) of h, made if new. */
static struct rpc_call *call_of(struct rpc_host *h, uint32_t xid,
				uint32_t prog)
{
	struct rpc_table *t = &h->call_table;
	uint32_t i;
	int ret;

	GROW(t, h->calls, h->ncalls, ret);
	if (!ret)
		ret = grow_array((void **)&h->calls, &h->calls_cap, h->ncalls,
				 sizeof(*h->calls));
	if (ret)
		return NULL;
	i = LOOKUP(t, h->calls, xid, prog);
	if (!t->slot[i]) {
		h->calls[h->ncalls] = (struct rpc_call){ .xid = xid,
			.prog = prog, .execute = NONE };
		t->slot[i] = (uint32_t)++h->ncalls;
	}
	return &h->calls[t->slot[i] - 1];
}

static struct rpc_serve *serve_of(struct rpc_host *h, uint32_t xid,
				  uint32_t prog)
{
	struct rpc_table *t = &h->serve_table;
	uint32_t i;
	int ret;

	GROW(t, h->serves, h->nserves, ret);
	if (!ret)
		ret = grow_array((void **)&h->serves, &h->serves_cap,
				 h->nserves, sizeof(*h->serves));
	if (ret)
		return NULL;
	i = LOOKUP(t, h->serves, xid, prog);
	if (!t->slot[i]) {
		h->serves[h->nserves] = (struct rpc_serve){ .xid = xid,
			.prog = prog, .process = NONE, .send = NONE };
		t->slot[i] = (uint32_t)++h->nserves;
	}
	return &h->serves[t->slot[i] - 1];
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
	uint64_t ts = ev->rec->timestamp;
	struct rpc_serve *s;
	struct rpc_call *c;
	const int *idx;
	int e;

	if (!ev->meta || ev->meta->ev < 0 || !wanted[ev->meta->ev])
		return 0;
	e = ev->meta->ev;
	if (e == LKET_EV_SUNRPC_SCHED_EXECUTE_ENTRY ||
	    e == LKET_EV_SUNRPC_SCHED_RELEASE_TASK_ENTRY) {
		idx = fields_of(h, ev, true);
		c = call_of(h, field(ev, idx[0]), field(ev, idx[1]));
		if (!c)
			return -ENOMEM;
		if (e == LKET_EV_SUNRPC_SCHED_EXECUTE_ENTRY) {
			if (ts < c->execute)
				c->execute = ts;
		} else if (ts > c->release) {
			c->release = ts;
		}
		return 0;
	}
	idx = fields_of(h, ev, false);
	s = serve_of(h, field(ev, idx[0]), field(ev, idx[1]));
	if (!s)
		return -ENOMEM;
	if (e == LKET_EV_SUNRPC_SVC_PROCESS_ENTRY) {
		if (ts < s->process) {
			s->process = ts;
			s->vers = field(ev, idx[2]) & 0xff;
			s->proc = field(ev, idx[3]) & 0xff;
		}
	} else if (ts < s->send) {
		s->send = ts;
	}
	return 0;
}

int rpc_host_finish(struct rpc_host *h)
{
	size_t i, n;
	int ret;

	/* a release without execute, a send without process: dropped */
	for (i = n = 0; i < h->ncalls; i++)
		if (h->calls[i].execute != NONE) {
			h->calls[n] = h->calls[i];
			if (h->calls[n].release < h->calls[n].execute)
				h->calls[n].release = 0;
			n++;
		}
	h->ncalls = n;
	for (i = n = 0; i < h->nserves; i++)
		if (h->serves[i].process != NONE) {
			h->serves[n] = h->serves[i];
			if (h->serves[n].send == NONE ||
			    h->serves[n].send < h->serves[n].process)
				h->serves[n].send = 0;
			n++;
		}
	h->nserves = n;
	/* the server's table, for rpc_match(): indexes have moved */
	table_free(&h->call_table);
	table_free(&h->serve_table);
	GROW(&h->serve_table, h->serves, h->nserves, ret);
	return ret;
}

int rpc_match(const struct rpc_host *client, const struct rpc_host *server,
	      struct rpc_match **m, size_t *n)
{
	const struct rpc_table *t = &server->serve_table;
	const struct rpc_call *c;
	size_t i, k = 0;
	uint32_t j;

	*n = 0;
	*m = malloc((client->ncalls ? client->ncalls : 1) * sizeof(**m));
	if (!*m)
		return -ENOMEM;
	for (i = 0; i < client->ncalls && t->slot; i++) {
		c = &client->calls[i];
		j = LOOKUP(t, server->serves, c->xid, c->prog);
		if (t->slot[j])
			(*m)[k++] = (struct rpc_match){
				c, &server->serves[t->slot[j] - 1] };
	}
	*n = k;
	return 0;
}
