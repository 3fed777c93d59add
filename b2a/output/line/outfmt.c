// SPDX-License-Identifier: GPL-2.0
/*
 * outfmt.c - what every line output formats alike: times, event names, JSON
 * and CSV text (outfmt.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decode/meta.h"
#include "output/line/outfmt.h"
#include "runtime/lket_format.h"
#include "util/diag.h"
#include "util/outbuf.h"

int timefmt_begin(struct timefmt *tf, const struct trace_info *trace)
{
	tf->trace = trace;
	return 0;
}

int timefmt_check(struct timefmt *tf)
{
	/* as --from/--to DATE: no offset, no wall-clock time */
	if (tf->no_header)
		return -ENODATA;
	if (!tf->overflow)
		return 0;
	text_printf(&tf->error,
		    "-t wall: the trace header's wall-clock offset %lld ns puts time %llu out of 0 to 2^64 ns since 1970 (years 1970 to 2554): not converted",
		    (long long)tf->trace->wall_offset,
		    (unsigned long long)tf->overflow_ts);
	return -ERANGE;
}

void timefmt_free(struct timefmt *tf)
{
	free(tf->error);
	tf->error = NULL;
}

int line_output_begin(struct output *o, const struct trace_info *trace)
{
	return timefmt_begin(&((struct line_output *)o)->time, trace);
}

int line_output_finish(struct output *o)
{
	struct line_output *lo = (struct line_output *)o;
	int ret = outbuf_flush(&lo->ob);

	return ret ? ret : timefmt_check(&lo->time);
}

int line_output_flush(struct output *o)
{
	return outbuf_flush(&((struct line_output *)o)->ob);
}

const char *line_output_error(const struct output *o)
{
	const struct line_output *lo = (const struct line_output *)o;

	return lo->time.error;
}

/*
 * Wall-clock ns of ts: unsigned, as every time; false if the offset puts
 * it past 2^64 ns or before 1970.
 */
static bool wall_of(const struct trace_info *t, uint64_t ts, uint64_t *wall)
{
	if (t->wall_offset >= 0)
		return !__builtin_add_overflow(ts, (uint64_t)t->wall_offset,
					       wall);
	return !__builtin_sub_overflow(ts, -(uint64_t)t->wall_offset, wall);
}

void line_output_free(struct output *o)
{
	struct line_output *lo = (struct line_output *)o;

	outbuf_free(&lo->ob);
	timefmt_free(&lo->time);
	free(lo);
}

int line_output_new(struct output **o, size_t size, int fd,
		    const struct text_options *opt, size_t buffer,
		    const struct output_ops *ops)
{
	struct line_output *lo = calloc(1, size);
	int ret;

	if (!lo)
		return -ENOMEM;
	ret = outbuf_init(&lo->ob, fd, buffer);
	if (ret) {
		free(lo);
		return ret;
	}
	lo->o.ops = ops;
	lo->opt = *opt;
	timefmt_init(&lo->time, opt->time);
	*o = &lo->o;
	return 0;
}

void timefmt_init(struct timefmt *tf, enum time_format format)
{
	memset(tf, 0, sizeof(*tf));
	tf->format = format;
	tf->wall_sec = -1;
}

char *timefmt_put(struct timefmt *tf, char *p, uint64_t ts)
{
	uint64_t sec, wall;
	struct tm tm;
	time_t tt;

	switch (tf->format) {
	case TIME_RAW:
		return fmt_u64(p, ts);
	case TIME_REL:
		ts = ts >= tf->trace->first_ts ? ts - tf->trace->first_ts : 0;
		break;
	case TIME_WALL:
		if (!tf->trace->have_header) {
			tf->no_header = true;
			return fmt_u64(p, ts);
		}
		/* never wrapped: the first that does not fit is reported */
		if (!wall_of(tf->trace, ts, &wall)) {
			if (!tf->overflow)
				tf->overflow_ts = ts;
			tf->overflow = true;
			return fmt_u64(p, ts);
		}
		sec = wall / 1000000000;
		if ((int64_t)sec != tf->wall_sec) {
			tt = (time_t)sec;
			if (!gmtime_r(&tt, &tm))
				return fmt_u64(p, wall);
			tf->wall_prefix_len = strftime(tf->wall_prefix,
						      sizeof(tf->wall_prefix),
						      "%Y-%m-%dT%H:%M:%S.", &tm);
			if (!tf->wall_prefix_len)
				return fmt_u64(p, wall);
			tf->wall_sec = (int64_t)sec;
		}
		memcpy(p, tf->wall_prefix, tf->wall_prefix_len);
		return fmt_u64_pad(p + tf->wall_prefix_len, wall % 1000000000,
				   9);
	case TIME_ABS:
		break;
	}
	sec = ts / 1000000000;
	if (sec != tf->sec || !tf->sec_len) {
		char *e = fmt_u64(tf->sec_text, sec);

		*e++ = '.';
		tf->sec_len = (uint8_t)(e - tf->sec_text);
		tf->sec = sec;
	}
	memcpy(p, tf->sec_text, sizeof(tf->sec_text));
	return fmt_u64_pad(p + tf->sec_len, ts - sec * 1000000000, 9);
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
char *outfmt_event_name(char *p, const struct event *ev, bool ids,
			bool no_names)
{
	bool named = ev->meta && ev->meta->named;
	const char *name;

	if (no_names)
		return put_ids(p, ev);
	if (named) {
		/* a fixed size: a variable one compiles to a slow rep movs */
		if (ev->meta->name_len <= META_NAME_PAD)
			memcpy(p, ev->meta->name, META_NAME_PAD);
		else
			memcpy(p, ev->meta->name, ev->meta->name_len);
		p += ev->meta->name_len;
	} else {
		name = meta_catalogue_name(ev->group, ev->hook);
		if (!name)
			name = "unknown";
		memcpy(p, name, strlen(name));
		p += strlen(name);
	}
	if (ids || !named) {
		*p++ = '[';
		p = put_ids(p, ev);
		*p++ = ']';
	}
	return p;
}

char *outfmt_json_string(char *p, const char *s, size_t len)
{
	return fmt_utf8_escaped(p, s, len, ESC_JSON);
}

/* Integers beyond 2^53 lose digits as JSON numbers (JavaScript, jq):
 * those go out as strings. */
#define JSON_EXACT	((1ull << 53) - 1)

char *outfmt_json_int(char *p, int64_t v)
{
	if (v >= -(int64_t)JSON_EXACT && v <= (int64_t)JSON_EXACT)
		return fmt_i64(p, v);
	*p++ = '"';
	p = fmt_i64(p, v);
	*p++ = '"';
	return p;
}

char *outfmt_json_uint(char *p, uint64_t v)
{
	if (v <= JSON_EXACT)
		return fmt_u64(p, v);
	*p++ = '"';
	p = fmt_u64(p, v);
	*p++ = '"';
	return p;
}

/* count=N, the flush numbers (none for dropped records), until= if known */
char *outfmt_gap_fields(char *p, struct timefmt *tf, const struct seq_gap *g)
{
	p = put_lit(p, "count=");
	p = fmt_u64(p, seq_gap_count(g));
	if (!g->records) {
		p = put_lit(p, " first_seq=");
		p = fmt_u64(p, g->first);
		p = put_lit(p, " last_seq=");
		p = fmt_u64(p, g->last);
	}
	if (g->before_ts) {
		p = put_lit(p, " until=");
		p = timefmt_put(tf, p, g->before_ts);
	}
	return p;
}

/* An address as a frame shows it when no symbol is known. */
#define ADDR_TEXT_MAX	(2 + 16)

size_t outfmt_addrs_room(const struct value *v)
{
	size_t room = 2, i, len;

	for (i = 0; i < v->n; i++) {
		len = v->syms && v->syms[i] ? strlen(v->syms[i]) : 0;
		/* JSON: "..." and a comma; symbols are plain ASCII */
		room += (len > ADDR_TEXT_MAX ? len : ADDR_TEXT_MAX) + 4;
	}
	return room;
}

char *outfmt_addrs(char *p, const struct value *v, bool json)
{
	size_t i, len;

	*p++ = '[';
	for (i = 0; i < v->n; i++) {
		if (i)
			p = json ? put_lit(p, ",") : put_lit(p, ", ");
		if (json)
			*p++ = '"';
		if (v->syms && v->syms[i]) {
			len = strlen(v->syms[i]);
			memcpy(p, v->syms[i], len);
			p += len;
		} else {
			p = fmt_hex(p, v->a[i]);
		}
		if (json)
			*p++ = '"';
	}
	*p++ = ']';
	return p;
}

size_t outfmt_fields_room(const struct event *ev)
{
	const struct value *v, *end = ev->v + ev->nvalues;
	size_t room = 16 + 5 * (size_t)ev->rec->size + 2 * (size_t)ev->raw_len;

	for (v = ev->v; v < end; v++) {
		room += v->f->prefix_len + OUTBUF_NUM_MAX + 4;
		if (v->f->type == LKET_ADDRS)
			room += outfmt_addrs_room(v);
	}
	return room;
}

char *outfmt_fields(char *p, const struct event *ev)
{
	const struct value *v, *end = ev->v + ev->nvalues;

	for (v = ev->v; v < end; v++) {
		if (v != ev->v)
			*p++ = ' ';
		/* the prefix is " name=" */
		memcpy(p, v->f->prefix + 1, v->f->prefix_len - 1u);
		p += v->f->prefix_len - 1u;
		if (v->f->type == LKET_STRING) {
			*p++ = '"';
			p = fmt_utf8_escaped(p, v->s, v->slen, ESC_QUOTE);
			*p++ = '"';
		} else if (v->f->type == LKET_ADDRS) {
			p = outfmt_addrs(p, v, false);
		} else if (v->f->hex) {
			p = fmt_hex(p, value_unsigned(v));
		} else {
			p = fmt_i64(p, v->i);
		}
	}
	if (ev->raw_len) {
		if (ev->nvalues)
			*p++ = ' ';
		p = put_lit(p, "raw=");
		p = fmt_hexdump(p, ev->raw, ev->raw_len);
	}
	return p;
}

char *outfmt_csv_cell(char *p, const char *s, size_t len)
{
	bool quote = memchr(s, ',', len) || memchr(s, '"', len) ||
		     memchr(s, '\n', len) || memchr(s, '\r', len);

	bool formula = len && strchr("=+-@\t\r'", s[0]);
	size_t i;

	if (!quote && !formula) {
		memcpy(p, s, len);
		return p + len;
	}
	if (quote)
		*p++ = '"';
	/*
	 * A cell a spreadsheet would run as a formula, kept as text as
	 * spreadsheets do; a leading ' too, so that a reader drops the
	 * first ' of a cell and has the value.
	 */
	if (formula)
		*p++ = '\'';
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			*p++ = '"';
		*p++ = s[i];
	}
	if (quote)
		*p++ = '"';
	return p;
}
