// SPDX-License-Identifier: GPL-2.0
/*
 * ctf_calls.c - a system call that LKET records twice, by the syscall
 * group and by an iosyscall hook, written once, as LTTng has it
 * (ctf_int.h, lket-b2a(1)).
 *
 * The syscall group's entry fires first (sys_enter), then the hook's,
 * in the same thread on the same CPU; on the way out the hook's return,
 * then syscall.return.  So a pair is two records next to each other on
 * their CPU: the first is written as it comes and remembered, and when
 * the next one is its other half, it takes the first one's place:
 *
 *   syscall.entry (openat) + iosyscall.open.entry
 *	one syscall_entry_openat, at the first one's time, with LTTng's
 *	fields from the hook's record;
 *   iosyscall.open.return + syscall.return (openat)
 *	one syscall_exit_openat, syscall.return's (ret is its return).
 *
 * A syscall.entry of such a call that its hook's record does not follow
 * stays LTTng's syscall_entry_unknown (ctf_meta.c): LTTng's analyses
 * read the arguments it lacks.
 */
#include <string.h>

#include "output/ctf/ctf_int.h"

/* Is ev the other half of the stream's last record? */
static bool completes(const struct ctf_stream *s, const struct event *ev,
		      int e)
{
	const struct ctf_pending *p = &s->last;
	const struct lttng_syscall *call;

	if (p->kind == CTF_PENDING_NONE || p->tid != ev->tid ||
	    p->seq != s->seq)
		return false;
	if (p->kind == CTF_PENDING_ENTRY)
		return e == p->call->hook;
	call = e == LKET_EV_SYSCALL_RETURN ?
		lttng_syscall_of(lttng_syscall_name(ev)) : NULL;
	return call && call->hook_return == p->call->hook_return;
}

/* The stream without its last record. */
static void take_back(struct ctf_stream *s)
{
	s->len = s->last.at;
	if (s->len == CTF_PREAMBLE)
		s->events = false;
}

int ctf_call_event(struct ctf *c, struct ctf_stream *s,
		   const struct event *ev, const struct proc *proc)
{
	bool raw = !ev->meta || ev->raw_len ||
		   ev->nvalues != meta_nfields(ev->meta);
	int e = raw ? -1 : ev->meta->ev;
	uint64_t ts = ev->rec->timestamp;
	const struct lttng_syscall *call = NULL;
	uint32_t id;
	size_t at;
	int ret;

	if (completes(s, ev, e)) {
		if (s->last.kind == CTF_PENDING_ENTRY) {
			call = s->last.call;
			ts = s->last.ts;
		}
		take_back(s);
	}
	s->last.kind = CTF_PENDING_NONE;
	if (call)
		ret = ctf_syscall_class(c, ev, &call->event, call->lttng,
					&id);
	else
		ret = ctf_class(c, ev, raw, &id);
	if (!ret)
		ret = ctf_put_event(c, s, ev, proc, id, ts, &at);
	if (ret || call)
		return ret;
	if (e == LKET_EV_SYSCALL_ENTRY) {
		call = lttng_syscall_of(lttng_syscall_name(ev));
		if (call)
			s->last.kind = CTF_PENDING_ENTRY;
	} else if (e >= 0) {
		call = lttng_syscall_of_return(e);
		if (call)
			s->last.kind = CTF_PENDING_RETURN;
	}
	if (call) {
		s->last.at = at;
		s->last.seq = s->seq;
		s->last.ts = s->last_ts;
		s->last.tid = ev->tid;
		s->last.call = call;
	}
	return 0;
}
