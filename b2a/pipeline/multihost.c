// SPDX-License-Identifier: GPL-2.0
/*
 * multihost.c - several hosts' traces as one timeline: a first pass for
 * their RPCs and clocks, then one merge (multihost.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rpcpair.h"
#include "analysis/rpcreport.h"
#include "input/merge.h"
#include "pipeline/multihost.h"

/* What the first pass learns of a host. */
struct scan {
	struct rpc_host rpc;
	bool have_header;
	bool no_files;		/* the second pass says why */
	int64_t wall_offset;
};

static int scan_event(void *ctx, const struct event *ev)
{
	return rpc_host_event(ctx, ev);
}

/*
 * The first pass over one host: its RPC events and its header.  What is
 * wrong with the input is said by the second pass: not twice.
 */
static int scan_host(const struct host_trace *h, struct scan *sc)
{
	struct diag quiet = { 0 };
	struct convert_stats stats;
	struct source_options sopt = {
		.scan = scan_event,
		.scan_ctx = &sc->rpc,
		.scan_want = rpc_events(),
	};
	struct source *src;
	int ret;

	ret = source_new(&src, NULL, &quiet, &stats, &sopt);
	if (ret)
		return ret;
	ret = source_open(src, h->paths, h->npaths);
	if (!ret)
		ret = source_scan(src);
	sc->no_files = ret == -ENOENT;
	sc->have_header = source_info(src)->have_header;
	sc->wall_offset = source_info(src)->wall_offset;
	source_free(src);
	if (!ret)
		ret = rpc_host_finish(&sc->rpc);
	/* the second pass reports unreadable files */
	return ret == -ENOMEM ? ret : 0;
}

/*
 * The bounds that host j's RPCs with the reference (host 0) put on j's
 * correction c (reference time = j's time + wall diff + c): a call is
 * sent before the server takes it in, its reply sent before the client
 * has it.
 */
static int bound_pairs(const struct scan *ref, const struct scan *sj,
		       int64_t wd, struct align *a)
{
	struct rpc_match *m;
	size_t n, i;
	int64_t t;
	int ret;

	/* the reference the client */
	ret = rpc_match(&ref->rpc, &sj->rpc, &m, &n);
	for (i = 0; !ret && i < n; i++) {
		t = (int64_t)m[i].serve->process + wd;
		ret = align_add(a, t, (int64_t)m[i].call->execute - t, false);
		if (ret || !m[i].call->release || !m[i].serve->send)
			continue;
		t = (int64_t)m[i].serve->send + wd;
		ret = align_add(a, t, (int64_t)m[i].call->release - t, true);
	}
	free(m);
	if (ret)
		return ret;
	/* the reference the server */
	ret = rpc_match(&sj->rpc, &ref->rpc, &m, &n);
	for (i = 0; !ret && i < n; i++) {
		t = (int64_t)m[i].call->execute + wd;
		ret = align_add(a, t, (int64_t)m[i].serve->process - t, true);
		if (ret || !m[i].call->release || !m[i].serve->send)
			continue;
		t = (int64_t)m[i].call->release + wd;
		ret = align_add(a, t, (int64_t)m[i].serve->send - t, false);
	}
	free(m);
	return ret;
}

/* Host j's clock on the reference's: wall clock, then the RPC pairs. */
static int align_host(const struct host_trace *hosts, const struct scan *sc,
		      size_t j, struct host_clock *k, struct diag *diag)
{
	struct align a;
	int ret;

	k->wall = sc[0].have_header && sc[j].have_header;
	k->wall_diff = k->wall ? sc[j].wall_offset - sc[0].wall_offset : 0;
	k->clock = (struct source_clock){ .offset = k->wall_diff };
	k->status = -ENODATA;
	if (sc[0].no_files || sc[j].no_files)
		return 0;
	align_init(&a);
	ret = bound_pairs(&sc[0], &sc[j], k->wall_diff, &a);
	if (!ret)
		ret = align_fit(&a, &k->fit);
	align_free(&a);
	k->status = ret;
	if (ret == -ENOMEM)
		return ret;
	if (!ret) {
		k->clock.offset += (int64_t)(k->fit.offset < 0 ?
					     k->fit.offset - 0.5 :
					     k->fit.offset + 0.5);
		k->clock.pivot = k->fit.pivot - k->wall_diff;
		k->clock.slope = k->fit.drift;
		return 0;
	}
	diagf(diag, DIAG_NOTE, NULL, -1,
	      "host %s: %s with host %s: its clock is put on %s's by %s",
	      hosts[j].label,
	      ret == -EDOM ? "the RPC pairs contradict each other" :
	      "no RPC pairs", hosts[0].label, hosts[0].label,
	      k->wall ? "the trace headers' wall-clock offsets" :
	      "nothing (a trace has no header): as recorded");
	return 0;
}

/* Every client-server pair of hosts into the RPC report. */
static int rpc_report(const struct host_trace *hosts, const struct scan *sc,
		      size_t n, struct rpcreport *r)
{
	struct rpc_match *m;
	size_t i, j, nm;
	int ret = 0;

	for (i = 0; !ret && i < n; i++)
		for (j = 0; !ret && j < n; j++) {
			if (i == j || !sc[i].rpc.ncalls)
				continue;
			ret = rpc_match(&sc[i].rpc, &sc[j].rpc, &m, &nm);
			if (!ret && nm)
				ret = rpcreport_add(r, hosts[i].label,
						    hosts[j].label, m, nm,
						    sc[i].rpc.ncalls);
			free(m);
		}
	return ret;
}

static void free_scans(struct scan *sc, size_t n)
{
	size_t i;

	for (i = 0; sc && i < n; i++)
		rpc_host_free(&sc[i].rpc);
	free(sc);
}

/* The first pass: each host's clock, and the RPC report; its RPCs in
 * *scans (free_scans()), which the outputs are told of. */
static int first_pass(const struct host_trace *hosts, size_t n,
		      struct diag *diag, const struct multihost_options *opt,
		      struct host_clock *clocks, struct scan **scans)
{
	struct scan *sc = calloc(n, sizeof(*sc));
	size_t i;
	int ret = sc ? 0 : -ENOMEM;

	for (i = 0; !ret && i < n; i++) {
		rpc_host_init(&sc[i].rpc);
		ret = scan_host(&hosts[i], &sc[i]);
	}
	if (!ret)
		clocks[0] = (struct host_clock){ .status = 1 };
	for (i = 1; !ret && i < n; i++)
		ret = align_host(hosts, sc, i, &clocks[i], diag);
	if (!ret && opt && opt->rpc)
		ret = rpc_report(hosts, sc, n, opt->rpc);
	*scans = sc;
	return ret;
}

static void add_stats(struct convert_stats *sum,
		      const struct convert_stats *s)
{
	sum->events += s->events;
	sum->filtered += s->filtered;
	sum->meta += s->meta;
	sum->lost += s->lost;
	sum->dropped += s->dropped;
	sum->bytes += s->bytes;
	sum->files += s->files;
}

/* A host's source in the merge: its place among the hosts breaks ties. */
struct host_src {
	struct source *src;
	unsigned int index;
};

static void host_key(const void *p, struct merge_key *k)
{
	const struct host_src *h = p;

	*k = (struct merge_key){ .tie = merge_tie(0, 0, h->index) };
	source_peek(h->src, &k->key);
}

static int host_step(void *p, struct merge_key *k)
{
	struct host_src *h = p;
	int ret = source_step(h->src);

	if (ret)
		return ret;
	if (!source_peek(h->src, &k->key))
		return 0;
	k->tie = merge_tie(0, 0, h->index);
	return 1;
}

static const struct merge_ops host_ops = {
	.key = host_key,
	.next = host_step,
};

/* The hosts' events as one timeline, oldest first: the merger of the
 * per-CPU files, over the hosts' sources. */
static int merge_hosts(struct source **src, size_t n)
{
	struct host_src *hs = calloc(n, sizeof(*hs));
	void **live = calloc(n, sizeof(*live));
	struct merge m = { 0 };
	size_t i, nlive = 0;
	uint64_t key;
	int ret = hs && live ? 0 : -ENOMEM;

	for (i = 0; !ret && i < n; i++) {
		hs[i] = (struct host_src){ src[i], (unsigned int)i };
		if (source_peek(src[i], &key))
			live[nlive++] = &hs[i];
	}
	if (!ret)
		ret = merge_init(&m, live, nlive, &host_ops);
	while (!ret && merge_peek(&m))
		ret = merge_advance(&m);
	merge_free(&m);
	free(live);
	free(hs);
	return ret;
}

/* Each host's source, told its label and clock, and what the outputs
 * are told of it. */
static int new_sources(const struct host_trace *hosts, size_t n,
		       struct output *out, struct diag *diag,
		       const struct multihost_options *opt,
		       const struct host_clock *clocks, struct source **src,
		       struct convert_stats *hs, struct trace_host *th,
		       const struct scan *sc)
{
	struct source_options sopt;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < n; i++) {
		sopt = (struct source_options){
			.filter = opt ? opt->filter : NULL,
			.host = hosts[i].label,
			.clock = i ? &clocks[i].clock : NULL,
		};
		ret = source_new(&src[i], out, diag, &hs[i], &sopt);
		if (ret)
			break;
		th[i] = (struct trace_host){
			.label = hosts[i].label,
			.info = source_info(src[i]),
			.clock_offset = clocks[i].clock.offset,
			.uncertainty = !i ? 0 : clocks[i].status ? -1 :
				       clocks[i].fit.uncertainty,
			.rpc = &sc[i].rpc,
		};
	}
	return ret;
}

/* Open each host's files; the reference's header, the first time of
 * all, in info. */
static int open_sources(const struct host_trace *hosts, size_t n,
			struct source **src, struct host_clock *clocks,
			struct trace_info *info)
{
	const struct trace_host *th = info->hosts;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < n; i++) {
		ret = source_open(src[i], hosts[i].paths, hosts[i].npaths);
		clocks[i].no_files = ret == -ENOENT;
	}
	if (ret)
		return ret;
	*info = *source_info(src[0]);
	info->hosts = th;
	info->nhosts = n;
	for (i = 1; i < n; i++)
		if (source_info(src[i])->first_ts < info->first_ts)
			info->first_ts = source_info(src[i])->first_ts;
	return 0;
}

int convert_hosts(const struct host_trace *hosts, size_t n,
		  struct output *out, struct diag *diag,
		  struct convert_stats *stats,
		  const struct multihost_options *opt,
		  struct host_clock *clocks)
{
	struct source **src = calloc(n, sizeof(*src));
	struct convert_stats *hs = calloc(n, sizeof(*hs));
	struct trace_host *th = calloc(n, sizeof(*th));
	struct trace_info info = { 0 };
	struct scan *sc = NULL;
	size_t i;
	int ret;

	memset(stats, 0, sizeof(*stats));
	ret = src && hs && th ? 0 : -ENOMEM;
	if (!ret)
		ret = first_pass(hosts, n, diag, opt, clocks, &sc);
	if (!ret)
		ret = new_sources(hosts, n, out, diag, opt, clocks, src, hs,
				  th, sc);
	info.hosts = th;
	info.nhosts = n;
	/* the reference's header, the first time of all: after the opens */
	if (!ret)
		ret = out->ops->begin(out, &info);
	if (!ret)
		ret = open_sources(hosts, n, src, clocks, &info);
	if (!ret)
		ret = merge_hosts(src, n);
	for (i = 0; !ret && i < n; i++)
		ret = source_finish(src[i]);
	if (!ret)
		ret = out->ops->finish(out);
	for (i = 0; src && i < n; i++) {
		source_free(src[i]);
		add_stats(stats, &hs[i]);
	}
	free_scans(sc, n);
	free(th);
	free(hs);
	free(src);
	return ret;
}
