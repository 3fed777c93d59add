// SPDX-License-Identifier: GPL-2.0
/*
 * pf_losses.c - every loss lket-b2a counts, shown in the Perfetto trace
 * (pf.h), twice:
 *
 *   where it is   an ftrace event on the CPU's track at the gap's start
 *                 (lket_lost_flushes, lket_dropped, lket_missing,
 *                 lket_written_over; lket_skipped at the end, on CPU 0),
 *                 its counts as fields, and the CPU's next bundle says
 *                 events were lost (lost_events: Perfetto's
 *                 ftrace_cpu_has_data_loss);
 *   in the stats  Perfetto's counters of the same kind of loss, per CPU:
 *
 *     records the tracer dropped     FtraceCpuStats.dropped_events
 *     records a flight recorder      FtraceCpuStats.overrun
 *       wrote over
 *     flushes lost in transport      TraceStats.BufferStats.chunks_discarded
 *       (a buffer a CPU), and all of them in TraceStats.chunks_discarded
 *     flushes a flight recorder      TraceStats.BufferStats.chunks_overwritten
 *       wrote over
 *     records missing at the end     TraceStats.BufferStats.
 *       (lket.cpu_end)                 trace_writer_packet_loss
 *     probe hits SystemTap skipped   FtraceKprobeStats.misses (SystemTap's
 *                                    skips are kretprobe misses and alike)
 *
 * The ftrace stats go out twice, at the trace's start (zero) and end, as
 * Perfetto's ftrace data source writes them: it counts the difference.
 */
#include <errno.h>

#include "output/perfetto/pf.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

int pf_lost(struct pf *p, const struct seq_gap *g)
{
	static const char *const flushes[] = { "flushes", "first_seq",
					       "last_seq", "until" };
	static const char *const records[] = { "records", "until" };
	static const char *const hits[] = { "hits" };
	uint64_t n = seq_gap_count(g), ts = g->after_ts;
	uint64_t fv[] = { n, g->first, g->last, g->before_ts };
	uint64_t rv[] = { n, g->before_ts };
	const char *what;
	struct pf_host *h;
	struct pf_cpu *c;
	int ret = pf_host_of(p, g->host, &h);

	if (ret)
		return ret;
	c = pf_cpu_of(h, g->cpu < 0 ? 0 : (unsigned int)g->cpu);
	if (!c)
		return -ENOMEM;
	if (!ts)
		ts = h->last_ts;
	switch (g->kind) {
	case SEQ_GAP_LOST:
		c->lost = true;
		if (g->records) {
			c->dropped += n;
			what = "lket_dropped";
			break;
		}
		if (g->cpu < 0)
			h->flushes_any += n;
		else
			c->flushes += n;
		return pf_marker(p, h, g->cpu, ts, "lket_lost_flushes",
				 flushes, fv, ARRAY_SIZE(fv));
	case SEQ_GAP_MISSING:
		c->lost = true;
		c->missing += n;
		what = "lket_missing";
		break;
	case SEQ_GAP_WRITTEN_OVER:
		c->lost = true;
		if (!g->records) {
			c->flushes_over += n;
			return pf_marker(p, h, g->cpu, ts, "lket_written_over",
					 flushes, fv, ARRAY_SIZE(fv));
		}
		c->written_over += n;
		what = "lket_written_over";
		break;
	default:
		h->skipped += n;
		return pf_marker(p, h, 0, ts, "lket_skipped", hits, &n, 1);
	}
	return pf_marker(p, h, g->cpu, ts, what, records, rv,
			 g->before_ts ? ARRAY_SIZE(rv) : 1);
}

/* FtraceStats of one phase: each CPU's, the end's counts or zero. */
static int ftrace_stats(struct pf *p, struct pf_host *h, bool end)
{
	struct pbuf *b = &p->out;
	const struct pf_cpu *c;
	unsigned int i;
	int ret = pb_reserve(b, (h->ncpus + 8) * 6 * PB_FIELD_MAX);

	if (ret)
		return ret;
	pf_packet_head(p, h, end ? h->last_ts : h->first_ts);
	PB_OPEN(b, PF_TRACEPACKET_FTRACE_STATS);
	PB_UINT(b, PF_FTRACESTATS_PHASE, end ? PF_FTRACESTATS_END_OF_TRACE :
		PF_FTRACESTATS_START_OF_TRACE);
	for (i = 0; !ret && i < h->ncpus; i++) {
		c = h->cpus[i];
		PB_OPEN(b, PF_FTRACESTATS_CPU_STATS);
		PB_UINT(b, PF_FTRACECPUSTATS_CPU, i);
		PB_UINT(b, PF_FTRACECPUSTATS_OVERRUN,
			end && c ? c->written_over : 0);
		PB_UINT(b, PF_FTRACECPUSTATS_DROPPED_EVENTS,
			end && c ? c->dropped : 0);
		ret = pb_close(b);
	}
	if (ret)
		return ret;
	PB_OPEN(b, PF_FTRACESTATS_KPROBE_STATS);
	PB_INT(b, PF_FTRACEKPROBESTATS_HITS, 0);
	PB_INT(b, PF_FTRACEKPROBESTATS_MISSES, end ? (int64_t)h->skipped : 0);
	return pb_close_all(b);
}

static int trace_stats(struct pf *p, struct pf_host *h)
{
	struct pbuf *b = &p->out;
	const struct pf_cpu *c;
	uint64_t flushes = h->flushes_any;
	unsigned int i;
	int ret = pb_reserve(b, (h->ncpus + 8) * 6 * PB_FIELD_MAX);

	if (ret)
		return ret;
	pf_packet_head(p, h, h->last_ts);
	PB_OPEN(b, PF_TRACEPACKET_TRACE_STATS);
	/* a buffer a CPU, in the order of their numbers */
	for (i = 0; !ret && i < h->ncpus; i++) {
		c = h->cpus[i];
		PB_OPEN(b, PF_TRACESTATS_BUFFER_STATS);
		if (c) {
			PB_UINT(b, PF_TRACESTATS_BUFFERSTATS_CHUNKS_OVERWRITTEN,
				c->flushes_over);
			PB_UINT(b, PF_TRACESTATS_BUFFERSTATS_CHUNKS_DISCARDED,
				c->flushes);
			PB_UINT(b,
				PF_TRACESTATS_BUFFERSTATS_TRACE_WRITER_PACKET_LOSS,
				c->missing);
			flushes += c->flushes;
		}
		ret = pb_close(b);
	}
	if (ret)
		return ret;
	PB_UINT(b, PF_TRACESTATS_CHUNKS_DISCARDED, flushes);
	return pb_close_all(b);
}

int pf_stats(struct pf *p, struct pf_host *h)
{
	int ret;

	if (h->first_ts == UINT64_MAX)
		h->first_ts = h->last_ts;
	ret = ftrace_stats(p, h, false);
	if (!ret)
		ret = ftrace_stats(p, h, true);
	if (!ret)
		ret = trace_stats(p, h);
	return ret ? ret : pf_out_flush(p, false);
}
