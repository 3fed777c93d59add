// SPDX-License-Identifier: GPL-2.0
/*
 * progress.c - the progress line's words, and when it may change
 * (progress.h).
 */
#include <stdio.h>

#include "util/progress.h"

bool progress_due(struct progress *p, uint64_t now_ns)
{
	/* the first look starts the clock: a short run shows nothing */
	if (!p->next_ns) {
		p->next_ns = now_ns + PROGRESS_INTERVAL_NS;
		return false;
	}
	if (now_ns < p->next_ns)
		return false;
	p->next_ns = now_ns + PROGRESS_INTERVAL_NS;
	return true;
}

/* bytes as "1.2 GB", decimal units, one decimal past kB */
static int size_str(char *buf, size_t size, uint64_t n)
{
	static const char *const unit[] = { "kB", "MB", "GB", "TB", "PB" };
	uint64_t scale = 1000, tenths;
	int i = 0;

	if (n < 1000)
		return snprintf(buf, size, "%llu B", (unsigned long long)n);
	/* tenths of the unit, rounded; 1000.0 kB is 1.0 MB */
	for (;;) {
		tenths = (n + scale / 20) / (scale / 10);
		if (tenths < 10000 || i == 4)
			break;
		scale *= 1000;
		i++;
	}
	n = tenths;
	return snprintf(buf, size, "%llu.%llu %s", (unsigned long long)(n / 10),
			(unsigned long long)(n % 10), unit[i]);
}

int progress_format(char *buf, size_t size, uint64_t done, uint64_t total)
{
	char d[32], t[32];

	/* a file that grew while read: never past its size at the start */
	if (total && done > total)
		done = total;
	size_str(d, sizeof(d), done);
	if (!total)
		return snprintf(buf, size, "lket-b2a: %s read", d);
	size_str(t, sizeof(t), total);
	return snprintf(buf, size, "lket-b2a: %s of %s, %u%%", d, t,
			(unsigned int)(done * 100 / total));
}
