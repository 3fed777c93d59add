// SPDX-License-Identifier: GPL-2.0
/* out_timechart: the picture of a few context switches, and its bound
 * (out_timechart.c, tchart_draw.c). */
#include "unit.h"
#include "svg_fixture.h"

#include "output/chart/chart.h"
#include "output/output.h"

/* tskdispatch.ctxswitch of tid from to tid to on CPU 0 at ts */
#define CTXSWITCH(ts, from, to, sleeping) {				\
	LE16(LKET_RECORD_MAGIC),	/* magic */			\
	LE16(33), LE16(33),		/* total_size, sys_size */	\
	LE16(0),			/* flags */			\
	LE64(ts),			/* timestamp */			\
	LE64(LKET_ID(from, 4, 1, 0)),	/* tid, 4:1, CPU 0 */		\
	LE32(from),			/* prev_pid */			\
	LE32(to),			/* next_pid */			\
	sleeping,			/* prev_state */		\
}

static const uint8_t switches[][33] = {
	CTXSWITCH(1000000000ull, 0, 7, 0),	/* idle -> 7 */
	CTXSWITCH(1000002000ull, 7, 8, 0),	/* 7 preempted by 8 */
	CTXSWITCH(1000003000ull, 8, 0, 1),	/* 8 sleeps, idle */
};

static void test_out_timechart(void **state)
{
	struct trace_info info = {
		.have_header = true, .wall_offset = 1764421200000000000ll,
		.kernel = "6.1<test>",
	};
	struct stream s = { .swap = host_big_endian() };
	struct meta meta;
	struct output *o;
	struct event ev;
	char path[PATH_MAX_UNIT], *svg = malloc(1 << 20);
	size_t i;
	int fd;

	(void)state;
	assert_non_null(svg);
	assert_int_equal(meta_init(&meta), 0);
	assert_int_equal(meta_register(&meta, 4, 1, false, "INT32:INT32:INT8",
				       "prev_pid:next_pid:prev_state"), 0);
	assert_int_equal(meta_name(&meta, 4, 1, "tskdispatch.ctxswitch"), 0);
	snprintf(path, sizeof(path), "%s/tc.svg", unit_dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(output_timechart_new(&o, fd, 1, 0), 0);
	assert_int_equal(o->ops->begin(o, &info), 0);
	for (i = 0; i < sizeof(switches) / sizeof(switches[0]); i++) {
		s.rec.data = switches[i];
		s.rec.size = s.rec.sys_size = sizeof(switches[i]);
		s.rec.timestamp = 1000000000ull + (i ? 1000 * (i + 1) : 0);
		s.rec.id = LKET_ID(i == 1 ? 7 : i == 2 ? 8 : 0, 4, 1, 0);
		assert_int_equal(decode_record(&meta, &s, &ev), 0);
		assert_int_equal(o->ops->event(o, &ev, NULL), 0);
	}
	assert_int_equal(o->ops->finish(o), 0);
	o->ops->free(o);
	close(fd);
	meta_free(&meta);

	unit_read("tc.svg", svg, 1 << 20);
	assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	assert_non_null(strstr(svg, "start 2025-11-29 13:00:01.000000 UTC"));
	assert_non_null(strstr(svg, "kernel 6.1&lt;test&gt;"));
	/* one CPU lane: 7 then 8, idle blank */
	assert_int_equal(count(svg, "data-kind=\"cpu\""), 1);
	assert_int_equal(count(svg, "class=\"box\" data-tid=\"7\""), 1);
	assert_int_equal(count(svg, "class=\"box\" data-tid=\"8\""), 1);
	/* procs 1: the busiest (7, 2 us on the CPU) has a lane, 8 is in
	 * others: running, then waiting, then sleeping */
	assert_int_equal(count(svg, "data-kind=\"task\" data-y"), 1);
	assert_non_null(strstr(svg, "data-tid=\"7\">"));
	assert_non_null(strstr(svg, "others (1 tasks)"));
	assert_int_equal(count(svg, "data-state=\"run\""), 2);
	assert_int_equal(count(svg, "data-state=\"wait\""), 1);
	/* every box has a title; what the trace lacks is said */
	assert_true(count(svg, "class=\"box\"") >= 3);
	assert_true(count(svg, "</title></rect>") >=
		    count(svg, "class=\"box\""));
	assert_non_null(strstr(svg, "No system calls"));
	assert_null(strstr(svg, "No context switches"));
	assert_non_null(strstr(svg, "</svg>\n"));
	free(svg);
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * The timechart (into name) of n context switches on CPU 0, 1 us apart,
 * among tids 1..5; returns the file's size and, in boxes, its boxes.
 */
static size_t chart_of_switches(const char *name, unsigned int n,
				uint64_t max_bytes, size_t *boxes)
{
	struct stream s = { .swap = host_big_endian() };
	struct meta meta;
	struct output *o;
	struct event ev;
	uint8_t rec[33];
	char path[PATH_MAX_UNIT], *svg = malloc(TIMECHART_MAX_BYTES);
	uint32_t from = 0, to;
	size_t size;
	unsigned int i;
	int fd;

	assert_non_null(svg);
	assert_int_equal(meta_init(&meta), 0);
	assert_int_equal(meta_register(&meta, 4, 1, false, "INT32:INT32:INT8",
				       "prev_pid:next_pid:prev_state"), 0);
	assert_int_equal(meta_name(&meta, 4, 1, "tskdispatch.ctxswitch"), 0);
	snprintf(path, sizeof(path), "%s/%s", unit_dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(output_timechart_new(&o, fd, 5, max_bytes), 0);
	assert_int_equal(o->ops->begin(o, NULL), 0);
	for (i = 0; i < n; i++, from = to) {
		to = 1 + i % 5;
		/* magic, total_size, sys_size, flags, timestamp, id */
		put_le(rec, LKET_RECORD_MAGIC, 2);
		put_le(rec + 2, sizeof(rec), 2);
		put_le(rec + 4, sizeof(rec), 2);
		put_le(rec + 6, 0, 2);
		put_le(rec + 8, 1000000ull * (i + 1), 8);
		put_le(rec + 16, LKET_ID(from, 4, 1, 0), 8);
		/* prev_pid, next_pid, prev_state */
		put_le(rec + 24, from, 4);
		put_le(rec + 28, to, 4);
		rec[32] = (uint8_t)(i & 1);
		s.rec.data = rec;
		s.rec.size = s.rec.sys_size = sizeof(rec);
		s.rec.timestamp = 1000000ull * (i + 1);
		s.rec.id = LKET_ID(from, 4, 1, 0);
		assert_int_equal(decode_record(&meta, &s, &ev), 0);
		assert_int_equal(o->ops->event(o, &ev, NULL), 0);
	}
	assert_int_equal(o->ops->finish(o), 0);
	o->ops->free(o);
	close(fd);
	meta_free(&meta);
	size = unit_read(name, svg, TIMECHART_MAX_BYTES);
	*boxes = count(svg, "class=\"box\"");
	assert_non_null(strstr(svg, "</svg>\n"));
	free(svg);
	return size;
}

/* A picture larger than its bound is drawn in coarser columns. */
static void test_bound(void **state)
{
	size_t full, boxes, small, fewer;

	(void)state;
	full = chart_of_switches("full.svg", 800, 0, &boxes);
	/* 800 us in 1000 columns: one box a switch on the CPU, and one
	 * per state change on the tasks' lanes */
	assert_true(boxes > 800);
	small = chart_of_switches("small.svg", 800, full / 3, &fewer);
	assert_true(small <= full / 3);
	assert_true(fewer > 0 && fewer < boxes / 3);
}

UNIT_MAIN("out_timechart", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_out_timechart), UNIT_TEST(test_bound))
