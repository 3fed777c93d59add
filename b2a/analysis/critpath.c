// SPDX-License-Identifier: GPL-2.0
/*
 * critpath.c - every thread's running, runnable and blocked segments, and
 * the backward walk through wakers (critpath.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critpath.h"
#include "analysis/report.h"
#include "util/outbuf.h"
#include "util/array.h"
#include "util/u64map.h"

enum seg_state { SEG_RUNNING, SEG_RUNNABLE, SEG_BLOCKED, SEG_BLOCKED_ON };

static const char *const state_name[] = {
	[SEG_RUNNING] = "running", [SEG_RUNNABLE] = "runnable",
	[SEG_BLOCKED] = "blocked", [SEG_BLOCKED_ON] = "blocked on",
};

#define NO_WAKER	(-1)	/* blocked to the end, or woken unseen */

struct seg {
	uint64_t start, end;
	int32_t tid;		/* the path's: whose segment */
	int32_t waker;		/* SEG_BLOCKED*: 0 an interrupt or the idle
				   task; NO_WAKER */
	uint8_t state, depth;
};

struct thread {
	int32_t tid;
	char comm[PROC_COMM_LEN + 1];
	struct seg *s;
	size_t n, cap;
	bool open;		/* a segment since `since' in `state' */
	uint8_t state;
	uint64_t since;
	/* woken while still on its CPU, about to sleep (schedlat.h): the
	 * waker, if it then switches out asleep; NO_WAKER none */
	int32_t early_waker;
};

struct critpath {
	int32_t tid;		/* the thread asked for */
	struct thread *th;
	size_t nth, cap;
	struct u64map by_tid;
	uint64_t last;		/* the latest time seen */
	struct seg *path;	/* the walk's, newest first */
	size_t npath, cap_path;
	int error;
};

int critpath_new(struct critpath **cp, int32_t tid)
{
	struct critpath *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	if (u64map_init(&c->by_tid)) {
		free(c);
		return -ENOMEM;
	}
	c->tid = tid;
	*cp = c;
	return 0;
}

void critpath_free(struct critpath *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nth; i++)
		free(c->th[i].s);
	free(c->th);
	free(c->path);
	u64map_free(&c->by_tid);
	free(c);
}

static struct thread *thread_of(struct critpath *c, int32_t tid)
{
	struct u64map_slot *slot = u64map_find(&c->by_tid, (uint32_t)tid);
	struct thread *t;

	if (slot)
		return &c->th[slot->val];
	if (array_grow((void **)&c->th, &c->cap, c->nth, sizeof(*c->th)) ||
	    u64map_put(&c->by_tid, (uint32_t)tid, (uint32_t)c->nth))
		return NULL;
	t = &c->th[c->nth++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->early_waker = NO_WAKER;
	return t;
}

/* The segment t is in ends at ts (woken by waker, if blocked). */
static int seg_close(struct thread *t, uint64_t ts, int32_t waker)
{
	struct seg *s;

	if (!t->open)
		return 0;
	t->open = false;
	if (ts <= t->since)	/* nothing to show */
		return 0;
	if (array_grow((void **)&t->s, &t->cap, t->n, sizeof(*t->s)))
		return -ENOMEM;
	s = &t->s[t->n++];
	*s = (struct seg){ .start = t->since, .end = ts, .tid = t->tid,
			   .waker = waker, .state = t->state };
	return 0;
}

static int seg_open(struct thread *t, uint64_t ts, enum seg_state state)
{
	t->open = true;
	t->state = (uint8_t)state;
	t->since = ts;
	return 0;
}

static void name(struct thread *t, const char *s, size_t n)
{
	if (!n)
		return;
	if (n > PROC_COMM_LEN)
		n = PROC_COMM_LEN;
	memcpy(t->comm, s, n);
	t->comm[n] = '\0';
}

static int on_switch(struct critpath *c, const struct event *ev,
		     const struct proc *proc, uint64_t ts)
{
	int64_t prev = event_int(ev, "prev_pid", -1);
	int64_t next = event_int(ev, "next_pid", -1);
	int64_t state = event_int(ev, "prev_state", -1);
	struct thread *t;
	int ret = 0;

	if (prev < 0 || next < 0 || state < 0)
		return 0;
	if (prev > 0) {
		t = thread_of(c, (int32_t)prev);
		if (!t)
			return -ENOMEM;
		if (proc && proc->tid == (uint32_t)prev)
			name(t, proc->comm, proc->comm_len);
		/* its segment, whatever it was said to be, ends: it ran;
		 * asleep but woken already: its sleep ends as it begins */
		ret = seg_close(t, ts, NO_WAKER);
		if (!ret)
			ret = seg_open(t, ts, state && t->early_waker == NO_WAKER ?
				       SEG_BLOCKED : SEG_RUNNABLE);
		t->early_waker = NO_WAKER;
	}
	if (!ret && next > 0) {
		t = thread_of(c, (int32_t)next);
		if (!t)
			return -ENOMEM;
		ret = seg_close(t, ts, NO_WAKER);
		if (!ret)
			ret = seg_open(t, ts, SEG_RUNNING);
		t->early_waker = NO_WAKER;
	}
	return ret;
}

static int on_wakeup(struct critpath *c, const struct event *ev,
		     uint64_t ts)
{
	int64_t tid = event_int(ev, "tid", 0);
	const struct value *woken = event_value(ev, "name");
	struct thread *t;
	int ret;

	if (tid <= 0)
		return 0;
	t = thread_of(c, (int32_t)tid);
	if (!t)
		return -ENOMEM;
	if (woken && woken->f->type == LKET_STRING)
		name(t, woken->s, woken->slen);
	if (t->open && t->state == SEG_RUNNING)
		t->early_waker = (int32_t)ev->tid;
	if (!t->open || t->state != SEG_BLOCKED)
		return 0;
	ret = seg_close(t, ts, (int32_t)ev->tid);
	return ret ? ret : seg_open(t, ts, SEG_RUNNABLE);
}

int critpath_event(struct critpath *c, const struct event *ev,
		   const struct proc *proc)
{
	uint64_t ts = ev->rec->timestamp;

	if (!ev->meta || !ev->meta->named)
		return 0;
	if (ts > c->last)
		c->last = ts;
	switch (ev->meta->ev) {
	case LKET_EV_TASK_CTXSWITCH:
		return on_switch(c, ev, proc, ts);
	case LKET_EV_TASK_WAKEUP:
	case LKET_EV_TASK_WAKEUP_NEW:
		return on_wakeup(c, ev, ts);
	default:
		return 0;
	}
}

/* ---- the walk --------------------------------------------------------- */

static int push(struct critpath *c, struct seg s)
{
	if (array_grow((void **)&c->path, &c->cap_path, c->npath, sizeof(*c->path)))
		return -ENOMEM;
	c->path[c->npath++] = s;
	return 0;
}

/*
 * tid's path over [from, to), newest first, depth wakers down: its
 * segments there, each blocked one that a task ended replaced by that
 * task's path over it, under a SEG_BLOCKED_ON line.
 */
static int walk(struct critpath *c, int32_t tid, uint64_t from, uint64_t to,
		unsigned int depth)
{
	struct u64map_slot *slot = u64map_find(&c->by_tid, (uint32_t)tid);
	const struct thread *t;
	struct seg s;
	size_t i;
	int ret;

	if (!slot)
		return 0;
	t = &c->th[slot->val];
	for (i = t->n; i-- > 0;) {
		s = t->s[i];
		if (s.end <= from)
			break;
		if (s.start >= to)
			continue;
		s.start = s.start > from ? s.start : from;
		s.end = s.end < to ? s.end : to;
		s.depth = (uint8_t)depth;
		if (s.state == SEG_BLOCKED && s.waker > 0 && s.waker != tid &&
		    depth < CRITPATH_DEPTH) {
			/* pushed after the waker's: shown before it */
			ret = walk(c, s.waker, s.start, s.end, depth + 1);
			s.state = SEG_BLOCKED_ON;
		} else {
			ret = 0;
		}
		if (!ret)
			ret = push(c, s);
		if (ret)
			return ret;
	}
	return 0;
}

static const char *comm_of(const struct critpath *c, int32_t tid)
{
	struct u64map_slot *slot = u64map_find(&c->by_tid, (uint32_t)tid);

	if (!tid)
		return "an interrupt or the idle task";
	return slot && c->th[slot->val].comm[0] ? c->th[slot->val].comm : "?";
}

static void put_time(struct outbuf *w, uint64_t ns)
{
	outbuf_printf(w, "%llu.%09llu", (unsigned long long)(ns / 1000000000),
		      (unsigned long long)(ns % 1000000000));
}

/* What is still open ends with the trace; the path walked anew (newest
 * segment first in c->path).  0 or -ENOMEM; *th the thread, NULL when
 * the trace has none of its switches. */
static int walk_path(struct critpath *c, struct thread **th)
{
	struct u64map_slot *slot = u64map_find(&c->by_tid, (uint32_t)c->tid);
	struct thread *t;
	size_t i;
	int ret;

	for (i = 0; i < c->nth; i++) {
		ret = seg_close(&c->th[i], c->last, NO_WAKER);
		if (ret)
			return ret;
	}
	c->npath = 0;
	t = slot ? &c->th[slot->val] : NULL;
	*th = t && t->n ? t : NULL;
	if (!*th)
		return 0;
	return walk(c, c->tid, t->s[0].start, t->s[t->n - 1].end, 0);
}

int32_t critpath_tid(const struct critpath *c)
{
	return c->tid;
}

int critpath_each(struct critpath *c, critpath_fn fn, void *ctx)
{
	struct critpath_seg out;
	const struct seg *s;
	struct thread *t;
	size_t k;
	int ret = walk_path(c, &t);

	for (k = c->npath; !ret && k-- > 0;) {
		s = &c->path[k];
		out = (struct critpath_seg){
			.start = s->start, .end = s->end, .tid = s->tid,
			.waker = s->waker, .depth = s->depth,
			.state = s->state == SEG_RUNNING ? CRITPATH_RUNNING :
				 s->state == SEG_RUNNABLE ? CRITPATH_RUNNABLE :
				 s->state == SEG_BLOCKED ? CRITPATH_BLOCKED :
				 CRITPATH_BLOCKED_ON,
			.comm = comm_of(c, s->tid),
		};
		ret = fn(ctx, &out);
	}
	return ret;
}

int critpath_write(struct critpath *c, int fd)
{
	struct outbuf ob, *w = &ob;
	uint64_t sum[4] = { 0 }, mine[4] = { 0 }, from, to;
	struct thread *t;
	const struct seg *s;
	size_t k;
	int ret;

	ret = walk_path(c, &t);
	if (ret)
		return ret;
	from = t ? t->s[0].start : 0;
	to = t ? t->s[t->n - 1].end : 0;
	ret = outbuf_init(w, fd, 8192);
	if (ret)
		return ret;
	outbuf_printf(w, "# lket-b2a critical path of thread %d (%s)", c->tid,
		      comm_of(c, c->tid));
	if (!t) {
		outbuf_printf(w, ": no context switch of it in the trace\n");
		goto out;
	}
	outbuf_printf(w, ", ");
	put_time(w, from);
	outbuf_printf(w, " to ");
	put_time(w, to);
	outbuf_printf(w, "; times in microseconds; a waker's path is indented under what it ended\n%-20s %18s %8s %-16s %s\n",
		      "start", "duration", "tid", "comm", "state");
	for (k = c->npath; k-- > 0;) {
		s = &c->path[k];
		put_time(w, s->start);
		outbuf_printf(w, "%*s", 1 + 2 * s->depth, "");
		report_put_us(w, s->end - s->start);
		outbuf_printf(w, " %8d %-16s %s", s->tid, comm_of(c, s->tid),
			      state_name[s->state]);
		if (s->state == SEG_BLOCKED_ON)
			outbuf_printf(w, " %d (%s), who woke it at ", s->waker,
				      comm_of(c, s->waker));
		else if (s->state == SEG_BLOCKED && s->waker >= 0)
			outbuf_printf(w, ", woken by %d (%s) at ", s->waker,
				      comm_of(c, s->waker));
		else if (s->state == SEG_BLOCKED)
			outbuf_printf(w, ", not woken in the trace");
		if (s->state >= SEG_BLOCKED && s->waker >= 0)
			put_time(w, s->end);
		outbuf_printf(w, "\n");
		if (s->state != SEG_BLOCKED_ON) {
			sum[s->state] += s->end - s->start;
			if (s->tid == c->tid)
				mine[s->state] += s->end - s->start;
		}
	}
	outbuf_printf(w, "\non the path:");
	for (k = SEG_RUNNING; k <= SEG_BLOCKED; k++) {
		outbuf_printf(w, " %s ", state_name[k]);
		report_put_us_bare(w, sum[k]);
		outbuf_printf(w, " (thread %d's ", c->tid);
		report_put_us_bare(w, mine[k]);
		outbuf_printf(w, ")%s", k < SEG_BLOCKED ? ";" : "\n");
	}
out:
	ret = outbuf_flush(w);
	outbuf_free(w);
	return ret;
}
