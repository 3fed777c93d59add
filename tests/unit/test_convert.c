// SPDX-License-Identifier: GPL-2.0
/*
 * convert: the per-CPU files merged by time into one output, the trace
 * context handed over once at begin, lost flushes, the statistics, and
 * what an output's failure does to the conversion.
 */
#include "unit.h"
#include "log_output.h"

#include "pipeline/convert.h"

/* An event 200:9, which nothing describes, of tid on cpu at ts */
#define REC(ts, tid, cpu)						\
	LE16(LKET_RECORD_MAGIC),	/* magic */			\
	LE16(28),			/* total_size */		\
	LE16(28),			/* sys_size */			\
	LE16(0),			/* flags */			\
	LE64(ts),			/* timestamp */			\
	LE64(LKET_ID(tid, 200, 9, cpu)),	/* id */		\
	0xde, 0xad, 0xbe, 0xef		/* fields */

/* CPU 0: flushes 1 and 4 (SystemTap 4.7-4.9 framing) */
static const uint8_t cpu0[] = {
	LE32(1), LE32(28),		/* sequence, pdu_len */
	REC(1000, 10, 0),
	LE32(4), LE32(56),
	REC(3000, 10, 0),
	REC(4000, 12, 0),
};

/* CPU 1: flush 2, between CPU 0's */
static const uint8_t cpu1[] = {
	LE32(2), LE32(28),
	REC(2000, 11, 1),
};

struct fixture {
	char p0[PATH_MAX_UNIT], p1[PATH_MAX_UNIT];
	const char *paths[2];
	struct diag_log diag;
	struct log_output out;
	struct convert_stats stats;
};

static void fixture_init(struct fixture *f, const struct output_ops *ops)
{
	unit_write(f->p0, sizeof(f->p0), "t_0", cpu0, sizeof(cpu0));
	unit_write(f->p1, sizeof(f->p1), "t_1", cpu1, sizeof(cpu1));
	f->paths[0] = f->p0;
	f->paths[1] = f->p1;
	diag_log_init(&f->diag);
	log_output_init(&f->out, ops);
}

static int run(struct fixture *f)
{
	return convert(f->paths, 2, &f->out.o, &f->diag.d, &f->stats);
}

static void test_merged(void **state)
{
	struct fixture f;

	(void)state;
	if (host_big_endian())
		skip();
	fixture_init(&f, &log_ops);
	assert_int_equal(run(&f), 0);
	/* without a header the flushes are numbered across CPUs: flush 3
	 * is known lost once every file is read */
	assert_string_equal(f.out.log,
			    "begin\n"
			    "event 200:9 1000 cpu 0 tid 10 pid -1\n"
			    "event 200:9 2000 cpu 1 tid 11 pid -1\n"
			    "event 200:9 3000 cpu 0 tid 10 pid -1\n"
			    "event 200:9 4000 cpu 0 tid 12 pid -1\n"
			    "lost 3-3 cpu -1\n"
			    "finish\n");
	assert_int_equal(f.stats.events, 4);
	assert_int_equal(f.stats.lost, 1);
	assert_int_equal(f.stats.files, 2);
	assert_int_equal(f.stats.bytes, sizeof(cpu0) + sizeof(cpu1));
	/* the converter frees nothing of the output's */
	assert_false(f.out.freed);
}

/* What begin handed over was filled in before the first event, and the
 * output may read it until finish. */
struct trace_check {
	struct log_output l;
	uint64_t first_ts;
	size_t nfiles;
	bool have_header;
};

static int check_event(struct output *o, const struct event *ev,
		       const struct proc *proc)
{
	struct trace_check *c = (struct trace_check *)o;

	c->first_ts = c->l.trace->first_ts;
	c->nfiles = c->l.trace->nfiles;
	c->have_header = c->l.trace->have_header;
	return log_event(o, ev, proc);
}

static void test_trace_context(void **state)
{
	static const struct output_ops ops = {
		.begin = log_begin,
		.event = check_event,
		.lost = log_lost,
		.finish = log_finish,
		.free = log_free,
	};
	struct trace_check c;
	struct fixture f;

	(void)state;
	if (host_big_endian())
		skip();
	fixture_init(&f, &ops);
	memset(&c, 0, sizeof(c));
	c.l = f.out;
	assert_int_equal(convert(f.paths, 2, &c.l.o, &f.diag.d, &f.stats), 0);
	assert_int_equal(c.first_ts, 1000);
	assert_int_equal(c.nfiles, 2);
	assert_false(c.have_header);
}

/* An output that fails stops the conversion with its error. */
static void test_output_fails(void **state)
{
	static const char *const ops[] = { "event", "lost", "finish" };
	struct fixture f;
	const char *last;
	size_t i;

	(void)state;
	if (host_big_endian())
		skip();
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		fixture_init(&f, &log_ops);
		f.out.fail_op = ops[i];
		f.out.fail_err = -ENOSPC;
		assert_int_equal(run(&f), -ENOSPC);
		assert_true(f.out.failed);
		/* nothing after the failure: the last call is the one */
		last = f.out.log + f.out.len - 1;
		while (last > f.out.log && last[-1] != '\n')
			last--;
		assert_memory_equal(last, ops[i], strlen(ops[i]));
	}
}

/* A database that cannot open: no file is read. */
static void test_begin_fails(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f, &log_ops);
	f.out.fail_op = "begin";
	f.out.fail_err = -ECONNREFUSED;
	assert_int_equal(run(&f), -ECONNREFUSED);
	assert_string_equal(f.out.log, "begin\n");
	assert_int_equal(f.stats.files, 0);
	assert_int_equal(f.diag.n, 0);
}

/* No file can be read: -ENOENT, each reported. */
static void test_no_files(void **state)
{
	const char *paths[1] = { "/nonexistent/lket/t_0" };
	struct convert_stats stats;
	struct diag_log diag;
	struct log_output out;

	(void)state;
	diag_log_init(&diag);
	log_output_init(&out, &log_ops);
	assert_int_equal(convert(paths, 1, &out.o, &diag.d, &stats),
			 -ENOENT);
	assert_int_equal(stats.files, 0);
	assert_int_equal(diag.n, 1);
	assert_string_equal(out.log, "begin\n");
}

/*
 * A file that neither starts as LKET's files do nor holds a record that
 * metadata or the catalogue decodes is no trace: named; when no file
 * given is one, the conversion is refused (-ENOMSG).
 */
static void test_not_trace(void **state)
{
	static const uint8_t text_then_flush[] = {
		'n', 'o', 't', 'e', 's', '\n',	/* @0 text */
		LE32(2), LE32(28),		/* @6 what reads as a flush */
		REC(2000, 11, 1),		/* of 200:9, unknown */
	};
	struct fixture f;
	char path[PATH_MAX_UNIT];

	(void)state;
	if (host_big_endian())
		skip();
	fixture_init(&f, &log_ops);
	unit_write(path, sizeof(path), "x_1", text_then_flush,
		   sizeof(text_then_flush));
	f.paths[0] = path;
	assert_int_equal(convert(f.paths, 1, &f.out.o, &f.diag.d, &f.stats),
			 -ENOMSG);
	assert_diag(&f.diag, 0, DIAG_DAMAGE, path, 0,
		    "6 bytes of garbage skipped");
	assert_diag(&f.diag, 1, DIAG_DAMAGE, path, -1,
		    "not a trace: it starts with no LKET flush nor record, and none of what read as records in it is LKET's");
	/* beside a file that is LKET's: named (what read as a record in
	 * it is converted, as garbage in a trace's file is), the other
	 * converted */
	fixture_init(&f, &log_ops);
	f.paths[1] = path;
	assert_int_equal(run(&f), 0);
	assert_int_equal(f.stats.events, 4);
	assert_int_equal(f.diag.n, 3);
	assert_diag(&f.diag, 0, DIAG_DAMAGE, path, 0,
		    "6 bytes of garbage skipped");
	/* flush 3, of no file */
	assert_int_equal(f.diag.e[1].level, DIAG_LOSS);
	assert_diag(&f.diag, 2, DIAG_DAMAGE, path, -1,
		    "not a trace: it starts with no LKET flush nor record, and none of what read as records in it is LKET's");
}

UNIT_MAIN("convert", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_merged), UNIT_TEST(test_trace_context),
	  UNIT_TEST(test_output_fails), UNIT_TEST(test_begin_fails),
	  UNIT_TEST(test_no_files), UNIT_TEST(test_not_trace))
