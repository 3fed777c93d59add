// SPDX-License-Identifier: GPL-2.0
/* tracename.c - the per-CPU file-name rule (tracename.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "input/tracename.h"

/* The length of a rotated file's ".N" after the CPU's digits; 0: none. */
static size_t rotation_len(const char *base, size_t n)
{
	size_t p = n;

	while (p > 0 && isdigit((unsigned char)base[p - 1]))
		p--;
	if (p == n || n - p > 9 || p < 2 || base[p - 1] != '.' ||
	    !isdigit((unsigned char)base[p - 2]))
		return 0;
	return n - p + 1;
}

static const char *base_of(const char *path)
{
	const char *base = strrchr(path, '/');

	return base ? base + 1 : path;
}

/* The CPU of base's first n bytes, a name without its ".N"; -1: none. */
static int cpu_of(const char *base, size_t n)
{
	const char *end = base + n, *p = end;

	while (p > base && isdigit((unsigned char)p[-1]))
		p--;
	if (p == end || end - p > 4)
		return -1;
	/* "FILE_N" (stap -o FILE) or "stpd_cpuN" */
	if (p > base && p[-1] == '_')
		return atoi(p);
	if (p - base >= 3 && !strncmp(p - 3, "cpu", 3))
		return atoi(p);
	return -1;
}

int tracename_cpu(const char *path)
{
	const char *base = base_of(path);
	size_t n = strlen(base);

	return cpu_of(base, n - rotation_len(base, n));
}

int tracename_rotation(const char *path)
{
	const char *base = base_of(path);
	size_t n = strlen(base), r = rotation_len(base, n);

	if (!r || cpu_of(base, n - r) < 0)
		return -1;
	return atoi(base + n - r + 1);
}

size_t tracename_len(const char *name)
{
	size_t n = strlen(name);

	if (tracename_cpu(name) < 0)
		return 0;
	n -= rotation_len(name, n);
	while (n && name[n - 1] >= '0' && name[n - 1] <= '9')
		n--;
	if (n >= 3 && !strncmp(name + n - 3, "cpu", 3))
		n -= 3;
	if (n && name[n - 1] == '_')
		n--;
	return n;
}

size_t tracename_stem(const char *base)
{
	size_t all = strlen(base), n = all - rotation_len(base, all);

	while (n && base[n - 1] >= '0' && base[n - 1] <= '9')
		n--;
	if (n && base[n - 1] == '_')
		n--;
	/* "cpu" is the CPU part only before a number */
	else if (n >= 3 && !strncmp(base + n - 3, "cpu", 3) &&
		 n < all)
		n -= 3;
	if (n && base[n - 1] == '_')
		n--;
	return n;
}
