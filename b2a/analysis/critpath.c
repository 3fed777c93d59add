// SPDX-License-Identifier: GPL-2.0
/*
 * critpath.c - the threads' running, runnable and blocked segments, and
 * the backward walk through wakers, done as each blocked segment of the
 * thread asked for ends (critpath.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critpath.h"
#include "analysis/report.h"
#include "analysis/schedlat.h"
#include "util/outbuf.h"
#include "util/array.h"
#include "util/u64map.h"

enum seg_state {
	SEG_RUNNING, SEG_RUNNABLE, SEG_BLOCKED,
	SEG_BLOCKED_ON,		/* the walk's: a waker's segments follow */
	SEG_BLOCKED_UNSEEN,	/* the walk's: blocked before its waker's
				   first segment */
};

static const char *const state_name[] = {
	[SEG_RUNNING] = "running", [SEG_RUNNABLE] = "runnable",
	[SEG_BLOCKED] = "blocked", [SEG_BLOCKED_ON] = "blocked on",
	[SEG_BLOCKED_UNSEEN] = "blocked",
};

#define NO_WAKER	(-1)	/* blocked to the end, or woken unseen */

struct seg {
	uint64_t start, end;
	uint64_t woken;		/* SEG_BLOCKED_UNSEEN: the wake-up */
	int32_t tid;		/* whose segment */
	int32_t waker;		/* SEG_BLOCKED*: the wake-up record's task
				   (0 the idle task); NO_WAKER */
	uint8_t state, depth;
	bool irq;		/* woken in interrupt context (waker: the
				   task the interrupt hit) */
};

struct thread {
	int32_t tid;
	char comm[PROC_COMM_LEN + 1];
	/* its segments that the walk may still reach, oldest first:
	 * s[head] to s[n - 1] */
	struct seg *s;
	size_t head, n, cap;
	bool open;		/* a segment since `since' in `state' */
	uint8_t state;
	uint64_t since;
	/* woken while still on its CPU, about to sleep (schedlat.h): the
	 * waker, if it then switches out asleep; NO_WAKER none */
	int32_t early_waker;
};

/* A CPU: since when its current task has run. */
struct cpu_clock {
	uint64_t since;		/* its last switch, else its first event */
	bool known;
};

struct critpath {
	int32_t tid;		/* the thread asked for */
	struct thread *th;
	size_t nth, cap;
	struct u64map by_tid;
	struct cpu_clock *cpus;
	size_t ncpus;
	uint64_t last;		/* the latest time seen */
	/* the thread asked for: its first and last switch's times */
	bool have_from;
	uint64_t from, to;
	/* its path, oldest first; a walk's, newest first, in scratch */
	struct seg *path, *scratch;
	size_t npath, cap_path, nscratch, cap_scratch;
	/* segments kept, all threads; as many after the last pruning */
	size_t kept, kept_pruned;
};

/* Pruned when the segments kept double (and are at least this many). */
#define PRUNE_MIN	4096

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
	free(c->cpus);
	free(c->path);
	free(c->scratch);
	u64map_free(&c->by_tid);
	free(c);
}

size_t critpath_kept(const struct critpath *c)
{
	return c->kept;
}

static struct thread *find(const struct critpath *c, int32_t tid)
{
	struct u64map_slot *slot = u64map_find(&c->by_tid, (uint32_t)tid);

	return slot ? &c->th[slot->val] : NULL;
}

static struct thread *thread_of(struct critpath *c, int32_t tid)
{
	struct thread *t = find(c, tid);

	if (t)
		return t;
	if (array_grow((void **)&c->th, &c->cap, c->nth, sizeof(*c->th)) ||
	    u64map_put(&c->by_tid, (uint32_t)tid, (uint32_t)c->nth))
		return NULL;
	t = &c->th[c->nth++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->early_waker = NO_WAKER;
	return t;
}

/* CPU cpu's clock, made if new; NULL: -ENOMEM. */
static struct cpu_clock *cpu_of(struct critpath *c, unsigned int cpu)
{
	struct cpu_clock *more;
	size_t n = c->ncpus;

	if (cpu < n)
		return &c->cpus[cpu];
	more = realloc(c->cpus, (cpu + 1) * sizeof(*more));
	if (!more)
		return NULL;
	memset(more + n, 0, (cpu + 1 - n) * sizeof(*more));
	c->cpus = more;
	c->ncpus = cpu + 1;
	return &c->cpus[cpu];
}

static int push(struct seg **v, size_t *n, size_t *cap, struct seg s)
{
	if (array_grow((void **)v, cap, *n, sizeof(**v)))
		return -ENOMEM;
	(*v)[(*n)++] = s;
	return 0;
}

/* ---- the walk --------------------------------------------------------- */

/* Whether the walk goes on in the waker of s, a segment of tid. */
static bool descends(const struct seg *s, int32_t tid, unsigned int depth)
{
	return s->state == SEG_BLOCKED && s->waker > 0 && s->waker != tid &&
	       !s->irq && depth < CRITPATH_DEPTH;
}

static int walk(struct critpath *c, int32_t tid, uint64_t from, uint64_t to,
		unsigned int depth, uint64_t *covered);

/*
 * s, a blocked segment of depth - 1 that its waker ended, into scratch:
 * the waker's path over it, under a SEG_BLOCKED_ON line, and before the
 * waker's first segment (what it did then the trace does not say) a
 * SEG_BLOCKED_UNSEEN one; s as it is where nothing of the waker's is.
 */
static int descend(struct critpath *c, struct seg s, unsigned int depth)
{
	struct seg on = s, unseen = s;
	uint64_t covered;
	int ret;

	ret = walk(c, s.waker, s.start, s.end, depth, &covered);
	if (ret || covered >= s.end)
		return ret ? ret : push(&c->scratch, &c->nscratch,
					&c->cap_scratch, s);
	/* pushed after the waker's: shown before it, newest first */
	on.start = covered;
	on.state = SEG_BLOCKED_ON;
	ret = push(&c->scratch, &c->nscratch, &c->cap_scratch, on);
	if (ret || covered == s.start)
		return ret;
	unseen.end = covered;
	unseen.woken = s.end;
	unseen.state = SEG_BLOCKED_UNSEEN;
	return push(&c->scratch, &c->nscratch, &c->cap_scratch, unseen);
}

/* s clipped to [from, to) at depth into scratch, descending if it leads
 * on; *cursor: its start. */
static int walk_seg(struct critpath *c, struct seg s, uint64_t from,
		    uint64_t to, unsigned int depth, uint64_t *cursor)
{
	s.start = s.start > from ? s.start : from;
	s.end = s.end < to ? s.end : to;
	s.depth = (uint8_t)depth;
	*cursor = s.start;
	if (descends(&s, s.tid, depth))
		return descend(c, s, depth + 1);
	return push(&c->scratch, &c->nscratch, &c->cap_scratch, s);
}

/*
 * tid's path over [from, to) into scratch, newest first, depth wakers
 * down: its segments there, each blocked one that a task ended replaced
 * by that task's path over it.  *covered: where its segments start, to
 * if none reaches to (the trace says nothing of it there yet).
 */
static int walk(struct critpath *c, int32_t tid, uint64_t from, uint64_t to,
		unsigned int depth, uint64_t *covered)
{
	const struct thread *t = find(c, tid);
	uint64_t cursor = to;
	struct seg s;
	size_t i;
	int ret = 0;

	*covered = to;
	if (!t)
		return 0;
	/* the segment it is in: it goes on past to */
	if (t->open && t->since < to) {
		s = (struct seg){ .start = t->since, .end = to, .tid = tid,
				  .waker = NO_WAKER, .state = t->state };
		ret = walk_seg(c, s, from, to, depth, &cursor);
	}
	for (i = t->n; !ret && i-- > t->head && cursor > from;) {
		s = t->s[i];
		if (s.start >= to)
			continue;
		/* a gap (a task that exited, its tid taken again): the
		 * trace does not say what it did before */
		if (s.end < cursor)
			break;
		ret = walk_seg(c, s, from, to, depth, &cursor);
	}
	*covered = cursor;
	return ret;
}

/*
 * A segment of the thread asked for has ended: onto the path, and a
 * blocked one that a task ended with that task's path over it.
 */
static int path_add(struct critpath *c, struct seg s)
{
	size_t k;
	int ret;

	if (!c->have_from || s.end <= c->from)
		return 0;
	if (s.start < c->from)
		s.start = c->from;
	c->to = s.end;
	if (!descends(&s, c->tid, 0))
		return push(&c->path, &c->npath, &c->cap_path, s);
	c->nscratch = 0;
	ret = descend(c, s, 1);
	for (k = c->nscratch; !ret && k-- > 0;)
		ret = push(&c->path, &c->npath, &c->cap_path, c->scratch[k]);
	return ret;
}

/* ---- the segments ----------------------------------------------------- */

/*
 * Drop what no walk can reach any more: a walk goes over the time the
 * thread asked for was blocked, so nothing that ended before its blocked
 * segment began (or before now, when it is not blocked) is needed.
 */
static void prune(struct critpath *c)
{
	const struct thread *me = find(c, c->tid);
	uint64_t horizon = me && me->open && me->state == SEG_BLOCKED ?
			   me->since : c->last;
	struct thread *t;
	size_t i;

	c->kept = 0;
	for (i = 0; i < c->nth; i++) {
		t = &c->th[i];
		while (t->head < t->n && t->s[t->head].end <= horizon)
			t->head++;
		if (t->head == t->n) {
			free(t->s);
			t->s = NULL;
			t->head = t->n = t->cap = 0;
		} else if (t->head > t->n / 2) {
			t->n -= t->head;
			memmove(t->s, t->s + t->head, t->n * sizeof(*t->s));
			t->head = 0;
		}
		c->kept += t->n - t->head;
	}
	c->kept_pruned = c->kept;
}

/* The segment t is in ends at ts (woken by waker, if blocked). */
static int seg_close(struct critpath *c, struct thread *t, uint64_t ts,
		     int32_t waker, bool irq)
{
	struct seg s;
	int ret;

	if (!t->open)
		return 0;
	t->open = false;
	if (ts <= t->since)	/* nothing to show */
		return 0;
	s = (struct seg){ .start = t->since, .end = ts, .tid = t->tid,
			  .waker = waker, .state = t->state, .irq = irq };
	if (t->tid == c->tid)
		return path_add(c, s);
	ret = push(&t->s, &t->n, &t->cap, s);
	if (ret)
		return ret;
	if (++c->kept >= 2 * c->kept_pruned + PRUNE_MIN)
		prune(c);
	return 0;
}

static void seg_open(struct thread *t, uint64_t ts, enum seg_state state)
{
	t->open = true;
	t->state = (uint8_t)state;
	t->since = ts;
}

/* A task seen on its CPU with no segment open: it has run there since
 * the CPU's last switch (or its first event). */
static void running_since(struct thread *t, const struct cpu_clock *k,
			  uint64_t ts)
{
	if (!t->open)
		seg_open(t, k->since < ts ? k->since : ts, SEG_RUNNING);
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
		     const struct proc *proc, struct cpu_clock *k,
		     uint64_t ts)
{
	int64_t prev = event_int(ev, "prev_pid", -1);
	int64_t next = event_int(ev, "next_pid", -1);
	int64_t state = event_int(ev, "prev_state", -1);
	struct thread *t;
	int ret = 0;

	if (prev < 0 || next < 0 || state < 0)
		return 0;
	if (!c->have_from && (prev == c->tid || next == c->tid)) {
		c->have_from = true;
		c->from = ts;
	}
	if (prev > 0) {
		t = thread_of(c, (int32_t)prev);
		if (!t)
			return -ENOMEM;
		if (proc && proc->tid == (uint32_t)prev)
			name(t, proc->comm, proc->comm_len);
		/* its segment, whatever it was said to be, ends: it ran;
		 * asleep but woken already: its sleep ends as it begins;
		 * exited: it has no time after this */
		running_since(t, k, ts);
		ret = seg_close(c, t, ts, NO_WAKER, false);
		if (!ret && !sched_exited(state))
			seg_open(t, ts, state != SCHED_RUNNABLE &&
				 t->early_waker == NO_WAKER ?
				 SEG_BLOCKED : SEG_RUNNABLE);
		t->early_waker = NO_WAKER;
	}
	if (!ret && next > 0) {
		t = thread_of(c, (int32_t)next);
		if (!t)
			return -ENOMEM;
		ret = seg_close(c, t, ts, NO_WAKER, false);
		seg_open(t, ts, SEG_RUNNING);
		t->early_waker = NO_WAKER;
	}
	k->since = ts;
	return ret;
}

static int on_wakeup(struct critpath *c, const struct event *ev,
		     const struct cpu_clock *k, uint64_t ts)
{
	int64_t tid = event_int(ev, "tid", 0);
	const struct value *woken = event_value(ev, "name");
	bool irq = ev->rec->flags & LKET_RECORD_IRQ;
	int32_t waker = (int32_t)ev->tid;
	struct thread *t;
	int ret;

	if (tid <= 0)
		return 0;
	/* a task that wakes another is on its CPU (not an interrupt's) */
	if (waker > 0 && !irq) {
		t = thread_of(c, waker);
		if (!t)
			return -ENOMEM;
		running_since(t, k, ts);
	}
	t = thread_of(c, (int32_t)tid);
	if (!t)
		return -ENOMEM;
	if (woken && woken->f->type == LKET_STRING)
		name(t, woken->s, woken->slen);
	if (t->open && t->state == SEG_RUNNING)
		t->early_waker = waker;
	/* first seen, or exited and its tid taken again: runnable now */
	if (!t->open) {
		seg_open(t, ts, SEG_RUNNABLE);
		return 0;
	}
	if (t->state != SEG_BLOCKED)
		return 0;
	ret = seg_close(c, t, ts, waker, irq);
	seg_open(t, ts, SEG_RUNNABLE);
	return ret;
}

int critpath_event(struct critpath *c, const struct event *ev,
		   const struct proc *proc)
{
	uint64_t ts = ev->rec->timestamp;
	struct cpu_clock *k;

	if (ts > c->last)
		c->last = ts;
	k = cpu_of(c, ev->cpu);
	if (!k)
		return -ENOMEM;
	if (!k->known) {
		k->known = true;
		k->since = ts;
	}
	if (!ev->meta || !ev->meta->named)
		return 0;
	switch (ev->meta->ev) {
	case LKET_EV_TASK_CTXSWITCH:
		return on_switch(c, ev, proc, k, ts);
	case LKET_EV_TASK_WAKEUP:
	case LKET_EV_TASK_WAKEUP_NEW:
		return on_wakeup(c, ev, k, ts);
	default:
		return 0;
	}
}

/* ---- the output ------------------------------------------------------- */

static const char *comm_of(const struct critpath *c, int32_t tid)
{
	const struct thread *t = find(c, tid);

	if (!tid)
		return "an interrupt or the idle task";
	return t && t->comm[0] ? t->comm : "?";
}

static void put_time(struct outbuf *w, uint64_t ns)
{
	outbuf_printf(w, "%llu.%09llu", (unsigned long long)(ns / 1000000000),
		      (unsigned long long)(ns % 1000000000));
}

/* Who ended a blocked segment s, and when. */
static void put_waker(struct outbuf *w, const struct critpath *c,
		      const struct seg *s)
{
	if (s->state == SEG_BLOCKED_ON) {
		outbuf_printf(w, " %d (%s), who woke it at ", s->waker,
			      comm_of(c, s->waker));
	} else if (s->waker < 0) {
		outbuf_printf(w, ", not woken in the trace\n");
		return;
	} else if (s->irq && s->waker) {
		outbuf_printf(w, ", woken by an interrupt of %d (%s) at ",
			      s->waker, comm_of(c, s->waker));
	} else if (s->irq) {
		outbuf_printf(w, ", woken by an interrupt of the idle task at ");
	} else {
		outbuf_printf(w, ", woken by %d (%s) at ", s->waker,
			      comm_of(c, s->waker));
	}
	put_time(w, s->state == SEG_BLOCKED_UNSEEN ? s->woken : s->end);
	if (s->state == SEG_BLOCKED_UNSEEN) {
		outbuf_printf(w, ", of whom the trace says nothing before ");
		put_time(w, s->end);
	}
	outbuf_printf(w, "\n");
}

int critpath_write(struct critpath *c, int fd)
{
	struct outbuf ob, *w = &ob;
	struct thread *me = find(c, c->tid);
	uint64_t sum[SEG_BLOCKED + 1] = { 0 }, mine[SEG_BLOCKED + 1] = { 0 };
	const struct seg *s;
	unsigned int state;
	size_t k;
	int ret;

	/* what is still open ends with the trace */
	if (me) {
		ret = seg_close(c, me, c->last, NO_WAKER, false);
		if (ret)
			return ret;
	}
	ret = outbuf_init(w, fd, 8192);
	if (ret)
		return ret;
	outbuf_printf(w, "# lket-b2a critical path of thread %d (%s)", c->tid,
		      comm_of(c, c->tid));
	if (!c->have_from || !c->npath) {
		outbuf_printf(w, ": no context switch of it in the trace\n");
		goto out;
	}
	outbuf_printf(w, ", ");
	put_time(w, c->from);
	outbuf_printf(w, " to ");
	put_time(w, c->to);
	outbuf_printf(w, "; times in microseconds; a waker's path is indented under what it ended\n%-20s %18s %8s %-16s %s\n",
		      "start", "duration", "tid", "comm", "state");
	for (k = 0; k < c->npath; k++) {
		s = &c->path[k];
		put_time(w, s->start);
		outbuf_printf(w, "%*s", 1 + 2 * s->depth, "");
		report_put_us(w, s->end - s->start);
		outbuf_printf(w, " %8d %-16s %s", s->tid, comm_of(c, s->tid),
			      state_name[s->state]);
		if (s->state >= SEG_BLOCKED)
			put_waker(w, c, s);
		else
			outbuf_printf(w, "\n");
		if (s->state == SEG_BLOCKED_ON)
			continue;
		state = s->state == SEG_BLOCKED_UNSEEN ? SEG_BLOCKED : s->state;
		sum[state] += s->end - s->start;
		if (s->tid == c->tid)
			mine[state] += s->end - s->start;
	}
	outbuf_printf(w, "\non the path:");
	for (state = SEG_RUNNING; state <= SEG_BLOCKED; state++) {
		outbuf_printf(w, " %s ", state_name[state]);
		report_put_us_bare(w, sum[state]);
		outbuf_printf(w, " (thread %d's ", c->tid);
		report_put_us_bare(w, mine[state]);
		outbuf_printf(w, ")%s", state < SEG_BLOCKED ? ";" : "\n");
	}
out:
	ret = outbuf_flush(w);
	outbuf_free(w);
	return ret;
}

int32_t critpath_tid(const struct critpath *c)
{
	return c->tid;
}

int critpath_each(struct critpath *c, critpath_fn fn, void *ctx)
{
	struct thread *me = find(c, c->tid);
	struct critpath_seg out;
	const struct seg *s;
	size_t k;
	int ret = 0;

	/* what is still open ends with the trace, as in critpath_write() */
	if (me)
		ret = seg_close(c, me, c->last, NO_WAKER, false);
	for (k = 0; !ret && c->have_from && k < c->npath; k++) {
		s = &c->path[k];
		out = (struct critpath_seg){
			.start = s->start, .end = s->end, .tid = s->tid,
			/* an interrupt's wake-up is no work of the task
			 * it hit */
			.waker = s->irq ? 0 : s->waker, .depth = s->depth,
			.state = s->state == SEG_RUNNING ? CRITPATH_RUNNING :
				 s->state == SEG_RUNNABLE ? CRITPATH_RUNNABLE :
				 s->state == SEG_BLOCKED_ON ? CRITPATH_BLOCKED_ON :
				 CRITPATH_BLOCKED,
			.comm = comm_of(c, s->tid),
		};
		ret = fn(ctx, &out);
	}
	return ret;
}
