/* SPDX-License-Identifier: GPL-2.0 */
/* svg_fixture.h - what the picture tests share: a picture read back from
 * the test folder, and how often a piece of it occurs. */
#ifndef LKET_SVG_FIXTURE_H
#define LKET_SVG_FIXTURE_H

#include "unit.h"

static inline size_t read_svg(const char *name, char *buf, size_t size)
{
	char path[PATH_MAX_UNIT];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", unit_dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = read(fd, buf, size - 1);
	assert_true(n >= 0);
	buf[n] = '\0';
	close(fd);
	return (size_t)n;
}

static inline size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

#endif
