/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctf_int.h - inside the CTF export, cut as babeltrace2's fs-sink is, by
 * the lifetime of what each part makes: out_ctf.c the trace (its folder,
 * put in place at finish), ctf_stream.c a CPU's stream (packets of
 * events), ctf_meta.c the translation (event classes, the TSDL metadata).
 */
#ifndef LKET_CTF_INT_H
#define LKET_CTF_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "decode/decode.h"
#include "output/ctf/ctf_lttng.h"
#include "output/output.h"
#include "util/tmpfile.h"

/*
 * The trace's folder inside DIR, as an LTTng session names its kernel
 * trace: LTTng's analyses read the tracer's version only from a folder
 * so named, and without it stop at the first wake-up.
 */
#define CTF_SUBDIR	"kernel"
#define CTF_PACKET	(64u << 10)
#define CTF_MAGIC	0xC1FC1FC1u
/* packet header (magic, uuid, stream_id) and context (6 x 64 + 32 bits) */
#define CTF_HEADER	(4 + 16 + 4)
#define CTF_PREAMBLE	(CTF_HEADER + 6 * 8 + 4)
/* event classes of events that match their metadata, by (group, hook);
 * the others (raw) are looked for in the list */
#define CTF_CLASSES	(256 * 256)

/* The last record of a stream, when the next one may take its place
 * (ctf_calls.c): a system call's entry or an iosyscall hook's return. */
struct ctf_pending {
	enum { CTF_PENDING_NONE, CTF_PENDING_ENTRY, CTF_PENDING_RETURN } kind;
	size_t at;		/* where it starts in the packet */
	uint64_t seq;		/* the packet's */
	uint64_t ts;		/* its time as written */
	uint32_t tid;
	const struct lttng_syscall *call;
};

struct ctf_stream {
	int fd;
	uint8_t *buf;
	size_t len, size;	/* len: CTF_PREAMBLE + events so far */
	uint64_t first_ts, last_ts;
	uint64_t seq;		/* packets written */
	uint64_t discarded;	/* running total */
	bool pending;		/* discarded grew since the last packet */
	bool events;		/* the packet holds events */
	uint64_t clamped;	/* events written at an earlier one's time */
	struct ctf_pending last;
};

struct ctf_class {
	const struct event_meta *meta;
	unsigned int group, hook;
	bool raw;
	unsigned int nfields;	/* of the metadata's, the first ones */
	const struct lttng_event *lttng;	/* NULL: LKET's name */
	char *syscall;		/* of a class per system call */
	/* found once for the class, not by name for each event: the
	 * system fields LTTng's counterpart holds (bit i: field i), and
	 * the values each LTTng field is taken from (-1: none) */
	uint64_t shadowed;
	int16_t (*lttng_from)[LTTNG_FROM_MAX];
};

/*
 * The system call classes, at most: each class costs readers memory and
 * time (200 000 of them, 24 MB of metadata, took babeltrace2 a minute
 * and 1.6 GB), and a kernel has a few hundred calls.  Those past it are
 * LTTng's unknown (syscall_entry_unknown, syscall_exit_unknown), the
 * name in syscall_name.
 */
#define CTF_SYSCALL_CLASSES	4096

/* The classes of one per system call: by event, LTTng counterpart and
 * system call name. */
struct syscall_classes {
	uint32_t *slots;	/* class id + 1, 0 free */
	size_t mask, used;
	size_t named;		/* classes of one system call */
};

/*
 * An event that is one per system call (syscall.entry, syscall.return,
 * under whatever IDs the trace gives them): its LTTng counterpart and
 * where its syscall_name is, found once for its metadata.
 */
struct ctf_call_kind {
	const struct event_meta *meta;
	const struct lttng_event *lttng;	/* per_syscall */
	int name_at;		/* syscall_name's value; -1: it has none */
	/* the name of its last record (a thread calls the same again):
	 * an index of call_names.v + 1, 0 none */
	uint32_t last;
};

#define CTF_CALL_KINDS	8

/*
 * What a system call name in the records of a kind stands for, looked
 * up once (the LTTng tables are searched by name): the class its events
 * are written as, and the call whose arguments an LKET hook records
 * (NULL: none).  At most CTF_CALL_NAMES names are kept.
 */
struct ctf_call_name {
	const struct ctf_call_kind *kind;
	char *name;
	size_t len;
	uint32_t id;
	const struct lttng_syscall *call;
};

#define CTF_CALL_NAMES	(4 * CTF_SYSCALL_CLASSES)

struct call_names {
	uint32_t *slots;	/* index in v + 1, 0 free */
	size_t mask;
	struct ctf_call_name *v;
	size_t n;
	struct ctf_call_name past;	/* one looked up past the most */
};

struct ctf {
	struct output o;
	char *dir;		/* where the trace goes */
	struct tmpdir tmp;	/* where it is written; none once in place */
	bool replace;		/* a trace at dir may be replaced */
	bool dir_is_trace;	/* dir holds a trace, to be replaced */
	const struct trace_info *trace;
	uint8_t uuid[16];
	struct ctf_stream *streams;
	size_t nstreams;
	/* the trace's time span, which every stream's packets cover, as
	 * LTTng's do (its analyses read the time all streams share) */
	uint64_t first_ts, last_ts;
	bool any;
	uint32_t *class_id;	/* CTF_CLASSES: id + 1, 0 none yet */
	struct ctf_class *classes;
	size_t nclasses, classes_cap;
	struct syscall_classes syscalls;
	bool syscall_overflow;	/* past CTF_SYSCALL_CLASSES, said */
	struct ctf_call_kind call_kinds[CTF_CALL_KINDS];
	size_t ncall_kinds;
	struct ctf_call_kind kind_past;	/* one found past the most */
	/* by LKET_EV_*: the call whose hook's return that event is;
	 * NULL: none (lttng_syscall_of_return(), once for each) */
	const struct lttng_syscall *call_of_return[LKET_NR_EVENTS];
	struct call_names call_names;
	char *failure;		/* what failed, for error(); NULL none */
	struct diag *diag;	/* notes; NULL: none */
};

/* The fields of a class: its metadata's, system and user. */
static inline unsigned int meta_nfields(const struct event_meta *m)
{
	return m ? m->sys.n + m->user.n : 0;
}

/* Is field i of the class one that its LTTng counterpart already has? */
static inline bool shadowed(const struct ctf_class *k, unsigned int i)
{
	return i < 64 && (k->shadowed >> i & 1);
}

static inline const struct field *class_field(const struct event_meta *m,
					      unsigned int i)
{
	return i < m->sys.n ? &m->sys.f[i] : &m->user.f[i - m->sys.n];
}

/* out_ctf.c: a failure, in the output's words (error()); -err. */
int ctf_fail(struct ctf *c, const char *path, int err);
int ctf_failf(struct ctf *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ctf_stream.c: the output's event and lost ops; a stream's packet out
 * (at finish, the last ones). */
int ctf_event(struct output *o, const struct event *ev,
	      const struct proc *proc);
int ctf_lost(struct output *o, const struct seq_gap *g);
int ctf_packet_out(struct ctf *c, struct ctf_stream *s, unsigned int cpu);

/* ctf_stream.c: ev written to s as an event of class id at time ts (the
 * stream's last time if earlier), where it starts in *at. */
int ctf_put_event(struct ctf *c, struct ctf_stream *s,
		  const struct event *ev, const struct proc *proc,
		  uint32_t id, uint64_t ts, size_t *at);

/* ctf_calls.c: ev written to s, a system call's records as one event
 * where LTTng has one. */
int ctf_call_event(struct ctf *c, struct ctf_stream *s,
		   const struct event *ev, const struct proc *proc);
/* ctf_calls.c: what ev's system call name stands for (*named), if ev is
 * an event of one class per system call, else NULL; 0, or -ENOMEM. */
int ctf_call_named(struct ctf *c, const struct event *ev,
		   const struct ctf_call_name **named);
void ctf_call_names_free(struct ctf *c);

/* ctf_meta.c: the class of ev (raw: it did not match its metadata),
 * its id in *id; the TSDL metadata of every class, at finish. */
int ctf_class(struct ctf *c, const struct event *ev, bool raw,
	      uint32_t *id);
/* The class of ev written as LTTng's l (one per system call) for the call
 * named name ("": unknown). */
int ctf_syscall_class(struct ctf *c, const struct event *ev,
		      const struct lttng_event *l, const char *name,
		      uint32_t *id);
void ctf_metadata(struct ctf *c, FILE *f);

#endif
