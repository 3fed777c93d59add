/* SPDX-License-Identifier: GPL-2.0 */
/*
 * multihost.h - the traces of several hosts as one timeline.
 *
 * A first pass reads each host's SUNRPC calls (rpcpair.h), which bound
 * how each host's clock stands against the first host's (align.h), the
 * reference: first the trace headers' wall-clock offsets, then the RPC
 * pairs refine them.  The second pass merges the hosts' sources
 * (source.h), each on the common time base, into one output, oldest
 * event first, ties to the host given first; the mapping never goes
 * back, so a host's own order stays as it was.
 */
#ifndef LKET_MULTIHOST_H
#define LKET_MULTIHOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/align.h"
#include "output/output.h"
#include "pipeline/convert.h"
#include "pipeline/source.h"
#include "util/diag.h"

struct host_trace {
	const char *label;
	const char *const *paths;
	size_t npaths;
};

/* How a host's clock was put on the reference's. */
struct host_clock {
	/* 0: refined by RPC pairs; -ENODATA: no pairs; -EDOM: the pairs
	 * contradict each other; 1: the reference itself */
	int status;
	bool wall;		/* the headers' wall-clock offsets were used */
	bool no_files;		/* none of the host's files could be read */
	int64_t wall_diff;	/* ns added by them */
	struct align_result fit;	/* status 0: the refinement */
	struct source_clock clock;	/* what the second pass used */
};

struct rpcreport;

struct multihost_options {
	struct filter *filter;	/* NULL: every event; no time bounds */
	struct rpcreport *rpc;	/* NULL: no RPC report */
};

/*
 * Convert the n hosts' traces into out; clocks (n of them) says how each
 * clock was aligned.  Returns as convert_ex(); -ENOENT when a host's
 * files could not be read (its clock says which).
 */
int convert_hosts(const struct host_trace *hosts, size_t n,
		  struct output *out, struct diag *diag,
		  struct convert_stats *stats,
		  const struct multihost_options *opt,
		  struct host_clock *clocks);

#endif
