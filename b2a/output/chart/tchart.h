/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tchart.h - inside --timechart: the model of the trace that
 * out_timechart.c builds from the events (tasks, CPUs, devices, RPC, in
 * the columns of timechart.h), which tchart_draw.c draws at finish.
 */
#ifndef LKET_TCHART_H
#define LKET_TCHART_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/procmap.h"
#include "output/chart/timechart.h"
#include "output/output.h"
#include "runtime/lket_ids.h"
#include "util/outbuf.h"
#include "util/u64map.h"

#define TC_MAX_TASKS	65536	/* tasks known; later ones count in others */
#define TC_MAX_DETAIL	256	/* tasks with columns of their own */
#define TC_MAX_CPUS	256
#define TC_MAX_DEVS	32
#define TC_MAX_RPC	16
#define TC_MAX_PENDING	65536	/* block requests in flight */
/* the most one piece of the file (emit()) takes */
#define TC_ELEMENT_MAX	4096
/* what svg_begin() and svg_end() write, at most */
#define TC_FRAME_MAX	1024

#define TC_NOTES	8	/* the most notes() says */

#define LABEL_W		230
#define PLOT_W		1000
#define LANE_H		18
#define BOX_H		12

enum sched { S_UNKNOWN, S_RUNNING, S_WAITING, S_SLEEPING };

struct task {
	uint32_t tid;
	int32_t pid;
	char comm[PROC_COMM_LEN + 1];
	uint8_t sched;
	bool in_sys;
	bool dead;		/* exited: its lane ends */
	int cpu;		/* where it last was switched in; -1 */
	uint64_t since;		/* of the current state */
	uint64_t run, sys, events;	/* ns on a CPU; in a system call */
	struct tc_lane *lane;	/* NULL: summed up in others */
	int rpc;		/* the RPC call in progress: its lane; -1 */
	uint64_t rpc_start;
};

struct cpu {
	struct tc_lane *lane;	/* NULL: not seen */
	uint32_t tid;		/* running; 0 idle */
	uint64_t since;
};

enum req_source { REQ_IOSCHED, REQ_SCSI, REQ_SOURCES };

struct dev {
	enum req_source source;
	int major, minor;
	struct tc_lane *lane;
};

struct rpc {
	char name[40];
	bool server;
	struct tc_lane *lane;
};

struct request {
	uint64_t start;
	uint32_t tid;
	uint16_t dev;
};

struct chart {
	struct output o;
	struct outbuf w;
	unsigned int procs;
	uint64_t max_bytes;
	const struct trace_info *trace;
	struct timechart tc;
	struct task *tasks;
	size_t ntasks, detailed;
	struct u64map task_of;		/* tid -> tasks[] */
	struct tc_lane *others;
	struct cpu cpus[TC_MAX_CPUS];
	unsigned int ncpus;
	struct dev devs[TC_MAX_DEVS];
	unsigned int ndevs;
	struct rpc rpcs[TC_MAX_RPC];
	unsigned int nrpcs;
	struct request *reqs;		/* TC_MAX_PENDING */
	uint32_t free_req;		/* 1-based free list; 0 none */
	size_t nreqs;
	struct u64map pending[REQ_SOURCES];	/* request_addr -> reqs[] */
	uint64_t events, lost, dropped_lanes;
	bool saw[LKET_NR_EVENTS];
	bool dry;		/* drawing only to count the bytes */
	uint64_t bytes;
};

static inline struct chart *chart_of(const struct output *o)
{
	return (struct chart *)o;
}

/* The picture of c's model, into its buffer; 0 or -ENOMEM. */
int tchart_draw(struct chart *c);

#endif
