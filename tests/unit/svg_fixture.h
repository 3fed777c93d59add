/* SPDX-License-Identifier: GPL-2.0 */
/* svg_fixture.h - what the picture tests share: how often a piece of a
 * picture occurs in it. */
#ifndef LKET_SVG_FIXTURE_H
#define LKET_SVG_FIXTURE_H

#include "unit.h"

static inline size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

#endif
