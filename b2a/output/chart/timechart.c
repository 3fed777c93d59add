// SPDX-License-Identifier: GPL-2.0
/*
 * timechart.c - a trace's time in columns, and lanes that sum what each
 * column saw (timechart.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/chart/timechart.h"

void tc_init(struct timechart *tc)
{
	memset(tc, 0, sizeof(*tc));
	tc->width = 1;
}

void tc_free(struct timechart *tc)
{
	size_t i;

	for (i = 0; i < tc->nlanes; i++) {
		free(tc->lanes[i]->col);
		free(tc->lanes[i]);
	}
	free(tc->lanes);
	tc->lanes = NULL;
	tc->nlanes = tc->cap = 0;
}

struct tc_lane *tc_lane_new(struct timechart *tc)
{
	struct tc_lane *l, **bigger;

	if (tc->nlanes == tc->cap) {
		tc->cap = tc->cap ? 2 * tc->cap : 32;
		bigger = realloc(tc->lanes, tc->cap * sizeof(*bigger));
		if (!bigger)
			return NULL;
		tc->lanes = bigger;
	}
	l = malloc(sizeof(*l));
	if (!l)
		return NULL;
	l->col = calloc(TC_COLUMNS, sizeof(*l->col));
	if (!l->col) {
		free(l);
		return NULL;
	}
	tc->lanes[tc->nlanes++] = l;
	return l;
}

void tc_col_merge(struct tc_col *a, const struct tc_col *b)
{
	int k;

	for (k = 0; k < TC_NSTATES; k++)
		a->ns[k] += b->ns[k];
	for (k = 0; k < TC_NMARKS; k++)
		a->mark[k] += b->mark[k];
	if (b->mark[TC_WAKEUP])
		a->waker_tid = b->waker_tid;
	if (b->top_ns > a->top_ns) {
		a->top_ns = b->top_ns;
		a->top_tid = b->top_tid;
	}
	a->count += b->count;
	if (b->longest > a->longest)
		a->longest = b->longest;
}

/* Twice the time per column: columns 2i and 2i+1 become i. */
static void widen(struct timechart *tc)
{
	struct tc_col *c;
	size_t i, k;

	for (i = 0; i < tc->nlanes; i++) {
		c = tc->lanes[i]->col;
		for (k = 0; k < TC_COLUMNS / 2; k++) {
			c[k] = c[2 * k];
			tc_col_merge(&c[k], &c[2 * k + 1]);
		}
		memset(c + TC_COLUMNS / 2, 0,
		       (TC_COLUMNS - TC_COLUMNS / 2) * sizeof(*c));
	}
	tc->width *= 2;
	tc->shift++;
}

size_t tc_column(struct timechart *tc, uint64_t ts)
{
	if (!tc->started) {
		tc->started = true;
		tc->origin = tc->end = ts;
	}
	if (ts < tc->origin)
		return 0;
	while ((ts - tc->origin) >> tc->shift >= TC_COLUMNS)
		widen(tc);
	if (ts > tc->end)
		tc->end = ts;
	return (size_t)((ts - tc->origin) >> tc->shift);
}

/* body for each column c of lane l that from..to covers, ns of it */
#define FOR_SPAN(tc, l, from, to, c, ns, body)				\
	do {								\
		size_t i_, last_;					\
		uint64_t a_, b_, start_;				\
									\
		if ((to) <= (from))					\
			break;						\
		tc_column(tc, from);	/* the origin, if first */	\
		last_ = tc_column(tc, (to) - 1);			\
		i_ = tc_column(tc, from);				\
		for (; i_ <= last_; i_++) {				\
			start_ = (tc)->origin + i_ * (tc)->width;	\
			a_ = (from) > start_ ? (from) : start_;		\
			b_ = (to) < start_ + (tc)->width ? (to) :	\
			     start_ + (tc)->width;			\
			if (b_ <= a_)					\
				continue;				\
			c = &(l)->col[i_];				\
			ns = b_ - a_;					\
			body;						\
		}							\
	} while (0)

void tc_span(struct timechart *tc, struct tc_lane *l, uint64_t from,
	     uint64_t to, enum tc_state state)
{
	struct tc_col *c;
	uint64_t ns;

	FOR_SPAN(tc, l, from, to, c, ns, c->ns[state] += ns);
}

void tc_run(struct timechart *tc, struct tc_lane *l, uint64_t from,
	    uint64_t to, uint32_t tid)
{
	struct tc_col *c;
	uint64_t ns;

	FOR_SPAN(tc, l, from, to, c, ns, {
		c->ns[TC_RUN] += ns;
		if (ns > c->top_ns) {
			c->top_ns = ns;
			c->top_tid = tid;
		}
	});
}

void tc_mark(struct timechart *tc, struct tc_lane *l, uint64_t ts,
	     enum tc_mark mark)
{
	l->col[tc_column(tc, ts)].mark[mark]++;
}

void tc_wakeup(struct timechart *tc, struct tc_lane *l, uint64_t ts,
	       uint32_t waker)
{
	struct tc_col *c = &l->col[tc_column(tc, ts)];

	c->mark[TC_WAKEUP]++;
	c->waker_tid = waker;
}

void tc_request(struct timechart *tc, struct tc_lane *l, uint64_t from,
		uint64_t to)
{
	struct tc_col *c;
	uint64_t ns;

	/* the span first: it may widen the columns */
	FOR_SPAN(tc, l, from, to, c, ns, c->ns[TC_RUN] += ns);
	c = &l->col[tc_column(tc, to)];
	c->count++;
	if (to > from && to - from > c->longest)
		c->longest = to - from;
}

void tc_lane_add(struct tc_lane *dst, const struct tc_lane *src)
{
	size_t i;

	for (i = 0; i < TC_COLUMNS; i++)
		tc_col_merge(&dst->col[i], &src->col[i]);
}

size_t tc_used(const struct timechart *tc)
{
	if (!tc->started)
		return 0;
	return (size_t)((tc->end - tc->origin) >> tc->shift) + 1;
}
