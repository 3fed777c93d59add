// SPDX-License-Identifier: GPL-2.0
/* out_histogram: the picture of a latency report. */
#include "unit.h"
#include "svg_fixture.h"

#include "analysis/report.h"
#include "output/chart/chart.h"
#include "output/output.h"

/* syscall.entry / syscall.return of tid 5 "read", at ts */
#define SYSCALL(ts, hook) {						\
	LE16(LKET_RECORD_MAGIC), LE16(29), LE16(29), LE16(0),		\
	LE64(ts),			/* timestamp */			\
	LE64(LKET_ID(5, 1, hook, 0)),	/* tid 5, 1:hook, CPU 0 */	\
	'r', 'e', 'a', 'd', 0,		/* syscall_name */		\
}

/* no filter: every event selected */
static const struct selection all = { .passed = true, .record = true };

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
		assert_int_equal(report_event(r, &ev, NULL, &all), 0);
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

	unit_read("h.svg", svg, 1 << 16);
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

UNIT_MAIN("out_histogram", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_out_histogram))
