// SPDX-License-Identifier: GPL-2.0
/* out_csv: the header row, a row per event and per lost flush. */
#include "unit.h"
#include "line_sink.h"

#include "output/line/line.h"

/* syscall.entry of tid 100 on CPU 2 at 1.5 s: a name with a comma */
static const uint8_t rec_entry[] = {
	LE16(LKET_RECORD_MAGIC),	/* magic */
	LE16(32),			/* total_size */
	LE16(32),			/* sys_size */
	LE16(0),			/* flags */
	LE64(1500000000ull),		/* timestamp */
	LE64(LKET_ID(100, 1, 1, 2)),	/* id: tid 100, 1:1, CPU 2 */
	'r', ',', 'w', 0,		/* syscall_name */
	LE32(3),			/* fd */
};

static const struct proc bash = { .tid = 100, .pid = 42, .comm = "=sh",
				  .comm_len = 3 };

static struct trace_info info = { .first_ts = 1000000000ull };

static void test_rows(void **state)
{
	struct text_options opt = { .time = TIME_REL };
	struct seq_gap g = { .first = 4, .last = 6, .after_ts = 1500000000ull,
			     .before_ts = 2000000000ull, .cpu = -1 };
	struct meta meta;
	struct sink k;

	(void)state;
	assert_int_equal(meta_init(&meta), 0);
	assert_int_equal(meta_register(&meta, 1, 1, false, "STRING:INT32",
				       "syscall_name:fd"), 0);
	assert_int_equal(meta_name(&meta, 1, 1, "syscall.entry"), 0);
	sink_open_with(&k, output_csv_new, "lket.csv", &opt, &info);
	sink_record(&k, &meta, rec_entry, &bash);
	assert_int_equal(k.o->ops->lost(k.o, &g), 0);
	sink_record(&k, &meta, rec_entry, NULL);
	/* the comm guarded against a formula, the fields quoted, a gap's
	 * row without a thread */
	sink_expect(&k,
		"time,cpu,tid,pid,comm,event,fields\n"
		"0.500000000,2,100,42,'=sh,syscall.entry,\"syscall_name=\"\"r,w\"\" fd=3\"\n"
		"0.500000000,,,,,lket.lost,count=3 first_seq=4 last_seq=6 until=1.000000000\n"
		"0.500000000,2,100,,,syscall.entry,\"syscall_name=\"\"r,w\"\" fd=3\"\n");
	meta_free(&meta);
}

static void test_empty(void **state)
{
	struct text_options opt = { .time = TIME_ABS };
	struct sink k;

	(void)state;
	/* no event, no row: the header comes with the first */
	sink_open_with(&k, output_csv_new, "lket.csv", &opt, &info);
	sink_expect(&k, "");
}

UNIT_MAIN("out_csv", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_rows), UNIT_TEST(test_empty))
