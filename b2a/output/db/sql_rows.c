// SPDX-License-Identifier: GPL-2.0
/*
 * sql_rows.c - the rows every database output writes (sql.h): one per
 * event, lost flush, process, latency and trace, handed to the dialect's
 * sink; an event's table defined when its first event comes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/report.h"
#include "output/db/sql.h"
#include "output/line/outfmt.h"
#include "util/diag.h"

static struct sql_output *sql_of(struct output *o)
{
	return (struct sql_output *)o;
}

int sql_fail(struct sql_output *so, int err, const char *fmt, ...)
{
	va_list ap;

	if (so->error)
		return err;
	va_start(ap, fmt);
	text_vprintf(&so->error, fmt, ap);
	va_end(ap);
	return err;
}

/* A failure the sink had no words for: the errno's. */
static int failed(struct sql_output *so, int ret)
{
	if (ret < 0)
		sql_fail(so, ret, "%s: %s", so->name, strerror(-ret));
	return ret;
}

static int exec_text(struct sql_output *so, char *sql)
{
	int ret = sql ? so->sink->exec(so, sql) : -ENOMEM;

	free(sql);
	return ret;
}

/* Shared tables and views, made unless the table exists already. */
static int define_text(struct sql_output *so, char *sql, const char *exists)
{
	int ret = sql ? so->sink->define(so, sql, exists) : -ENOMEM;

	free(sql);
	return ret;
}

/*
 * The index in so->hosts of the host labelled label (an event's; NULL:
 * the one trace's), added on first sight; -E2BIG past SQL_MAX_HOSTS.
 */
static int host_of(struct sql_output *so, const char *label)
{
	const struct trace_info *info = so->trace;
	struct sql_host *h;
	unsigned int i;
	int ret;

	for (i = 0; i < so->nhosts; i++)
		if (so->hosts[i].label == label ||
		    (label && !strcmp(so->hosts[i].label, label)))
			return (int)i;
	if (!label && so->nhosts)
		return 0;
	if (so->nhosts == SQL_MAX_HOSTS)
		return -E2BIG;
	h = &so->hosts[so->nhosts];
	memset(h, 0, sizeof(*h));
	if (!label) {
		/* one trace: the label asked for, else its hostname */
		snprintf(so->host_label, sizeof(so->host_label), "%s",
			 so->host_opt ? so->host_opt :
			 info->hostname[0] ? info->hostname : "localhost");
		h->label = so->host_label;
	} else {
		h->label = label;
	}
	for (i = 0; i < info->nhosts; i++)
		if (!strcmp(info->hosts[i].label, h->label))
			h->trace = &info->hosts[i];
	if (so->sink->open_host) {
		ret = so->sink->open_host(so, so->nhosts);
		if (ret)
			return ret;
	}
	return (int)so->nhosts++;
}

int sql_output_new(struct sql_output **out, size_t size,
		   const struct sql_sink_ops *sink,
		   const struct sql_dialect *dialect, struct diag *diag,
		   const char *name, const char *host)
{
	struct sql_output *so = calloc(1, size);
	int i;

	if (!so)
		return -ENOMEM;
	so->o.ops = &sql_output_ops;
	so->sink = sink;
	so->name = name;
	so->host_opt = host;
	sql_schema_init(&so->schema, dialect, diag, name);
	/* the widest fixed table; event tables widen it */
	for (i = 0; i < SQL_NFIXED; i++) {
		sql_fixed_table(&so->fixed[i], i);
		if (so->fixed[i].nvalues > so->row_cap)
			so->row_cap = so->fixed[i].nvalues;
	}
	so->row = calloc(so->row_cap, sizeof(*so->row));
	so->by_id = calloc(256 * 256, sizeof(*so->by_id));
	if (!so->row || !so->by_id) {
		sql_output_ops.free(&so->o);
		return -ENOMEM;
	}
	*out = so;
	return 0;
}

/* Row values: v[i] set, returning v + 1 */
static struct sql_value *put_null(struct sql_value *v)
{
	v->type = SQL_NULL;
	return v + 1;
}

static struct sql_value *put_int(struct sql_value *v, int64_t i)
{
	v->type = SQL_INTEGER;
	v->i = i;
	return v + 1;
}

/* i, or NULL when i is below zero (not known) */
static struct sql_value *put_known(struct sql_value *v, int64_t i)
{
	return i >= 0 ? put_int(v, i) : put_null(v);
}

static struct sql_value *put_bytes(struct sql_value *v,
				   enum sql_value_type type, const void *p,
				   size_t len)
{
	v->type = type;
	v->p = p;
	v->len = len;
	return v + 1;
}

static struct sql_value *put_string(struct sql_value *v, const char *s)
{
	return s ? put_bytes(v, SQL_STRING, s, strlen(s)) : put_null(v);
}

static int write_row(struct sql_output *so, struct sql_table *t,
		     unsigned int h)
{
	int ret;

	if (!t->sink && so->sink->open_table) {
		ret = so->sink->open_table(so, t);
		if (ret)
			return ret;
	}
	return so->sink->row(so, t, h, so->row);
}

/* The row of host h starts: its label */
static struct sql_value *row_host(struct sql_output *so, unsigned int h)
{
	return put_string(so->row, so->hosts[h].label);
}

/*
 * The databases' integers are signed 64-bit: a time past 2^63 - 1 ns
 * would wrap to a negative one.  The row of such a time (a corrupt time
 * stamp, say) is not stored, and said as damage; the others are, as
 * lket.out has them all.  true: ts fits.
 */
static bool time_fits(struct sql_output *so, uint64_t ts, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool time_fits(struct sql_output *so, uint64_t ts, const char *fmt, ...)
{
	char *what = NULL;
	va_list ap;

	if (ts <= INT64_MAX)
		return true;
	if (!so->schema.diag)
		return false;
	va_start(ap, fmt);
	text_vprintf(&what, fmt, ap);
	va_end(ap);
	diagf(so->schema.diag, DIAG_DAMAGE, so->name, -1,
	      "%s at %llu ns: past the databases' 64-bit signed integers (2^63 - 1 ns), not stored",
	      what ? what : "a row", (unsigned long long)ts);
	free(what);
	return false;
}

static struct sql_value *put_common(struct sql_value *v,
				    const struct event *ev,
				    const struct proc *proc)
{
	v = put_int(v, (int64_t)ev->rec->timestamp);
	v = put_int(v, ev->cpu);
	v = put_int(v, ev->tid);
	v = put_known(v, proc ? proc->pid : -1);
	if (proc && proc->comm_len)
		return put_bytes(v, SQL_STRING, proc->comm, proc->comm_len);
	return put_null(v);
}

/* The table of events like ev, made on first sight. */
static int table_for(struct sql_output *so, const struct event *ev,
		     struct sql_table **out)
{
	size_t id = (ev->group & 0xff) << 8 | (ev->hook & 0xff);
	struct sql_table *t = calloc(1, sizeof(*t));
	struct sql_value *bigger;
	int ret;

	if (!t)
		return -ENOMEM;
	ret = sql_table_init(&so->schema, t, ev->meta, ev->group, ev->hook);
	if (ret) {
		free(t);
		if (ret < 0)
			return ret;
		so->by_id[id] = *out = &so->fixed[SQL_OTHER];
		return 0;
	}
	/* in the schema's list: freed with the output whatever comes next */
	if (t->nvalues > so->row_cap) {
		bigger = realloc(so->row, t->nvalues * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		so->row = bigger;
		so->row_cap = t->nvalues;
	}
	ret = define_text(so, sql_create_table(&so->schema, t), t->name);
	if (ret)
		return ret;
	so->by_id[id] = *out = t;
	return 0;
}

static int unknown_row(struct sql_output *so, unsigned int h,
		       const struct event *ev, const struct proc *proc)
{
	struct sql_value *v = put_common(row_host(so, h), ev, proc);

	v = put_int(v, ev->group);
	v = put_int(v, ev->hook);
	v = put_string(v, ev->meta && ev->meta->named ? ev->meta->name :
			  meta_catalogue_name(ev->group, ev->hook));
	put_bytes(v, SQL_BLOB, ev->rec->data + LKET_RECORD_HEAD_SIZE,
		  ev->rec->size - LKET_RECORD_HEAD_SIZE);
	return write_row(so, &so->fixed[SQL_UNKNOWN], h);
}

/* An event past the SQL_MAX_TABLES-th: its fields as text. */
static int other_row(struct sql_output *so, unsigned int h,
		     const struct event *ev, const struct proc *proc)
{
	struct sql_value *v = put_common(row_host(so, h), ev, proc);
	int ret = buf_reserve(&so->scratch, &so->scratch_size,
			      outfmt_fields_room(ev));

	if (ret)
		return ret;
	v = put_string(v, ev->meta->name);
	v = put_int(v, ev->group);
	v = put_int(v, ev->hook);
	put_bytes(v, SQL_HELD, so->scratch,
		  (size_t)(outfmt_fields(so->scratch, ev) - so->scratch));
	return write_row(so, &so->fixed[SQL_OTHER], h);
}

/* A stack written to the stacks table. */
struct sql_stack {
	uint64_t hash;
	const uint64_t *a;	/* its addresses (owned); NULL: a free slot */
	uint32_t n;
	unsigned int host;	/* ids are a host's: its stacks are its own */
	int64_t id;
};

static uint64_t stack_hash(const struct value *v, unsigned int host)
{
	uint64_t h = 0xcbf29ce484222325ull ^ v->n ^ (uint64_t)host << 32;
	uint32_t i;

	for (i = 0; i < v->n; i++)
		h = (h ^ v->a[i]) * 0x100000001b3ull;
	return h;
}

static struct sql_stack *stack_slot(struct sql_stack *tab, size_t size,
				    uint64_t hash, const uint64_t *a,
				    uint32_t n, unsigned int host)
{
	size_t i = (size_t)hash & (size - 1);

	while (tab[i].a && (tab[i].hash != hash || tab[i].n != n ||
			    tab[i].host != host || memcmp(tab[i].a, a, n * sizeof(*a))))
		i = (i + 1) & (size - 1);
	return &tab[i];
}

static int stacks_grow(struct sql_output *so)
{
	size_t size = so->stacks_size ? 2 * so->stacks_size : 1024, i;
	struct sql_stack *tab = calloc(size, sizeof(*tab)), *old = so->stacks;

	if (!tab)
		return -ENOMEM;
	for (i = 0; i < so->stacks_size; i++)
		if (old[i].a)
			*stack_slot(tab, size, old[i].hash, old[i].a,
				    old[i].n, old[i].host) = old[i];
	free(old);
	so->stacks = tab;
	so->stacks_size = size;
	return 0;
}

/* The id of v's stack in the stacks table, its row written first. */
static int stack_id(struct sql_output *so, unsigned int h,
		    const struct value *v, int64_t *id)
{
	uint64_t hash = stack_hash(v, h);
	size_t room = outfmt_addrs_room(v) + 20 * (size_t)v->n + 2;
	struct sql_value *row;
	struct sql_stack *e;
	uint64_t *copy;
	char *p, *q;
	uint32_t i;
	int ret;

	if (!so->stacks) {
		ret = define_text(so, sql_create_stacks(&so->schema),
				  "stacks");
		if (!ret)
			ret = stacks_grow(so);
		if (ret)
			return ret;
	}
	e = stack_slot(so->stacks, so->stacks_size, hash, v->a, v->n, h);
	if (e->a) {
		*id = e->id;
		return 0;
	}
	if (2 * (so->nstacks + 1) > so->stacks_size) {
		ret = stacks_grow(so);
		if (ret)
			return ret;
		e = stack_slot(so->stacks, so->stacks_size, hash, v->a, v->n, h);
	}
	copy = malloc((v->n ? v->n : 1) * sizeof(*copy));
	ret = copy ? buf_reserve(&so->stack_text, &so->stack_text_size, room) :
	      -ENOMEM;
	if (ret) {
		free(copy);
		return ret;
	}
	memcpy(copy, v->a, v->n * sizeof(*copy));
	e->hash = hash;
	e->a = copy;
	e->n = v->n;
	e->host = h;
	e->id = (int64_t)++so->nstacks;
	*id = e->id;
	/* frames as lket.out shows them; then the addresses alone */
	p = outfmt_addrs(so->stack_text, v, false);
	q = p;
	for (i = 0; i < v->n; i++) {
		if (i)
			*q++ = ' ';
		q = fmt_hex(q, v->a[i]);
	}
	row = put_int(row_host(so, h), e->id);
	row = put_int(row, v->n);
	row = put_bytes(row, SQL_STRING, so->stack_text,
			(size_t)(p - so->stack_text));
	put_bytes(row, SQL_STRING, p, (size_t)(q - p));
	return write_row(so, &so->fixed[SQL_STACKS], h);
}

static int sql_event(struct output *o, const struct event *ev,
		     const struct proc *proc)
{
	struct sql_output *so = sql_of(o);
	int64_t ids[2 * META_MAX_FIELDS];
	const struct value *val;
	struct sql_table *t;
	struct sql_value *v;
	unsigned int i, col, h;
	int ret = host_of(so, ev->host);

	if (ret < 0)
		return failed(so, ret);
	h = (unsigned int)ret;
	if (!time_fits(so, ev->rec->timestamp,
		       "the event %s of CPU %u (its record at offset %llu)",
		       ev->meta && ev->meta->named ? ev->meta->name :
		       "without metadata", ev->cpu,
		       (unsigned long long)ev->rec->offset))
		return 0;
	if (!so->hosts[h].events)
		so->hosts[h].first_ts = ev->rec->timestamp;
	so->hosts[h].events++;
	so->hosts[h].last_ts = ev->rec->timestamp;
	if (!ev->meta || !ev->meta->named || !ev->meta->sys.defined)
		return failed(so, unknown_row(so, h, ev, proc));
	t = so->by_id[(ev->group & 0xff) << 8 | (ev->hook & 0xff)];
	if (!t) {
		ret = table_for(so, ev, &t);
		if (ret)
			return failed(so, ret);
	}
	if (t == &so->fixed[SQL_OTHER])
		return failed(so, other_row(so, h, ev, proc));
	/* stacks' rows first: they use the row buffer */
	for (i = 0; i < ev->nvalues; i++)
		if (ev->v[i].f->type == LKET_ADDRS) {
			ret = stack_id(so, h, &ev->v[i], &ids[i]);
			if (ret)
				return failed(so, ret);
		}
	v = put_common(row_host(so, h), ev, proc);
	for (i = 0; i < t->ncols; i++)
		put_null(&v[i]);
	for (i = 0; i < ev->nvalues; i++) {
		val = &ev->v[i];
		col = sql_column(t, ev, i);
		if (col == t->ncols)
			continue;
		if (val->f->type == LKET_STRING)
			put_bytes(&v[col], SQL_STRING, val->s, val->slen);
		else if (val->f->type == LKET_ADDRS)
			put_int(&v[col], ids[i]);
		else
			put_int(&v[col], sql_int(val));
	}
	if (ev->raw_len)
		put_bytes(&v[t->ncols], SQL_BLOB, ev->raw, ev->raw_len);
	else
		put_null(&v[t->ncols]);
	return failed(so, write_row(so, t, h));
}

static int sql_lost(struct output *o, const struct seq_gap *g)
{
	struct sql_output *so = sql_of(o);
	struct sql_value *v;
	int h = host_of(so, g->host);

	if (h < 0)
		return failed(so, h);
	so->hosts[h].lost += seq_gap_count(g);
	if (!time_fits(so, g->after_ts, "the row of %s lost after it",
		       g->records ? "records" : "flushes"))
		return 0;
	v = put_int(row_host(so, (unsigned int)h), (int64_t)g->after_ts);
	/* an end past them: not known */
	v = g->before_ts && g->before_ts <= INT64_MAX ?
	    put_int(v, (int64_t)g->before_ts) : put_null(v);
	v = put_int(v, (int64_t)seq_gap_count(g));
	/* dropped records: no flush numbers */
	v = g->records ? put_null(v) : put_int(v, g->first);
	v = g->records ? put_null(v) : put_int(v, g->last);
	/* the CPU when known (format version 2), as lket.out shows it */
	put_known(v, g->cpu);
	return failed(so, write_row(so, &so->fixed[SQL_LOST], (unsigned int)h));
}

static int sql_process(struct output *o, uint64_t ts, const struct proc *p,
		       int32_t ppid, const char *event, const char *host)
{
	struct sql_output *so = sql_of(o);
	struct sql_value *v;
	int h = host_of(so, host);

	if (h < 0)
		return failed(so, h);
	if (!time_fits(so, ts, "the process row (%s) of thread %d", event,
		       p->tid))
		return 0;
	v = put_int(row_host(so, (unsigned int)h), (int64_t)ts);
	v = put_int(v, p->tid);
	v = put_known(v, p->pid);
	v = put_known(v, ppid);
	v = p->comm_len ? put_bytes(v, SQL_STRING, p->comm, p->comm_len) :
	    put_null(v);
	put_string(v, event);
	return failed(so, write_row(so, &so->fixed[SQL_PROCESSES],
				    (unsigned int)h));
}

/* The host, scope, what, pid and tid of a latency row. */
static struct sql_value *put_latency_key(struct sql_output *so,
					 unsigned int h,
					 const struct latency *l)
{
	static const char *const scope[] = {
		[LATENCY_EVENT] = "event",
		[LATENCY_PROCESS] = "process",
		[LATENCY_THREAD] = "thread",
	};
	struct sql_value *v = row_host(so, h);

	v = put_string(v, scope[l->scope]);
	v = put_string(v, l->what);
	v = put_known(v, l->scope != LATENCY_EVENT ? l->pid : -1);
	return put_known(v, l->scope == LATENCY_THREAD ? l->tid : -1);
}

static int latency_rows(struct sql_output *so, unsigned int h,
			const struct latency *l)
{
	const uint64_t ns[] = {
		l->count, l->total, l->min, l->mean, l->p50, l->p90, l->p99,
		l->max, l->unmatched_begin, l->unmatched_end,
	};
	struct sql_value *v = put_latency_key(so, h, l);
	unsigned int i;
	int b, ret;

	v = l->scope != LATENCY_EVENT && l->comm[0] ? put_string(v, l->comm) :
	    put_null(v);
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		v = put_int(v, (int64_t)ns[i]);
	ret = write_row(so, &so->fixed[SQL_LATENCY], h);
	for (b = 0; !ret && b < REPORT_BUCKETS; b++) {
		if (!l->hist[b])
			continue;
		v = put_latency_key(so, h, l);
		/* bucket 63 holds the negative latencies (time went back):
		 * its bound is INT64_MIN */
		v = put_int(v, b ? (int64_t)(1ull << b) : 0);
		put_int(v, (int64_t)l->hist[b]);
		ret = write_row(so, &so->fixed[SQL_HISTOGRAM], h);
	}
	return ret;
}

/* The latency report: one trace's (several hosts have none) */
static int sql_report(struct output *o, const struct report *r)
{
	struct sql_output *so = sql_of(o);
	int ret = host_of(so, NULL);
	unsigned int h = (unsigned int)ret;
	size_t i;

	if (ret >= 0)
		ret = define_text(so, sql_create_report(&so->schema),
				  "latency");
	for (i = 0; !ret && i < report_count(r); i++)
		ret = latency_rows(so, h, report_get(r, i));
	return failed(so, ret);
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Host h's row of trace: what its header said, what came, its files. */
static int trace_row(struct sql_output *so, unsigned int h, uint64_t load)
{
	const struct sql_host *host = &so->hosts[h];
	const struct trace_info *info = host->trace ? host->trace->info :
					so->trace;
	struct sql_value *v = row_host(so, h);
	size_t n = 0, i;
	char *at;
	int ret;

	for (i = 0; i < info->nfiles; i++)
		n += 5 * strlen(info->files[i]) + 1;
	ret = buf_reserve(&so->scratch, &so->scratch_size, n + 1);
	if (ret)
		return ret;
	v = info->hostname[0] ? put_string(v, info->hostname) : put_null(v);
	v = info->machine[0] ? put_string(v, info->machine) : put_null(v);
	v = put_string(v, info->kernel);
	v = put_int(v, info->have_header);
	v = put_string(v, info->clock);
	v = put_int(v, info->wall_offset);
	/* how its clock was put on the first host's */
	v = host->trace ? put_int(v, host->trace->clock_offset) : put_null(v);
	v = host->trace && host->trace->uncertainty >= 0 ?
	    put_int(v, (int64_t)(host->trace->uncertainty + 0.5)) :
	    put_null(v);
	/*
	 * Those of the first and last events written, as their time columns
	 * have them: not the trace's first record (a task record, or one a
	 * filter left out); none without events
	 */
	v = host->events ? put_int(v, (int64_t)host->first_ts) : put_null(v);
	v = host->events ? put_int(v, (int64_t)host->last_ts) : put_null(v);
	v = put_int(v, (int64_t)host->events);
	v = put_int(v, (int64_t)host->lost);
	/* the files, one a line */
	at = so->scratch;
	for (i = 0; i < info->nfiles; i++) {
		at = fmt_utf8_escaped(at, info->files[i],
				      strlen(info->files[i]), 0);
		if (i + 1 < info->nfiles)
			*at++ = '\n';
	}
	v = put_bytes(v, SQL_HELD, so->scratch, (size_t)(at - so->scratch));
	put_int(v, (int64_t)load);
	return write_row(so, &so->fixed[SQL_TRACE], h);
}

static int sql_begin(struct output *o, const struct trace_info *trace)
{
	struct sql_output *so = sql_of(o);

	int ret;

	so->begin_ns = now_ns();
	so->trace = trace;
	ret = so->sink->open(so);
	if (!ret)
		ret = define_text(so, sql_create_base(&so->schema), "trace");
	return failed(so, ret);
}

/* A row of trace per host (one with no event too), the rows held back;
 * the events view (and the indexes); the commit. */
static int sql_finish(struct output *o)
{
	struct sql_output *so = sql_of(o);
	uint64_t load = now_ns() - so->begin_ns;
	unsigned int h;
	size_t i;
	int ret = 0;

	for (i = 0; ret >= 0 && i < so->trace->nhosts; i++)
		ret = host_of(so, so->trace->hosts[i].label);
	if (ret >= 0 && !so->trace->nhosts)
		ret = host_of(so, NULL);
	ret = ret < 0 ? ret : 0;
	for (h = 0; !ret && h < so->nhosts; h++)
		ret = trace_row(so, h, load);
	if (!ret && so->sink->flush)
		ret = so->sink->flush(so);
	if (!ret && !so->schema.dialect->partitioned)
		ret = exec_text(so, sql_create_end(&so->schema));
	if (!ret)
		ret = so->sink->commit(so);
	return failed(so, ret);
}

static const char *sql_error(const struct output *o)
{
	const struct sql_output *so = (const struct sql_output *)o;

	return so->error;
}

static void sql_free(struct output *o)
{
	struct sql_output *so = sql_of(o);
	size_t i;

	so->sink->free(so);
	for (i = 0; i < so->schema.ntables; i++) {
		sql_table_free(so->schema.tables[i]);
		free(so->schema.tables[i]);
	}
	sql_schema_free(&so->schema);
	for (i = 0; i < so->stacks_size; i++)
		free((uint64_t *)so->stacks[i].a);
	free(so->stacks);
	free(so->stack_text);
	free(so->row);
	free(so->scratch);
	free(so->by_id);
	free(so->error);
	free(so);
}

const struct output_ops sql_output_ops = {
	.begin = sql_begin,
	.event = sql_event,
	.lost = sql_lost,
	.process = sql_process,
	.report = sql_report,
	.finish = sql_finish,
	.error = sql_error,
	.free = sql_free,
};
