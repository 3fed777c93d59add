/* SPDX-License-Identifier: GPL-2.0 */
/*
 * array.h - a growing array: room for one more element, doubling.
 */
#ifndef LKET_ARRAY_H
#define LKET_ARRAY_H

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

/*
 * *p holds *cap elements of size bytes, n of them used: make room for one
 * more (16 at first, then twice as many).  0, or -ENOMEM with *p kept.
 */
static inline int array_grow(void **p, size_t *cap, size_t n, size_t size)
{
	size_t more = *cap ? 2 * *cap : 16;
	void *bigger;

	if (n < *cap)
		return 0;
	bigger = realloc(*p, more * size);
	if (!bigger)
		return -ENOMEM;
	*p = bigger;
	*cap = more;
	return 0;
}

#endif
