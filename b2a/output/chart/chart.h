/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chart.h - the pictures' constructors: --timechart and --histogram.
 */
#ifndef LKET_CHART_H
#define LKET_CHART_H

#include <stdint.h>

#include "output/output.h"

/*
 * --timechart: an SVG picture of the CPUs, the busiest procs tasks (the
 * rest summed up), block devices and RPC over time, written to fd at
 * finish (lket-b2a(1), out_timechart.c); fd stays open.  The file is
 * max_bytes at most (0: TIMECHART_MAX_BYTES); a long trace is drawn in
 * coarser columns to fit.
 */
#define TIMECHART_MAX_BYTES	(20u * 1000 * 1000)
int output_timechart_new(struct output **o, int fd, unsigned int procs,
			 uint64_t max_bytes);
/*
 * --histogram: SVG latency histograms of the report's paired events,
 * p50/p90/p99/max marked, written to fd at finish; needs the latency
 * report (convert_options.report) to call its report op.  fd stays open.
 */
int output_histogram_new(struct output **o, int fd);

#endif
