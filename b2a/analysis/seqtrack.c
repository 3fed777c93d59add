// SPDX-License-Identifier: GPL-2.0
/* seqtrack.c - lost flushes from gaps in their sequence numbers. */
#include <string.h>

#include "analysis/seqtrack.h"

#define SLOT(seq)	((seq) & (SEQTRACK_WINDOW - 1))

void seqtrack_init(struct seqtrack *t, seq_gap_fn gap, void *ctx)
{
	memset(t, 0, sizeof(*t));
	t->gap = gap;
	t->ctx = ctx;
}

static bool test_seen(const struct seqtrack *t, uint32_t seq)
{
	return t->seen[SLOT(seq) / 8] & (1u << (SLOT(seq) % 8));
}

/* Account for base: step over it if seen, or end a run of lost numbers. */
static void advance(struct seqtrack *t, uint32_t limit)
{
	struct seq_gap g = { .cpu = -1 };

	while (t->base != limit) {
		if (test_seen(t, t->base)) {
			t->seen[SLOT(t->base) / 8] &= ~(1u << (SLOT(t->base) % 8));
			t->last_ts = t->ts[SLOT(t->base)];
			t->base++;
			continue;
		}
		g.first = t->base;
		g.after_ts = t->last_ts;
		while (t->base != limit && !test_seen(t, t->base)) {
			/* nothing was seen from top on: no need to look */
			if (t->base == t->top) {
				t->base = limit;
				break;
			}
			t->base++;
		}
		g.last = t->base - 1;
		g.before_ts = t->base != t->top ? t->ts[SLOT(t->base)] : 0;
		t->lost += (uint64_t)(g.last - g.first) + 1;
		if (t->gap)
			t->gap(t->ctx, &g);
	}
}

void seqtrack_see(struct seqtrack *t, uint32_t seq, uint64_t ts)
{
	if (!t->started) {
		t->started = true;
		t->base = t->top = seq;
		t->last_ts = ts;
	}
	/* older than the window: already counted (a duplicate or very late) */
	if ((int32_t)(seq - t->base) < 0) {
		/* a later record of the flush a gap would come after */
		if (seq == t->base - 1 && ts > t->last_ts)
			t->last_ts = ts;
		return;
	}
	/* a number too far ahead pushes the window forward */
	if (seq - t->base >= SEQTRACK_WINDOW)
		advance(t, seq - SEQTRACK_WINDOW + 1);
	/* a flush's first record: the time a gap before it ends */
	if (!test_seen(t, seq))
		t->ts[SLOT(seq)] = ts;
	t->seen[SLOT(seq) / 8] |= 1u << (SLOT(seq) % 8);
	if ((int32_t)(seq - t->top) >= 0)
		t->top = seq + 1;
	/* account for everything that is contiguous from base */
	while (t->base != t->top && test_seen(t, t->base)) {
		t->seen[SLOT(t->base) / 8] &= ~(1u << (SLOT(t->base) % 8));
		t->last_ts = t->ts[SLOT(t->base)];
		t->base++;
	}
}

void seqtrack_finish(struct seqtrack *t)
{
	if (t->started)
		advance(t, t->top);
}

void seqrun_init(struct seqrun *r, int cpu, seq_gap_fn gap, void *ctx)
{
	memset(r, 0, sizeof(*r));
	r->cpu = cpu;
	r->gap = gap;
	r->ctx = ctx;
}

void seqrun_expect(struct seqrun *r, uint32_t first)
{
	r->started = true;
	r->next = first;
	r->last_ts = 0;
}

void seqrun_see(struct seqrun *r, uint32_t seq, uint64_t ts)
{
	struct seq_gap g = { .cpu = -1 };

	if (!r->started) {
		r->started = true;
		r->next = seq;
	}
	/* the flush already seen (its later records), or an older one */
	if ((int32_t)(seq - r->next) < 0) {
		if (seq == r->next - 1 && ts > r->last_ts)
			r->last_ts = ts;
		return;
	}
	if (seq != r->next) {
		g.first = r->next;
		g.last = seq - 1;
		g.after_ts = r->last_ts;
		g.before_ts = ts;
		g.cpu = r->cpu;
		r->lost += (uint64_t)(g.last - g.first) + 1;
		if (r->gap)
			r->gap(r->ctx, &g);
	}
	r->next = seq + 1;
	r->last_ts = ts;
}
