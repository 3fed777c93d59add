/* SPDX-License-Identifier: GPL-2.0 */
/*
 * line_sink.h - what the line output tests share: an output writing to a
 * fresh file in the test folder, fed records decoded from fixtures, and
 * what it wrote compared byte for byte.
 */
#ifndef LKET_LINE_SINK_H
#define LKET_LINE_SINK_H

#include "unit.h"

#include "analysis/filter.h"
#include "decode/meta.h"
#include "output/output.h"

/* no filter: every event selected */
static const struct selection sink_all = { .passed = true, .record = true };

typedef int (*line_new_fn)(struct output **o, int fd,
			   const struct text_options *opt);

struct sink {
	struct output *o;
	int fd;
	char text[4096];
};

/* An output made by make, writing to name in the test folder, begun. */
static inline void sink_open_with(struct sink *k, line_new_fn make,
				  const char *name,
				  const struct text_options *opt,
				  const struct trace_info *info)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", unit_dir, name);
	k->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(k->fd >= 0);
	assert_int_equal(make(&k->o, k->fd, opt), 0);
	assert_int_equal(k->o->ops->begin(k->o, info), 0);
}

/* The record rec (a fixture, header first) decoded by meta, to k. */
static inline void sink_record(struct sink *k, const struct meta *meta,
			       const uint8_t *rec, const struct proc *proc)
{
	struct stream s = { .swap = host_big_endian() };
	struct event ev = { 0 };

	s.rec.data = rec;
	s.rec.size = stream_u16(&s, rec + 2);
	s.rec.sys_size = stream_u16(&s, rec + 4);
	s.rec.timestamp = stream_u64(&s, rec + 8);
	s.rec.id = stream_u64(&s, rec + 16);
	assert_int_equal(decode_record(meta, &s, &ev), 0);
	/* as the converter hands it without a filter */
	if (k->o->ops->every)
		assert_int_equal(k->o->ops->every(k->o, &ev, proc, &sink_all), 0);
	assert_int_equal(k->o->ops->event(k->o, &ev, proc), 0);
}

/* Finish, and compare what was written with want. */
static inline void sink_expect(struct sink *k, const char *want)
{
	ssize_t n;

	assert_int_equal(k->o->ops->finish(k->o), 0);
	k->o->ops->free(k->o);
	n = pread(k->fd, k->text, sizeof(k->text) - 1, 0);
	assert_true(n >= 0);
	k->text[n] = '\0';
	assert_string_equal(k->text, want);
	close(k->fd);
}

#endif
