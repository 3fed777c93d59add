// SPDX-License-Identifier: GPL-2.0
/* out_text: lket.out lines, byte for byte, in every mode. */
#include "unit.h"
#include "line_sink.h"

#include "output/line/line.h"
#include "output/output.h"

static struct meta meta;

static int setup(void **state)
{
	if (unit_dir_setup(state) || meta_init(&meta) ||
	    meta_register(&meta, 1, 1, false, "STRING", "syscall_name") ||
	    meta_name(&meta, 1, 1, "syscall.entry") ||
	    meta_register(&meta, 3, 5, false, "INT64:INT16:INT32:STRING",
			  "buf_addr:request_flags:count:path") ||
	    meta_register(&meta, 3, 5, true, "INT8", "u") ||
	    meta_name(&meta, 3, 5, "io.submit"))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	meta_free(&meta);
	return unit_dir_teardown(state);
}

/* syscall.entry of tid 100 on CPU 2 at 1234.567890123 s */
static const uint8_t rec_entry[] = {
	LE16(LKET_RECORD_MAGIC),	/* magic */
	LE16(29),			/* total_size */
	LE16(29),			/* sys_size */
	LE16(0),			/* flags */
	LE64(1234567890123ull),		/* timestamp */
	LE64(LKET_ID(100, 1, 1, 2)),	/* id: tid 100, 1:1, CPU 2 */
	'r', 'e', 'a', 'd', 0,		/* syscall_name */
};

/* io.submit of tid 7 on CPU 0 at 5.000000001 s, with a user field */
static const uint8_t rec_io[] = {
	LE16(LKET_RECORD_MAGIC),	/* magic */
	LE16(46),			/* total_size */
	LE16(45),			/* sys_size */
	LE16(0),			/* flags */
	LE64(5000000001ull),		/* timestamp */
	LE64(LKET_ID(7, 3, 5, 0)),	/* id: tid 7, 3:5, CPU 0 */
	LE64(0x7f0012345000ull),	/* buf_addr: INT64, hex */
	LE16(0x8001),			/* request_flags: INT16, hex */
	LE32(0xfffffffb),		/* count: INT32 -5 */
	'/', 't', 'm', 'p', '/', 'x', 0,	/* path */
	0xff,				/* u: user INT8 -1 */
};

/* 200:9, which nothing describes, of tid 1 on CPU 1 at 1 us */
static const uint8_t rec_unknown[] = {
	LE16(LKET_RECORD_MAGIC),	/* magic */
	LE16(28),			/* total_size */
	LE16(28),			/* sys_size */
	LE16(0),			/* flags */
	LE64(1000),			/* timestamp */
	LE64(LKET_ID(1, 200, 9, 1)),	/* id: tid 1, 200:9, CPU 1 */
	0xde, 0xad, 0xbe, 0xef,		/* fields */
};

/* syscall.return, known to the catalogue, but with no metadata here */
static const uint8_t rec_return[] = {
	LE16(LKET_RECORD_MAGIC),	/* magic */
	LE16(29),			/* total_size */
	LE16(29),			/* sys_size */
	LE16(0),			/* flags */
	LE64(2000000000ull),		/* timestamp */
	LE64(LKET_ID(100, 1, 2, 2)),	/* id: tid 100, 1:2, CPU 2 */
	'r', 'e', 'a', 'd', 0,		/* syscall_name */
};

/* A string with quotes, a backslash and a space */
static const uint8_t rec_quoted[] = {
	LE16(LKET_RECORD_MAGIC),	/* magic */
	LE16(32),			/* total_size */
	LE16(32),			/* sys_size */
	LE16(0),			/* flags */
	LE64(1000000000ull),		/* timestamp */
	LE64(LKET_ID(100, 1, 1, 2)),	/* id: tid 100, 1:1, CPU 2 */
	'a', ' ', '"', 'q', '"', '\\', '\t', 0,	/* syscall_name */
};

static const struct proc bash = { .tid = 100, .pid = 42, .comm = "bash",
				  .comm_len = 4 };

static struct trace_info info = {
	.have_header = true,
	.first_ts = 1234000000000ull,
	/* 1234.567890123 s of trace time is 1700000000.123456789 UTC */
	.wall_offset = 1700000000123456789ll - 1234567890123ll,
};

static void sink_open(struct sink *k, const struct text_options *opt)
{
	sink_open_with(k, output_text_new, "lket.out", opt, &info);
}

static void sink_event(struct sink *k, const uint8_t *rec,
		       const struct proc *proc)
{
	sink_record(k, &meta, rec, proc);
}

/* Flushes first..last lost, of CPU cpu (-1: of any CPU, version 1). */
static void sink_lost_cpu(struct sink *k, uint32_t first, uint32_t last,
			  uint64_t after_ts, uint64_t before_ts, int cpu)
{
	struct seq_gap g = {
		.first = first,
		.last = last,
		.after_ts = after_ts,
		.before_ts = before_ts,
		.cpu = cpu,
	};

	assert_int_equal(k->o->ops->lost(k->o, &g), 0);
}

static void sink_lost(struct sink *k, uint32_t first, uint32_t last,
		      uint64_t after_ts, uint64_t before_ts)
{
	sink_lost_cpu(k, first, last, after_ts, before_ts, -1);
}

/* One event in mode opt must print as want. */
static void expect_line(const struct text_options *opt, const uint8_t *rec,
			const struct proc *proc, const char *want)
{
	struct sink k;

	sink_open(&k, opt);
	sink_event(&k, rec, proc);
	sink_expect(&k, want);
}

static void test_time_modes(void **state)
{
	struct text_options opt = { .time = TIME_ABS };

	(void)state;
	expect_line(&opt, rec_entry, &bash,
		    "1234.567890123 2 100 42 bash syscall.entry syscall_name=\"read\"\n");
	opt.time = TIME_REL;
	expect_line(&opt, rec_entry, &bash,
		    "0.567890123 2 100 42 bash syscall.entry syscall_name=\"read\"\n");
	opt.time = TIME_WALL;
	expect_line(&opt, rec_entry, &bash,
		    "2023-11-14T22:13:20.123456789 2 100 42 bash syscall.entry syscall_name=\"read\"\n");
	opt.time = TIME_RAW;
	expect_line(&opt, rec_entry, &bash,
		    "1234567890123 2 100 42 bash syscall.entry syscall_name=\"read\"\n");
}

/* Wall time crosses seconds and goes back: each line has its own date. */
static void test_wall_seconds(void **state)
{
	struct text_options opt = { .time = TIME_WALL };
	struct sink k;

	(void)state;
	sink_open(&k, &opt);
	sink_event(&k, rec_entry, &bash);
	sink_lost(&k, 1, 1, 1234567890123ull + 900000000ull, 0);
	sink_lost(&k, 3, 3, 1234567890123ull - 200000000ull, 0);
	sink_expect(&k,
		    "2023-11-14T22:13:20.123456789 2 100 42 bash syscall.entry syscall_name=\"read\"\n"
		    "2023-11-14T22:13:21.023456789 - - - - lket.lost count=1 first_seq=1 last_seq=1\n"
		    "2023-11-14T22:13:19.923456789 - - - - lket.lost count=1 first_seq=3 last_seq=3\n");
}

static void test_ids_names_comm(void **state)
{
	struct text_options opt = { .time = TIME_ABS, .ids = true };

	(void)state;
	expect_line(&opt, rec_entry, &bash,
		    "1234.567890123 2 100 42 bash syscall.entry[1:1] syscall_name=\"read\"\n");
	opt.ids = false;
	opt.no_names = true;
	expect_line(&opt, rec_entry, &bash,
		    "1234.567890123 2 100 42 bash 1:1 syscall_name=\"read\"\n");
	opt.ids = true;
	expect_line(&opt, rec_entry, &bash,
		    "1234.567890123 2 100 42 bash 1:1 syscall_name=\"read\"\n");
	opt.ids = false;
	opt.no_names = false;
	opt.no_comm = true;
	expect_line(&opt, rec_entry, &bash,
		    "1234.567890123 2 100 42 syscall.entry syscall_name=\"read\"\n");
}

static void test_process_columns(void **state)
{
	static const struct proc odd = { .tid = 100, .pid = 42,
					 .comm = "a b\n\"", .comm_len = 5 };
	static const struct proc no_pid = { .tid = 100, .pid = -1,
					    .comm = "cat", .comm_len = 3 };
	static const struct proc no_comm = { .tid = 100, .pid = 42 };
	struct text_options opt = { .time = TIME_ABS };

	(void)state;
	expect_line(&opt, rec_entry, NULL,
		    "1234.567890123 2 100 - - syscall.entry syscall_name=\"read\"\n");
	/* the name must stay one column */
	expect_line(&opt, rec_entry, &odd,
		    "1234.567890123 2 100 42 a\\x20b\\n\\\" syscall.entry syscall_name=\"read\"\n");
	expect_line(&opt, rec_entry, &no_pid,
		    "1234.567890123 2 100 - cat syscall.entry syscall_name=\"read\"\n");
	expect_line(&opt, rec_entry, &no_comm,
		    "1234.567890123 2 100 42 - syscall.entry syscall_name=\"read\"\n");
}

static void test_values(void **state)
{
	struct text_options opt = { .time = TIME_ABS };

	(void)state;
	/* hex at the field's width; negative decimals; user fields last */
	expect_line(&opt, rec_io, NULL,
		    "5.000000001 0 7 - - io.submit buf_addr=0x7f0012345000 request_flags=0x8001 count=-5 path=\"/tmp/x\" u=-1\n");
	/* strings escaped, spaces kept */
	expect_line(&opt, rec_quoted, &bash,
		    "1.000000000 2 100 42 bash syscall.entry syscall_name=\"a \\\"q\\\"\\\\\\t\"\n");
}

static void test_without_metadata(void **state)
{
	struct text_options opt = { .time = TIME_ABS };

	(void)state;
	expect_line(&opt, rec_unknown, NULL,
		    "0.000001000 1 1 - - unknown[200:9] raw=deadbeef\n");
	/* the catalogue's name, flagged with its IDs */
	expect_line(&opt, rec_return, &bash,
		    "2.000000000 2 100 42 bash syscall.return[1:2] raw=7265616400\n");
	opt.no_names = true;
	expect_line(&opt, rec_unknown, NULL,
		    "0.000001000 1 1 - - 200:9 raw=deadbeef\n");
}

static void test_lost(void **state)
{
	struct text_options opt = { .time = TIME_ABS };
	struct sink k;

	(void)state;
	sink_open(&k, &opt);
	sink_lost(&k, 5, 7, 1000000000ull, 2000000000ull);
	sink_lost(&k, 9, 9, 3000000000ull, 0);
	sink_expect(&k,
		    "1.000000000 - - - - lket.lost count=3 first_seq=5 last_seq=7 until=2.000000000\n"
		    "3.000000000 - - - - lket.lost count=1 first_seq=9 last_seq=9\n");

	opt.time = TIME_RAW;
	sink_open(&k, &opt);
	sink_lost(&k, 5, 7, 1000000000ull, 2000000000ull);
	sink_expect(&k,
		    "1000000000 - - - - lket.lost count=3 first_seq=5 last_seq=7 until=2000000000\n");

	/* without the process name column, one dash fewer */
	opt.time = TIME_ABS;
	opt.no_comm = true;
	sink_open(&k, &opt);
	sink_lost(&k, 5, 7, 1000000000ull, 2000000000ull);
	sink_expect(&k,
		    "1.000000000 - - - lket.lost count=3 first_seq=5 last_seq=7 until=2.000000000\n");

	/* format version 2: the CPU whose flushes were lost */
	opt.no_comm = false;
	sink_open(&k, &opt);
	sink_lost_cpu(&k, 5, 7, 1000000000ull, 2000000000ull, 1);
	sink_expect(&k,
		    "1.000000000 1 - - - lket.lost count=3 first_seq=5 last_seq=7 until=2.000000000\n");
}

/* --delta: since the previous event line, signed; a gap's line has none. */
static void test_delta(void **state)
{
	struct text_options opt = { .time = TIME_RAW, .delta = true,
				    .no_comm = true };
	struct sink k;

	(void)state;
	sink_open(&k, &opt);
	sink_event(&k, rec_quoted, &bash);
	sink_event(&k, rec_return, &bash);
	sink_lost(&k, 5, 7, 1500000000ull, 1600000000ull);
	sink_event(&k, rec_entry, &bash);
	sink_event(&k, rec_io, NULL);
	sink_expect(&k,
		    "1000000000 +0.000000000 2 100 42 syscall.entry syscall_name=\"a \\\"q\\\"\\\\\\t\"\n"
		    "2000000000 +1.000000000 2 100 42 syscall.return[1:2] raw=7265616400\n"
		    "1500000000 - - - - lket.lost count=3 first_seq=5 last_seq=7 until=1600000000\n"
		    "1234567890123 +1232.567890123 2 100 42 syscall.entry syscall_name=\"read\"\n"
		    "5000000001 -1229.567890122 0 7 - io.submit buf_addr=0x7f0012345000 request_flags=0x8001 count=-5 path=\"/tmp/x\" u=-1\n");
}

UNIT_MAIN("out_text", setup, teardown,
	  UNIT_TEST(test_time_modes), UNIT_TEST(test_wall_seconds),
	  UNIT_TEST(test_ids_names_comm), UNIT_TEST(test_process_columns),
	  UNIT_TEST(test_values), UNIT_TEST(test_without_metadata),
	  UNIT_TEST(test_lost), UNIT_TEST(test_delta))
