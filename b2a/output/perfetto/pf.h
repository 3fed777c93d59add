/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pf.h - inside the Perfetto export (lket-b2a --perfetto FILE), cut by
 * job:
 *
 *   out_perfetto.c  the output's ops and its declaration (the glue)
 *   pf_trace.c      the file: packets, each host as a machine with its
 *                   sequence, system info and clock, the end
 *   pf_classes.c    what each (group, hook) becomes, worked out once
 *   pf_ftrace.c     per-CPU bundles of kernel events: scheduling,
 *                   tasks, system calls, block requests, network
 *   pf_track.c      track events: thread tracks, slices and instants,
 *                   the record's fields as arguments, call stacks
 *   pf_intern.c     interned names, frames and call stacks
 *   pf_flows.c      flows: wake-ups, RPCs across hosts, the critical path
 *   pf_losses.c     losses: a marker at each gap, the trace's stats
 *   pf_syscalls.c   x86-64 system call numbers by name
 *
 * The protocol's field numbers are PF_<MESSAGE>_<FIELD>, made from the
 * schema (lket_perfetto.proto) into pf_fields.h by the Makefile.
 */
#ifndef LKET_PF_H
#define LKET_PF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"
#include "output/ctf/ctf_lttng.h"
#include "output/output.h"
#include "pf_fields.h"
#include "util/pbwire.h"
#include "util/u64map.h"

/* a CPU's bundle goes out past this many bytes; the file's buffer is
 * written out past PF_OUT_MAX */
#define PF_BUNDLE_MAX	(32u << 10)
#define PF_OUT_MAX	(1u << 20)
/* CPUs of a host (a record's CPU field holds up to LKET_CPU_MAX) */
#define PF_CPUS		B2A_CPUS
/* kernel events one LKET record becomes, at most */
#define PF_CLASS_TPS	2
/* fields of a kernel event */
#define PF_TP_FIELDS	8

/* What a (group, hook) becomes. */
enum pf_kind {
	PF_NOTHING,		/* metadata: not an event */
	PF_TRACK,		/* a track event: a slice's end, an instant */
	PF_KERNEL,		/* kernel events in the CPU's bundle */
	PF_SYS_ENTER,		/* raw_syscalls */
	PF_SYS_EXIT,
	PF_CPU_IDLE,
	PF_SNAPSHOT,		/* process.snapshot: the process tree */
};

/* A track event's part in an LKET_PAIR pair. */
enum pf_role { PF_INSTANT, PF_ENTRY, PF_RETURN };

/* Its part in an RPC (rpcpair.h), for the flows across hosts. */
enum pf_rpc_role { PF_RPC_NONE, PF_RPC_EXECUTE, PF_RPC_RELEASE,
		   PF_RPC_PROCESS, PF_RPC_SEND };

/* A record's part in the process tree, as lket-b2a's process map takes
 * it (tasks.c): a new task (a task record), an exec (the file's name), a
 * rename; process.fork (the parent's name), process.execve. */
enum pf_tree_role { PF_TREE_NONE, PF_TREE_NEW, PF_TREE_EXEC,
		    PF_TREE_RENAME, PF_TREE_FORK, PF_TREE_EXECVE };

/* Its part in scheduling, for wake-up flows and idle CPUs. */
enum pf_sched_role { PF_SCHED_NONE, PF_SCHED_WAKEUP, PF_SCHED_SWITCH };

/* The fields the export reads by name, found once per class. */
enum pf_field {
	PF_F_SYSCALL_NAME, PF_F_RETURN, PF_F_TID, PF_F_PID, PF_F_PPID,
	PF_F_PROCESS_NAME, PF_F_PREV_PID, PF_F_NEXT_PID, PF_F_PREV_STATE,
	PF_F_NAME, PF_F_XID, PF_F_PROG, PF_F_RQ_XID, PF_F_RQ_PROG,
	PF_F_FILENAME, PF_F_NEW_TID, PF_F_NEW_PID, PF_F_NEW_PROCESS_NAME,
	PF_F_COUNT
};

/* How a kernel event's field is made (pf_ftrace.c's table). */
enum pf_conv {
	PF_CONV_INT,		/* the value as it is */
	PF_CONV_STR,
	PF_CONV_PRIO,		/* LTTng's priority as the kernel's */
	PF_CONV_STATE,		/* prev_state as sched_switch reports it */
	PF_CONV_RWBS,		/* LTTng's rwbs bits as ftrace's letters */
	PF_CONV_ONE,		/* 1, with no source */
	PF_CONV_CPU,		/* the record's CPU, with no source */
	PF_CONV_CLONE,		/* CLONE_THREAD unless tid is pid */
	PF_CONV_BASENAME,	/* a path's last part: a task's new name */
};

/* Where a kernel event's field comes from. */
enum pf_src { PF_SRC_NONE, PF_SRC_LTTNG, PF_SRC_LKET };

/* One field of a kernel event, as pf_ftrace.c's table has it. */
struct pf_tp_spec {
	uint8_t src;		/* enum pf_src */
	const char *from;	/* LTTng's field, or LKET's, by name */
	uint32_t number;	/* in the kernel event's message */
	uint8_t wire, conv;	/* its wire type; enum pf_conv */
};

/* A kernel event: its FtraceEvent field and its fields. */
struct pf_tp {
	const char *name;	/* the kernel's (LTTng's) name */
	uint32_t field;		/* FtraceEvent's field holding it */
	struct pf_tp_spec f[PF_TP_FIELDS];
};

/* A kernel event's field, its sources found in one class. */
struct pf_tp_field {
	const struct pf_tp_spec *spec;
	const struct lttng_field *lf;	/* PF_SRC_LTTNG */
	int16_t from[LTTNG_FROM_MAX];	/* values it reads; -1 none */
};

struct pf_class_tp {
	const struct pf_tp *tp;
	struct pf_tp_field f[PF_TP_FIELDS];
	unsigned int n;
};

/*
 * A track's uuid: its host + 1, what track of the thread tid (0 the
 * thread's own, PF_SUB_PATH the critical path's, an LKET_PAIR label's:
 * its first pf_pairs[] line + 1), and the tid.
 */
#define PF_UUID_HOST_SHIFT	48
#define PF_UUID_SUB_SHIFT	32
#define PF_SUB_PATH		0x8000u

static inline uint64_t pf_uuid(unsigned int host, uint32_t sub, uint32_t tid)
{
	return (uint64_t)(host + 1) << PF_UUID_HOST_SHIFT |
	       (uint64_t)sub << PF_UUID_SUB_SHIFT | tid;
}

/* What one (group, hook) of one host becomes (pf_classes.c). */
struct pf_class {
	const struct event_meta *meta;	/* worked out from; per host */
	uint8_t kind;			/* enum pf_kind */
	uint8_t role;			/* enum pf_role */
	uint8_t rpc, sched;		/* enum pf_rpc_role, pf_sched_role */
	uint8_t tree;			/* enum pf_tree_role */
	int16_t pair;			/* pf_pairs[]'s; -1 none */
	uint16_t track;			/* its pair's track: PF_SUB_PAIR */
	int16_t key;			/* the pair's key field; -1 none */
	int16_t f[PF_F_COUNT];		/* values by enum pf_field; -1 */
	/* PF_KERNEL */
	struct pf_class_tp tp[PF_CLASS_TPS];
	unsigned int ntp;
	/* PF_TRACK: its name (the pair's label, else the event's) and its
	 * category (the group: the name before its first '.') */
	const char *name, *cat;
	size_t name_len, cat_len;
	char own_name[32];		/* an event without metadata's */
	/* interned, of generation gen (pf_intern.h) */
	uint32_t gen;
	uint64_t name_iid, cat_iid;
	uint64_t arg_iid[2 * META_MAX_FIELDS];
};

/* The catalogue's LKET_PAIR lines, as report.c has them. */
struct pf_pair {
	int ev;			/* LKET_EV_* */
	bool entry;
	const char *label;
	const char *key;	/* "": by thread alone */
};
extern const struct pf_pair pf_pairs[];
extern const size_t pf_npairs;

/* Interning on a host's sequence (pf_intern.c). */
enum pf_intern_kind { PF_IN_NAME, PF_IN_CAT, PF_IN_ARG, PF_IN_KINDS };

struct pf_intern {
	/* generation: 1 at first; a new one when the tables fill, which
	 * the next packet says (SEQ_INCREMENTAL_STATE_CLEARED) */
	uint32_t gen;
	bool cleared;		/* the next packet starts a generation */
	uint64_t next_iid;	/* of every kind: distinct all along */
	size_t entries;
	struct u64map strings[PF_IN_KINDS];	/* name hash -> iid */
	struct u64map frames;	/* address -> iid (frame and its name) */
	struct u64map stacks;	/* frames' hash -> iid */
	/* what the packet being made interns: InternedData's fields */
	struct pbuf pending;
};

/* A CPU's bundle of kernel events and its losses. */
struct pf_cpu {
	struct pbuf bundle;	/* the open FtraceEventBundle's body */
	size_t head;		/* its bytes before the first event */
	bool lost;		/* a gap since the last bundle went out */
	bool idle;		/* in cpu_idle since LKET's cpuidle */
	uint64_t flushes;	/* lost in transport */
	uint64_t flushes_over;	/* written over (a flight recording) */
	uint64_t dropped, missing, written_over;	/* records */
};

/* Flows a track event starts or ends (pf_flows.c). */
struct pf_flow_ids {
	uint64_t start[2], end[2];
	unsigned int nstart, nend;
	char correlation[96];	/* "": none */
};

/* One RPC matched across hosts (rpc_match()), and which of its four
 * events have had their flow. */
struct pf_rpc {
	uint32_t xid, prog;
	uint8_t client, server;	/* host indexes */
	uint8_t seen;		/* bit per enum pf_rpc_role */
};

struct schedlat;

/* A host: a machine of the trace, its own sequence of packets. */
struct pf_host {
	const char *label;		/* NULL: one trace */
	const struct trace_info *info;
	uint32_t index;			/* machine_id, and sequence - 1 */
	bool x86_64;			/* system calls by number */
	struct pf_class **classes;	/* group << 8 | hook */
	struct pf_cpu **cpus;		/* by CPU; NULL until seen */
	unsigned int ncpus;		/* one past the highest seen */
	struct pf_intern in;
	struct u64map threads;		/* a track described: its uuid */
	struct u64map open_pairs;	/* tid, pair -> an entry is open */
	struct schedlat *sched;
	struct u64map rpc_calls, rpc_serves;	/* prog, xid -> pf_rpc */
	uint64_t flushes_any;		/* lost flushes of no one CPU */
	uint64_t skipped;		/* probe hits */
	uint64_t first_ts, last_ts;
	bool any;			/* an event of it was written */
};

struct critpath;

struct pf {
	struct output o;
	int fd;
	const char *path;	/* for messages */
	struct pbuf out;	/* packets not yet written */
	struct pbuf tree;	/* the process tree being filled */
	struct pf_host *tree_host;
	uint64_t tree_ts;
	struct pbuf text;	/* a string made valid UTF-8 */
	const struct trace_info *trace;
	struct pf_host *hosts;
	size_t nhosts;
	bool started;		/* the hosts' first packets are out */
	struct pf_rpc *rpcs;
	size_t nrpcs;
	char failure[4200];	/* what failed, for error(); "" none */
	struct diag *diag;
};

/* ---- pf_trace.c ---- */
int pf_new(struct pf **p, int fd, const char *path, struct diag *diag);
void pf_free(struct pf *p);
int pf_begin(struct pf *p, const struct trace_info *trace);
/* An event (or a task record) into the trace, as its class says. */
int pf_event(struct pf *p, const struct event *ev, const struct proc *proc);
int pf_finish(struct pf *p);
/* The host of an event or gap (its label, NULL for one trace); the
 * hosts' first packets (machine, clock) out before anything else. */
int pf_host_of(struct pf *p, const char *label, struct pf_host **h);
/* A packet of h opens in p->out at ts (0: none), room reserved for n
 * bytes of it; its end adds what it interned and its sequence flags. */
int pf_packet_begin(struct pf *p, struct pf_host *h, uint64_t ts,
		    size_t n);
/* The same for a packet that interns nothing, in reserved room; its
 * end a pb_close(&p->out). */
void pf_packet_head(struct pf *p, struct pf_host *h, uint64_t ts);
int pf_packet_end(struct pf *p, struct pf_host *h);
/* Write out what is buffered if there is enough of it (or all). */
int pf_out_flush(struct pf *p, bool all);
/* A string as valid UTF-8 (lket-b2a's escapes where it is not), in
 * *s, *n: itself or p->text's. */
int pf_text(struct pf *p, const char **s, size_t *n);
int pf_fail(struct pf *p, int err);

/* ---- pf_classes.c ---- */
/* ev's class in h, worked out the first time; NULL: -ENOMEM. */
struct pf_class *pf_class_new(struct pf_host *h, const struct event *ev);

static inline struct pf_class *pf_class_of(struct pf_host *h,
					   const struct event *ev)
{
	struct pf_class *c = h->classes[(ev->group & 0xff) << 8 |
					(ev->hook & 0xff)];

	return c && c->meta == ev->meta && c->meta ? c : pf_class_new(h, ev);
}
void pf_classes_free(struct pf_host *h);
/* The value of field f of ev, or NULL. */
static inline const struct value *pf_value(const struct pf_class *c,
					   const struct event *ev,
					   enum pf_field f)
{
	int i = c->f[f];

	return i >= 0 && (unsigned int)i < ev->nvalues ? &ev->v[i] : NULL;
}

static inline int64_t pf_int(const struct pf_class *c,
			     const struct event *ev, enum pf_field f,
			     int64_t missing)
{
	const struct value *v = pf_value(c, ev, f);

	return v && v->f->type != LKET_STRING ? v->i : missing;
}

/* ---- pf_ftrace.c ---- */
extern const struct pf_tp pf_tps[];
extern const size_t pf_ntps;
const struct pf_tp *pf_tp_named(const char *name);
/* Does every field of the table have the wire type its conv writes? */
bool pf_tps_consistent(void);
int pf_kernel_event(struct pf *p, struct pf_host *h, struct pf_class *c,
		    const struct event *ev, const struct proc *proc);
int pf_sys_event(struct pf *p, struct pf_host *h, struct pf_class *c,
		 const struct event *ev);
int pf_idle_event(struct pf *p, struct pf_host *h, const struct event *ev);
/* A switch to thread next on an idle CPU: it leaves idle. */
int pf_idle_leave(struct pf *p, struct pf_host *h, const struct event *ev,
		  int64_t next);
/* A generic ftrace event on h's CPU at ts: a loss marker (pf_losses.c);
 * fields name[i] = val[i]. */
int pf_marker(struct pf *p, struct pf_host *h, int cpu, uint64_t ts,
	      const char *event, const char *const *name,
	      const uint64_t *val, unsigned int n);
struct pf_cpu *pf_cpu_new(struct pf_host *h, unsigned int cpu);

static inline struct pf_cpu *pf_cpu_of(struct pf_host *h, unsigned int cpu)
{
	struct pf_cpu *c = h->cpus[cpu & (PF_CPUS - 1)];

	return c ? c : pf_cpu_new(h, cpu & (PF_CPUS - 1));
}
/* Every CPU's bundle out (at the end). */
int pf_bundles_flush(struct pf *p, struct pf_host *h);

/* ---- pf_track.c ---- */
/* The uuid of thread tid's track, described the first time. */
int pf_thread_track(struct pf *p, struct pf_host *h, uint32_t tid,
		    const struct proc *proc, uint64_t *uuid);
int pf_track_event(struct pf *p, struct pf_host *h, struct pf_class *c,
		   const struct event *ev, const struct proc *proc);
/* The stacks of a kernel event's record, if it has any, as an instant. */
int pf_track_stacks(struct pf *p, struct pf_host *h, struct pf_class *c,
		    const struct event *ev, const struct proc *proc);
/* An instant or slice edge of no record: name on track uuid at ts. */
int pf_track_mark(struct pf *p, struct pf_host *h, uint64_t uuid,
		  uint64_t ts, int type, const char *name,
		  const struct pf_flow_ids *fl, const char *arg,
		  int64_t argval);
/* The process tree (process.snapshot), packed into runs. */
int pf_snapshot_event(struct pf *p, struct pf_host *h, struct pf_class *c,
		      const struct event *ev);
/* A record's new task or name (and process) in the process tree, at its
 * time; proc is what lket-b2a knew of its writer. */
int pf_tree_task(struct pf *p, struct pf_host *h, const struct pf_class *c,
		 const struct event *ev, const struct proc *proc);
int pf_tree_flush(struct pf *p);

/* ---- pf_intern.c ---- */
int pf_intern_init(struct pf_intern *in);
void pf_intern_free(struct pf_intern *in);
/* At a packet's start: a new generation if the tables are full. */
void pf_intern_packet(struct pf_intern *in);
int pf_intern_string(struct pf_intern *in, enum pf_intern_kind k,
		     const char *s, size_t n, uint64_t *iid);
/* A call stack (n addresses, innermost first, syms[i] each one's
 * symbol or NULL) as an interned Callstack; *iid 0 if empty. */
int pf_intern_stack(struct pf_intern *in, const uint64_t *a,
		    const char *const *syms, uint32_t n, uint64_t *iid);

/* ---- pf_flows.c ---- */
int pf_flows_begin(struct pf *p);
void pf_flows_free(struct pf *p);
/* The flows ev's track event carries (RPCs). */
void pf_rpc_flows(struct pf *p, struct pf_host *h, const struct pf_class *c,
		  const struct event *ev, struct pf_flow_ids *fl);
/* Scheduling: a wake-up's flow starts in its waker, ends in the thread
 * when it runs (schedlat.h). */
int pf_sched_flows(struct pf *p, struct pf_host *h, const struct pf_class *c,
		   const struct event *ev, const struct proc *proc);
/* The critical path as slices chained by flows (at the end). */
int pf_critpath(struct pf *p, struct critpath *cp);

/* ---- pf_losses.c ---- */
int pf_lost(struct pf *p, const struct seq_gap *g);
int pf_stats(struct pf *p, struct pf_host *h);

/* ---- pf_syscalls.c ---- */
/* The x86-64 number of the system call named s (n bytes); -1. */
int pf_syscall_nr(const char *s, size_t n);

#endif
