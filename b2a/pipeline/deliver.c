// SPDX-License-Identifier: GPL-2.0
/*
 * deliver.c - one record of a source's events: decoded (from the trace's
 * metadata, else the catalogue's), its call stacks symbolised, filtered,
 * handed to the output and the latency report, the process map kept
 * (source_int.h).
 */
#include <errno.h>

#include "analysis/filter.h"
#include "analysis/critpath.h"
#include "analysis/offcpu.h"
#include "analysis/report.h"
#include "analysis/symbols.h"
#include "pipeline/source_int.h"

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
 * Records the tracer counts in lket.cpu_end: all but packet records, the
 * end's own and a rotated file's lket.rotation, which it did not write.
 */
static bool is_counted(const struct record *r)
{
	unsigned int hook = LKET_ID_HOOK(r->id);

	return LKET_ID_GROUP(r->id) != LKET_GROUP_LKET ||
	       (hook != LKET_HOOK_PACKET && hook != LKET_HOOK_CPU_END &&
		hook != LKET_HOOK_TRACE_END && hook != LKET_HOOK_ROTATION);
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
int deliver_scan(struct source *c, const struct stream *s)
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

/*
 * A copy at the start of a rotated file (LKET_RECORD_COPY): what it says
 * of the trace and its tasks is kept; it is no event, and the tracer
 * counted its original.
 */
static int deliver_copy(struct source *c, struct stream *s)
{
	if (LKET_ID_GROUP(s->rec.id) == LKET_GROUP_LKET) {
		s->lket_seen |= metarec_apply(c, s);
		return c->error;
	}
	decode_record(&c->meta, s, &c->ev);
	if (!c->ev.meta || !c->ev.meta->sys.defined)
		decode_from_catalogue(c, s);
	s->lket_seen |= c->ev.meta && c->ev.meta->sys.defined;
	if (c->ev.meta && c->ev.meta->named)
		return tasks_track(c, &c->ev);
	return 0;
}

int deliver_record(struct source *c, struct stream *s)
{
	const struct record *r = &s->rec;
	struct selection sel = { .filter = c->filter, .procs = &c->procs,
				 .passed = true, .record = true };
	const struct proc *proc;
	int ret;

	if (r->flags & LKET_RECORD_COPY)
		return deliver_copy(c, s);
	if (LKET_ID_GROUP(r->id) == LKET_GROUP_LKET) {
		if (is_counted(r))
			endcheck_found(&c->end, LKET_ID_CPU(r->id),
				       r->timestamp);
		/* the trace header says how flushes are numbered */
		s->lket_seen |= metarec_apply(c, s);
		losses_track_seq(c, s);
		return c->error;
	}
	endcheck_found(&c->end, LKET_ID_CPU(r->id), r->timestamp);
	losses_track_seq(c, s);
	if (s->cpu >= 0 && LKET_ID_CPU(r->id) != (unsigned int)s->cpu)
		diagf(c->diag, DIAG_DAMAGE, s->path, (int64_t)r->offset,
		      "record of CPU %u in the file of CPU %d",
		      LKET_ID_CPU(r->id), s->cpu);
	if (c->scan)
		return deliver_scan(c, s);
	ret = decode_record(&c->meta, s, &c->ev);
	if (!c->ev.meta || !c->ev.meta->sys.defined)
		ret = decode_from_catalogue(c, s);
	/* a record of LKET's, not garbage that looked like one */
	s->lket_seen |= !ret && c->ev.meta && c->ev.meta->sys.defined;
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
	if (c->filter) {
		sel.passed = filter_event(c->filter, &c->ev, proc);
		/* the analyses report threads: is the rest of ev selected? */
		sel.record = sel.passed ||
			     ((c->report || c->offcpu || c->out->ops->every) &&
			      filter_record(c->filter, &c->ev));
	}
	/* the analyses see every event, filtered out or not */
	ret = c->out->ops->every ? c->out->ops->every(c->out, &c->ev, proc,
						      &sel) : 0;
	if (!ret && sel.passed) {
		ret = c->out->ops->event(c->out, &c->ev, proc);
		c->stats->events++;
	} else if (!ret) {
		c->stats->filtered++;
	}
	if (!ret && c->report) {
		ret = report_event(c->report, &c->ev, proc, &sel);
		if (ret == 1) {
			uint64_t ns;
			const char *what = report_negative(c->report, &ns);

			diagf(c->diag, DIAG_DAMAGE, s->path, (int64_t)r->offset,
			      "%s ends %llu ns before it began (time went back): left out of the latency report",
			      what, (unsigned long long)ns);
			ret = 0;
		}
	}
	if (!ret && c->offcpu)
		ret = offcpu_event(c->offcpu, &c->ev, proc, &sel);
	if (!ret && c->critpath)
		ret = critpath_event(c->critpath, &c->ev, proc);
	if (!ret && c->ev.meta && c->ev.meta->named)
		ret = tasks_track(c, &c->ev);
	return ret;
}
