// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - the latency report: entry/return pairs (the catalogue's
 * LKET_PAIR) and request lifecycles (report.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/report.h"
#include "analysis/schedlat.h"
#include "runtime/lket_format.h"
#include "util/outbuf.h"
#include "util/u64map.h"

/* ---- the report ------------------------------------------------------- */

#define MAX_STAGES	4

/* What a pending entry or request remembers of its beginning. */
struct pending {
	uint64_t ts[MAX_STAGES];	/* 0: stage not seen */
	int32_t pid;
	char comm[PROC_COMM_LEN + 1];
	bool selected;
	uint32_t next_free;
};

struct label {
	char *name;
	uint64_t unmatched_begin, unmatched_end;
	uint64_t negative;	/* ended before they began: left out */
};

/* The latencies of one label in one process, or in one thread. */
struct acc {
	uint32_t label;
	int32_t pid;
	int32_t tid;		/* -1: the process's */
	char comm[PROC_COMM_LEN + 1];
	uint64_t *v;
	size_t n, cap;
};

enum kind { K_UNKNOWN, K_NONE, K_ENTRY, K_RETURN, K_STAGE, K_WAKEUP,
	    K_SWITCH };

/* The fields a scheduling event is read by, in struct class's sched[]. */
enum { F_WOKEN_TID, F_WOKEN_PID, F_WOKEN_NAME };
enum { F_PREV_TID, F_NEXT_TID, F_PREV_STATE };
#define SCHED_LABEL	"tskdispatch wakeup->switch-in"

/* What (group, hook) is to the report, worked out once. */
struct class {
	uint8_t kind;
	uint8_t lc, stage;	/* K_STAGE */
	uint8_t pair;		/* K_ENTRY/K_RETURN: its pair_facts[] */
	int16_t field;		/* syscall_name or request_addr; -1 none */
	int16_t sched[3];	/* K_WAKEUP, K_SWITCH: F_* */
	uint32_t label;		/* K_ENTRY/K_RETURN, unless by field */
	const void *meta;	/* the metadata this was worked out from */
};

/*
 * A request's lifecycle: the catalogue's events of its stages, in order,
 * matched by name to the trace's, and the field that tells one request
 * from another.  Its latencies are labelled "<group> <stage>-><stage>".
 */
struct lifecycle {
	enum lket_group group;
	const char *key, *short_name[MAX_STAGES];
	enum lket_event_index event[MAX_STAGES];
	unsigned int n;
};

static const struct lifecycle lifecycles[] = {
	{ LKET_GROUP_IOSCHED, "request_addr",
	  { "add", "dispatch", "complete" },
	  { LKET_EV_IOSCHED_ELV_ADD_REQUEST,
	    LKET_EV_IOSCHED_ELV_NEXT_REQUEST_RETURN,
	    LKET_EV_IOSCHED_ELV_COMPLETED_REQUEST }, 3 },
	{ LKET_GROUP_SCSI, "request_addr",
	  { "ioentry", "iodispatching", "iodone", "iocompleted" },
	  { LKET_EV_SCSI_IOENTRY, LKET_EV_SCSI_IODISPATCHING,
	    LKET_EV_SCSI_IODONE, LKET_EV_SCSI_IOCOMPLETED }, 4 },
};

#define NLC (sizeof(lifecycles) / sizeof(lifecycles[0]))

/*
 * The events that pair up by thread, entry and return: the catalogue's
 * LKET_PAIR lines (runtime/lket_events.def), each naming its pair's label
 * and the field that also tells pairs apart (system calls: syscall_name).
 */
struct pair_fact {
	int ev;			/* LKET_EV_* */
	enum kind kind;		/* K_ENTRY or K_RETURN */
	const char *label;
	const char *key;	/* "": the thread alone */
};

static const struct pair_fact pair_facts[] = {
#define LKET_GROUP(...)
#define LKET_EVENT(...)
#define LKET_PAIR(NAME, role, label, key) \
	{ LKET_EV_##NAME, K_##role, label, key },
#include "runtime/lket_events.def"
#undef LKET_GROUP
#undef LKET_EVENT
#undef LKET_PAIR
};

#define NPAIR_FACTS	(sizeof(pair_facts) / sizeof(pair_facts[0]))
_Static_assert(NPAIR_FACTS <= 256, "struct class holds a pair's index in 8 bits");

struct report {
	struct class *classes;		/* 65536 */
	struct label *labels;
	size_t nlabels, cap_labels;
	struct u64map label_map;	/* name hash -> label, chained by probe */
	struct acc *accs;
	size_t naccs, cap_accs;
	struct u64map acc_map;		/* label << 32 | pid -> acc */
	struct u64map thread_acc_map;	/* label << 32 | tid -> acc */
	struct schedlat *sched;
	struct pending *pend;
	size_t npend, cap_pend;
	uint32_t free_pend;		/* 1-based; 0 none */
	struct u64map pairs;		/* tid << 32 | label -> pending */
	struct u64map requests[NLC];	/* request_addr -> pending */
	struct latency *out;
	size_t nout;
	uint32_t neg_label;	/* the last latency below zero */
	uint64_t neg_ns;
};

int report_new(struct report **rp)
{
	struct report *r = calloc(1, sizeof(*r));
	size_t i;

	if (!r)
		return -ENOMEM;
	r->classes = calloc(256 * 256, sizeof(*r->classes));
	if (!r->classes || u64map_init(&r->label_map) ||
	    u64map_init(&r->acc_map) || u64map_init(&r->thread_acc_map) ||
	    u64map_init(&r->pairs) || schedlat_new(&r->sched))
		goto nomem;
	for (i = 0; i < NLC; i++)
		if (u64map_init(&r->requests[i]))
			goto nomem;
	*rp = r;
	return 0;
nomem:
	report_free(r);
	return -ENOMEM;
}

void report_free(struct report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nlabels; i++)
		free(r->labels[i].name);
	for (i = 0; i < r->naccs; i++)
		free(r->accs[i].v);
	for (i = 0; i < NLC; i++)
		u64map_free(&r->requests[i]);
	free(r->labels);
	free(r->accs);
	free(r->pend);
	free(r->classes);
	u64map_free(&r->label_map);
	u64map_free(&r->acc_map);
	u64map_free(&r->thread_acc_map);
	schedlat_free(r->sched);
	u64map_free(&r->pairs);
	free(r->out);
	free(r);
}

static uint64_t hash_str(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* The label named s (n bytes), made if new; < 0: -ENOMEM. */
static int64_t intern(struct report *r, const char *s, size_t n)
{
	uint64_t h = hash_str(s, n);
	struct label *bigger;
	struct u64map_slot *slot;
	char *copy;

	/* equal hashes of different names: probe on with h + 1 */
	for (;; h++) {
		slot = u64map_find(&r->label_map, h);
		if (!slot)
			break;
		if (!strncmp(r->labels[slot->val].name, s, n) &&
		    !r->labels[slot->val].name[n])
			return slot->val;
	}
	if (r->nlabels == r->cap_labels) {
		r->cap_labels = r->cap_labels ? 2 * r->cap_labels : 64;
		bigger = realloc(r->labels, r->cap_labels * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		r->labels = bigger;
	}
	copy = strndup(s, n);
	if (!copy || u64map_put(&r->label_map, h, (uint32_t)r->nlabels)) {
		free(copy);
		return -ENOMEM;
	}
	memset(&r->labels[r->nlabels], 0, sizeof(r->labels[0]));
	r->labels[r->nlabels].name = copy;
	return (int64_t)r->nlabels++;
}

static int field_index(const struct event *ev, const char *name)
{
	unsigned int i;

	for (i = 0; i < ev->nsys; i++)
		if (!strcmp(ev->v[i].f->name, name))
			return (int)i;
	return -1;
}

/* ev's line in pair_facts[]; NPAIR_FACTS: none. */
static size_t pair_fact_of(int ev)
{
	size_t i;

	for (i = 0; ev >= 0 && i < NPAIR_FACTS; i++)
		if (pair_facts[i].ev == ev)
			return i;
	return NPAIR_FACTS;
}

/* The scheduling events, by the fields they are read by. */
static const struct {
	int ev;
	enum kind kind;
	const char *field[3];
} sched_events[] = {
	{ LKET_EV_TASK_WAKEUP, K_WAKEUP, { "tid", "pid", "name" } },
	{ LKET_EV_TASK_WAKEUP_NEW, K_WAKEUP, { "tid", "pid", "name" } },
	{ LKET_EV_TASK_CTXSWITCH, K_SWITCH,
	  { "prev_pid", "next_pid", "prev_state" } },
};

/* ev's fields by sched_events[i]'s names; K_NONE if one is missing. */
static int classify_sched(struct report *r, struct class *c,
			  const struct event *ev, size_t i)
{
	int64_t label;
	size_t k;
	int f;

	for (k = 0; k < 3; k++) {
		f = field_index(ev, sched_events[i].field[k]);
		if (f < 0)
			return 0;
		c->sched[k] = (int16_t)f;
	}
	label = intern(r, SCHED_LABEL, strlen(SCHED_LABEL));
	if (label < 0)
		return (int)label;
	c->label = (uint32_t)label;
	c->kind = (uint8_t)sched_events[i].kind;
	return 0;
}

static int classify(struct report *r, struct class *c, const struct event *ev)
{
	const struct pair_fact *f;
	size_t i, k;
	int64_t label;

	c->meta = ev->meta;
	c->kind = K_NONE;
	c->field = -1;
	for (i = 0; i < sizeof(sched_events) / sizeof(sched_events[0]); i++)
		if (ev->meta->ev == sched_events[i].ev)
			return classify_sched(r, c, ev, i);
	for (i = 0; i < NLC; i++)
		for (k = 0; k < lifecycles[i].n; k++)
			if (ev->meta->ev == (int)lifecycles[i].event[k]) {
				c->field = (int16_t)field_index(ev,
							lifecycles[i].key);
				if (c->field < 0)
					return 0;
				c->kind = K_STAGE;
				c->lc = (uint8_t)i;
				c->stage = (uint8_t)k;
				return 0;
			}
	i = pair_fact_of(ev->meta->ev);
	if (i == NPAIR_FACTS)
		return 0;
	f = &pair_facts[i];
	c->kind = (uint8_t)f->kind;
	c->pair = (uint8_t)i;
	if (f->key[0]) {	/* by the field's value, if it has one */
		c->field = (int16_t)field_index(ev, f->key);
		if (c->field >= 0 && ev->v[c->field].f->type == LKET_STRING)
			return 0;
		c->field = -1;
	}
	label = intern(r, f->label, strlen(f->label));
	if (label < 0)
		return (int)label;
	c->label = (uint32_t)label;
	return 0;
}

/* ns into label's latencies of process pid (tid -1) or of thread tid. */
static int add_latency(struct report *r, uint32_t label, int32_t pid,
		       const char *comm, int32_t tid, uint64_t ns)
{
	struct u64map *map = tid < 0 ? &r->acc_map : &r->thread_acc_map;
	uint64_t key = (uint64_t)label << 32 |
		       (uint32_t)(tid < 0 ? pid : tid);
	struct u64map_slot *slot = u64map_find(map, key);
	struct acc *a, *bigger;
	uint64_t *more;
	int ret;

	if (!slot) {
		if (r->naccs == r->cap_accs) {
			r->cap_accs = r->cap_accs ? 2 * r->cap_accs : 64;
			bigger = realloc(r->accs, r->cap_accs * sizeof(*bigger));
			if (!bigger)
				return -ENOMEM;
			r->accs = bigger;
		}
		ret = u64map_put(map, key, (uint32_t)r->naccs);
		if (ret)
			return ret;
		a = &r->accs[r->naccs++];
		memset(a, 0, sizeof(*a));
		a->label = label;
		a->pid = pid;
		a->tid = tid;
	} else {
		a = &r->accs[slot->val];
	}
	if (comm[0])
		memcpy(a->comm, comm, sizeof(a->comm));
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 16;
		more = realloc(a->v, a->cap * sizeof(*more));
		if (!more)
			return -ENOMEM;
		a->v = more;
	}
	a->v[a->n++] = ns;
	return 0;
}

/*
 * The latency from begin to end, unless time went back in between (a
 * CPU's clock stepped back, records out of order): a latency below zero
 * measures nothing, and is left out and counted; returns 1 then.
 */
static int latency(struct report *r, uint32_t label, const struct pending *p,
		   uint64_t begin, uint64_t end)
{
	if (end >= begin)
		return add_latency(r, label, p->pid, p->comm, -1, end - begin);
	r->labels[label].negative++;
	r->neg_label = label;
	r->neg_ns = begin - end;
	return 1;
}

const char *report_negative(const struct report *r, uint64_t *ns)
{
	*ns = r->neg_ns;
	return r->labels[r->neg_label].name;
}

static struct pending *pend_new(struct report *r, uint32_t *idx)
{
	struct pending *bigger;

	if (r->free_pend) {
		*idx = r->free_pend - 1;
		r->free_pend = r->pend[*idx].next_free;
	} else {
		if (r->npend == r->cap_pend) {
			r->cap_pend = r->cap_pend ? 2 * r->cap_pend : 256;
			bigger = realloc(r->pend, r->cap_pend * sizeof(*bigger));
			if (!bigger)
				return NULL;
			r->pend = bigger;
		}
		*idx = (uint32_t)r->npend++;
	}
	memset(&r->pend[*idx], 0, sizeof(r->pend[0]));
	return &r->pend[*idx];
}

static void pend_release(struct report *r, uint32_t idx)
{
	r->pend[idx].next_free = r->free_pend;
	r->free_pend = idx + 1;
}

static void pend_fill(struct pending *p, const struct proc *proc,
		      bool selected)
{
	p->pid = proc ? proc->pid : -1;
	if (proc && proc->comm_len)
		memcpy(p->comm, proc->comm, proc->comm_len);
	p->comm[proc ? proc->comm_len : 0] = '\0';
	p->selected = selected;
}

/*
 * Something begins (an entry, a request's first stage) at ts under key:
 * a begin still pending there never ended, and counts as unmatched for
 * label; the new one takes its place.
 */
static int pend_begin(struct report *r, struct u64map *m,
		      struct u64map_slot *slot, uint64_t key, int64_t label,
		      const struct proc *proc, bool selected, uint64_t ts)
{
	struct pending *p;
	uint32_t idx;
	int ret;

	if (slot) {
		p = &r->pend[slot->val];
		if (p->selected)
			r->labels[label].unmatched_begin++;
		memset(p, 0, sizeof(*p));
	} else {
		p = pend_new(r, &idx);
		if (!p)
			return -ENOMEM;
		ret = u64map_put(m, key, idx);
		if (ret)
			return ret;
	}
	pend_fill(p, proc, selected);
	p->ts[0] = ts;
	return 0;
}

static int on_pair(struct report *r, const struct class *c,
		   const struct event *ev, const struct proc *proc,
		   bool selected)
{
	uint64_t key, ts = ev->rec->timestamp;
	const struct value *v;
	struct pending *p;
	struct u64map_slot *slot;
	char name[300];
	int64_t label = c->label;
	uint32_t idx;
	int n, ret;

	if (c->field >= 0) {
		if ((unsigned int)c->field >= ev->nsys)
			return 0;	/* cut short: no name to pair by */
		v = &ev->v[c->field];
		n = snprintf(name, sizeof(name), "%s(%.*s)",
			     pair_facts[c->pair].label,
			     (int)(v->slen > 256 ? 256 : v->slen), v->s);
		label = intern(r, name, strnlen(name, (size_t)n));
		if (label < 0)
			return (int)label;
	}
	key = (uint64_t)ev->tid << 32 | (uint64_t)label;
	slot = u64map_find(&r->pairs, key);
	if (c->kind == K_ENTRY)
		return pend_begin(r, &r->pairs, slot, key, label, proc,
				  selected, ts);
	if (!slot) {
		if (selected)
			r->labels[label].unmatched_end++;
		return 0;
	}
	idx = slot->val;
	u64map_del(&r->pairs, slot);
	p = &r->pend[idx];
	ret = 0;
	if (p->selected || selected)
		ret = latency(r, (uint32_t)label, p, p->ts[0], ts);
	pend_release(r, idx);
	return ret;
}

static int64_t stage_label(struct report *r, const struct lifecycle *lc,
			   unsigned int from, unsigned int to)
{
	char name[128];
	int n = snprintf(name, sizeof(name), "%s %s->%s",
			 meta_group_name(lc->group),
			 lc->short_name[from], lc->short_name[to]);

	return intern(r, name, (size_t)n);
}

static int on_stage(struct report *r, const struct class *c,
		    const struct event *ev, const struct proc *proc,
		    bool selected)
{
	const struct lifecycle *lc = &lifecycles[c->lc];
	struct u64map *m = &r->requests[c->lc];
	uint64_t addr, ts = ev->rec->timestamp;
	unsigned int k = c->stage, j;
	int64_t total, label;
	struct pending *p;
	struct u64map_slot *slot;
	uint32_t idx;
	int ret, neg = 0;

	if ((unsigned int)c->field >= ev->nsys)
		return 0;
	addr = (uint64_t)ev->v[c->field].i;
	slot = u64map_find(m, addr);
	total = stage_label(r, lc, 0, lc->n - 1);
	if (total < 0)
		return (int)total;
	if (k == 0)
		return pend_begin(r, m, slot, addr, total, proc, selected, ts);
	if (!slot) {
		if (selected)
			r->labels[total].unmatched_end++;
		return 0;
	}
	idx = slot->val;
	p = &r->pend[idx];
	if (p->ts[k])		/* seen already (a requeue): the first counts */
		return 0;
	p->ts[k] = ts;
	p->selected |= selected;
	for (j = k; j-- > 0;)
		if (p->ts[j])
			break;
	if (p->selected) {
		label = stage_label(r, lc, j, k);
		if (label < 0)
			return (int)label;
		ret = latency(r, (uint32_t)label, p, p->ts[j], ts);
		if (ret == 1)
			neg = 1, ret = 0;
		if (!ret && k == lc->n - 1 && j != 0)
			ret = latency(r, (uint32_t)total, p, p->ts[0], ts);
		if (ret == 1)
			neg = 1, ret = 0;
		if (ret)
			return ret;
	}
	if (k == lc->n - 1) {
		u64map_del(m, slot);
		pend_release(r, idx);
	}
	return neg;
}

/* An integer field of ev, as class field k says; false if cut short. */
static bool sched_int(const struct class *c, const struct event *ev,
		      unsigned int k, int64_t *v)
{
	if ((unsigned int)c->sched[k] >= ev->nsys)
		return false;
	*v = ev->v[c->sched[k]].i;
	return true;
}

static int on_wakeup(struct report *r, const struct class *c,
		     const struct event *ev, const struct selection *sel)
{
	const struct value *name;
	int64_t tid, pid;

	if (!sched_int(c, ev, F_WOKEN_TID, &tid) ||
	    !sched_int(c, ev, F_WOKEN_PID, &pid) ||
	    (unsigned int)c->sched[F_WOKEN_NAME] >= ev->nsys)
		return 0;
	name = &ev->v[c->sched[F_WOKEN_NAME]];
	/* the latency is the woken thread's, the record its waker's */
	return schedlat_wakeup(r->sched, (int32_t)tid, (int32_t)pid, name->s,
			       name->slen, ev->rec->timestamp,
			       tid > 0 && selection_thread(sel, (uint32_t)tid,
							   ev->cpu),
			       sel->record);
}

/* A switch that ends a wait for a CPU: the latency, per process and per
 * thread, unless time went back between the wake-up and it. */
static int on_switch(struct report *r, const struct class *c,
		     const struct event *ev, const struct selection *sel)
{
	struct schedlat_sample w;
	int64_t prev, next, state;
	int ret;

	if (!sched_int(c, ev, F_PREV_TID, &prev) ||
	    !sched_int(c, ev, F_NEXT_TID, &next) ||
	    !sched_int(c, ev, F_PREV_STATE, &state))
		return 0;
	ret = schedlat_switch(r->sched, (int32_t)prev, state, (int32_t)next,
			      ev->rec->timestamp, sel->record, &w);
	/* a latency ended, but none the filters select: nothing to say */
	if (ret <= 0 || !w.selected)
		return ret < 0 ? ret : 0;
	if (w.ran < w.woken) {
		r->labels[c->label].negative++;
		r->neg_label = c->label;
		r->neg_ns = w.woken - w.ran;
		return 1;
	}
	ret = add_latency(r, c->label, w.pid, w.comm, -1, w.ran - w.woken);
	if (!ret)
		ret = add_latency(r, c->label, w.pid, w.comm, w.tid,
				  w.ran - w.woken);
	return ret;
}

int report_event(struct report *r, const struct event *ev,
		 const struct proc *proc, const struct selection *sel)
{
	struct class *c;
	int ret;

	if (!ev->meta || !ev->meta->named)
		return 0;
	c = &r->classes[(ev->group & 0xff) << 8 | (ev->hook & 0xff)];
	if (c->meta != ev->meta || c->kind == K_UNKNOWN) {
		ret = classify(r, c, ev);
		if (ret)
			return ret;
	}
	switch (c->kind) {
	case K_ENTRY:
	case K_RETURN:
		return on_pair(r, c, ev, proc, sel->passed);
	case K_STAGE:
		return on_stage(r, c, ev, proc, sel->passed);
	case K_WAKEUP:
		return on_wakeup(r, c, ev, sel);
	case K_SWITCH:
		return on_switch(r, c, ev, sel);
	default:
		return 0;
	}
}

/* ---- summing up ------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least pct% at or below it. */
static uint64_t rank(const uint64_t *v, size_t n, unsigned int pct)
{
	size_t k = (n * pct + 99) / 100;

	return v[k ? k - 1 : 0];
}

void latency_sum_up(struct latency *l, uint64_t *v, size_t n)
{
	size_t i;
	int b;

	/* qsort wants a valid pointer, even for nothing */
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_u64);
	l->count = n;
	for (i = 0; i < n; i++) {
		l->total += v[i];
		b = v[i] ? 63 - __builtin_clzll(v[i]) : 0;
		l->hist[b]++;
	}
	if (!n)
		return;
	l->min = v[0];
	l->max = v[n - 1];
	l->mean = l->total / n;
	l->p50 = rank(v, n, 50);
	l->p90 = rank(v, n, 90);
	l->p99 = rank(v, n, 99);
}

static const struct report *sort_report;

static int cmp_label(const void *a, const void *b)
{
	const struct label *l = sort_report->labels;

	return strcmp(l[*(const uint32_t *)a].name, l[*(const uint32_t *)b].name);
}

/* Per process first, then per thread; by name, pid and tid. */
static int cmp_acc(const void *a, const void *b)
{
	const struct acc *x = a, *y = b;
	int c = (x->tid >= 0) - (y->tid >= 0);

	if (!c)
		c = strcmp(sort_report->labels[x->label].name,
			   sort_report->labels[y->label].name);
	if (!c)
		c = (x->pid > y->pid) - (x->pid < y->pid);
	return c ? c : (x->tid > y->tid) - (x->tid < y->tid);
}

int report_finish(struct report *r)
{
	uint32_t *order = NULL;
	struct latency *l;
	uint64_t *all = NULL;
	size_t i, j, n, total = 0;
	int ret = -ENOMEM;
	size_t k;

	/* still pending: never returned, never completed */
	for (i = 0; i <= r->pairs.mask; i++)
		if (r->pairs.s[i].used &&
		    r->pend[r->pairs.s[i].val].selected)
			r->labels[(uint32_t)r->pairs.s[i].key].unmatched_begin++;
	/* woken, never run */
	if (schedlat_pending(r->sched)) {
		int64_t label = intern(r, SCHED_LABEL, strlen(SCHED_LABEL));

		if (label < 0)
			return (int)label;
		r->labels[label].unmatched_begin += schedlat_pending(r->sched);
	}
	for (k = 0; k < NLC; k++) {
		int64_t label = stage_label(r, &lifecycles[k], 0,
					    lifecycles[k].n - 1);

		if (label < 0)
			return (int)label;
		for (i = 0; i <= r->requests[k].mask; i++)
			if (r->requests[k].s[i].used &&
			    r->pend[r->requests[k].s[i].val].selected)
				r->labels[label].unmatched_begin++;
	}
	for (i = 0; i < r->naccs; i++)
		if (r->accs[i].tid < 0)
			total += r->accs[i].n;
	r->out = calloc(r->nlabels + r->naccs + 1, sizeof(*r->out));
	order = malloc((r->nlabels + 1) * sizeof(*order));
	all = malloc((total + 1) * sizeof(*all));
	if (!r->out || !order || !all)
		goto out;
	sort_report = r;
	for (i = 0; i < r->nlabels; i++)
		order[i] = (uint32_t)i;
	qsort(order, r->nlabels, sizeof(*order), cmp_label);
	/* nothing paired: no accs array at all, which qsort must not get */
	if (r->naccs)
		qsort(r->accs, r->naccs, sizeof(*r->accs), cmp_acc);
	/* per event: every process's latencies together */
	for (i = 0; i < r->nlabels; i++) {
		const struct label *lb = &r->labels[order[i]];

		n = 0;
		for (j = 0; j < r->naccs; j++)
			if (r->accs[j].label == order[i] &&
			    r->accs[j].tid < 0) {
				memcpy(all + n, r->accs[j].v,
				       r->accs[j].n * sizeof(*all));
				n += r->accs[j].n;
			}
		if (!n && !lb->unmatched_begin && !lb->unmatched_end &&
		    !lb->negative)
			continue;
		l = &r->out[r->nout++];
		l->what = lb->name;
		l->scope = LATENCY_EVENT;
		l->pid = -1;
		l->tid = -1;
		l->unmatched_begin = lb->unmatched_begin;
		l->unmatched_end = lb->unmatched_end;
		l->negative = lb->negative;
		latency_sum_up(l, all, n);
	}
	for (j = 0; j < r->naccs; j++) {
		l = &r->out[r->nout++];
		l->what = r->labels[r->accs[j].label].name;
		l->scope = r->accs[j].tid < 0 ? LATENCY_PROCESS :
			   LATENCY_THREAD;
		l->pid = r->accs[j].pid;
		l->tid = r->accs[j].tid;
		memcpy(l->comm, r->accs[j].comm, sizeof(l->comm));
		latency_sum_up(l, r->accs[j].v, r->accs[j].n);
	}
	ret = 0;
out:
	sort_report = NULL;
	free(order);
	free(all);
	return ret;
}

size_t report_count(const struct report *r)
{
	return r->nout;
}

const struct latency *report_get(const struct report *r, size_t i)
{
	return &r->out[i];
}

/* ---- the text report -------------------------------------------------- */

#define REPORT_BUFFER	8192

void report_put_us(struct outbuf *w, uint64_t ns)
{
	outbuf_printf(w, " %14llu.%03llu", (unsigned long long)(ns / 1000),
		 (unsigned long long)(ns % 1000));
}

void report_put_us_bare(struct outbuf *w, uint64_t ns)
{
	outbuf_printf(w, "%llu.%03llu", (unsigned long long)(ns / 1000),
		      (unsigned long long)(ns % 1000));
}

static void w_comm(struct outbuf *w, const char *comm)
{
	const char *p;

	if (!*comm) {
		outbuf_printf(w, " %-16s", "-");
		return;
	}
	outbuf_printf(w, " ");
	for (p = comm; *p; p++)
		outbuf_printf(w, (unsigned char)*p > ' ' && (unsigned char)*p < 127 ?
			 "%c" : "\\x%02x", (unsigned char)*p);
	outbuf_printf(w, "%*s", 16 - (int)strlen(comm) > 0 ?
		 16 - (int)strlen(comm) : 0, "");
}

static void w_histogram(struct outbuf *w, const struct latency *l)
{
	uint64_t most = 0;
	int b, lo = -1, hi = -1;

	for (b = 0; b < REPORT_BUCKETS; b++)
		if (l->hist[b]) {
			if (lo < 0)
				lo = b;
			hi = b;
			if (l->hist[b] > most)
				most = l->hist[b];
		}
	for (b = lo; lo >= 0 && b <= hi; b++) {
		char bar[41];
		size_t len = (size_t)((l->hist[b] * 40 + most - 1) / most);

		memset(bar, '#', len);
		bar[len] = '\0';
		outbuf_printf(w, "    %20llu ns %12llu %s\n",
			 b ? 1ull << b : 0ull, (unsigned long long)l->hist[b],
			 bar);
	}
}

int report_write(const struct report *r, int fd)
{
	struct outbuf ob, *w = &ob;
	const struct latency *l;
	enum latency_scope scope = LATENCY_EVENT;
	size_t i;
	int ret;

	ret = outbuf_init(w, fd, REPORT_BUFFER);
	if (ret)
		return ret;
	outbuf_printf(w, "# lket-b2a latency report; times in microseconds\n");
	outbuf_printf(w, "# unmatched: entries never returned (requests never completed) / returns without entry (stages without beginning)\n");
	outbuf_printf(w, "\nper event\n%-40s %10s %18s %18s %18s %18s %18s %18s %18s %s\n",
		 "event", "count", "total", "min", "mean", "p50", "p90", "p99",
		 "max", "unmatched");
	for (i = 0; i < r->nout; i++) {
		l = &r->out[i];
		if (l->scope != scope) {
			scope = l->scope;
			outbuf_printf(w, "\nper %s\n%-40s", scope == LATENCY_THREAD ?
				      "thread (scheduling latency)" : "process",
				      "event");
			if (scope == LATENCY_THREAD)
				outbuf_printf(w, " %8s", "tid");
			outbuf_printf(w, " %8s %-16s %10s %18s %18s %18s %18s %18s %18s %18s\n",
				 "pid", "comm", "count", "total", "min",
				 "mean", "p50", "p90", "p99", "max");
		}
		outbuf_printf(w, "%-40s", l->what);
		if (l->scope == LATENCY_THREAD)
			outbuf_printf(w, " %8d", l->tid);
		if (l->scope != LATENCY_EVENT) {
			if (l->pid >= 0)
				outbuf_printf(w, " %8d", l->pid);
			else
				outbuf_printf(w, " %8s", "-");
			w_comm(w, l->comm);
		}
		outbuf_printf(w, " %10llu", (unsigned long long)l->count);
		report_put_us(w, l->total);
		report_put_us(w, l->min);
		report_put_us(w, l->mean);
		report_put_us(w, l->p50);
		report_put_us(w, l->p90);
		report_put_us(w, l->p99);
		report_put_us(w, l->max);
		if (l->scope == LATENCY_EVENT)
			outbuf_printf(w, " %llu/%llu",
				 (unsigned long long)l->unmatched_begin,
				 (unsigned long long)l->unmatched_end);
		outbuf_printf(w, "\n");
		if (l->negative)
			outbuf_printf(w, "    %llu left out: ended before they began (time went back)\n",
				 (unsigned long long)l->negative);
		w_histogram(w, l);
	}
	ret = outbuf_flush(w);
	outbuf_free(w);
	return ret;
}
