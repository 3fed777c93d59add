// SPDX-License-Identifier: GPL-2.0
/* tee.c - several outputs fed the same events, as one. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "output/tee.h"

struct tee {
	struct output o;
	struct output **outs;
	size_t n;
};

static struct tee *tee_of(const struct output *o)
{
	return (struct tee *)o;
}

/* Each output's op (those that have it), until one fails. */
#define EACH(t, op, ...)						\
	do {								\
		size_t i_;						\
		int ret_;						\
									\
		for (i_ = 0; i_ < (t)->n; i_++) {			\
			if (!(t)->outs[i_]->ops->op)			\
				continue;				\
			ret_ = (t)->outs[i_]->ops->op((t)->outs[i_],	\
						      __VA_ARGS__);	\
			if (ret_)					\
				return ret_;				\
		}							\
		return 0;						\
	} while (0)

static int tee_begin(struct output *o, const struct trace_info *trace)
{
	EACH(tee_of(o), begin, trace);
}

static int tee_event(struct output *o, const struct event *ev,
		     const struct proc *proc)
{
	EACH(tee_of(o), event, ev, proc);
}

static int tee_every(struct output *o, const struct event *ev,
		     const struct proc *proc, const struct selection *sel)
{
	EACH(tee_of(o), every, ev, proc, sel);
}

static int tee_lost(struct output *o, const struct seq_gap *g)
{
	EACH(tee_of(o), lost, g);
}

static int tee_lost_other(struct output *o, const struct seq_gap *g)
{
	EACH(tee_of(o), lost_other, g);
}

static int tee_process(struct output *o, uint64_t ts, const struct proc *p,
		       int32_t ppid, const char *event, const char *host)
{
	EACH(tee_of(o), process, ts, p, ppid, event, host);
}

static int tee_report(struct output *o, const struct report *r)
{
	EACH(tee_of(o), report, r);
}

static int tee_task(struct output *o, const struct event *ev,
		    const struct proc *proc)
{
	EACH(tee_of(o), task, ev, proc);
}

/* Each output's op of those that take the output alone, at offset at of
 * its ops (those that have it), until one fails. */
static int each_plain(struct output *o, size_t at)
{
	struct tee *t = tee_of(o);
	int (*op)(struct output *o);
	size_t i;
	int ret;

	for (i = 0; i < t->n; i++) {
		memcpy(&op, (const char *)t->outs[i]->ops + at, sizeof(op));
		if (!op)
			continue;
		ret = op(t->outs[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int tee_finish(struct output *o)
{
	return each_plain(o, offsetof(struct output_ops, finish));
}

static int tee_flush(struct output *o)
{
	return each_plain(o, offsetof(struct output_ops, flush));
}

/* The words of the output that failed: the only one that has any. */
static const char *tee_error(const struct output *o)
{
	const struct tee *t = tee_of(o);
	const char *msg;
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (!t->outs[i]->ops->error)
			continue;
		msg = t->outs[i]->ops->error(t->outs[i]);
		if (msg)
			return msg;
	}
	return NULL;
}

static void tee_free(struct output *o)
{
	struct tee *t = tee_of(o);
	size_t i;

	for (i = 0; i < t->n; i++)
		t->outs[i]->ops->free(t->outs[i]);
	free(t->outs);
	free(t);
}

static const struct output_ops tee_ops = {
	.begin = tee_begin,
	.event = tee_event,
	.lost = tee_lost,
	.lost_other = tee_lost_other,
	.process = tee_process,
	.report = tee_report,
	.task = tee_task,
	.finish = tee_finish,
	.flush = tee_flush,
	.error = tee_error,
	.free = tee_free,
};

/* The same, for outputs one of which takes every event: the others'
 * conversions make no call for each event to none of theirs. */
static const struct output_ops tee_every_ops = {
	.begin = tee_begin,
	.event = tee_event,
	.every = tee_every,
	.lost = tee_lost,
	.process = tee_process,
	.report = tee_report,
	.task = tee_task,
	.finish = tee_finish,
	.flush = tee_flush,
	.error = tee_error,
	.free = tee_free,
};

int output_tee_new(struct output **o, struct output **outs, size_t n)
{
	struct tee *t = calloc(1, sizeof(*t));

	if (!t || !(t->outs = calloc(n ? n : 1, sizeof(*outs)))) {
		free(t);
		return -ENOMEM;
	}
	memcpy(t->outs, outs, n * sizeof(*outs));
	t->n = n;
	t->o.ops = &tee_ops;
	while (n--)
		if (outs[n]->ops->every)
			t->o.ops = &tee_every_ops;
	*o = &t->o;
	return 0;
}
