// SPDX-License-Identifier: GPL-2.0
/*
 * timechart, svg, out_timechart, out_histogram: columns that widen and
 * keep every nanosecond, text made safe for XML, and the pictures of a
 * few context switches and of a latency report.
 */
#include "output/chart/chart.h"
#include "unit.h"

#include "analysis/report.h"
#include "output/chart/svg.h"
#include "output/chart/timechart.h"
#include "output/output.h"

static uint64_t lane_ns(const struct tc_lane *l, enum tc_state st)
{
	uint64_t ns = 0;
	size_t i;

	for (i = 0; i < TC_COLUMNS; i++)
		ns += l->col[i].ns[st];
	return ns;
}

static void test_widen(void **state)
{
	struct timechart tc;
	struct tc_lane *a, *b;
	size_t i;
	uint32_t ended = 0;

	(void)state;
	tc_init(&tc);
	a = tc_lane_new(&tc);
	b = tc_lane_new(&tc);
	assert_non_null(a);
	assert_non_null(b);
	/* 1 ns a column at first: 500 columns */
	tc_span(&tc, a, 1000, 1500, TC_SYSCALL);
	assert_int_equal(tc.width, 1);
	assert_int_equal(tc_used(&tc), 500);
	tc_mark(&tc, a, 1200, TC_FORK);
	/* a second later: columns of 2^20 ns (1000 of them > 1 s) */
	tc_span(&tc, a, 1500, 1000001000ull, TC_SLEEP);
	tc_request(&tc, b, 5000, 1000000000ull);
	assert_int_equal(tc.width, 1u << 20);
	assert_true(tc_used(&tc) > TC_COLUMNS / 2);
	assert_true(tc_used(&tc) <= TC_COLUMNS);
	/* not a nanosecond lost in the merges */
	assert_int_equal(lane_ns(a, TC_SYSCALL), 500);
	assert_int_equal(lane_ns(a, TC_SLEEP), 1000001000ull - 1500);
	assert_int_equal(lane_ns(b, TC_RUN), 1000000000ull - 5000);
	assert_int_equal(a->col[0].mark[TC_FORK], 1);
	for (i = 0; i < TC_COLUMNS; i++) {
		ended += b->col[i].count;
		if (b->col[i].count)
			assert_int_equal(b->col[i].longest,
					 1000000000ull - 5000);
	}
	assert_int_equal(ended, 1);
	/* time going back: column 0 */
	assert_int_equal(tc_column(&tc, 10), 0);
	tc_free(&tc);
}

static void test_run_top(void **state)
{
	struct timechart tc;
	struct tc_lane *cpu;

	(void)state;
	tc_init(&tc);
	cpu = tc_lane_new(&tc);
	tc_column(&tc, 0);
	tc_column(&tc, 9999);	/* 10 ns a column, 16 after doubling */
	tc_run(&tc, cpu, 0, 3, 7);
	tc_run(&tc, cpu, 3, 12, 8);
	/* column 0 (0..15): tid 8 ran longest in one stretch */
	assert_int_equal(tc.width, 16);
	assert_int_equal(cpu->col[0].ns[TC_RUN], 12);
	assert_int_equal(cpu->col[0].top_tid, 8);
	tc_free(&tc);
}

static void test_svg_text(void **state)
{
	char out[SVG_TEXT_ROOM(32)], d[32];

	(void)state;
	svg_text(out, sizeof(out), "a<b>&\"c'\x01 caf\xc3\xa9 \xff", 32);
	assert_string_equal(out,
		"a&lt;b&gt;&amp;&quot;c&apos;\\x01 caf\xc3\xa9 \\xff");
	/* cut where it fits, never inside an entity */
	svg_text(out, 8, "<<<", 3);
	assert_string_equal(out, "&lt;");
	svg_duration(d, sizeof(d), 850);
	assert_string_equal(d, "850 ns");
	svg_duration(d, sizeof(d), 12500);
	assert_string_equal(d, "12.5 us");
	svg_duration(d, sizeof(d), 3200000);
	assert_string_equal(d, "3.20 ms");
	svg_wall(d, sizeof(d), 1764421205000001000ll);
	assert_string_equal(d, "2025-11-29 13:00:05.000001 UTC");
	/* unsigned ns since 1970: past 2^63 is 2262, not before 1970 */
	svg_wall(d, sizeof(d), 9223372040854776000ull);
	assert_string_equal(d, "2262-04-11 23:47:20.854776 UTC");
	assert_int_equal(svg_tick_step(5130000, 10), 500000);
	assert_int_equal(svg_tick_step(1000, 10), 100);
	assert_int_equal(svg_tick_step(3000, 10), 500);
}

static size_t read_svg(const char *name, char *buf, size_t size)
{
	char path[PATH_MAX_UNIT];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", unit_dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = read(fd, buf, size - 1);
	assert_true(n >= 0);
	buf[n] = '\0';
	close(fd);
	return (size_t)n;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

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

	read_svg("tc.svg", svg, 1 << 20);
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
	size = read_svg(name, svg, TIMECHART_MAX_BYTES);
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

/* syscall.entry / syscall.return of tid 5 "read", at ts */
#define SYSCALL(ts, hook) {						\
	LE16(LKET_RECORD_MAGIC), LE16(29), LE16(29), LE16(0),		\
	LE64(ts),			/* timestamp */			\
	LE64(LKET_ID(5, 1, hook, 0)),	/* tid 5, 1:hook, CPU 0 */	\
	'r', 'e', 'a', 'd', 0,		/* syscall_name */		\
}

static void test_out_histogram(void **state)
{
	static const uint8_t recs[][29] = {
		SYSCALL(1000, 1), SYSCALL(1100, 2),	/* 100 ns */
		SYSCALL(2000, 1), SYSCALL(5000, 2),	/* 3000 ns */
	};
	struct stream s = { .swap = host_big_endian() };
	struct report *r;
	struct meta meta;
	struct output *o;
	struct event ev;
	char path[PATH_MAX_UNIT], *svg = malloc(1 << 16);
	size_t i;
	int fd;

	(void)state;
	assert_non_null(svg);
	assert_int_equal(meta_init(&meta), 0);
	for (i = 1; i <= 2; i++) {
		assert_int_equal(meta_register(&meta, 1, (unsigned int)i,
					       false, "STRING",
					       "syscall_name"), 0);
		assert_int_equal(meta_name(&meta, 1, (unsigned int)i,
					   i == 1 ? "syscall.entry" :
					   "syscall.return"), 0);
	}
	assert_int_equal(report_new(&r), 0);
	for (i = 0; i < 4; i++) {
		s.rec.data = recs[i];
		s.rec.size = s.rec.sys_size = sizeof(recs[i]);
		s.rec.timestamp = i == 0 ? 1000 : i == 1 ? 1100 :
				  i == 2 ? 2000 : 5000;
		s.rec.id = LKET_ID(5, 1, 1 + (i & 1), 0);
		assert_int_equal(decode_record(&meta, &s, &ev), 0);
		assert_int_equal(report_event(r, &ev, NULL, true), 0);
	}
	assert_int_equal(report_finish(r), 0);
	snprintf(path, sizeof(path), "%s/h.svg", unit_dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(output_histogram_new(&o, fd), 0);
	assert_int_equal(o->ops->begin(o, NULL), 0);
	assert_int_equal(o->ops->report(o, r), 0);
	report_free(r);		/* the histogram keeps its own copy */
	assert_int_equal(o->ops->finish(o), 0);
	o->ops->free(o);
	close(fd);
	meta_free(&meta);

	read_svg("h.svg", svg, 1 << 16);
	assert_int_equal(count(svg, "class=\"histogram\""), 1);
	assert_non_null(strstr(svg, "data-what=\"syscall(read)\" data-count=\"2\""));
	/* 100 ns in bucket 6 (64..127), 3000 ns in bucket 11 (2048..4095) */
	assert_non_null(strstr(svg, "data-bucket=\"6\" data-count=\"1\""));
	assert_non_null(strstr(svg, "data-bucket=\"11\" data-count=\"1\""));
	assert_int_equal(count(svg, "class=\"bar\""), 2);
	assert_non_null(strstr(svg, "data-name=\"p50\" data-ns=\"100\""));
	assert_non_null(strstr(svg, "data-name=\"max\" data-ns=\"3000\""));
	assert_null(strstr(svg, "no latencies"));
	free(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_widen),
		cmocka_unit_test(test_run_top),
		cmocka_unit_test(test_svg_text),
		cmocka_unit_test(test_out_timechart),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_out_histogram),
	};

	return cmocka_run_group_tests_name("timechart", tests,
					   unit_dir_setup, unit_dir_teardown);
}
