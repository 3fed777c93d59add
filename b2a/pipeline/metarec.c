// SPDX-License-Identifier: GPL-2.0
/*
 * metarec.c - a source's group-0 records: the trace header, metadata,
 * modules, the ends of CPUs and of the trace (source_int.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbols.h"
#include "pipeline/source_int.h"
#include "util/diag.h"

/* A module (or the kernel) of the trace, for call stacks' symbols. */
static void apply_module(struct source *c, const struct stream *s)
{
	const struct event *ev = &c->ev;
	const char *name = str_named(ev, "name");
	int ret;

	if (!c->symbols)
		return;
	ret = symbols_add_module(c->symbols, name,
				 (uint64_t)event_int(ev, "base", 0),
				 (uint64_t)event_int(ev, "size", 0),
				 str_named(ev, "build_id"));
	if (ret == -ENOMEM)
		c->error = ret;
	else if (ret)
		diagf(c->diag, DIAG_DAMAGE, s->path, (int64_t)s->rec.offset,
		      "module record without a name: ignored");
}

/*
 * Metadata proper, read ahead of the events: group 0 but for the task
 * and module records, which are in time order with the events they name
 * (a module loaded while tracing is recorded then, maybe where an
 * unloaded one was, and holds the frames of the events after it only).
 */
bool metarec_is_metadata(const struct record *r)
{
	unsigned int hook = LKET_ID_HOOK(r->id);

	return LKET_ID_GROUP(r->id) == LKET_GROUP_LKET &&
	       hook != LKET_HOOK_TASK_NEW && hook != LKET_HOOK_TASK_EXEC &&
	       hook != LKET_HOOK_TASK_RENAME && hook != LKET_HOOK_TASK_EXIT &&
	       hook != LKET_HOOK_MODULE;
}

/* A handler of one hook's records, the record decoded in c->ev. */
typedef void (*metarec_handler)(struct source *c, const struct stream *s);

static void on_packet(struct source *c, const struct stream *s)
{
	losses_packet(c, s, event_int(&c->ev, "discarded", 0));
}

static void on_header(struct source *c, const struct stream *s)
{
	const struct event *ev = &c->ev;
	int64_t version = event_int(ev, "version", 0);

	if (version < LKET_FORMAT_VERSION_GLOBAL_SEQ ||
	    version > LKET_FORMAT_VERSION)
		diagf(c->diag, DIAG_DAMAGE, s->path, (int64_t)s->rec.offset,
		      "trace format version %lld, this lket-b2a reads %d to %d",
		      (long long)version, LKET_FORMAT_VERSION_GLOBAL_SEQ,
		      LKET_FORMAT_VERSION);
	c->seq_per_cpu = version >= LKET_FORMAT_VERSION_FRAMES;
	c->end_expected = version >= LKET_FORMAT_VERSION_END;
	c->info.have_header = true;
	c->info.wall_offset = event_int(ev, "wall_offset", 0);
	copy_string(c->info.clock, sizeof(c->info.clock),
		    str_named(ev, "clock"));
	copy_string(c->info.kernel, sizeof(c->info.kernel),
		    str_named(ev, "kernel"));
	if (c->symbols && symbols_set_release(c->symbols, c->info.kernel))
		c->error = -ENOMEM;
}

static void on_cpu_end(struct source *c, const struct stream *s)
{
	const struct event *ev = &c->ev;

	(void)s;
	endcheck_cpu_end(&c->end, event_int(ev, "cpu", -1),
			 (uint64_t)event_int(ev, "records", 0),
			 (uint64_t)event_int(ev, "dropped", 0));
}

static void on_trace_end(struct source *c, const struct stream *s)
{
	(void)s;
	endcheck_trace_end(&c->end,
			   (uint64_t)event_int(&c->ev, "skipped", 0),
			   (uint64_t)event_int(&c->ev, "errors", 0));
}

static void on_host(struct source *c, const struct stream *s)
{
	(void)s;
	copy_string(c->info.hostname, sizeof(c->info.hostname),
		    str_named(&c->ev, "hostname"));
	copy_string(c->info.machine, sizeof(c->info.machine),
		    str_named(&c->ev, "machine"));
}

static void on_flight(struct source *c, const struct stream *s)
{
	(void)s;
	c->flight = true;
	diagf(c->diag, DIAG_NOTE, NULL, -1,
	      "%s%s%sa flight recording: each CPU kept its newest %lld KiB of records, to a snapshot taken %lld ms after its trigger or at the stop",
	      c->host ? "host " : "", c->host ? c->host : "",
	      c->host ? ": " : "",
	      (long long)(event_int(&c->ev, "ring", 0) / 1024),
	      (long long)event_int(&c->ev, "grace_ms", 0));
}

/*
 * The first record of a rotated file (lket.rotation).  Read only in the
 * first file given of its CPU (the others' are stepped over): when that
 * is not the CPU's first file, the files before it are gone, and what
 * they held is neither lost nor in the files.
 */
static void on_rotation(struct source *c, const struct stream *s)
{
	const struct event *ev = &c->ev;
	int64_t file = event_int(ev, "file", 0);
	uint64_t records = (uint64_t)event_int(ev, "records_before", 0);
	uint64_t from = (uint64_t)event_int(ev, "first_ns", 0);
	uint64_t until = (uint64_t)event_int(ev, "before_ns", 0);
	unsigned int cpu = LKET_ID_CPU(s->rec.id);
	/* the files' names: this one's up to its number */
	const char *dot = strrchr(s->path, '.');
	int stem = dot ? (int)(dot - s->path) + 1 : 0;
	char *to = NULL;

	if (file <= 0)
		return;
	endcheck_deleted(&c->end, cpu, records,
			 (uint64_t)event_int(ev, "dropped_before", 0));
	if (file > 1)
		text_printf(&to, " to %.*s%lld", stem, s->path,
			    (long long)file - 1);
	diagf(c->diag, DIAG_NOTE, s->path, -1,
	      "%s%s%sa rotated trace: the files of CPU %u before this one, %.*s0%s, are not here: they held %llu records, from %llu.%09llu to %llu.%09llu",
	      c->host ? "host " : "", c->host ? c->host : "",
	      c->host ? ": " : "", cpu, stem, s->path, to ? to : "",
	      (unsigned long long)records,
	      (unsigned long long)(from / 1000000000),
	      (unsigned long long)(from % 1000000000),
	      (unsigned long long)(until / 1000000000),
	      (unsigned long long)(until % 1000000000));
	free(to);
}

/* What registering an event did, said if it was refused. */
static void registered(struct source *c, const struct stream *s,
		       const char *what, int64_t g, int64_t h, int ret,
		       const char *why)
{
	if (ret == -ENOMEM)
		c->error = ret;
	else if (ret)
		diagf(c->diag, DIAG_DAMAGE, s->path, (int64_t)s->rec.offset,
		      "%s for %lld:%lld %s: ignored", what, (long long)g,
		      (long long)h,
		      ret == -EEXIST ? "contradicts an earlier one" :
		      ret == -EPERM ? "would redefine a metadata record" :
		      why);
}

/* register_sys_event, register_user_event: an event's fields. */
static void on_register(struct source *c, const struct stream *s)
{
	const struct event *ev = &c->ev;
	bool user = ev->hook == LKET_HOOK_REGUSREVT;
	int64_t g = event_int(ev, "grpid", -1) & 0xff;
	int64_t h = event_int(ev, "hookid", -1) & 0xff;
	const char *fmt = str_named(ev, "fmt"), *names = str_named(ev, "names");
	const char *why = "is malformed";
	int ret;

	if (g == LKET_GROUP_LKET) {
		ret = -EPERM;
	} else if (!fmt || !names) {
		ret = -EINVAL;
		why = "has no fmt or names";
	} else {
		ret = meta_register(&c->meta, (unsigned int)g, (unsigned int)h,
				    user, fmt, names);
		why = meta_why(&c->meta);
	}
	registered(c, s, user ? "register_user_event" : "register_sys_event",
		   g, h, ret, why);
}

/* An event's description: its name. */
static void on_description(struct source *c, const struct stream *s)
{
	const struct event *ev = &c->ev;
	int64_t g = event_int(ev, "grpid", -1) & 0xff;
	int64_t h = event_int(ev, "hookid", -1) & 0xff;
	const char *name = str_named(ev, "name");
	const char *why = "is malformed";
	int ret;

	if (g == LKET_GROUP_LKET) {
		ret = -EPERM;
	} else if (!name) {
		ret = -EINVAL;
		why = "has no name";
	} else {
		ret = meta_name(&c->meta, (unsigned int)g, (unsigned int)h,
				name);
		why = meta_why(&c->meta);
	}
	registered(c, s, "event description", g, h, ret, why);
}

/* By hook; a hook not here is a task record (tasks.c), or ignored. */
static const metarec_handler metarec_handlers[256] = {
	[LKET_HOOK_PACKET] = on_packet,
	[LKET_HOOK_TRACE_HEADER] = on_header,
	[LKET_HOOK_MODULE] = apply_module,
	[LKET_HOOK_CPU_END] = on_cpu_end,
	[LKET_HOOK_TRACE_END] = on_trace_end,
	[LKET_HOOK_HOST] = on_host,
	[LKET_HOOK_FLIGHT] = on_flight,
	[LKET_HOOK_ROTATION] = on_rotation,
	[LKET_HOOK_REGSYSEVT] = on_register,
	[LKET_HOOK_REGUSREVT] = on_register,
	[LKET_HOOK_REGEVTDESC] = on_description,
};

/* A group-0 record: the trace header, metadata or a task record. */
bool metarec_apply(struct source *c, const struct stream *s)
{
	const struct event *ev = &c->ev;

	c->stats->meta++;
	/* what is wanted is known again as events come */
	if (c->scan_skip)
		memset(c->scan_skip, 0, LKET_SKIP_BYTES);
	if (decode_record(&c->meta, s, &c->ev) || !ev->meta) {
		diagf(c->diag, DIAG_DAMAGE, s->path, (int64_t)s->rec.offset,
		      "malformed metadata record (hook %u): ignored", ev->hook);
		return false;
	}
	if (metarec_handlers[ev->hook & 0xff])
		metarec_handlers[ev->hook & 0xff](c, s);
	else if (tasks_handles(ev->meta->ev))
		tasks_apply(c);
	return true;
}
