// SPDX-License-Identifier: GPL-2.0
/*
 * pf_syscalls.c - x86-64 system call numbers by name (pf.h): LKET
 * records a call's name, Perfetto's raw_syscalls events its number, which
 * Perfetto names from its own table for the machine the trace says.  The
 * names are the kernel's (pf_syscalls_x86_64.h), which SystemTap's are.
 * Looked up in a hash table made at the first call.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "output/perfetto/pf.h"

static const struct {
	const char *name;
	int nr;
} calls[] = {
#define PF_SYSCALL(name, nr)	{ #name, nr },
#include "output/perfetto/pf_syscalls_x86_64.h"
#undef PF_SYSCALL
};

#define NCALLS	(sizeof(calls) / sizeof(calls[0]))
/* a power of two, at least twice the calls: short probes */
#define SLOTS	1024
_Static_assert(2 * NCALLS <= SLOTS, "more system calls than the table holds");

static struct {
	const char *name;
	size_t n;
	int nr;			/* -1: a free slot */
} slot[SLOTS];
static bool made;

/* A name's hash from its length and three of its bytes: cheap, and
 * few names share one (they are told apart by their bytes). */
static uint32_t hash(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	if (!n)
		return 0;
	return ((uint32_t)n * 0x9e3779b1u ^ u[0] * 0x85ebca6bu ^
		u[n / 2] * 0xc2b2ae35u ^ u[n - 1] * 0x27d4eb2fu) >> 8;
}

static void make(void)
{
	uint32_t h;
	size_t i, n;

	for (h = 0; h < SLOTS; h++)
		slot[h].nr = -1;
	for (i = 0; i < NCALLS; i++) {
		n = strlen(calls[i].name);
		for (h = hash(calls[i].name, n) & (SLOTS - 1); slot[h].nr >= 0;
		     h = (h + 1) & (SLOTS - 1))
			;
		slot[h].name = calls[i].name;
		slot[h].n = n;
		slot[h].nr = calls[i].nr;
	}
	made = true;
}

int pf_syscall_nr(const char *s, size_t n)
{
	uint32_t h;

	if (!made)
		make();
	for (h = hash(s, n) & (SLOTS - 1); slot[h].nr >= 0;
	     h = (h + 1) & (SLOTS - 1))
		if (slot[h].n == n && !memcmp(slot[h].name, s, n))
			return slot[h].nr;
	return -1;
}
