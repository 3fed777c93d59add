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
#include "runtime/lket_format.h"

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
/* The entry at i, its key new or larger, down to where it belongs. */
void merge_sift(struct merge *m, size_t i);

/*
 * Advance the source at the top with next, its ops' own (merge_advance())
 * or, on a hot path that knows its sources, the same function inline;
 * < 0: its error.
 */
static inline int merge_advance_with(struct merge *m,
				     int (*next)(void *src,
						 struct merge_key *k))
{
	int ret = next(m->heap[0].src, &m->heap[0].k);

	if (ret <= 0)
		m->heap[0] = m->heap[--m->n];
	if (m->n)
		merge_sift(m, 0);
	return ret < 0 ? ret : 0;
}

static inline int merge_advance(struct merge *m)
{
	return merge_advance_with(m, m->ops->next);
}

void merge_free(struct merge *m);

/* A per-CPU stream's key: its record's merge key, then its CPU (the
 * file's, else the record's), flush and place among the files. */
static inline void merge_stream_key(const void *src, struct merge_key *k)
{
	const struct stream *s = src;

	/* the key, not the timestamp: a record earlier than the one
	 * before it in its file comes right after that one */
	k->key = s->rec.key;
	k->tie = merge_tie(s->cpu >= 0 ? (unsigned int)s->cpu :
			   LKET_ID_CPU(s->rec.id), s->rec.seq, s->order);
}

/* A per-CPU stream's next record (the stream sources' next op). */
static inline int merge_stream_next(void *src, struct merge_key *k)
{
	int ret = stream_next(src);

	if (ret == 1)
		merge_stream_key(src, k);
	return ret;
}

/* Per-CPU streams, each with a current record (stream_next() returned
 * 1): a merge of their records. */
int merge_streams(struct merge *m, struct stream **streams, size_t n);

#endif
