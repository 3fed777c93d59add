// SPDX-License-Identifier: GPL-2.0
/* decode: fields by type, user fields, raw bytes, damage, byte order. */
#include "unit.h"

#include "decode/decode.h"

/* Point s's current record at rec, as stream_next() would. */
static void load(struct stream *s, const uint8_t *rec, bool swap)
{
	memset(s, 0, sizeof(*s));
	s->swap = swap;
	s->rec.data = rec;
	s->rec.size = stream_u16(s, rec + 2);
	s->rec.sys_size = stream_u16(s, rec + 4);
	s->rec.timestamp = stream_u64(s, rec + 8);
	s->rec.id = stream_u64(s, rec + 16);
}

static int meta_setup(void **state)
{
	struct meta *m = malloc(sizeof(*m));

	if (!m || meta_init(m)) {
		free(m);
		return -1;
	}
	if (meta_register(m, 5, 9, false, "INT8:INT16:INT32:INT64:STRING",
			  "a:b:c:d:e") ||
	    meta_register(m, 5, 10, false, "INT32", "pid") ||
	    meta_register(m, 5, 10, true, "STRING:INT16", "tag:n") ||
	    meta_register(m, 5, 11, false, "INT32", "pid") ||
	    meta_register(m, 5, 12, false, "INT32:INT64", "a:b") ||
	    meta_register(m, 5, 13, false, "STRING", "s") ||
	    meta_register(m, 5, 14, false, "INT32", "pid") ||
	    meta_register(m, 5, 14, true, "STRING", "tag") ||
	    meta_name(m, 5, 15, "named.only") ||
	    meta_register(m, 5, 16, false, "INT32", "pid") ||
	    meta_register(m, 5, 16, true, "ADDRS:ADDRS:INT8",
			  "stack:other:tail")) {
		meta_free(m);
		free(m);
		return -1;
	}
	*state = m;
	return 0;
}

static int meta_teardown(void **state)
{
	meta_free(*state);
	free(*state);
	return 0;
}

/* Every field type, native order, in 5:9 of tid 77 on CPU 3 */
#define ALL_TYPES(E)							\
	E##16(LKET_RECORD_MAGIC),	/* magic */			\
	E##16(45),			/* total_size */		\
	E##16(45),			/* sys_size */			\
	E##16(0),			/* flags */			\
	E##64(123456789),		/* timestamp */			\
	E##64(LKET_ID(77, 5, 9, 3)),	/* id: tid 77, 5:9, CPU 3 */	\
	0xff,				/* a: INT8 -1 */		\
	E##16(0x8000),			/* b: INT16 -32768 */		\
	E##32(0xfffffffe),		/* c: INT32 -2 */		\
	E##64(0x0123456789abcdefull),	/* d: INT64 */			\
	'h', 'e', 'l', 'l', 'o', 0	/* e: STRING "hello" */

static void expect_all_types(const struct event *ev, const struct stream *s,
			     const struct meta *m)
{
	assert_ptr_equal(ev->rec, &s->rec);
	assert_ptr_equal(ev->meta, meta_get(m, 5, 9));
	assert_int_equal(ev->tid, 77);
	assert_int_equal(ev->group, 5);
	assert_int_equal(ev->hook, 9);
	assert_int_equal(ev->cpu, 3);
	assert_int_equal(ev->nsys, 5);
	assert_int_equal(ev->nvalues, 5);
	assert_ptr_equal(ev->v[0].f, &ev->meta->sys.f[0]);
	assert_int_equal(ev->v[0].i, -1);
	assert_int_equal(ev->v[1].i, -32768);
	assert_int_equal(ev->v[2].i, -2);
	assert_int_equal(ev->v[3].i, 0x0123456789abcdefll);
	assert_ptr_equal(ev->v[4].f, &ev->meta->sys.f[4]);
	assert_int_equal(ev->v[4].slen, 5);
	assert_memory_equal(ev->v[4].s, "hello", 6);
	assert_int_equal(ev->raw_len, 0);
}

static void test_all_types(void **state)
{
	static const uint8_t rec[] = { ALL_TYPES(LE) };
	const struct meta *m = *state;
	struct stream s;
	struct event ev;

	load(&s, rec, host_big_endian());
	assert_int_equal(decode_record(m, &s, &ev), 0);
	expect_all_types(&ev, &s, m);
}

static void test_big_endian(void **state)
{
	static const uint8_t rec[] = { ALL_TYPES(BE) };
	const struct meta *m = *state;
	struct stream s;
	struct event ev;

	load(&s, rec, !host_big_endian());
	assert_int_equal(s.rec.size, 45);
	assert_int_equal(decode_record(m, &s, &ev), 0);
	expect_all_types(&ev, &s, m);
}

static void test_user_fields(void **state)
{
	static const uint8_t rec[] = {
		LE16(LKET_RECORD_MAGIC),	/* magic */
		LE16(33),			/* total_size */
		LE16(28),			/* sys_size */
		LE16(0),			/* flags */
		LE64(1000),			/* timestamp */
		LE64(LKET_ID(9, 5, 10, 0)),	/* id: tid 9, 5:10, CPU 0 */
		LE32(4242),			/* pid: INT32 */
		'a', 'b', 0,			/* tag: user STRING "ab" */
		LE16(0xfffd),			/* n: user INT16 -3 */
	};
	/* user metadata, but this record carries no user data */
	static const uint8_t bare[] = {
		LE16(LKET_RECORD_MAGIC),	/* magic */
		LE16(28),			/* total_size */
		LE16(28),			/* sys_size */
		LE16(0),			/* flags */
		LE64(1000),			/* timestamp */
		LE64(LKET_ID(9, 5, 10, 0)),	/* id: tid 9, 5:10, CPU 0 */
		LE32(4242),			/* pid: INT32 */
	};
	const struct meta *m = *state;
	struct stream s;
	struct event ev;

	load(&s, rec, host_big_endian());
	assert_int_equal(decode_record(m, &s, &ev), 0);
	assert_int_equal(ev.nsys, 1);
	assert_int_equal(ev.nvalues, 3);
	assert_ptr_equal(ev.v[0].f, &ev.meta->sys.f[0]);
	assert_int_equal(ev.v[0].i, 4242);
	assert_ptr_equal(ev.v[1].f, &ev.meta->user.f[0]);
	assert_int_equal(ev.v[1].slen, 2);
	assert_memory_equal(ev.v[1].s, "ab", 3);
	assert_ptr_equal(ev.v[2].f, &ev.meta->user.f[1]);
	assert_int_equal(ev.v[2].i, -3);
	assert_int_equal(ev.raw_len, 0);

	load(&s, bare, host_big_endian());
	assert_int_equal(decode_record(m, &s, &ev), 0);
	assert_int_equal(ev.nsys, 1);
	assert_int_equal(ev.nvalues, 1);
	assert_int_equal(ev.raw_len, 0);
}

/* Call stacks: a count, then the addresses; two in one record. */
static void test_addrs(void **state)
{
	/* 5:16, user fields as registered: stack, other, tail */
	static const uint8_t rec[] = {
		LE16(LKET_RECORD_MAGIC),	/* magic */
		LE16(57),			/* total_size */
		LE16(28),			/* sys_size */
		LE16(0),			/* flags */
		LE64(1000),			/* timestamp */
		LE64(LKET_ID(9, 5, 16, 0)),	/* id: tid 9, 5:16, CPU 0 */
		LE32(4242),			/* pid: INT32 */
		LE16(2),			/* stack: 2 addresses */
		LE64(0xffffffff81000005ull),	/*   innermost */
		LE64(0xffffffffc0a01013ull),
		LE16(1),			/* other: 1 address */
		LE64(0x1234),
		0x07,				/* tail: INT8 */
	};
	/* the count says 3, the record has room for 1 */
	static const uint8_t cut[] = {
		LE16(LKET_RECORD_MAGIC),	/* magic */
		LE16(40),			/* total_size */
		LE16(28),			/* sys_size */
		LE16(0),			/* flags */
		LE64(1000),			/* timestamp */
		LE64(LKET_ID(9, 5, 16, 0)),	/* id: tid 9, 5:16, CPU 0 */
		LE32(4242),			/* pid: INT32 */
		LE16(3),			/* stack: 3 addresses? */
		LE64(0xffffffff81000005ull),	/*   only one */
		0x07, 0x08,			/* 2 bytes more */
	};
	const struct meta *m = *state;
	struct stream s;
	struct event ev;

	load(&s, rec, host_big_endian());
	assert_int_equal(decode_record(m, &s, &ev), 0);
	assert_int_equal(ev.nvalues, 4);
	assert_int_equal(ev.v[1].f->type, LKET_ADDRS);
	assert_int_equal(ev.v[1].n, 2);
	assert_int_equal(ev.v[1].a[0], 0xffffffff81000005ull);
	assert_int_equal(ev.v[1].a[1], 0xffffffffc0a01013ull);
	assert_null(ev.v[1].syms);
	assert_int_equal(ev.v[2].n, 1);
	assert_int_equal(ev.v[2].a[0], 0x1234);
	assert_ptr_equal(ev.v[2].a, ev.v[1].a + 2);
	assert_int_equal(ev.naddrs, 3);
	assert_int_equal(ev.v[3].i, 7);
	assert_int_equal(ev.raw_len, 0);

	/* a count past the record: no user value, the user bytes raw */
	load(&s, cut, host_big_endian());
	assert_int_equal(decode_record(m, &s, &ev), -EBADMSG);
	assert_int_equal(ev.nvalues, 1);
	assert_int_equal(ev.raw_len, 12);
	assert_ptr_equal(ev.raw, cut + 28);
}

static void test_user_data_without_meta(void **state)
{
	static const uint8_t rec[] = {
		LE16(LKET_RECORD_MAGIC),	/* magic */
		LE16(33),			/* total_size */
		LE16(28),			/* sys_size */
		LE16(0),			/* flags */
		LE64(1000),			/* timestamp */
		LE64(LKET_ID(9, 5, 11, 0)),	/* id: tid 9, 5:11, CPU 0 */
		LE32(17),			/* pid: INT32 */
		0xde, 0xad, 0xbe, 0xef, 0x01,	/* user data, unregistered */
	};
	const struct meta *m = *state;
	struct stream s;
	struct event ev;

	load(&s, rec, host_big_endian());
	/* not damage: nobody called register_user_event */
	assert_int_equal(decode_record(m, &s, &ev), 0);
	assert_int_equal(ev.nsys, 1);
	assert_int_equal(ev.nvalues, 1);
	assert_int_equal(ev.v[0].i, 17);
	assert_ptr_equal(ev.raw, rec + 28);
	assert_int_equal(ev.raw_len, 5);
}

static void test_unknown_event(void **state)
{
	static const uint8_t rec[] = {
		LE16(LKET_RECORD_MAGIC),	/* magic */
		LE16(26),			/* total_size */
		LE16(26),			/* sys_size */
		LE16(0),			/* flags */
		LE64(1000),			/* timestamp */
		LE64(LKET_ID(1, 200, 9, 1)),	/* id: tid 1, 200:9, CPU 1 */
		0xca, 0xfe,			/* fields nobody described */
	};
	/* named, but no fields registered: all raw too */
	static const uint8_t named[] = {
		LE16(LKET_RECORD_MAGIC),	/* magic */
		LE16(25),			/* total_size */
		LE16(25),			/* sys_size */
		LE16(0),			/* flags */
		LE64(1000),			/* timestamp */
		LE64(LKET_ID(1, 5, 15, 1)),	/* id: tid 1, 5:15, CPU 1 */
		0x07,				/* a field nobody described */
	};
	const struct meta *m = *state;
	struct stream s;
	struct event ev;

	load(&s, rec, host_big_endian());
	assert_int_equal(decode_record(m, &s, &ev), 0);
	assert_null(ev.meta);
	assert_int_equal(ev.group, 200);
	assert_int_equal(ev.hook, 9);
	assert_int_equal(ev.cpu, 1);
	assert_int_equal(ev.nvalues, 0);
	assert_ptr_equal(ev.raw, rec + 24);
	assert_int_equal(ev.raw_len, 2);

	load(&s, named, host_big_endian());
	assert_int_equal(decode_record(m, &s, &ev), 0);
	assert_non_null(ev.meta);
	assert_string_equal(ev.meta->name, "named.only");
	assert_int_equal(ev.nvalues, 0);
	assert_int_equal(ev.raw_len, 1);
	assert_int_equal(ev.raw[0], 0x07);
}

static void test_overrun(void **state)
{
	/* 5:12 is INT32:INT64, but sys_size leaves room for 8 bytes */
	static const uint8_t rec[] = {
		LE16(LKET_RECORD_MAGIC),	/* magic */
		LE16(36),			/* total_size */
		LE16(32),			/* sys_size: 4 bytes short */
		LE16(0),			/* flags */
		LE64(1000),			/* timestamp */
		LE64(LKET_ID(2, 5, 12, 0)),	/* id: tid 2, 5:12, CPU 0 */
		LE32(1),			/* a: INT32 */
		LE32(2),			/* b: INT64, first half */
		LE32(3),			/* user data */
	};
	/* ... and one with 4 bytes too many */
	static const uint8_t extra[] = {
		LE16(LKET_RECORD_MAGIC),	/* magic */
		LE16(40),			/* total_size */
		LE16(40),			/* sys_size: 4 bytes too many */
		LE16(0),			/* flags */
		LE64(1000),			/* timestamp */
		LE64(LKET_ID(2, 5, 12, 0)),	/* id: tid 2, 5:12, CPU 0 */
		LE32(1),			/* a: INT32 */
		LE64(2),			/* b: INT64 */
		LE32(0x99999999),		/* left over */
	};
	const struct meta *m = *state;
	struct stream s;
	struct event ev;

	load(&s, rec, host_big_endian());
	assert_int_equal(decode_record(m, &s, &ev), -EBADMSG);
	/* nothing decoded: all fields are shown raw */
	assert_int_equal(ev.nsys, 0);
	assert_int_equal(ev.nvalues, 0);
	assert_ptr_equal(ev.raw, rec + 24);
	assert_int_equal(ev.raw_len, 12);

	load(&s, extra, host_big_endian());
	assert_int_equal(decode_record(m, &s, &ev), -EBADMSG);
	/* the fields decoded, the rest raw */
	assert_int_equal(ev.nsys, 2);
	assert_int_equal(ev.nvalues, 2);
	assert_int_equal(ev.v[0].i, 1);
	assert_int_equal(ev.v[1].i, 2);
	assert_ptr_equal(ev.raw, extra + 36);
	assert_int_equal(ev.raw_len, 4);
}

static void test_string_without_nul(void **state)
{
	static const uint8_t rec[] = {
		LE16(LKET_RECORD_MAGIC),	/* magic */
		LE16(27),			/* total_size */
		LE16(27),			/* sys_size */
		LE16(0),			/* flags */
		LE64(1000),			/* timestamp */
		LE64(LKET_ID(2, 5, 13, 0)),	/* id: tid 2, 5:13, CPU 0 */
		'a', 'b', 'c',			/* s: STRING without its NUL */
	};
	/* a user STRING cut the same way */
	static const uint8_t user[] = {
		LE16(LKET_RECORD_MAGIC),	/* magic */
		LE16(30),			/* total_size */
		LE16(28),			/* sys_size */
		LE16(0),			/* flags */
		LE64(1000),			/* timestamp */
		LE64(LKET_ID(2, 5, 14, 0)),	/* id: tid 2, 5:14, CPU 0 */
		LE32(5),			/* pid: INT32 */
		'x', 'y',			/* tag: STRING without NUL */
	};
	const struct meta *m = *state;
	struct stream s;
	struct event ev;

	load(&s, rec, host_big_endian());
	assert_int_equal(decode_record(m, &s, &ev), -EBADMSG);
	assert_int_equal(ev.nvalues, 0);
	assert_ptr_equal(ev.raw, rec + 24);
	assert_int_equal(ev.raw_len, 3);

	load(&s, user, host_big_endian());
	assert_int_equal(decode_record(m, &s, &ev), -EBADMSG);
	assert_int_equal(ev.nsys, 1);
	assert_int_equal(ev.nvalues, 1);
	assert_int_equal(ev.v[0].i, 5);
	assert_ptr_equal(ev.raw, user + 28);
	assert_int_equal(ev.raw_len, 2);
}

UNIT_MAIN("decode", meta_setup, meta_teardown,
	  UNIT_TEST(test_all_types), UNIT_TEST(test_big_endian),
	  UNIT_TEST(test_user_fields), UNIT_TEST(test_addrs),
	  UNIT_TEST(test_user_data_without_meta),
	  UNIT_TEST(test_unknown_event), UNIT_TEST(test_overrun),
	  UNIT_TEST(test_string_without_nul))
