// SPDX-License-Identifier: GPL-2.0
/*
 * rpcreport.c - --rpc-report: each matched RPC's time split into server and
 * wire (rpcreport.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/rpcreport.h"
#include "util/array.h"
#include "util/outbuf.h"

#define RPC_BUFFER	8192

enum { PART_TOTAL, PART_SERVER, PART_WIRE, NPARTS };

static const char *const part_names[NPARTS] = {
	"total", "server", "wire+queue",
};

struct samples {
	uint64_t *v;
	size_t n, cap;
};

/* One procedure of one client and server. */
struct proc_group {
	const char *client, *server;
	uint32_t prog, vers, proc;
	struct samples part[NPARTS];
	uint64_t incomplete;	/* no release or no send */
	uint64_t negative;	/* the server took longer than the call */
};

/* One client and server. */
struct host_pair {
	const char *client, *server;
	size_t calls, answered;
};

struct rpcreport {
	struct proc_group *g;
	size_t ng, gcap;
	struct host_pair *hp;
	size_t nhp, hpcap;
};

int rpcreport_new(struct rpcreport **r)
{
	*r = calloc(1, sizeof(**r));
	return *r ? 0 : -ENOMEM;
}

void rpcreport_free(struct rpcreport *r)
{
	size_t i, k;

	if (!r)
		return;
	for (i = 0; i < r->ng; i++)
		for (k = 0; k < NPARTS; k++)
			free(r->g[i].part[k].v);
	free(r->g);
	free(r->hp);
	free(r);
}

static int sample(struct samples *s, uint64_t v)
{
	int ret = array_grow((void **)&s->v, &s->cap, s->n, sizeof(*s->v));

	if (!ret)
		s->v[s->n++] = v;
	return ret;
}

static struct proc_group *group_of(struct rpcreport *r, const char *client,
				   const char *server,
				   const struct rpc_serve *s)
{
	struct proc_group *g;
	size_t i;

	for (i = 0; i < r->ng; i++) {
		g = &r->g[i];
		if (g->client == client && g->server == server &&
		    g->prog == s->prog && g->vers == s->vers &&
		    g->proc == s->proc)
			return g;
	}
	if (array_grow((void **)&r->g, &r->gcap, r->ng, sizeof(*r->g)))
		return NULL;
	g = &r->g[r->ng++];
	*g = (struct proc_group){ .client = client, .server = server,
				  .prog = s->prog, .vers = s->vers,
				  .proc = s->proc };
	return g;
}

int rpcreport_add(struct rpcreport *r, const char *client,
		  const char *server, const struct rpc_match *m, size_t n,
		  size_t calls)
{
	struct proc_group *g;
	uint64_t total, serve;
	size_t i;
	int ret;

	ret = array_grow((void **)&r->hp, &r->hpcap, r->nhp, sizeof(*r->hp));
	if (ret)
		return ret;
	r->hp[r->nhp++] = (struct host_pair){ client, server, calls, n };
	for (i = 0; i < n; i++) {
		const struct rpc_call *c = m[i].call;
		const struct rpc_serve *s = m[i].serve;

		g = group_of(r, client, server, s);
		if (!g)
			return -ENOMEM;
		if (!c->release || !s->send || c->release < c->execute ||
		    s->send < s->process) {
			g->incomplete++;
			continue;
		}
		total = c->release - c->execute;
		serve = s->send - s->process;
		if (serve > total) {
			g->negative++;
			continue;
		}
		ret = sample(&g->part[PART_TOTAL], total);
		if (!ret)
			ret = sample(&g->part[PART_SERVER], serve);
		if (!ret)
			ret = sample(&g->part[PART_WIRE], total - serve);
		if (ret)
			return ret;
	}
	return 0;
}

static const char *prog_name(uint32_t prog)
{
	switch (prog) {
	case 100000: return "portmap";
	case 100003: return "nfs";
	case 100005: return "mount";
	case 100021: return "nlockmgr";
	case 100024: return "status";
	case 100227: return "nfs_acl";
	default: return NULL;
	}
}

/* NFSv3's procedures (RFC 1813); NFSv4 has NULL and COMPOUND. */
static const char *const nfs3_procs[] = {
	"NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ",
	"WRITE", "CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR",
	"RENAME", "LINK", "READDIR", "READDIRPLUS", "FSSTAT", "FSINFO",
	"PATHCONF", "COMMIT",
};

static void proc_name(char *buf, size_t size, const struct proc_group *g)
{
	const char *prog = prog_name(g->prog), *proc = NULL;
	char num[16];

	if (g->prog == 100003 && g->vers == 3 &&
	    g->proc < sizeof(nfs3_procs) / sizeof(nfs3_procs[0]))
		proc = nfs3_procs[g->proc];
	else if (g->prog == 100003 && g->vers == 4 && g->proc <= 1)
		proc = g->proc ? "COMPOUND" : "NULL";
	snprintf(num, sizeof(num), "%u", g->proc);
	if (prog)
		snprintf(buf, size, "%s.v%u.%s", prog, g->vers,
			 proc ? proc : num);
	else
		snprintf(buf, size, "%u.v%u.%s", g->prog, g->vers, num);
}

static int cmp_group(const void *a, const void *b)
{
	const struct proc_group *x = a, *y = b;
	int c = strcmp(x->client, y->client);

	if (!c)
		c = strcmp(x->server, y->server);
	if (c)
		return c;
	if (x->prog != y->prog)
		return x->prog < y->prog ? -1 : 1;
	if (x->vers != y->vers)
		return x->vers < y->vers ? -1 : 1;
	return x->proc < y->proc ? -1 : x->proc > y->proc;
}

static void write_group(struct outbuf *w, struct proc_group *g)
{
	struct latency l;
	char name[64];
	size_t k;

	proc_name(name, sizeof(name), g);
	for (k = 0; k < NPARTS; k++) {
		memset(&l, 0, sizeof(l));
		latency_sum_up(&l, g->part[k].v, g->part[k].n);
		if (k == PART_TOTAL)
			outbuf_printf(w, "%-24s %8llu", name,
				      (unsigned long long)l.count);
		else
			outbuf_printf(w, "%-24s %8s", "", "");
		outbuf_printf(w, " %-10s", part_names[k]);
		report_put_us(w, l.p50);
		report_put_us(w, l.p90);
		report_put_us(w, l.p99);
		report_put_us(w, l.max);
		outbuf_printf(w, "\n");
	}
	if (g->incomplete)
		outbuf_printf(w, "    %llu left out: no release_task or no svc.send\n",
			      (unsigned long long)g->incomplete);
	if (g->negative)
		outbuf_printf(w, "    %llu left out: the server took longer than the call\n",
			      (unsigned long long)g->negative);
}

int rpcreport_write(struct rpcreport *r, int fd)
{
	struct outbuf ob, *w = &ob;
	const struct proc_group *prev = NULL;
	size_t i;
	int ret;

	ret = outbuf_init(w, fd, RPC_BUFFER);
	if (ret)
		return ret;
	if (r->ng > 1)
		qsort(r->g, r->ng, sizeof(*r->g), cmp_group);
	outbuf_printf(w, "# lket-b2a RPC report; times in microseconds\n");
	outbuf_printf(w, "# total: the client's sunrpc.sched.execute.entry to its sunrpc.sched.release_task.entry\n");
	outbuf_printf(w, "# server: the server's sunrpc.svc.process.entry to its sunrpc.svc.send.entry\n");
	outbuf_printf(w, "# wire+queue: total - server: the network both ways, the client's and the server's queues\n");
	for (i = 0; i < r->nhp; i++)
		outbuf_printf(w, "\nclient %s, server %s: %zu of %zu calls answered\n",
			      r->hp[i].client, r->hp[i].server,
			      r->hp[i].answered, r->hp[i].calls);
	for (i = 0; i < r->ng; i++) {
		if (!prev || prev->client != r->g[i].client ||
		    prev->server != r->g[i].server) {
			outbuf_printf(w, "\nclient %s, server %s\n%-24s %8s %-10s %18s %18s %18s %18s\n",
				      r->g[i].client, r->g[i].server,
				      "procedure", "count", "part", "p50",
				      "p90", "p99", "max");
		}
		prev = &r->g[i];
		write_group(w, &r->g[i]);
	}
	ret = outbuf_flush(w);
	outbuf_free(w);
	return ret;
}
