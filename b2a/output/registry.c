// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - the table of outputs (registry.h): one line per output,
 * whose module declares it (output_<name>_decl).  A new output is its own
 * files and one line here.
 */
#include <errno.h>
#include <stdio.h>

#include "output/registry.h"

/* in --help order; the line output first, the default.  Each line ends
 * in a backslash, the last one too: a new output is one line more. */
#define OUTPUTS(X)	\
	X(line)		\
	X(sqlite)	\
	X(pg)		\
	X(ctf)		\
	X(perfetto)	\
	X(timechart)	\
	X(histogram)	\
	/* the end of the outputs */

#define DECLARE(name)	extern const struct output_decl output_##name##_decl;
OUTPUTS(DECLARE)
#undef DECLARE

#define ENTRY(name)	&output_##name##_decl,
const struct output_decl *const output_registry[] = { OUTPUTS(ENTRY) };
#undef ENTRY

const size_t output_registry_size =
	sizeof(output_registry) / sizeof(output_registry[0]);

/* the command line's arrays hold this many (cli/options.h) */
_Static_assert(sizeof(output_registry) / sizeof(output_registry[0]) <=
	       OUTPUTS_MAX, "more outputs than OUTPUTS_MAX");

const char *output_decl_name(const struct output_decl *d, char *buf,
			     size_t size)
{
	if (d->letter)
		snprintf(buf, size, "-%c", d->letter);
	else
		snprintf(buf, size, "--%s", d->option);
	return buf;
}

bool output_ops_complete(const struct output_ops *ops)
{
	return ops && ops->begin && ops->event && ops->lost && ops->finish &&
	       ops->free;
}

int output_decl_create(const struct output_decl *d,
		       const struct output_args *a, struct output **o)
{
	int ret = d->create(o, a);

	if (ret)
		return ret;
	if (output_ops_complete((*o)->ops))
		return 0;
	if ((*o)->ops && (*o)->ops->free)
		(*o)->ops->free(*o);
	*o = NULL;
	return -ENOSYS;
}
