// SPDX-License-Identifier: GPL-2.0
/*
 * pbwire: varints of every length as protobuf encodes them, signed ones
 * as int64's ten bytes; strings and fixed64; nested messages whose length
 * is one byte, two, three (their body moved up once), inside each other;
 * the field macros' wire types.
 */
#include "unit.h"

#include "util/pbwire.h"

/* a schema's constants, as tools/pf-fields.awk writes them */
#define T_MSG_NUM		1
#define T_MSG_NUM__WIRE		PB_WT_VARINT
#define T_MSG_SUB		2
#define T_MSG_SUB__WIRE		PB_WT_LEN
#define T_MSG_ID		300
#define T_MSG_ID__WIRE		PB_WT_FIXED64

static void test_varint(void **state)
{
	static const struct {
		uint64_t v;
		size_t n;
		uint8_t bytes[10];
	} cases[] = {
		{ 0, 1, { 0x00 } },
		{ 1, 1, { 0x01 } },
		{ 127, 1, { 0x7f } },
		{ 128, 2, { 0x80, 0x01 } },
		{ 300, 2, { 0xac, 0x02 } },
		{ 16383, 2, { 0xff, 0x7f } },
		{ 16384, 3, { 0x80, 0x80, 0x01 } },
		{ 5000000000ull, 5, { 0x80, 0xe4, 0x97, 0xd0, 0x12 } },
		{ ~0ull, 10, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			       0xff, 0x01 } },
	};
	struct pbuf b;
	size_t i;

	(void)state;
	assert_int_equal(pb_init(&b, 4), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		b.len = 0;
		assert_int_equal(pb_reserve(&b, PB_FIELD_MAX), 0);
		pb_varint(&b, cases[i].v);
		assert_int_equal(pb_varint_size(cases[i].v), cases[i].n);
		assert_int_equal(b.len, cases[i].n);
		assert_memory_equal(b.buf, cases[i].bytes, cases[i].n);
	}
	/* int64 -1: two's complement, ten bytes, as protobuf has it */
	b.len = 0;
	PB_INT(&b, T_MSG_NUM, -1);
	assert_int_equal(b.len, 11);
	assert_int_equal(b.buf[0], 0x08);
	assert_int_equal(b.buf[10], 0x01);
	pb_free(&b);
}

static void test_fields(void **state)
{
	static const uint8_t want[] = {
		0x08, 0x96, 0x01,		/* 1: 150 */
		0xe1, 0x12,			/* 300, fixed64 */
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
		0x12, 0x03, 'a', 'b', 'c',	/* 2: "abc" */
	};
	struct pbuf b;

	(void)state;
	assert_int_equal(pb_init(&b, 64), 0);
	PB_UINT(&b, T_MSG_NUM, 150);
	PB_FIXED64(&b, T_MSG_ID, 0x0102030405060708ull);
	PB_STR(&b, T_MSG_SUB, "abc");
	assert_int_equal(b.len, sizeof(want));
	assert_memory_equal(b.buf, want, sizeof(want));
	assert_int_equal(PB_KEY(T_MSG_SUB, PB_WT_LEN), 0x12);
	pb_free(&b);
}

/* A message of n bytes of body inside another: each length minimal. */
static void nested(size_t n)
{
	struct pbuf b;
	uint8_t *body = malloc(n + 1);
	size_t inner = n + 2 + (n > 127) + (n > 16383);
	size_t at;

	assert_non_null(body);
	memset(body, 'x', n);
	assert_int_equal(pb_init(&b, 8), 0);
	PB_OPEN(&b, T_MSG_SUB);
	PB_OPEN(&b, T_MSG_SUB);
	assert_int_equal(pb_reserve(&b, n), 0);
	memcpy(b.buf + b.len, body, n);
	b.len += n;
	assert_int_equal(pb_close_all(&b), 0);
	assert_int_equal(b.depth, 0);
	/* outer: tag, length of inner (tag, length, body) */
	assert_int_equal(b.len, 1 + pb_varint_size(inner) + inner);
	assert_int_equal(b.buf[0], 0x12);
	at = 1 + pb_varint_size(inner);
	assert_int_equal(b.buf[at], 0x12);
	at += 1 + pb_varint_size(n);
	assert_memory_equal(b.buf + at, body, n);
	free(body);
	pb_free(&b);
}

static void test_nested(void **state)
{
	(void)state;
	nested(0);
	nested(125);	/* the inner fits a byte, the outer not */
	nested(127);
	nested(128);
	nested(16383);
	nested(20000);
}

UNIT_MAIN("pbwire", NULL, NULL,
	  UNIT_TEST(test_varint), UNIT_TEST(test_fields),
	  UNIT_TEST(test_nested))
