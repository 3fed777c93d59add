/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqtrack.h - find lost flushes from their sequence numbers.
 *
 * Format version 1: the bulk transport numbers every flush from one
 * counter shared by all CPUs, so a number that appears in no file was
 * lost.  Flushes reach the tracker (struct seqtrack) in merged time
 * order, which is close to, not exactly, sequence order; a sliding window
 * of recently seen numbers absorbs the difference in fixed memory.  A
 * number that falls out of the window unseen is lost.
 *
 * Format version 2: each CPU numbers its own flushes, and a file is read
 * in order, so a run (struct seqrun, one per file) only needs the next
 * number it expects: one it skips was lost on that file's CPU.
 */
#ifndef LKET_SEQTRACK_H
#define LKET_SEQTRACK_H

#include <stdbool.h>
#include <stdint.h>

#define SEQTRACK_WINDOW	(1u << 16)

/* What a gap is (struct seq_gap's kind). */
enum seq_gap_kind {
	SEQ_GAP_LOST,		/* flushes lost, or records dropped */
	/* the others, which only an output's lost_other op is told of: */
	SEQ_GAP_MISSING,	/* records of a CPU's end (lket.cpu_end) in
				   no file, after after_ts */
	SEQ_GAP_WRITTEN_OVER,	/* flushes or records a flight recorder
				   wrote over (not lost: not kept) */
	SEQ_GAP_SKIPPED,	/* probe hits SystemTap skipped, on no CPU
				   and at no time (lket.trace_end) */
};

/*
 * Lost data: flushes first..last, or (records != 0) that many records the
 * tracer dropped on one CPU because its buffers were full (a packet
 * record says so, format version 2); kind says which, and the other
 * losses lket-b2a counts.
 */
struct seq_gap {
	uint32_t first, last;	/* the lost sequence numbers */
	uint64_t after_ts;	/* timestamp of the flush before the gap */
	uint64_t before_ts;	/* timestamp of the flush after it */
	int cpu;		/* whose flushes were lost; -1: any CPU's */
	uint64_t records;	/* records dropped; 0: flushes lost */
	const char *host;	/* its host's label; NULL: one trace */
	uint8_t kind;		/* enum seq_gap_kind */
};

/* How many flushes, or records, a gap stands for. */
static inline uint64_t seq_gap_count(const struct seq_gap *g)
{
	return g->records ? g->records : (uint64_t)(g->last - g->first) + 1;
}

typedef void (*seq_gap_fn)(void *ctx, const struct seq_gap *gap);

struct seqtrack {
	bool started;
	uint32_t base;		/* lowest number not yet accounted for */
	uint32_t top;		/* one past the highest number seen */
	uint64_t last_ts;	/* timestamp of base - 1 */
	uint64_t lost;
	uint8_t seen[SEQTRACK_WINDOW / 8];
	uint64_t ts[SEQTRACK_WINDOW];
	seq_gap_fn gap;
	void *ctx;
};

void seqtrack_init(struct seqtrack *t, seq_gap_fn gap, void *ctx);
/* A flush with number seq carried a record stamped ts. */
void seqtrack_see(struct seqtrack *t, uint32_t seq, uint64_t ts);
/* End of trace: numbers below the highest seen that never came are lost. */
void seqtrack_finish(struct seqtrack *t);

struct seqrun {
	bool started;
	uint32_t next;		/* the number the next flush should carry */
	uint64_t last_ts;	/* timestamp of the flush before next */
	uint64_t lost;
	int cpu;
	seq_gap_fn gap;
	void *ctx;
};

void seqrun_init(struct seqrun *r, int cpu, seq_gap_fn gap, void *ctx);
/* The run's numbers start at first (a CPU's own numbering starts at 1):
 * a first flush above it is a gap from first on, with no time before. */
void seqrun_expect(struct seqrun *r, uint32_t first);
/* A record stamped ts, in (the last of) flush seq of the run's file. */
void seqrun_see(struct seqrun *r, uint32_t seq, uint64_t ts);

#endif
