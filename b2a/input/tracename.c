// SPDX-License-Identifier: GPL-2.0
/* tracename.c - the per-CPU file-name rule (tracename.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "input/tracename.h"

int tracename_cpu(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *end, *p;

	base = base ? base + 1 : path;
	end = base + strlen(base);
	p = end;
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

size_t tracename_len(const char *name)
{
	size_t n = strlen(name);

	if (tracename_cpu(name) < 0)
		return 0;
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
	size_t n = strlen(base);

	while (n && base[n - 1] >= '0' && base[n - 1] <= '9')
		n--;
	if (n && base[n - 1] == '_')
		n--;
	/* "cpu" is the CPU part only before a number */
	else if (n >= 3 && !strncmp(base + n - 3, "cpu", 3) &&
		 n < strlen(base))
		n -= 3;
	if (n && base[n - 1] == '_')
		n--;
	return n;
}
