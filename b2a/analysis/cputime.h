/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cputime.h - CPU time by thread, from the context switches, by the rules
 * of LTTng's lttng-cputop (so that the two agree on one trace): a thread
 * runs from a switch to it until the switch from it; one switched from
 * without a switch to it seen ran since the trace began (its first
 * event); one running at the end,
 * until the last event.  The idle task (tid 0) counts apart on each CPU.
 *
 * It sees every event, filtered out or not; a run counts when its thread
 * passes the filters about threads (--pid, --tid, --comm) and the switch
 * that began or ended it the others (analysis/filter.h), so that a
 * thread's time is the same whatever the filters leave out of the rest.
 */
#ifndef LKET_CPUTIME_H
#define LKET_CPUTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/filter.h"
#include "decode/decode.h"
#include "util/u64map.h"

struct cputime_thread {
	uint32_t tid;
	unsigned int cpu;	/* the idle task's; the last CPU otherwise */
	uint64_t ns;
	uint64_t since;		/* on a CPU since then, if running */
	bool running;
	bool seen;		/* in a switch already */
	/* the run since `since': the filters select its thread, the
	 * switch that began it */
	bool thread_selected, start_selected;
	bool counted;		/* some run of it counts: it is shown */
};

struct cputime {
	struct cputime_thread *t;
	size_t n, cap;
	struct u64map index;	/* tid, or the idle task by CPU -> t[] */
	uint64_t begin, end;	/* the time range */
	bool started;		/* begin is set */
};

int cputime_init(struct cputime *ct);
void cputime_free(struct cputime *ct);
/* Every event of the trace, in time order, and what the filters say. */
int cputime_event(struct cputime *ct, const struct event *ev,
		  const struct selection *sel);
/* The trace is over: who still runs, runs until its last event. */
void cputime_end(struct cputime *ct);
/* Whether some thread's time counts (after cputime_end). */
bool cputime_counted(const struct cputime *ct);

#endif
