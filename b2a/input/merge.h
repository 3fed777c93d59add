/* SPDX-License-Identifier: GPL-2.0 */
/*
 * merge.h - merge sources of items in time order into one, oldest first:
 * the one merger, for a trace's per-CPU streams and for several hosts'
 * traces alike.  A source is anything that can say the key of its
 * current item and advance to the next (struct merge_ops); the caller
 * takes the oldest with merge_peek() and, done with it, merge_advance().
 *
 * A binary heap of the sources keyed by their current item: its key,
 * then ties to the lower CPU, the lower flush sequence, then the source
 * given first, so that the order never depends on chance.  Per-CPU
 * streams are keyed by their current record's merge key (a record
 * earlier than one before it in its file keeps that one's time, and its
 * place after it, see stream.h).
 */
#ifndef LKET_MERGE_H
#define LKET_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "input/stream.h"

/*
 * An item's place: by key, then by tie, which merge_tie() packs from the
 * CPU, the flush sequence and the source's place among those given, in
 * that order, so that a comparison is two.
 */
struct merge_key {
	uint64_t key;
	uint64_t tie;
};

/* cpu < 2^14 (a file name's four digits), order < 2^18. */
static inline uint64_t merge_tie(unsigned int cpu, uint32_t seq,
				 unsigned int order)
{
	return (uint64_t)(cpu & 0x3fff) << 50 | (uint64_t)seq << 18 |
	       (order & 0x3ffff);
}

struct merge_ops {
	/* The key of src's current item. */
	void (*key)(const void *src, struct merge_key *k);
	/* On to src's next item, its key in *k: 1 there is one, 0 src has
	 * ended, < 0 its error (it has ended too).  One call a step. */
	int (*next)(void *src, struct merge_key *k);
};

struct merge_entry {
	struct merge_key k;	/* of src's current item, kept here */
	void *src;
};

struct merge {
	struct merge_entry *heap;
	size_t n;
	const struct merge_ops *ops;
};

/* srcs: each with a current item. */
int merge_init(struct merge *m, void *const *srcs, size_t n,
	       const struct merge_ops *ops);
/* The source holding the oldest item, or NULL when all are done. */
static inline void *merge_peek(const struct merge *m)
{
	return m->n ? m->heap[0].src : NULL;
}
/* Advance the source at the top; < 0: its error. */
int merge_advance(struct merge *m);
void merge_free(struct merge *m);

/* Per-CPU streams, each with a current record (stream_next() returned
 * 1): a merge of their records. */
int merge_streams(struct merge *m, struct stream **streams, size_t n);

#endif
