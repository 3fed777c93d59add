// SPDX-License-Identifier: GPL-2.0
/*
 * out_json.c - JSON Lines: one object per event (format in lket-b2a(1)):
 *
 *   {"ts":N,"time":"...",["host":"...",]"cpu":N,"tid":N,"pid":N,"comm":"...",
 *    "event":"...","fields":{"name":value,...}[,"raw":"hex"]}
 *
 * Field names and values come from the trace's metadata, a name met
 * again in the event numbered (tid, tid_2: meta_unique_name()); values as
 * lket-b2a(1)'s VALUE REPRESENTATION says: strings escaped by
 * outfmt_json_string() (valid UTF-8, no control character), hex fields
 * as "0x..." strings, integers beyond 2^53 as strings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/line/line.h"
#include "output/line/outfmt.h"
#include "output/output.h"
#include "runtime/lket_format.h"
#include "util/outbuf.h"

#define JSON_BUFFER	(1u << 20)

struct json {
	struct line_output lo;	/* first: the output is freed through it */
};

/* "ts":N,"time":"T" */
static char *put_time(struct json *j, char *p, uint64_t ts)
{
	p = put_lit(p, "\"ts\":");
	p = outfmt_json_uint(p, ts);
	p = put_lit(p, ",\"time\":\"");
	p = timefmt_put(&j->lo.time, p, ts);
	*p++ = '"';
	return p;
}

/* ,"host":"LABEL" with several hosts (labels need no escaping) */
static char *put_json_host(char *p, const char *host)
{
	if (!host)
		return p;
	p = put_lit(p, ",\"host\":");
	p = put_host(p, host, '"');
	*p++ = '"';
	return p;
}

/* A field's value: a string, an array of frames or a number. */
static inline char *put_value(char *p, const struct value *v)
{
	if (v->f->type == LKET_STRING) {
		*p++ = '"';
		p = outfmt_json_string(p, v->s, v->slen);
		*p++ = '"';
	} else if (v->f->type == LKET_ADDRS) {
		/* an array of frames, innermost first */
		p = outfmt_addrs(p, v, true);
	} else if (v->f->hex) {
		/* the text's 0x... (addresses pass 2^53) */
		*p++ = '"';
		p = fmt_hex(p, value_unsigned(v));
		*p++ = '"';
	} else {
		p = outfmt_json_int(p, v->i);
	}
	return p;
}

static int json_event(struct output *o, const struct event *ev,
		      const struct proc *proc)
{
	struct json *j = (struct json *)o;
	const struct value *v, *end = ev->v + ev->nvalues;
	size_t room = 512 + 5 * PROC_COMM_LEN + 5 * (size_t)ev->rec->size +
		      2 * (size_t)ev->raw_len;
	char *p;
	int ret;

	for (v = ev->v; v < end; v++) {
		room += 5 * (size_t)v->f->prefix_len +
			sizeof(v->f->key_suffix) + OUTBUF_NUM_MAX + 8;
		if (v->f->type == LKET_ADDRS)
			room += outfmt_addrs_room(v);
	}
	if (room > (size_t)(j->lo.ob.end - j->lo.ob.buf))
		return -E2BIG;
	ret = outbuf_room(&j->lo.ob, room);
	if (ret)
		return ret;
	p = j->lo.ob.p;
	*p++ = '{';
	p = put_time(j, p, ev->rec->timestamp);
	p = put_json_host(p, ev->host);
	p = put_lit(p, ",\"cpu\":");
	p = fmt_u64(p, ev->cpu);
	p = put_lit(p, ",\"tid\":");
	p = fmt_u64(p, ev->tid);
	p = put_lit(p, ",\"pid\":");
	if (proc && proc->pid >= 0)
		p = fmt_u64(p, (uint64_t)proc->pid);
	else
		p = put_lit(p, "null");
	p = put_lit(p, ",\"comm\":");
	if (proc && proc->comm_len) {
		*p++ = '"';
		p = outfmt_json_string(p, proc->comm, proc->comm_len);
		*p++ = '"';
	} else {
		p = put_lit(p, "null");
	}
	p = put_lit(p, ",\"event\":\"");
	p = outfmt_event_name(p, ev, j->lo.opt.ids, j->lo.opt.no_names);
	p = put_lit(p, "\",\"fields\":{");
	for (v = ev->v; v < end; v++) {
		if (v != ev->v)
			*p++ = ',';
		*p++ = '"';
		p = outfmt_json_string(p, v->f->name, strlen(v->f->name));
		/* a name met twice: keys of their own, tid, tid_2 */
		if (v->f->key_suffix[0])
			p = put_lit(p, v->f->key_suffix);
		*p++ = '"';
		*p++ = ':';
		p = put_value(p, v);
	}
	*p++ = '}';
	if (ev->raw_len) {
		p = put_lit(p, ",\"raw\":\"");
		p = fmt_hexdump(p, ev->raw, ev->raw_len);
		*p++ = '"';
	}
	*p++ = '}';
	*p++ = '\n';
	j->lo.ob.p = p;
	return 0;
}

static int json_lost(struct output *o, const struct seq_gap *g)
{
	struct json *j = (struct json *)o;
	char *p;
	int ret;

	ret = outbuf_room(&j->lo.ob, 512);
	if (ret)
		return ret;
	p = j->lo.ob.p;
	*p++ = '{';
	p = put_time(j, p, g->after_ts);
	p = put_json_host(p, g->host);
	p = put_lit(p, ",\"cpu\":");
	if (g->cpu >= 0)
		p = fmt_u64(p, (uint64_t)g->cpu);
	else
		p = put_lit(p, "null");
	p = put_lit(p, ",\"tid\":null,\"pid\":null,\"comm\":null,\"event\":");
	p = put_lit(p, g->records ? "\"lket.dropped\"" : "\"lket.lost\"");
	p = put_lit(p, ",\"fields\":{\"count\":");
	p = fmt_u64(p, seq_gap_count(g));
	if (!g->records) {
		p = put_lit(p, ",\"first_seq\":");
		p = fmt_u64(p, g->first);
		p = put_lit(p, ",\"last_seq\":");
		p = fmt_u64(p, g->last);
	}
	if (g->before_ts) {
		p = put_lit(p, ",\"until_ts\":");
		p = outfmt_json_uint(p, g->before_ts);
		p = put_lit(p, ",\"until\":\"");
		p = timefmt_put(&j->lo.time, p, g->before_ts);
		*p++ = '"';
	}
	p = put_lit(p, "}}\n");
	j->lo.ob.p = p;
	return 0;
}

int output_json_new(struct output **o, int fd, const struct text_options *opt)
{
	static const struct output_ops json_ops = {
		.begin = line_output_begin,
		.error = line_output_error,
		.event = json_event,
		.lost = json_lost,
		.finish = line_output_finish,
		.flush = line_output_flush,
		.free = line_output_free,
	};

	return line_output_new(o, sizeof(struct json), fd, opt, JSON_BUFFER,
			       &json_ops);
}
