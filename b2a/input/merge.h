/* SPDX-License-Identifier: GPL-2.0 */
/*
 * merge.h - merge per-CPU streams into one, oldest record first.
 *
 * A binary heap of streams keyed by their current record's timestamp (its
 * merge key: a record earlier than one before it in its file keeps that
 * one's time, and its place after it, see stream.h); ties
 * go to the lower CPU, then the lower flush sequence, then the stream given
 * first, so that the order never depends on chance.
 */
#ifndef LKET_MERGE_H
#define LKET_MERGE_H

#include <stddef.h>

#include "input/stream.h"

struct merge {
	struct stream **heap;
	size_t n;
};

/* streams: each with a current record (stream_next() returned 1). */
int merge_init(struct merge *m, struct stream **streams, size_t n);
/* The stream holding the oldest record, or NULL when all are done. */
static inline struct stream *merge_peek(const struct merge *m)
{
	return m->n ? m->heap[0] : NULL;
}
/* Advance the stream at the top; < 0: its read error. */
int merge_advance(struct merge *m);
void merge_free(struct merge *m);

#endif
