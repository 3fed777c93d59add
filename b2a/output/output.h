/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - what every output (lket.out text, JSON, CSV, the summary, the
 * databases, a tee of several) offers the converter, as a const struct
 * output_ops: the trace's context once, one call per decoded event, one
 * per run of lost flushes, and its failures in its own words.  The ops
 * only: each output's constructor is in its folder's header (line/,
 * db/, ctf/, chart/), and the registry (registry.h) names them all.
 */
#ifndef LKET_OUTPUT_H
#define LKET_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/procmap.h"
#include "analysis/seqtrack.h"
#include "decode/decode.h"
#include "util/diag.h"

struct trace_info;
struct rpc_host;
struct critpath;

/* One host of several (multihost.h): its label (the events' host), its
 * trace, and how its clock was put on the first host's. */
struct trace_host {
	const char *label;
	const struct trace_info *info;
	int64_t clock_offset;	/* ns added to its times, at the pivot */
	double uncertainty;	/* ns; < 0: not refined by RPC pairs */
	/* its RPCs as client and server (the first pass's, rpcpair.h),
	 * kept until after finish */
	const struct rpc_host *rpc;
};

/* What the trace header says, and what the converter saw first. */
struct trace_info {
	bool have_header;
	int64_t wall_offset;	/* wall-clock ns = timestamp + wall_offset */
	uint64_t first_ts;	/* of the first event */
	char clock[32];
	char kernel[65];
	char hostname[65];	/* "" if the trace does not say */
	char machine[65];
	/* the converter's thread -> process map, as of each call */
	const struct procmap *procs;
	const char *const *files;	/* read, in the order given */
	size_t nfiles;
	/* known at finish, from the trace's end (format version 3): records
	 * written that no file holds, probe hits SystemTap skipped */
	uint64_t missing, skipped;
	/* the critical path (--critical-path), fed every event and walked
	 * at the end; NULL: none asked for */
	struct critpath *critpath;
	/* several hosts: each (the first is the reference); 0: one trace,
	 * whose files and header are the above */
	const struct trace_host *hosts;
	size_t nhosts;
};

struct report;
struct output;
struct selection;

/* What an output does; each returns 0 or a negative errno. */
struct output_ops {
	/*
	 * First, once: the trace's context, which the converter fills in as
	 * it reads (the header, the first event's time, the files) and keeps
	 * until after finish.  Databases open here.
	 */
	int (*begin)(struct output *o, const struct trace_info *trace);
	/* proc: what procmap knows of ev->tid, or NULL */
	int (*event)(struct output *o, const struct event *ev,
		     const struct proc *proc);
	/*
	 * Optional: every event, filtered out or not, before event() for
	 * one that passed, with what the filters say of it: for an
	 * analysis of the output's that must see every thread's records
	 * to report the threads the filters select (--stat's CPU time).
	 */
	int (*every)(struct output *o, const struct event *ev,
		     const struct proc *proc, const struct selection *sel);
	int (*lost)(struct output *o, const struct seq_gap *gap);
	/*
	 * Optional: the losses lost() is not told of (gap->kind says which:
	 * records missing at a CPU's end, what a flight recorder wrote
	 * over, probe hits skipped), for an output that shows every loss
	 * where it is.
	 */
	int (*lost_other)(struct output *o, const struct seq_gap *gap);
	/*
	 * Optional (NULL: not wanted).  process: what the trace said of a
	 * thread at ts (a snapshot, fork or execve; event names which), ppid
	 * -1 if it did not say, host the event's (NULL: one trace); called
	 * for filtered events too.  report: the
	 * latency report, summed up, before finish.
	 */
	int (*process)(struct output *o, uint64_t ts, const struct proc *p,
		       int32_t ppid, const char *event, const char *host);
	int (*report)(struct output *o, const struct report *r);
	/*
	 * Optional: an always-on task record (lket.task_*, lket(5)), which
	 * is not an event; proc is what procmap knows of the task after it.
	 */
	int (*task)(struct output *o, const struct event *ev,
		    const struct proc *proc);
	int (*finish)(struct output *o);
	/*
	 * Optional: write out what is buffered, for a trace converted while
	 * it is written (lket-b2a --follow), before the converter waits.
	 */
	int (*flush)(struct output *o);
	/*
	 * Optional: after a failure, what went wrong in the output's own
	 * words ("x.db: database or disk is full"), or NULL when the errno
	 * says it all.
	 */
	const char *(*error)(const struct output *o);
	void (*free)(struct output *o);
};

struct output {
	const struct output_ops *ops;
};

enum time_format {
	TIME_ABS,	/* seconds.nanoseconds of the trace clock */
	TIME_REL,	/* since the first event */
	TIME_WALL,	/* UTC date and time, from the header's offset */
	TIME_RAW,	/* nanoseconds, as recorded */
};

struct text_options {
	enum time_format time;
	bool ids;		/* add [group:hook] to the event name */
	bool no_names;		/* group:hook instead of the event name */
	bool no_comm;		/* leave the process name out */
	bool delta;		/* text: time since the previous event */
	bool hosts;		/* events carry a host label (CSV: its column) */
};

/* A host label: letters, digits, '_', '-', '.'; at most this long. */
#define HOST_LABEL_MAX	32

#endif
