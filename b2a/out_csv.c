// SPDX-License-Identifier: GPL-2.0
/*
 * out_csv.c - CSV (RFC 4180, LF line ends): a header row, then one row
 * per event (format in lket-b2a(1)):
 *
 *   time,cpu,tid,pid,comm,event,name,value,name,value,...
 *
 * Events of different kinds have different fields, so each field is a
 * name cell and a value cell: rows differ in length.  Cells are quoted
 * by outfmt_csv_cell() when they hold a comma, a quote or a line end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/lket_format.h"
#include "outbuf.h"
#include "outfmt.h"
#include "output.h"

#define CSV_BUFFER	(1u << 20)
#define CSV_HEADER	"time,cpu,tid,pid,comm,event,name,value\n"

struct csv {
	struct line_output lo;	/* first: the output is freed through it */
	bool header_done;
};

static int csv_header(struct csv *c)
{
	int ret;

	if (c->header_done)
		return 0;
	ret = outbuf_room(&c->lo.ob, sizeof(CSV_HEADER));
	if (ret)
		return ret;
	outbuf_mem(&c->lo.ob, CSV_HEADER, sizeof(CSV_HEADER) - 1);
	c->header_done = true;
	return 0;
}

static int csv_event(struct output *o, const struct event *ev,
		     const struct proc *proc)
{
	struct csv *c = (struct csv *)o;
	const struct value *v, *end = ev->v + ev->nvalues;
	size_t room = 512 + 2 * PROC_COMM_LEN + 2 * (size_t)ev->rec->size +
		      2 * (size_t)ev->raw_len;
	char *p;
	int ret;

	for (v = ev->v; v < end; v++)
		room += 2 * (size_t)v->f->prefix_len + OUTBUF_NUM_MAX + 8;
	if (room > (size_t)(c->lo.ob.end - c->lo.ob.buf))
		return -E2BIG;
	ret = csv_header(c);
	if (!ret)
		ret = outbuf_room(&c->lo.ob, room);
	if (ret)
		return ret;
	p = timefmt_put(&c->lo.time, c->lo.ob.p, ev->rec->timestamp);
	*p++ = ',';
	p = fmt_u64(p, ev->cpu);
	*p++ = ',';
	p = fmt_u64(p, ev->tid);
	*p++ = ',';
	if (proc && proc->pid >= 0)
		p = fmt_u64(p, (uint64_t)proc->pid);
	*p++ = ',';
	if (proc && proc->comm_len)
		p = outfmt_csv_cell(p, proc->comm, proc->comm_len);
	*p++ = ',';
	p = outfmt_event_name(p, ev, c->lo.opt.ids, c->lo.opt.no_names);
	for (v = ev->v; v < end; v++) {
		*p++ = ',';
		p = outfmt_csv_cell(p, v->f->name, strlen(v->f->name));
		*p++ = ',';
		if (v->f->type == LKET_STRING)
			p = outfmt_csv_cell(p, v->s, v->slen);
		else if (v->f->hex)
			p = fmt_hex(p, v->f->type == LKET_INT64 ? (uint64_t)v->i :
				    (uint64_t)v->i &
				    ((1ull << (8 * v->f->type)) - 1));
		else
			p = fmt_i64(p, v->i);
	}
	if (ev->raw_len) {
		p = put_lit(p, ",raw,");
		p = fmt_hexdump(p, ev->raw, ev->raw_len);
	}
	*p++ = '\n';
	c->lo.ob.p = p;
	return 0;
}

static int csv_lost(struct output *o, const struct seq_gap *g)
{
	struct csv *c = (struct csv *)o;
	char *p;
	int ret;

	ret = csv_header(c);
	if (!ret)
		ret = outbuf_room(&c->lo.ob, 256);
	if (ret)
		return ret;
	p = timefmt_put(&c->lo.time, c->lo.ob.p, g->after_ts);
	*p++ = ',';
	if (g->cpu >= 0)
		p = fmt_u64(p, (uint64_t)g->cpu);
	p = put_lit(p, ",,,,lket.lost,count,");
	p = fmt_u64(p, (uint64_t)(g->last - g->first) + 1);
	p = put_lit(p, ",first_seq,");
	p = fmt_u64(p, g->first);
	p = put_lit(p, ",last_seq,");
	p = fmt_u64(p, g->last);
	if (g->before_ts) {
		p = put_lit(p, ",until,");
		p = timefmt_put(&c->lo.time, p, g->before_ts);
	}
	*p++ = '\n';
	c->lo.ob.p = p;
	return 0;
}

int output_csv_new(struct output **o, int fd, const struct text_options *opt)
{
	return line_output_new(o, sizeof(struct csv), fd, opt, CSV_BUFFER,
			       csv_event, csv_lost);
}
