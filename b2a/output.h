/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - what every output (lket.out text, and those to come) offers
 * the converter: one call per decoded event, one per run of lost flushes.
 */
#ifndef LKET_OUTPUT_H
#define LKET_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "decode.h"
#include "procmap.h"
#include "seqtrack.h"

/* What the trace header says, and what the converter saw first. */
struct trace_info {
	bool have_header;
	int64_t wall_offset;	/* wall-clock ns = timestamp + wall_offset */
	uint64_t first_ts;	/* of the first event */
	char clock[32];
	char kernel[65];
};

struct output {
	const struct trace_info *trace;
	/* proc: what procmap knows of ev->tid, or NULL */
	int (*event)(struct output *o, const struct event *ev,
		     const struct proc *proc);
	int (*lost)(struct output *o, const struct seq_gap *gap);
	int (*finish)(struct output *o);
	void (*free)(struct output *o);
};

enum time_format {
	TIME_ABS,	/* seconds.nanoseconds of the trace clock */
	TIME_REL,	/* since the first event */
	TIME_WALL,	/* UTC date and time, from the header's offset */
	TIME_RAW,	/* nanoseconds, as recorded */
};

struct text_options {
	enum time_format time;
	bool ids;		/* add [group:hook] to the event name */
	bool no_names;		/* group:hook instead of the event name */
	bool no_comm;		/* leave the process name out */
};

/* The lket.out writer; fd stays open. */
int output_text_new(struct output **o, int fd, const struct text_options *opt);

#endif
