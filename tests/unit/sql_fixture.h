/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sql_fixture.h - what the database tests (sql, out_sqlite, out_pg)
 * share: a trace's metadata, its records, and events decoded from them.
 */
#ifndef LKET_SQL_FIXTURE_H
#define LKET_SQL_FIXTURE_H

#include "unit.h"

#include "decode/decode.h"
#include "decode/meta.h"
#include "input/stream.h"
#include "output/output.h"

static struct meta meta;

/*
 * syscall.entry (1:1): a string.  io.submit (3:5): a hex INT64, a hex
 * INT16, an INT32, then a user INT8.  proc.snap (2:1): fields named like
 * the common columns, twice "x".
 */
static inline int meta_setup(void **state)
{
	(void)state;
	if (meta_init(&meta) ||
	    meta_register(&meta, 1, 1, false, "STRING", "syscall_name") ||
	    meta_name(&meta, 1, 1, "syscall.entry") ||
	    meta_register(&meta, 3, 5, false, "INT64:INT16:INT32",
			  "buf_addr:request_flags:count") ||
	    meta_register(&meta, 3, 5, true, "INT8", "u") ||
	    meta_name(&meta, 3, 5, "io.submit") ||
	    meta_register(&meta, 2, 1, false, "INT32:INT32:INT8:INT8",
			  "tid:pid:x:x") ||
	    meta_name(&meta, 2, 1, "proc.snap"))
		return -1;
	return 0;
}

static inline int meta_teardown(void **state)
{
	(void)state;
	meta_free(&meta);
	return 0;
}

/* syscall.entry of tid 100 on CPU 2 at 1234 ns, "a\tb\\c" */
static const uint8_t rec_entry[] = {
	LE16(LKET_RECORD_MAGIC), LE16(30), LE16(30), LE16(0),
	LE64(1234), LE64(LKET_ID(100, 1, 1, 2)),
	'a', '\t', 'b', '\\', 'c', 0,
};

/* io.submit of tid 7 on CPU 0 at 5000 ns: a kernel address, flags
 * 0x8001, count -5, user field -1 */
static const uint8_t rec_io[] = {
	LE16(LKET_RECORD_MAGIC), LE16(39), LE16(38), LE16(0),
	LE64(5000), LE64(LKET_ID(7, 3, 5, 0)),
	LE64(0xffff888012345000ull), LE16(0x8001), LE32(0xfffffffb),
	0xff,
};

/* io.submit with two bytes past its fields: no user value (NULL), the
 * two bytes raw */
static const uint8_t rec_io_extra[] = {
	LE16(LKET_RECORD_MAGIC), LE16(40), LE16(40), LE16(0),
	LE64(6000), LE64(LKET_ID(7, 3, 5, 0)),
	LE64(0x10ull), LE16(1), LE32(2), 0xab, 0xcd,
};

/* proc.snap of tid 1 on CPU 1 at 7000 ns */
static const uint8_t rec_snap[] = {
	LE16(LKET_RECORD_MAGIC), LE16(34), LE16(34), LE16(0),
	LE64(7000), LE64(LKET_ID(1, 2, 1, 1)),
	LE32(42), LE32(41), 5, 6,
};

/* 200:9, which nothing describes, of tid 1 on CPU 1 at 8000 ns */
static const uint8_t rec_unknown[] = {
	LE16(LKET_RECORD_MAGIC), LE16(28), LE16(28), LE16(0),
	LE64(8000), LE64(LKET_ID(1, 200, 9, 1)),
	0xde, 0xad, 0xbe, 0xef,
};

static const struct proc bash = { .tid = 100, .pid = 42, .comm = "bash",
				  .comm_len = 4 };

/* An event decoded from rec, in s's record; the decoder's verdict. */
static inline int fixture_event(struct stream *s, struct event *ev,
				const uint8_t *rec)
{
	memset(s, 0, sizeof(*s));
	s->swap = host_big_endian();
	s->rec.data = rec;
	s->rec.size = stream_u16(s, rec + 2);
	s->rec.sys_size = stream_u16(s, rec + 4);
	s->rec.timestamp = stream_u64(s, rec + 8);
	s->rec.id = stream_u64(s, rec + 16);
	return decode_record(&meta, s, ev);
}

/* Hand the event of rec, of host host (NULL: one trace), to o. */
static inline int fixture_send_host(struct output *o, const uint8_t *rec,
				    const struct proc *proc, const char *host)
{
	struct stream s;
	struct event ev = { 0 };

	fixture_event(&s, &ev, rec);
	ev.host = host;
	return o->ops->event(o, &ev, proc);
}

static inline int fixture_send(struct output *o, const uint8_t *rec,
			       const struct proc *proc)
{
	return fixture_send_host(o, rec, proc, NULL);
}

static const char *const fixture_files[] = { "t_0", "odd\nname_1" };

static const struct trace_info fixture_info = {
	.have_header = true,
	.wall_offset = -5,
	.first_ts = 1234,
	.clock = "global",
	.kernel = "6.1.0",
	.files = fixture_files,
	.nfiles = 2,
};

/* A flush lost, then two records dropped on CPU 3. */
static const struct seq_gap gap_flush = {
	.first = 9, .last = 9, .after_ts = 2000, .before_ts = 3000, .cpu = -1,
};
static const struct seq_gap gap_records = {
	.after_ts = 4000, .cpu = 3, .records = 2,
};

#endif
