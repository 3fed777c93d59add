/* SPDX-License-Identifier: GPL-2.0 */
/*
 * endcheck.h - the files against the end of the trace.
 *
 * When tracing stops, LKET writes an lket.cpu_end record per CPU (the
 * records it wrote into that CPU's buffers, and those it dropped there)
 * and then lket.trace_end (the probe hits SystemTap skipped, the errors of
 * probe handlers): format version 3, lket(5).  Frame numbers find a frame
 * lost between two others; only these counts find frames lost at the end
 * of a file, which a consumer that stopped early never read, and records
 * the tracer dropped after its last frame, which no packet record counts.
 * The converter counts the records it finds of each CPU; at the end,
 * endcheck_finish() says what the files lack.
 */
#ifndef LKET_ENDCHECK_H
#define LKET_ENDCHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/decode.h"

#define ENDCHECK_CPUS	B2A_CPUS

struct endcheck {
	uint64_t found[ENDCHECK_CPUS];	/* records read, by CPU */
	uint64_t packet_dropped[ENDCHECK_CPUS];	/* the packets' sum */
	uint64_t last_ts[ENDCHECK_CPUS];	/* of the last record found */
	/* lket.cpu_end, where has_end[cpu] */
	uint64_t written[ENDCHECK_CPUS], dropped[ENDCHECK_CPUS];
	bool has_end[ENDCHECK_CPUS];
	bool has_file[ENDCHECK_CPUS];	/* a file of the CPU was given */
	bool gaps[ENDCHECK_CPUS];	/* frames lost between others */
	bool trace_end;			/* lket.trace_end was read */
	uint64_t skipped, errors;
};

/* What the end says the files lack. */
struct endcheck_findings {
	uint64_t missing;	/* records written, not in the files */
	uint64_t dropped;	/* dropped after the CPU's last packet */
	uint64_t skipped;	/* probe hits SystemTap skipped */
};

/* What endcheck_finish() reports, one call each. */
enum endcheck_what {
	ENDCHECK_MISSING,	/* cpu: n records missing of written */
	ENDCHECK_SURPLUS,	/* cpu: the files hold n records more */
	ENDCHECK_DROPPED,	/* cpu: n records dropped after last_ts */
	ENDCHECK_NO_CPU_END,	/* cpu: records, but no lket.cpu_end */
	ENDCHECK_NO_FILE,	/* cpu: no file given; it wrote n records */
	ENDCHECK_SKIPPED,	/* n probe hits skipped */
	ENDCHECK_ERRORS,	/* n errors of probe handlers */
	ENDCHECK_NO_END,	/* the trace should end, and does not */
};

struct endcheck_report {
	enum endcheck_what what;
	int cpu;		/* -1: none */
	uint64_t n;
	uint64_t written;	/* MISSING, SURPLUS, NO_FILE: the tracer's */
	uint64_t last_ts;	/* DROPPED, MISSING: the CPU's last found */
	bool gaps;		/* MISSING: frames of the CPU were lost too */
};

typedef void (*endcheck_fn)(void *ctx, const struct endcheck_report *r);

/* A record of cpu (but for packet and end records) found at ts. */
static inline void endcheck_found(struct endcheck *e, unsigned int cpu,
				  uint64_t ts)
{
	e->found[cpu & (ENDCHECK_CPUS - 1)]++;
	e->last_ts[cpu & (ENDCHECK_CPUS - 1)] = ts;
}

/*
 * A rotated trace's files of cpu that are gone held records and packet
 * records' drops (lket.rotation): neither is missing.
 */
static inline void endcheck_deleted(struct endcheck *e, unsigned int cpu,
				    uint64_t records, uint64_t dropped)
{
	e->found[cpu & (ENDCHECK_CPUS - 1)] += records;
	e->packet_dropped[cpu & (ENDCHECK_CPUS - 1)] += dropped;
}

void endcheck_file(struct endcheck *e, int cpu);
void endcheck_gap(struct endcheck *e, int cpu);
void endcheck_packet(struct endcheck *e, unsigned int cpu, uint64_t dropped);
void endcheck_cpu_end(struct endcheck *e, int64_t cpu, uint64_t written,
		      uint64_t dropped);
void endcheck_trace_end(struct endcheck *e, uint64_t skipped,
			uint64_t errors);

/*
 * After the last record: each thing the end and the files disagree on,
 * to fn; expected: the trace says it ends so (format version 3).
 */
void endcheck_finish(const struct endcheck *e, bool expected, endcheck_fn fn,
		     void *ctx, struct endcheck_findings *out);

#endif
