// SPDX-License-Identifier: GPL-2.0
/*
 * ctf_stream.c - the CTF export's streams (ctf_int.h): one file per CPU,
 * written packet by packet, each event encoded after its class's fields.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/ctf/ctf_int.h"

static int ctf_stream_get(struct ctf *c, unsigned int cpu,
			  struct ctf_stream **out)
{
	struct ctf_stream *s;
	const char *path;
	char name[32];
	size_t i;
	int ret;

	if (cpu >= c->nstreams) {
		s = realloc(c->streams, (cpu + 1) * sizeof(*s));
		if (!s)
			return -ENOMEM;
		for (i = c->nstreams; i <= cpu; i++)
			s[i] = (struct ctf_stream){ .fd = -1 };
		c->streams = s;
		c->nstreams = cpu + 1;
	}
	s = &c->streams[cpu];
	if (s->fd < 0) {
		snprintf(name, sizeof(name), CTF_SUBDIR "/stream_%u", cpu);
		ret = tmpdir_file(&c->tmp, name, &path);
		if (ret)
			return ret;
		s->buf = malloc(CTF_PACKET);
		if (!s->buf)
			return -ENOMEM;
		s->size = CTF_PACKET;
		s->len = CTF_PREAMBLE;
		s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			     0644);
		if (s->fd < 0)
			return ctf_fail(c, path, errno);
	}
	*out = s;
	return 0;
}

static uint8_t *put(uint8_t *p, const void *v, size_t n)
{
	memcpy(p, v, n);
	return p + n;
}

static uint8_t *put64(uint8_t *p, uint64_t v)
{
	return put(p, &v, 8);
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	return put(p, &v, 4);
}

/* Write the packet that s holds, header and context first. */
int ctf_packet_out(struct ctf *c, struct ctf_stream *s,
		   unsigned int cpu)
{
	uint8_t *p = s->buf;
	size_t off = 0;
	ssize_t n;

	p = put32(p, CTF_MAGIC);
	p = put(p, c->uuid, 16);
	p = put32(p, 0);
	p = put64(p, !s->seq && c->any && c->first_ts < s->first_ts ?
		  c->first_ts : s->first_ts);
	p = put64(p, s->last_ts);
	p = put64(p, (uint64_t)s->len * 8);
	p = put64(p, (uint64_t)s->len * 8);
	p = put64(p, s->seq);
	p = put64(p, s->discarded);
	put32(p, cpu);
	while (off < s->len) {
		n = write(s->fd, s->buf + off, s->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ctf_fail(c, c->dir, errno);
		off += (size_t)n;
	}
	s->seq++;
	s->len = CTF_PREAMBLE;
	s->events = false;
	s->pending = false;
	return 0;
}

static uint8_t *put_int(uint8_t *p, unsigned int bytes, int64_t x)
{
	switch (bytes) {
	case 1:
		*p++ = (uint8_t)x;
		return p;
	case 2: {
		uint16_t y = (uint16_t)x;

		return put(p, &y, 2);
	}
	case 4:
		return put32(p, (uint32_t)x);
	default:
		return put64(p, (uint64_t)x);
	}
}

static uint8_t *put_string(uint8_t *p, const char *s, size_t len)
{
	if (len)
		p = put(p, s, len);
	*p++ = 0;
	return p;
}

/* A call stack (ADDRS): a uint16 length, a sequence of uint64. */
static uint8_t *put_addrs(uint8_t *p, const struct value *v)
{
	uint16_t n = v ? (uint16_t)v->n : 0, i;

	p = put(p, &n, 2);
	for (i = 0; i < n; i++)
		p = put64(p, v->a[i]);
	return p;
}

/* The fields LTTng's counterpart of k has, ahead of LKET's. */
static uint8_t *put_lttng(uint8_t *p, const struct ctf_class *k,
			  const struct event *ev, const struct proc *proc,
			  const struct procmap *procs)
{
	const struct lttng_event *l = k->lttng;
	const struct value *from[LTTNG_FROM_MAX];
	struct lttng_value v;
	unsigned int i, j;
	int at;

	for (i = 0; i < l->nfields; i++) {
		const struct lttng_field *f = &l->fields[i];

		for (j = 0; j < LTTNG_FROM_MAX; j++) {
			at = k->lttng_from[i][j];
			from[j] = at >= 0 && (unsigned int)at < ev->nvalues ?
				  &ev->v[at] : NULL;
		}
		lttng_value_from(f, from, ev, proc, procs, &v);
		p = f->type == LTTNG_STRING ? put_string(p, v.s, v.slen) :
		    put_int(p, f->type == LTTNG_INT64 ? 8 : 4, v.i);
	}
	return p;
}

/*
 * Room in s's packet for ev of class k: the packet out first if it holds
 * events already, else a larger buffer.
 */
static int make_room(struct ctf *c, struct ctf_stream *s,
		     const struct ctf_class *k, const struct event *ev)
{
	/* every field at most 8 bytes, strings and raw within the record,
	 * LTTng's names at most PROC_COMM_LEN */
	size_t need = 4 + 8 + 8 + PROC_COMM_LEN + 1 + 8 * (size_t)k->nfields +
		      ev->rec->size + 4 + ev->raw_len + 1;
	uint8_t *bigger;
	int ret;

	if (k->lttng)
		need += k->lttng->nfields * (8 + PROC_COMM_LEN + 1) +
			ev->rec->size;
	if (s->len + need > s->size && s->events) {
		ret = ctf_packet_out(c, s, ev->cpu);
		if (ret)
			return ret;
	}
	if (s->len + need <= s->size)
		return 0;
	bigger = realloc(s->buf, s->len + need);
	if (!bigger)
		return -ENOMEM;
	s->buf = bigger;
	s->size = s->len + need;
	return 0;
}

/* The fields of k's, as ev has them (0 or "" where it has not). */
static uint8_t *put_fields(uint8_t *p, const struct ctf_class *k,
			   const struct event *ev)
{
	unsigned int i;

	for (i = 0; i < k->nfields; i++) {
		const struct field *f = class_field(ev->meta, i);
		const struct value *v = i < ev->nvalues ? &ev->v[i] : NULL;
		bool have = v && v->f == f;

		if (shadowed(k, i))
			continue;
		if (f->type == LKET_ADDRS)
			p = put_addrs(p, have ? v : NULL);
		else if (f->type != LKET_STRING)
			p = put_int(p, f->type, have ? v->i : 0);
		else
			p = put_string(p, have && v->s ? v->s : "",
				       have && v->s ? v->slen : 0);
	}
	return p;
}

int ctf_put_event(struct ctf *c, struct ctf_stream *s,
		  const struct event *ev, const struct proc *proc,
		  uint32_t id, uint64_t ts, size_t *at)
{
	const struct ctf_class *k = &c->classes[id];
	uint8_t *p;
	int ret;

	ret = make_room(c, s, k, ev);
	if (ret)
		return ret;
	/* time went back on the CPU: readers refuse a stream whose time
	 * does (babeltrace2 stops there), so the event takes the time of
	 * the one before it, and is counted for a note at finish */
	if (ts < s->last_ts) {
		ts = s->last_ts;
		s->clamped++;
	}
	if (!s->events)
		s->first_ts = ts;
	s->last_ts = ts;
	s->events = true;
	if (!c->any || ts < c->first_ts)
		c->first_ts = ts;
	if (!c->any || ts > c->last_ts)
		c->last_ts = ts;
	c->any = true;
	*at = s->len;
	p = s->buf + s->len;
	p = put32(p, id);
	p = put64(p, ts);
	p = put32(p, ev->tid);
	p = put32(p, (uint32_t)(proc && proc->pid >= 0 ? proc->pid : -1));
	p = put_string(p, proc ? proc->comm : "", proc ? proc->comm_len : 0);
	if (k->lttng)
		p = put_lttng(p, k, ev, proc, c->trace->procs);
	p = put_fields(p, k, ev);
	if (k->raw) {
		p = put32(p, ev->raw_len);
		if (ev->raw_len)
			p = put(p, ev->raw, ev->raw_len);
	}
	s->len = (size_t)(p - s->buf);
	return 0;
}

int ctf_event(struct output *o, const struct event *ev,
	      const struct proc *proc)
{
	struct ctf *c = (struct ctf *)o;
	struct ctf_stream *s;
	int ret;

	ret = ctf_stream_get(c, ev->cpu, &s);
	return ret ? ret : ctf_call_event(c, s, ev, proc);
}

int ctf_lost(struct output *o, const struct seq_gap *g)
{
	struct ctf *c = (struct ctf *)o;
	unsigned int cpu = g->cpu >= 0 ? (unsigned int)g->cpu : 0;
	struct ctf_stream *s;
	uint64_t ts = g->before_ts ? g->before_ts : g->after_ts;
	int ret;

	ret = ctf_stream_get(c, cpu, &s);
	if (ret)
		return ret;
	/* the events before the gap in one packet, the total after it */
	if (s->events) {
		ret = ctf_packet_out(c, s, cpu);
		if (ret)
			return ret;
	}
	/* an empty packet, if no event follows, from the end of the last */
	if (!s->seq && !s->pending)
		s->first_ts = s->last_ts = g->after_ts;
	else if (!s->pending)
		s->first_ts = s->last_ts;
	s->discarded += seq_gap_count(g);
	/* records lost between: the next one is not this one's other half */
	s->last.kind = CTF_PENDING_NONE;
	s->pending = true;
	if (ts > s->last_ts)
		s->last_ts = ts;
	return 0;
}
