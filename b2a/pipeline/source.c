// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/endcheck.h"
#include "analysis/filter.h"
#include "analysis/procmap.h"
#include "analysis/report.h"
#include "analysis/seqtrack.h"
#include "analysis/symbols.h"
#include "decode/decode.h"
#include "decode/meta.h"
#include "input/merge.h"
#include "input/tracename.h"
#include "pipeline/source.h"
#include "runtime/lket_format.h"

/* a bit for every group << 8 | hook */
#define LKET_SKIP_BYTES	(65536 / 8)

/* Read window per file: large enough to read in big gulps, small enough
 * that a 256-CPU trace stays well under 32 MiB. */
#define WINDOW_TOTAL	(16u << 20)
#define WINDOW_MAX	(1u << 20)

struct source {
	struct meta meta;
	/* the catalogue's, for events the trace has no metadata of; each
	 * (group, hook) looked up once: bit set in catalogue_tried */
	struct meta fallback;
	uint8_t catalogue_tried[256 * 256 / 8];
	struct procmap procs;
	struct seqtrack seq;	/* format version 1: one for all files */
	struct seqrun *runs;	/* version 2: one per file (stream order) */
	bool seq_per_cpu;	/* the trace header says version 2 or 3 */
	bool end_expected;	/* ... 3: the trace ends with lket.trace_end */
	struct endcheck end;	/* the files against that end */
	struct trace_info info;
	struct output *out;
	struct diag *diag;
	struct convert_stats *stats;
	struct filter *filter;
	struct report *report;
	struct symbols *symbols;
	struct event ev;
	int error;		/* first output error */
	const char *host;	/* the label of a host; NULL: one trace */
	struct source_clock clock;	/* onto the common time base */
	bool map;		/* clock is not the identity */
	/* scan mode: the events wanted go to scan, nothing to the output */
	source_scan_fn scan;
	void *scan_ctx;
	const bool *scan_want;	/* indexed by LKET_EV_* */
	/* bit group << 8 | hook: an event the metadata says is not wanted,
	 * which the streams then step over without a look */
	uint8_t *scan_skip;
	/* the files */
	const struct source_options *opt;
	const char **files;
	struct stream *streams;
	struct stream **live;
	int *first;
	size_t n;
	struct merge m;
	uint64_t total, count;
};

static const char *str_named(const struct event *ev, const char *name)
{
	const struct value *v = event_value(ev, name);

	/* strings decoded from a record are NUL-terminated in place */
	return v && v->f->type == LKET_STRING ? v->s : NULL;
}

static void copy_string(char *dst, size_t size, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	if (n >= size)
		n = size - 1;
	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
}

static void on_gap(void *ctx, const struct seq_gap *g);

/*
 * A packet record starts each frame of a CPU (format version 2): the
 * records that CPU dropped since its previous frame, after the last
 * record of this file seen so far and before this one.
 */
static void apply_packet(struct source *c, const struct stream *s,
			 int64_t discarded)
{
	struct seq_gap g = {
		.after_ts = c->runs[s->order].last_ts,
		.before_ts = s->rec.timestamp,
		.cpu = (int)LKET_ID_CPU(s->rec.id),
		.records = (uint64_t)discarded,
	};

	if (discarded <= 0)
		return;
	c->stats->dropped += g.records;
	endcheck_packet(&c->end, LKET_ID_CPU(s->rec.id), g.records);
	on_gap(c, &g);
}

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

/* The symbols of ev's call stacks, where the symbols module knows them. */
static int symbolise(struct source *c, struct event *ev)
{
	struct value *v, *end = ev->v + ev->nvalues;
	const char **syms;
	uint32_t i;
	int ret;

	for (v = ev->v; v < end; v++) {
		if (v->f->type != LKET_ADDRS)
			continue;
		syms = &ev->syms[v->a - ev->addrs];
		for (i = 0; i < v->n; i++) {
			ret = symbols_lookup(c->symbols, v->a[i], &syms[i]);
			if (ret)
				return ret;
		}
		v->syms = syms;
	}
	return 0;
}

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

/* Keep the tid -> process map current from process events. */
static int track_process(struct source *c, const struct event *ev)
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
static void apply_task(struct source *c)
{
	int ret;

	if (c->scan)
		return;
	ret = track_process(c, &c->ev);

	if (!ret && c->out->ops->task)
		ret = c->out->ops->task(c->out, &c->ev,
					procmap_thread(&c->procs, c->ev.tid,
						       c->ev.cpu));
	if (ret && !c->error)
		c->error = ret;
}

/*
 * Records the tracer counts in lket.cpu_end: all but packet records and
 * the end's own.
 */
static bool is_counted(const struct record *r)
{
	unsigned int hook = LKET_ID_HOOK(r->id);

	return LKET_ID_GROUP(r->id) != LKET_GROUP_LKET ||
	       (hook != LKET_HOOK_PACKET && hook != LKET_HOOK_CPU_END &&
		hook != LKET_HOOK_TRACE_END);
}

/*
 * Metadata proper, read ahead of the events: group 0 but for the task
 * and module records, which are in time order with the events they name
 * (a module loaded while tracing is recorded then, maybe where an
 * unloaded one was, and holds the frames of the events after it only).
 */
static bool is_metadata(const struct record *r)
{
	unsigned int hook = LKET_ID_HOOK(r->id);

	return LKET_ID_GROUP(r->id) == LKET_GROUP_LKET &&
	       hook != LKET_HOOK_TASK_NEW && hook != LKET_HOOK_TASK_EXEC &&
	       hook != LKET_HOOK_TASK_RENAME && hook != LKET_HOOK_TASK_EXIT &&
	       hook != LKET_HOOK_MODULE;
}

/* A group-0 record: the trace header, metadata or a task record. */
static void apply_meta(struct source *c, const struct stream *s)
{
	const struct event *ev = &c->ev;
	const char *what = "register_sys_event";
	const char *fmt, *names, *name, *why = "is malformed";
	int64_t g, h;
	int ret = 0;

	c->stats->meta++;
	/* what is wanted is known again as events come */
	if (c->scan_skip)
		memset(c->scan_skip, 0, LKET_SKIP_BYTES);
	if (decode_record(&c->meta, s, &c->ev) || !ev->meta) {
		diagf(c->diag, DIAG_DAMAGE, s->path, (int64_t)s->rec.offset,
		      "malformed metadata record (hook %u): ignored", ev->hook);
		return;
	}
	if (ev->hook == LKET_HOOK_PACKET) {
		apply_packet(c, s, event_int(ev, "discarded", 0));
		return;
	}
	if (ev->hook == LKET_HOOK_TRACE_HEADER) {
		int64_t version = event_int(ev, "version", 0);

		if (version < LKET_FORMAT_VERSION_GLOBAL_SEQ ||
		    version > LKET_FORMAT_VERSION)
			diagf(c->diag, DIAG_DAMAGE, s->path,
			      (int64_t)s->rec.offset,
			      "trace format version %lld, this lket-b2a reads %d to %d",
			      (long long)version,
			      LKET_FORMAT_VERSION_GLOBAL_SEQ,
			      LKET_FORMAT_VERSION);
		c->seq_per_cpu = version >= LKET_FORMAT_VERSION_FRAMES;
		c->end_expected = version >= LKET_FORMAT_VERSION_END;
		c->info.have_header = true;
		c->info.wall_offset = event_int(ev, "wall_offset", 0);
		copy_string(c->info.clock, sizeof(c->info.clock),
			    str_named(ev, "clock"));
		copy_string(c->info.kernel, sizeof(c->info.kernel),
			    str_named(ev, "kernel"));
		if (c->symbols && symbols_set_release(c->symbols,
						      c->info.kernel))
			c->error = -ENOMEM;
		return;
	}
	if (ev->hook == LKET_HOOK_MODULE) {
		apply_module(c, s);
		return;
	}
	if (ev->hook == LKET_HOOK_CPU_END) {
		endcheck_cpu_end(&c->end, event_int(ev, "cpu", -1),
				 (uint64_t)event_int(ev, "records", 0),
				 (uint64_t)event_int(ev, "dropped", 0));
		return;
	}
	if (ev->hook == LKET_HOOK_TRACE_END) {
		endcheck_trace_end(&c->end,
				   (uint64_t)event_int(ev, "skipped", 0),
				   (uint64_t)event_int(ev, "errors", 0));
		return;
	}
	if (ev->hook == LKET_HOOK_HOST) {
		copy_string(c->info.hostname, sizeof(c->info.hostname),
			    str_named(ev, "hostname"));
		copy_string(c->info.machine, sizeof(c->info.machine),
			    str_named(ev, "machine"));
		return;
	}
	if (ev->meta->ev >= 0 && process_handlers[ev->meta->ev]) {
		apply_task(c);
		return;
	}
	g = event_int(ev, "grpid", -1) & 0xff;
	h = event_int(ev, "hookid", -1) & 0xff;
	switch (ev->hook) {
	case LKET_HOOK_REGUSREVT:
		what = "register_user_event";
		/* fall through */
	case LKET_HOOK_REGSYSEVT:
		fmt = str_named(ev, "fmt");
		names = str_named(ev, "names");
		if (g == LKET_GROUP_LKET) {
			ret = -EPERM;
		} else if (!fmt || !names) {
			ret = -EINVAL;
			why = "has no fmt or names";
		} else {
			ret = meta_register(&c->meta, (unsigned int)g,
					    (unsigned int)h,
					    ev->hook == LKET_HOOK_REGUSREVT,
					    fmt, names);
			why = meta_why(&c->meta);
		}
		break;
	case LKET_HOOK_REGEVTDESC:
		what = "event description";
		name = str_named(ev, "name");
		if (g == LKET_GROUP_LKET) {
			ret = -EPERM;
		} else if (!name) {
			ret = -EINVAL;
			why = "has no name";
		} else {
			ret = meta_name(&c->meta, (unsigned int)g,
					(unsigned int)h, name);
			why = meta_why(&c->meta);
		}
		break;
	default:
		return;
	}
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

/* A flush that was read, at ts: not lost, whatever it held. */
static void see_seq(struct source *c, const struct stream *s, uint32_t seq,
		    uint64_t ts)
{
	struct seqrun *run = &c->runs[s->order];

	if (c->seq_per_cpu) {
		if (!run->started)
			seqrun_init(run, s->cpu, on_gap, c);
		seqrun_see(run, seq, ts);
	} else {
		seqtrack_see(&c->seq, seq, ts);
	}
}

/* The flushes the stream read that no record carries, as of ts. */
static void see_bare(struct source *c, struct stream *s, uint64_t ts)
{
	unsigned int i;

	for (i = 0; i < s->nbare; i++)
		see_seq(c, s, s->bare[i], ts);
	s->nbare = 0;
}

/* The flush numbers of a record: lost flushes before it, if any. */
static void track_seq(struct source *c, struct stream *s)
{
	const struct record *r = &s->rec;
	struct seqrun *run = &c->runs[s->order];

	if (!r->seq_valid)
		return;
	/* damage is not loss: a flush of garbage was there */
	see_bare(c, s, r->timestamp);
	if (c->seq_per_cpu) {
		if (!run->started)
			seqrun_init(run, s->cpu, on_gap, c);
		seqrun_see(run, r->seq, r->timestamp);
		/* a flush may hold nothing but the end of this record */
		if (r->seq_last != r->seq)
			seqrun_see(run, r->seq_last, r->timestamp);
		return;
	}
	seqtrack_see(&c->seq, r->seq, r->timestamp);
	if (r->seq_last != r->seq)
		seqtrack_see(&c->seq, r->seq_last, r->timestamp);
}

/*
 * Decode a record the trace has no field list for with the catalogue's,
 * as its tapset would have registered it; said once per event.  Returns
 * what decode_record() did, or 0 with ev as it was.
 */
static int decode_from_catalogue(struct source *c, const struct stream *s)
{
	unsigned int id = c->ev.group << 8 | c->ev.hook;
	uint8_t *tried = &c->catalogue_tried[id / 8], bit = 1u << (id % 8);
	const char *name;

	if (!(*tried & bit)) {
		*tried |= bit;
		if (meta_from_catalogue(&c->fallback, c->ev.group, c->ev.hook))
			return 0;
		name = meta_catalogue_name(c->ev.group, c->ev.hook);
		diagf(c->diag, DIAG_NOTE, s->path, (int64_t)s->rec.offset,
		      "metadata for %s [%u:%u] missing: decoded with the built-in catalogue",
		      name, c->ev.group, c->ev.hook);
	}
	if (!meta_get(&c->fallback, c->ev.group, c->ev.hook))
		return 0;
	return decode_record(&c->fallback, s, &c->ev);
}

/* Scan mode: only the events asked for are decoded, for the callback. */
static int scan_record(struct source *c, const struct stream *s)
{
	const struct event_meta *m = meta_get(&c->meta, LKET_ID_GROUP(s->rec.id),
					      LKET_ID_HOOK(s->rec.id));

	unsigned int k = LKET_ID_GROUP(s->rec.id) << 8 | LKET_ID_HOOK(s->rec.id);

	if (m && m->sys.defined && (m->ev < 0 || !c->scan_want[m->ev])) {
		c->scan_skip[k >> 3] |= (uint8_t)(1u << (k & 7));
		return 0;
	}
	decode_record(&c->meta, s, &c->ev);
	if (!c->ev.meta || !c->ev.meta->sys.defined)
		decode_from_catalogue(c, s);
	if (!c->ev.meta || c->ev.meta->ev < 0 ||
	    !c->scan_want[c->ev.meta->ev])
		return 0;
	return c->scan(c->scan_ctx, &c->ev);
}

static int handle(struct source *c, struct stream *s)
{
	const struct record *r = &s->rec;
	const struct proc *proc;
	bool selected;
	int ret;

	if (LKET_ID_GROUP(r->id) == LKET_GROUP_LKET) {
		if (is_counted(r))
			endcheck_found(&c->end, LKET_ID_CPU(r->id),
				       r->timestamp);
		/* the trace header says how flushes are numbered */
		apply_meta(c, s);
		track_seq(c, s);
		return c->error;
	}
	endcheck_found(&c->end, LKET_ID_CPU(r->id), r->timestamp);
	track_seq(c, s);
	if (s->cpu >= 0 && LKET_ID_CPU(r->id) != (unsigned int)s->cpu)
		diagf(c->diag, DIAG_DAMAGE, s->path, (int64_t)r->offset,
		      "record of CPU %u in the file of CPU %d",
		      LKET_ID_CPU(r->id), s->cpu);
	if (c->scan)
		return scan_record(c, s);
	ret = decode_record(&c->meta, s, &c->ev);
	if (!c->ev.meta || !c->ev.meta->sys.defined)
		ret = decode_from_catalogue(c, s);
	if (ret)
		diagf(c->diag, DIAG_DAMAGE, s->path, (int64_t)r->offset,
		      "record %u:%u (%s) does not match its metadata: %u bytes shown raw",
		      c->ev.group, c->ev.hook,
		      c->ev.meta && c->ev.meta->named ? c->ev.meta->name : "?",
		      c->ev.raw_len);
	if (c->symbols && c->ev.naddrs) {
		ret = symbolise(c, &c->ev);
		if (ret)
			return ret;
	}
	proc = procmap_thread(&c->procs, c->ev.tid, c->ev.cpu);
	/* no filter: one test on the hot path */
	if (!c->filter || filter_event(c->filter, &c->ev, proc)) {
		ret = c->out->ops->event(c->out, &c->ev, proc);
		c->stats->events++;
		selected = true;
	} else {
		ret = 0;
		c->stats->filtered++;
		selected = false;
	}
	if (!ret && c->report) {
		ret = report_event(c->report, &c->ev, proc, selected);
		if (ret == 1) {
			uint64_t ns;
			const char *what = report_negative(c->report, &ns);

			diagf(c->diag, DIAG_DAMAGE, s->path, (int64_t)r->offset,
			      "%s ends %llu ns before it began (time went back): left out of the latency report",
			      what, (unsigned long long)ns);
			ret = 0;
		}
	}
	if (!ret && c->ev.meta && c->ev.meta->named)
		ret = track_process(c, &c->ev);
	return ret;
}

/* A gap to the output, unless filtered out. */
static void gap_out(struct source *c, const struct seq_gap *g)
{
	int ret;

	if (c->scan)
		return;
	/* lost flushes belong to no thread: only times filter them */
	if (c->filter && (g->after_ts > c->filter->to_ts ||
			  (g->before_ts && g->before_ts < c->filter->from_ts)))
		return;
	ret = c->out->ops->lost(c->out, g);
	if (ret && !c->error)
		c->error = ret;
}

static void on_gap(void *ctx, const struct seq_gap *gap)
{
	struct source *c = ctx;
	struct seq_gap hg = *gap, *g = &hg;
	char cpu[32] = "";

	hg.host = c->host;
	if (!g->records)
		endcheck_gap(&c->end, g->cpu);

	if (g->cpu >= 0)
		snprintf(cpu, sizeof(cpu), " of CPU %d", g->cpu);
	if (g->records)
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%s%llu records%s dropped by the tracer, its buffers full, between %llu.%09llu and %llu.%09llu",
		      c->host ? "host " : "", c->host ? c->host : "",
		      c->host ? ": " : "",
		      (unsigned long long)g->records, cpu,
		      (unsigned long long)(g->after_ts / 1000000000),
		      (unsigned long long)(g->after_ts % 1000000000),
		      (unsigned long long)(g->before_ts / 1000000000),
		      (unsigned long long)(g->before_ts % 1000000000));
	else
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%slost %llu flushes%s (sequence %u to %u) between %llu.%09llu and %llu.%09llu",
		      c->host ? "host " : "", c->host ? c->host : "",
		      c->host ? ": " : "",
		      (unsigned long long)(g->last - g->first) + 1, cpu,
		      g->first, g->last,
		      (unsigned long long)(g->after_ts / 1000000000),
		      (unsigned long long)(g->after_ts % 1000000000),
		      (unsigned long long)(g->before_ts / 1000000000),
		      (unsigned long long)(g->before_ts % 1000000000));
	gap_out(c, g);
}

/* What the end of the trace says the files lack. */
static void on_end(void *ctx, const struct endcheck_report *r)
{
	struct source *c = ctx;
	const char *h = c->host ? "host " : "", *hl = c->host ? c->host : "",
		   *hs = c->host ? ": " : "";
	unsigned long long n = r->n;
	struct seq_gap g = {
		.after_ts = r->last_ts, .cpu = r->cpu, .records = r->n,
		.host = c->host,
	};

	switch (r->what) {
	case ENDCHECK_MISSING:
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%s%llu records of CPU %d lost %s: the tracer wrote %llu there (lket.cpu_end), the files hold %llu",
		      h, hl, hs, n, r->cpu,
		      r->gaps ? "in the lost flushes above, or after its last record" :
		      "after its last record (the consumer stopped before reading them)",
		      (unsigned long long)r->written,
		      (unsigned long long)(r->written - r->n));
		break;
	case ENDCHECK_SURPLUS:
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%sthe files hold %llu records of CPU %d more than the %llu the tracer wrote there (lket.cpu_end)",
		      h, hl, hs, n, r->cpu, (unsigned long long)r->written);
		break;
	case ENDCHECK_DROPPED:
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%s%llu records of CPU %d dropped by the tracer, its buffers full, after %llu.%09llu (lket.cpu_end)",
		      h, hl, hs, n, r->cpu,
		      (unsigned long long)(r->last_ts / 1000000000),
		      (unsigned long long)(r->last_ts % 1000000000));
		gap_out(c, &g);
		break;
	case ENDCHECK_NO_CPU_END:
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%sCPU %d has %llu records but no lket.cpu_end: whether any are lost cannot be told",
		      h, hl, hs, r->cpu, n);
		break;
	case ENDCHECK_NO_FILE:
		diagf(c->diag, DIAG_NOTE, NULL, -1,
		      "%s%s%sno file of CPU %d was given: it holds %llu records",
		      h, hl, hs, r->cpu, n);
		break;
	case ENDCHECK_SKIPPED:
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%sSystemTap skipped %llu probe hits (lket.trace_end): their records are lost (a probe that fired while a handler ran on its CPU, a return probe without a free instance, or a CPU onlined after tracing started)",
		      h, hl, hs, n);
		break;
	case ENDCHECK_ERRORS:
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%s%llu probe handlers failed (lket.trace_end): their records may be cut or missing",
		      h, hl, hs, n);
		break;
	case ENDCHECK_NO_END:
		diagf(c->diag, DIAG_DAMAGE, NULL, -1,
		      "%s%s%sthe trace has no end (lket.trace_end, format version 3 and later): records at the end of its files may be lost, and how many cannot be told",
		      h, hl, hs);
		break;
	}
}

/* Open every file once; a file seen twice (same inode, or same CPU). */
static size_t open_streams(const char *const *paths, size_t npaths,
			   struct stream *streams, struct diag *diag)
{
	size_t window = WINDOW_TOTAL / (npaths ? npaths : 1);
	struct stat st;
	dev_t *devs = calloc(npaths ? npaths : 1, sizeof(*devs));
	ino_t *inos = calloc(npaths ? npaths : 1, sizeof(*inos));
	size_t i, j, n = 0;
	int ret, cpu;

	if (window > WINDOW_MAX)
		window = WINDOW_MAX;
	for (i = 0; i < npaths; i++) {
		/* "-" is standard input, whatever it is */
		if ((strcmp(paths[i], "-") ? stat(paths[i], &st) :
		     fstat(STDIN_FILENO, &st)) == 0) {
			for (j = 0; j < n && devs && inos; j++)
				if (devs[j] == st.st_dev && inos[j] == st.st_ino)
					break;
			if (devs && inos && j < n) {
				diagf(diag, DIAG_DAMAGE, paths[i], -1,
				      strcmp(paths[i], "-") ||
				      strcmp(streams[j].path, "-") ?
				      "same file as %s: read once" :
				      "standard input given twice: read once",
				      streams[j].path);
				continue;
			}
		}
		cpu = tracename_cpu(paths[i]);
		for (j = 0; cpu >= 0 && j < n; j++)
			if (streams[j].cpu == cpu)
				break;
		if (cpu >= 0 && j < n) {
			diagf(diag, DIAG_DAMAGE, paths[i], -1,
			      "a second file for CPU %d (the first is %s): skipped",
			      cpu, streams[j].path);
			continue;
		}
		ret = stream_open(&streams[n], paths[i], cpu, window, diag);
		streams[n].order = (unsigned int)n;
		if (ret) {
			diagf(diag, DIAG_DAMAGE, paths[i], -1, "cannot read: %s",
			      strerror(-ret));
			continue;
		}
		if (devs && inos) {
			devs[n] = st.st_dev;
			inos[n] = st.st_ino;
		}
		n++;
	}
	free(devs);
	free(inos);
	return n;
}

int source_new(struct source **sp, struct output *out, struct diag *diag,
	       struct convert_stats *stats, const struct source_options *opt)
{
	struct source *c = calloc(1, sizeof(*c));
	int ret;

	*sp = NULL;
	if (!c)
		return -ENOMEM;
	c->out = out;
	c->diag = diag;
	c->stats = stats;
	c->opt = opt;
	c->filter = opt && opt->filter && opt->filter->active ? opt->filter :
		    NULL;
	c->report = opt ? opt->report : NULL;
	c->symbols = opt ? opt->symbols : NULL;
	c->host = opt ? opt->host : NULL;
	c->ev.host = c->host;
	if (opt && opt->clock) {
		c->clock = *opt->clock;
		c->map = true;
	}
	if (opt && opt->scan) {
		c->scan = opt->scan;
		c->scan_ctx = opt->scan_ctx;
		c->scan_want = opt->scan_want;
		c->scan_skip = calloc(LKET_SKIP_BYTES, 1);
		if (!c->scan_skip) {
			free(c);
			return -ENOMEM;
		}
	}
	memset(stats, 0, sizeof(*stats));
	ret = meta_init(&c->meta);
	if (ret)
		goto out_free;
	ret = procmap_init(&c->procs);
	if (ret)
		goto out_meta;
	seqtrack_init(&c->seq, on_gap, c);
	c->info.procs = &c->procs;
	*sp = c;
	return 0;
out_meta:
	meta_free(&c->meta);
out_free:
	free(c->scan_skip);
	free(c);
	return ret;
}

const struct trace_info *source_info(const struct source *c)
{
	return &c->info;
}

/* The current record of s onto the common time base. */
static inline void map_record(struct source *c, struct stream *s)
{
	if (c->map)
		s->rec.timestamp = source_clock_map(&c->clock,
						    s->rec.timestamp);
}

int source_open(struct source *c, const char *const *paths, size_t npaths)
{
	size_t alloc = npaths ? npaths : 1, i, k, n, header, nlive = 0;
	struct stream *s;
	int ret;

	c->files = calloc(alloc, sizeof(*c->files));
	c->streams = calloc(alloc, sizeof(*c->streams));
	c->live = calloc(alloc, sizeof(*c->live));
	c->runs = calloc(alloc, sizeof(*c->runs));
	c->first = calloc(alloc, sizeof(*c->first));
	if (!c->files || !c->streams || !c->live || !c->runs || !c->first)
		return -ENOMEM;
	n = c->n = open_streams(paths, npaths, c->streams, c->diag);
	c->stats->files = n;
	if (!n)
		return -ENOENT;
	/*
	 * Metadata first: each file's leading group-0 records, starting with
	 * the file whose first record is the trace header, which says how
	 * the flushes are numbered.
	 */
	c->info.first_ts = UINT64_MAX;
	for (i = 0; i < n; i++)
		c->first[i] = stream_next(&c->streams[i]);
	for (i = 0; i < n; i++)
		if (c->first[i] == 1 &&
		    LKET_ID_GROUP(c->streams[i].rec.id) == LKET_GROUP_LKET &&
		    LKET_ID_HOOK(c->streams[i].rec.id) == LKET_HOOK_TRACE_HEADER)
			break;
	header = i < n ? i : 0;
	for (k = 0; k < n; k++) {
		i = k == 0 ? header : k <= header ? k - 1 : k;
		s = &c->streams[i];
		for (ret = c->first[i]; ret == 1 && is_metadata(&s->rec);
		     ret = stream_next(s)) {
			map_record(c, s);
			ret = handle(c, s);
			if (ret)
				return ret;
		}
		if (ret < 0) {
			diagf(c->diag, DIAG_DAMAGE, s->path, -1,
			      "read error: %s", strerror(-ret));
			continue;
		}
		if (ret == 1) {
			c->live[nlive++] = s;
			if (s->rec.timestamp < c->info.first_ts)
				c->info.first_ts = s->rec.timestamp;
		}
	}
	for (i = 0; i < n; i++)
		c->files[i] = c->streams[i].path;
	c->info.files = c->files;
	c->info.nfiles = n;
	if (c->info.first_ts == UINT64_MAX)
		c->info.first_ts = 0;
	else if (c->map)
		c->info.first_ts = source_clock_map(&c->clock,
						    c->info.first_ts);
	if (c->filter) {
		ret = filter_prepare(c->filter, &c->info);
		if (ret)
			return ret;
	}
	ret = merge_streams(&c->m, c->live, nlive);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		c->total = c->streams[i].sized && c->total != UINT64_MAX ?
			   c->total + c->streams[i].file_size : UINT64_MAX;
	return 0;
}

bool source_peek(const struct source *c, uint64_t *key)
{
	const struct stream *s = merge_peek(&c->m);

	if (!s)
		return false;
	*key = c->map ? source_clock_map(&c->clock, s->rec.key) : s->rec.key;
	return true;
}

int source_step(struct source *c)
{
	struct stream *s = merge_peek(&c->m);
	int ret;

	if (!s)
		return 0;
	map_record(c, s);
	ret = handle(c, s);
	if (ret)
		return ret;
	ret = merge_advance(&c->m);
	if (ret)
		diagf(c->diag, DIAG_DAMAGE, s->path, -1, "read error: %s",
		      strerror(-ret));
	return 0;
}

int source_scan(struct source *c)
{
	struct stream *s;
	size_t i;
	int ret = 0;

	/* the heap holds every stream with a record left, in no order */
	for (i = 0; !ret && i < c->m.n; i++) {
		s = c->m.heap[i].src;
		s->skip = c->scan_skip;
		do {
			ret = 0;
			if (LKET_ID_GROUP(s->rec.id) == LKET_GROUP_LKET)
				apply_meta(c, s);
			else
				ret = scan_record(c, s);
		} while (!ret && !c->error && (ret = stream_next(s)) == 1);
		if (ret == 1 || ret == 0)
			ret = c->error;
		else if (ret < 0 && ret != -ENOMEM)
			ret = 0;	/* a read error: the second pass says it */
	}
	c->m.n = 0;
	return ret;
}

void source_progress(const struct source *c, uint64_t *done, uint64_t *total)
{
	size_t i;

	for (*done = 0, i = 0; i < c->n; i++)
		*done += c->streams[i].buf_off + c->streams[i].pos;
	*total = c->total == UINT64_MAX ? 0 : c->total;
}

int source_finish(struct source *c)
{
	struct endcheck_findings f;
	size_t i;

	for (i = 0; i < c->n && !c->scan; i++)
		see_bare(c, &c->streams[i], c->streams[i].last_ts);
	seqtrack_finish(&c->seq);
	c->stats->lost = c->seq.lost;
	for (i = 0; i < c->n; i++)
		c->stats->lost += c->runs[i].lost;
	if (!c->scan) {
		for (i = 0; i < c->n; i++)
			endcheck_file(&c->end, c->streams[i].cpu);
		endcheck_finish(&c->end, c->end_expected, on_end, c, &f);
		c->stats->missing += f.missing;
		c->stats->dropped += f.dropped;
		c->stats->skipped += f.skipped;
		c->info.missing = f.missing;
		c->info.skipped = f.skipped;
	}
	return c->error;
}

void source_free(struct source *c)
{
	size_t i;

	if (!c)
		return;
	merge_free(&c->m);
	for (i = 0; i < c->n; i++) {
		c->stats->bytes += c->streams[i].sized ?
				   c->streams[i].file_size :
				   c->streams[i].buf_off + c->streams[i].len;
		stream_close(&c->streams[i]);
	}
	free(c->scan_skip);
	procmap_free(&c->procs);
	meta_free(&c->meta);
	meta_free(&c->fallback);
	free(c->first);
	free(c->runs);
	free(c->files);
	free(c->live);
	free(c->streams);
	free(c);
}
