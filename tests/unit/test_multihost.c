// SPDX-License-Identifier: GPL-2.0
/*
 * multihost: several hosts' traces merged into one output, each event
 * with its host; clocks without RPC pairs left as they are, and said so.
 * (Alignment by RPC pairs: test_align, and the golden hosts case.)
 */
#include "unit.h"
#include "log_output.h"

#include "pipeline/multihost.h"

/* An event 200:9, which nothing describes, of tid on cpu at ts */
#define REC(ts, tid, cpu)						\
	LE16(LKET_RECORD_MAGIC),	/* magic */			\
	LE16(28),			/* total_size */		\
	LE16(28),			/* sys_size */			\
	LE16(0),			/* flags */			\
	LE64(ts),			/* timestamp */			\
	LE64(LKET_ID(tid, 200, 9, cpu)),	/* id */		\
	0xde, 0xad, 0xbe, 0xef		/* fields */

/* host a, CPU 0: flush 1 (SystemTap 4.7-4.9 framing) */
static const uint8_t host_a[] = {
	LE32(1), LE32(56),		/* sequence, pdu_len */
	REC(1000, 10, 0),
	REC(3000, 10, 0),
};

/* host b, CPU 0: the same thread ID, another thread */
static const uint8_t host_b[] = {
	LE32(1), LE32(56),
	REC(2000, 10, 0),
	REC(3000, 11, 0),
};

static void test_merged(void **state)
{
	char pa[PATH_MAX_UNIT], pb[PATH_MAX_UNIT];
	const char *a[] = { pa }, *b[] = { pb };
	const struct host_trace hosts[] = { { "a", a, 1 }, { "b", b, 1 } };
	struct host_clock clocks[2];
	struct convert_stats stats;
	struct diag_log diag;
	struct log_output out;

	(void)state;
	if (host_big_endian())
		skip();
	unit_write(pa, sizeof(pa), "a_0", host_a, sizeof(host_a));
	unit_write(pb, sizeof(pb), "b_0", host_b, sizeof(host_b));
	diag_log_init(&diag);
	log_output_init(&out, &log_ops);
	assert_int_equal(convert_hosts(hosts, 2, &out.o, &diag.d, &stats,
				       NULL, clocks), 0);
	/* equal times: the host given first goes first */
	assert_string_equal(out.log,
			    "begin\n"
			    "event 200:9 1000 cpu 0 tid 10 pid -1 host a\n"
			    "event 200:9 2000 cpu 0 tid 10 pid -1 host b\n"
			    "event 200:9 3000 cpu 0 tid 10 pid -1 host a\n"
			    "event 200:9 3000 cpu 0 tid 11 pid -1 host b\n"
			    "finish\n");
	assert_int_equal(clocks[0].status, 1);
	assert_int_equal(clocks[1].status, -ENODATA);
	assert_false(clocks[1].wall);
	assert_int_equal(clocks[1].clock.offset, 0);
	assert_int_equal(stats.events, 4);
	assert_int_equal(stats.files, 2);
	assert_int_equal(stats.lost, 0);
	assert_diag(&diag, 0, DIAG_NOTE, "", -1,
		    "host b: no RPC pairs with host a: its clock is put on a's by nothing (a trace has no header): as recorded");
	assert_int_equal(diag.n, 1);
}

/* A host none of whose files can be read: that host is named. */
static void test_no_files(void **state)
{
	char pa[PATH_MAX_UNIT], pb[PATH_MAX_UNIT];
	const char *a[] = { pa }, *b[] = { pb };
	const struct host_trace hosts[] = { { "a", a, 1 }, { "b", b, 1 } };
	struct host_clock clocks[2];
	struct convert_stats stats;
	struct diag_log diag;
	struct log_output out;

	(void)state;
	unit_write(pa, sizeof(pa), "a_0", host_a, sizeof(host_a));
	snprintf(pb, sizeof(pb), "%s/nosuch_0", unit_dir);
	diag_log_init(&diag);
	log_output_init(&out, &log_ops);
	assert_int_equal(convert_hosts(hosts, 2, &out.o, &diag.d, &stats,
				       NULL, clocks), -ENOENT);
	assert_false(clocks[0].no_files);
	assert_true(clocks[1].no_files);
}

UNIT_MAIN("multihost", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_merged), UNIT_TEST(test_no_files))
