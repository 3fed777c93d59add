/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - latencies: entry/return pairs per thread and request
 * lifecycles per request address, with count, total, min, mean,
 * percentiles, max and a log2 histogram, per event and per process.
 *
 * Pairs: an event "X.entry" of the groups syscall, iosyscall, aio, sunrpc,
 * nfs and nfsd is paired with the next "X.return" of the same thread
 * (system calls also by syscall_name).  Lifecycles, by request_addr:
 * ioscheduler add -> dispatch (elv_next_request.return) -> complete, and
 * scsi ioentry -> iodispatching -> iodone -> iocompleted.  Scheduling
 * latency, per thread too: tskdispatch wakeup (or wakeup_new) -> the
 * switch that runs the thread woken (analysis/schedlat.h).  What does not
 * pair up is counted, never guessed: an entry whose thread enters again
 * or never returns, a return with no entry, a request stage with no
 * beginning, a request that never completes.  A latency below zero (time
 * went back between its ends) measures nothing: it is left out, counted
 * as negative, and told to the caller.
 *
 * The report sees every event, filtered or not, so that filters cut no
 * pair in two; a latency counts when one of its ends passed the filter,
 * and a scheduling latency when its thread passes those about threads
 * (--pid, --tid, --comm) and one of its ends passed the others
 * (analysis/filter.h: the wake-up and the switch are other threads').
 * Every latency is kept (8 bytes each) for exact percentiles.
 */
#ifndef LKET_REPORT_H
#define LKET_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/filter.h"
#include "analysis/procmap.h"
#include "decode/decode.h"

#define REPORT_BUCKETS	64	/* log2 of ns: bucket k holds [2^k, 2^(k+1)) */

/* Whose latencies a line sums up. */
enum latency_scope {
	LATENCY_EVENT,		/* every process's together */
	LATENCY_PROCESS,	/* one process's */
	LATENCY_THREAD,		/* one thread's (scheduling latency) */
};

struct latency {
	const char *what;	/* "syscall(openat)", "scsi ioentry->iodone" */
	enum latency_scope scope;
	int32_t pid;		/* -1: not known */
	int32_t tid;		/* LATENCY_THREAD's; else -1 */
	char comm[PROC_COMM_LEN + 1];	/* as last seen; "" not known */
	uint64_t count, total, min, max, p50, p90, p99;
	uint64_t mean;		/* total / count, rounded down */
	uint64_t unmatched_begin;	/* entries never returned; requests
					   never completed (per event only) */
	uint64_t unmatched_end;	/* returns without entry; stages without
				   beginning (per event only) */
	uint64_t negative;	/* left out: ended before they began (per
				   event only) */
	uint64_t hist[REPORT_BUCKETS];
};

struct report;

int report_new(struct report **r);
void report_free(struct report *r);
/*
 * Every decoded event, in time order, and what the filters say of it.
 * Returns 0, 1 when the event ended a latency below zero (left out; see
 * report_negative()), or a negative errno.
 */
int report_event(struct report *r, const struct event *ev,
		 const struct proc *proc, const struct selection *sel);
/* After report_event() returned 1: what, and how far below zero. */
const char *report_negative(const struct report *r, uint64_t *ns);
/* End of trace: what is still pending is unmatched; sort, sum up. */
int report_finish(struct report *r);
/* After report_finish: per event first (sorted by name), then per
 * process (by name, then pid), then per thread (by name, pid, tid). */
size_t report_count(const struct report *r);
const struct latency *report_get(const struct report *r, size_t i);
/* The text report (format in lket-b2a(1)). */
int report_write(const struct report *r, int fd);

/*
 * What other reports share: v (n latencies, sorted here) summed up into
 * l's count, total, min, mean, p50, p90, p99, max and histogram; and a
 * time in the reports' column, ns as microseconds with three decimals.
 */
void latency_sum_up(struct latency *l, uint64_t *v, size_t n);
struct outbuf;
void report_put_us(struct outbuf *w, uint64_t ns);
/* The same time without the column's padding. */
void report_put_us_bare(struct outbuf *w, uint64_t ns);

#endif
