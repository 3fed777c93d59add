// SPDX-License-Identifier: GPL-2.0
/* merge.c - the one merger (merge.h), and its per-CPU stream sources. */
#include <errno.h>
#include <stdlib.h>

#include "input/merge.h"
#include "runtime/lket_format.h"

static inline bool older(const struct merge_key *a, const struct merge_key *b)
{
	return a->key != b->key ? a->key < b->key : a->tie < b->tie;
}

static void sift_down(struct merge *m, size_t i)
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
		sift_down(m, i);
	return 0;
}

int merge_advance(struct merge *m)
{
	int ret = m->ops->next(m->heap[0].src, &m->heap[0].k);

	if (ret <= 0)
		m->heap[0] = m->heap[--m->n];
	if (m->n)
		sift_down(m, 0);
	return ret < 0 ? ret : 0;
}

void merge_free(struct merge *m)
{
	free(m->heap);
	m->heap = NULL;
	m->n = 0;
}

static void stream_key(const void *src, struct merge_key *k)
{
	const struct stream *s = src;

	/* the key, not the timestamp: a record earlier than the one
	 * before it in its file comes right after that one */
	k->key = s->rec.key;
	k->tie = merge_tie(s->cpu >= 0 ? (unsigned int)s->cpu :
			   LKET_ID_CPU(s->rec.id), s->rec.seq, s->order);
}

static int stream_step(void *src, struct merge_key *k)
{
	int ret = stream_next(src);

	if (ret == 1)
		stream_key(src, k);
	return ret;
}

static const struct merge_ops stream_ops = {
	.key = stream_key,
	.next = stream_step,
};

int merge_streams(struct merge *m, struct stream **streams, size_t n)
{
	return merge_init(m, (void *const *)streams, n, &stream_ops);
}
