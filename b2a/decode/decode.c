// SPDX-License-Identifier: GPL-2.0
/*
 * decode.c - a record split into typed values by its metadata's field types
 * (decode.h).
 */
#include <errno.h>
#include <string.h>

#include "decode/decode.h"
#include "runtime/lket_format.h"

/*
 * Decode fields of fl from p..end into ev->v; returns the byte after the
 * last complete field, or NULL if one runs past end.
 */
static const uint8_t *decode_fields(const struct stream *s,
				    const struct field_list *fl,
				    const uint8_t *p, const uint8_t *end,
				    struct event *ev)
{
	const struct field *f = fl->f;
	struct value *v;
	const uint8_t *nul;
	unsigned int i, k, n;

	for (i = 0; i < fl->n; i++, f++) {
		v = &ev->v[ev->nvalues];
		v->f = f;
		switch (f->type) {
		case LKET_INT8:
			if (end - p < 1)
				return NULL;
			v->i = f->is_unsigned ? (int64_t)*p : (int8_t)*p;
			p += 1;
			break;
		case LKET_INT16:
			if (end - p < 2)
				return NULL;
			v->i = f->is_unsigned ? (int64_t)stream_u16(s, p) :
			       (int16_t)stream_u16(s, p);
			p += 2;
			break;
		case LKET_INT32:
			if (end - p < 4)
				return NULL;
			v->i = f->is_unsigned ? (int64_t)stream_u32(s, p) :
			       (int32_t)stream_u32(s, p);
			p += 4;
			break;
		case LKET_INT64:
			if (end - p < 8)
				return NULL;
			v->i = (int64_t)stream_u64(s, p);
			p += 8;
			break;
		case LKET_ADDRS:
			if ((size_t)(end - p) < sizeof(lket_addrs_count_t))
				return NULL;
			n = stream_u16(s, p);
			p += sizeof(lket_addrs_count_t);
			if ((size_t)(end - p) / sizeof(lket_addr_t) < n ||
			    n > EVENT_MAX_ADDRS - ev->naddrs)
				return NULL;
			v->a = &ev->addrs[ev->naddrs];
			v->syms = NULL;
			for (k = 0; k < n; k++, p += sizeof(lket_addr_t))
				ev->addrs[ev->naddrs++] = stream_u64(s, p);
			v->n = n;
			v->i = n;
			break;
		default:	/* LKET_STRING */
			nul = memchr(p, 0, (size_t)(end - p));
			if (!nul)
				return NULL;
			v->s = (const char *)p;
			v->slen = (uint32_t)(nul - p);
			p = nul + 1;
			break;
		}
		ev->nvalues++;
	}
	return p;
}

int decode_record(const struct meta *m, const struct stream *s,
		  struct event *ev)
{
	const struct record *r = &s->rec;
	const uint8_t *p = r->data + LKET_RECORD_HEAD_SIZE;
	const uint8_t *sys_end = r->data + r->sys_size;
	const uint8_t *end = r->data + r->size;
	const uint8_t *q;
	int ret = 0;

	ev->rec = r;
	ev->tid = LKET_ID_TID(r->id);
	ev->group = LKET_ID_GROUP(r->id);
	ev->hook = LKET_ID_HOOK(r->id);
	ev->cpu = LKET_ID_CPU(r->id);
	ev->meta = meta_get(m, ev->group, ev->hook);
	ev->nvalues = ev->nsys = 0;
	ev->naddrs = 0;
	ev->raw = p;
	ev->raw_len = (uint32_t)(end - p);
	if (!ev->meta || !ev->meta->sys.defined)
		return 0;

	q = decode_fields(s, &ev->meta->sys, p, sys_end, ev);
	ev->nsys = ev->nvalues;
	if (!q || q != sys_end) {
		/* keep what decoded; show the whole rest raw */
		ev->raw = q ? q : p;
		ev->raw_len = (uint32_t)(end - ev->raw);
		if (!q) {
			ev->nvalues = ev->nsys = 0;
			ev->raw = p;
			ev->raw_len = (uint32_t)(end - p);
		}
		return -EBADMSG;
	}
	p = sys_end;
	if (ev->meta->user.defined && p < end) {
		q = decode_fields(s, &ev->meta->user, p, end, ev);
		if (!q) {
			ev->nvalues = ev->nsys;
			ret = -EBADMSG;
		} else {
			p = q;
			if (p != end)
				ret = -EBADMSG;
		}
	}
	/* user data with no register_user_event: raw, not damage */
	ev->raw = p;
	ev->raw_len = (uint32_t)(end - p);
	return ret;
}

const struct value *event_value(const struct event *ev, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < ev->nvalues; i++)
		if (!strcmp(ev->v[i].f->name, name))
			return &ev->v[i];
	return NULL;
}

int64_t event_int(const struct event *ev, const char *name, int64_t missing)
{
	const struct value *v = event_value(ev, name);

	return v && v->f->type != LKET_STRING ? v->i : missing;
}
