/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - what a source counts as it reads a trace, for the exit status
 * and its messages.  Below the drivers (convert.h, multihost.h), so that
 * the source that fills it needs neither.
 */
#ifndef LKET_STATS_H
#define LKET_STATS_H

#include <stddef.h>
#include <stdint.h>

struct convert_stats {
	uint64_t events;	/* handed to the output */
	uint64_t filtered;	/* decoded, but filtered out */
	uint64_t meta;		/* metadata records */
	uint64_t lost;		/* flushes missing from the sequence */
	uint64_t dropped;	/* records the tracer dropped (packets, and
				   lket.cpu_end past the last packet) */
	uint64_t missing;	/* records written, in no file (lket.cpu_end) */
	uint64_t skipped;	/* probe hits SystemTap skipped (trace_end) */
	uint64_t bytes;		/* read from the files */
	size_t files;		/* read; others were skipped */
};

#endif
