/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter.h - which events reach the output: by process, thread, process
 * name, CPU, event name, time and field values.
 *
 * The converter asks the filter about every event after decoding it; an
 * event that is filtered out still updates the process map and still
 * counts for sequence tracking and latency pairing, only the output does
 * not see it.  Criteria of different kinds must all match; values given
 * for one kind (--pid 1,2 --pid 3) are alternatives.
 *
 * The analyses (the latency report, off-CPU time, --stat's CPU time) see
 * every event, and report what the filters select: a thread's figure
 * when that thread passes the criteria about threads (--pid, --tid,
 * --comm) and the records it is made of passed the others (struct
 * selection).  A thread's wake-up is its waker's record, its switch in
 * the previous thread's: the figures are the thread's all the same.
 */
#ifndef LKET_FILTER_H
#define LKET_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/procmap.h"
#include "decode/decode.h"
#include "output/output.h"

enum filter_kind {
	FILTER_PID,	/* process IDs, "1,2,3" */
	FILTER_TID,	/* thread IDs */
	FILTER_COMM,	/* process names, shell globs */
	FILTER_CPU,	/* CPUs, "0,2-5" */
	FILTER_EVENT,	/* event names, globs, or group/name prefixes */
	FILTER_FROM,	/* a time: seconds since the first event, or */
	FILTER_TO,	/* an ISO 8601 UTC date and time */
};

struct time_bound {
	enum { BOUND_NONE, BOUND_REL, BOUND_WALL } kind;
	int64_t ns;		/* since the first event, or since 1970 */
};

/* --where NAME OP VALUE */
enum where_op { WHERE_EQ, WHERE_NE, WHERE_LT, WHERE_LE, WHERE_GT, WHERE_GE };

struct where {
	char *name;		/* the field's */
	enum where_op op;
	char *text;		/* the value: a glob for strings */
	bool is_int;		/* text is an integer too, num */
	__int128 num;		/* a 64-bit signed or unsigned value */
};

struct filter {
	bool active;		/* some criterion was given */
	uint32_t *tids;
	int32_t *pids;
	char **comms, **events;
	size_t ntids, npids, ncomms, nevents;
	bool have_cpus;
	uint64_t cpus[B2A_CPUS / 64];	/* bit per CPU */
	struct time_bound from, to;
	uint64_t from_ts, to_ts;	/* in trace time, after filter_prepare */
	/* per group:hook, for named events: 0 not yet asked, 1 in, 2 out */
	uint8_t *event_cache;
	struct where *wheres;	/* all must match */
	size_t nwheres;
	char *strbuf;		/* a string value, NUL-terminated for fnmatch */
	size_t strbuf_size;
};

void filter_init(struct filter *f);
void filter_free(struct filter *f);
/* Add a criterion from its option text.  -EINVAL if arg is malformed. */
int filter_add(struct filter *f, enum filter_kind kind, const char *arg);
/*
 * Add --where "NAME OP VALUE": OP one of == != < <= > >=, VALUE an integer
 * (decimal, 0x hex, signed) or, for == and != only, a string or shell
 * glob, in double quotes or not.  -EINVAL if expr is none of these.
 */
int filter_add_where(struct filter *f, const char *expr);
/*
 * Turn --from/--to into trace time once the first event's time and the
 * trace header are known.  -ENODATA: a wall-clock time was given and the
 * trace has no header.
 */
int filter_prepare(struct filter *f, const struct trace_info *info);
/* Whether ev, of the thread whose process is proc (or NULL), passes. */
bool filter_event(struct filter *f, const struct event *ev,
		  const struct proc *proc);
/* Whether thread tid, of the process proc (or NULL), passes --pid,
 * --tid and --comm (true without them). */
bool filter_thread(const struct filter *f, uint32_t tid,
		   const struct proc *proc);
/* Whether ev passes the criteria that are not about its thread: --cpu,
 * --event, --from, --to, --where. */
bool filter_record(struct filter *f, const struct event *ev);

/* What the filters say of one event, for the analyses (see the top). */
struct selection {
	struct filter *filter;		/* NULL: none given */
	const struct procmap *procs;	/* the threads, as of the event */
	bool passed;			/* the event passed every criterion */
	bool record;			/* it passed those not about threads */
};

/* Whether thread tid (0: the idle task of CPU cpu) is selected. */
static inline bool selection_thread(const struct selection *s, uint32_t tid,
				    unsigned int cpu)
{
	const struct filter *f = s->filter;

	if (!f || (!f->ntids && !f->npids && !f->ncomms))
		return true;
	return filter_thread(f, tid, procmap_thread(s->procs, tid, cpu));
}
/* Whether the time ts is inside --from/--to. */
static inline bool filter_time(const struct filter *f, uint64_t ts)
{
	return ts >= f->from_ts && ts <= f->to_ts;
}

/* Parse "SECONDS[.FRACTION]" into ns.  -EINVAL if it is not one. */
int filter_parse_seconds(const char *s, int64_t *ns);
/* Parse "YYYY-MM-DD[T ]HH:MM:SS[.FRACTION][Z]" (UTC) into ns since 1970. */
int filter_parse_iso(const char *s, int64_t *ns);

#endif
