// SPDX-License-Identifier: GPL-2.0
/*
 * tasks.c - the tid -> process map kept from process events and the
 * always-on task records, one handler per event (source_int.h).
 */
#include <string.h>

#include "pipeline/source_int.h"

/*
 * Process tracking: what each process event does to the tid -> process
 * map, keyed by the catalogue's event (the trace's event of that name).
 * Each sets the task *tid and its parent *ppid (-1 unknown).
 */
typedef int (*process_handler)(struct source *c, const struct event *ev,
			       uint32_t *tid, int32_t *ppid);

/* A task in full: process.snapshot, and lket.task_new of a new one. */
static int on_named_task(struct source *c, const struct event *ev,
			 uint32_t *tid, int32_t *ppid)
{
	const char *comm = str_named(ev, "process_name");

	*tid = (uint32_t)event_int(ev, "tid", 0);
	*ppid = (int32_t)event_int(ev, "ppid", -1);
	return procmap_set(&c->procs, *tid, (int32_t)event_int(ev, "pid", -1),
			   comm, comm ? strlen(comm) : 0);
}

static int on_fork(struct source *c, const struct event *ev,
		   uint32_t *tid, int32_t *ppid)
{
	/* the child starts with its parent's name */
	const struct proc *parent = procmap_thread(&c->procs, ev->tid,
						   ev->cpu);

	*tid = (uint32_t)event_int(ev, "new_tid", 0);
	*ppid = (int32_t)event_int(ev, "ppid", -1);
	return procmap_set(&c->procs, *tid,
			   (int32_t)event_int(ev, "new_pid", -1),
			   parent && parent->comm_len ? parent->comm : NULL,
			   parent ? parent->comm_len : 0);
}

static int on_execve(struct source *c, const struct event *ev,
		     uint32_t *tid, int32_t *ppid)
{
	const char *comm = str_named(ev, "new_process_name");

	(void)ppid;
	if (!comm)
		return 0;
	/* comm is the last path component, as the kernel's */
	if (strrchr(comm, '/'))
		comm = strrchr(comm, '/') + 1;
	return procmap_set(&c->procs, *tid, (int32_t)event_int(ev, "pid", -1),
			   comm, strlen(comm));
}

/* The always-on records: the task is named by tid, not by the writer. */
static int on_task_exec(struct source *c, const struct event *ev,
			uint32_t *tid, int32_t *ppid)
{
	const char *comm = str_named(ev, "filename");

	(void)ppid;
	*tid = (uint32_t)event_int(ev, "tid", 0);
	if (comm && strrchr(comm, '/'))
		comm = strrchr(comm, '/') + 1;
	return procmap_set(&c->procs, *tid, (int32_t)event_int(ev, "pid", -1),
			   comm, comm ? strlen(comm) : 0);
}

static int on_task_other(struct source *c, const struct event *ev,
			 uint32_t *tid, int32_t *ppid)
{
	const char *comm = str_named(ev, "process_name");

	(void)ppid;
	*tid = (uint32_t)event_int(ev, "tid", 0);
	return procmap_set(&c->procs, *tid, (int32_t)event_int(ev, "pid", -1),
			   comm, comm ? strlen(comm) : 0);
}

static const process_handler process_handlers[LKET_NR_EVENTS] = {
	[LKET_EV_PROCESS_SNAPSHOT] = on_named_task,
	[LKET_EV_PROCESS_FORK] = on_fork,
	[LKET_EV_PROCESS_EXECVE] = on_execve,
	[LKET_EV_TASK_NEW] = on_named_task,
	[LKET_EV_TASK_EXEC] = on_task_exec,
	[LKET_EV_TASK_RENAME] = on_task_other,
	[LKET_EV_TASK_EXIT] = on_task_other,
};

bool tasks_handles(int ev)
{
	return ev >= 0 && process_handlers[ev];
}

/* Keep the tid -> process map current from process events. */
int tasks_track(struct source *c, const struct event *ev)
{
	uint32_t tid = ev->tid;
	int32_t ppid = -1;
	int ret;

	if (ev->meta->ev < 0 || !process_handlers[ev->meta->ev])
		return 0;
	ret = process_handlers[ev->meta->ev](c, ev, &tid, &ppid);
	if (!ret && c->out->ops->process && procmap_get(&c->procs, tid))
		ret = c->out->ops->process(c->out, ev->rec->timestamp,
					   procmap_get(&c->procs, tid), ppid,
					   ev->meta->name, ev->host);
	return ret;
}

/*
 * An always-on task record (lket.task_*): the process table, and the
 * outputs that want it; a malformed one is damage, as any other.
 */
void tasks_apply(struct source *c)
{
	int ret;

	if (c->scan)
		return;
	ret = tasks_track(c, &c->ev);

	if (!ret && c->out->ops->task)
		ret = c->out->ops->task(c->out, &c->ev,
					procmap_thread(&c->procs, c->ev.tid,
						       c->ev.cpu));
	if (ret && !c->error)
		c->error = ret;
}
