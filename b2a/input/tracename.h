/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracename.h - the per-CPU file-name rule, in one place: a trace's files
 * are NAME_N (stap -o NAME), NAMEcpuN or NAME_cpuN (stpd_cpuN), N the CPU
 * with at most four digits, and a rotated trace's NAME_N.K (the CPU's
 * file number K, lket-run-traced --rotate).  The reader takes the CPU from it, the
 * command line finds a prefix's or a folder's files by it, and the
 * PostgreSQL schema is named by what is left of it.
 */
#ifndef LKET_TRACENAME_H
#define LKET_TRACENAME_H

#include <stddef.h>

/* The CPU number a per-CPU file name (or path) ends with; -1: not one. */
int tracename_cpu(const char *path);
/* A rotated file's number: K of NAME_N.K; -1: not a rotated file's name. */
int tracename_rotation(const char *path);
/*
 * The length of NAME in a per-CPU file name: "trace" of trace_0,
 * tracecpu0 and trace_cpu0; 0 if the name is not one.
 */
size_t tracename_len(const char *name);
/*
 * The trace's name in an argument's base name, which may be a file or a
 * prefix: without its CPU part and trailing '_'s ("t" of t_0, t_ and
 * t_cpu1); its length, 0 if nothing is left.
 */
size_t tracename_stem(const char *base);

#endif
