// SPDX-License-Identifier: GPL-2.0
/*
 * diag.c - damage and notes to the sink main.c owns, counted by level
 * (diag.h); messages made whole, whatever their length.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/diag.h"

int text_vprintf(char **text, const char *fmt, va_list ap)
{
	free(*text);
	if (vasprintf(text, fmt, ap) < 0) {
		*text = NULL;
		return -ENOMEM;
	}
	return 0;
}

int text_printf(char **text, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = text_vprintf(text, fmt, ap);
	va_end(ap);
	return ret;
}

void vdiagf(struct diag *d, enum diag_level level, const char *file,
	    int64_t offset, const char *fmt, va_list ap)
{
	/* out of memory, the message's start at least */
	char start[256];
	char *msg = NULL;
	va_list again;

	if (level != DIAG_NOTE)
		d->damage++;
	else
		d->notes++;
	if (!d->report)
		return;
	va_copy(again, ap);
	if (text_vprintf(&msg, fmt, ap))
		vsnprintf(start, sizeof(start), fmt, again);
	va_end(again);
	d->report(d, level, file, offset, msg ? msg : start);
	free(msg);
}

void diagf(struct diag *d, enum diag_level level, const char *file,
	  int64_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiagf(d, level, file, offset, fmt, ap);
	va_end(ap);
}
