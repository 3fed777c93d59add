// SPDX-License-Identifier: GPL-2.0
/*
 * diag.c - damage and notes to the sink main.c owns, counted by level
 * (diag.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "util/diag.h"

void diagf(struct diag *d, enum diag_level level, const char *file,
	  int64_t offset, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (level != DIAG_NOTE)
		d->damage++;
	else
		d->notes++;
	if (!d->report)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	d->report(d, level, file, offset, msg);
}
