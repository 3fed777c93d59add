/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source.h - one host's trace as a source of events in time order: its
 * per-CPU files merged by time, its own metadata, process map, flush
 * sequence tracking and trace header.  Each step decodes one record and
 * hands it to the output (or, in scan mode, the few events asked for to
 * a callback).  convert.c drives one source; multihost.c merges several
 * by their aligned times.
 */
#ifndef LKET_SOURCE_H
#define LKET_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"
#include "output/output.h"
#include "pipeline/stats.h"
#include "util/diag.h"

/*
 * A host's clock on the common time base (the first host's clock):
 * t + offset + floor(slope * (t - pivot)), never below 0.  With |slope|
 * < 1 the mapping never decreases, so the host's own order stays.
 */
struct source_clock {
	int64_t offset;		/* ns added at pivot */
	int64_t pivot;		/* in the host's clock */
	double slope;		/* drift: ns per ns of the host's clock */
};

static inline uint64_t source_clock_map(const struct source_clock *k,
					uint64_t t)
{
	double d = k->slope * (double)((int64_t)t - k->pivot);
	int64_t f = (int64_t)d, v;

	/* floor: truncation and floor both keep the order */
	if ((double)f > d)
		f--;
	v = (int64_t)t + k->offset + f;

	return v > 0 ? (uint64_t)v : 0;
}

/* Scan mode: called with each decoded event of the kinds asked for. */
typedef int (*source_scan_fn)(void *ctx, const struct event *ev);

struct follow;

struct source_options {
	struct filter *filter;	/* NULL: every event goes out */
	struct report *report;	/* NULL: no latency report */
	struct offcpu *offcpu;	/* NULL: no off-CPU report */
	struct critpath *critpath;	/* NULL: no critical path */
	struct symbols *symbols;	/* NULL: call stacks as addresses */
	const char *host;	/* set as each event's host; NULL: none */
	const struct source_clock *clock;	/* NULL: timestamps as read */
	/* NULL, or the trace is still being written: follow it
	   (input/follow.h) */
	struct follow *follow;
	/* scan mode when set: want[LKET_EV_x] says which events go to
	 * scan; nothing goes to the output, not even lost flushes */
	source_scan_fn scan;
	void *scan_ctx;
	const bool *scan_want;
};

struct source;

/* out: where events go (unused in scan mode, may be NULL then). */
int source_new(struct source **s, struct output *out, struct diag *diag,
	       struct convert_stats *stats, const struct source_options *opt);
/* The trace's header and first time: complete after source_open(); when
 * following a trace whose CPU is quiet, the first time once its first
 * event is stepped to. */
const struct trace_info *source_info(const struct source *s);
/*
 * Open the files and read their leading metadata.  -ENOENT: none could
 * be read; -ENODATA: a wall-clock filter and no trace header.
 */
int source_open(struct source *s, const char *const *paths, size_t npaths);
/* The merge key of the next record, on the common time base; false at
 * the end. */
bool source_peek(const struct source *s, uint64_t *key);
/* Decode the next record and hand it on; 0 or a negative errno. */
int source_step(struct source *s);
/*
 * Scan mode, instead of the steps: each file's records in file order,
 * not merged (the caller sorts what it wants), flush numbers unchecked;
 * the fast way to find a few kinds of event.
 */
int source_scan(struct source *s);
/* Bytes read so far, and the files' total (0: not known). */
void source_progress(const struct source *s, uint64_t *done,
		     uint64_t *total);
/* End of trace: lost flushes accounted for; the first output error, or
 * -ENOMSG when no file holds a record of LKET's (no trace). */
int source_finish(struct source *s);
void source_free(struct source *s);

#endif
