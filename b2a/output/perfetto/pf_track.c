// SPDX-License-Identifier: GPL-2.0
/*
 * pf_track.c - track events (pf.h): every hook that is no kernel event
 * Perfetto knows is a track event on its thread's track, in category
 * its group, with each record field an argument under its lket(5) name.
 *
 * An entry of the catalogue's LKET_PAIR pairs begins a slice named by
 * the pair's label, and the thread's next return of the pair ends it,
 * as the latency report pairs them (report.h): by thread, and by the
 * pair's key where it has one (a system call's name, which then names
 * the slice).  A return with no entry open is an instant, as is a
 * record of no pair; an entry whose thread enters again, or never
 * returns, stays a slice that does not end.  A pair's events are on a
 * track of the pair's own under the thread's (Perfetto closes a slice's
 * children with it: on one track, pairs that cross, or a pair across a
 * system call's end, would be cut short); the others on the thread's.
 *
 * The first call stack of a record (an ADDRS field: lket_stack()) is the
 * event's callstack, its frames interned and named as lket-b2a
 * symbolises them; a record's other stacks are arguments, a frame a
 * string each.  A kernel event has no stack in Perfetto: its record's
 * stacks are an instant of their own on its thread's track, named as
 * the record.  The process snapshot is Perfetto's process tree.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output/perfetto/pf.h"
#include "util/outbuf.h"

static uint32_t hash32(const char *s, size_t n, uint32_t h)
{
	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

int pf_thread_track(struct pf *p, struct pf_host *h, uint32_t tid,
		    const struct proc *proc, uint64_t *uuid)
{
	struct pbuf *b = &p->out;
	int ret;

	*uuid = pf_uuid(h->index, 0, tid);
	if (u64map_find(&h->threads, *uuid))
		return 0;
	ret = u64map_put(&h->threads, *uuid, 1);
	if (!ret)
		ret = pb_reserve(b, 16 * PB_FIELD_MAX);
	if (ret)
		return ret;
	pf_packet_head(p, h, 0);
	PB_OPEN(b, PF_TRACEPACKET_TRACK_DESCRIPTOR);
	PB_UINT(b, PF_TRACKDESCRIPTOR_UUID, *uuid);
	PB_OPEN(b, PF_TRACKDESCRIPTOR_THREAD);
	/* no name: Perfetto would take it over every later one (a
	 * descriptor's name outranks the process tree's and the kernel's).
	 * Its process: Perfetto drops a thread's track, and its events,
	 * without one; where lket-b2a knows none, a process of its own */
	PB_INT(b, PF_THREADDESCRIPTOR_PID, proc && proc->pid >= 0 ?
	       proc->pid : (int32_t)tid);
	PB_INT(b, PF_THREADDESCRIPTOR_TID, tid);
	return pb_close_all(b);
}

/*
 * The track of c's pair under thread tid's, named by its label, described
 * once: Perfetto's slices on one track nest, and one that ends closes
 * those opened after it, so a pair of its own track is not cut short by
 * another pair's, nor by a system call the kernel's events make a slice
 * of on the thread's own track.
 */
static int pair_track(struct pf *p, struct pf_host *h,
		      const struct pf_class *c, uint32_t tid,
		      const struct proc *proc, uint64_t *uuid)
{
	struct pbuf *b = &p->out;
	uint64_t parent;
	int ret = pf_thread_track(p, h, tid, proc, &parent);

	if (ret)
		return ret;
	*uuid = pf_uuid(h->index, c->track, tid);
	if (u64map_find(&h->threads, *uuid))
		return 0;
	ret = u64map_put(&h->threads, *uuid, 1);
	if (!ret)
		ret = pb_reserve(b, c->name_len + 16 * PB_FIELD_MAX);
	if (ret)
		return ret;
	pf_packet_head(p, h, 0);
	PB_OPEN(b, PF_TRACEPACKET_TRACK_DESCRIPTOR);
	PB_UINT(b, PF_TRACKDESCRIPTOR_UUID, *uuid);
	PB_UINT(b, PF_TRACKDESCRIPTOR_PARENT_UUID, parent);
	PB_BYTES(b, PF_TRACKDESCRIPTOR_NAME, c->name, c->name_len);
	return pb_close_all(b);
}

/* The class's names interned in this generation of h's tables. */
static int intern_class(struct pf_host *h, struct pf_class *c,
			const struct event *ev)
{
	const struct event_meta *m = c->meta;
	const struct field *f;
	char name[256 + 16];
	unsigned int i, n = m ? m->sys.n + m->user.n : 0;
	int ret;

	if (c->gen == h->in.gen)
		return 0;
	ret = pf_intern_string(&h->in, PF_IN_NAME, c->name, c->name_len,
			       &c->name_iid);
	if (!ret)
		ret = pf_intern_string(&h->in, PF_IN_CAT, c->cat, c->cat_len,
				       &c->cat_iid);
	for (i = 0; !ret && i < n && i < 2 * META_MAX_FIELDS; i++) {
		f = i < m->sys.n ? &m->sys.f[i] : &m->user.f[i - m->sys.n];
		/* a name an earlier field has: _2, _3 ... as JSON's keys */
		snprintf(name, sizeof(name), "%s%s", f->name, f->key_suffix);
		ret = pf_intern_string(&h->in, PF_IN_ARG, name, strlen(name),
				       &c->arg_iid[i]);
	}
	(void)ev;
	if (!ret)
		c->gen = h->in.gen;
	return ret;
}

/* Bytes a record's arguments may take, strings escaped. */
static size_t args_room(const struct event *ev)
{
	size_t n = 2 * (size_t)ev->raw_len + 512, k;
	unsigned int i;

	for (i = 0; i < ev->nvalues; i++) {
		n += 3 * PB_FIELD_MAX + 5 * (size_t)ev->v[i].slen;
		if (ev->v[i].f->type != LKET_ADDRS)
			continue;
		for (k = 0; k < ev->v[i].n; k++)
			n += 3 * PB_FIELD_MAX + 32 +
			     (ev->v[i].syms && ev->v[i].syms[k] ?
			      5 * strlen(ev->v[i].syms[k]) : 0);
	}
	return n;
}

/* A stack as an argument: a frame a string each. */
static int put_stack(struct pf *p, const struct value *v)
{
	struct pbuf *b = &p->out;
	char hex[24];
	const char *s;
	size_t n;
	uint32_t k;
	int ret = 0;

	for (k = 0; !ret && k < v->n; k++) {
		s = v->syms ? v->syms[k] : NULL;
		if (!s) {
			snprintf(hex, sizeof(hex), "0x%llx",
				 (unsigned long long)v->a[k]);
			s = hex;
		}
		n = strlen(s);
		ret = pf_text(p, &s, &n);
		if (ret)
			break;
		PB_OPEN(b, PF_DEBUGANNOTATION_ARRAY_VALUES);
		PB_BYTES(b, PF_DEBUGANNOTATION_STRING_VALUE, s, n);
		ret = pb_close(b);
	}
	return ret;
}

/* The record's fields as arguments (its stacks alone, stacks_only);
 * its first stack as *stack. */
static int put_args(struct pf *p, struct pf_host *h,
		    const struct pf_class *c, const struct event *ev,
		    bool stacks_only, uint64_t *stack)
{
	struct pbuf *b = &p->out;
	const struct value *v;
	unsigned int i;
	uint64_t iid;
	const char *s;
	char *end;
	size_t n;
	int ret = 0;

	for (i = 0; !ret && i < ev->nvalues && i < 2 * META_MAX_FIELDS; i++) {
		v = &ev->v[i];
		/* an empty stack says nothing */
		if ((stacks_only && v->f->type != LKET_ADDRS) ||
		    (v->f->type == LKET_ADDRS && !v->n))
			continue;
		if (v->f->type == LKET_ADDRS && !*stack) {
			ret = pf_intern_stack(&h->in, v->a, v->syms, v->n,
					      stack);
			continue;
		}
		PB_OPEN(b, PF_TRACKEVENT_DEBUG_ANNOTATIONS);
		PB_UINT(b, PF_DEBUGANNOTATION_NAME_IID, c->arg_iid[i]);
		if (v->f->type == LKET_ADDRS) {
			ret = put_stack(p, v);
		} else if (v->f->type == LKET_STRING) {
			s = v->s;
			n = v->slen;
			ret = pf_text(p, &s, &n);
			if (!ret)
				PB_BYTES(b, PF_DEBUGANNOTATION_STRING_VALUE, s,
					 n);
		} else if (v->f->flags & LKET_F_ADDR) {
			PB_UINT(b, PF_DEBUGANNOTATION_POINTER_VALUE,
				value_unsigned(v));
		} else if (v->f->hex) {
			PB_UINT(b, PF_DEBUGANNOTATION_UINT_VALUE,
				value_unsigned(v));
		} else {
			PB_INT(b, PF_DEBUGANNOTATION_INT_VALUE, v->i);
		}
		if (!ret)
			ret = pb_close(b);
	}
	/* what did not match the metadata, in hex as lket.out has it */
	if (!ret && ev->raw_len && !stacks_only) {
		ret = pf_intern_string(&h->in, PF_IN_ARG, "raw", 3, &iid);
		if (ret)
			return ret;
		PB_OPEN(b, PF_TRACKEVENT_DEBUG_ANNOTATIONS);
		PB_UINT(b, PF_DEBUGANNOTATION_NAME_IID, iid);
		PB_TAG_LEN(b, PF_DEBUGANNOTATION_STRING_VALUE,
			   2 * (size_t)ev->raw_len);
		end = fmt_hexdump((char *)b->buf + b->len, ev->raw,
				  ev->raw_len);
		b->len = (size_t)((uint8_t *)end - b->buf);
		ret = pb_close(b);
	}
	return ret;
}

static void put_flows(struct pbuf *b, const struct pf_flow_ids *fl)
{
	unsigned int i;

	if (!fl)
		return;
	for (i = 0; i < fl->nstart; i++)
		PB_FIXED64(b, PF_TRACKEVENT_FLOW_IDS, fl->start[i]);
	for (i = 0; i < fl->nend; i++)
		PB_FIXED64(b, PF_TRACKEVENT_TERMINATING_FLOW_IDS, fl->end[i]);
	if (fl->correlation[0])
		PB_STR(b, PF_TRACKEVENT_CORRELATION_ID_STR, fl->correlation);
}

/* Is the entry of ev's pair open on its thread?  Its key in *key. */
static struct u64map_slot *open_pair(struct pf_host *h,
				     const struct pf_class *c,
				     const struct event *ev, uint64_t *key)
{
	const struct value *k = c->key >= 0 &&
				(unsigned int)c->key < ev->nvalues ?
				&ev->v[c->key] : NULL;
	const char *label = pf_pairs[c->pair].label;
	/* the pair's entry and return lines share the label */
	uint32_t hash = hash32(label, strlen(label), 2166136261u);

	if (k && k->f->type == LKET_STRING)
		hash = hash32(k->s, k->slen, hash);
	*key = (uint64_t)ev->tid << 32 | hash;
	return u64map_find(&h->open_pairs, *key);
}

/* What ev is on its track: a slice's begin or end, or an instant. */
static int event_type(struct pf_host *h, const struct pf_class *c,
		      const struct event *ev, int *type)
{
	struct u64map_slot *slot;
	uint64_t key;

	*type = PF_TRACKEVENT_TYPE_INSTANT;
	if (c->role == PF_INSTANT)
		return 0;
	slot = open_pair(h, c, ev, &key);
	if (c->role == PF_ENTRY) {
		*type = PF_TRACKEVENT_TYPE_SLICE_BEGIN;
		return slot ? 0 : u64map_put(&h->open_pairs, key, 1);
	}
	if (slot) {
		*type = PF_TRACKEVENT_TYPE_SLICE_END;
		u64map_del(&h->open_pairs, slot);
	}
	return 0;
}

/* The name of ev's event: its pair's key (a system call's name), else
 * its class's. */
static int event_name(struct pf *p, struct pf_host *h,
		      const struct pf_class *c, const struct event *ev,
		      uint64_t *iid)
{
	const struct value *k = c->key >= 0 &&
				(unsigned int)c->key < ev->nvalues ?
				&ev->v[c->key] : NULL;
	const char *s;
	size_t n;
	int ret;

	*iid = c->name_iid;
	if (!k || k->f->type != LKET_STRING || !k->slen)
		return 0;
	s = k->s;
	n = k->slen;
	ret = pf_text(p, &s, &n);
	return ret ? ret : pf_intern_string(&h->in, PF_IN_NAME, s, n, iid);
}

/* ev as a track event; its stacks alone, as an instant (stacks_only:
 * a kernel event's, which Perfetto has no stack of). */
static int track_event(struct pf *p, struct pf_host *h, struct pf_class *c,
		       const struct event *ev, const struct proc *proc,
		       bool stacks_only)
{
	uint64_t ts = ev->rec->timestamp, uuid, stack = 0, name;
	struct pf_flow_ids fl = { 0 };
	struct pbuf *b = &p->out;
	int type = PF_TRACKEVENT_TYPE_INSTANT, ret = 0;

	if (!stacks_only)
		ret = event_type(h, c, ev, &type);
	if (!ret && c->track && !stacks_only)
		ret = pair_track(p, h, c, ev->tid, proc, &uuid);
	else if (!ret)
		ret = pf_thread_track(p, h, ev->tid, proc, &uuid);
	if (!ret && c->rpc && !stacks_only)
		pf_rpc_flows(p, h, c, ev, &fl);
	if (!ret)
		ret = pf_packet_begin(p, h, ts, args_room(ev));
	if (!ret)
		ret = intern_class(h, c, ev);
	if (!ret)
		ret = event_name(p, h, c, ev, &name);
	if (ret)
		return ret;
	if (ts > h->last_ts)
		h->last_ts = ts;
	if (ts < h->first_ts)
		h->first_ts = ts;
	PB_OPEN(b, PF_TRACEPACKET_TRACK_EVENT);
	PB_UINT(b, PF_TRACKEVENT_TYPE, type);
	PB_UINT(b, PF_TRACKEVENT_TRACK_UUID, uuid);
	PB_UINT(b, PF_TRACKEVENT_NAME_IID, name);
	PB_UINT(b, PF_TRACKEVENT_CATEGORY_IIDS, c->cat_iid);
	ret = put_args(p, h, c, ev, stacks_only, &stack);
	if (ret)
		return ret;
	put_flows(b, &fl);
	if (stack)
		PB_UINT(b, PF_TRACKEVENT_CALLSTACK_IID, stack);
	ret = pb_close(b);
	return ret ? ret : pf_packet_end(p, h);
}

int pf_track_event(struct pf *p, struct pf_host *h, struct pf_class *c,
		   const struct event *ev, const struct proc *proc)
{
	return track_event(p, h, c, ev, proc, false);
}

int pf_track_stacks(struct pf *p, struct pf_host *h, struct pf_class *c,
		    const struct event *ev, const struct proc *proc)
{
	unsigned int i;

	for (i = 0; i < ev->nvalues; i++)
		if (ev->v[i].f->type == LKET_ADDRS)
			return track_event(p, h, c, ev, proc, true);
	return 0;
}

int pf_track_mark(struct pf *p, struct pf_host *h, uint64_t uuid,
		  uint64_t ts, int type, const char *name,
		  const struct pf_flow_ids *fl, const char *arg,
		  int64_t argval)
{
	struct pbuf *b = &p->out;
	uint64_t name_iid, arg_iid = 0;
	int ret = pf_packet_begin(p, h, ts, 512);

	if (!ret)
		ret = pf_intern_string(&h->in, PF_IN_NAME, name, strlen(name),
				       &name_iid);
	if (!ret && arg)
		ret = pf_intern_string(&h->in, PF_IN_ARG, arg, strlen(arg),
				       &arg_iid);
	if (ret)
		return ret;
	PB_OPEN(b, PF_TRACEPACKET_TRACK_EVENT);
	PB_UINT(b, PF_TRACKEVENT_TYPE, type);
	PB_UINT(b, PF_TRACKEVENT_TRACK_UUID, uuid);
	if (type != PF_TRACKEVENT_TYPE_SLICE_END)
		PB_UINT(b, PF_TRACKEVENT_NAME_IID, name_iid);
	if (arg) {
		PB_OPEN(b, PF_TRACKEVENT_DEBUG_ANNOTATIONS);
		PB_UINT(b, PF_DEBUGANNOTATION_NAME_IID, arg_iid);
		PB_INT(b, PF_DEBUGANNOTATION_INT_VALUE, argval);
		pb_close(b);
	}
	put_flows(b, fl);
	ret = pb_close(b);
	return ret ? ret : pf_packet_end(p, h);
}

/* ---- the process tree ------------------------------------------------- */

int pf_tree_flush(struct pf *p)
{
	struct pbuf *b = &p->out;
	int ret;

	if (!p->tree.len)
		return 0;
	ret = pb_reserve(b, p->tree.len + 8 * PB_FIELD_MAX);
	if (ret)
		return ret;
	pf_packet_head(p, p->tree_host, p->tree_ts);
	PB_BYTES(b, PF_TRACEPACKET_PROCESS_TREE, p->tree.buf, p->tree.len);
	p->tree.len = 0;
	ret = pb_close(b);
	return ret ? ret : pf_out_flush(p, false);
}

/* A task (tid of pid, ppid -1 unknown) named name (n bytes) into the
 * process tree b: its process too when it is the main thread. */
static int tree_task(struct pf *p, struct pbuf *b, int64_t tid, int64_t pid,
		     int64_t ppid, const char *name, size_t n)
{
	int ret = pf_text(p, &name, &n);

	if (!ret)
		ret = pb_reserve(b, n + 16 * PB_FIELD_MAX);
	if (ret)
		return ret;
	if (tid == pid) {
		PB_OPEN(b, PF_PROCESSTREE_PROCESSES);
		PB_INT(b, PF_PROCESSTREE_PROCESS_PID, pid);
		if (ppid >= 0)
			PB_INT(b, PF_PROCESSTREE_PROCESS_PPID, ppid);
		PB_BYTES(b, PF_PROCESSTREE_PROCESS_CMDLINE, name, n);
		PB_UINT(b, PF_PROCESSTREE_PROCESS_CMDLINE_IS_COMM, 1);
		ret = pb_close(b);
	}
	if (ret)
		return ret;
	PB_OPEN(b, PF_PROCESSTREE_THREADS);
	PB_INT(b, PF_PROCESSTREE_THREAD_TID, tid);
	if (pid >= 0)
		PB_INT(b, PF_PROCESSTREE_THREAD_TGID, pid);
	PB_BYTES(b, PF_PROCESSTREE_THREAD_NAME, name, n);
	return pb_close(b);
}

/*
 * A record's new task or name, and process, as a process tree of its own
 * at its time, as lket-b2a's process map takes it (tasks.c): Perfetto
 * names a thread by the process tree before the kernel's events
 * (task_rename), so a thread named after the snapshot is named so here.
 */
int pf_tree_task(struct pf *p, struct pf_host *h, const struct pf_class *c,
		 const struct event *ev, const struct proc *proc)
{
	const struct value *v = NULL;
	int64_t tid = pf_int(c, ev, PF_F_TID, -1);
	int64_t pid = pf_int(c, ev, PF_F_PID, -1), ppid = -1;
	struct pbuf *b = &p->out;
	const char *name = NULL, *slash;
	size_t n = 0;
	int ret;

	switch (c->tree) {
	case PF_TREE_NEW:
		ppid = pf_int(c, ev, PF_F_PPID, -1);
		/* fall through */
	case PF_TREE_RENAME:
		v = pf_value(c, ev, PF_F_PROCESS_NAME);
		break;
	case PF_TREE_EXEC:
		v = pf_value(c, ev, PF_F_FILENAME);
		break;
	case PF_TREE_FORK:
		/* the child has its parent's name */
		tid = pf_int(c, ev, PF_F_NEW_TID, -1);
		pid = pf_int(c, ev, PF_F_NEW_PID, -1);
		ppid = pf_int(c, ev, PF_F_PPID, -1);
		name = proc && proc->comm_len ? proc->comm : NULL;
		n = proc ? proc->comm_len : 0;
		break;
	case PF_TREE_EXECVE:
		tid = ev->tid;
		v = pf_value(c, ev, PF_F_NEW_PROCESS_NAME);
		break;
	}
	if (v && v->f->type == LKET_STRING) {
		name = v->s;
		n = v->slen;
	}
	if (tid <= 0 || !name)
		return 0;
	slash = c->tree == PF_TREE_EXEC || c->tree == PF_TREE_EXECVE ?
		memrchr(name, '/', n) : NULL;
	if (slash) {
		n -= (size_t)(slash + 1 - name);
		name = slash + 1;
	}
	ret = pb_reserve(b, 16 * PB_FIELD_MAX);
	if (ret)
		return ret;
	pf_packet_head(p, h, ev->rec->timestamp);
	PB_OPEN(b, PF_TRACEPACKET_PROCESS_TREE);
	ret = tree_task(p, b, tid, pid, ppid, name, n);
	return ret ? ret : pb_close_all(b);
}

/* A run of process.snapshot records is one ProcessTree, at the time of
 * the first: a process for each main thread, and every thread. */
int pf_snapshot_event(struct pf *p, struct pf_host *h, struct pf_class *c,
		      const struct event *ev)
{
	const struct value *v = pf_value(c, ev, PF_F_PROCESS_NAME);
	int64_t tid = pf_int(c, ev, PF_F_TID, -1);
	int ret = 0;

	if (tid < 0)
		return 0;
	if (p->tree.len && (p->tree_host != h || p->tree.len > PF_BUNDLE_MAX))
		ret = pf_tree_flush(p);
	if (ret)
		return ret;
	if (!p->tree.len) {
		p->tree_host = h;
		p->tree_ts = ev->rec->timestamp;
	}
	return tree_task(p, &p->tree, tid, pf_int(c, ev, PF_F_PID, -1),
			 pf_int(c, ev, PF_F_PPID, -1),
			 v && v->f->type == LKET_STRING ? v->s : "",
			 v && v->f->type == LKET_STRING ? v->slen : 0);
}
