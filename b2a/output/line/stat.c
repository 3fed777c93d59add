// SPDX-License-Identifier: GPL-2.0
/*
 * stat.c - --stat: a summary of the events instead of their lines, as
 * trace-cmd report --stat and blkparse's totals give: the count, the time
 * span, flushes lost, records dropped and missing, probe hits skipped, then
 * events by type, by CPU and by process, and CPU time by thread where the
 * trace has context switches (format in lket-b2a(1)).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cputime.h"
#include "output/line/line.h"
#include "output/line/outfmt.h"
#include "output/output.h"
#include "runtime/lket_format.h"
#include "util/outbuf.h"

#define STAT_BUFFER	(64u * 1024)
#define NTYPES		(256 * 256)	/* group:hook */
#define NCPUS		B2A_CPUS

/* A process as the events saw it: a new name (execve) counts apart. */
struct stat_proc {
	uint64_t count;		/* 0: free slot */
	int32_t pid;		/* -1: not known */
	uint8_t comm_len;
	char comm[PROC_COMM_LEN];
};

struct stat_out {
	struct output o;
	struct outbuf ob;
	struct text_options opt;
	struct timefmt time;
	uint64_t events, lost, dropped, first_ts, last_ts;
	uint64_t *by_type;
	char **names;		/* by type, as first seen */
	uint64_t by_cpu[NCPUS];
	struct stat_proc *procs;
	size_t pmask, pused;
	struct cputime cpu_time;
	const struct trace_info *trace;
};

static size_t proc_hash(int32_t pid, const char *comm, size_t len)
{
	uint64_t h = (uint32_t)pid * 0x9e3779b97f4a7c15ull;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)comm[i]) * 0x100000001b3ull;
	return (size_t)(h ^ h >> 29);
}

static struct stat_proc *proc_slot(struct stat_proc *t, size_t mask,
				   int32_t pid, const char *comm, size_t len)
{
	size_t i = proc_hash(pid, comm, len) & mask;

	while (t[i].count && (t[i].pid != pid || t[i].comm_len != len ||
			      memcmp(t[i].comm, comm, len)))
		i = (i + 1) & mask;
	return &t[i];
}

/* Keep the table at most half full: probes stay short. */
static int proc_grow(struct stat_out *s)
{
	size_t size = 2 * (s->pmask + 1), i;
	struct stat_proc *t = calloc(size, sizeof(*t)), *p;

	if (!t)
		return -ENOMEM;
	for (i = 0; i <= s->pmask; i++) {
		p = &s->procs[i];
		if (p->count)
			*proc_slot(t, size - 1, p->pid, p->comm,
				   p->comm_len) = *p;
	}
	free(s->procs);
	s->procs = t;
	s->pmask = size - 1;
	return 0;
}

static int stat_event(struct output *o, const struct event *ev,
		      const struct proc *proc)
{
	struct stat_out *s = (struct stat_out *)o;
	size_t type = ev->group << 8 | ev->hook, len;
	char name[OUTFMT_NAME_MAX + META_NAME_PAD + 1], *e;
	struct stat_proc *p;
	int32_t pid = proc ? proc->pid : -1;
	const char *comm = proc ? proc->comm : "";
	uint64_t ts = ev->rec->timestamp;
	int ret;

	if (!s->names[type]) {
		e = outfmt_event_name(name, ev, s->opt.ids, s->opt.no_names);
		*e = '\0';
		s->names[type] = strdup(name);
		if (!s->names[type])
			return -ENOMEM;
	}
	len = proc ? proc->comm_len : 0;
	if (2 * (s->pused + 1) > s->pmask + 1) {
		ret = proc_grow(s);
		if (ret)
			return ret;
	}
	p = proc_slot(s->procs, s->pmask, pid, comm, len);
	if (!p->count) {
		p->pid = pid;
		p->comm_len = (uint8_t)len;
		memcpy(p->comm, comm, len);
		s->pused++;
	}
	p->count++;
	s->by_type[type]++;
	s->by_cpu[ev->cpu % NCPUS]++;
	/* merged by time, but a damaged trace may go back */
	if (!s->events || ts < s->first_ts)
		s->first_ts = ts;
	if (!s->events || ts > s->last_ts)
		s->last_ts = ts;
	s->events++;
	return 0;
}

/* CPU time sees every event: a thread's runs begin and end in others'
 * records too (cputime.h) */
static int stat_every(struct output *o, const struct event *ev,
		      const struct proc *proc, const struct selection *sel)
{
	struct stat_out *s = (struct stat_out *)o;

	(void)proc;
	return cputime_event(&s->cpu_time, ev, sel);
}

static int stat_lost(struct output *o, const struct seq_gap *g)
{
	struct stat_out *s = (struct stat_out *)o;

	if (g->records)
		s->dropped += g->records;
	else
		s->lost += seq_gap_count(g);
	return 0;
}

static int put(struct stat_out *s, const char *fmt, ...)
{
	va_list ap;
	int n, ret = outbuf_room(&s->ob, 512);

	if (ret)
		return ret;
	va_start(ap, fmt);
	n = vsnprintf(s->ob.p, 512, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= 512)
		return -EOVERFLOW;
	s->ob.p += n;
	return 0;
}

static int put_time(struct stat_out *s, const char *label, uint64_t ts)
{
	int ret = outbuf_room(&s->ob, 64 + OUTFMT_TIME_MAX);
	char *p;

	if (ret)
		return ret;
	p = put_lit(s->ob.p, label);
	if (s->events)
		p = timefmt_put(&s->time, p, ts);
	else
		*p++ = '-';
	*p++ = '\n';
	s->ob.p = p;
	return 0;
}

/* Sort keys by count, highest first, then by key. */
static int by_count(const void *a, const void *b, void *counts)
{
	const uint64_t *c = counts;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (c[x] != c[y])
		return c[x] < c[y] ? 1 : -1;
	return x < y ? -1 : x > y;
}

static int by_proc(const void *a, const void *b)
{
	const struct stat_proc *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->comm_len != y->comm_len)
		return x->comm_len < y->comm_len ? -1 : 1;
	return memcmp(x->comm, y->comm, x->comm_len);
}

/* The keys of counts[0..n) that are not zero, sorted; *used their number. */
static size_t *sorted(const uint64_t *counts, size_t n, size_t *used)
{
	size_t *keys = malloc((n ? n : 1) * sizeof(*keys)), i;

	if (!keys)
		return NULL;
	*used = 0;
	for (i = 0; i < n; i++)
		if (counts[i])
			keys[(*used)++] = i;
	qsort_r(keys, *used, sizeof(*keys), by_count, (void *)counts);
	return keys;
}

static int put_procs(struct stat_out *s)
{
	struct stat_proc *list = malloc((s->pused ? s->pused : 1) *
					sizeof(*list));
	char comm[4 * PROC_COMM_LEN + 1], *e;
	size_t i, n = 0;
	int ret = 0;

	if (!list)
		return -ENOMEM;
	for (i = 0; i <= s->pmask; i++)
		if (s->procs[i].count)
			list[n++] = s->procs[i];
	qsort(list, n, sizeof(*list), by_proc);
	ret = put(s, "\nevents by process:\n%12s %8s %s\n", "count", "pid",
		  "comm");
	for (i = 0; !ret && i < n; i++) {
		e = list[i].comm_len ? fmt_escaped(comm, list[i].comm,
						   list[i].comm_len, 1) :
				       put_lit(comm, "-");
		*e = '\0';
		if (list[i].pid >= 0)
			ret = put(s, "%12llu %8d %s\n",
				  (unsigned long long)list[i].count,
				  (int)list[i].pid, comm);
		else
			ret = put(s, "%12llu %8s %s\n",
				  (unsigned long long)list[i].count, "-", comm);
	}
	free(list);
	return ret;
}

static int by_cpu_time(const void *a, const void *b)
{
	const struct cputime_thread *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* Each thread's time on a CPU, and its share of the time range. */
static int put_cpu_time(struct stat_out *s)
{
	struct cputime *ct = &s->cpu_time;
	uint64_t range = ct->end - ct->begin;
	char comm[4 * PROC_COMM_LEN + 1], *e;
	const struct proc *p;
	size_t i;
	int ret;

	qsort(ct->t, ct->n, sizeof(*ct->t), by_cpu_time);
	ret = put(s, "\nCPU time by thread (context switches):\n%20s %7s %8s %s\n",
		  "seconds", "%", "tid", "comm");
	for (i = 0; !ret && i < ct->n; i++) {
		const struct cputime_thread *t = &ct->t[i];

		/* a thread the filters leave out */
		if (!t->counted)
			continue;
		p = s->trace ? procmap_thread(s->trace->procs, t->tid, t->cpu) :
			       NULL;
		e = p && p->comm_len ? fmt_escaped(comm, p->comm, p->comm_len, 1) :
				       put_lit(comm, "-");
		*e = '\0';
		ret = put(s, "%10llu.%09llu %7.2f %8u %s\n",
			  (unsigned long long)(t->ns / 1000000000u),
			  (unsigned long long)(t->ns % 1000000000u),
			  range ? 100.0 * (double)t->ns / (double)range : 0.0,
			  t->tid, comm);
	}
	return ret;
}

static int stat_finish(struct output *o)
{
	struct stat_out *s = (struct stat_out *)o;
	uint64_t span = s->last_ts - s->first_ts;
	size_t *keys, n, i;
	int ret;

	ret = put(s, "events: %llu\n", (unsigned long long)s->events);
	if (!ret)
		ret = put_time(s, "first: ", s->first_ts);
	if (!ret)
		ret = put_time(s, "last: ", s->last_ts);
	if (!ret)
		ret = timefmt_check(&s->time);
	if (!ret && s->events)
		ret = put(s, "duration: %llu.%09llu\n",
			  (unsigned long long)(span / 1000000000u),
			  (unsigned long long)(span % 1000000000u));
	else if (!ret)
		ret = put(s, "duration: -\n");
	if (!ret)
		ret = put(s, "flushes lost: %llu\nrecords dropped: %llu\n",
			  (unsigned long long)s->lost,
			  (unsigned long long)s->dropped);
	/* what the end of the trace says (format version 3) */
	if (!ret && s->time.trace)
		ret = put(s, "records missing: %llu\nprobe hits skipped: %llu\n",
			  (unsigned long long)s->time.trace->missing,
			  (unsigned long long)s->time.trace->skipped);

	keys = sorted(s->by_type, NTYPES, &n);
	if (!keys)
		return -ENOMEM;
	if (!ret)
		ret = put(s, "\nevents by type:\n%12s %s\n", "count", "event");
	for (i = 0; !ret && i < n; i++)
		ret = put(s, "%12llu %s\n",
			  (unsigned long long)s->by_type[keys[i]],
			  s->names[keys[i]]);
	free(keys);

	keys = sorted(s->by_cpu, NCPUS, &n);
	if (!keys)
		return -ENOMEM;
	if (!ret)
		ret = put(s, "\nevents by CPU:\n%12s %s\n", "count", "cpu");
	for (i = 0; !ret && i < n; i++)
		ret = put(s, "%12llu %zu\n",
			  (unsigned long long)s->by_cpu[keys[i]], keys[i]);
	free(keys);

	if (!ret)
		ret = put_procs(s);
	cputime_end(&s->cpu_time);
	if (!ret && cputime_counted(&s->cpu_time))
		ret = put_cpu_time(s);
	return ret ? ret : outbuf_flush(&s->ob);
}

static void stat_free(struct output *o)
{
	struct stat_out *s = (struct stat_out *)o;
	size_t i;

	if (s->names)
		for (i = 0; i < NTYPES; i++)
			free(s->names[i]);
	free(s->names);
	free(s->by_type);
	free(s->procs);
	cputime_free(&s->cpu_time);
	outbuf_free(&s->ob);
	timefmt_free(&s->time);
	free(s);
}

static int stat_begin(struct output *o, const struct trace_info *trace)
{
	struct stat_out *s = (struct stat_out *)o;

	s->trace = trace;
	return timefmt_begin(&s->time, trace);
}

static const char *stat_error(const struct output *o)
{
	const struct stat_out *s = (const struct stat_out *)o;

	return s->time.error;
}

static const struct output_ops stat_ops = {
	.begin = stat_begin,
	.event = stat_event,
	.every = stat_every,
	.lost = stat_lost,
	.finish = stat_finish,
	.error = stat_error,
	.free = stat_free,
};

int output_stat_new(struct output **o, int fd, const struct text_options *opt)
{
	struct stat_out *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	ret = outbuf_init(&s->ob, fd, STAT_BUFFER);
	if (ret) {
		free(s);
		return ret;
	}
	s->opt = *opt;
	timefmt_init(&s->time, opt->time);
	s->by_type = calloc(NTYPES, sizeof(*s->by_type));
	s->names = calloc(NTYPES, sizeof(*s->names));
	s->pmask = 63;
	s->procs = calloc(s->pmask + 1, sizeof(*s->procs));
	s->o.ops = &stat_ops;
	if (cputime_init(&s->cpu_time) || !s->by_type || !s->names ||
	    !s->procs) {
		stat_free(&s->o);
		return -ENOMEM;
	}
	*o = &s->o;
	return 0;
}
