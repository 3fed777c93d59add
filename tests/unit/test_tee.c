// SPDX-License-Identifier: GPL-2.0
/* tee: every output gets every call, in order, until one fails. */
#include "unit.h"
#include "log_output.h"

#include "output/output.h"
#include "output/tee.h"

static const struct trace_info info = { .first_ts = 5 };

static const uint8_t rec[LKET_RECORD_HEAD_SIZE];
static const struct record record = { .data = rec,
				      .size = LKET_RECORD_HEAD_SIZE,
				      .timestamp = 7 };
static const struct event ev = { .rec = &record, .tid = 3, .group = 1,
				 .hook = 2, .cpu = 1 };

static struct output *tee_of(struct log_output *a, struct log_output *b)
{
	struct output *outs[2] = { &a->o, &b->o }, *t;

	assert_int_equal(output_tee_new(&t, outs, 2), 0);
	return t;
}

static void test_all_calls(void **state)
{
	struct log_output a, b;
	struct seq_gap g = { .first = 4, .last = 6, .cpu = -1 };
	struct proc p = { .tid = 3, .pid = 2 };
	struct output *t;

	(void)state;
	log_output_init(&a, &log_ops);
	log_output_init(&b, &log_ops_bare);
	t = tee_of(&a, &b);
	assert_int_equal(t->ops->begin(t, &info), 0);
	assert_int_equal(t->ops->event(t, &ev, &p), 0);
	assert_int_equal(t->ops->lost(t, &g), 0);
	/* b has no process op: only a gets it */
	assert_int_equal(t->ops->process(t, 9, &p, 1, "process.fork", NULL), 0);
	/* nor a flush op */
	assert_int_equal(t->ops->flush(t), 0);
	assert_int_equal(t->ops->finish(t), 0);
	assert_null(t->ops->error(t));
	t->ops->free(t);
	/* the trace was handed over once, and is the converter's own */
	assert_ptr_equal(a.trace, &info);
	assert_ptr_equal(b.trace, &info);
	assert_string_equal(a.log, "begin\n"
			    "event 1:2 7 cpu 1 tid 3 pid 2\n"
			    "lost 4-6 cpu -1\n"
			    "process 9 tid 3 pid 2 ppid 1 process.fork\n"
			    "flush\n"
			    "finish\n");
	assert_string_equal(b.log, "begin\n"
			    "event 1:2 7 cpu 1 tid 3 pid 2\n"
			    "lost 4-6 cpu -1\n"
			    "finish\n");
	assert_true(a.freed && b.freed);
}

/* The first failure stops the call there; its words come back. */
static void test_failure(void **state)
{
	struct log_output a, b;
	struct output *t;

	(void)state;
	log_output_init(&a, &log_ops);
	log_output_init(&b, &log_ops);
	a.fail_op = "event";
	a.fail_err = -ENOSPC;
	a.message = "a.db: database or disk is full";
	t = tee_of(&a, &b);
	assert_int_equal(t->ops->begin(t, &info), 0);
	assert_int_equal(t->ops->event(t, &ev, NULL), -ENOSPC);
	assert_string_equal(t->ops->error(t), "a.db: database or disk is full");
	t->ops->free(t);
	assert_string_equal(b.log, "begin\n");
	assert_true(a.freed && b.freed);
}

/* The failing output's words, not the first output's. */
static void test_error_of_second(void **state)
{
	struct log_output a, b;
	struct output *t;

	(void)state;
	log_output_init(&a, &log_ops);
	log_output_init(&b, &log_ops);
	a.message = "never said";
	b.fail_op = "begin";
	b.fail_err = -ECONNREFUSED;
	b.message = "PostgreSQL: cannot connect";
	t = tee_of(&a, &b);
	assert_int_equal(t->ops->begin(t, &info), -ECONNREFUSED);
	assert_string_equal(t->ops->error(t), "PostgreSQL: cannot connect");
	t->ops->free(t);
}

/* Outputs without an error op: nothing to add to the errno. */
static void test_no_words(void **state)
{
	struct log_output a;
	struct output *t, *outs[1] = { &a.o };

	(void)state;
	log_output_init(&a, &log_ops_bare);
	a.fail_op = "finish";
	a.fail_err = -EIO;
	assert_int_equal(output_tee_new(&t, outs, 1), 0);
	assert_int_equal(t->ops->finish(t), -EIO);
	assert_null(t->ops->error(t));
	t->ops->free(t);
}

UNIT_MAIN("tee", NULL, NULL,
	  UNIT_TEST(test_all_calls), UNIT_TEST(test_failure),
	  UNIT_TEST(test_error_of_second), UNIT_TEST(test_no_words))
