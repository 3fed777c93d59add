/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqtrack.h - find lost flushes from their sequence numbers.
 *
 * The bulk transport numbers every flush from one counter shared by all
 * CPUs, so a number that appears in no file was lost.  Flushes reach the
 * tracker in merged time order, which is close to, not exactly, sequence
 * order; a sliding window of recently seen numbers absorbs the difference
 * in fixed memory.  A number that falls out of the window unseen is lost.
 */
#ifndef LKET_SEQTRACK_H
#define LKET_SEQTRACK_H

#include <stdbool.h>
#include <stdint.h>

#define SEQTRACK_WINDOW	(1u << 16)

struct seq_gap {
	uint32_t first, last;	/* the lost sequence numbers */
	uint64_t after_ts;	/* timestamp of the flush before the gap */
	uint64_t before_ts;	/* timestamp of the flush after it */
};

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

#endif
