// SPDX-License-Identifier: GPL-2.0
/* out_histogram: the picture of a latency report. */
#include "unit.h"
#include "svg_fixture.h"

#include "analysis/filter.h"
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

/* The SVG of a report of tid 5's read() calls, of latencies lat[]
 * (n of them, at most 200): malloc'd. */
static char *picture(const uint64_t *lat, size_t n)
{
	struct stream s = { .swap = host_big_endian() };
	const struct selection sel = { .passed = true, .record = true };
	uint8_t rec[2][29] = { SYSCALL(0, 1), SYSCALL(0, 2) };
	char path[PATH_MAX_UNIT], *svg = malloc(1 << 16);
	uint64_t ts = 1000;
	struct report *r;
	struct meta meta;
	struct output *o;
	struct event ev;
	size_t i, k;
	int fd;

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
	for (i = 0; i < 2 * n; i++) {
		k = i & 1;
		s.rec.data = rec[k];
		s.rec.size = s.rec.sys_size = sizeof(rec[k]);
		s.rec.timestamp = ts;
		s.rec.id = LKET_ID(5, 1, 1 + k, 0);
		assert_int_equal(decode_record(&meta, &s, &ev), 0);
		assert_int_equal(report_event(r, &ev, NULL, &sel), 0);
		ts += k ? 1000 : lat[i / 2];
	}
	assert_int_equal(report_finish(r), 0);
	snprintf(path, sizeof(path), "%s/h.svg", unit_dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(output_histogram_new(&o, fd), 0);
	assert_int_equal(o->ops->begin(o, NULL), 0);
	assert_int_equal(o->ops->report(o, r), 0);
	report_free(r);
	assert_int_equal(o->ops->finish(o), 0);
	o->ops->free(o);
	close(fd);
	meta_free(&meta);
	unit_read("h.svg", svg, 1 << 16);
	return svg;
}

/* The box of the text of one percentile's label: x from, x to, y. */
struct box {
	double x0, x1;
	int y;
};

/* The percentiles' labels of svg, their boxes as the picture lays them
 * out (0.68 em a character, at font size 9). */
static size_t label_boxes(const char *svg, struct box *b, size_t max)
{
	const char *p = svg, *t, *end;
	size_t n = 0, chars;

	while (n < max && (p = strstr(p, "<g class=\"pct\"")) &&
	       (t = strstr(p, "<text x=\""))) {
		assert_int_equal(sscanf(t, "<text x=\"%lf\" y=\"%d\"",
					&b[n].x0, &b[n].y), 2);
		t = strchr(t, '>') + 1;
		end = strstr(t, "</text>");
		for (chars = 0; t < end; t++)
			chars += ((uint8_t)*t & 0xc0) != 0x80;
		b[n].x1 = b[n].x0 + (double)chars * 0.68 * 9;
		n++;
		p = end;
	}
	return n;
}

/*
 * No percentile's label on another's: p90 right of its line near the
 * page's edge, p99 and max left of theirs at the edge, across p90's
 * line (a row had been given to both, one on the other), for p90 and
 * p99 at places across the last bucket.
 */
static void test_labels_apart(void **state)
{
	uint64_t lat[100];
	struct box b[4];
	size_t i, j, k, n;
	unsigned int p90, p99;
	char *svg;

	(void)state;
	for (p90 = 0; p90 < 16; p90++)
		for (p99 = 8; p99 < 16; p99++) {
			/* p50 10 us; p90 and p99 in 2^20..2^21 ns, the
			 * last bucket of 8 */
			for (i = 0; i < 100; i++)
				lat[i] = i < 60 ? 10000 :
					 i < 95 ? (1ull << 20) + (p90 << 16) :
					 (1ull << 20) + (p99 << 16);
			svg = picture(lat, 100);
			n = label_boxes(svg, b, 4);
			assert_int_equal(n, 4);
			for (j = 0; j < n; j++)
				for (k = j + 1; k < n; k++)
					if (b[j].y == b[k].y &&
					    b[j].x0 < b[k].x1 &&
					    b[k].x0 < b[j].x1)
						fail_msg("p90 at +%u, p99 at +%u: labels %zu and %zu on one another at y %d",
							 p90, p99, j, k, b[j].y);
			free(svg);
		}
}

UNIT_MAIN("out_histogram", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_out_histogram), UNIT_TEST(test_labels_apart))
