/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cputime.h - CPU time by thread, from the context switches, by the rules
 * of LTTng's lttng-cputop (so that the two agree on one trace): a thread
 * runs from a switch to it until the switch from it; one switched from
 * without a switch to it seen ran since the trace began (its first
 * event); one running at the end,
 * until the last event.  The idle task (tid 0) counts apart on each CPU.
 */
#ifndef LKET_CPUTIME_H
#define LKET_CPUTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"
#include "util/u64map.h"

struct cputime_thread {
	uint32_t tid;
	unsigned int cpu;	/* the idle task's; the last CPU otherwise */
	uint64_t ns;
	uint64_t since;		/* on a CPU since then, if running */
	bool running;
};

struct cputime {
	struct cputime_thread *t;
	size_t n, cap;
	struct u64map index;	/* tid, or the idle task by CPU -> t[] */
	uint64_t begin, end;	/* the time range */
	bool started;		/* begin is set */
	uint64_t switches;
};

int cputime_init(struct cputime *ct);
void cputime_free(struct cputime *ct);
/* Every event of the trace, in time order. */
int cputime_event(struct cputime *ct, const struct event *ev);
/* The trace is over: who still runs, runs until its last event. */
void cputime_end(struct cputime *ct);

#endif
