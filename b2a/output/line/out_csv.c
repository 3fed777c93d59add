// SPDX-License-Identifier: GPL-2.0
/*
 * out_csv.c - CSV (RFC 4180, LF line ends): a header row, then one row
 * per event (format in lket-b2a(1)), every row seven cells:
 *
 *   time,cpu,tid,pid,comm,event,fields
 *
 * or, with several hosts, eight: time,host,cpu,...
 *
 * Events of different kinds have different fields, so they share one
 * cell, "name=value name=value ..." (outfmt_fields()): any CSV reader gets
 * every value, and the row's shape never depends on the event.  Cells are
 * quoted by outfmt_csv_cell() when they must be.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/line/line.h"
#include "output/line/outfmt.h"
#include "output/output.h"
#include "runtime/lket_format.h"
#include "util/outbuf.h"

#define CSV_BUFFER	(1u << 20)
#define CSV_HEADER	"time,cpu,tid,pid,comm,event,fields\n"
#define CSV_HEADER_HOSTS "time,host,cpu,tid,pid,comm,event,fields\n"

struct csv {
	struct line_output lo;	/* first: the output is freed through it */
	bool header_done;
	char *cell;		/* a cell's text before it is quoted */
	size_t cell_size;
};

static int csv_header(struct csv *c)
{
	int ret;

	if (c->header_done)
		return 0;
	ret = outbuf_room(&c->lo.ob, sizeof(CSV_HEADER_HOSTS));
	if (ret)
		return ret;
	if (c->lo.opt.hosts)
		outbuf_mem(&c->lo.ob, CSV_HEADER_HOSTS,
			   sizeof(CSV_HEADER_HOSTS) - 1);
	else
		outbuf_mem(&c->lo.ob, CSV_HEADER, sizeof(CSV_HEADER) - 1);
	c->header_done = true;
	return 0;
}

static int csv_event(struct output *o, const struct event *ev,
		     const struct proc *proc)
{
	struct csv *c = (struct csv *)o;
	size_t fields = outfmt_fields_room(ev);
	size_t room = 512 + HOST_LABEL_MAX + 2 * 5 * PROC_COMM_LEN +
		      2 * fields;
	char *p, *e;
	int ret;

	if (room > (size_t)(c->lo.ob.end - c->lo.ob.buf))
		return -E2BIG;
	ret = buf_reserve(&c->cell, &c->cell_size,
			  fields > 5 * PROC_COMM_LEN ? fields :
			  5 * PROC_COMM_LEN);
	if (!ret)
		ret = csv_header(c);
	if (!ret)
		ret = outbuf_room(&c->lo.ob, room);
	if (ret)
		return ret;
	p = timefmt_put(&c->lo.time, c->lo.ob.p, ev->rec->timestamp);
	p = put_host(p, ev->host, ',');
	*p++ = ',';
	p = fmt_u64(p, ev->cpu);
	*p++ = ',';
	p = fmt_u64(p, ev->tid);
	*p++ = ',';
	if (proc && proc->pid >= 0)
		p = fmt_u64(p, (uint64_t)proc->pid);
	*p++ = ',';
	if (proc && proc->comm_len) {
		e = fmt_utf8_escaped(c->cell, proc->comm, proc->comm_len, 0);
		p = outfmt_csv_cell(p, c->cell, (size_t)(e - c->cell));
	}
	*p++ = ',';
	p = outfmt_event_name(p, ev, c->lo.opt.ids, c->lo.opt.no_names);
	*p++ = ',';
	e = outfmt_fields(c->cell, ev);
	p = outfmt_csv_cell(p, c->cell, (size_t)(e - c->cell));
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
	p = put_host(p, g->host, ',');
	*p++ = ',';
	if (g->cpu >= 0)
		p = fmt_u64(p, (uint64_t)g->cpu);
	p = put_lit(p, ",,,,");
	p = put_lit(p, outfmt_gap_name(g));
	*p++ = ',';
	p = outfmt_gap_fields(p, &c->lo.time, g);
	*p++ = '\n';
	c->lo.ob.p = p;
	return 0;
}

static void csv_free(struct output *o)
{
	free(((struct csv *)o)->cell);
	line_output_free(o);
}

int output_csv_new(struct output **o, int fd, const struct text_options *opt)
{
	static const struct output_ops csv_ops = {
		.begin = line_output_begin,
		.error = line_output_error,
		.event = csv_event,
		.lost = csv_lost,
		.finish = line_output_finish,
		.flush = line_output_flush,
		.free = csv_free,
	};

	return line_output_new(o, sizeof(struct csv), fd, opt, CSV_BUFFER,
			       &csv_ops);
}
