/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timechart.h - a trace's time cut into TC_COLUMNS columns, and lanes
 * (a CPU, a task, a block device, an RPC server) that sum up what
 * happened in each column: nanoseconds per state, markers, requests.
 *
 * The time a column covers starts at 1 ns and doubles whenever an event
 * falls past the last column (neighbouring columns merge two by two), so
 * that a lane's memory is fixed however long the trace, and the columns
 * in use are always more than half of them (but for traces shorter than
 * TC_COLUMNS ns).
 */
#ifndef LKET_TIMECHART_H
#define LKET_TIMECHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TC_COLUMNS	1000

/* What a task is doing. */
enum tc_state {
	TC_RUN,		/* on a CPU, in user space (or not in a system call) */
	TC_SYSCALL,	/* in a system call (on a CPU, or not known where) */
	TC_WAIT,	/* runnable, preempted: waits for a CPU */
	TC_SLEEP,	/* switched out blocked: sleeps */
	TC_NSTATES,
};

/* What happens to a task at one time. */
enum tc_mark {
	TC_FORK, TC_EXEC, TC_SIG_SENT, TC_SIG_RECV, TC_IO_SUB, TC_IO_DONE,
	TC_FAULT, TC_WAKEUP, TC_NMARKS,
};

struct tc_col {
	uint64_t ns[TC_NSTATES];	/* tasks; CPUs and devices: TC_RUN */
	uint32_t mark[TC_NMARKS];
	/* tasks: who woke it last in the column (with mark[TC_WAKEUP]) */
	uint32_t waker_tid;
	/* CPUs: the task of the longest stretch that ran in the column */
	uint32_t top_tid;
	uint64_t top_ns;
	/* devices, RPC servers: requests that ended here, the longest */
	uint32_t count;
	uint64_t longest;
};

struct tc_lane {
	struct tc_col *col;	/* TC_COLUMNS */
};

struct timechart {
	uint64_t origin;	/* time of column 0's start */
	uint64_t width;		/* ns per column: 1 << shift */
	unsigned int shift;
	uint64_t end;		/* the latest time seen */
	bool started;
	struct tc_lane **lanes;
	size_t nlanes, cap;
};

void tc_init(struct timechart *tc);
void tc_free(struct timechart *tc);
/* A new lane, all columns empty; NULL: out of memory. */
struct tc_lane *tc_lane_new(struct timechart *tc);
/*
 * Make ts fit in the columns (the first call sets the origin) and
 * return its column; a time before the origin (time went back) is
 * column 0.
 */
size_t tc_column(struct timechart *tc, uint64_t ts);
/* Time from..to spent in state (a CPU lane: busy; tid, what ran). */
void tc_span(struct timechart *tc, struct tc_lane *l, uint64_t from,
	     uint64_t to, enum tc_state state);
void tc_run(struct timechart *tc, struct tc_lane *l, uint64_t from,
	    uint64_t to, uint32_t tid);
void tc_mark(struct timechart *tc, struct tc_lane *l, uint64_t ts,
	     enum tc_mark mark);
/* A wake-up at ts by waker (0: the idle task, or an interrupt of it). */
void tc_wakeup(struct timechart *tc, struct tc_lane *l, uint64_t ts,
	       uint32_t waker);
/* b, a later column, added into a. */
void tc_col_merge(struct tc_col *a, const struct tc_col *b);
/* A request in flight from..to: busy time, and one ended at to. */
void tc_request(struct timechart *tc, struct tc_lane *l, uint64_t from,
		uint64_t to);
/* Add src's columns to dst's. */
void tc_lane_add(struct tc_lane *dst, const struct tc_lane *src);
/* Columns in use: up to the one of the latest time seen. */
size_t tc_used(const struct timechart *tc);

#endif
