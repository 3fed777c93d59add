/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log_output.h - an output for the unit tests that writes down every call
 * it gets, one line each, and fails the call asked of it.
 */
#ifndef LKET_LOG_OUTPUT_H
#define LKET_LOG_OUTPUT_H

#include "unit.h"

#include "analysis/report.h"
#include "output/output.h"

struct log_output {
	struct output o;	/* first: the ops get &log->o */
	const struct trace_info *trace;	/* what begin handed over */
	const char *fail_op;	/* the op that fails, NULL: none */
	int fail_err;		/* with this negative errno */
	const char *message;	/* its words, for the error op */
	bool failed, freed;
	char log[4096];
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static inline void log_line(struct log_output *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	l->len += (size_t)vsnprintf(l->log + l->len, sizeof(l->log) - l->len,
				    fmt, ap);
	va_end(ap);
	assert_true(l->len < sizeof(l->log) - 1);
	l->log[l->len++] = '\n';
	l->log[l->len] = '\0';
}

static inline int log_result(struct log_output *l, const char *op)
{
	if (!l->fail_op || strcmp(op, l->fail_op))
		return 0;
	l->failed = true;
	return l->fail_err;
}

static inline int log_begin(struct output *o, const struct trace_info *t)
{
	struct log_output *l = (struct log_output *)o;

	l->trace = t;
	log_line(l, "begin");
	return log_result(l, "begin");
}

static inline int log_event(struct output *o, const struct event *ev,
			    const struct proc *proc)
{
	struct log_output *l = (struct log_output *)o;

	log_line(l, "event %u:%u %llu cpu %u tid %u pid %d%s%s",
		 ev->group, ev->hook,
		 (unsigned long long)ev->rec->timestamp, ev->cpu, ev->tid,
		 proc ? proc->pid : -1, ev->host ? " host " : "",
		 ev->host ? ev->host : "");
	return log_result(l, "event");
}

static inline int log_lost(struct output *o, const struct seq_gap *g)
{
	struct log_output *l = (struct log_output *)o;

	log_line(l, "lost %u-%u%s cpu %d", g->first, g->last,
		 g->records ? " records" : "", g->cpu);
	return log_result(l, "lost");
}

static inline int log_process(struct output *o, uint64_t ts,
			      const struct proc *p, int32_t ppid,
			      const char *event, const char *host)
{
	struct log_output *l = (struct log_output *)o;

	(void)host;
	log_line(l, "process %llu tid %u pid %d ppid %d %s",
		 (unsigned long long)ts, p->tid, p->pid, ppid, event);
	return log_result(l, "process");
}

static inline int log_report(struct output *o, const struct report *r)
{
	struct log_output *l = (struct log_output *)o;

	log_line(l, "report %zu", report_count(r));
	return log_result(l, "report");
}

static inline int log_finish(struct output *o)
{
	struct log_output *l = (struct log_output *)o;

	log_line(l, "finish");
	return log_result(l, "finish");
}

static inline int log_flush(struct output *o)
{
	struct log_output *l = (struct log_output *)o;

	log_line(l, "flush");
	return log_result(l, "flush");
}

static inline const char *log_error(const struct output *o)
{
	const struct log_output *l = (const struct log_output *)o;

	return l->failed ? l->message : NULL;
}

/* Not freed: the test reads it after; it only notes that it was. */
static inline void log_free(struct output *o)
{
	((struct log_output *)o)->freed = true;
}

static const struct output_ops log_ops = {
	.begin = log_begin,
	.event = log_event,
	.lost = log_lost,
	.process = log_process,
	.report = log_report,
	.finish = log_finish,
	.flush = log_flush,
	.error = log_error,
	.free = log_free,
};

/* The same, without the optional ops. */
static const struct output_ops log_ops_bare = {
	.begin = log_begin,
	.event = log_event,
	.lost = log_lost,
	.finish = log_finish,
	.free = log_free,
};

static inline void log_output_init(struct log_output *l,
				   const struct output_ops *ops)
{
	memset(l, 0, sizeof(*l));
	l->o.ops = ops;
}

#endif
