// SPDX-License-Identifier: GPL-2.0
/*
 * endcheck.c - what the trace's end (lket.cpu_end, trace_end) says the files
 * lack (endcheck.h).
 */
#include <string.h>

#include "analysis/endcheck.h"

#define CPU(c)	((unsigned int)(c) & (ENDCHECK_CPUS - 1))

void endcheck_file(struct endcheck *e, int cpu)
{
	if (cpu >= 0)
		e->has_file[CPU(cpu)] = true;
}

void endcheck_gap(struct endcheck *e, int cpu)
{
	if (cpu >= 0)
		e->gaps[CPU(cpu)] = true;
}

void endcheck_packet(struct endcheck *e, unsigned int cpu, uint64_t dropped)
{
	e->packet_dropped[CPU(cpu)] += dropped;
}

void endcheck_cpu_end(struct endcheck *e, int64_t cpu, uint64_t written,
		      uint64_t dropped)
{
	if (cpu < 0 || cpu >= ENDCHECK_CPUS)
		return;
	e->has_end[cpu] = true;
	e->written[cpu] = written;
	e->dropped[cpu] = dropped;
}

void endcheck_trace_end(struct endcheck *e, uint64_t skipped, uint64_t errors)
{
	e->trace_end = true;
	e->skipped = skipped;
	e->errors = errors;
}

static void say(endcheck_fn fn, void *ctx, enum endcheck_what what, int cpu,
		uint64_t n)
{
	struct endcheck_report r = { .what = what, .cpu = cpu, .n = n };

	fn(ctx, &r);
}

/* One CPU's records and drops against its lket.cpu_end. */
static void check_cpu(const struct endcheck *e, unsigned int cpu,
		      endcheck_fn fn, void *ctx, struct endcheck_findings *out)
{
	struct endcheck_report r = {
		.cpu = (int)cpu, .written = e->written[cpu],
		.last_ts = e->last_ts[cpu], .gaps = e->gaps[cpu],
	};

	if (!e->has_end[cpu]) {
		if (e->found[cpu])
			say(fn, ctx, ENDCHECK_NO_CPU_END, (int)cpu,
			    e->found[cpu]);
		return;
	}
	/* a CPU none of whose files was given: not lost, left out */
	if (!e->found[cpu] && !e->has_file[cpu]) {
		if (e->written[cpu]) {
			r.what = ENDCHECK_NO_FILE;
			r.n = e->written[cpu];
			fn(ctx, &r);
		}
		return;
	}
	if (e->found[cpu] < e->written[cpu]) {
		r.what = ENDCHECK_MISSING;
		r.n = e->written[cpu] - e->found[cpu];
		out->missing += r.n;
		fn(ctx, &r);
	} else if (e->found[cpu] > e->written[cpu]) {
		r.what = ENDCHECK_SURPLUS;
		r.n = e->found[cpu] - e->written[cpu];
		fn(ctx, &r);
	}
	/* packets lost with their frames leave drops unreported too */
	if (e->dropped[cpu] > e->packet_dropped[cpu]) {
		r.what = ENDCHECK_DROPPED;
		r.n = e->dropped[cpu] - e->packet_dropped[cpu];
		out->dropped += r.n;
		fn(ctx, &r);
	}
}

void endcheck_finish(const struct endcheck *e, bool expected, endcheck_fn fn,
		     void *ctx, struct endcheck_findings *out)
{
	unsigned int cpu;
	bool any = e->trace_end;

	memset(out, 0, sizeof(*out));
	for (cpu = 0; cpu < ENDCHECK_CPUS; cpu++)
		any |= e->has_end[cpu];
	if (!any) {
		if (expected)
			say(fn, ctx, ENDCHECK_NO_END, -1, 0);
		return;
	}
	for (cpu = 0; cpu < ENDCHECK_CPUS; cpu++)
		check_cpu(e, cpu, fn, ctx, out);
	if (!e->trace_end) {
		say(fn, ctx, ENDCHECK_NO_END, -1, 0);
		return;
	}
	if (e->skipped) {
		out->skipped = e->skipped;
		say(fn, ctx, ENDCHECK_SKIPPED, -1, e->skipped);
	}
	if (e->errors)
		say(fn, ctx, ENDCHECK_ERRORS, -1, e->errors);
}
