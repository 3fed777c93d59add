// SPDX-License-Identifier: GPL-2.0
/*
 * schedlat.c - scheduling latency: pending wake-ups by thread (schedlat.h
 * says which of them a switch ends).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/schedlat.h"
#include "util/u64map.h"

struct schedlat {
	struct schedlat_sample *pend;	/* the wake-ups waiting for a CPU */
	size_t npend, cap;
	uint32_t free_head;		/* 1-based; 0 none */
	struct u64map by_tid;		/* tid -> pend */
};

int schedlat_new(struct schedlat **sp)
{
	struct schedlat *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	if (u64map_init(&s->by_tid)) {
		free(s);
		return -ENOMEM;
	}
	*sp = s;
	return 0;
}

void schedlat_free(struct schedlat *s)
{
	if (!s)
		return;
	u64map_free(&s->by_tid);
	free(s->pend);
	free(s);
}

/* A free slot of pend (a released one's link lives in its tid). */
static int slot_new(struct schedlat *s, uint32_t *idx)
{
	struct schedlat_sample *bigger;

	if (s->free_head) {
		*idx = s->free_head - 1;
		s->free_head = (uint32_t)s->pend[*idx].tid;
		return 0;
	}
	if (s->npend == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		bigger = realloc(s->pend, s->cap * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		s->pend = bigger;
	}
	*idx = (uint32_t)s->npend++;
	return 0;
}

static void slot_release(struct schedlat *s, struct u64map_slot *m)
{
	uint32_t idx = m->val;

	s->pend[idx].tid = (int32_t)s->free_head;
	s->free_head = idx + 1;
	u64map_del(&s->by_tid, m);
}

int schedlat_wakeup(struct schedlat *s, int32_t tid, int32_t pid,
		    const char *comm, size_t len, uint64_t ts, bool thread,
		    bool record)
{
	struct u64map_slot *m;
	struct schedlat_sample *p;
	uint32_t idx;
	int ret;

	if (tid <= 0)		/* the idle task is never woken */
		return 0;
	m = u64map_find(&s->by_tid, (uint32_t)tid);
	if (m) {
		idx = m->val;
	} else {
		ret = slot_new(s, &idx);
		if (!ret)
			ret = u64map_put(&s->by_tid, (uint32_t)tid, idx);
		if (ret)
			return ret;
	}
	p = &s->pend[idx];
	p->tid = tid;
	p->pid = pid;
	if (len > PROC_COMM_LEN)
		len = PROC_COMM_LEN;
	memcpy(p->comm, comm, len);
	p->comm[len] = '\0';
	p->woken = ts;
	p->ran = 0;
	p->thread_selected = thread;
	p->selected = thread && record;
	return 0;
}

int schedlat_switch(struct schedlat *s, int32_t prev, int64_t prev_state,
		    int32_t next, uint64_t ts, bool record,
		    struct schedlat_sample *out)
{
	struct u64map_slot *m;

	/* left runnable: a wake-up still pending came while it ran */
	if (prev > 0 && prev_state == SCHED_RUNNABLE) {
		m = u64map_find(&s->by_tid, (uint32_t)prev);
		if (m)
			slot_release(s, m);
	}
	if (next <= 0)
		return 0;
	m = u64map_find(&s->by_tid, (uint32_t)next);
	if (!m)
		return 0;
	*out = s->pend[m->val];
	out->ran = ts;
	out->selected |= out->thread_selected && record;
	slot_release(s, m);
	return 1;
}

uint64_t schedlat_pending(const struct schedlat *s)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i <= s->by_tid.mask; i++)
		if (s->by_tid.s[i].used && s->pend[s->by_tid.s[i].val].selected)
			n++;
	return n;
}
