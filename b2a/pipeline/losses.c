// SPDX-License-Identifier: GPL-2.0
/*
 * losses.c - what a source lost, said where it was found: flushes missing
 * from the sequence numbers, records a packet says the tracer dropped,
 * and what the trace's end says the files lack (source_int.h).
 */
#include <stdio.h>

#include "analysis/filter.h"
#include "input/follow.h"
#include "pipeline/source_int.h"

/*
 * A packet record starts each frame of a CPU (format version 2): the
 * records that CPU dropped since its previous frame, after the last
 * record of this file seen so far and before this one.
 */
void losses_packet(struct source *c, const struct stream *s,
		   int64_t discarded)
{
	struct seq_gap g = {
		.after_ts = c->runs[s->order].last_ts,
		.before_ts = s->rec.timestamp,
		.cpu = (int)LKET_ID_CPU(s->rec.id),
		.records = (uint64_t)discarded,
	};

	if (discarded <= 0)
		return;
	c->stats->dropped += g.records;
	endcheck_packet(&c->end, LKET_ID_CPU(s->rec.id), g.records);
	losses_on_gap(c, &g);
}

/*
 * A file's run of flush numbers, from its first.  In a flight recording
 * each CPU numbers its flushes from 1 and the snapshot holds its newest:
 * a file whose first flush is numbered above 1 had those before it
 * written over (CPU 0's starts with the trace's start, flush 1, and its
 * gap comes after it).
 */
static void run_start(struct source *c, struct seqrun *run, int cpu)
{
	seqrun_init(run, cpu, losses_on_gap, c);
	if (c->flight)
		seqrun_expect(run, 1);
}

/* A flush that was read, at ts: not lost, whatever it held. */
static void see_seq(struct source *c, const struct stream *s, uint32_t seq,
		    uint64_t ts)
{
	struct seqrun *run = &c->runs[s->order];

	if (c->seq_per_cpu) {
		if (!run->started)
			run_start(c, run, s->cpu);
		seqrun_see(run, seq, ts);
	} else {
		seqtrack_see(&c->seq, seq, ts);
	}
}

/* The flushes the stream read that no record carries, as of ts. */
static void see_bare(struct source *c, struct stream *s, uint64_t ts)
{
	unsigned int i;

	for (i = 0; i < s->nbare; i++)
		see_seq(c, s, s->bare[i], ts);
	s->nbare = 0;
}

/* The flush numbers of a record: lost flushes before it, if any. */
void losses_track_seq(struct source *c, struct stream *s)
{
	const struct record *r = &s->rec;
	struct seqrun *run = &c->runs[s->order];

	if (!r->seq_valid)
		return;
	/* damage is not loss: a flush of garbage was there */
	see_bare(c, s, r->timestamp);
	if (c->seq_per_cpu) {
		if (!run->started)
			run_start(c, run, s->cpu);
		seqrun_see(run, r->seq, r->timestamp);
		/* a flush may hold nothing but the end of this record */
		if (r->seq_last != r->seq)
			seqrun_see(run, r->seq_last, r->timestamp);
		return;
	}
	seqtrack_see(&c->seq, r->seq, r->timestamp);
	if (r->seq_last != r->seq)
		seqtrack_see(&c->seq, r->seq_last, r->timestamp);
}

/* A gap to the output, unless filtered out. */
static void gap_out(struct source *c, const struct seq_gap *g)
{
	int ret;

	if (c->scan)
		return;
	/* lost flushes belong to no thread: only times filter them */
	if (c->filter && (g->after_ts > c->filter->to_ts ||
			  (g->before_ts && g->before_ts < c->filter->from_ts)))
		return;
	ret = c->out->ops->lost(c->out, g);
	if (ret && !c->error)
		c->error = ret;
}

/*
 * A loss lost() is not told of, to the outputs that want every loss
 * where it is; times filter it as they do lost flushes.
 */
static void other_out(struct source *c, const struct seq_gap *g)
{
	int ret;

	if (c->scan || !c->out->ops->lost_other)
		return;
	if (c->filter && g->after_ts &&
	    (g->after_ts > c->filter->to_ts ||
	     (g->before_ts && g->before_ts < c->filter->from_ts)))
		return;
	ret = c->out->ops->lost_other(c->out, g);
	if (ret && !c->error)
		c->error = ret;
}

void losses_on_gap(void *ctx, const struct seq_gap *gap)
{
	struct source *c = ctx;
	struct seq_gap hg = *gap, *g = &hg;
	char cpu[32] = "";

	hg.host = c->host;
	if (!g->records)
		endcheck_gap(&c->end, g->cpu);

	if (g->cpu >= 0)
		snprintf(cpu, sizeof(cpu), " of CPU %d", g->cpu);
	if (g->records) {
		diagf(c->diag, DIAG_LOSS, NULL, -1,
		      "%s%s%s%llu records%s dropped by the tracer, its buffers full, between %llu.%09llu and %llu.%09llu",
		      c->host ? "host " : "", c->host ? c->host : "",
		      c->host ? ": " : "",
		      (unsigned long long)g->records, cpu,
		      (unsigned long long)(g->after_ts / 1000000000),
		      (unsigned long long)(g->after_ts % 1000000000),
		      (unsigned long long)(g->before_ts / 1000000000),
		      (unsigned long long)(g->before_ts % 1000000000));
	} else if (c->flight && g->first == 1 && !g->after_ts) {
		/* a CPU's oldest flushes, before its first in the files */
		diagf(c->diag, DIAG_NOTE, NULL, -1,
		      "%s%s%sthe flight recorder wrote over %llu flushes%s (sequence 1 to %u) before %llu.%09llu",
		      c->host ? "host " : "", c->host ? c->host : "",
		      c->host ? ": " : "", (unsigned long long)g->last, cpu,
		      g->last, (unsigned long long)(g->before_ts / 1000000000),
		      (unsigned long long)(g->before_ts % 1000000000));
		return;
	} else {
		/* a flight recording's gap: what the recorder went round
		 * over, no loss */
		diagf(c->diag, c->flight ? DIAG_NOTE : DIAG_LOSS, NULL, -1,
		      "%s%s%s%s %llu flushes%s (sequence %u to %u) between %llu.%09llu and %llu.%09llu",
		      c->host ? "host " : "", c->host ? c->host : "",
		      c->host ? ": " : "",
		      c->flight ? "the flight recorder wrote over" : "lost",
		      (unsigned long long)(g->last - g->first) + 1, cpu,
		      g->first, g->last,
		      (unsigned long long)(g->after_ts / 1000000000),
		      (unsigned long long)(g->after_ts % 1000000000),
		      (unsigned long long)(g->before_ts / 1000000000),
		      (unsigned long long)(g->before_ts % 1000000000));
		if (c->flight) {
			hg.kind = SEQ_GAP_WRITTEN_OVER;
			other_out(c, g);
			return;
		}
	}
	gap_out(c, g);
}

/* What the end of the trace says the files lack. */
static void on_end(void *ctx, const struct endcheck_report *r)
{
	struct source *c = ctx;
	const char *h = c->host ? "host " : "", *hl = c->host ? c->host : "",
		   *hs = c->host ? ": " : "";
	unsigned long long n = r->n;
	struct seq_gap g = {
		.after_ts = r->last_ts, .cpu = r->cpu, .records = r->n,
		.host = c->host,
	};

	switch (r->what) {
	case ENDCHECK_MISSING:
		g.kind = c->flight ? SEQ_GAP_WRITTEN_OVER : SEQ_GAP_MISSING;
		other_out(c, &g);
		if (c->flight) {
			diagf(c->diag, DIAG_NOTE, NULL, -1,
			      "%s%s%s%llu records of CPU %d written over by the flight recorder: the tracer wrote %llu there (lket.cpu_end), the snapshot holds %llu",
			      h, hl, hs, n, r->cpu,
			      (unsigned long long)r->written,
			      (unsigned long long)(r->written - r->n));
			break;
		}
		diagf(c->diag, DIAG_LOSS, NULL, -1,
		      "%s%s%s%llu records of CPU %d lost %s: the tracer wrote %llu there (lket.cpu_end), the files hold %llu",
		      h, hl, hs, n, r->cpu,
		      r->gaps ? "in the lost flushes above, or after its last record" :
		      "after its last record (the consumer stopped before reading them)",
		      (unsigned long long)r->written,
		      (unsigned long long)(r->written - r->n));
		break;
	case ENDCHECK_SURPLUS:
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%sthe files hold %llu records of CPU %d more than the %llu the tracer wrote there (lket.cpu_end)",
		      h, hl, hs, n, r->cpu, (unsigned long long)r->written);
		break;
	case ENDCHECK_DROPPED:
		diagf(c->diag, DIAG_LOSS, NULL, -1,
		      "%s%s%s%llu records of CPU %d dropped by the tracer, its buffers full, after %llu.%09llu (lket.cpu_end)",
		      h, hl, hs, n, r->cpu,
		      (unsigned long long)(r->last_ts / 1000000000),
		      (unsigned long long)(r->last_ts % 1000000000));
		gap_out(c, &g);
		break;
	case ENDCHECK_NO_CPU_END:
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%sCPU %d has %llu records but no lket.cpu_end: whether any are lost cannot be told",
		      h, hl, hs, r->cpu, n);
		break;
	case ENDCHECK_NO_FILE:
		diagf(c->diag, DIAG_NOTE, NULL, -1,
		      "%s%s%sno file of CPU %d was given: it holds %llu records",
		      h, hl, hs, r->cpu, n);
		break;
	case ENDCHECK_SKIPPED:
		g.kind = SEQ_GAP_SKIPPED;
		g.cpu = -1;
		g.after_ts = 0;
		other_out(c, &g);
		diagf(c->diag, DIAG_LOSS, NULL, -1,
		      "%s%s%sSystemTap skipped %llu probe hits (lket.trace_end): their records are lost (a probe that fired while a handler ran on its CPU, a return probe without a free instance, or a CPU onlined after tracing started)",
		      h, hl, hs, n);
		break;
	case ENDCHECK_ERRORS:
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%s%llu probe handlers failed (lket.trace_end): their records may be cut or missing",
		      h, hl, hs, n);
		break;
	case ENDCHECK_NO_END:
		if (c->follow && follow_stopped()) {
			diagf(c->diag, DIAG_NOTE, NULL, -1,
			      "%s%s%sstopped following before the trace ended: converted what its files held then",
			      h, hl, hs);
			break;
		}
		/* a rotated trace's end is in the last file of one CPU */
		if (c->rotated) {
			diagf(c->diag, DIAG_NOTE, NULL, -1,
			      "%s%s%sthe trace's end (lket.trace_end) is not in these files: a rotated trace's last files were not all given, and records lost at the end of these cannot be told",
			      h, hl, hs);
			break;
		}
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%sthe trace has no end (lket.trace_end, format version 3 and later): records at the end of its files may be lost, and how many cannot be told",
		      h, hl, hs);
		break;
	}
}

void losses_finish(struct source *c)
{
	struct endcheck_findings f;
	size_t i;

	for (i = 0; i < c->n && !c->scan; i++)
		see_bare(c, &c->streams[i], c->streams[i].last_ts);
	seqtrack_finish(&c->seq);
	c->stats->lost = c->seq.lost;
	for (i = 0; i < c->n; i++)
		c->stats->lost += c->runs[i].lost;
	/* a flight recording's gaps were written over, as notes said */
	if (c->flight)
		c->stats->lost = 0;
	if (c->scan)
		return;
	for (i = 0; i < c->n; i++)
		endcheck_file(&c->end, c->streams[i].cpu);
	endcheck_finish(&c->end, c->end_expected, on_end, c, &f);
	if (c->flight)
		f.missing = 0;
	c->stats->missing += f.missing;
	c->stats->dropped += f.dropped;
	c->stats->skipped += f.skipped;
	c->info.missing = f.missing;
	c->info.skipped = f.skipped;
}
