/* SPDX-License-Identifier: GPL-2.0 */
/*
 * critpath.h - the critical path of a thread (lket-b2a --critical-path
 * TID): what its run from its first to its last event waited for.
 *
 * Every thread's time is cut into segments by its context switches and
 * wake-ups: running (on a CPU), runnable (preempted, or woken and not yet
 * on a CPU) and blocked (switched out asleep until its wake-up).  The
 * path of a thread over a time span is its own segments, newest first,
 * but for a blocked one: what ended it is its waker's work, so the path
 * goes on in the waker, over the time the thread was blocked, by the
 * same rule, until it reaches the start of that blocked time; then it
 * comes back to the thread before it.  A wake-up by an interrupt (the
 * idle task's record, or one the tracer flagged LKET_RECORD_IRQ: its
 * task is the one the interrupt hit) or by an unknown task ends the
 * descent: the blocked time is shown as such; so does the time before
 * the waker's first segment, which the trace says nothing of.  This is
 * the backward walk of Giraldo and Dagenais' critical-path analysis (the
 * one Trace Compass draws) on LKET's events; the walk is at most
 * CRITPATH_DEPTH wakers deep.
 *
 * A thread's first segment starts where the trace first shows it: woken
 * (runnable from then), or on a CPU (running since that CPU's switch
 * before, or its first event).  The walk is done as each blocked segment
 * of the thread asked for ends, and the other threads' segments are kept
 * only while one may still be reached: those since the thread asked for
 * blocked, when it is blocked, else none; memory grows with the longest
 * time it is blocked, not with the trace.
 */
#ifndef LKET_CRITPATH_H
#define LKET_CRITPATH_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/procmap.h"
#include "decode/decode.h"

#define CRITPATH_DEPTH	32

struct critpath;

int critpath_new(struct critpath **c, int32_t tid);
void critpath_free(struct critpath *c);
/* Every decoded event, in time order (filters do not apply: a path
 * crosses threads the filter leaves out). */
int critpath_event(struct critpath *c, const struct event *ev,
		   const struct proc *proc);
/* The path, oldest segment first (format in lket-b2a(1)). */
int critpath_write(struct critpath *c, int fd);
/* The segments of other threads kept for the walk, now. */
size_t critpath_kept(const struct critpath *c);

/* One segment of the path, as critpath_write() has its line. */
struct critpath_seg {
	uint64_t start, end;
	int32_t tid;
	/* BLOCKED, BLOCKED_ON: who woke it (0 an interrupt or the idle
	 * task, -1 not woken in the trace) */
	int32_t waker;
	enum { CRITPATH_RUNNING, CRITPATH_RUNNABLE, CRITPATH_BLOCKED,
	       CRITPATH_BLOCKED_ON } state;
	unsigned int depth;	/* wakers down: the waker's path is deeper */
	const char *comm;	/* its thread's name, "?" if not known */
};

typedef int (*critpath_fn)(void *ctx, const struct critpath_seg *s);

/* The thread whose path it is. */
int32_t critpath_tid(const struct critpath *c);

/* The path walked at the trace's end, each segment in critpath_write()'s
 * order to fn, until it returns other than 0 (returned). */
int critpath_each(struct critpath *c, critpath_fn fn, void *ctx);

#endif
