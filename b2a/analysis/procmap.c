// SPDX-License-Identifier: GPL-2.0
/*
 * procmap.c - the tid -> process map the pipeline keeps from process events
 * (procmap.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/procmap.h"

static size_t hash(uint32_t tid, size_t mask)
{
	return (size_t)((tid * 2654435761u) & mask);
}

int procmap_init(struct procmap *pm)
{
	struct proc *p;
	unsigned int cpu;

	pm->mask = 1023;
	pm->used = 0;
	pm->gen = 0;
	pm->slots = calloc(pm->mask + 1, sizeof(*pm->slots));
	pm->idle = calloc(PROC_NR_CPUS, sizeof(*pm->idle));
	if (!pm->slots || !pm->idle) {
		procmap_free(pm);
		return -ENOMEM;
	}
	for (cpu = 0; cpu < PROC_NR_CPUS; cpu++) {
		p = &pm->idle[cpu];
		p->pid = 0;
		p->comm_len = (uint8_t)snprintf(p->comm, sizeof(p->comm),
						"swapper/%u", cpu);
		/* tid 0 is each CPU's own: its gen tells them apart */
		p->gen = cpu + 1;
	}
	return 0;
}

void procmap_free(struct procmap *pm)
{
	free(pm->slots);
	free(pm->idle);
	pm->slots = NULL;
	pm->idle = NULL;
}

const struct proc *procmap_get(const struct procmap *pm, uint32_t tid)
{
	size_t i = hash(tid, pm->mask);

	if (!tid)
		return NULL;
	for (;; i = (i + 1) & pm->mask) {
		if (pm->slots[i].tid == tid)
			return &pm->slots[i];
		if (!pm->slots[i].tid)
			return NULL;
	}
}

const struct proc *procmap_thread(const struct procmap *pm, uint32_t tid,
				  unsigned int cpu)
{
	return tid ? procmap_get(pm, tid) : &pm->idle[cpu % PROC_NR_CPUS];
}

static struct proc *slot_for(struct procmap *pm, uint32_t tid)
{
	size_t i = hash(tid, pm->mask);

	while (pm->slots[i].tid && pm->slots[i].tid != tid)
		i = (i + 1) & pm->mask;
	return &pm->slots[i];
}

static int grow(struct procmap *pm)
{
	struct procmap bigger = { .mask = pm->mask * 2 + 1 };
	size_t i;

	bigger.slots = calloc(bigger.mask + 1, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -ENOMEM;
	for (i = 0; i <= pm->mask; i++)
		if (pm->slots[i].tid)
			*slot_for(&bigger, pm->slots[i].tid) = pm->slots[i];
	bigger.used = pm->used;
	bigger.gen = pm->gen;
	bigger.idle = pm->idle;
	free(pm->slots);
	*pm = bigger;
	return 0;
}

int procmap_set(struct procmap *pm, uint32_t tid, int32_t pid,
		const char *comm, size_t comm_len)
{
	char name[PROC_COMM_LEN];
	struct proc *p;
	int ret;

	/* tid 0 is the idle task of every CPU: nothing to remember */
	if (!tid)
		return 0;
	/* comm may be in the table (a fork's parent): copy it before growing
	 * frees the table */
	if (comm) {
		if (comm_len > PROC_COMM_LEN)
			comm_len = PROC_COMM_LEN;
		memcpy(name, comm, comm_len);
		comm = name;
	}
	if ((pm->used + 1) * 2 > pm->mask) {
		ret = grow(pm);
		if (ret)
			return ret;
	}
	p = slot_for(pm, tid);
	if (!p->tid) {
		p->tid = tid;
		p->pid = -1;
		p->comm_len = 0;
		pm->used++;
	}
	p->gen = ++pm->gen;
	if (pid >= 0)
		p->pid = pid;
	if (comm) {
		memcpy(p->comm, comm, comm_len);
		p->comm_len = (uint8_t)comm_len;
	}
	return 0;
}
