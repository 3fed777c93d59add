// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input/merge.h"
#include "runtime/lket_format.h"

static int record_cpu(const struct stream *s)
{
	return s->cpu >= 0 ? s->cpu : (int)LKET_ID_CPU(s->rec.id);
}

static bool older(const struct stream *a, const struct stream *b)
{
	/* the key, not the timestamp: a record earlier than the one
	 * before it in its file comes right after that one */
	if (a->rec.key != b->rec.key)
		return a->rec.key < b->rec.key;
	if (record_cpu(a) != record_cpu(b))
		return record_cpu(a) < record_cpu(b);
	if (a->rec.seq != b->rec.seq)
		return a->rec.seq < b->rec.seq;
	return a->order < b->order;
}

static void sift_down(struct merge *m, size_t i)
{
	struct stream *s = m->heap[i];
	size_t child;

	for (;;) {
		child = 2 * i + 1;
		if (child >= m->n)
			break;
		if (child + 1 < m->n && older(m->heap[child + 1], m->heap[child]))
			child++;
		if (!older(m->heap[child], s))
			break;
		m->heap[i] = m->heap[child];
		i = child;
	}
	m->heap[i] = s;
}

int merge_init(struct merge *m, struct stream **streams, size_t n)
{
	size_t i;

	m->heap = malloc((n ? n : 1) * sizeof(*m->heap));
	if (!m->heap)
		return -ENOMEM;
	if (n)
		memcpy(m->heap, streams, n * sizeof(*m->heap));
	m->n = n;
	for (i = n / 2; i-- > 0;)
		sift_down(m, i);
	return 0;
}

int merge_advance(struct merge *m)
{
	int ret = stream_next(m->heap[0]);

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
