// SPDX-License-Identifier: GPL-2.0
/* merge.c - the one merger (merge.h), and its per-CPU stream sources. */
#include <errno.h>
#include <stdlib.h>

#include "input/merge.h"

static inline bool older(const struct merge_key *a, const struct merge_key *b)
{
	return a->key != b->key ? a->key < b->key : a->tie < b->tie;
}

void merge_sift(struct merge *m, size_t i)
{
	struct merge_entry e = m->heap[i];
	size_t child;

	for (;;) {
		child = 2 * i + 1;
		if (child >= m->n)
			break;
		if (child + 1 < m->n &&
		    older(&m->heap[child + 1].k, &m->heap[child].k))
			child++;
		if (!older(&m->heap[child].k, &e.k))
			break;
		m->heap[i] = m->heap[child];
		i = child;
	}
	m->heap[i] = e;
}

int merge_init(struct merge *m, void *const *srcs, size_t n,
	       const struct merge_ops *ops)
{
	size_t i;

	m->ops = ops;
	m->heap = malloc((n ? n : 1) * sizeof(*m->heap));
	if (!m->heap)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		m->heap[i].src = srcs[i];
		ops->key(srcs[i], &m->heap[i].k);
	}
	m->n = n;
	for (i = n / 2; i-- > 0;)
		merge_sift(m, i);
	return 0;
}

void merge_free(struct merge *m)
{
	free(m->heap);
	m->heap = NULL;
	m->n = 0;
}

static const struct merge_ops stream_ops = {
	.key = merge_stream_key,
	.next = merge_stream_next,
};

int merge_streams(struct merge *m, struct stream **streams, size_t n)
{
	return merge_init(m, (void *const *)streams, n, &stream_ops);
}
