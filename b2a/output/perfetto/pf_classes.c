// SPDX-License-Identifier: GPL-2.0
/*
 * pf_classes.c - what each (group, hook) of a host becomes in the
 * Perfetto trace (pf.h), worked out the first time it comes from its
 * metadata and the catalogue, and kept: the events then go out without
 * a name compared.
 *
 *   a kernel event      the CTF export's LTTng counterpart of the event
 *                       (ctf_lttng.h), where Perfetto knows that kernel
 *                       event (pf_ftrace.c), and the task records
 *   raw_syscalls        syscall.entry and .return, on an x86-64 trace
 *   cpu_idle            tskdispatch.cpuidle
 *   the process tree    process.snapshot; the task records,
 *                       process.fork and .execve too
 *   a track event       every other event: a slice of an LKET_PAIR
 *                       pair, else an instant
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/perfetto/pf.h"

enum { PF_PAIR_RETURN, PF_PAIR_ENTRY };

const struct pf_pair pf_pairs[] = {
#define LKET_GROUP(...)
#define LKET_EVENT(...)
#define LKET_PAIR(NAME, role, label, key) \
	{ LKET_EV_##NAME, PF_PAIR_##role, label, key },
#include "runtime/lket_events.def"
#undef LKET_GROUP
#undef LKET_EVENT
#undef LKET_PAIR
};

const size_t pf_npairs = sizeof(pf_pairs) / sizeof(pf_pairs[0]);

/* the fields read by name, by enum pf_field */
static const char *const field_names[PF_F_COUNT] = {
	[PF_F_SYSCALL_NAME] = "syscall_name", [PF_F_RETURN] = "return",
	[PF_F_TID] = "tid", [PF_F_PID] = "pid", [PF_F_PPID] = "ppid",
	[PF_F_PROCESS_NAME] = "process_name", [PF_F_PREV_PID] = "prev_pid",
	[PF_F_NEXT_PID] = "next_pid", [PF_F_PREV_STATE] = "prev_state",
	[PF_F_NAME] = "name", [PF_F_XID] = "xid", [PF_F_PROG] = "prog",
	[PF_F_RQ_XID] = "rq_xid", [PF_F_RQ_PROG] = "rq_prog",
	[PF_F_FILENAME] = "filename", [PF_F_NEW_TID] = "new_tid",
	[PF_F_NEW_PID] = "new_pid",
	[PF_F_NEW_PROCESS_NAME] = "new_process_name",
};

/* The events that become something of their own, by the catalogue's
 * index; the kernel events each task record is, Perfetto's own
 * (task_newtask, task_rename) with LTTng's. */
static const struct {
	uint8_t kind, tree;
	const char *tp[PF_CLASS_TPS];
} special[LKET_NR_EVENTS] = {
	[LKET_EV_SYSCALL_ENTRY] = { PF_SYS_ENTER, 0, { NULL } },
	[LKET_EV_SYSCALL_RETURN] = { PF_SYS_EXIT, 0, { NULL } },
	[LKET_EV_TASK_CPUIDLE] = { PF_CPU_IDLE, 0, { NULL } },
	[LKET_EV_PROCESS_SNAPSHOT] = { PF_SNAPSHOT, 0, { NULL } },
	[LKET_EV_TASK_NEW] = { PF_KERNEL, PF_TREE_NEW,
			       { "task_newtask", "sched_process_fork" } },
	[LKET_EV_TASK_EXEC] = { PF_KERNEL, PF_TREE_EXEC,
				{ "task_rename_exec", "sched_process_exec" } },
	[LKET_EV_TASK_RENAME] = { PF_KERNEL, PF_TREE_RENAME,
				  { "task_rename" } },
	[LKET_EV_TASK_EXIT] = { PF_KERNEL, 0, { "sched_process_exit" } },
};

static const uint8_t rpc_role[LKET_NR_EVENTS] = {
	[LKET_EV_SUNRPC_SCHED_EXECUTE_ENTRY] = PF_RPC_EXECUTE,
	[LKET_EV_SUNRPC_SCHED_RELEASE_TASK_ENTRY] = PF_RPC_RELEASE,
	[LKET_EV_SUNRPC_SVC_PROCESS_ENTRY] = PF_RPC_PROCESS,
	[LKET_EV_SUNRPC_SVC_SEND_ENTRY] = PF_RPC_SEND,
};

/* the process events, which name tasks as the task records do */
static const uint8_t tree_role[LKET_NR_EVENTS] = {
	[LKET_EV_PROCESS_FORK] = PF_TREE_FORK,
	[LKET_EV_PROCESS_EXECVE] = PF_TREE_EXECVE,
};

static const uint8_t sched_role[LKET_NR_EVENTS] = {
	[LKET_EV_TASK_WAKEUP] = PF_SCHED_WAKEUP,
	[LKET_EV_TASK_WAKEUP_NEW] = PF_SCHED_WAKEUP,
	[LKET_EV_TASK_CTXSWITCH] = PF_SCHED_SWITCH,
};

static const struct field *field_at(const struct event_meta *m,
				    unsigned int i)
{
	return i < m->sys.n ? &m->sys.f[i] : &m->user.f[i - m->sys.n];
}

/* The index of the field named name in m (its own fields first). */
static int field_index(const struct event_meta *m, const char *name)
{
	unsigned int i;

	for (i = 0; name && name[0] && i < m->sys.n + m->user.n; i++)
		if (!strcmp(field_at(m, i)->name, name))
			return (int)i;
	return -1;
}

static const struct lttng_field *lttng_field_named(const struct lttng_event *l,
						   const char *name)
{
	unsigned int i;

	for (i = 0; l && i < l->nfields; i++)
		if (!strcmp(l->fields[i].name, name))
			return &l->fields[i];
	return NULL;
}

/* Kernel event tp of c's event (l its LTTng counterpart): each field's
 * sources found.  A field whose source the trace lacks (an older trace's
 * event, with fewer fields) is left out. */
static void class_tp(struct pf_class *c, const struct lttng_event *l,
		     const struct pf_tp *tp)
{
	struct pf_class_tp *t = &c->tp[c->ntp++];
	const char *names[LTTNG_FROM_MAX];
	const struct pf_tp_spec *s;
	struct pf_tp_field *f;
	unsigned int i, k;

	t->tp = tp;
	for (i = 0; i < PF_TP_FIELDS && tp->f[i].number; i++) {
		s = &tp->f[i];
		f = &t->f[t->n];
		*f = (struct pf_tp_field){ .spec = s, .from = { -1, -1 } };
		if (s->src == PF_SRC_LTTNG) {
			f->lf = lttng_field_named(l, s->from);
			if (!f->lf)
				continue;
			lttng_field_reads(f->lf, names);
			for (k = 0; k < LTTNG_FROM_MAX; k++)
				f->from[k] = (int16_t)field_index(c->meta,
								  names[k]);
			/* a value the trace does not record: not made up */
			if (names[0][0] && f->from[0] < 0)
				continue;
		} else if (s->src == PF_SRC_LKET) {
			f->from[0] = (int16_t)field_index(c->meta, s->from);
			if (f->from[0] < 0)
				continue;
		}
		t->n++;
	}
}

/* A kernel event, if Perfetto knows the event's own or LTTng's. */
static void classify_kernel(struct pf_class *c, const struct pf_host *h)
{
	const struct event_meta *m = c->meta;
	const struct lttng_event *l = lttng_event_of(m->ev);
	const struct pf_tp *tp;
	unsigned int i;

	if (special[m->ev].kind) {
		c->kind = special[m->ev].kind;
		c->tree = special[m->ev].tree;
		for (i = 0; i < PF_CLASS_TPS && special[m->ev].tp[i]; i++)
			class_tp(c, l, pf_tp_named(special[m->ev].tp[i]));
		/* the system calls of another machine: track events */
		if ((c->kind == PF_SYS_ENTER || c->kind == PF_SYS_EXIT) &&
		    !h->x86_64)
			c->kind = PF_TRACK;
		return;
	}
	tp = l && !l->per_syscall ? pf_tp_named(l->name) : NULL;
	if (tp) {
		c->kind = PF_KERNEL;
		class_tp(c, l, tp);
	}
}

/* A track event's name and category, and its part in a pair. */
static void classify_track(struct pf_class *c, const struct event *ev)
{
	const struct event_meta *m = c->meta;
	const char *dot;
	size_t i, k;

	for (i = 0; m && m->ev >= 0 && i < pf_npairs; i++)
		if (pf_pairs[i].ev == m->ev) {
			c->pair = (int16_t)i;
			c->role = pf_pairs[i].entry ? PF_ENTRY : PF_RETURN;
			c->key = (int16_t)field_index(m, pf_pairs[i].key);
			c->name = pf_pairs[i].label;
			break;
		}
	/* the pair's track: its label's first line (+ 1), which the entry
	 * and the return share */
	for (k = 0; c->pair >= 0 && k <= (size_t)c->pair; k++)
		if (!strcmp(pf_pairs[k].label, c->name)) {
			c->track = (uint16_t)(k + 1);
			break;
		}
	if (m && m->named && !c->name)
		c->name = m->name;
	c->name_len = c->name ? strlen(c->name) : 0;
	/* the group: what the name says before its first dot */
	dot = c->name ? strchr(c->name, '.') : NULL;
	c->cat = c->name;
	c->cat_len = dot ? (size_t)(dot - c->name) : c->name_len;
	if (!c->name) {
		/* as lket.out names it */
		snprintf(c->own_name, sizeof(c->own_name), "unknown[%u:%u]",
			 ev->group, ev->hook);
		c->name = c->own_name;
		c->name_len = strlen(c->name);
		c->cat = "unknown";
		c->cat_len = strlen(c->cat);
	}
}

static void classify(struct pf_class *c, const struct pf_host *h,
		     const struct event *ev)
{
	const struct event_meta *m = ev->meta;
	unsigned int k;

	memset(c, 0, sizeof(*c));
	c->meta = m;
	c->pair = c->key = -1;
	for (k = 0; k < PF_F_COUNT; k++)
		c->f[k] = (int16_t)(m ? field_index(m, field_names[k]) : -1);
	c->kind = PF_TRACK;
	if (m && m->ev >= 0) {
		c->rpc = rpc_role[m->ev];
		c->sched = sched_role[m->ev];
		c->tree = tree_role[m->ev];
		classify_kernel(c, h);
	}
	/* group 0 but the task records: metadata, no event */
	if (ev->group == LKET_GROUP_LKET && c->kind == PF_TRACK)
		c->kind = PF_NOTHING;
	/* a system call Perfetto has no number of is a track event, and a
	 * kernel event's stacks are one */
	if (c->kind != PF_NOTHING)
		classify_track(c, ev);
}

struct pf_class *pf_class_new(struct pf_host *h, const struct event *ev)
{
	unsigned int id = (ev->group & 0xff) << 8 | (ev->hook & 0xff);
	struct pf_class *c = h->classes[id];

	if (!c) {
		c = malloc(sizeof(*c));
		if (!c)
			return NULL;
		h->classes[id] = c;
	}
	classify(c, h, ev);
	return c;
}

void pf_classes_free(struct pf_host *h)
{
	size_t i;

	for (i = 0; h->classes && i < 256 * 256; i++)
		free(h->classes[i]);
	free(h->classes);
	h->classes = NULL;
}
