/* SPDX-License-Identifier: GPL-2.0 */
/*
 * procmap.h - which process each thread belongs to, and its name.
 *
 * common_data carries only the thread ID; the process ID and name come
 * from the process snapshot taken when tracing starts and from fork and
 * execve records as they go by.  An open-addressing table keyed by tid.
 * Thread 0 is each CPU's idle task, pid 0, which the kernel names
 * swapper/N after its CPU N: procmap_thread() says so.
 */
#ifndef LKET_PROCMAP_H
#define LKET_PROCMAP_H

#include <stddef.h>
#include <stdint.h>

#define PROC_COMM_LEN	16	/* TASK_COMM_LEN */
#define PROC_NR_CPUS	256	/* a record's CPU is 8 bits */

struct proc {
	uint32_t tid;		/* 0: free slot */
	int32_t pid;		/* -1: not known */
	char comm[PROC_COMM_LEN];
	uint8_t comm_len;	/* 0: not known */
	uint32_t gen;		/* changes whenever pid or comm does */
};

struct procmap {
	struct proc *slots;
	size_t mask, used;
	uint32_t gen;
	struct proc *idle;	/* PROC_NR_CPUS: swapper/0, swapper/1 ... */
};

int procmap_init(struct procmap *pm);
void procmap_free(struct procmap *pm);
/* NULL if tid was never seen, or is 0 (whose name depends on the CPU). */
const struct proc *procmap_get(const struct procmap *pm, uint32_t tid);
/* Thread tid as an event of CPU cpu sees it: for 0, that CPU's idle
 * task; NULL if tid was never seen. */
const struct proc *procmap_thread(const struct procmap *pm, uint32_t tid,
				  unsigned int cpu);
/* Set what is known: pid < 0 and comm == NULL leave that part as it is. */
int procmap_set(struct procmap *pm, uint32_t tid, int32_t pid,
		const char *comm, size_t comm_len);

#endif
