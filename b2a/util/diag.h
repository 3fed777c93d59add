/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diag.h - damage and notes found while reading a trace.
 *
 * Modules return negative errno values for failures that stop them; what
 * they find and step over (garbage, a truncated record, contradicting
 * metadata) goes to a diag sink instead, named by file and byte offset, so
 * that conversion goes on.  main() owns the sink and is the one place that
 * prints anything.
 */
#ifndef LKET_DIAG_H
#define LKET_DIAG_H

#include <stdarg.h>
#include <stdint.h>

enum diag_level {
	DIAG_NOTE,	/* worth saying, nothing was lost (an empty file) */
	DIAG_DAMAGE,	/* input was damaged, or what it holds is unsure */
	DIAG_LOSS,	/* records lost, of a kind main() sums up at the end
			 * (dropped, lost in transport, missing, skipped) */
};

struct diag {
	void (*report)(struct diag *d, enum diag_level level, const char *file,
		       int64_t offset, const char *msg);
	unsigned long notes;
	unsigned long damage;
};

/* offset < 0: the message concerns the whole file.  The message is
 * whole, whatever its length. */
void diagf(struct diag *d, enum diag_level level, const char *file,
	  int64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void vdiagf(struct diag *d, enum diag_level level, const char *file,
	    int64_t offset, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

/*
 * A message for later (an output's error(), a reason), whole: no fixed
 * buffer cuts it.  *text is freed and set to it; 0, or -ENOMEM with
 * *text NULL.
 */
int text_printf(char **text, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int text_vprintf(char **text, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif
