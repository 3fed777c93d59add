/* SPDX-License-Identifier: GPL-2.0 */
/*
 * convert.h - the conversion of one trace: its source (source.h) opens
 * the per-CPU files, learns the trace's metadata, merges the records by
 * time, decodes each and hands it to an output, then accounts for lost
 * flushes.
 */
#ifndef LKET_CONVERT_H
#define LKET_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include "output/output.h"
#include "pipeline/stats.h"
#include "util/diag.h"

/*
 * Convert the files at paths into out.  What is wrong with the input is
 * reported to diag and stepped over; the return value is 0, or a negative
 * errno for what stopped the conversion (no file could be read, the output
 * failed, memory ran out).
 */
int convert(const char *const *paths, size_t npaths, struct output *out,
	    struct diag *diag, struct convert_stats *stats);

struct filter;
struct report;
struct offcpu;
struct critpath;
struct symbols;
struct follow;

struct convert_options {
	struct filter *filter;	/* NULL: every event goes out */
	struct report *report;	/* NULL: no latency report */
	struct offcpu *offcpu;	/* NULL: no off-CPU report */
	struct critpath *critpath;	/* NULL: no critical path */
	/* NULL: call stacks (ADDRS fields) are shown as addresses; else
	 * told the trace's kernel and modules, and asked for symbols */
	struct symbols *symbols;
	/* NULL: none; else called every CONVERT_PROGRESS_EVERY records
	 * with the bytes read so far and the files' total (0: not known) */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* NULL, or the trace is still being written (lket-b2a --follow) */
	struct follow *follow;
};

#define CONVERT_PROGRESS_EVERY	65536u

/* The same, with options; -ENODATA: a wall-clock --from/--to and a trace
 * without header. */
int convert_ex(const char *const *paths, size_t npaths, struct output *out,
	       struct diag *diag, struct convert_stats *stats,
	       const struct convert_options *opt);

#endif
