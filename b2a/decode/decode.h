/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decode.h - split a record into typed values, as its metadata says.
 *
 * The one loop here reads each field by its type (INT8..INT64, STRING,
 * ADDRS) and knows nothing of any particular event.  Bytes that no metadata
 * describes are kept aside as raw, for the output to show in hex.
 */
#ifndef LKET_DECODE_H
#define LKET_DECODE_H

#include "decode/meta.h"
#include "input/stream.h"
#include "runtime/lket_format.h"

struct value {
	const struct field *f;
	int64_t i;		/* integers, sign-extended (zero-extended
				   where the field is_unsigned) */
	/* strings: in the record, NUL-terminated there; a string whose NUL
	 * is missing is no value (the record does not match its metadata) */
	const char *s;
	uint32_t slen;
	/*
	 * ADDRS: n addresses at a, in the event's addrs[]; i is n too.  syms,
	 * beside them: each one's symbol ("func+0x1a [module]"), or NULL
	 * where none is known (shown as the address); NULL: no symbols.
	 */
	const uint64_t *a;
	const char *const *syms;
	uint32_t n;
};

/* Every address of an event's ADDRS fields (a record holds no more). */
#define EVENT_MAX_ADDRS	LKET_ADDRS_MAX
/* CPUs counted one by one (the end check, --stat, --cpu): Debian's
 * kernels allow 8192 (NR_CPUS); a record's CPU field holds up to
 * LKET_CPU_MAX */
#define B2A_CPUS	8192

struct event {
	const struct record *rec;
	const struct event_meta *meta;	/* NULL: nothing registered */
	uint32_t tid;
	unsigned int group, hook, cpu;
	unsigned int nsys, nvalues;	/* sys values, then user values */
	struct value v[2 * META_MAX_FIELDS];
	const uint8_t *raw;		/* bytes left undecoded */
	uint32_t raw_len;
	uint32_t naddrs;		/* of addrs[], used by ADDRS values */
	uint64_t addrs[EVENT_MAX_ADDRS];
	const char *syms[EVENT_MAX_ADDRS];
	const char *host;		/* its host's label; NULL: one trace */
};

/*
 * An integer at its field's own width, unsigned: what lket.out shows in hex
 * (an INT32 flags word of 0x80000000 is not the sign-extended -2^31).
 */
static inline uint64_t value_unsigned(const struct value *v)
{
	return v->f->type == LKET_INT64 || v->f->type == LKET_ADDRS ?
	       (uint64_t)v->i :
	       (uint64_t)v->i & ((1ull << (8 * v->f->type)) - 1);
}

/*
 * Decode s's current record into ev.  Returns 0, or -EBADMSG if the record
 * does not match its metadata (fields run past its end, or bytes are left
 * over): what could be decoded is in ev, the rest in ev->raw.
 */
int decode_record(const struct meta *m, const struct stream *s,
		  struct event *ev);

/* The integer field named name of ev, or missing if it has none. */
int64_t event_int(const struct event *ev, const char *name, int64_t missing);
/* The value of the field named name, NULL if the event has none. */
const struct value *event_value(const struct event *ev, const char *name);

#endif
