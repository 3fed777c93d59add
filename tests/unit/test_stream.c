// SPDX-License-Identifier: GPL-2.0
/*
 * stream: framing and byte-order detection, records and their offsets,
 * records spanning flushes, garbage, truncation, empty and missing files.
 */
#include <sys/stat.h>

#include "unit.h"

#include "input/follow.h"
#include "input/stream.h"
#include "input/tracename.h"

/* Records, in either byte order: E is LE or BE. */

/* A: 32 bytes, tid 100, 1:1 on CPU 0, at 1000 ns, one INT64 field */
#define REC_A(E)							\
	E##16(LKET_RECORD_MAGIC),	/* magic */			\
	E##16(32),			/* total_size */		\
	E##16(32),			/* sys_size */			\
	E##16(0),			/* flags */			\
	E##64(1000),			/* timestamp */			\
	E##64(LKET_ID(100, 1, 1, 0)),	/* id: tid 100, 1:1, CPU 0 */	\
	E##64(0x1122334455667788ull)	/* hook field (INT64) */

/* B: 24 bytes, common_data only, tid 101, 2:3 on CPU 0, at 2000 ns */
#define REC_B(E)							\
	E##16(LKET_RECORD_MAGIC),	/* magic */			\
	E##16(24),			/* total_size */		\
	E##16(24),			/* sys_size */			\
	E##16(0),			/* flags */			\
	E##64(2000),			/* timestamp */			\
	E##64(LKET_ID(101, 2, 3, 0))	/* id: tid 101, 2:3, CPU 0 */

/* C: 28 bytes, a 4-byte user field, tid 102, 4:5 on CPU 0, at 3000 ns */
#define REC_C(E)							\
	E##16(LKET_RECORD_MAGIC),	/* magic */			\
	E##16(28),			/* total_size */		\
	E##16(24),			/* sys_size */			\
	E##16(0),			/* flags */			\
	E##64(3000),			/* timestamp */			\
	E##64(LKET_ID(102, 4, 5, 0)),	/* id: tid 102, 4:5, CPU 0 */	\
	E##32(0xcafef00d)		/* user field (INT32) */

/* D: 40 bytes, tid 103, 1:2 on CPU 0, at 4000 ns, two INT64 fields */
#define REC_D(E)							\
	E##16(LKET_RECORD_MAGIC),	/* magic */			\
	E##16(40),			/* total_size */		\
	E##16(40),			/* sys_size */			\
	E##16(0),			/* flags */			\
	E##64(4000),			/* timestamp */			\
	E##64(LKET_ID(103, 1, 2, 0)),	/* id: tid 103, 1:2, CPU 0 */	\
	E##64(0x0101010101010101ull),	/* hook field 1 (INT64) */	\
	E##64(0x0202020202020202ull)	/* hook field 2 (INT64) */

#define V5_MAGIC	0xf0, 0x9f, 0xa9, 0xba	/* v5 flush magic */

static const uint8_t rec_a[] = { REC_A(LE) };
static const uint8_t rec_b[] = { REC_B(LE) };
static const uint8_t rec_c[] = { REC_C(LE) };
static const uint8_t rec_d[] = { REC_D(LE) };

/* SystemTap 4.7-4.9: A and B in flush 1, C in flush 4 */
static const uint8_t v4_le[] = {
	LE32(1),			/* @0 sequence */
	LE32(56),			/* pdu_len: A and B */
	REC_A(LE),			/* @8 */
	REC_B(LE),			/* @40 */
	LE32(4),			/* @64 sequence */
	LE32(28),			/* pdu_len: C */
	REC_C(LE),			/* @72 */
};

/* SystemTap 5.0+: the same with the magic in front of each flush */
static const uint8_t v5_le[] = {
	V5_MAGIC,			/* @0 */
	LE32(1),			/* sequence */
	LE32(56),			/* pdu_len: A and B */
	REC_A(LE),			/* @12 */
	REC_B(LE),			/* @44 */
	V5_MAGIC,			/* @68 */
	LE32(4),			/* sequence */
	LE32(28),			/* pdu_len: C */
	REC_C(LE),			/* @80 */
};

/* No framing: records end to end */
static const uint8_t none_le[] = {
	REC_A(LE),			/* @0 */
	REC_B(LE),			/* @32 */
	REC_C(LE),			/* @56 */
};

/* A big-endian machine's SystemTap 4.7-4.9 file, like v4_le */
static const uint8_t v4_be[] = {
	BE32(1),			/* @0 sequence */
	BE32(56),			/* pdu_len: A and B */
	REC_A(BE),			/* @8 */
	REC_B(BE),			/* @40 */
	BE32(4),			/* @64 sequence */
	BE32(28),			/* pdu_len: C */
	REC_C(BE),			/* @72 */
};

/* A big-endian machine's SystemTap 5.0+ file: its magic reads swapped */
static const uint8_t v5_be[] = {
	0xba, 0xa9, 0x9f, 0xf0,		/* @0 v5 magic, big-endian */
	BE32(9),			/* sequence */
	BE32(24),			/* pdu_len: B */
	REC_B(BE),			/* @12 */
};

static void expect_record(struct stream *s, const uint8_t *want,
			  uint64_t timestamp, uint64_t id, uint32_t size,
			  uint32_t sys_size, uint64_t offset, uint32_t seq,
			  bool seq_valid)
{
	assert_int_equal(stream_next(s), 1);
	assert_int_equal(s->rec.timestamp, timestamp);
	assert_int_equal(s->rec.id, id);
	assert_int_equal(s->rec.size, size);
	assert_int_equal(s->rec.sys_size, sys_size);
	assert_int_equal(s->rec.offset, offset);
	assert_int_equal(s->rec.seq_valid, seq_valid);
	if (seq_valid)
		assert_int_equal(s->rec.seq, seq);
	/* want: the record as written, or NULL for big-endian ones */
	if (want)
		assert_memory_equal(s->rec.data, want, size);
}

/* Open fixture data under name; the stream reports to log. */
static void open_fixture(struct stream *s, char *path, size_t path_size,
			 const char *name, const void *data, size_t len,
			 struct diag_log *log)
{
	diag_log_init(log);
	unit_write(path, path_size, name, data, len);
	assert_int_equal(stream_open(s, path, tracename_cpu(path),
				     4096, &log->d), 0);
}

static void test_v4(void **state)
{
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	open_fixture(&s, path, sizeof(path), "v4_cpu0", v4_le, sizeof(v4_le),
		     &log);
	assert_int_equal(s.framing, FRAMING_V4);
	assert_int_equal(s.swap, host_big_endian());
	assert_int_equal(s.cpu, 0);
	assert_int_equal(s.file_size, sizeof(v4_le));
	assert_true(s.starts_lket);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 8, 1,
		      true);
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 40, 1,
		      true);
	expect_record(&s, rec_c, 3000, LKET_ID(102, 4, 5, 0), 28, 24, 72, 4,
		      true);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(s.frames, 2);
	assert_int_equal(s.records, 3);
	assert_int_equal(log.n, 0);
	assert_int_equal(log.d.damage, 0);
	stream_close(&s);
}

/* A file a tracer still appends to: what it held when opened, and a
 * note; no "truncated", no garbage. */
static void test_file_grows(void **state)
{
	struct diag_log log;
	struct stream s;
	char path[256], want[128];
	FILE *f;

	(void)state;
	/* the first flush (records A and B) when opened */
	open_fixture(&s, path, sizeof(path), "grow_cpu0", v4_le, 64, &log);
	f = fopen(path, "ab");
	assert_non_null(f);
	/* then the rest of the file, and half of a flush more */
	assert_int_equal(fwrite(v4_le + 64, 1, sizeof(v4_le) - 64, f),
			 sizeof(v4_le) - 64);
	assert_int_equal(fwrite(v4_le, 1, 20, f), 20);
	assert_int_equal(fclose(f), 0);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 8, 1,
		      true);
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 40, 1,
		      true);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(s.records, 2);
	snprintf(want, sizeof(want),
		 "grew while being read (%zu bytes now): converted the 64 it had when opened",
		 sizeof(v4_le) + 20);
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_NOTE, path, -1, want);
	assert_int_equal(log.d.damage, 0);
	stream_close(&s);
}

static void test_v5(void **state)
{
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	open_fixture(&s, path, sizeof(path), "v5_cpu1", v5_le, sizeof(v5_le),
		     &log);
	assert_int_equal(s.framing, FRAMING_V5);
	assert_int_equal(s.swap, host_big_endian());
	assert_int_equal(s.cpu, 1);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 12, 1,
		      true);
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 44, 1,
		      true);
	expect_record(&s, rec_c, 3000, LKET_ID(102, 4, 5, 0), 28, 24, 80, 4,
		      true);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 0);
	stream_close(&s);
}

static void test_unframed(void **state)
{
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	open_fixture(&s, path, sizeof(path), "raw_2", none_le,
		     sizeof(none_le), &log);
	assert_int_equal(s.framing, FRAMING_NONE);
	assert_int_equal(s.swap, host_big_endian());
	assert_int_equal(s.cpu, 2);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 0, 0,
		      false);
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 32, 0,
		      false);
	expect_record(&s, rec_c, 3000, LKET_ID(102, 4, 5, 0), 28, 24, 56, 0,
		      false);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 0);
	stream_close(&s);
}

/* As the runtime writes them: a flush a record */
static const uint8_t v5_each[] = {
	V5_MAGIC, LE32(1), LE32(32),	/* @0 flush 1 */
	REC_A(LE),			/* @12 */
	V5_MAGIC, LE32(2), LE32(24),	/* @44 flush 2 */
	REC_B(LE),			/* @56 */
	V5_MAGIC, LE32(3), LE32(28),	/* @80 flush 3 */
	REC_C(LE),			/* @92 */
	V5_MAGIC, LE32(4), LE32(40),	/* @120 flush 4 */
	REC_D(LE),			/* @132 */
};

static void set_skip(uint8_t *skip, unsigned int group, unsigned int hook)
{
	unsigned int k = group << 8 | hook;

	skip[k >> 3] |= (uint8_t)(1u << (k & 7));
}

/* Records of the events s->skip names are stepped over, whatever the
 * framing; the others come as ever, the flushes still counted. */
static void test_skip(void **state)
{
	static uint8_t skip[65536 / 8];
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	set_skip(skip, 1, 1);		/* A */
	set_skip(skip, 2, 3);		/* B */
	open_fixture(&s, path, sizeof(path), "each_cpu0", v5_each,
		     sizeof(v5_each), &log);
	s.skip = skip;
	expect_record(&s, rec_c, 3000, LKET_ID(102, 4, 5, 0), 28, 24, 92, 3,
		      true);
	expect_record(&s, rec_d, 4000, LKET_ID(103, 1, 2, 0), 40, 40, 132, 4,
		      true);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(s.frames, 4);
	assert_int_equal(log.n, 0);
	stream_close(&s);
	/* two records in one flush */
	open_fixture(&s, path, sizeof(path), "v4_cpu0", v4_le, sizeof(v4_le),
		     &log);
	s.skip = skip;
	expect_record(&s, rec_c, 3000, LKET_ID(102, 4, 5, 0), 28, 24, 72, 4,
		      true);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 0);
	stream_close(&s);
	/* no framing */
	open_fixture(&s, path, sizeof(path), "raw_2", none_le,
		     sizeof(none_le), &log);
	s.skip = skip;
	expect_record(&s, rec_c, 3000, LKET_ID(102, 4, 5, 0), 28, 24, 56, 0,
		      false);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 0);
	stream_close(&s);
}

static void test_big_endian(void **state)
{
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	open_fixture(&s, path, sizeof(path), "be", v4_be, sizeof(v4_be),
		     &log);
	assert_int_equal(s.framing, FRAMING_V4);
	assert_int_equal(s.swap, !host_big_endian());
	assert_int_equal(s.cpu, -1);
	expect_record(&s, NULL, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 8, 1,
		      true);
	/* the hook field is left as written, for decode to read */
	assert_int_equal(stream_u64(&s, s.rec.data + 24),
			 0x1122334455667788ull);
	expect_record(&s, NULL, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 40, 1,
		      true);
	expect_record(&s, NULL, 3000, LKET_ID(102, 4, 5, 0), 28, 24, 72, 4,
		      true);
	assert_int_equal(stream_u32(&s, s.rec.data + 24), 0xcafef00d);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 0);
	stream_close(&s);

	open_fixture(&s, path, sizeof(path), "be5", v5_be, sizeof(v5_be),
		     &log);
	assert_int_equal(s.framing, FRAMING_V5);
	assert_int_equal(s.swap, !host_big_endian());
	expect_record(&s, NULL, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 12, 9,
		      true);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 0);
	stream_close(&s);
}

/*
 * A record cut inside its head by the end of flush 1 (B), and one cut
 * inside its fields by the end of flush 2 (D), whose last bytes make up
 * all of flush 3.
 */
static const uint8_t spanning[] = {
	LE32(1),			/* @0 sequence */
	LE32(24 + 10),			/* pdu_len: A'' and B's first 10 */
	REC_B(LE),			/* @8 a record like B */
	LE16(LKET_RECORD_MAGIC),	/* @32 B: magic */
	LE16(24),			/* total_size */
	LE16(24),			/* sys_size */
	LE16(0),			/* flags */
	0xd0, 0x07,			/* timestamp, first 2 of 8 bytes */
	LE32(2),			/* @42 sequence */
	LE32(14 + 30),			/* pdu_len: B's last 14, D's first 30 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* timestamp, last 6 bytes */
	LE64(LKET_ID(101, 2, 3, 0)),	/* id */
	LE16(LKET_RECORD_MAGIC),	/* @64 D: magic */
	LE16(40),			/* total_size */
	LE16(40),			/* sys_size */
	LE16(0),			/* flags */
	LE64(4000),			/* timestamp */
	LE64(LKET_ID(103, 1, 2, 0)),	/* id */
	LE32(0x01010101), LE16(0x0101),	/* hook field 1, first 6 bytes */
	LE32(3),			/* @94 sequence */
	LE32(10),			/* pdu_len: D's last 10 */
	LE16(0x0101),			/* hook field 1, last 2 bytes */
	LE64(0x0202020202020202ull),	/* hook field 2 */
	LE32(5),			/* @112 sequence */
	LE32(28),			/* pdu_len: C */
	REC_C(LE),			/* @120 */
};

static void test_spanning(void **state)
{
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	assert_int_equal(sizeof(spanning), 148);
	open_fixture(&s, path, sizeof(path), "span_cpu0", spanning,
		     sizeof(spanning), &log);
	assert_int_equal(s.framing, FRAMING_V4);
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 8, 1,
		      true);
	assert_int_equal(s.rec.seq_last, 1);
	/* B begins in flush 1 and ends in flush 2 */
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 32, 1,
		      true);
	assert_int_equal(s.rec.seq_last, 2);
	/* D begins in flush 2 and ends in flush 3, which holds nothing else */
	expect_record(&s, rec_d, 4000, LKET_ID(103, 1, 2, 0), 40, 40, 64, 2,
		      true);
	assert_int_equal(s.rec.seq_last, 3);
	expect_record(&s, rec_c, 3000, LKET_ID(102, 4, 5, 0), 28, 24, 120, 5,
		      true);
	assert_int_equal(s.rec.seq_last, 5);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(s.frames, 4);
	/* C is earlier than D before it */
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_DAMAGE, path, 120,
		    "time goes back: 1 record (to offset 120) earlier than 0.000004000, the record at offset 64, by up to 1000 ns: left in file order, after it");
	stream_close(&s);
}

/* 1 to 8 stale bytes between flush 1 (A) and flush 2 (C) */
static void test_garbage_between_flushes(void **state)
{
	static const uint8_t flush1[] = {
		LE32(1),		/* @0 sequence */
		LE32(32),		/* pdu_len: A */
		REC_A(LE),		/* @8 */
	};
	static const uint8_t flush2[] = {
		LE32(2),		/* sequence */
		LE32(28),		/* pdu_len: C */
		REC_C(LE),
	};
	static const uint8_t stale[2][8] = {
		{ 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee },
		/* zeros, and a stale flush header's first bytes */
		{ 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00 },
	};
	uint8_t file[sizeof(flush1) + 8 + sizeof(flush2)];
	struct diag_log log;
	struct stream s;
	char path[256], msg[64];
	size_t k, kind;

	(void)state;
	for (kind = 0; kind < 2; kind++) {
		for (k = 1; k <= 8; k++) {
			memcpy(file, flush1, sizeof(flush1));
			memcpy(file + 40, stale[kind], k);
			memcpy(file + 40 + k, flush2, sizeof(flush2));
			open_fixture(&s, path, sizeof(path), "garbage_cpu0",
				     file, 40 + k + sizeof(flush2), &log);
			expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0),
				      32, 32, 8, 1, true);
			expect_record(&s, rec_c, 3000, LKET_ID(102, 4, 5, 0),
				      28, 24, 40 + k + 8, 2, true);
			assert_int_equal(stream_next(&s), 0);
			assert_int_equal(log.n, 1);
			assert_int_equal(log.d.damage, 1);
			snprintf(msg, sizeof(msg),
				 "%zu bytes of garbage skipped", k);
			assert_diag(&log, 0, DIAG_DAMAGE, path, 40, msg);
			stream_close(&s);
		}
	}
}

/*
 * Garbage inside flushes: the records after it are read; a flush that
 * starts with garbage is one still (its end is where the next flush
 * header is); one of garbage alone is left for the lost-flush tracking
 * to know it was there.
 */
static void test_garbage_in_flush(void **state)
{
#define GARBAGE8	0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee
	static const uint8_t file[] = {
		LE32(1), LE32(32 + 8 + 24 + 28),	/* @0 */
		REC_A(LE),				/* @8 */
		GARBAGE8,				/* @40 */
		REC_B(LE),				/* @48 */
		REC_C(LE),				/* @72 */
		LE32(2), LE32(8 + 40),			/* @100 */
		GARBAGE8,				/* @108 */
		REC_D(LE),				/* @116 */
		LE32(3), LE32(8),			/* @156 */
		GARBAGE8,				/* @164 */
		LE32(4), LE32(40),			/* @172 */
		REC_D(LE),				/* @180 */
	};
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	open_fixture(&s, path, sizeof(path), "inflush_cpu0", file,
		     sizeof(file), &log);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 8, 1,
		      true);
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 48, 1,
		      true);
	expect_record(&s, rec_c, 3000, LKET_ID(102, 4, 5, 0), 28, 24, 72, 1,
		      true);
	expect_record(&s, rec_d, 4000, LKET_ID(103, 1, 2, 0), 40, 40, 116, 2,
		      true);
	assert_int_equal(s.nbare, 0);
	expect_record(&s, rec_d, 4000, LKET_ID(103, 1, 2, 0), 40, 40, 180, 4,
		      true);
	/* flush 3 held no record */
	assert_int_equal(s.nbare, 1);
	assert_int_equal(s.bare[0], 3);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 3);
	assert_diag(&log, 0, DIAG_DAMAGE, path, 40,
		    "8 bytes of garbage skipped in flush 1");
	assert_diag(&log, 1, DIAG_DAMAGE, path, 108,
		    "8 bytes of garbage skipped in flush 2");
	assert_diag(&log, 2, DIAG_DAMAGE, path, 164,
		    "8 bytes of garbage skipped in flush 3, to its end");
	stream_close(&s);
#undef GARBAGE8
}

/* A record head alone in garbage is garbage: no head after its record. */
static void test_garbage_like_head(void **state)
{
#define GARBAGE8	0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee
	static const uint8_t file[] = {
		LE32(1), LE32(32 + 40 + 24),		/* @0 */
		REC_A(LE),				/* @8 */
		GARBAGE8,				/* @40 */
		LE16(LKET_RECORD_MAGIC), LE16(24),	/* @48: a head, */
		LE16(24), LE16(0),			/* of 24 bytes */
		GARBAGE8, GARBAGE8,
		GARBAGE8,				/* @72 */
		REC_B(LE),				/* @80 */
	};
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	open_fixture(&s, path, sizeof(path), "likehead_cpu0", file,
		     sizeof(file), &log);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 8, 1,
		      true);
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 80, 1,
		      true);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_DAMAGE, path, 40,
		    "40 bytes of garbage skipped in flush 1");
	stream_close(&s);
#undef GARBAGE8
}

static void test_garbage_unframed(void **state)
{
	static const uint8_t file[] = {
		REC_A(LE),		/* @0 */
		0xee, 0xee, 0xee,	/* @32 stale bytes */
		REC_B(LE),		/* @35 */
	};
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	open_fixture(&s, path, sizeof(path), "u", file, sizeof(file), &log);
	assert_int_equal(s.framing, FRAMING_NONE);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 0, 0,
		      false);
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 35, 0,
		      false);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_DAMAGE, path, 32,
		    "3 bytes of garbage skipped");
	stream_close(&s);
}

static void test_garbage_at_start(void **state)
{
	static const uint8_t file[] = {
		0x00, 0x11, 0x22, 0x33, 0x44,	/* @0 a torn write */
		LE32(7),		/* @5 sequence */
		LE32(24),		/* pdu_len: B */
		REC_B(LE),		/* @13 */
	};
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	open_fixture(&s, path, sizeof(path), "torn_3", file, sizeof(file),
		     &log);
	assert_int_equal(s.framing, FRAMING_V4);
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 13, 7,
		      true);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_DAMAGE, path, 0,
		    "5 bytes of garbage skipped");
	/* whether it is LKET's, its records say (the pipeline's part) */
	assert_false(s.starts_lket);
	assert_false(s.no_flush);
	stream_close(&s);
}

static void test_truncated_mid_record(void **state)
{
	/* flush 1 says A and D, the file ends 30 bytes into D */
	static const uint8_t framed[] = {
		LE32(1),		/* @0 sequence */
		LE32(72),		/* pdu_len: A and D */
		REC_A(LE),		/* @8 */
		LE16(LKET_RECORD_MAGIC),	/* @40 D: magic */
		LE16(40),		/* total_size */
		LE16(40),		/* sys_size */
		LE16(0),		/* flags */
		LE64(4000),		/* timestamp */
		LE64(LKET_ID(103, 1, 2, 0)),	/* id */
		LE16(0x0101),		/* hook field 1, first 2 bytes */
	};
	/* no framing: A, then D cut the same way */
	static const uint8_t unframed[] = {
		REC_A(LE),		/* @0 */
		LE16(LKET_RECORD_MAGIC),	/* @32 D: magic */
		LE16(40),		/* total_size */
		LE16(40),		/* sys_size */
		LE16(0),		/* flags */
		LE64(4000),		/* timestamp */
		LE64(LKET_ID(103, 1, 2, 0)),	/* id */
		LE16(0x0101),		/* hook field 1, first 2 bytes */
	};
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	open_fixture(&s, path, sizeof(path), "cut_cpu0", framed,
		     sizeof(framed), &log);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 8, 1,
		      true);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 2);
	assert_diag(&log, 0, DIAG_DAMAGE, path, 0,
		    "flush of 72 bytes runs past the end of the file (58 bytes left): truncated");
	assert_diag(&log, 1, DIAG_DAMAGE, path, 40,
		    "record cut short after 26 of 40 bytes: dropped");
	stream_close(&s);

	open_fixture(&s, path, sizeof(path), "cut_raw", unframed,
		     sizeof(unframed), &log);
	assert_int_equal(s.framing, FRAMING_NONE);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 0, 0,
		      false);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_DAMAGE, path, 32,
		    "file ends inside a record (26 of 40 bytes)");
	stream_close(&s);

	/* cut inside the head: only 10 bytes of D */
	open_fixture(&s, path, sizeof(path), "cut_head", unframed, 32 + 10,
		     &log);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 0, 0,
		      false);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_DAMAGE, path, 32,
		    "file ends inside a record head (10 bytes)");
	stream_close(&s);
}

/* pdu_len says more than the file holds; what is there is read */
static void test_pdu_past_end(void **state)
{
	static const uint8_t file[] = {
		LE32(3),		/* @0 sequence */
		LE32(1000),		/* pdu_len: far past the end */
		REC_A(LE),		/* @8 */
		REC_B(LE),		/* @40 */
	};
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	open_fixture(&s, path, sizeof(path), "long_cpu0", file, sizeof(file),
		     &log);
	assert_int_equal(s.framing, FRAMING_V4);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 8, 3,
		      true);
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 40, 3,
		      true);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_DAMAGE, path, 0,
		    "flush of 1000 bytes runs past the end of the file (56 bytes left): truncated");
	stream_close(&s);
}

/*
 * A flush larger than the smallest read window (300000 bytes) whose second
 * record is damaged, then five good flushes: whatever the window, the
 * damaged flush is skipped whole and the five survive.
 */
#define BIG_PDU		300000u

static void convert_damaged_big(size_t window, uint64_t *ts, unsigned int *n,
				struct diag_log *log, const char *path)
{
	struct stream s;

	diag_log_init(log);
	assert_int_equal(stream_open(&s, path, 0, window, &log->d), 0);
	for (*n = 0; *n < 8 && stream_next(&s) == 1; (*n)++)
		ts[*n] = s.rec.timestamp;
	stream_close(&s);
}

static void test_resync_any_window(void **state)
{
	static const uint8_t head[] = { LE32(1), LE32(BIG_PDU), REC_A(LE) };
	static const uint8_t tail[] = {
		LE32(2), LE32(24), REC_B(LE), LE32(3), LE32(24), REC_B(LE),
		LE32(4), LE32(24), REC_B(LE), LE32(5), LE32(24), REC_B(LE),
		LE32(6), LE32(24), REC_B(LE),
	};
	size_t len = sizeof(head) + BIG_PDU - 32 + sizeof(tail);
	uint8_t *file = calloc(1, len);
	uint64_t small_ts[8], large_ts[8];
	unsigned int small_n, large_n, i;
	struct diag_log small_log, large_log;
	char path[256];

	(void)state;
	assert_non_null(file);
	memcpy(file, head, sizeof(head));
	/* the rest of the flush: zeros, no record head */
	memcpy(file + sizeof(head) + BIG_PDU - 32, tail, sizeof(tail));
	unit_write(path, sizeof(path), "big_cpu0", file, len);
	free(file);
	convert_damaged_big(4096, small_ts, &small_n, &small_log, path);
	convert_damaged_big(16u << 20, large_ts, &large_n, &large_log, path);
	assert_int_equal(large_n, 6);
	assert_int_equal(small_n, large_n);
	for (i = 0; i < large_n; i++)
		assert_int_equal(small_ts[i], large_ts[i]);
	assert_int_equal(small_log.n, 1);
	assert_int_equal(large_log.n, 1);
	assert_diag(&small_log, 0, DIAG_DAMAGE, path, 40,
		    "299968 bytes of garbage skipped in flush 1, to its end");
	assert_diag(&large_log, 0, DIAG_DAMAGE, path, 40,
		    "299968 bytes of garbage skipped in flush 1, to its end");
}

/* B goes back before C: reported once, merged by C's time, after C. */
static void test_time_goes_back(void **state)
{
	static const uint8_t file[] = { REC_A(LE), REC_C(LE), REC_B(LE),
					REC_D(LE) };
	static const uint64_t key[] = { 1000, 3000, 3000, 4000 };
	static const uint64_t ts[] = { 1000, 3000, 2000, 4000 };
	struct diag_log log;
	struct stream s;
	char path[256];
	unsigned int i;

	(void)state;
	open_fixture(&s, path, sizeof(path), "back_cpu0", file, sizeof(file),
		     &log);
	for (i = 0; i < 4; i++) {
		assert_int_equal(stream_next(&s), 1);
		assert_int_equal(s.rec.timestamp, ts[i]);
		assert_int_equal(s.rec.key, key[i]);
	}
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_DAMAGE, path, 60,
		    "time goes back: 1 record (to offset 60) earlier than 0.000003000, the record at offset 32, by up to 1000 ns: left in file order, after it");
	stream_close(&s);
}

static void test_empty(void **state)
{
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	open_fixture(&s, path, sizeof(path), "empty_cpu5", "", 0, &log);
	assert_int_equal(s.cpu, 5);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.d.notes, 1);
	assert_int_equal(log.d.damage, 0);
	assert_diag(&log, 0, DIAG_NOTE, path, -1, "empty file, no records");
	stream_close(&s);
}

static void test_only_garbage(void **state)
{
	static const uint8_t file[] = { 0x01, 0x02, 0x03, 0x04, 0x05 };
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	open_fixture(&s, path, sizeof(path), "junk", file, sizeof(file), &log);
	assert_int_equal(stream_next(&s), 0);
	/* not a byte of it is LKET's: no trace, said once, for the file */
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_DAMAGE, path, -1,
		    "not a trace: not an LKET flush nor record in its 5 bytes");
	assert_true(s.no_flush);
	assert_false(s.starts_lket);
	stream_close(&s);
}

static void test_open_errors(void **state)
{
	struct diag_log log;
	struct stream s;
	char path[256];

	(void)state;
	diag_log_init(&log);
	snprintf(path, sizeof(path), "%s/no_such_cpu0", unit_dir);
	assert_int_equal(stream_open(&s, path, 0, 4096, &log.d), -ENOENT);
	assert_int_equal(stream_open(&s, unit_dir, -1, 4096, &log.d),
			 -EISDIR);
	/* a named device is a mistake (standard input may be one) */
	assert_int_equal(stream_open(&s, "/dev/null", -1, 4096, &log.d),
			 -EINVAL);
	assert_int_equal(log.n, 0);
}

/* A FIFO is opened at once, with no writer yet, and read like a file. */
static void test_fifo(void **state)
{
	struct diag_log log;
	struct stream s;
	char path[256];
	int fd;

	(void)state;
	diag_log_init(&log);
	snprintf(path, sizeof(path), "%s/fifo_cpu0", unit_dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(stream_open(&s, path, 0, 4096, &log.d), 0);
	fd = open(path, O_WRONLY | O_NONBLOCK);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, v4_le, sizeof(v4_le)), sizeof(v4_le));
	close(fd);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 8, 1,
		      true);
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 40, 1,
		      true);
	expect_record(&s, rec_c, 3000, LKET_ID(102, 4, 5, 0), 28, 24, 72, 4,
		      true);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(log.n, 0);
	stream_close(&s);
}

/*
 * A rotated file after rot_0.0, file 2 of CPU 0 (file 1 was deleted):
 * its copies' flush repeats flush 4's number, then flush 5 holds D.
 */
static const uint8_t rotated_2[] = {
	LE32(4),			/* @0 sequence: the copies' */
	LE32(24),			/* pdu_len */
	LE16(LKET_RECORD_MAGIC),	/* @8 a copy of B */
	LE16(24),			/* total_size */
	LE16(24),			/* sys_size */
	LE16(LKET_RECORD_COPY),		/* flags: a copy */
	LE64(3000),			/* timestamp: the last record's */
	LE64(LKET_ID(101, 2, 3, 0)),	/* id */
	LE32(5),			/* @32 sequence */
	LE32(40),			/* pdu_len: D */
	REC_D(LE),			/* @40 */
};

/*
 * Following a rotated trace: at the end of a CPU's file, its records go
 * on in the CPU's next file, the copies at its start stepped over; the
 * files the rotation deleted before they were read are named.
 */
static void test_rotated_followed(void **state)
{
	struct follow f = { .interval_ms = 1 };
	struct diag_log log;
	struct stream s;
	char path[256], next[256], want[700];
	int fd;

	(void)state;
	diag_log_init(&log);
	f.diag = &log.d;
	unit_write(next, sizeof(next), "rot_0.2", rotated_2, sizeof(rotated_2));
	unit_write(path, sizeof(path), "rot_0.0", v4_le, sizeof(v4_le));
	/* the end of the last file is where no one writes it any more */
	fd = open(next, O_RDONLY);
	assert_true(fd >= 0);
	if (fcntl(fd, F_SETLEASE, F_RDLCK)) {
		print_message("no read lease on %s: skipped\n", next);
		close(fd);
		skip();
	}
	fcntl(fd, F_SETLEASE, F_UNLCK);
	close(fd);
	assert_int_equal(stream_open_follow(&s, path, 0, 4096, &log.d, &f), 0);
	s.rotation = tracename_rotation(path);
	expect_record(&s, rec_a, 1000, LKET_ID(100, 1, 1, 0), 32, 32, 8, 1,
		      true);
	expect_record(&s, rec_b, 2000, LKET_ID(101, 2, 3, 0), 24, 24, 40, 1,
		      true);
	expect_record(&s, rec_c, 3000, LKET_ID(102, 4, 5, 0), 28, 24, 72, 4,
		      true);
	expect_record(&s, rec_d, 4000, LKET_ID(103, 1, 2, 0), 40, 40, 40, 5,
		      true);
	assert_string_equal(s.path, next);
	assert_string_equal(s.first_path, path);
	assert_int_equal(s.rotation, 2);
	assert_int_equal(stream_next(&s), 0);
	assert_int_equal(s.done_bytes, sizeof(v4_le));
	assert_int_equal(log.n, 1);
	snprintf(want, sizeof(want),
		 "a rotated trace: the file of CPU 0 before this one, %s/rot_0.1, was deleted before it could be read: its records are not converted",
		 unit_dir);
	assert_diag(&log, 0, DIAG_NOTE, next, -1, want);
	assert_int_equal(log.d.damage, 0);
	stream_close(&s);
}

UNIT_MAIN("stream", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_v4), UNIT_TEST(test_v5), UNIT_TEST(test_unframed),
	  UNIT_TEST(test_big_endian), UNIT_TEST(test_skip),
	  UNIT_TEST(test_spanning), UNIT_TEST(test_garbage_between_flushes),
	  UNIT_TEST(test_garbage_unframed), UNIT_TEST(test_garbage_in_flush),
	  UNIT_TEST(test_garbage_like_head), UNIT_TEST(test_garbage_at_start),
	  UNIT_TEST(test_truncated_mid_record), UNIT_TEST(test_pdu_past_end),
	  UNIT_TEST(test_resync_any_window), UNIT_TEST(test_time_goes_back),
	  UNIT_TEST(test_empty), UNIT_TEST(test_only_garbage),
	  UNIT_TEST(test_open_errors), UNIT_TEST(test_fifo),
	  UNIT_TEST(test_file_grows), UNIT_TEST(test_rotated_followed))
