// SPDX-License-Identifier: GPL-2.0
/*
 * metarec, tasks, losses: a source's group-0 records through a whole
 * conversion: the header, an event registered (and a contradiction
 * refused), a task record that names a thread, and a packet whose
 * dropped records are a gap.
 */
#include "unit.h"
#include "log_output.h"

#include "pipeline/convert.h"

/* one flush (SystemTap 5 framing) of the records below, CPU 0 */
static const uint8_t trace[] = {
	0xf0, 0x9f, 0xa9, 0xba,		/* flush magic */
	LE32(1), LE32(54 + 46 + 34 + 41 + 29 + 28),	/* seq, pdu_len */
	/* lket.trace_header, format version 2 */
	LE16(LKET_RECORD_MAGIC), LE16(54), LE16(54), LE16(0),
	LE64(100), LE64(LKET_ID(0, 0, 1, 0)),
	LE16(2),			/* version */
	LE32(LKET_BYTE_ORDER_MARK),	/* byte_order */
	'm', 'o', 'n', 'o', 0,		/* clock */
	LE64(1000000000),		/* wall_offset */
	LE16(1),			/* nr_cpus */
	'6', '.', '1', '-', 't', 'e', 's', 't', 0,	/* kernel */
	/* lket.register_sys_event: 1:1 holds a STRING syscall_name */
	LE16(LKET_RECORD_MAGIC), LE16(46), LE16(46), LE16(0),
	LE64(200), LE64(LKET_ID(0, 0, 2, 0)),
	1, 1,				/* grpid, hookid */
	'S', 'T', 'R', 'I', 'N', 'G', 0,	/* fmt */
	's', 'y', 's', 'c', 'a', 'l', 'l', '_', 'n', 'a', 'm', 'e', 0,
	/* lket.register_sys_event again, contradicting it */
	LE16(LKET_RECORD_MAGIC), LE16(34), LE16(34), LE16(0),
	LE64(300), LE64(LKET_ID(0, 0, 2, 0)),
	1, 1,				/* grpid, hookid */
	'I', 'N', 'T', '3', '2', 0,	/* fmt */
	'x', 0,				/* names */
	/* lket.task_new: tid 7 of process 7, parent 1, "bash" */
	LE16(LKET_RECORD_MAGIC), LE16(41), LE16(41), LE16(0),
	LE64(400), LE64(LKET_ID(1, 0, 7, 0)),
	LE32(7), LE32(7), LE32(1),	/* tid, pid, ppid */
	'b', 'a', 's', 'h', 0,		/* process_name */
	/* 1:1 of tid 7, decoded by the registered fields */
	LE16(LKET_RECORD_MAGIC), LE16(29), LE16(29), LE16(0),
	LE64(500), LE64(LKET_ID(7, 1, 1, 0)),
	'r', 'e', 'a', 'd', 0,		/* syscall_name */
	/* lket.packet: 3 records dropped since the frame before */
	LE16(LKET_RECORD_MAGIC), LE16(28), LE16(28), LE16(0),
	LE64(600), LE64(LKET_ID(0, 0, 5, 0)),
	LE32(3),			/* discarded */
};

static void test_records(void **state)
{
	char path[PATH_MAX_UNIT];
	const char *paths[1] = { path };
	struct convert_stats stats;
	struct diag_log diag;
	struct log_output out;

	(void)state;
	if (host_big_endian())
		skip();
	unit_write(path, sizeof(path), "m_0", trace, sizeof(trace));
	diag_log_init(&diag);
	log_output_init(&out, &log_ops);
	assert_int_equal(convert(paths, 1, &out.o, &diag.d, &stats), 0);
	/* the task record names tid 7 before its event; the packet's
	 * records are a gap after it */
	assert_string_equal(out.log,
			    "begin\n"
			    "process 400 tid 7 pid 7 ppid 1 lket.task_new\n"
			    "event 1:1 500 cpu 0 tid 7 pid 7\n"
			    "lost 0-0 records cpu 0\n"
			    "finish\n");
	/* group 0: the header, two registrations, the task, the packet */
	assert_int_equal(stats.meta, 5);
	assert_int_equal(stats.dropped, 3);
	assert_int_equal(diag.n, 2);
	assert_diag(&diag, 0, DIAG_DAMAGE, path, 112,
		    "register_sys_event for 1:1 contradicts an earlier one: ignored");
	/* the dropped records: a loss the summary sums, not damage */
	assert_int_equal(diag.e[1].level, DIAG_LOSS);
	assert_int_equal(diag.d.damage, 2);
}

UNIT_MAIN("metarec", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_records))
