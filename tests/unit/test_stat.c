// SPDX-License-Identifier: GPL-2.0
/* stat: the --stat summary, byte for byte. */
#include "unit.h"
#include "line_sink.h"

#include "output/line/line.h"
#include "output/output.h"

static struct meta meta;

static int setup(void **state)
{
	if (unit_dir_setup(state) || meta_init(&meta) ||
	    meta_register(&meta, 1, 1, false, "STRING", "syscall_name") ||
	    meta_name(&meta, 1, 1, "syscall.entry"))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	meta_free(&meta);
	return unit_dir_teardown(state);
}

/* syscall.entry of tid 100 on CPU 2 at 1.5 s */
static const uint8_t rec_entry[] = {
	LE16(LKET_RECORD_MAGIC),	/* magic */
	LE16(29),			/* total_size */
	LE16(29),			/* sys_size */
	LE16(0),			/* flags */
	LE64(1500000000ull),		/* timestamp */
	LE64(LKET_ID(100, 1, 1, 2)),	/* id: tid 100, 1:1, CPU 2 */
	'r', 'e', 'a', 'd', 0,		/* syscall_name */
};

/* 200:9, which nothing describes, of tid 1 on CPU 1 at 1 s */
static const uint8_t rec_unknown[] = {
	LE16(LKET_RECORD_MAGIC),	/* magic */
	LE16(28),			/* total_size */
	LE16(28),			/* sys_size */
	LE16(0),			/* flags */
	LE64(1000000000ull),		/* timestamp */
	LE64(LKET_ID(1, 200, 9, 1)),	/* id: tid 1, 200:9, CPU 1 */
	0xde, 0xad, 0xbe, 0xef,		/* fields */
};

static const struct proc bash = { .tid = 100, .pid = 42, .comm = "ba sh",
				  .comm_len = 5 };

static struct trace_info info = { .first_ts = 1000000000ull };

static void sink_open(struct sink *k, const struct text_options *opt)
{
	sink_open_with(k, output_stat_new, "stat.out", opt, &info);
}

static void sink_event(struct sink *k, const uint8_t *rec,
		       const struct proc *proc)
{
	sink_record(k, &meta, rec, proc);
}

static void test_empty(void **state)
{
	struct text_options opt = { .time = TIME_ABS };
	struct sink k;

	(void)state;
	sink_open(&k, &opt);
	sink_expect(&k,
		    "events: 0\nfirst: -\nlast: -\nduration: -\n"
		    "flushes lost: 0\nrecords dropped: 0\n"
		    "records missing: 0\nprobe hits skipped: 0\n"
		    "\nevents by type:\n       count event\n"
		    "\nevents by CPU:\n       count cpu\n"
		    "\nevents by process:\n       count      pid comm\n");
}

/* Counts sorted highest first; losses summed; the time in -t's format. */
static void test_counts(void **state)
{
	struct text_options opt = { .time = TIME_REL, .ids = true };
	struct seq_gap lost = { .first = 3, .last = 5, .cpu = -1 };
	struct seq_gap dropped = { .cpu = 1, .records = 7 };
	struct sink k;

	(void)state;
	sink_open(&k, &opt);
	sink_event(&k, rec_unknown, NULL);
	sink_event(&k, rec_entry, &bash);
	sink_event(&k, rec_entry, &bash);
	assert_int_equal(k.o->ops->lost(k.o, &lost), 0);
	assert_int_equal(k.o->ops->lost(k.o, &dropped), 0);
	assert_int_equal(k.o->ops->lost(k.o, &dropped), 0);
	/* what the trace's end said, known at finish */
	info.missing = 4;
	info.skipped = 9;
	sink_expect(&k,
		    "events: 3\nfirst: 0.000000000\nlast: 0.500000000\n"
		    "duration: 0.500000000\n"
		    "flushes lost: 3\nrecords dropped: 14\n"
		    "records missing: 4\nprobe hits skipped: 9\n"
		    "\nevents by type:\n       count event\n"
		    "           2 syscall.entry[1:1]\n"
		    "           1 unknown[200:9]\n"
		    "\nevents by CPU:\n       count cpu\n"
		    "           2 2\n"
		    "           1 1\n"
		    "\nevents by process:\n       count      pid comm\n"
		    "           2       42 ba\\x20sh\n"
		    "           1        - -\n");
	info.missing = info.skipped = 0;
}

UNIT_MAIN("stat", setup, teardown,
	  UNIT_TEST(test_empty), UNIT_TEST(test_counts))
