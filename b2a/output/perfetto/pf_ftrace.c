// SPDX-License-Identifier: GPL-2.0
/*
 * pf_ftrace.c - kernel events in per-CPU bundles (pf.h), as Perfetto's
 * ftrace data source writes them, each event with the time and thread
 * of the record it comes from.  A CPU's bundle goes out as a packet when
 * it passes PF_BUNDLE_MAX bytes, and at the end.
 *
 * Which LKET event is which kernel event, and where each of its fields
 * comes from, is the CTF export's (ctf_lttng.h): the table below gives,
 * for each kernel event Perfetto knows, LTTng's field each of Perfetto's
 * is read from, and how it is written:
 *
 *   priorities     LTTng's (prio - MAX_RT_PRIO: 20 for nice 0) + 100,
 *                  as the kernel's sched_* events report them;
 *   prev_state     LKET records the leaving task's state bits (the low
 *                  8, unsigned); sched_switch reports the highest of
 *                  them (the kernel's TASK_REPORT), a dead task (TASK_DEAD,
 *                  0x80) as EXIT_DEAD (X), 0 runnable;
 *   rwbs           LTTng's bits as blk_fill_rwbs() spells them.
 *
 * Perfetto's own (task_newtask and task_rename, which it names threads
 * and processes by) come from the task records' fields.  LKET's cpuidle
 * is an idle CPU's entry (cpu_idle state 0); it leaves idle (state
 * 4294967295) at its next switch to a task.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/perfetto/pf.h"

/* field F of message M (PF_M_F): from LTTng's field name, LKET's, none */
#define SPEC(src, name, M, F, conv)					\
	{ src, name, PF_##M##_##F, PF_##M##_##F##__WIRE, PF_CONV_##conv }
#define L(name, M, F, conv)	SPEC(PF_SRC_LTTNG, name, M, F, conv)
#define K(name, M, F, conv)	SPEC(PF_SRC_LKET, name, M, F, conv)
#define N(M, F, conv)		SPEC(PF_SRC_NONE, NULL, M, F, conv)

/* the kernel's clone flag of a new thread (include/uapi/linux/sched.h) */
#define CLONE_THREAD	0x00010000u
/* cpu_idle's state of a CPU that leaves idle (PWR_EVENT_EXIT) */
#define IDLE_EXIT	4294967295u
/* the kernel's TASK_REPORT bits of prev_state, and EXIT_DEAD */
#define TASK_REPORT	0x7fu
#define TASK_DEAD	0x80u
#define EXIT_DEAD	0x10u

const struct pf_tp pf_tps[] = {
	{ "sched_switch", PF_FTRACEEVENT_SCHED_SWITCH, {
		L("prev_comm", SCHEDSWITCHFTRACEEVENT, PREV_COMM, STR),
		L("prev_tid", SCHEDSWITCHFTRACEEVENT, PREV_PID, INT),
		L("prev_prio", SCHEDSWITCHFTRACEEVENT, PREV_PRIO, PRIO),
		L("prev_state", SCHEDSWITCHFTRACEEVENT, PREV_STATE, STATE),
		L("next_comm", SCHEDSWITCHFTRACEEVENT, NEXT_COMM, STR),
		L("next_tid", SCHEDSWITCHFTRACEEVENT, NEXT_PID, INT),
		L("next_prio", SCHEDSWITCHFTRACEEVENT, NEXT_PRIO, PRIO) } },
	{ "sched_waking", PF_FTRACEEVENT_SCHED_WAKING, {
		L("comm", SCHEDWAKINGFTRACEEVENT, COMM, STR),
		L("tid", SCHEDWAKINGFTRACEEVENT, PID, INT),
		L("prio", SCHEDWAKINGFTRACEEVENT, PRIO, PRIO),
		N(SCHEDWAKINGFTRACEEVENT, SUCCESS, ONE),
		L("target_cpu", SCHEDWAKINGFTRACEEVENT, TARGET_CPU, INT) } },
	{ "sched_wakeup_new", PF_FTRACEEVENT_SCHED_WAKEUP_NEW, {
		L("comm", SCHEDWAKEUPNEWFTRACEEVENT, COMM, STR),
		L("tid", SCHEDWAKEUPNEWFTRACEEVENT, PID, INT),
		L("prio", SCHEDWAKEUPNEWFTRACEEVENT, PRIO, PRIO),
		N(SCHEDWAKEUPNEWFTRACEEVENT, SUCCESS, ONE),
		L("target_cpu", SCHEDWAKEUPNEWFTRACEEVENT, TARGET_CPU, INT) } },
	{ "sched_migrate_task", PF_FTRACEEVENT_SCHED_MIGRATE_TASK, {
		L("comm", SCHEDMIGRATETASKFTRACEEVENT, COMM, STR),
		L("tid", SCHEDMIGRATETASKFTRACEEVENT, PID, INT),
		L("prio", SCHEDMIGRATETASKFTRACEEVENT, PRIO, PRIO),
		L("orig_cpu", SCHEDMIGRATETASKFTRACEEVENT, ORIG_CPU, INT),
		L("dest_cpu", SCHEDMIGRATETASKFTRACEEVENT, DEST_CPU, INT) } },
	{ "sched_process_fork", PF_FTRACEEVENT_SCHED_PROCESS_FORK, {
		L("parent_comm", SCHEDPROCESSFORKFTRACEEVENT, PARENT_COMM, STR),
		L("parent_tid", SCHEDPROCESSFORKFTRACEEVENT, PARENT_PID, INT),
		L("child_comm", SCHEDPROCESSFORKFTRACEEVENT, CHILD_COMM, STR),
		L("child_tid", SCHEDPROCESSFORKFTRACEEVENT, CHILD_PID, INT) } },
	{ "sched_process_exec", PF_FTRACEEVENT_SCHED_PROCESS_EXEC, {
		L("filename", SCHEDPROCESSEXECFTRACEEVENT, FILENAME, STR),
		L("tid", SCHEDPROCESSEXECFTRACEEVENT, PID, INT),
		L("old_tid", SCHEDPROCESSEXECFTRACEEVENT, OLD_PID, INT) } },
	{ "sched_process_exit", PF_FTRACEEVENT_SCHED_PROCESS_EXIT, {
		L("comm", SCHEDPROCESSEXITFTRACEEVENT, COMM, STR),
		L("tid", SCHEDPROCESSEXITFTRACEEVENT, PID, INT),
		K("pid", SCHEDPROCESSEXITFTRACEEVENT, TGID, INT),
		L("prio", SCHEDPROCESSEXITFTRACEEVENT, PRIO, PRIO) } },
	{ "task_newtask", PF_FTRACEEVENT_TASK_NEWTASK, {
		K("tid", TASKNEWTASKFTRACEEVENT, PID, INT),
		K("process_name", TASKNEWTASKFTRACEEVENT, COMM, STR),
		K("pid", TASKNEWTASKFTRACEEVENT, CLONE_FLAGS, CLONE) } },
	{ "task_rename", PF_FTRACEEVENT_TASK_RENAME, {
		K("tid", TASKRENAMEFTRACEEVENT, PID, INT),
		K("process_name", TASKRENAMEFTRACEEVENT, NEWCOMM, STR) } },
	/* an exec renames the task after its file (the kernel's
	 * __set_task_comm(), which fires task_rename) */
	{ "task_rename_exec", PF_FTRACEEVENT_TASK_RENAME, {
		K("tid", TASKRENAMEFTRACEEVENT, PID, INT),
		K("filename", TASKRENAMEFTRACEEVENT, NEWCOMM, BASENAME) } },
	{ "block_rq_insert", PF_FTRACEEVENT_BLOCK_RQ_INSERT, {
		L("dev", BLOCKRQINSERTFTRACEEVENT, DEV, INT),
		L("sector", BLOCKRQINSERTFTRACEEVENT, SECTOR, INT),
		L("nr_sector", BLOCKRQINSERTFTRACEEVENT, NR_SECTOR, INT),
		L("bytes", BLOCKRQINSERTFTRACEEVENT, BYTES, INT),
		L("rwbs", BLOCKRQINSERTFTRACEEVENT, RWBS, RWBS),
		L("comm", BLOCKRQINSERTFTRACEEVENT, COMM, STR) } },
	{ "block_rq_issue", PF_FTRACEEVENT_BLOCK_RQ_ISSUE, {
		L("dev", BLOCKRQISSUEFTRACEEVENT, DEV, INT),
		L("sector", BLOCKRQISSUEFTRACEEVENT, SECTOR, INT),
		L("nr_sector", BLOCKRQISSUEFTRACEEVENT, NR_SECTOR, INT),
		L("bytes", BLOCKRQISSUEFTRACEEVENT, BYTES, INT),
		L("rwbs", BLOCKRQISSUEFTRACEEVENT, RWBS, RWBS),
		L("comm", BLOCKRQISSUEFTRACEEVENT, COMM, STR) } },
	{ "block_rq_complete", PF_FTRACEEVENT_BLOCK_RQ_COMPLETE, {
		L("dev", BLOCKRQCOMPLETEFTRACEEVENT, DEV, INT),
		L("sector", BLOCKRQCOMPLETEFTRACEEVENT, SECTOR, INT),
		L("nr_sector", BLOCKRQCOMPLETEFTRACEEVENT, NR_SECTOR, INT),
		L("rwbs", BLOCKRQCOMPLETEFTRACEEVENT, RWBS, RWBS),
		L("error", BLOCKRQCOMPLETEFTRACEEVENT, ERROR, INT) } },
	{ "net_dev_xmit", PF_FTRACEEVENT_NET_DEV_XMIT, {
		L("len", NETDEVXMITFTRACEEVENT, LEN, INT),
		L("name", NETDEVXMITFTRACEEVENT, NAME, STR),
		L("rc", NETDEVXMITFTRACEEVENT, RC, INT),
		L("skbaddr", NETDEVXMITFTRACEEVENT, SKBADDR, INT) } },
	{ "netif_receive_skb", PF_FTRACEEVENT_NETIF_RECEIVE_SKB, {
		L("len", NETIFRECEIVESKBFTRACEEVENT, LEN, INT),
		L("name", NETIFRECEIVESKBFTRACEEVENT, NAME, STR),
		L("skbaddr", NETIFRECEIVESKBFTRACEEVENT, SKBADDR, INT) } },
};

const size_t pf_ntps = sizeof(pf_tps) / sizeof(pf_tps[0]);

const struct pf_tp *pf_tp_named(const char *name)
{
	size_t i;

	for (i = 0; name && i < pf_ntps; i++)
		if (!strcmp(pf_tps[i].name, name))
			return &pf_tps[i];
	return NULL;
}

bool pf_tps_consistent(void)
{
	size_t i, k;
	uint8_t conv, want;

	for (i = 0; i < pf_ntps; i++)
		for (k = 0; k < PF_TP_FIELDS && pf_tps[i].f[k].number; k++) {
			conv = pf_tps[i].f[k].conv;
			want = conv == PF_CONV_STR || conv == PF_CONV_RWBS ||
			       conv == PF_CONV_BASENAME ?
			       PB_WT_LEN : PB_WT_VARINT;
			if (pf_tps[i].f[k].wire != want)
				return false;
		}
	return true;
}

/* ---- bundles ---------------------------------------------------------- */

struct pf_cpu *pf_cpu_new(struct pf_host *h, unsigned int cpu)
{
	struct pf_cpu *c = calloc(1, sizeof(*c));

	if (!c || pb_init(&c->bundle, PF_BUNDLE_MAX + 4096)) {
		free(c);
		return NULL;
	}
	PB_UINT(&c->bundle, PF_FTRACEEVENTBUNDLE_CPU, cpu);
	c->head = c->bundle.len;
	h->cpus[cpu] = c;
	if (cpu >= h->ncpus)
		h->ncpus = cpu + 1;
	return c;
}

/* CPU c's bundle out as a packet, and a new one started. */
static int bundle_out(struct pf *p, struct pf_host *h, struct pf_cpu *c)
{
	struct pbuf *b = &c->bundle;
	int ret;

	if (b->len == c->head && !c->lost)
		return 0;
	if (c->lost)
		PB_UINT(b, PF_FTRACEEVENTBUNDLE_LOST_EVENTS, 1);
	c->lost = false;
	ret = pb_reserve(&p->out, b->len + 8 * PB_FIELD_MAX);
	if (ret)
		return ret;
	pf_packet_head(p, h, 0);
	PB_BYTES(&p->out, PF_TRACEPACKET_FTRACE_EVENTS, b->buf, b->len);
	ret = pb_close(&p->out);
	b->len = c->head;
	return ret ? ret : pf_out_flush(p, false);
}

int pf_bundles_flush(struct pf *p, struct pf_host *h)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < h->ncpus; i++)
		if (h->cpus[i])
			ret = bundle_out(p, h, h->cpus[i]);
	return ret;
}

/*
 * An event of thread tid opens in cpu's bundle, room for n bytes more
 * reserved: the kernel event's own message is open after it, field k of
 * FtraceEvent; pf_close_event() ends both.
 */
static struct pbuf *open_event(struct pf_host *h, unsigned int cpu,
			       uint64_t ts, uint32_t tid, uint32_t k,
			       size_t n, struct pf_cpu **cp)
{
	struct pf_cpu *c = pf_cpu_of(h, cpu);
	struct pbuf *b;

	if (!c || pb_reserve(&c->bundle, n + 8 * PB_FIELD_MAX))
		return NULL;
	b = &c->bundle;
	PB_OPEN(b, PF_FTRACEEVENTBUNDLE_EVENT);
	PB_UINT(b, PF_FTRACEEVENT_TIMESTAMP, ts);
	PB_UINT(b, PF_FTRACEEVENT_PID, tid);
	pb_open(b, k);
	*cp = c;
	if (ts > h->last_ts)
		h->last_ts = ts;
	if (ts < h->first_ts)
		h->first_ts = ts;
	return b;
}

static int close_event(struct pf *p, struct pf_host *h, struct pf_cpu *c)
{
	int ret = pb_close_all(&c->bundle);

	if (!ret && c->bundle.len > PF_BUNDLE_MAX)
		ret = bundle_out(p, h, c);
	return ret;
}

/* ---- kernel events ---------------------------------------------------- */

/* sched_switch's prev_state from LKET's (see the head). */
static int64_t report_state(uint64_t raw)
{
	uint64_t s = raw & TASK_REPORT;

	if (!s)
		return raw & TASK_DEAD ? EXIT_DEAD : 0;
	while (s & (s - 1))
		s &= s - 1;
	return (int64_t)s;
}

static const struct value *value_at(const struct event *ev, int i)
{
	return i >= 0 && (unsigned int)i < ev->nvalues ? &ev->v[i] : NULL;
}

/* Field f of a kernel event of ev into b. */
static int put_field(struct pf *p, struct pbuf *b, const struct pf_class *c,
		     const struct pf_tp_field *f, const struct event *ev,
		     const struct proc *proc, const struct procmap *procs)
{
	const struct pf_tp_spec *s = f->spec;
	const struct value *from[LTTNG_FROM_MAX];
	struct lttng_value v = { .s = "" };
	const struct value *x;
	char rwbs[LTTNG_RWBS_STR_MAX];
	const char *str, *slash;
	size_t n;
	int ret;

	if (s->src == PF_SRC_LTTNG) {
		from[0] = value_at(ev, f->from[0]);
		from[1] = value_at(ev, f->from[1]);
		lttng_value_from(f->lf, from, ev, proc, procs, &v);
	} else if (s->src == PF_SRC_LKET) {
		x = value_at(ev, f->from[0]);
		if (!x)
			return 0;
		if (x->f->type == LKET_STRING) {
			v.s = x->s;
			v.slen = x->slen;
		} else {
			v.i = x->i;
		}
	}
	switch (s->conv) {
	case PF_CONV_STR:
	case PF_CONV_BASENAME:
		str = v.s;
		n = v.slen;
		slash = s->conv == PF_CONV_BASENAME ? memrchr(str, '/', n) :
			NULL;
		if (slash) {
			n -= (size_t)(slash + 1 - str);
			str = slash + 1;
		}
		ret = pf_text(p, &str, &n);
		if (!ret)
			ret = pb_reserve(b, n + PB_FIELD_MAX);
		if (ret)
			return ret;
		pb_bytes(b, s->number, str, n);
		return 0;
	case PF_CONV_RWBS:
		n = lttng_rwbs_string((uint32_t)v.i, rwbs);
		pb_bytes(b, s->number, rwbs, n);
		return 0;
	case PF_CONV_PRIO:
		v.i += 100;
		break;
	case PF_CONV_STATE:
		v.i = report_state((uint64_t)v.i & 0xff);
		break;
	case PF_CONV_ONE:
		v.i = 1;
		break;
	case PF_CONV_CPU:
		v.i = ev->cpu;
		break;
	case PF_CONV_CLONE:
		v.i = pf_int(c, ev, PF_F_TID, v.i) != v.i ? CLONE_THREAD : 0;
		break;
	default:
		break;
	}
	pb_int(b, s->number, v.i);
	return 0;
}

int pf_kernel_event(struct pf *p, struct pf_host *h, struct pf_class *c,
		    const struct event *ev, const struct proc *proc)
{
	/* strings from the record, escaped at most 5 bytes for one, and
	 * the comms */
	size_t room = 5 * (size_t)ev->rec->size + 512;
	const struct pf_class_tp *t;
	struct pf_cpu *cpu;
	struct pbuf *b;
	unsigned int i, k;
	int ret = 0;

	for (i = 0; !ret && i < c->ntp; i++) {
		t = &c->tp[i];
		b = open_event(h, ev->cpu, ev->rec->timestamp, ev->tid,
			       t->tp->field, room, &cpu);
		if (!b)
			return -ENOMEM;
		for (k = 0; !ret && k < t->n; k++)
			ret = put_field(p, b, c, &t->f[k], ev, proc,
					h->info->procs);
		if (!ret)
			ret = close_event(p, h, cpu);
	}
	return ret;
}

/*
 * A system call's entry or exit, the most common events, written in one
 * go: both lengths fit the byte kept for them (the event's is at most 42
 * bytes), patched when the event is written.
 */
int pf_sys_event(struct pf *p, struct pf_host *h, struct pf_class *c,
		 const struct event *ev)
{
	const struct value *name = pf_value(c, ev, PF_F_SYSCALL_NAME);
	const struct value *ret = c->kind == PF_SYS_EXIT ?
				  pf_value(c, ev, PF_F_RETURN) : NULL;
	uint64_t ts = ev->rec->timestamp;
	struct pf_cpu *cpu;
	uint8_t *w, *body, *inner;
	int nr = name && name->f->type == LKET_STRING ?
		 pf_syscall_nr(name->s, name->slen) : -1;

	/* a call Perfetto cannot name: LKET's event, as any other */
	if (nr < 0)
		return pf_track_event(p, h, c, ev, NULL);
	cpu = pf_cpu_of(h, ev->cpu);
	if (!cpu || pb_reserve(&cpu->bundle, 8 * PB_FIELD_MAX))
		return -ENOMEM;
	if (ret && ret->f->type == LKET_STRING)
		ret = NULL;
	w = cpu->bundle.buf + cpu->bundle.len;
	*w++ = PB_KEY(PF_FTRACEEVENTBUNDLE_EVENT, PB_WT_LEN);
	body = w++;
	*w++ = PB_KEY(PF_FTRACEEVENT_TIMESTAMP, PB_WT_VARINT);
	w = pb_put_varint(w, ts);
	*w++ = PB_KEY(PF_FTRACEEVENT_PID, PB_WT_VARINT);
	w = pb_put_varint(w, ev->tid);
	w = pb_put_varint(w, ret ? PB_KEY(PF_FTRACEEVENT_SYS_EXIT, PB_WT_LEN) :
			  PB_KEY(PF_FTRACEEVENT_SYS_ENTER, PB_WT_LEN));
	inner = w++;
	*w++ = PB_KEY(PF_SYSENTERFTRACEEVENT_ID, PB_WT_VARINT);
	w = pb_put_varint(w, (uint64_t)nr);
	_Static_assert(PF_SYSENTERFTRACEEVENT_ID == PF_SYSEXITFTRACEEVENT_ID,
		       "sys_enter's and sys_exit's id differ");
	if (ret) {
		*w++ = PB_KEY(PF_SYSEXITFTRACEEVENT_RET, PB_WT_VARINT);
		w = pb_put_varint(w, (uint64_t)ret->i);
	}
	*inner = (uint8_t)(w - inner - 1);
	*body = (uint8_t)(w - body - 1);
	cpu->bundle.len = (size_t)(w - cpu->bundle.buf);
	if (ts > h->last_ts)
		h->last_ts = ts;
	if (ts < h->first_ts)
		h->first_ts = ts;
	return cpu->bundle.len > PF_BUNDLE_MAX ? bundle_out(p, h, cpu) : 0;
}

static int cpu_idle(struct pf *p, struct pf_host *h, unsigned int cpu,
		    uint64_t ts, uint32_t tid, uint32_t state)
{
	struct pf_cpu *c;
	struct pbuf *b = open_event(h, cpu, ts, tid, PF_FTRACEEVENT_CPU_IDLE,
				    0, &c);

	if (!b)
		return -ENOMEM;
	PB_UINT(b, PF_CPUIDLEFTRACEEVENT_STATE, state);
	PB_UINT(b, PF_CPUIDLEFTRACEEVENT_CPU_ID, cpu);
	c->idle = state != IDLE_EXIT;
	return close_event(p, h, c);
}

int pf_idle_event(struct pf *p, struct pf_host *h, const struct event *ev)
{
	return cpu_idle(p, h, ev->cpu, ev->rec->timestamp, ev->tid, 0);
}

/* A CPU in cpu_idle that switches to a task leaves idle. */
int pf_idle_leave(struct pf *p, struct pf_host *h, const struct event *ev,
		  int64_t next)
{
	struct pf_cpu *c = pf_cpu_of(h, ev->cpu);

	if (!c)
		return -ENOMEM;
	if (!c->idle || next <= 0)
		return 0;
	return cpu_idle(p, h, ev->cpu, ev->rec->timestamp, ev->tid,
			IDLE_EXIT);
}

int pf_marker(struct pf *p, struct pf_host *h, int cpu, uint64_t ts,
	      const char *event, const char *const *name,
	      const uint64_t *val, unsigned int n)
{
	struct pf_cpu *c;
	struct pbuf *b;
	unsigned int i;
	int ret = 0;

	b = open_event(h, cpu < 0 ? 0 : (unsigned int)cpu, ts, 0,
		       PF_FTRACEEVENT_GENERIC, 64 + 48 * n, &c);
	if (!b)
		return -ENOMEM;
	PB_STR(b, PF_GENERICFTRACEEVENT_EVENT_NAME, event);
	for (i = 0; !ret && i < n; i++) {
		PB_OPEN(b, PF_GENERICFTRACEEVENT_FIELD);
		PB_STR(b, PF_GENERICFTRACEEVENT_FIELD_NAME, name[i]);
		PB_UINT(b, PF_GENERICFTRACEEVENT_FIELD_UINT_VALUE, val[i]);
		ret = pb_close(b);
	}
	if (!ret)
		ret = close_event(p, h, c);
	return ret;
}
