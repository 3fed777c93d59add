// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu.c - off-CPU time by thread, stack and waker (offcpu.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/offcpu.h"
#include "analysis/report.h"
#include "analysis/schedlat.h"
#include "util/outbuf.h"
#include "util/array.h"
#include "util/u64map.h"

#define NONE	(-1)	/* no stack, no name */

/* Interned strings: stacks ("inner;...;outer") and names. */
struct strtab {
	char **s;
	size_t n, cap;
	struct u64map map;	/* hash -> index, equal hashes at hash + 1 */
};

/* A thread, and the sleep it is in. */
struct sleeper {
	int32_t tid, pid;
	int32_t comm;		/* strtab */
	bool asleep, woken;
	/* the filters select the thread (at its switch out), and the sleep:
	 * the thread and its switch out's or in's record */
	bool thread_selected, selected;
	/* woken while still on its CPU (schedlat.h): if it then switches
	 * out asleep, that sleep is over as it begins */
	bool early;
	uint64_t since, woken_at;
	int32_t stack;		/* at the switch out */
	int32_t waker_comm, waker_stack;
};

/* Time asleep of one thread at one stack, woken by one waker. */
struct row {
	uint32_t thread;	/* sleepers[] */
	int32_t stack, waker_comm, waker_stack;
	uint64_t ns, count;
};

struct offcpu {
	struct strtab str;
	struct sleeper *th;
	size_t nth, cap_th;
	struct u64map by_tid;	/* tid -> th */
	struct row *rows;
	size_t nrows, cap_rows;
	struct u64map by_row;	/* row_hash -> rows, equal at + 1 */
};

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* The index of s (n bytes), added if new; < 0: -ENOMEM. */
static int32_t intern(struct strtab *t, const char *s, size_t n)
{
	uint64_t h = hash_bytes(1469598103934665603ull, s, n);
	struct u64map_slot *slot;
	char *copy;

	for (;; h++) {
		slot = u64map_find(&t->map, h);
		if (!slot)
			break;
		if (!strncmp(t->s[slot->val], s, n) && !t->s[slot->val][n])
			return (int32_t)slot->val;
	}
	if (array_grow((void **)&t->s, &t->cap, t->n, sizeof(*t->s)))
		return -ENOMEM;
	copy = strndup(s, n);
	if (!copy || u64map_put(&t->map, h, (uint32_t)t->n)) {
		free(copy);
		return -ENOMEM;
	}
	t->s[t->n] = copy;
	return (int32_t)t->n++;
}

int offcpu_new(struct offcpu **op)
{
	struct offcpu *o = calloc(1, sizeof(*o));

	if (!o)
		return -ENOMEM;
	if (u64map_init(&o->str.map) || u64map_init(&o->by_tid) ||
	    u64map_init(&o->by_row)) {
		offcpu_free(o);
		return -ENOMEM;
	}
	*op = o;
	return 0;
}

void offcpu_free(struct offcpu *o)
{
	size_t i;

	if (!o)
		return;
	for (i = 0; i < o->str.n; i++)
		free(o->str.s[i]);
	free(o->str.s);
	u64map_free(&o->str.map);
	u64map_free(&o->by_tid);
	u64map_free(&o->by_row);
	free(o->th);
	free(o->rows);
	free(o);
}

/* Thread tid's state, made if new; NULL: -ENOMEM. */
static struct sleeper *sleeper_of(struct offcpu *o, int32_t tid)
{
	struct u64map_slot *slot = u64map_find(&o->by_tid, (uint32_t)tid);
	struct sleeper *s;

	if (slot)
		return &o->th[slot->val];
	if (array_grow((void **)&o->th, &o->cap_th, o->nth, sizeof(*o->th)) ||
	    u64map_put(&o->by_tid, (uint32_t)tid, (uint32_t)o->nth))
		return NULL;
	s = &o->th[o->nth++];
	memset(s, 0, sizeof(*s));
	s->tid = tid;
	s->pid = -1;
	s->comm = s->stack = s->waker_comm = s->waker_stack = NONE;
	return s;
}

static int32_t name_of(struct offcpu *o, const struct proc *p)
{
	return p && p->comm_len ? intern(&o->str, p->comm, p->comm_len) : NONE;
}

/* The first call stack of ev, "inner;...;outer" by function; NONE. */
static int32_t stack_of(struct offcpu *o, const struct event *ev)
{
	const struct value *v = NULL;
	char buf[EVENT_MAX_ADDRS * 40], *w = buf;
	const char *sym, *end;
	unsigned int i;
	int n;

	for (i = 0; i < ev->nvalues && !v; i++)
		if (ev->v[i].f->type == LKET_ADDRS && ev->v[i].n)
			v = &ev->v[i];
	if (!v)
		return NONE;
	for (i = 0; i < v->n; i++) {
		sym = v->syms ? v->syms[i] : NULL;
		if (sym) {
			end = sym + strcspn(sym, "+ ");
			n = snprintf(w, (size_t)(buf + sizeof(buf) - w), "%s%.*s",
				     i ? ";" : "", (int)(end - sym), sym);
		} else {
			n = snprintf(w, (size_t)(buf + sizeof(buf) - w),
				     "%s0x%llx", i ? ";" : "",
				     (unsigned long long)v->a[i]);
		}
		if (n < 0 || n >= buf + sizeof(buf) - w)
			break;
		w += n;
	}
	return intern(&o->str, buf, (size_t)(w - buf));
}

/* The sleep of s ends at ts: into its row. */
static int sleep_ends(struct offcpu *o, struct sleeper *s, uint64_t ts)
{
	int32_t key[4] = { s->tid, s->stack, s->waker_comm, s->waker_stack };
	uint64_t h = hash_bytes(1469598103934665603ull, key, sizeof(key));
	uint64_t end = s->woken ? s->woken_at : ts;
	struct u64map_slot *slot;
	struct row *r;

	s->asleep = false;
	if (!s->selected || end < s->since)
		return 0;
	for (;; h++) {
		slot = u64map_find(&o->by_row, h);
		if (!slot)
			break;
		r = &o->rows[slot->val];
		if (o->th[r->thread].tid == s->tid && r->stack == s->stack &&
		    r->waker_comm == s->waker_comm &&
		    r->waker_stack == s->waker_stack)
			goto add;
	}
	if (array_grow((void **)&o->rows, &o->cap_rows, o->nrows, sizeof(*o->rows)) ||
	    u64map_put(&o->by_row, h, (uint32_t)o->nrows))
		return -ENOMEM;
	r = &o->rows[o->nrows++];
	memset(r, 0, sizeof(*r));
	r->thread = (uint32_t)(s - o->th);
	r->stack = s->stack;
	r->waker_comm = s->waker_comm;
	r->waker_stack = s->waker_stack;
add:
	r->ns += end - s->since;
	r->count++;
	return 0;
}

static int on_switch(struct offcpu *o, const struct event *ev,
		     const struct proc *proc, const struct selection *sel)
{
	int64_t prev = event_int(ev, "prev_pid", -1);
	int64_t next = event_int(ev, "next_pid", -1);
	int64_t state = event_int(ev, "prev_state", -1);
	struct sleeper *s;
	int ret;

	if (prev < 0 || next < 0 || state < 0)
		return 0;
	if (next > 0) {
		s = sleeper_of(o, (int32_t)next);
		if (!s)
			return -ENOMEM;
		s->early = false;
		if (s->asleep) {
			s->selected |= s->thread_selected && sel->record;
			ret = sleep_ends(o, s, ev->rec->timestamp);
			if (ret)
				return ret;
		}
	}
	if (prev <= 0)			/* the idle task */
		return 0;
	s = sleeper_of(o, (int32_t)prev);
	if (!s)
		return -ENOMEM;
	/* preempted, it is runnable; exited, it never wakes */
	if (state == SCHED_RUNNABLE || sched_exited(state)) {
		s->early = false;
		return 0;
	}
	s->asleep = true;
	s->woken = s->early;
	s->woken_at = ev->rec->timestamp;
	s->thread_selected = selection_thread(sel, (uint32_t)prev, ev->cpu);
	s->selected = s->thread_selected && sel->record;
	s->since = ev->rec->timestamp;
	s->stack = stack_of(o, ev);
	if (!s->early)
		s->waker_comm = s->waker_stack = NONE;
	s->early = false;
	if (proc) {
		s->pid = proc->pid;
		s->comm = name_of(o, proc);
	}
	return s->stack < NONE || s->comm < NONE ? -ENOMEM : 0;
}

static int on_wakeup(struct offcpu *o, const struct event *ev,
		     const struct proc *proc)
{
	int64_t tid = event_int(ev, "tid", 0);
	struct sleeper *s;

	if (tid <= 0)
		return 0;
	s = sleeper_of(o, (int32_t)tid);
	if (!s)
		return -ENOMEM;
	if (s->asleep && s->woken)
		return 0;
	/* not asleep yet: it may be on its way there (schedlat.h) */
	s->early = !s->asleep;
	s->woken = s->asleep;
	s->woken_at = ev->rec->timestamp;
	s->waker_comm = name_of(o, proc);
	s->waker_stack = stack_of(o, ev);
	return s->waker_comm < NONE || s->waker_stack < NONE ? -ENOMEM : 0;
}

int offcpu_event(struct offcpu *o, const struct event *ev,
		 const struct proc *proc, const struct selection *sel)
{
	if (!ev->meta || !ev->meta->named)
		return 0;
	switch (ev->meta->ev) {
	case LKET_EV_TASK_CTXSWITCH:
		return on_switch(o, ev, proc, sel);
	case LKET_EV_TASK_WAKEUP:
	case LKET_EV_TASK_WAKEUP_NEW:
		return on_wakeup(o, ev, proc);
	default:
		return 0;
	}
}

/* ---- the reports ------------------------------------------------------ */

/* Threads by time asleep, most first; their rows likewise. */
struct order {
	const struct offcpu *o;
	uint64_t *thread_ns;	/* by sleepers[] */
	uint32_t *rows;		/* indices of rows[], sorted */
};

static const struct order *sorting;

static int cmp_rows(const void *a, const void *b)
{
	const struct row *x = &sorting->o->rows[*(const uint32_t *)a];
	const struct row *y = &sorting->o->rows[*(const uint32_t *)b];
	uint64_t tx = sorting->thread_ns[x->thread];
	uint64_t ty = sorting->thread_ns[y->thread];

	if (tx != ty)
		return tx < ty ? 1 : -1;
	if (x->thread != y->thread)
		return sorting->o->th[x->thread].tid <
		       sorting->o->th[y->thread].tid ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) -
	       (*(const uint32_t *)a < *(const uint32_t *)b);
}

static int order_make(struct order *ord, const struct offcpu *o)
{
	size_t i;

	ord->o = o;
	ord->thread_ns = calloc(o->nth + 1, sizeof(*ord->thread_ns));
	ord->rows = malloc((o->nrows + 1) * sizeof(*ord->rows));
	if (!ord->thread_ns || !ord->rows) {
		free(ord->thread_ns);
		free(ord->rows);
		ord->thread_ns = NULL;
		ord->rows = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < o->nrows; i++) {
		ord->thread_ns[o->rows[i].thread] += o->rows[i].ns;
		ord->rows[i] = (uint32_t)i;
	}
	sorting = ord;
	if (o->nrows > 1)
		qsort(ord->rows, o->nrows, sizeof(*ord->rows), cmp_rows);
	sorting = NULL;
	return 0;
}

static const char *str(const struct offcpu *o, int32_t i, const char *none)
{
	return i >= 0 ? o->str.s[i] : none;
}

/* s, its ';' shown as " <- " (text: innermost frame first) */
static void put_stack(struct outbuf *w, const char *label, const char *s)
{
	outbuf_printf(w, "      %s: ", label);
	for (; *s; s++) {
		if (*s == ';')
			outbuf_printf(w, " <- ");
		else
			outbuf_printf(w, "%c", *s > ' ' && *s < 127 ? *s : '?');
	}
	outbuf_printf(w, "\n");
}

int offcpu_write(const struct offcpu *o, int fd)
{
	struct outbuf ob, *w = &ob;
	struct order ord;
	const struct sleeper *s;
	const struct row *r;
	uint64_t count;
	size_t i, k;
	int ret;

	ret = order_make(&ord, o);
	if (ret)
		return ret;
	ret = outbuf_init(w, fd, 8192);
	if (ret) {
		free(ord.thread_ns);
		free(ord.rows);
		return ret;
	}
	outbuf_printf(w, "# lket-b2a off-CPU report: time each thread spent switched out asleep, until its wake-up; times in microseconds\n");
	for (i = 0; i < o->nrows; i++) {
		r = &o->rows[ord.rows[i]];
		s = &o->th[r->thread];
		if (!i || o->rows[ord.rows[i - 1]].thread != r->thread) {
			for (count = 0, k = i; k < o->nrows &&
			     o->rows[ord.rows[k]].thread == r->thread; k++)
				count += o->rows[ord.rows[k]].count;
			outbuf_printf(w, "\nthread %d (%s, pid ", s->tid,
				      str(o, s->comm, "-"));
			if (s->pid >= 0)
				outbuf_printf(w, "%d", s->pid);
			else
				outbuf_printf(w, "-");
			outbuf_printf(w, "): asleep ");
			report_put_us_bare(w, ord.thread_ns[r->thread]);
			outbuf_printf(w, " us in %llu sleeps\n%18s %10s  %s\n",
				      (unsigned long long)count, "asleep", "sleeps",
				      "woken by");
		}
		report_put_us(w, r->ns);
		outbuf_printf(w, " %10llu  %s\n", (unsigned long long)r->count,
			      r->waker_comm >= 0 ? o->str.s[r->waker_comm] :
			      "(wake-up not recorded)");
		if (r->stack >= 0)
			put_stack(w, "asleep in", o->str.s[r->stack]);
		if (r->waker_stack >= 0)
			put_stack(w, "waker", o->str.s[r->waker_stack]);
	}
	ret = outbuf_flush(w);
	outbuf_free(w);
	free(ord.thread_ns);
	free(ord.rows);
	return ret;
}

/* s's frames outer first (folded stacks), each after a ';' */
static void put_outer_first(struct outbuf *w, const char *s)
{
	const char *end = s + strlen(s), *p;

	while (end > s) {
		for (p = end; p > s && p[-1] != ';'; p--)
			;
		outbuf_printf(w, ";%.*s", (int)(end - p), p);
		end = p > s ? p - 1 : s;
	}
}

/* s's frames inner first, each after a ';' */
static void put_inner_first(struct outbuf *w, const char *s)
{
	if (*s)
		outbuf_printf(w, ";%s", s);
}

/* A name for the folded form: no ';' or ' ', which separate there */
static void put_name(struct outbuf *w, const char *s)
{
	for (; *s; s++)
		outbuf_printf(w, "%c", *s == ';' || *s == ' ' ? '_' :
			      *s > ' ' && *s < 127 ? *s : '?');
}

int offcpu_write_folded(const struct offcpu *o, int fd)
{
	struct outbuf ob, *w = &ob;
	struct order ord;
	const struct sleeper *s;
	const struct row *r;
	size_t i;
	int ret;

	ret = order_make(&ord, o);
	if (ret)
		return ret;
	ret = outbuf_init(w, fd, 8192);
	for (i = 0; !ret && i < o->nrows; i++) {
		r = &o->rows[ord.rows[i]];
		s = &o->th[r->thread];
		put_name(w, str(o, s->comm, "-"));
		outbuf_printf(w, "-%d", s->tid);
		if (r->stack >= 0)
			put_outer_first(w, o->str.s[r->stack]);
		outbuf_printf(w, ";--");
		if (r->waker_stack >= 0)
			put_inner_first(w, o->str.s[r->waker_stack]);
		outbuf_printf(w, ";");
		put_name(w, str(o, r->waker_comm, "-"));
		outbuf_printf(w, " %llu\n", (unsigned long long)r->ns);
	}
	if (!ret) {
		ret = outbuf_flush(w);
		outbuf_free(w);
	}
	free(ord.thread_ns);
	free(ord.rows);
	return ret;
}
