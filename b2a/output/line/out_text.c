// SPDX-License-Identifier: GPL-2.0
/*
 * out_text.c - lket.out: one line per event (format in lket-b2a(1)):
 *
 *   TIME CPU TID PID COMM EVENT name=value ...
 *
 * and with several hosts, each event's host label after the time (after
 * --delta's), before the CPU:
 *
 *   TIME HOST CPU TID PID COMM EVENT name=value ...
 *
 * Numbers are formatted by hand and lines built straight in the output
 * buffer: this is the converter's hot path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/line/line.h"
#include "output/line/outfmt.h"
#include "output/output.h"
#include "runtime/lket_format.h"
#include "util/outbuf.h"

#define TEXT_BUFFER	(1u << 20)
/* Threads whose " tid pid comm" column text is kept ready. */
#define PROC_CACHE	1024

struct proc_text {
	uint32_t tid, gen;	/* gen 0: the thread's process is unknown */
	const char *host;	/* tids of several hosts are different threads */
	uint8_t len;
	char text[OUTBUF_NUM_MAX * 2 + 4 * PROC_COMM_LEN + 8];
};

struct text {
	struct line_output lo;	/* first: the output is freed through it */
	bool have_prev;		/* --delta: prev_ts is the last line's */
	uint64_t prev_ts;
	struct proc_text procs[PROC_CACHE];
};

/* " tid pid comm": the same for most lines of a thread, so kept ready. */
static char *put_proc(struct text *t, char *p, uint32_t tid,
		      const char *host, const struct proc *proc)
{
	/* the same tid on two hosts: two slots, most likely */
	struct proc_text *c = &t->procs[(tid ^ (uint32_t)((uintptr_t)host >> 4)) %
					PROC_CACHE];
	uint32_t gen = proc ? proc->gen : 0;
	char *e;

	if (c->tid != tid || c->gen != gen || c->host != host || !c->len) {
		e = c->text;
		*e++ = ' ';
		e = fmt_u64(e, tid);
		*e++ = ' ';
		if (proc && proc->pid >= 0)
			e = fmt_u64(e, (uint64_t)proc->pid);
		else
			*e++ = '-';
		if (!t->lo.opt.no_comm) {
			*e++ = ' ';
			if (proc && proc->comm_len)
				e = fmt_escaped(e, proc->comm, proc->comm_len, 1);
			else
				*e++ = '-';
		}
		c->tid = tid;
		c->gen = gen;
		c->host = host;
		c->len = (uint8_t)(e - c->text);
	}
	memcpy(p, c->text, sizeof(c->text));
	return p + c->len;
}

/*
 * --delta: " +S.NNNNNNNNN" since the previous event line, signed (a
 * damaged trace can go back in time); the first line's is 0.
 */
static char *put_delta(struct text *t, char *p, uint64_t ts)
{
	uint64_t d = t->have_prev ? ts - t->prev_ts : 0;

	*p++ = ' ';
	if (t->have_prev && ts < t->prev_ts) {
		*p++ = '-';
		d = t->prev_ts - ts;
	} else {
		*p++ = '+';
	}
	p = fmt_u64(p, d / 1000000000u);
	*p++ = '.';
	p = fmt_u64_pad(p, d % 1000000000u, 9);
	t->have_prev = true;
	t->prev_ts = ts;
	return p;
}

static int text_event(struct output *o, const struct event *ev,
		      const struct proc *proc)
{
	struct text *t = (struct text *)o;
	const struct value *v = ev->v, *end = ev->v + ev->nvalues;
	/* a bound, not a count: every record byte yields at most 4
	 * characters of a string, every value at most its prefix and a
	 * number */
	size_t room = 96 + HOST_LABEL_MAX + OUTFMT_TIME_MAX + OUTFMT_NAME_MAX + META_NAME_PAD +
		      sizeof(t->procs[0].text) + 4 * ev->rec->size +
		      (size_t)ev->nvalues * (FIELD_PREFIX_PAD + OUTBUF_NUM_MAX);
	char *p;
	int ret;

	for (; v < end; v++) {
		if (v->f->prefix_len > FIELD_PREFIX_PAD)
			room += v->f->prefix_len;
		if (v->f->type == LKET_ADDRS)
			room += outfmt_addrs_room(v);
	}
	if (room > (size_t)(t->lo.ob.end - t->lo.ob.buf))
		return -E2BIG;
	ret = outbuf_room(&t->lo.ob, room);
	if (ret)
		return ret;
	p = timefmt_put(&t->lo.time, t->lo.ob.p, ev->rec->timestamp);
	if (t->lo.opt.delta)
		p = put_delta(t, p, ev->rec->timestamp);
	p = put_host(p, ev->host, ' ');
	*p++ = ' ';
	p = fmt_u64(p, ev->cpu);
	p = put_proc(t, p, ev->tid, ev->host, proc);
	*p++ = ' ';
	p = outfmt_event_name(p, ev, t->lo.opt.ids, t->lo.opt.no_names);

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
		} else if (v->f->type == LKET_ADDRS) {
			p = outfmt_addrs(p, v, false);
		} else if (v->f->hex) {
			/* the field's own width, not the sign extension */
			p = fmt_hex(p, value_unsigned(v));
		} else {
			p = fmt_i64(p, v->i);
		}
	}
	if (ev->raw_len) {
		p = put_lit(p, " raw=");
		p = fmt_hexdump(p, ev->raw, ev->raw_len);
	}
	*p++ = '\n';
	t->lo.ob.p = p;
	return 0;
}

static int text_lost(struct output *o, const struct seq_gap *g)
{
	struct text *t = (struct text *)o;
	char *p;
	int ret;

	ret = outbuf_room(&t->lo.ob, 256);
	if (ret)
		return ret;
	p = timefmt_put(&t->lo.time, t->lo.ob.p, g->after_ts);
	/* a gap is no event: no delta, and the next is the event's before */
	if (t->lo.opt.delta)
		p = put_lit(p, " -");
	p = put_host(p, g->host, ' ');
	/* the CPU when known (format version 2); TID PID and, unless -C,
	 * COMM: none of them */
	*p++ = ' ';
	if (g->cpu >= 0)
		p = fmt_u64(p, (uint64_t)g->cpu);
	else
		*p++ = '-';
	p = put_lit(p, t->lo.opt.no_comm ? " - - " : " - - - ");
	p = put_lit(p, outfmt_gap_name(g));
	*p++ = ' ';
	p = outfmt_gap_fields(p, &t->lo.time, g);
	*p++ = '\n';
	t->lo.ob.p = p;
	return 0;
}

int output_text_new(struct output **o, int fd, const struct text_options *opt)
{
	static const struct output_ops text_ops = {
		.begin = line_output_begin,
		.error = line_output_error,
		.event = text_event,
		.lost = text_lost,
		.finish = line_output_finish,
		.flush = line_output_flush,
		.free = line_output_free,
	};

	return line_output_new(o, sizeof(struct text), fd, opt, TEXT_BUFFER,
			       &text_ops);
}
