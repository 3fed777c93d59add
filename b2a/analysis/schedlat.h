/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedlat.h - scheduling latency: the time from a thread's wake-up
 * (tskdispatch.wakeup or wakeup_new) to the context switch that puts it
 * on a CPU, as perf sched latency measures it.
 *
 * The kernel's sched_waking fires in the waker before the woken thread is
 * queued, and may come while that thread is still on its own CPU: it set
 * itself asleep and has not switched out yet.  Two cases follow:
 *   - the wake-up came before the thread left the run queue: it goes on
 *     running and never waits; when it next switches out, it does so
 *     runnable (prev_state 0, a preemption) or asleep for a new reason;
 *   - it came after: the thread switches out asleep just after, then in.
 * So a thread's pending wake-up is dropped when it switches out runnable
 * (what waits from then on is preemption, not wake-up latency), kept when
 * it switches out asleep, and replaced by a later wake-up (which the
 * kernel fires only for a thread asleep again).
 */
#ifndef LKET_SCHEDLAT_H
#define LKET_SCHEDLAT_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/procmap.h"

/*
 * What tskdispatch.ctxswitch's prev_state says, the low 8 bits of the
 * kernel's TASK_* (man/groups/tskdispatch.roff), for every scheduling
 * analysis: 0, the task stays runnable (preempted); TASK_DEAD (0x80),
 * and EXIT_DEAD or EXIT_ZOMBIE (0x10, 0x20) where a kernel puts them
 * there, it has exited and never runs again; anything else, it sleeps.
 */
#define SCHED_RUNNABLE		0
#define SCHED_EXITED_MASK	(0x10 | 0x20 | 0x80)

static inline bool sched_exited(int64_t prev_state)
{
	return prev_state & SCHED_EXITED_MASK;
}

/* One latency: a wake-up's thread put on a CPU. */
struct schedlat_sample {
	int32_t tid, pid;
	char comm[PROC_COMM_LEN + 1];	/* the wake-up's name of it */
	uint64_t woken, ran;		/* timestamps */
	/* the filters select it: its thread, and either end's record */
	bool selected;
	bool thread_selected;		/* the thread, as of its wake-up */
};

struct schedlat;

int schedlat_new(struct schedlat **s);
void schedlat_free(struct schedlat *s);
/* Thread tid of process pid, named comm (len bytes), is woken at ts;
 * the filters select the thread (thread) and the wake-up (record). */
int schedlat_wakeup(struct schedlat *s, int32_t tid, int32_t pid,
		    const char *comm, size_t len, uint64_t ts, bool thread,
		    bool record);
/*
 * A context switch at ts from prev (leaving in prev_state) to next;
 * record: the filters select the switch's record.  Returns 1 and fills
 * *out when it ends next's wait for a CPU, 0 when it ends none, or a
 * negative errno.
 */
int schedlat_switch(struct schedlat *s, int32_t prev, int64_t prev_state,
		    int32_t next, uint64_t ts, bool record,
		    struct schedlat_sample *out);
/* The wake-ups still waiting (at the end: never ran), selected ones. */
uint64_t schedlat_pending(const struct schedlat *s);

#endif
