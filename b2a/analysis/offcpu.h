/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offcpu.h - off-CPU time (lket-b2a --offcpu, --offcpu-folded): per
 * thread, the time it spent switched out asleep, from the context switch
 * that took it off its CPU in a sleeping state (prev_state not 0) to its
 * wake-up, grouped by the kernel stack at that switch and by its waker
 * (the waker's name and, where the wake-up record has one, its stack).
 * A sleep whose wake-up was not recorded ends at the switch back in, its
 * waker unknown.  Time spent runnable after the wake-up is scheduling
 * latency (analysis/schedlat.h), not off-CPU time.  Stacks are those
 * lket_stack() appended to the tskdispatch.ctxswitch and wakeup records,
 * by function name (the offset left out) or by address where no symbol
 * is known.
 */
#ifndef LKET_OFFCPU_H
#define LKET_OFFCPU_H

#include <stdbool.h>

#include "analysis/filter.h"
#include "analysis/procmap.h"
#include "decode/decode.h"

struct offcpu;

int offcpu_new(struct offcpu **o);
void offcpu_free(struct offcpu *o);
/* Every decoded event, in time order, and what the filters say of it: a
 * sleep counts when its thread passes those about threads, and its
 * switch out or its switch in the others (analysis/filter.h). */
int offcpu_event(struct offcpu *o, const struct event *ev,
		 const struct proc *proc, const struct selection *sel);
/* The text report, threads by most time asleep (format in lket-b2a(1)). */
int offcpu_write(const struct offcpu *o, int fd);
/* One line per thread, stack and waker: "comm-tid;outer;...;inner;--;
 * waker inner;...;waker outer;waker ns", as flame-graph tools take it. */
int offcpu_write_folded(const struct offcpu *o, int fd);

#endif
