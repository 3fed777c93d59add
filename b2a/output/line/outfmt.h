/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfmt.h - what every output formats the same way: times, event names,
 * strings for JSON and CSV.
 */
#ifndef LKET_OUTFMT_H
#define LKET_OUTFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "decode/decode.h"
#include "output/output.h"
#include "util/outbuf.h"

/* Longest time text: a wall-clock date with nanoseconds, or a number. */
#define OUTFMT_TIME_MAX	48
/* Longest event name text: a name, '[', two IDs, ']'. */
#define OUTFMT_NAME_MAX	(256 + 12)

struct timefmt {
	enum time_format format;
	const struct trace_info *trace;	/* the output's begin sets it */
	int64_t wall_sec;	/* second of wall_prefix */
	char wall_prefix[32];	/* "2026-11-29T13:45:01." */
	size_t wall_prefix_len;
	uint64_t sec;		/* second of sec_text */
	char sec_text[24];	/* "5." */
	uint8_t sec_len;
	/* -t wall: a trace without the header's offset; a time past 2^64
	 * ns (or before 1970) the offset made, the first one's ts */
	bool no_header;
	bool overflow;
	uint64_t overflow_ts;
	char *error;		/* what was refused, whole; NULL: nothing */
};

/*
 * What the line outputs (text, JSON, CSV) share: each embeds this as the
 * first member of its own state, allocated zeroed, with ops of its own
 * whose begin, finish and free may be line_output_begin(), _finish() and
 * _free(): the trace for the times, a flush, the whole object released.
 */
struct line_output {
	struct output o;
	struct outbuf ob;
	struct text_options opt;
	struct timefmt time;
};

/*
 * Allocate a line output of size bytes (its own state, line_output first),
 * with a buffer of buffer bytes and its ops.
 */
int line_output_new(struct output **o, size_t size, int fd,
		    const struct text_options *opt, size_t buffer,
		    const struct output_ops *ops);

int line_output_begin(struct output *o, const struct trace_info *trace);
/*
 * -t wall: -ENODATA if the trace had no header to give the offset,
 * -ERANGE if a time was past 2^64 ns (line_output_error() says which).
 */
int line_output_finish(struct output *o);
/* What is buffered, out now (--follow). */
int line_output_flush(struct output *o);
const char *line_output_error(const struct output *o);
/* The same checks, for what formats times without a line output. */
int timefmt_begin(struct timefmt *tf, const struct trace_info *trace);
int timefmt_check(struct timefmt *tf);
void timefmt_free(struct timefmt *tf);
/* Frees what line_output_new() allocated, for outputs that add to it. */
void line_output_free(struct output *o);

/* " host" if the event has one (HOST_LABEL_MAX + 1 bytes), else nothing. */
static inline char *put_host(char *p, const char *host, char sep)
{
	size_t n;

	if (!host)
		return p;
	n = strlen(host);
	*p++ = sep;
	memcpy(p, host, n);
	return p + n;
}

/* Copy the literal s to p (strlen of a literal folds to a constant). */
static inline char *put_lit(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/* The trace comes later, before the first time (the output's begin). */
void timefmt_init(struct timefmt *tf, enum time_format format);
/* Write the time of timestamp ts at p; returns the end. */
char *timefmt_put(struct timefmt *tf, char *p, uint64_t ts);

/*
 * The event's name from the trace's metadata; without it, the catalogue's
 * name or "unknown", always followed by [group:hook] so that nobody takes
 * it for a decoded event.  ids: always add [group:hook]; no_names: only
 * group:hook.
 */
char *outfmt_event_name(char *p, const struct event *ev, bool ids,
			bool no_names);

/* A JSON string body (no quotes), fmt_utf8_escaped(): needs 5 * len
 * bytes of room. */
char *outfmt_json_string(char *p, const char *s, size_t len);
/* A JSON integer: a number, or a string beyond 2^53 (exact in every JSON
 * reader). */
char *outfmt_json_int(char *p, int64_t v);
char *outfmt_json_uint(char *p, uint64_t v);
/*
 * A CSV cell of text that fmt_utf8_escaped() wrote, quoted when it must
 * be, with a ' before a first character that makes a spreadsheet formula
 * (= + - @ tab CR) or is a ': needs 2 * len + 3 bytes.
 */
char *outfmt_csv_cell(char *p, const char *s, size_t len);
/*
 * An event's fields as CSV and the databases' other_events hold them:
 * name=value separated by spaces, as in lket.out but for strings
 * (fmt_utf8_escaped(), in double quotes); raw=HEX for undescribed bytes.
 * Needs outfmt_fields_room(ev) bytes.
 */
size_t outfmt_fields_room(const struct event *ev);
char *outfmt_fields(char *p, const struct event *ev);

/*
 * An ADDRS value (a call stack) as lket.out, CSV and the databases show
 * it: "[frame, frame, ...]", innermost first, each frame its symbol
 * ("ksys_write+0x5 [module]") or, where none is known, its address in hex.
 * json: a JSON array of strings instead.  Needs outfmt_addrs_room(v).
 */
size_t outfmt_addrs_room(const struct value *v);
char *outfmt_addrs(char *p, const struct value *v, bool json);

/* A gap's line, as text and CSV show it: lket.lost (flushes) or
 * lket.dropped (records), then its fields (at most 128 bytes). */
static inline const char *outfmt_gap_name(const struct seq_gap *g)
{
	return g->records ? "lket.dropped" : "lket.lost";
}

char *outfmt_gap_fields(char *p, struct timefmt *tf, const struct seq_gap *g);

#endif
