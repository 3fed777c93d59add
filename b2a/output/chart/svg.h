/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svg.h - what the pictures of a trace (--timechart, --histogram) share:
 * text made safe for XML, durations and wall-clock times in words, the
 * steps of a time axis, and the document's frame.  Plain SVG 1.1, no
 * script: it opens in any browser.
 */
#ifndef LKET_SVG_H
#define LKET_SVG_H

#include <stddef.h>
#include <stdint.h>

#include "util/outbuf.h"

/* Room for svg_text() of n bytes. */
#define SVG_TEXT_ROOM(n)	(6 * (n) + 1)

/*
 * s (n bytes, or up to a NUL) as XML character data or an attribute
 * value: & < > " ' as entities, valid UTF-8 kept, other bytes and control
 * characters as \xNN (XML has no way to carry them).  Cut to fit size.
 */
void svg_text(char *dst, size_t size, const char *s, size_t n);
/* ns in the unit that suits it: "850 ns", "12.5 us", "3.20 ms", "1.05 s" */
void svg_duration(char *dst, size_t size, uint64_t ns);
/* UTC of unsigned ns since 1970: "2025-11-29 13:00:05.000001 UTC" */
void svg_wall(char *dst, size_t size, uint64_t wall_ns);
/* A round step (1, 2 or 5 times a power of ten) that cuts span into at
 * most about parts pieces. */
uint64_t svg_tick_step(uint64_t span, unsigned int parts);

/* The document: <?xml?>, <svg> of width x height, a white background and
 * a <title>; svg_end() closes it. */
void svg_begin(struct outbuf *w, unsigned int width, unsigned int height,
	       const char *title);
void svg_end(struct outbuf *w);

#endif
