// SPDX-License-Identifier: GPL-2.0
/*
 * out_text.c - lket.out: one line per event (format in lket-b2a(1)):
 *
 *   TIME CPU TID PID COMM EVENT name=value ...
 *
 * Numbers are formatted by hand and lines built straight in the output
 * buffer: this is the converter's hot path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../runtime/lket_format.h"
#include "outbuf.h"
#include "output.h"

#define TEXT_BUFFER	(1u << 20)
/* Threads whose " tid pid comm" column text is kept ready. */
#define PROC_CACHE	1024

struct proc_text {
	uint32_t tid, gen;	/* gen 0: the thread's process is unknown */
	uint8_t len;
	char text[OUTBUF_NUM_MAX * 2 + 4 * PROC_COMM_LEN + 8];
};

struct text {
	struct output o;
	struct outbuf ob;
	struct text_options opt;
	int64_t wall_sec;	/* second of wall_prefix */
	char wall_prefix[32];	/* "2026-11-29T13:45:01." */
	size_t wall_prefix_len;
	uint64_t sec;		/* second of sec_text */
	char sec_text[OUTBUF_NUM_MAX];	/* "5." */
	uint8_t sec_len;
	struct proc_text procs[PROC_CACHE];
};

static char *put_time(struct text *t, char *p, uint64_t ts)
{
	uint64_t sec;
	int64_t wall;
	struct tm tm;
	time_t tt;

	switch (t->opt.time) {
	case TIME_RAW:
		return fmt_u64(p, ts);
	case TIME_REL:
		ts = ts >= t->o.trace->first_ts ? ts - t->o.trace->first_ts : 0;
		break;
	case TIME_WALL:
		/* unsigned: a damaged offset wraps instead of overflowing */
		wall = (int64_t)(ts + (uint64_t)t->o.trace->wall_offset);
		sec = (uint64_t)(wall / 1000000000);
		if (wall < 0)
			return fmt_i64(p, wall);
		if ((int64_t)sec != t->wall_sec) {
			tt = (time_t)sec;
			if (!gmtime_r(&tt, &tm))
				return fmt_u64(p, (uint64_t)wall);
			t->wall_prefix_len = strftime(t->wall_prefix,
						      sizeof(t->wall_prefix),
						      "%Y-%m-%dT%H:%M:%S.", &tm);
			if (!t->wall_prefix_len)
				return fmt_u64(p, (uint64_t)wall);
			t->wall_sec = (int64_t)sec;
		}
		memcpy(p, t->wall_prefix, t->wall_prefix_len);
		return fmt_u64_pad(p + t->wall_prefix_len,
				   (uint64_t)(wall % 1000000000), 9);
	case TIME_ABS:
		break;
	}
	sec = ts / 1000000000;
	if (sec != t->sec || !t->sec_len) {
		char *e = fmt_u64(t->sec_text, sec);

		*e++ = '.';
		t->sec_len = (uint8_t)(e - t->sec_text);
		t->sec = sec;
	}
	memcpy(p, t->sec_text, sizeof(t->sec_text));
	return fmt_u64_pad(p + t->sec_len, ts - sec * 1000000000, 9);
}

static char *put_ids(char *p, const struct event *ev)
{
	p = fmt_u64(p, ev->group);
	*p++ = ':';
	return fmt_u64(p, ev->hook);
}

/*
 * The event's name from the trace's metadata; without it, the catalogue's
 * name or "unknown", always followed by [group:hook] so that nobody takes
 * it for a decoded event.
 */
static char *put_event_name(struct text *t, char *p, const struct event *ev)
{
	bool named = ev->meta && ev->meta->named;
	const char *name;

	if (t->opt.no_names)
		return put_ids(p, ev);
	if (named) {
		memcpy(p, ev->meta->name, ev->meta->name_len);
		p += ev->meta->name_len;
	} else {
		name = meta_catalogue_name(ev->group, ev->hook);
		if (!name)
			name = "unknown";
		memcpy(p, name, strlen(name));
		p += strlen(name);
	}
	if (t->opt.ids || !named) {
		*p++ = '[';
		p = put_ids(p, ev);
		*p++ = ']';
	}
	return p;
}

/* " tid pid comm": the same for most lines of a thread, so kept ready. */
static char *put_proc(struct text *t, char *p, uint32_t tid,
		      const struct proc *proc)
{
	struct proc_text *c = &t->procs[tid % PROC_CACHE];
	uint32_t gen = proc ? proc->gen : 0;
	char *e;

	if (c->tid != tid || c->gen != gen || !c->len) {
		e = c->text;
		*e++ = ' ';
		e = fmt_u64(e, tid);
		*e++ = ' ';
		if (proc && proc->pid >= 0)
			e = fmt_u64(e, (uint64_t)proc->pid);
		else
			*e++ = '-';
		if (!t->opt.no_comm) {
			*e++ = ' ';
			if (proc && proc->comm_len)
				e = fmt_escaped(e, proc->comm, proc->comm_len, 1);
			else
				*e++ = '-';
		}
		c->tid = tid;
		c->gen = gen;
		c->len = (uint8_t)(e - c->text);
	}
	memcpy(p, c->text, sizeof(c->text));
	return p + c->len;
}

static int text_event(struct output *o, const struct event *ev,
		      const struct proc *proc)
{
	struct text *t = (struct text *)o;
	const struct value *v = ev->v, *end = ev->v + ev->nvalues;
	/* a bound, not a count: every record byte yields at most 4
	 * characters of a string, every value at most its prefix and a
	 * number */
	size_t room = 256 + sizeof(t->procs[0].text) + 4 * ev->rec->size +
		      (size_t)ev->nvalues * (FIELD_PREFIX_PAD + OUTBUF_NUM_MAX);
	char *p;
	int ret;

	for (; v < end; v++)
		if (v->f->prefix_len > FIELD_PREFIX_PAD)
			room += v->f->prefix_len;
	if (room > (size_t)(t->ob.end - t->ob.buf))
		return -E2BIG;
	ret = outbuf_room(&t->ob, room);
	if (ret)
		return ret;
	p = put_time(t, t->ob.p, ev->rec->timestamp);
	*p++ = ' ';
	p = fmt_u64(p, ev->cpu);
	p = put_proc(t, p, ev->tid, proc);
	*p++ = ' ';
	p = put_event_name(t, p, ev);

	for (v = ev->v; v < end; v++) {
		if (v->f->prefix_len <= FIELD_PREFIX_PAD)
			memcpy(p, v->f->prefix_pad, FIELD_PREFIX_PAD);
		else
			memcpy(p, v->f->prefix, v->f->prefix_len);
		p += v->f->prefix_len;
		if (v->f->type == LKET_STRING) {
			*p++ = '"';
			p = fmt_escaped(p, v->s, v->slen, 0);
			*p++ = '"';
		} else if (v->f->hex) {
			/* the field's own width, not the sign extension */
			p = fmt_hex(p, v->f->type == LKET_INT64 ? (uint64_t)v->i :
				    (uint64_t)v->i &
				    ((1ull << (8 * v->f->type)) - 1));
		} else {
			p = fmt_i64(p, v->i);
		}
	}
	if (ev->raw_len) {
		static const char hex[] = "0123456789abcdef";
		uint32_t i;

		memcpy(p, " raw=", 5);
		p += 5;
		for (i = 0; i < ev->raw_len; i++) {
			*p++ = hex[ev->raw[i] >> 4];
			*p++ = hex[ev->raw[i] & 15];
		}
	}
	*p++ = '\n';
	t->ob.p = p;
	return 0;
}

static int text_lost(struct output *o, const struct seq_gap *g)
{
	struct text *t = (struct text *)o;
	char *p;
	int ret;

	ret = outbuf_room(&t->ob, 256);
	if (ret)
		return ret;
	p = put_time(t, t->ob.p, g->after_ts);
	memcpy(p, " - - - - lket.lost count=", 25);
	p = fmt_u64(p + 25, (uint64_t)(g->last - g->first) + 1);
	memcpy(p, " first_seq=", 11);
	p = fmt_u64(p + 11, g->first);
	memcpy(p, " last_seq=", 10);
	p = fmt_u64(p + 10, g->last);
	if (g->before_ts) {
		memcpy(p, " until=", 7);
		p = put_time(t, p + 7, g->before_ts);
	}
	*p++ = '\n';
	t->ob.p = p;
	return 0;
}

static int text_finish(struct output *o)
{
	return outbuf_flush(&((struct text *)o)->ob);
}

static void text_free(struct output *o)
{
	struct text *t = (struct text *)o;

	outbuf_free(&t->ob);
	free(t);
}

int output_text_new(struct output **o, int fd, const struct text_options *opt)
{
	struct text *t = calloc(1, sizeof(*t));
	int ret;

	if (!t)
		return -ENOMEM;
	ret = outbuf_init(&t->ob, fd, TEXT_BUFFER);
	if (ret) {
		free(t);
		return ret;
	}
	t->opt = *opt;
	t->wall_sec = -1;
	t->o.event = text_event;
	t->o.lost = text_lost;
	t->o.finish = text_finish;
	t->o.free = text_free;
	*o = &t->o;
	return 0;
}
