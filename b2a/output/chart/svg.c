// SPDX-License-Identifier: GPL-2.0
/*
 * svg.c - what the pictures share: XML-safe text, durations, time axes, the
 * frame (svg.h).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "output/chart/svg.h"

void svg_text(char *dst, size_t size, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, k, seq;
	char tmp[8];
	const char *rep;

	if (!size)
		return;
	for (; i < n && u[i]; i += k) {
		k = 1;
		rep = tmp;
		switch (u[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&apos;"; break;
		default:
			if (u[i] >= 0x20 && u[i] < 0x7f) {
				tmp[0] = (char)u[i];
				tmp[1] = '\0';
				break;
			}
			seq = u[i] >= 0x80 ? utf8_seq(u + i, n - i) : 0;
			if (seq) {
				memcpy(tmp, u + i, seq);
				tmp[seq] = '\0';
				k = seq;
				break;
			}
			snprintf(tmp, sizeof(tmp), "\\x%02x", u[i]);
		}
		if (o + strlen(rep) >= size)
			break;
		memcpy(dst + o, rep, strlen(rep));
		o += strlen(rep);
	}
	dst[o] = '\0';
}

void svg_duration(char *dst, size_t size, uint64_t ns)
{
	static const struct { uint64_t div; const char *unit; } units[] = {
		{ 1000000000ull, "s" }, { 1000000, "ms" }, { 1000, "us" },
	};
	size_t i;
	double v;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (ns >= units[i].div) {
			v = (double)ns / (double)units[i].div;
			snprintf(dst, size, v >= 100 ? "%.0f %s" :
				 v >= 10 ? "%.1f %s" : "%.2f %s", v,
				 units[i].unit);
			return;
		}
	snprintf(dst, size, "%llu ns", (unsigned long long)ns);
}

void svg_wall(char *dst, size_t size, uint64_t wall_ns)
{
	time_t sec = (time_t)(wall_ns / 1000000000);
	long frac = (long)(wall_ns % 1000000000);
	struct tm tm;
	char day[40];

	if (!gmtime_r(&sec, &tm) ||
	    !strftime(day, sizeof(day), "%Y-%m-%d %H:%M:%S", &tm)) {
		snprintf(dst, size, "?");
		return;
	}
	snprintf(dst, size, "%s.%06ld UTC", day, frac / 1000);
}

uint64_t svg_tick_step(uint64_t span, unsigned int parts)
{
	uint64_t step = 1;

	if (!parts)
		parts = 1;
	for (;;) {
		if (span / step <= parts)
			return step;
		if (span / (2 * step) <= parts)
			return 2 * step;
		if (span / (5 * step) <= parts)
			return 5 * step;
		step *= 10;
	}
}

void svg_begin(struct outbuf *w, unsigned int width, unsigned int height,
	       const char *title)
{
	char t[SVG_TEXT_ROOM(200)];

	svg_text(t, sizeof(t), title, 200);
	outbuf_printf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" font-family=\"sans-serif\" font-size=\"11\">\n"
		      "<title>%s</title>\n"
		      "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n",
		      width, height, width, height, t, width, height);
}

void svg_end(struct outbuf *w)
{
	outbuf_printf(w, "</svg>\n");
}
