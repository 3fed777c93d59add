/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctf_lttng.h - which LKET events the CTF export writes under the names
 * and fields of their LTTng kernel counterparts (lket-b2a(1) has the
 * table), so that Trace Compass's kernel analyses read them.
 *
 * A mapped event carries LTTng's fields first, then LKET's own, but for
 * those that an LTTng field of the same name holds.
 */
#ifndef LKET_CTF_LTTNG_H
#define LKET_CTF_LTTNG_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/procmap.h"
#include "decode/decode.h"

enum lttng_type {
	LTTNG_INT32,
	LTTNG_INT64,
	LTTNG_UINT32,
	LTTNG_STRING,
};

/* Where an LTTng field's value comes from. */
enum lttng_source {
	LTTNG_FROM_FIELD,	/* the LKET field named from */
	LTTNG_COMM_OF_FIELD,	/* the name of the thread in field from */
	LTTNG_CONSTANT,		/* what LKET does not record: constant */
	LTTNG_RECORD_CPU,	/* the CPU that wrote the record */
	LTTNG_WRITER_TID,	/* the thread that wrote the record */
	LTTNG_WRITER_PID,	/* its process */
	LTTNG_WRITER_COMM,	/* its name */
	LTTNG_DEV,		/* disk_major and disk_minor as a dev_t */
	LTTNG_RWBS,		/* request_flags as LTTng's rwbs bits */
};

struct lttng_field {
	const char *name;
	enum lttng_type type;
	enum lttng_source source;
	const char *from;
	int64_t constant;
};

struct lttng_event {
	const char *name;	/* or the prefix of one per system call */
	bool per_syscall;	/* name + the value of syscall_name */
	const struct lttng_field *fields;
	unsigned int nfields;
};

/* LTTng's counterpart of the catalogue's event ev (LKET_EV_*), or NULL. */
const struct lttng_event *lttng_event_of(int ev);

/* The same for an event of metadata m: without the fields whose LKET
 * field m lacks (an older trace). */
const struct lttng_event *lttng_event_of_meta(const struct event_meta *m);

/*
 * A system call whose arguments an LKET entry hook records: its
 * syscall.entry and that hook's record, next on the CPU, are one
 * syscall_entry_<lttng> (its fields those of event), the hook's return
 * record and the syscall.return after it one syscall_exit_<lttng>.
 */
struct lttng_syscall {
	const char *name;	/* syscall_name, SystemTap's */
	const char *lttng;	/* LTTng's */
	int hook, hook_return;	/* LKET_EV_* */
	bool analysed;		/* LTTng's analyses read its arguments */
	struct lttng_event event;
};

/* The call of that syscall_name, of that return hook (LKET_EV_*); NULL. */
const struct lttng_syscall *lttng_syscall_of(const char *name);
const struct lttng_syscall *lttng_syscall_of_return(int ev);

/* Do LTTng's analyses read arguments of the call named name at entry? */
bool lttng_syscall_needs_args(const char *name);

/* The syscall_name of a system call event ev; "" if it has none. */
const char *lttng_syscall_name(const struct event *ev);

/* The class name of a system call event's (an entry's or not) named
 * name: name, LTTng's where it differs (sendfile64), or LTTng's
 * "unknown" for an entry whose arguments LTTng's analyses read and that
 * has none (ctf_calls.c gives it them when it can). */
const char *lttng_syscall_class(bool entry, const char *name);

/* Does the LTTng event have a field of that name, LKET's field of that
 * name's value (so that LKET's is left out)? */
bool lttng_shadows(const struct lttng_event *l, const char *name);

struct lttng_value {
	int64_t i;
	const char *s;		/* LTTNG_STRING: never NULL */
	size_t slen;
};

/* The value of LTTng field f for ev; procs names the threads, proc is
 * what it knows of ev's writer (NULL: not known). */
void lttng_value(const struct lttng_field *f, const struct event *ev,
		 const struct proc *proc, const struct procmap *procs,
		 struct lttng_value *v);

/*
 * The LKET fields that f's value comes from, by name (at most
 * LTTNG_FROM_MAX; "" past those it reads), for a caller that looks them
 * up once per event class rather than by name at each event; and the
 * value from them, found: from[i] the event's value of name i, NULL if
 * it has none.
 */
#define LTTNG_FROM_MAX	2
void lttng_field_reads(const struct lttng_field *f,
		       const char *names[LTTNG_FROM_MAX]);
void lttng_value_from(const struct lttng_field *f,
		      const struct value *const from[LTTNG_FROM_MAX],
		      const struct event *ev, const struct proc *proc,
		      const struct procmap *procs, struct lttng_value *v);

/* LTTng's rwbs bits as the kernel's blk_fill_rwbs() spells them (ftrace's
 * and Perfetto's rwbs): "WS", "R", "FWF"...; out holds
 * LTTNG_RWBS_STR_MAX bytes, NUL included.  Returns the length. */
#define LTTNG_RWBS_STR_MAX	8
size_t lttng_rwbs_string(uint32_t rwbs, char *out);

#endif
