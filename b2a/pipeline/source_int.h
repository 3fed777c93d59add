/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source_int.h - inside a source (source.h), for the files that make it
 * up: source.c opens, peeks and steps; deliver.c takes one record through
 * decode, the analyses and the output; metarec.c applies group-0 records
 * by a table keyed by hook; tasks.c keeps the process map; losses.c
 * accounts for lost flushes, dropped records and the trace's end.
 */
#ifndef LKET_SOURCE_INT_H
#define LKET_SOURCE_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "analysis/endcheck.h"
#include "analysis/procmap.h"
#include "analysis/seqtrack.h"
#include "decode/decode.h"
#include "decode/meta.h"
#include "input/merge.h"
#include "input/stream.h"
#include "pipeline/source.h"

/* a bit for every group << 8 | hook */
#define LKET_SKIP_BYTES	(65536 / 8)

/* Read window per file: large enough to read in big gulps, small enough
 * that a 256-CPU trace stays well under 32 MiB. */
#define WINDOW_TOTAL	(16u << 20)
#define WINDOW_MAX	(1u << 20)

struct source {
	struct meta meta;
	/* the catalogue's, for events the trace has no metadata of; each
	 * (group, hook) looked up once: bit set in catalogue_tried */
	struct meta fallback;
	uint8_t catalogue_tried[256 * 256 / 8];
	struct procmap procs;
	struct seqtrack seq;	/* format version 1: one for all files */
	struct seqrun *runs;	/* version 2: one per file (stream order) */
	bool seq_per_cpu;	/* the trace header says version 2 or 3 */
	bool end_expected;	/* ... 3: the trace ends with lket.trace_end */
	struct endcheck end;	/* the files against that end */
	/* lket.flight: a flight recording, whose files skip what each
	 * CPU's buffer wrote over (not lost: never meant to be kept) */
	bool flight;
	bool rotated;		/* files of a rotated trace (NAME_N.K) */
	struct trace_info info;
	struct output *out;
	struct diag *diag;
	struct convert_stats *stats;
	struct filter *filter;
	struct report *report;
	struct offcpu *offcpu;
	struct critpath *critpath;
	struct symbols *symbols;
	struct event ev;
	int error;		/* first output error */
	const char *host;	/* the label of a host; NULL: one trace */
	struct follow *follow;	/* NULL, or a trace still written */
	/* following: the first event's time is known when it comes */
	bool first_pending;
	struct source_clock clock;	/* onto the common time base */
	bool map;		/* clock is not the identity */
	/* scan mode: the events wanted go to scan, nothing to the output */
	source_scan_fn scan;
	void *scan_ctx;
	const bool *scan_want;	/* indexed by LKET_EV_* */
	/* bit group << 8 | hook: an event the metadata says is not wanted,
	 * which the streams then step over without a look */
	uint8_t *scan_skip;
	/* the files */
	const struct source_options *opt;
	const char **files;
	struct stream *streams;
	struct stream **live;
	int *first;
	size_t n;
	struct merge m;
	uint64_t total, count;
};

static inline const char *str_named(const struct event *ev, const char *name)
{
	const struct value *v = event_value(ev, name);

	/* strings decoded from a record are NUL-terminated in place */
	return v && v->f->type == LKET_STRING ? v->s : NULL;
}

static inline void copy_string(char *dst, size_t size, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	if (n >= size)
		n = size - 1;
	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
}

/* deliver.c: a record of the events (not group 0); scan mode's. */
int deliver_record(struct source *c, struct stream *s);
int deliver_scan(struct source *c, const struct stream *s);

/* metarec.c: a group-0 record (false: it is not one, malformed); is it
 * metadata, read ahead of events? */
bool metarec_apply(struct source *c, const struct stream *s);
bool metarec_is_metadata(const struct record *r);

/* tasks.c: the process map from ev, if it is a process event; the
 * always-on task record just decoded; is ev (LKET_EV_*) one of them? */
int tasks_track(struct source *c, const struct event *ev);
void tasks_apply(struct source *c);
bool tasks_handles(int ev);

/* losses.c: the flushes of a record (and those before it that carried
 * none); the records a packet says were dropped; a gap (seqtrack's
 * callback); at the end, what the sequence numbers and the trace end
 * say is lost. */
void losses_track_seq(struct source *c, struct stream *s);
void losses_packet(struct source *c, const struct stream *s,
		   int64_t discarded);
void losses_on_gap(void *ctx, const struct seq_gap *gap);
void losses_finish(struct source *c);

#endif
