// SPDX-License-Identifier: GPL-2.0
/* tee.c - several outputs fed the same events, as one. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

struct tee {
	struct output o;
	struct output **outs;
	size_t n;
};

/* The converter sets the tee's trace; each output reads its own. */
static void share_trace(struct tee *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		t->outs[i]->trace = t->o.trace;
}

static int tee_event(struct output *o, const struct event *ev,
		     const struct proc *proc)
{
	struct tee *t = (struct tee *)o;
	size_t i;
	int ret;

	for (i = 0; i < t->n; i++) {
		t->outs[i]->trace = o->trace;
		ret = t->outs[i]->event(t->outs[i], ev, proc);
		if (ret)
			return ret;
	}
	return 0;
}

static int tee_lost(struct output *o, const struct seq_gap *g)
{
	struct tee *t = (struct tee *)o;
	size_t i;
	int ret;

	share_trace(t);
	for (i = 0; i < t->n; i++) {
		ret = t->outs[i]->lost(t->outs[i], g);
		if (ret)
			return ret;
	}
	return 0;
}

static int tee_process(struct output *o, uint64_t ts, const struct proc *p,
		       int32_t ppid, const char *event)
{
	struct tee *t = (struct tee *)o;
	size_t i;
	int ret;

	share_trace(t);
	for (i = 0; i < t->n; i++) {
		if (!t->outs[i]->process)
			continue;
		ret = t->outs[i]->process(t->outs[i], ts, p, ppid, event);
		if (ret)
			return ret;
	}
	return 0;
}

static int tee_report(struct output *o, const struct report *r)
{
	struct tee *t = (struct tee *)o;
	size_t i;
	int ret;

	share_trace(t);
	for (i = 0; i < t->n; i++) {
		if (!t->outs[i]->report)
			continue;
		ret = t->outs[i]->report(t->outs[i], r);
		if (ret)
			return ret;
	}
	return 0;
}

static int tee_finish(struct output *o)
{
	struct tee *t = (struct tee *)o;
	size_t i;
	int ret;

	share_trace(t);
	for (i = 0; i < t->n; i++) {
		ret = t->outs[i]->finish(t->outs[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static void tee_free(struct output *o)
{
	struct tee *t = (struct tee *)o;
	size_t i;

	for (i = 0; i < t->n; i++)
		t->outs[i]->free(t->outs[i]);
	free(t->outs);
	free(t);
}

int output_tee_new(struct output **o, struct output **outs, size_t n)
{
	struct tee *t = calloc(1, sizeof(*t));

	if (!t || !(t->outs = calloc(n ? n : 1, sizeof(*outs)))) {
		free(t);
		return -ENOMEM;
	}
	memcpy(t->outs, outs, n * sizeof(*outs));
	t->n = n;
	t->o.event = tee_event;
	t->o.lost = tee_lost;
	t->o.process = tee_process;
	t->o.report = tee_report;
	t->o.finish = tee_finish;
	t->o.free = tee_free;
	*o = &t->o;
	return 0;
}
