// SPDX-License-Identifier: GPL-2.0
/* merge: per-CPU streams come out by timestamp, then CPU, then sequence. */
#include "unit.h"

#include "input/merge.h"
#include "input/tracename.h"

/* A 24-byte record: common_data only, 1:1, told apart by its tid */
#define REC(ts, tid, cpu)						\
	LE16(LKET_RECORD_MAGIC),	/* magic */			\
	LE16(24),			/* total_size */		\
	LE16(24),			/* sys_size */			\
	LE16(0),			/* flags */			\
	LE64(ts),			/* timestamp */			\
	LE64(LKET_ID(tid, 1, 1, cpu))	/* id */

#define FLUSH(seq, nrec)						\
	LE32(seq),			/* sequence */			\
	LE32(24 * (nrec))		/* pdu_len */

static const uint8_t cpu0[] = {
	FLUSH(1, 2),
	REC(100, 1000, 0),
	REC(300, 1001, 0),
	FLUSH(4, 2),
	REC(300, 1002, 0),
	REC(500, 1003, 0),
};

static const uint8_t cpu1[] = {
	FLUSH(2, 2),
	REC(100, 1010, 1),
	REC(200, 1011, 1),
	FLUSH(5, 1),
	REC(300, 1012, 1),
};

static const uint8_t cpu2[] = {
	FLUSH(3, 2),
	REC(50, 1020, 2),
	REC(300, 1021, 2),
};

struct want {
	uint64_t ts;
	uint32_t tid;
	int cpu;
	uint32_t seq;
};

static void open_at_first(struct stream *s, const char *name,
			  const void *data, size_t len, struct diag_log *log)
{
	char path[256];

	unit_write(path, sizeof(path), name, data, len);
	/* the stream keeps the path: give it one that lives on */
	assert_int_equal(stream_open(s, strdup(path),
				     tracename_cpu(path), 4096, &log->d),
			 0);
	assert_int_equal(stream_next(s), 1);
}

static void close_all(struct stream *st, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free((char *)st[i].path);
		stream_close(&st[i]);
	}
}

/* Run the merge to its end; the records must come out as want says. */
static void expect_order(struct stream **order, size_t n,
			 const struct want *want, size_t nwant)
{
	struct merge m;
	struct stream *s;
	size_t i = 0;
	int cpu;

	assert_int_equal(merge_streams(&m, order, n), 0);
	while ((s = merge_peek(&m))) {
		assert_true(i < nwant);
		cpu = s->cpu >= 0 ? s->cpu : (int)LKET_ID_CPU(s->rec.id);
		assert_int_equal(s->rec.timestamp, want[i].ts);
		assert_int_equal(LKET_ID_TID(s->rec.id), want[i].tid);
		assert_int_equal(cpu, want[i].cpu);
		assert_int_equal(s->rec.seq, want[i].seq);
		i++;
		assert_int_equal(merge_advance(&m), 0);
	}
	assert_int_equal(i, nwant);
	merge_free(&m);
}

static void test_three_cpus(void **state)
{
	static const struct want want[] = {
		{ 50, 1020, 2, 3 },
		{ 100, 1000, 0, 1 },	/* equal times: CPU 0 first */
		{ 100, 1010, 1, 2 },
		{ 200, 1011, 1, 2 },
		{ 300, 1001, 0, 1 },	/* four at 300: by CPU ... */
		{ 300, 1002, 0, 4 },	/* ... then sequence */
		{ 300, 1012, 1, 5 },
		{ 300, 1021, 2, 3 },	/* CPU before sequence */
		{ 500, 1003, 0, 4 },
	};
	struct stream st[3], *order[3];
	struct diag_log log;

	(void)state;
	diag_log_init(&log);
	open_at_first(&st[0], "m_cpu0", cpu0, sizeof(cpu0), &log);
	open_at_first(&st[1], "m_cpu1", cpu1, sizeof(cpu1), &log);
	open_at_first(&st[2], "m_cpu2", cpu2, sizeof(cpu2), &log);
	/* the order given must not matter */
	order[0] = &st[2];
	order[1] = &st[0];
	order[2] = &st[1];
	expect_order(order, 3, want, sizeof(want) / sizeof(want[0]));
	order[0] = &st[1];
	order[1] = &st[2];
	order[2] = &st[0];
	close_all(st, 3);

	open_at_first(&st[0], "m_cpu0", cpu0, sizeof(cpu0), &log);
	open_at_first(&st[1], "m_cpu1", cpu1, sizeof(cpu1), &log);
	open_at_first(&st[2], "m_cpu2", cpu2, sizeof(cpu2), &log);
	expect_order(order, 3, want, sizeof(want) / sizeof(want[0]));
	close_all(st, 3);
	assert_int_equal(log.n, 0);
}

/*
 * Files whose names carry no CPU: the CPU comes from each record's id, and
 * equal times and CPUs go by sequence.
 */
static void test_cpu_from_id_then_seq(void **state)
{
	static const uint8_t x[] = {
		FLUSH(7, 1),
		REC(100, 1, 0),
	};
	static const uint8_t y[] = {
		FLUSH(3, 1),
		REC(100, 2, 0),
		FLUSH(8, 1),
		REC(100, 3, 0),
	};
	static const uint8_t z[] = {
		FLUSH(1, 1),
		REC(100, 4, 1),
	};
	static const struct want want[] = {
		{ 100, 2, 0, 3 },
		{ 100, 1, 0, 7 },
		{ 100, 3, 0, 8 },
		{ 100, 4, 1, 1 },	/* CPU 1: last despite sequence 1 */
	};
	struct stream st[3], *order[3];
	struct diag_log log;

	(void)state;
	diag_log_init(&log);
	open_at_first(&st[0], "x", x, sizeof(x), &log);
	open_at_first(&st[1], "y", y, sizeof(y), &log);
	open_at_first(&st[2], "z", z, sizeof(z), &log);
	assert_int_equal(st[0].cpu, -1);
	order[0] = &st[2];
	order[1] = &st[0];
	order[2] = &st[1];
	expect_order(order, 3, want, sizeof(want) / sizeof(want[0]));
	close_all(st, 3);
	assert_int_equal(log.n, 0);
}

static void test_empty(void **state)
{
	struct merge m;

	(void)state;
	assert_int_equal(merge_streams(&m, NULL, 0), 0);
	assert_null(merge_peek(&m));
	merge_free(&m);
}

UNIT_MAIN("merge", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_three_cpus), UNIT_TEST(test_cpu_from_id_then_seq),
	  UNIT_TEST(test_empty))
