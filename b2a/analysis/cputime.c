// SPDX-License-Identifier: GPL-2.0
/*
 * cputime.c - CPU time by thread from the context switches (cputime.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "analysis/cputime.h"
#include "runtime/lket_ids.h"

/* The idle task of each CPU apart from the threads' tids. */
#define IDLE_KEY(cpu)	(1ull << 32 | (cpu))

int cputime_init(struct cputime *ct)
{
	*ct = (struct cputime){ 0 };
	return u64map_init(&ct->index);
}

void cputime_free(struct cputime *ct)
{
	free(ct->t);
	u64map_free(&ct->index);
}

static int thread(struct cputime *ct, uint32_t tid, unsigned int cpu,
		  struct cputime_thread **out)
{
	uint64_t key = tid ? tid : IDLE_KEY(cpu);
	struct u64map_slot *slot = u64map_find(&ct->index, key);
	struct cputime_thread *bigger;
	int ret;

	if (slot) {
		*out = &ct->t[slot->val];
		return 0;
	}
	if (ct->n == ct->cap) {
		ct->cap = ct->cap ? 2 * ct->cap : 64;
		bigger = realloc(ct->t, ct->cap * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		ct->t = bigger;
	}
	ret = u64map_put(&ct->index, key, (uint32_t)ct->n);
	if (ret)
		return ret;
	*out = &ct->t[ct->n++];
	**out = (struct cputime_thread){ .tid = tid, .cpu = cpu };
	return 0;
}

/* t ran from `from' to ts: counted if the filters select it. */
static void ran(struct cputime_thread *t, uint64_t from, uint64_t ts,
		bool selected)
{
	if (!selected)
		return;
	t->ns += ts - from;
	t->counted = true;
}

int cputime_event(struct cputime *ct, const struct event *ev,
		  const struct selection *sel)
{
	uint64_t ts = ev->rec->timestamp;
	struct cputime_thread *prev, *next;
	int e = ev->meta ? ev->meta->ev : -1;
	int ret;

	if (!ct->started) {
		ct->begin = ts;
		ct->started = true;
	}
	if (ts > ct->end)
		ct->end = ts;
	if (e != LKET_EV_TASK_CTXSWITCH)
		return 0;
	ret = thread(ct, (uint32_t)event_int(ev, "prev_pid", 0), ev->cpu,
		     &prev);
	if (ret)
		return ret;
	if (prev->running)
		ran(prev, prev->since, ts, prev->thread_selected &&
		    (prev->start_selected || sel->record));
	else if (!prev->seen)
		/* running before the first switch seen */
		ran(prev, ct->begin, ts, sel->record &&
		    selection_thread(sel, prev->tid, ev->cpu));
	prev->running = false;
	prev->seen = true;
	prev->since = ts;
	ret = thread(ct, (uint32_t)event_int(ev, "next_pid", 0), ev->cpu,
		     &next);
	if (ret)
		return ret;
	next->running = true;
	next->seen = true;
	next->since = ts;
	next->cpu = ev->cpu;
	next->thread_selected = selection_thread(sel, next->tid, ev->cpu);
	next->start_selected = sel->record;
	return 0;
}

void cputime_end(struct cputime *ct)
{
	struct cputime_thread *t;
	size_t i;

	for (i = 0; i < ct->n; i++) {
		t = &ct->t[i];
		if (t->running)
			ran(t, t->since, ct->end,
			    t->thread_selected && t->start_selected);
		t->running = false;
	}
}

bool cputime_counted(const struct cputime *ct)
{
	size_t i;

	for (i = 0; i < ct->n; i++)
		if (ct->t[i].counted)
			return true;
	return false;
}
