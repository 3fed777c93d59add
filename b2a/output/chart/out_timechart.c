// SPDX-License-Identifier: GPL-2.0
/*
 * out_timechart.c - lket-b2a --timechart FILE.svg: a picture of the trace
 * over time, in plain SVG (lket-b2a(1), TIMECHART).
 *
 *   CPUs       which task ran when, a colour per process, idle blank:
 *              tskdispatch.ctxswitch and tskdispatch.cpuidle
 *   processes  the busiest tasks (by time on a CPU, or in system calls
 *              when nothing says what ran), the rest summed up in one
 *              lane: running, in a system call, waiting for a CPU,
 *              sleeping; markers for forks, execs,
 *              signals sent and received, IO submitted and completed,
 *              page faults as a density strip
 *   devices    block requests in flight, from their insertion
 *              (ioscheduler add, scsi ioentry) to their completion
 *   RPC        client calls from send to reply, per server; requests a
 *              server processed
 *
 * Everything goes into the columns of timechart.c and is drawn at
 * finish, so that memory does not grow with the trace.  A run of columns
 * that shows the same (the same task on a CPU, the same state of a task)
 * is one box, and every box has a <title>.  The file is bounded: the
 * picture is drawn once only to count its bytes, and if it would be
 * larger than its bound (TIMECHART_MAX_BYTES, 20 MB, unless told), its
 * columns are drawn in groups of 2, 4, ... until it fits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/chart/chart.h"
#include "output/registry.h"
#include "output/chart/tchart.h"

/* ---- what the events say ----------------------------------------------- */

static struct task *task_get(struct chart *c, uint32_t tid)
{
	struct u64map_slot *slot = u64map_find(&c->task_of, tid);
	struct task *t;

	if (slot)
		return &c->tasks[slot->val];
	if (c->ntasks == TC_MAX_TASKS ||
	    u64map_put(&c->task_of, tid, (uint32_t)c->ntasks))
		return NULL;
	t = &c->tasks[c->ntasks++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = -1;
	t->rpc = -1;
	t->cpu = -1;
	return t;
}

/* A task that did something: it gets a lane, or counts in others. */
static struct task *task_active(struct chart *c, uint32_t tid)
{
	struct task *t;

	if (!tid)
		return NULL;	/* the idle task, interrupts */
	t = task_get(c, tid);
	if (t && !t->lane && c->detailed < TC_MAX_DETAIL) {
		t->lane = tc_lane_new(&c->tc);
		c->detailed += t->lane != NULL;
	}
	return t;
}

static struct tc_lane *lane_of(const struct chart *c, const struct task *t)
{
	return t && t->lane ? t->lane : c->others;
}

static void task_name(struct task *t, const struct proc *p)
{
	if (!p)
		return;
	if (p->pid >= 0)
		t->pid = p->pid;
	if (p->comm_len) {
		memcpy(t->comm, p->comm, p->comm_len);
		t->comm[p->comm_len] = '\0';
	}
}

/* The time since the task's last change, in the state it was in. */
static void task_account(struct chart *c, struct task *t, uint64_t ts)
{
	enum tc_state st;

	if (ts < t->since || !t->since) {
		t->since = ts;
		return;
	}
	if (t->sched == S_RUNNING)
		st = t->in_sys ? TC_SYSCALL : TC_RUN;
	else if (t->sched == S_WAITING)
		st = TC_WAIT;
	else if (t->sched == S_SLEEPING)
		st = TC_SLEEP;
	else if (t->in_sys)
		st = TC_SYSCALL;
	else
		st = TC_NSTATES;
	if (st != TC_NSTATES && ts > t->since) {
		tc_span(&c->tc, lane_of(c, t), t->since, ts, st);
		if (t->sched == S_RUNNING)
			t->run += ts - t->since;
		else if (st == TC_SYSCALL)
			t->sys += ts - t->since;
	}
	t->since = ts;
}

static void task_mark(struct chart *c, struct task *t, uint64_t ts,
		      enum tc_mark m)
{
	tc_mark(&c->tc, lane_of(c, t), ts, m);
}

static struct cpu *cpu_get(struct chart *c, unsigned int cpu)
{
	struct cpu *p;

	if (cpu >= TC_MAX_CPUS)
		return NULL;
	p = &c->cpus[cpu];
	if (!p->lane) {
		p->lane = tc_lane_new(&c->tc);
		if (cpu >= c->ncpus)
			c->ncpus = cpu + 1;
	}
	return p->lane ? p : NULL;
}

/* CPU cpu runs tid (0: idle) from ts on. */
static void cpu_switch(struct chart *c, unsigned int cpu, uint64_t ts,
		       uint32_t tid)
{
	struct cpu *p = cpu_get(c, cpu);

	if (!p)
		return;
	if (p->tid && p->since && ts > p->since)
		tc_run(&c->tc, p->lane, p->since, ts, p->tid);
	p->tid = tid;
	p->since = ts;
}

/* From ts on the task is in a state no record tells: not drawn. */
static void task_unknown(struct chart *c, struct task *t, uint64_t ts)
{
	task_account(c, t, ts);
	t->sched = S_UNKNOWN;
	t->cpu = -1;
}

/* The task exited: its lane ends there (exit_group never returns). */
static void task_exit(struct chart *c, struct task *t, uint64_t ts)
{
	task_unknown(c, t, ts);
	t->in_sys = false;
	t->dead = true;
}

static void on_ctxswitch(struct chart *c, const struct event *ev, uint64_t ts)
{
	uint32_t prev = (uint32_t)event_int(ev, "prev_pid", 0);
	uint32_t next = (uint32_t)event_int(ev, "next_pid", 0);
	struct cpu *p = cpu_get(c, ev->cpu);
	struct u64map_slot *slot;
	struct task *t;

	/*
	 * A task runs only while it is its CPU's current one: whatever ran
	 * here before stops now, even if its switch-out was not recorded.
	 */
	slot = p && p->tid ? u64map_find(&c->task_of, p->tid) : NULL;
	if (slot) {
		t = &c->tasks[slot->val];
		if (t->sched == S_RUNNING && t->cpu == (int)ev->cpu)
			task_unknown(c, t, ts);
	}
	cpu_switch(c, ev->cpu, ts, next);
	t = task_active(c, prev);
	if (t && !t->dead) {
		task_account(c, t, ts);
		/* TASK_RUNNING (0) when switched out: preempted */
		t->sched = event_int(ev, "prev_state", 1) ? S_SLEEPING :
			   S_WAITING;
		t->cpu = -1;
	}
	t = task_active(c, next);
	if (t && !t->dead) {
		task_account(c, t, ts);
		t->sched = S_RUNNING;
		t->cpu = (int)ev->cpu;
	}
}

/*
 * A wake-up: its task waits for a CPU from now (not from a preemption
 * only), marked on its lane with its waker, the record's own task.
 */
static void on_wakeup(struct chart *c, const struct event *ev, uint64_t ts)
{
	uint32_t tid = (uint32_t)event_int(ev, "tid", 0);
	struct task *t = tid ? task_get(c, tid) : NULL;

	if (!t || t->dead)
		return;
	if (t->sched == S_SLEEPING || t->sched == S_UNKNOWN) {
		task_account(c, t, ts);
		t->sched = S_WAITING;
	}
	tc_wakeup(&c->tc, lane_of(c, t), ts, ev->tid);
}

static int dev_lane(struct chart *c, enum req_source source,
		    const struct event *ev)
{
	int major = (int)event_int(ev, "disk_major", -1);
	int minor = (int)event_int(ev, "disk_minor", -1);
	unsigned int i;

	for (i = 0; i < c->ndevs; i++)
		if (c->devs[i].source == source && c->devs[i].major == major &&
		    c->devs[i].minor == minor)
			return (int)i;
	if (c->ndevs == TC_MAX_DEVS) {
		c->dropped_lanes++;
		return -1;
	}
	c->devs[i].lane = tc_lane_new(&c->tc);
	if (!c->devs[i].lane)
		return -ENOMEM;
	c->devs[i].source = source;
	c->devs[i].major = major;
	c->devs[i].minor = minor;
	c->ndevs++;
	return (int)i;
}

static int on_request_start(struct chart *c, enum req_source source,
			    const struct event *ev, struct task *t, uint64_t ts)
{
	uint64_t addr = (uint64_t)event_int(ev, "request_addr", 0);
	struct u64map_slot *slot = u64map_find(&c->pending[source], addr);
	struct request *r;
	uint32_t idx;
	int dev = dev_lane(c, source, ev);

	if (dev < 0)
		return dev == -ENOMEM ? dev : 0;
	if (t)
		task_mark(c, t, ts, TC_IO_SUB);
	if (slot) {
		idx = slot->val;	/* inserted again: the later counts */
	} else if (c->free_req) {
		idx = c->free_req - 1;
		c->free_req = c->reqs[idx].tid;
	} else if (c->nreqs < TC_MAX_PENDING) {
		idx = (uint32_t)c->nreqs++;
	} else {
		return 0;	/* never completed, most likely: let it go */
	}
	if (!slot && u64map_put(&c->pending[source], addr, idx))
		return -ENOMEM;
	r = &c->reqs[idx];
	r->start = ts;
	r->tid = t ? t->tid : 0;
	r->dev = (uint16_t)dev;
	return 0;
}

static void on_request_end(struct chart *c, enum req_source source,
			   const struct event *ev, uint64_t ts)
{
	uint64_t addr = (uint64_t)event_int(ev, "request_addr", 0);
	struct u64map_slot *slot = u64map_find(&c->pending[source], addr);
	struct request *r;
	uint32_t idx;

	if (!slot)
		return;
	idx = slot->val;
	u64map_del(&c->pending[source], slot);
	r = &c->reqs[idx];
	tc_request(&c->tc, c->devs[r->dev].lane, r->start, ts);
	if (r->tid)
		task_mark(c, task_active(c, r->tid), ts, TC_IO_DONE);
	r->tid = c->free_req;	/* the free list goes through tid */
	c->free_req = idx + 1;
}

static int rpc_lane(struct chart *c, const char *name, bool server)
{
	unsigned int i;

	for (i = 0; i < c->nrpcs; i++)
		if (c->rpcs[i].server == server &&
		    !strncmp(c->rpcs[i].name, name, sizeof(c->rpcs[i].name) - 1))
			return (int)i;
	if (c->nrpcs == TC_MAX_RPC) {
		c->dropped_lanes++;
		return -1;
	}
	c->rpcs[i].lane = tc_lane_new(&c->tc);
	if (!c->rpcs[i].lane)
		return -ENOMEM;
	snprintf(c->rpcs[i].name, sizeof(c->rpcs[i].name), "%s", name);
	c->rpcs[i].server = server;
	c->nrpcs++;
	return (int)i;
}

static int on_rpc_start(struct chart *c, struct task *t,
			const struct event *ev, const char *name_field,
			bool server, uint64_t ts)
{
	const struct value *v = event_value(ev, name_field);
	int lane;

	if (!t)
		return 0;
	lane = rpc_lane(c, v && v->f->type == LKET_STRING ? v->s : "?",
			server);
	if (lane == -ENOMEM)
		return lane;
	t->rpc = lane;
	t->rpc_start = ts;
	return 0;
}

static void on_rpc_end(struct chart *c, struct task *t, uint64_t ts)
{
	if (!t || t->rpc < 0)
		return;
	tc_request(&c->tc, c->rpcs[t->rpc].lane, t->rpc_start, ts);
	t->rpc = -1;
}

/* A marker on t's lane, if the event has a task. */
static void task_mark_if(struct chart *c, struct task *t, uint64_t ts,
			 enum tc_mark mark)
{
	if (t)
		task_mark(c, t, ts, mark);
}

/* t forked: the child starts with its name. */
static void on_fork(struct chart *c, const struct event *ev, struct task *t,
		    uint64_t ts)
{
	struct task *other;

	if (t)
		task_mark(c, t, ts, TC_FORK);
	other = task_active(c, (uint32_t)event_int(ev, "new_tid", 0));
	if (other)
		other->dead = false;	/* a tid used again */
	if (other && t) {
		other->pid = (int32_t)event_int(ev, "new_pid", -1);
		memcpy(other->comm, t->comm, sizeof(t->comm));
	}
}

/* t sent a signal: marked on both ends. */
static void on_signal(struct chart *c, const struct event *ev,
		      struct task *t, uint64_t ts)
{
	struct task *other;

	if (t)
		task_mark(c, t, ts, TC_SIG_SENT);
	other = task_active(c, (uint32_t)event_int(ev, "pid", 0));
	if (other)
		task_mark(c, other, ts, TC_SIG_RECV);
}

static int tchart_event(struct output *o, const struct event *ev,
			const struct proc *proc)
{
	struct chart *c = chart_of(o);
	uint64_t ts = ev->rec->timestamp;
	int kind = ev->meta ? ev->meta->ev : -1;
	struct task *t = NULL;

	tc_column(&c->tc, ts);
	c->events++;
	if (kind < 0)
		kind = LKET_NR_EVENTS;
	else
		c->saw[kind] = true;
	/* the tracer's own snapshot records say nothing of their thread */
	if (kind != LKET_EV_PROCESS_SNAPSHOT) {
		t = task_active(c, ev->tid);
		if (t) {
			task_name(t, proc);
			t->events++;
		}
	}
	switch (kind) {
	case LKET_EV_TASK_CTXSWITCH:
		on_ctxswitch(c, ev, ts);
		break;
	case LKET_EV_TASK_CPUIDLE:
		cpu_switch(c, ev->cpu, ts, 0);
		break;
	case LKET_EV_TASK_WAKEUP:
	case LKET_EV_TASK_WAKEUP_NEW:
		on_wakeup(c, ev, ts);
		break;
	case LKET_EV_SYSCALL_ENTRY:
	case LKET_EV_SYSCALL_RETURN:
		if (t) {
			task_account(c, t, ts);
			t->in_sys = kind == LKET_EV_SYSCALL_ENTRY;
		}
		break;
	case LKET_EV_PROCESS_FORK:
		on_fork(c, ev, t, ts);
		break;
	case LKET_EV_PROCESS_EXECVE:
		task_mark_if(c, t, ts, TC_EXEC);
		break;
	case LKET_NR_EVENTS:
		/* not in the catalogue, but the name says it */
		if (t && ev->meta && ev->meta->name &&
		    !strcmp(ev->meta->name, "process.exit"))
			task_exit(c, t, ts);
		break;
	case LKET_EV_SIGNAL_SEND_ENTRY:
		on_signal(c, ev, t, ts);
		break;
	case LKET_EV_PAGEFAULT:
		task_mark_if(c, t, ts, TC_FAULT);
		break;
	case LKET_EV_IOSCHED_ELV_ADD_REQUEST:
		return on_request_start(c, REQ_IOSCHED, ev, t, ts);
	case LKET_EV_SCSI_IOENTRY:
		return on_request_start(c, REQ_SCSI, ev, t, ts);
	case LKET_EV_IOSCHED_ELV_COMPLETED_REQUEST:
		on_request_end(c, REQ_IOSCHED, ev, ts);
		break;
	case LKET_EV_SCSI_IOCOMPLETED:
		on_request_end(c, REQ_SCSI, ev, ts);
		break;
	case LKET_EV_SUNRPC_CLNT_CALL_SYNC_ENTRY:
	case LKET_EV_SUNRPC_CLNT_CALL_ASYNC_ENTRY:
		return on_rpc_start(c, t, ev, "servername", false, ts);
	case LKET_EV_SUNRPC_SVC_PROCESS_ENTRY:
		return on_rpc_start(c, t, ev, "sv_name", true, ts);
	case LKET_EV_SUNRPC_CLNT_CALL_SYNC_RETURN:
	case LKET_EV_SUNRPC_CLNT_CALL_ASYNC_RETURN:
	case LKET_EV_SUNRPC_SVC_PROCESS_RETURN:
		on_rpc_end(c, t, ts);
		break;
	default:
		break;
	}
	return 0;
}

static int tchart_process(struct output *o, uint64_t ts, const struct proc *p,
			  int32_t ppid, const char *event,
			  const char *host)
{
	struct chart *c = chart_of(o);
	struct task *t = task_get(c, p->tid);

	(void)ppid;
	(void)host;
	if (!t)
		return 0;
	task_name(t, p);
	if (!strcmp(event, "lket.task_exit"))
		task_exit(c, t, ts);
	else if (!strcmp(event, "lket.task_new"))
		t->dead = false;	/* a tid used again */
	return 0;
}

static int tchart_begin(struct output *o, const struct trace_info *trace)
{
	chart_of(o)->trace = trace;
	return 0;
}

static int tchart_lost(struct output *o, const struct seq_gap *g)
{
	(void)g;
	chart_of(o)->lost++;
	return 0;
}

static int tchart_finish(struct output *o)
{
	struct chart *c = chart_of(o);
	uint64_t end = c->tc.end;
	unsigned int k;
	size_t i;
	int ret;

	/* what runs and what is in flight at the end runs until then */
	for (k = 0; k < c->ncpus; k++)
		cpu_switch(c, k, end, 0);
	for (i = 0; i < c->ntasks; i++)
		task_account(c, &c->tasks[i], end);
	ret = tchart_draw(c);
	if (!ret)
		ret = outbuf_flush(&c->w);
	return ret;
}

static void tchart_free(struct output *o)
{
	struct chart *c = chart_of(o);
	int k;

	tc_free(&c->tc);
	u64map_free(&c->task_of);
	for (k = 0; k < REQ_SOURCES; k++)
		u64map_free(&c->pending[k]);
	free(c->tasks);
	free(c->reqs);
	outbuf_free(&c->w);
	free(c);
}

static const struct output_ops timechart_ops = {
	.begin = tchart_begin,
	.event = tchart_event,
	.lost = tchart_lost,
	.process = tchart_process,
	.finish = tchart_finish,
	.free = tchart_free,
};

int output_timechart_new(struct output **o, int fd, unsigned int procs,
			 uint64_t max_bytes)
{
	struct chart *c = calloc(1, sizeof(*c));
	int k;

	if (!c)
		return -ENOMEM;
	c->o.ops = &timechart_ops;
	c->procs = procs;
	c->max_bytes = max_bytes ? max_bytes : TIMECHART_MAX_BYTES;
	tc_init(&c->tc);
	c->tasks = malloc(TC_MAX_TASKS * sizeof(*c->tasks));
	c->reqs = malloc(TC_MAX_PENDING * sizeof(*c->reqs));
	c->others = tc_lane_new(&c->tc);
	if (!c->tasks || !c->reqs || !c->others ||
	    u64map_init(&c->task_of) || outbuf_init(&c->w, fd, 1 << 16))
		goto nomem;
	for (k = 0; k < REQ_SOURCES; k++)
		if (u64map_init(&c->pending[k]))
			goto nomem;
	*o = &c->o;
	return 0;
nomem:
	tchart_free(&c->o);
	return -ENOMEM;
}

static int timechart_create(struct output **o, const struct output_args *a)
{
	return output_timechart_new(o, a->fd, a->set->timechart_procs, 0);
}

const struct output_decl output_timechart_decl = {
	.option = "timechart", .arg = "FILE",
	.help =
"      --timechart FILE  draw the trace over time as an SVG picture: CPUs,\n"
"                 the busiest processes, block devices, RPC (lket-b2a(1))\n"
"      --timechart-procs N  processes with a lane of their own (default 16,\n"
"                 at most 100); the others share one\n",
	.target = OUTPUT_FILE,
	.one_host = true,
	.picture = true,
	.create = timechart_create,
};
