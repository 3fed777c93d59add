/* SPDX-License-Identifier: GPL-2.0 */
/*
 * progress.h - a progress line for long conversions on a terminal:
 * "lket-b2a: 1.2 GB of 3.0 GB, 40%", at most a few times a second.
 * The caller decides whether to show it (standard error a terminal, no
 * -q) and erases it at the end.
 */
#ifndef LKET_PROGRESS_H
#define LKET_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROGRESS_INTERVAL_NS	250000000ull	/* four lines a second */

struct progress {
	uint64_t next_ns;	/* no line before this time */
	bool shown;		/* a line is on the terminal */
};

/* Is a line due at now_ns?  Not at the first look, which starts the
 * clock; then at most one per interval. */
bool progress_due(struct progress *p, uint64_t now_ns);

/* The line for done bytes of total (0: not known, a pipe); its length. */
int progress_format(char *buf, size_t size, uint64_t done, uint64_t total);

#endif
