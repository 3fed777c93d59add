// SPDX-License-Identifier: GPL-2.0
/*
 * pf_losses: each kind of loss, a marker on its CPU at the gap and its
 * count in Perfetto's stats: flushes lost (of a CPU and of none), records
 * dropped, records missing at a CPU's end, records and flushes a flight
 * recorder wrote over, probe hits skipped; the ftrace stats at the start
 * (zero) and the end; the CPU's next bundle says events were lost.
 */
#include "pf_fixture.h"

static struct procmap procs;
static struct trace_info info = { .procs = &procs, .first_ts = 1000 };

static int setup(void **state)
{
	return pf_setup(state) || procmap_init(&procs) ? -1 : 0;
}

static int teardown(void **state)
{
	procmap_free(&procs);
	return pf_teardown(state);
}

static void lost(struct pf_run *r, struct seq_gap g)
{
	const struct output_ops *ops = r->o->ops;

	if (g.kind == SEQ_GAP_LOST)
		assert_int_equal(ops->lost(r->o, &g), 0);
	else
		assert_int_equal(ops->lost_other(r->o, &g), 0);
}

/* The markers of the trace: their names and first fields' values. */
static unsigned int markers(const struct pf_run *r, const char **name,
			    uint64_t *first, uint64_t *ts, unsigned int max)
{
	static char names[16][32];
	struct pbf pkt, b, e, g, f, s;
	unsigned int i, j, n = 0;

	for (i = 0; pf_packet_with(r, PF_TRACEPACKET_FTRACE_EVENTS, i, &pkt);
	     i++) {
		b = pbr_sub(&pkt, PF_TRACEPACKET_FTRACE_EVENTS, 0);
		for (j = 0; n < max && pbr_get(b.p, b.len,
					       PF_FTRACEEVENTBUNDLE_EVENT, j,
					       &e); j++) {
			if (!pbr_get(e.p, e.len, PF_FTRACEEVENT_GENERIC, 0, &g))
				continue;
			s = pbr_sub(&g, PF_GENERICFTRACEEVENT_EVENT_NAME, 0);
			snprintf(names[n], sizeof(names[n]), "%.*s",
				 (int)s.len, (const char *)s.p);
			name[n] = names[n];
			f = pbr_sub(&g, PF_GENERICFTRACEEVENT_FIELD, 0);
			first[n] = pbr_u(&f,
					 PF_GENERICFTRACEEVENT_FIELD_UINT_VALUE,
					 0);
			ts[n++] = pbr_u(&e, PF_FTRACEEVENT_TIMESTAMP, 0);
		}
	}
	return n;
}

static void test_losses(void **state)
{
	const char *name[16];
	uint64_t first[16], ts[16];
	struct pf_run r;
	struct pbf pkt, s, c, b;

	(void)state;
	pf_run_begin(&r, "losses.pftrace", &info);
	lost(&r, (struct seq_gap){ .first = 3, .last = 4, .after_ts = 1100,
				   .before_ts = 1200, .cpu = 1 });
	lost(&r, (struct seq_gap){ .first = 9, .last = 9, .after_ts = 1150,
				   .before_ts = 1160, .cpu = -1 });
	lost(&r, (struct seq_gap){ .records = 7, .after_ts = 1300,
				   .before_ts = 1400, .cpu = 0 });
	lost(&r, (struct seq_gap){ .kind = SEQ_GAP_MISSING, .records = 5,
				   .after_ts = 1500, .cpu = 1 });
	lost(&r, (struct seq_gap){ .kind = SEQ_GAP_WRITTEN_OVER,
				   .records = 11, .after_ts = 1600, .cpu = 0 });
	lost(&r, (struct seq_gap){ .kind = SEQ_GAP_WRITTEN_OVER, .first = 1,
				   .last = 3, .after_ts = 1650, .cpu = 0 });
	lost(&r, (struct seq_gap){ .kind = SEQ_GAP_SKIPPED, .records = 14,
				   .cpu = -1 });
	pf_run_finish(&r);

	assert_int_equal(markers(&r, name, first, ts, 16), 7);
	/* CPU 0's bundle first, then CPU 1's */
	assert_string_equal(name[0], "lket_lost_flushes");
	assert_int_equal(first[0], 1);
	assert_int_equal(ts[0], 1150);
	assert_string_equal(name[1], "lket_dropped");
	assert_int_equal(first[1], 7);
	assert_string_equal(name[2], "lket_written_over");
	assert_int_equal(first[2], 11);
	assert_string_equal(name[3], "lket_written_over");
	assert_int_equal(first[3], 3);
	assert_string_equal(name[4], "lket_skipped");
	assert_int_equal(first[4], 14);
	assert_string_equal(name[5], "lket_lost_flushes");
	assert_int_equal(first[5], 2);
	assert_int_equal(ts[5], 1100);
	assert_string_equal(name[6], "lket_missing");
	assert_int_equal(first[6], 5);
	/* the bundles say events were lost */
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_FTRACE_EVENTS, 0, &pkt));
	b = pbr_sub(&pkt, PF_TRACEPACKET_FTRACE_EVENTS, 0);
	assert_int_equal(pbr_u(&b, PF_FTRACEEVENTBUNDLE_LOST_EVENTS, 0), 1);

	/* ftrace stats: zero at the start, the counts at the end */
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_FTRACE_STATS, 0, &pkt));
	s = pbr_sub(&pkt, PF_TRACEPACKET_FTRACE_STATS, 0);
	assert_int_equal(pbr_u(&s, PF_FTRACESTATS_PHASE, 0),
			 PF_FTRACESTATS_START_OF_TRACE);
	c = pbr_sub(&s, PF_FTRACESTATS_CPU_STATS, 0);
	assert_int_equal(pbr_u(&c, PF_FTRACECPUSTATS_DROPPED_EVENTS, 9), 0);
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_FTRACE_STATS, 1, &pkt));
	s = pbr_sub(&pkt, PF_TRACEPACKET_FTRACE_STATS, 0);
	assert_int_equal(pbr_u(&s, PF_FTRACESTATS_PHASE, 0),
			 PF_FTRACESTATS_END_OF_TRACE);
	c = pbr_sub(&s, PF_FTRACESTATS_CPU_STATS, 0);
	assert_int_equal(pbr_u(&c, PF_FTRACECPUSTATS_CPU, 9), 0);
	assert_int_equal(pbr_u(&c, PF_FTRACECPUSTATS_DROPPED_EVENTS, 0), 7);
	assert_int_equal(pbr_u(&c, PF_FTRACECPUSTATS_OVERRUN, 0), 11);
	c = pbr_sub(&s, PF_FTRACESTATS_KPROBE_STATS, 0);
	assert_int_equal(pbr_u(&c, PF_FTRACEKPROBESTATS_MISSES, 0), 14);
	/* trace stats: flushes per CPU and all, records missing */
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_TRACE_STATS, 0, &pkt));
	s = pbr_sub(&pkt, PF_TRACEPACKET_TRACE_STATS, 0);
	assert_int_equal(pbr_u(&s, PF_TRACESTATS_CHUNKS_DISCARDED, 0), 3);
	c = pbr_sub(&s, PF_TRACESTATS_BUFFER_STATS, 0);
	assert_int_equal(pbr_u(&c, PF_TRACESTATS_BUFFERSTATS_CHUNKS_OVERWRITTEN,
			       0), 3);
	c = pbr_sub(&s, PF_TRACESTATS_BUFFER_STATS, 1);
	assert_int_equal(pbr_u(&c, PF_TRACESTATS_BUFFERSTATS_CHUNKS_DISCARDED,
			       0), 2);
	assert_int_equal(pbr_u(&c,
			       PF_TRACESTATS_BUFFERSTATS_TRACE_WRITER_PACKET_LOSS,
			       0), 5);
	free(r.data);
}

UNIT_MAIN("pf_losses", setup, teardown, UNIT_TEST(test_losses))
