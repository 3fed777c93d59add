/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pbwire.h - protocol buffers' wire format, written into a growing
 * buffer: varints, fixed-width fields, strings and bytes, and nested
 * messages whose length is written when they close.
 *
 * A nested message opens with one byte kept for its length, which fits
 * most (up to 127 bytes); at its close, a longer body is moved up by the
 * bytes its length needs more.  The body of a small message is never
 * moved, a big one (a bundle of events) once, and no length is larger
 * than it must be.
 *
 * The writers below do not check for room, so that a hot path pays for
 * one check per record: pb_reserve() what a record may take first (its
 * strings' lengths and a bound on the rest: PB_FIELD_MAX a scalar
 * field, PB_LEN_MAX a length).  pb_close() checks for itself.  Memory
 * stays what the caller lets the buffer grow to: it empties it (or
 * resets it) once it has written it out.
 */
#ifndef LKET_PBWIRE_H
#define LKET_PBWIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* wire types */
#define PB_WT_VARINT	0
#define PB_WT_FIXED64	1
#define PB_WT_LEN	2
#define PB_WT_FIXED32	5

/* the most bytes a tag and a 64-bit value take; a length's varint */
#define PB_FIELD_MAX	(5 + 10)
#define PB_LEN_MAX	5
/* messages open inside each other at most */
#define PB_DEPTH	12

struct pbuf {
	uint8_t *buf;
	size_t len, cap;
	size_t open[PB_DEPTH];	/* where each open message's body starts */
	unsigned int depth;
};

int pb_init(struct pbuf *b, size_t cap);
void pb_free(struct pbuf *b);
/* Room for n more bytes: 0, or -ENOMEM with the buffer as it was. */
int pb_grow(struct pbuf *b, size_t n);

static inline int pb_reserve(struct pbuf *b, size_t n)
{
	return b->cap - b->len >= n ? 0 : pb_grow(b, n);
}

/* Bytes that v takes as a varint. */
static inline size_t pb_varint_size(uint64_t v)
{
	/* 7 bits a byte: the bits v needs, rounded up */
	return (size_t)(70 - __builtin_clzll(v | 1)) / 7;
}

static inline uint8_t *pb_put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static inline void pb_varint(struct pbuf *b, uint64_t v)
{
	b->len = (size_t)(pb_put_varint(b->buf + b->len, v) - b->buf);
}

static inline void pb_tag(struct pbuf *b, uint32_t field, unsigned int wire)
{
	pb_varint(b, (uint64_t)field << 3 | wire);
}

/* A varint field: unsigned, bool, enum; a signed one as protobuf's
 * int32 and int64 have it (two's complement, 64 bits). */
static inline void pb_uint(struct pbuf *b, uint32_t field, uint64_t v)
{
	pb_tag(b, field, PB_WT_VARINT);
	pb_varint(b, v);
}

static inline void pb_int(struct pbuf *b, uint32_t field, int64_t v)
{
	pb_uint(b, field, (uint64_t)v);
}

static inline void pb_fixed64(struct pbuf *b, uint32_t field, uint64_t v)
{
	int i;

	pb_tag(b, field, PB_WT_FIXED64);
	for (i = 0; i < 8; i++)
		b->buf[b->len++] = (uint8_t)(v >> (8 * i));
}

/* A string or bytes field; room for n + PB_FIELD_MAX. */
static inline void pb_bytes(struct pbuf *b, uint32_t field, const void *s,
			    size_t n)
{
	pb_tag(b, field, PB_WT_LEN);
	pb_varint(b, n);
	if (n)
		memcpy(b->buf + b->len, s, n);
	b->len += n;
}

/* A nested message starts: its tag and a byte for its length. */
static inline void pb_open(struct pbuf *b, uint32_t field)
{
	pb_tag(b, field, PB_WT_LEN);
	b->buf[b->len++] = 0;
	b->open[b->depth++] = b->len;
}

/* The innermost open message ends: its length written.  0, -ENOMEM. */
int pb_close_long(struct pbuf *b);

static inline int pb_close(struct pbuf *b)
{
	size_t start = b->open[b->depth - 1], len = b->len - start;

	/* most messages fit the byte kept */
	if (len >= 0x80)
		return pb_close_long(b);
	b->buf[start - 1] = (uint8_t)len;
	b->depth--;
	return 0;
}

/* Every open message ends (the buffer is complete). */
int pb_close_all(struct pbuf *b);

/*
 * Typed fields of a schema whose constants come with their wire type
 * (F##__WIRE, as tools/pf-fields.awk writes them): a field written as
 * another type than it is declared fails to compile.  Each macro pastes
 * F itself: a constant passed on through another macro would be a
 * number already.
 */
#define PB_CHECK(w, wt, name)	\
	_Static_assert((w) == (wt), name " is not of this wire type")
/* A field's key (its tag's varint), checked as the macros below are. */
#define PB_KEY(F, wt)	\
	((F) << 3 | (wt) | 0 * sizeof(struct {			\
		int pb_wire_type_ok : (F##__WIRE == (wt)) ? 1 : -1; }))
#define PB_UINT(b, F, v)	\
	do { PB_CHECK(F##__WIRE, PB_WT_VARINT, #F);		\
	     pb_uint(b, F, v); } while (0)
#define PB_INT(b, F, v)		\
	do { PB_CHECK(F##__WIRE, PB_WT_VARINT, #F);		\
	     pb_int(b, F, v); } while (0)
#define PB_FIXED64(b, F, v)	\
	do { PB_CHECK(F##__WIRE, PB_WT_FIXED64, #F);		\
	     pb_fixed64(b, F, v); } while (0)
#define PB_BYTES(b, F, s, n)	\
	do { PB_CHECK(F##__WIRE, PB_WT_LEN, #F);		\
	     pb_bytes(b, F, s, n); } while (0)
#define PB_STR(b, F, s)		\
	do { PB_CHECK(F##__WIRE, PB_WT_LEN, #F);		\
	     pb_bytes(b, F, s, strlen(s)); } while (0)
#define PB_OPEN(b, F)		\
	do { PB_CHECK(F##__WIRE, PB_WT_LEN, #F);		\
	     pb_open(b, F); } while (0)
/* the tag and length of a string or bytes field whose n bytes the caller
 * writes itself */
#define PB_TAG_LEN(b, F, n)	\
	do { PB_CHECK(F##__WIRE, PB_WT_LEN, #F);		\
	     pb_tag(b, F, PB_WT_LEN); pb_varint(b, n); } while (0)

#endif
