// SPDX-License-Identifier: GPL-2.0
/*
 * ctf_lttng.c - LKET events as their LTTng kernel counterparts (the
 * fields lttng-modules 2.13 writes), for the CTF export.
 *
 * What LKET does not record is a documented constant: priorities 20 (a
 * nice-0 task), sectors, sizes and socket buffer addresses 0, a snapshot
 * task's state "unnamed" and mode "unknown", as LTTng says when it does
 * not know.  IDs are those of the initial namespaces, so the v* fields
 * repeat them.
 */
#include <stddef.h>
#include <string.h>

#include "output/ctf/ctf_lttng.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* What LKET does not record. */
#define UNKNOWN_PRIO		20	/* nice 0, as LTTng shows it */
#define LTTNG_STATUS_UNNAMED	0	/* lttng_process_status */
#define LTTNG_MODE_UNKNOWN	5	/* lttng_execution_mode */
#define LTTNG_USER_THREAD	0	/* lttng_thread_type */

/* The kernel's request flags (include/linux/blk_types.h, 6.1). */
#define REQ_OP_MASK		0xffu
#define REQ_OP_READ		0
#define REQ_OP_WRITE		1
#define REQ_OP_FLUSH		2
#define REQ_OP_DISCARD		3
#define REQ_OP_SECURE_ERASE	5
#define REQ_SYNC		(1u << 11)
#define REQ_META		(1u << 12)
#define REQ_FUA			(1u << 17)
#define REQ_PREFLUSH		(1u << 18)
#define REQ_RAHEAD		(1u << 19)

/* LTTng's rwbs bits (lttng-modules, block.h). */
enum {
	RWBS_FLAG_WRITE = 1 << 0,
	RWBS_FLAG_DISCARD = 1 << 1,
	RWBS_FLAG_READ = 1 << 2,
	RWBS_FLAG_RAHEAD = 1 << 3,
	RWBS_FLAG_SYNC = 1 << 5,
	RWBS_FLAG_META = 1 << 6,
	RWBS_FLAG_SECURE = 1 << 7,
	RWBS_FLAG_FLUSH = 1 << 8,
	RWBS_FLAG_FUA = 1 << 9,
	RWBS_FLAG_PREFLUSH = 1 << 10,
};

#define FIELD(n, t, f)	{ n, LTTNG_##t, LTTNG_FROM_FIELD, f, 0 }
#define COMM_OF(n, f)	{ n, LTTNG_STRING, LTTNG_COMM_OF_FIELD, f, 0 }
#define CONST(n, t, v)	{ n, LTTNG_##t, LTTNG_CONSTANT, NULL, v }
#define FROM(n, t, s)	{ n, LTTNG_##t, LTTNG_##s, NULL, 0 }

static const struct lttng_field sched_switch[] = {
	COMM_OF("prev_comm", "prev_pid"),
	FIELD("prev_tid", INT32, "prev_pid"),
	CONST("prev_prio", INT32, UNKNOWN_PRIO),
	FIELD("prev_state", INT64, "prev_state"),
	COMM_OF("next_comm", "next_pid"),
	FIELD("next_tid", INT32, "next_pid"),
	CONST("next_prio", INT32, UNKNOWN_PRIO),
};

/* sched_waking and sched_wakeup_new: the woken task's */
static const struct lttng_field sched_wakeup[] = {
	FIELD("comm", STRING, "name"),
	FIELD("tid", INT32, "tid"),
	CONST("prio", INT32, UNKNOWN_PRIO),
	FIELD("target_cpu", INT32, "target_cpu"),
};

static const struct lttng_field sched_migrate_task[] = {
	COMM_OF("comm", "tid"),
	FIELD("tid", INT32, "tid"),
	CONST("prio", INT32, UNKNOWN_PRIO),
	FIELD("orig_cpu", INT32, "from_cpu"),
	FIELD("dest_cpu", INT32, "to_cpu"),
};

static const struct lttng_field statedump_process_state[] = {
	FIELD("tid", INT32, "tid"),
	FIELD("vtid", INT32, "tid"),
	FIELD("pid", INT32, "pid"),
	FIELD("vpid", INT32, "pid"),
	FIELD("ppid", INT32, "ppid"),
	FIELD("vppid", INT32, "ppid"),
	FIELD("name", STRING, "process_name"),
	CONST("type", INT32, LTTNG_USER_THREAD),
	CONST("mode", INT32, LTTNG_MODE_UNKNOWN),
	CONST("submode", INT32, 0),
	CONST("status", INT32, LTTNG_STATUS_UNNAMED),
	FROM("cpu", INT32, RECORD_CPU),
};

static const struct lttng_field process_fork[] = {
	FROM("parent_comm", STRING, WRITER_COMM),
	FROM("parent_tid", INT32, WRITER_TID),
	FROM("parent_pid", INT32, WRITER_PID),
	FIELD("child_comm", STRING, "process_name"),
	FIELD("child_tid", INT32, "tid"),
	FIELD("child_pid", INT32, "pid"),
};

static const struct lttng_field process_exec[] = {
	FIELD("filename", STRING, "filename"),
	FIELD("tid", INT32, "tid"),
	FIELD("old_tid", INT32, "tid"),
};

static const struct lttng_field process_exit[] = {
	COMM_OF("comm", "tid"),
	FIELD("tid", INT32, "tid"),
	CONST("prio", INT32, UNKNOWN_PRIO),
};

static const struct lttng_field block_rq[] = {
	FROM("dev", UINT32, DEV),
	CONST("sector", INT64, 0),
	CONST("nr_sector", INT32, 0),
	CONST("bytes", INT32, 0),
	FROM("tid", INT32, WRITER_TID),
	FROM("rwbs", UINT32, RWBS),
	FROM("comm", STRING, WRITER_COMM),
};

static const struct lttng_field block_rq_complete[] = {
	FROM("dev", UINT32, DEV),
	CONST("sector", INT64, 0),
	CONST("nr_sector", INT32, 0),
	CONST("error", INT32, 0),
	FROM("rwbs", UINT32, RWBS),
};

static const struct lttng_field net_dev_xmit[] = {
	CONST("skbaddr", INT64, 0),
	CONST("rc", INT32, 0),
	FIELD("len", INT32, "data_length"),
	FIELD("name", STRING, "netdev_name"),
};

static const struct lttng_field netif_receive_skb[] = {
	CONST("skbaddr", INT64, 0),
	FIELD("len", INT32, "data_length"),
	FIELD("name", STRING, "netdev_name"),
};

/* The return of every system call: ret, its return value (a trace of
 * an older LKET's syscall.return has the name alone). */
static const struct lttng_field syscall_exit[] = {
	FIELD("ret", INT64, "return"),
};

#define MAPS(n, f)	{ n, false, f, ARRAY_SIZE(f) }

static const struct lttng_event by_event[LKET_NR_EVENTS] = {
	[LKET_EV_TASK_CTXSWITCH] = MAPS("sched_switch", sched_switch),
	[LKET_EV_TASK_WAKEUP] = MAPS("sched_waking", sched_wakeup),
	[LKET_EV_TASK_WAKEUP_NEW] = MAPS("sched_wakeup_new", sched_wakeup),
	[LKET_EV_TASK_MIGRATE] = MAPS("sched_migrate_task",
				      sched_migrate_task),
	[LKET_EV_SYSCALL_ENTRY] = { "syscall_entry_", true, NULL, 0 },
	[LKET_EV_SYSCALL_RETURN] = { "syscall_exit_", true, syscall_exit,
				     ARRAY_SIZE(syscall_exit) },
	[LKET_EV_PROCESS_SNAPSHOT] = MAPS("lttng_statedump_process_state",
					  statedump_process_state),
	[LKET_EV_TASK_NEW] = MAPS("sched_process_fork", process_fork),
	[LKET_EV_TASK_EXEC] = MAPS("sched_process_exec", process_exec),
	[LKET_EV_TASK_EXIT] = MAPS("sched_process_exit", process_exit),
	[LKET_EV_IOSCHED_ELV_ADD_REQUEST] = MAPS("block_rq_insert", block_rq),
	[LKET_EV_IOSCHED_ELV_NEXT_REQUEST_RETURN] = MAPS("block_rq_issue",
							 block_rq),
	[LKET_EV_IOSCHED_ELV_COMPLETED_REQUEST] = MAPS("block_rq_complete",
						       block_rq_complete),
	[LKET_EV_NETDEV_TRANSMIT] = MAPS("net_dev_xmit", net_dev_xmit),
	[LKET_EV_NETDEV_RECEIVE] = MAPS("netif_receive_skb",
					netif_receive_skb),
};

static const struct lttng_event syscall_exit_no_ret = {
	"syscall_exit_", true, NULL, 0
};

const struct lttng_event *lttng_event_of(int ev)
{
	if (ev < 0 || ev >= LKET_NR_EVENTS || !by_event[ev].name)
		return NULL;
	return &by_event[ev];
}

static bool meta_has(const struct event_meta *m, const char *name)
{
	unsigned int i;

	for (i = 0; m && i < m->sys.n; i++)
		if (!strcmp(m->sys.f[i].name, name))
			return true;
	return false;
}

const struct lttng_event *lttng_event_of_meta(const struct event_meta *m)
{
	const struct lttng_event *l = m ? lttng_event_of(m->ev) : NULL;
	unsigned int i;

	/* a field LKET's metadata lacks (an older trace's syscall.return):
	 * the class LTTng has with no fields, not a made-up value */
	for (i = 0; l && i < l->nfields; i++)
		if (l->fields[i].source == LTTNG_FROM_FIELD &&
		    !meta_has(m, l->fields[i].from))
			return &syscall_exit_no_ret;
	return l;
}

/*
 * The system calls whose arguments an entry hook (iosyscall, signal,
 * aio) records, as lttng-modules 2.13 names them and their entry fields
 * (its x86-64 syscall instrumentation: the sc_in and sc_inout ones),
 * with the widths LKET records them in.  name is SystemTap's, lttng
 * LTTng's; dfd, which the open hook does not record, is -1.
 */
static const struct lttng_field sys_open[] = {
	FIELD("filename", STRING, "filename"),
	FIELD("flags", INT32, "flags"),
	FIELD("mode", INT32, "mode"),
};

static const struct lttng_field sys_openat[] = {
	CONST("dfd", INT64, -1),
	FIELD("filename", STRING, "filename"),
	FIELD("flags", INT32, "flags"),
	FIELD("mode", INT32, "mode"),
};

static const struct lttng_field sys_fd[] = {
	FIELD("fd", INT64, "fd"),
};

static const struct lttng_field sys_read[] = {
	FIELD("fd", INT64, "fd"),
	FIELD("count", INT64, "count"),
};

static const struct lttng_field sys_write[] = {
	FIELD("fd", INT64, "fd"),
	FIELD("buf", INT64, "buf_addr"),
	FIELD("count", INT64, "count"),
};

static const struct lttng_field sys_readv[] = {
	FIELD("fd", INT64, "fd"),
	FIELD("vec", INT64, "vector_addr"),
	FIELD("vlen", INT64, "count"),
};

static const struct lttng_field sys_pread64[] = {
	FIELD("fd", INT64, "fd"),
	FIELD("count", INT64, "count"),
	FIELD("pos", INT64, "offset"),
};

static const struct lttng_field sys_pwrite64[] = {
	FIELD("fd", INT64, "fd"),
	FIELD("buf", INT64, "buff_addr"),
	FIELD("count", INT64, "count"),
	FIELD("pos", INT64, "offset"),
};

static const struct lttng_field sys_readahead[] = {
	FIELD("fd", INT64, "fd"),
	FIELD("offset", INT64, "offset"),
	FIELD("count", INT64, "count"),
};

static const struct lttng_field sys_sendfile64[] = {
	FIELD("out_fd", INT64, "out_fd"),
	FIELD("in_fd", INT64, "in_fd"),
	FIELD("offset", INT64, "offset_uaddr"),
	FIELD("count", INT64, "count"),
};

static const struct lttng_field sys_lseek[] = {
	FIELD("fd", INT64, "fd"),
	FIELD("offset", INT64, "offset"),
	FIELD("whence", INT32, "whence"),
};

static const struct lttng_field sys_flock[] = {
	FIELD("fd", INT64, "fd"),
	FIELD("cmd", INT32, "operation"),
};

/* The signal group's system calls: tgkill's tgid is LKET's pid, its
 * pid LKET's tid; rt_sigpending's set is an output (its exit's). */
static const struct lttng_field sys_kill[] = {
	FIELD("pid", INT32, "pid"),
	FIELD("sig", INT32, "sig"),
};

static const struct lttng_field sys_tgkill[] = {
	FIELD("tgid", INT32, "pid"),
	FIELD("pid", INT32, "tid"),
	FIELD("sig", INT32, "sig"),
};

static const struct lttng_field sys_rt_sigpending[] = {
	FIELD("sigsetsize", INT32, "setsize"),
};

/* The aio group's; io_getevents' timeout is a pointer, which LKET reads
 * through (tv_sec, tv_nsec): 0. */
static const struct lttng_field sys_io_setup[] = {
	FIELD("nr_events", INT32, "nr_events"),
	FIELD("ctxp", INT64, "ctxp_uaddr"),
};

static const struct lttng_field sys_io_submit[] = {
	FIELD("ctx_id", INT64, "ctx_id"),
	FIELD("nr", INT32, "nr"),
	FIELD("iocbpp", INT64, "iocbpp_uaddr"),
};

static const struct lttng_field sys_io_getevents[] = {
	FIELD("ctx_id", INT64, "ctx_id"),
	FIELD("min_nr", INT32, "min_nr"),
	FIELD("nr", INT32, "nr"),
	CONST("timeout", INT64, 0),
};

static const struct lttng_field sys_io_destroy[] = {
	FIELD("ctx", INT64, "ctx"),
};

static const struct lttng_field sys_io_cancel[] = {
	FIELD("ctx_id", INT64, "ctx_id"),
	FIELD("iocb", INT64, "iocb_uaddr"),
};

#define CALL(n, l, hook, f, a)						\
	{ n, l, LKET_EV_##hook##_ENTRY, LKET_EV_##hook##_RETURN, a,	\
	  { "syscall_entry_", true, f, ARRAY_SIZE(f) } }
#define CALL0(n, hook, a)						\
	{ n, n, LKET_EV_##hook##_ENTRY, LKET_EV_##hook##_RETURN, a,	\
	  { "syscall_entry_", true, NULL, 0 } }

static const struct lttng_syscall calls[] = {
	CALL("open", "open", IOSYSCALL_OPEN, sys_open, true),
	CALL("openat", "openat", IOSYSCALL_OPEN, sys_openat, true),
	CALL("close", "close", IOSYSCALL_CLOSE, sys_fd, true),
	CALL("read", "read", IOSYSCALL_READ, sys_read, true),
	CALL("write", "write", IOSYSCALL_WRITE, sys_write, true),
	CALL("readv", "readv", IOSYSCALL_READV, sys_readv, true),
	CALL("writev", "writev", IOSYSCALL_WRITEV, sys_readv, true),
	CALL("pread64", "pread64", IOSYSCALL_PREAD64, sys_pread64, true),
	CALL("pwrite64", "pwrite64", IOSYSCALL_PWRITE64, sys_pwrite64, true),
	CALL("readahead", "readahead", IOSYSCALL_READAHEAD, sys_readahead,
	     false),
	CALL("sendfile", "sendfile64", IOSYSCALL_SENDFILE, sys_sendfile64,
	     true),
	CALL("lseek", "lseek", IOSYSCALL_LSEEK, sys_lseek, false),
	CALL0("sync", IOSYSCALL_SYNC, true),
	CALL("fsync", "fsync", IOSYSCALL_FSYNC, sys_fd, true),
	CALL("fdatasync", "fdatasync", IOSYSCALL_FDATASYNC, sys_fd, true),
	CALL("flock", "flock", IOSYSCALL_FLOCK, sys_flock, false),
	CALL("kill", "kill", SIGNAL_SYSKILL, sys_kill, false),
	CALL("tkill", "tkill", SIGNAL_SYSTKILL, sys_kill, false),
	CALL("tgkill", "tgkill", SIGNAL_SYSTGKILL, sys_tgkill, false),
	CALL("rt_sigpending", "rt_sigpending", SIGNAL_PENDING,
	     sys_rt_sigpending, false),
	CALL("io_setup", "io_setup", AIO_IO_SETUP, sys_io_setup, false),
	CALL("io_submit", "io_submit", AIO_IO_SUBMIT, sys_io_submit, false),
	CALL("io_getevents", "io_getevents", AIO_IO_GETEVENTS,
	     sys_io_getevents, false),
	CALL("io_destroy", "io_destroy", AIO_IO_DESTROY, sys_io_destroy,
	     false),
	CALL("io_cancel", "io_cancel", AIO_IO_CANCEL, sys_io_cancel, false),
};

/*
 * System calls whose arguments LTTng's I/O analyses read at entry
 * (lttnganalyses' IO_SYSCALLS) that no LKET hook records: exported as
 * syscall_entry_unknown, the name in syscall_name, as are those of the
 * table above when their hook's record does not follow.
 */
static const char *const unrecorded[] = {
	"socket", "fcntl", "dup", "dup2", "dup3", "sync_file_range",
	"recvmsg", "recvfrom", "preadv", "sendmsg", "sendto", "pwritev",
	"splice",
};

const struct lttng_syscall *lttng_syscall_of(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(calls); i++)
		if (!strcmp(calls[i].name, name))
			return &calls[i];
	return NULL;
}

const struct lttng_syscall *lttng_syscall_of_return(int ev)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(calls); i++)
		if (calls[i].hook_return == ev)
			return &calls[i];
	return NULL;
}

static bool is_unrecorded(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(unrecorded); i++)
		if (!strcmp(unrecorded[i], name))
			return true;
	return false;
}

static bool needs_args(const struct lttng_syscall *call, const char *name)
{
	return call ? call->analysed : is_unrecorded(name);
}

bool lttng_syscall_needs_args(const char *name)
{
	return needs_args(lttng_syscall_of(name), name);
}

const char *lttng_syscall_name(const struct event *ev)
{
	const struct value *v = event_value(ev, "syscall_name");

	return v && v->f->type == LKET_STRING && v->s ? v->s : "";
}

const char *lttng_syscall_class(bool entry, const char *name)
{
	const struct lttng_syscall *call = lttng_syscall_of(name);

	if (entry && needs_args(call, name))
		return "unknown";
	return call ? call->lttng : name;
}

bool lttng_shadows(const struct lttng_event *l, const char *name)
{
	unsigned int i;

	for (i = 0; l && i < l->nfields; i++)
		if (!strcmp(l->fields[i].name, name))
			return l->fields[i].source == LTTNG_FROM_FIELD &&
			       !strcmp(l->fields[i].from, name);
	return false;
}

/* Device numbers and flags: as unsigned as the kernel has them. */
static uint64_t unsigned_of(const struct value *v)
{
	return v && v->f->type != LKET_STRING ? value_unsigned(v) : 0;
}

static uint32_t rwbs(uint64_t flags)
{
	static const struct {
		uint32_t req, rwbs;
	} bits[] = {
		{ REQ_SYNC, RWBS_FLAG_SYNC }, { REQ_META, RWBS_FLAG_META },
		{ REQ_FUA, RWBS_FLAG_FUA }, { REQ_PREFLUSH, RWBS_FLAG_PREFLUSH },
		{ REQ_RAHEAD, RWBS_FLAG_RAHEAD },
	};
	uint32_t r;
	size_t i;

	switch (flags & REQ_OP_MASK) {
	case REQ_OP_READ:
		r = RWBS_FLAG_READ;
		break;
	case REQ_OP_WRITE:
		r = RWBS_FLAG_WRITE;
		break;
	case REQ_OP_FLUSH:
		r = RWBS_FLAG_FLUSH;
		break;
	case REQ_OP_DISCARD:
		r = RWBS_FLAG_DISCARD;
		break;
	case REQ_OP_SECURE_ERASE:
		r = RWBS_FLAG_DISCARD | RWBS_FLAG_SECURE;
		break;
	default:
		r = 0;
	}
	for (i = 0; i < ARRAY_SIZE(bits); i++)
		if (flags & bits[i].req)
			r |= bits[i].rwbs;
	return r;
}

static void set_comm(struct lttng_value *v, const struct proc *p)
{
	v->s = p && p->comm_len ? p->comm : "";
	v->slen = p ? p->comm_len : 0;
}

void lttng_field_reads(const struct lttng_field *f,
		       const char *names[LTTNG_FROM_MAX])
{
	names[0] = names[1] = "";
	switch (f->source) {
	case LTTNG_FROM_FIELD:
	case LTTNG_COMM_OF_FIELD:
		names[0] = f->from;
		break;
	case LTTNG_DEV:
		names[0] = "disk_major";
		names[1] = "disk_minor";
		break;
	case LTTNG_RWBS:
		names[0] = "request_flags";
		break;
	default:
		break;
	}
}

void lttng_value_from(const struct lttng_field *f,
		      const struct value *const from[LTTNG_FROM_MAX],
		      const struct event *ev, const struct proc *proc,
		      const struct procmap *procs, struct lttng_value *v)
{
	const struct value *x = from[0];

	*v = (struct lttng_value){ .s = "" };
	switch (f->source) {
	case LTTNG_FROM_FIELD:
		if (x && x->f->type == LKET_STRING && x->s) {
			v->s = x->s;
			v->slen = x->slen;
		} else if (x && x->f->type != LKET_STRING) {
			v->i = x->i;
		}
		break;
	case LTTNG_COMM_OF_FIELD:
		/* a switch to or from 0: this CPU's idle task */
		set_comm(v, procmap_thread(procs,
					   x && x->f->type != LKET_STRING ?
					   (uint32_t)x->i : 0, ev->cpu));
		break;
	case LTTNG_CONSTANT:
		v->i = f->constant;
		break;
	case LTTNG_RECORD_CPU:
		v->i = ev->cpu;
		break;
	case LTTNG_WRITER_TID:
		v->i = ev->tid;
		break;
	case LTTNG_WRITER_PID:
		v->i = proc && proc->pid >= 0 ? proc->pid : -1;
		break;
	case LTTNG_WRITER_COMM:
		set_comm(v, proc);
		break;
	case LTTNG_DEV:
		/* the kernel's dev_t: MKDEV(major, minor) */
		v->i = (int64_t)(unsigned_of(x) << 20 | unsigned_of(from[1]));
		break;
	case LTTNG_RWBS:
		v->i = rwbs(unsigned_of(x));
		break;
	}
}

void lttng_value(const struct lttng_field *f, const struct event *ev,
		 const struct proc *proc, const struct procmap *procs,
		 struct lttng_value *v)
{
	const struct value *from[LTTNG_FROM_MAX];
	const char *names[LTTNG_FROM_MAX];
	size_t i;

	lttng_field_reads(f, names);
	for (i = 0; i < LTTNG_FROM_MAX; i++)
		from[i] = names[i][0] ? event_value(ev, names[i]) : NULL;
	lttng_value_from(f, from, ev, proc, procs, v);
}

size_t lttng_rwbs_string(uint32_t rwbs, char *out)
{
	/* blk_fill_rwbs()'s order: a preflush, the operation, then the
	 * flags */
	static const struct {
		uint32_t bit;
		char c;
	} after[] = {
		{ RWBS_FLAG_FUA, 'F' }, { RWBS_FLAG_RAHEAD, 'A' },
		{ RWBS_FLAG_SYNC, 'S' }, { RWBS_FLAG_META, 'M' },
	};
	size_t n = 0, i;

	if (rwbs & RWBS_FLAG_PREFLUSH)
		out[n++] = 'F';
	if (rwbs & RWBS_FLAG_WRITE)
		out[n++] = 'W';
	else if (rwbs & RWBS_FLAG_DISCARD)
		out[n++] = 'D';
	else if (rwbs & RWBS_FLAG_FLUSH)
		out[n++] = 'F';
	else if (rwbs & RWBS_FLAG_READ)
		out[n++] = 'R';
	else
		out[n++] = 'N';
	if (rwbs & RWBS_FLAG_SECURE)
		out[n++] = 'E';
	for (i = 0; i < ARRAY_SIZE(after); i++)
		if (rwbs & after[i].bit)
			out[n++] = after[i].c;
	out[n] = '\0';
	return n;
}
