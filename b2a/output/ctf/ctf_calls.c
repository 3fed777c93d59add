// SPDX-License-Identifier: GPL-2.0
/*
 * ctf_calls.c - a system call that LKET records twice, by the syscall
 * group and by an iosyscall hook, written once, as LTTng has it
 * (ctf_int.h, lket-b2a(1)).
 *
 * The syscall group's entry fires first (sys_enter), then the hook's,
 * in the same thread on the same CPU; on the way out the hook's return,
 * then syscall.return.  So a pair is two records next to each other on
 * their CPU: the first is written as it comes and remembered, and when
 * the next one is its other half, it takes the first one's place:
 *
 *   syscall.entry (openat) + iosyscall.open.entry
 *	one syscall_entry_openat, at the first one's time, with LTTng's
 *	fields from the hook's record;
 *   iosyscall.open.return + syscall.return (openat)
 *	one syscall_exit_openat, syscall.return's (ret is its return).
 *
 * A syscall.entry of such a call that its hook's record does not follow
 * stays LTTng's syscall_entry_unknown (ctf_meta.c): LTTng's analyses
 * read the arguments it lacks.
 *
 * What a system call's name stands for (its class, its hook) is looked
 * up in LTTng's tables once per name, and kept: a trace is mostly
 * system calls, and a search by name for each of them doubled the
 * export's time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/ctf/ctf_int.h"

/*
 * The kind of a system call event of metadata m (ctf_int.h), found once;
 * NULL if m's events are not one class per system call.  Past
 * CTF_CALL_KINDS metadata (a trace that registers syscall.entry under
 * many IDs), one is found again for each event, its names not kept.
 */
static struct ctf_call_kind *call_kind(struct ctf *c,
				       const struct event_meta *m)
{
	const struct lttng_event *l;
	struct ctf_call_kind *k;
	unsigned int i, n;

	for (i = 0; i < c->ncall_kinds; i++)
		if (c->call_kinds[i].meta == m)
			return &c->call_kinds[i];
	l = m ? lttng_event_of(m->ev) : NULL;
	if (!l || !l->per_syscall)
		return NULL;
	k = c->ncall_kinds < CTF_CALL_KINDS ?
	    &c->call_kinds[c->ncall_kinds++] : &c->kind_past;
	*k = (struct ctf_call_kind){ .meta = m,
				     .lttng = lttng_event_of_meta(m),
				     .name_at = -1 };
	n = meta_nfields(m);
	for (i = 0; i < n && k->name_at < 0; i++)
		if (!strcmp(class_field(m, i)->name, "syscall_name"))
			k->name_at = (int)i;
	return k;
}

/*
 * A hash of the len bytes of name, of kind k: from its length, its first
 * and last eight bytes (names are short, and this is done for every
 * system call record; names alike there only cost a probe more).
 */
static uint32_t name_hash(const struct ctf_call_kind *k, const char *name,
			  size_t len)
{
	uint64_t h = (uint64_t)(uintptr_t)k ^ (len * 0x9e3779b97f4a7c15ull);
	uint64_t a = 0, b = 0;
	size_t i;

	if (len >= 8) {
		memcpy(&a, name, 8);
		memcpy(&b, name + len - 8, 8);
	} else {
		for (i = 0; i < len; i++)
			a = a << 8 | (uint8_t)name[i];
	}
	h = (h ^ a) * 0xff51afd7ed558ccdull;
	h = (h ^ b ^ (h >> 32)) * 0xc4ceb9fe1a85ec53ull;
	return (uint32_t)(h ^ (h >> 32));
}

/* Room for one name more: twice the slots when half are taken. */
static int names_grow(struct call_names *t)
{
	size_t size, i, j;
	uint32_t *slots;
	struct ctf_call_name *v;

	if (t->slots && 2 * (t->n + 1) <= t->mask + 1)
		return 0;
	size = t->slots ? 2 * (t->mask + 1) : 64;
	slots = calloc(size, sizeof(*slots));
	v = realloc(t->v, size / 2 * sizeof(*v));
	if (!slots || !v) {
		free(slots);
		if (v)
			t->v = v;
		return -ENOMEM;
	}
	t->v = v;
	for (i = 0; i < t->n; i++) {
		for (j = name_hash(v[i].kind, v[i].name, v[i].len) & (size - 1);
		     slots[j];
		     j = (j + 1) & (size - 1))
			;
		slots[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->mask = size - 1;
	return 0;
}

int ctf_call_named(struct ctf *c, const struct event *ev,
		   const struct ctf_call_name **named)
{
	struct ctf_call_kind *k = call_kind(c, ev->meta);
	struct call_names *t = &c->call_names;
	const struct value *v;
	struct ctf_call_name *n;
	const char *name = "";
	size_t i = 0, len = 0;
	uint32_t id, h;
	int ret;

	*named = NULL;
	if (!k)
		return 0;
	v = k->name_at >= 0 && (unsigned int)k->name_at < ev->nvalues ?
	    &ev->v[k->name_at] : NULL;
	if (v && v->f->type == LKET_STRING && v->s) {
		name = v->s;
		len = v->slen;
	}
	n = k->last ? &t->v[k->last - 1] : NULL;
	if (n && n->len == len && !memcmp(n->name, name, len)) {
		*named = n;
		return 0;
	}
	h = name_hash(k, name, len);
	if (t->slots)
		for (i = h & t->mask; t->slots[i]; i = (i + 1) & t->mask) {
			n = &t->v[t->slots[i] - 1];
			if (n->kind == k && n->len == len &&
			    !memcmp(n->name, name, len)) {
				k->last = t->slots[i];
				*named = n;
				return 0;
			}
		}
	/* a name not seen yet: the tables, once */
	ret = ctf_syscall_class(c, ev, k->lttng, lttng_syscall_class(
		k->meta->ev == LKET_EV_SYSCALL_ENTRY, name), &id);
	if (ret)
		return ret;
	n = &t->past;
	if (t->n < CTF_CALL_NAMES && k != &c->kind_past) {
		ret = names_grow(t);
		if (ret)
			return ret;
		n = &t->v[t->n];
		n->name = strndup(name, len);
		if (!n->name)
			return -ENOMEM;
		n->len = len;
		for (i = h & t->mask; t->slots[i]; i = (i + 1) & t->mask)
			;
		t->slots[i] = (uint32_t)++t->n;
		k->last = t->slots[i];
	}
	n->kind = k;
	n->id = id;
	n->call = lttng_syscall_of(name);
	*named = n;
	return 0;
}

void ctf_call_names_free(struct ctf *c)
{
	size_t i;

	for (i = 0; i < c->call_names.n; i++)
		free(c->call_names.v[i].name);
	free(c->call_names.v);
	free(c->call_names.slots);
}

/* Is ev (its call named, if one per system call) the other half of the
 * stream's last record? */
static bool completes(const struct ctf_stream *s, const struct event *ev,
		      int e, const struct ctf_call_name *named)
{
	const struct ctf_pending *p = &s->last;
	const struct lttng_syscall *call;

	if (p->kind == CTF_PENDING_NONE || p->tid != ev->tid ||
	    p->seq != s->seq)
		return false;
	if (p->kind == CTF_PENDING_ENTRY)
		return e == p->call->hook;
	call = e == LKET_EV_SYSCALL_RETURN && named ? named->call : NULL;
	return call && call->hook_return == p->call->hook_return;
}

/* The stream without its last record. */
static void take_back(struct ctf_stream *s)
{
	s->len = s->last.at;
	if (s->len == CTF_PREAMBLE)
		s->events = false;
}

int ctf_call_event(struct ctf *c, struct ctf_stream *s,
		   const struct event *ev, const struct proc *proc)
{
	bool raw = !ev->meta || ev->raw_len ||
		   ev->nvalues != meta_nfields(ev->meta);
	int e = raw ? -1 : ev->meta->ev;
	uint64_t ts = ev->rec->timestamp;
	const struct lttng_syscall *call = NULL;
	const struct ctf_call_name *named = NULL;
	uint32_t id;
	size_t at;
	int ret = 0;

	if (!raw) {
		ret = ctf_call_named(c, ev, &named);
		if (ret)
			return ret;
	}
	if (completes(s, ev, e, named)) {
		if (s->last.kind == CTF_PENDING_ENTRY) {
			call = s->last.call;
			ts = s->last.ts;
		}
		take_back(s);
	}
	s->last.kind = CTF_PENDING_NONE;
	if (call)
		ret = ctf_syscall_class(c, ev, &call->event, call->lttng,
					&id);
	else if (named)
		id = named->id;
	else
		ret = ctf_class(c, ev, raw, &id);
	if (!ret)
		ret = ctf_put_event(c, s, ev, proc, id, ts, &at);
	if (ret || call)
		return ret;
	if (e == LKET_EV_SYSCALL_ENTRY) {
		call = named ? named->call : NULL;
		if (call)
			s->last.kind = CTF_PENDING_ENTRY;
	} else if (e >= 0 && e < LKET_NR_EVENTS && !named) {
		/* a hook's return: never one of a class per call */
		call = c->call_of_return[e];
		if (call)
			s->last.kind = CTF_PENDING_RETURN;
	}
	if (call) {
		s->last.at = at;
		s->last.seq = s->seq;
		s->last.ts = s->last_ts;
		s->last.tid = ev->tid;
		s->last.call = call;
	}
	return 0;
}
