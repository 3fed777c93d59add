// SPDX-License-Identifier: GPL-2.0
/*
 * out_ctf.c - a CTF 1.8 trace directory (lket-b2a --ctf DIR) that
 * babeltrace2 reads: DIR/metadata (TSDL text) and one data stream file
 * per CPU, DIR/stream_N.
 *
 * Streams go out packet by packet (CTF_PACKET bytes, more for an event
 * that does not fit in one), so that memory stays flat however long the
 * trace.  The metadata is written last, at finish, when every event class
 * is known: one per (group, hook) seen, named as LKET names it with '.'
 * made '_' (syscall.entry is syscall_entry), with its decoded fields.  An
 * event whose record did not match its metadata (bytes left over, fields
 * missing) is of another class of the same name: the fields that could
 * be decoded, then the undecoded bytes, _raw (one class per number of
 * fields decoded); an event without metadata is unknown_G_H, only _raw.
 * System calls have a class each, as LTTng's (syscall_entry_NAME), up to
 * CTF_SYSCALL_CLASSES; those past it are of LKET's own class.
 * Integers are signed, but for those LKET shows in hex (unsigned, base
 * 16); every field name is prefixed with '_', which babeltrace2 removes,
 * so that no name clashes with a TSDL keyword.
 *
 * The trace is written in a new folder beside DIR (DIR.tmp-XXXXXX,
 * tmpfile.h's) and put in place at finish, so that a failed or
 * interrupted export leaves nothing, and what was at DIR stays as it
 * was.  DIR may be missing or empty; a trace already there (metadata and
 * stream_N alone) is replaced with --replace and refused without;
 * anything else there is refused.
 *
 * An event earlier than the one before it on its CPU (time went back)
 * is written with that one's time, as readers want a stream's time
 * never to go back; how many, a note at finish.
 *
 * Lost flushes and dropped records add to events_discarded of the CPU's
 * stream (a running total, as CTF counts it); lost flushes of no one CPU
 * (format version 1) count on CPU 0's.  A total that no later packet
 * carries gets an empty packet of its own at finish.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/ctf/ctf.h"
#include "output/ctf/ctf_lttng.h"
#include "output/output.h"
#include "output/registry.h"
#include "runtime/lket_format.h"
#include "util/outbuf.h"
#include "util/tmpfile.h"

#define CTF_PACKET	(64u << 10)
#define CTF_MAGIC	0xC1FC1FC1u
/* packet header (magic, uuid, stream_id) and context (6 x 64 + 32 bits) */
#define CTF_HEADER	(4 + 16 + 4)
#define CTF_PREAMBLE	(CTF_HEADER + 6 * 8 + 4)
/* event classes of events that match their metadata, by (group, hook);
 * the others (raw) are looked for in the list */
#define CTF_CLASSES	(256 * 256)

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
};

struct ctf_class {
	const struct event_meta *meta;
	unsigned int group, hook;
	bool raw;
	unsigned int nfields;	/* of the metadata's, the first ones */
	const struct lttng_event *lttng;	/* NULL: LKET's name */
	char *syscall;		/* of a class per system call */
};

/*
 * The system calls with a class of their own, at most: each class costs
 * readers memory and time (200 000 of them, 24 MB of metadata, took
 * babeltrace2 a minute and 1.6 GB), and a kernel has a few hundred.
 * Those past it are of one class per event, LKET's own (syscall_entry,
 * syscall_return), the name in its field.
 */
#define CTF_SYSCALL_CLASSES	4096

/* The classes of one per system call: by event and system call name;
 * the generic ones by event, with no name. */
struct syscall_classes {
	uint32_t *slots;	/* class id + 1, 0 free */
	size_t mask, used;
	size_t named;		/* classes of one system call */
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
	uint32_t *class_id;	/* CTF_CLASSES: id + 1, 0 none yet */
	struct ctf_class *classes;
	size_t nclasses, classes_cap;
	struct syscall_classes syscalls;
	char failure[4200];	/* what failed, for error(); "" none */
	struct diag *diag;	/* notes; NULL: none */
};

/* Say what failed, for error(): the path and the errno's words. */
static int ctf_fail(struct ctf *c, const char *path, int err)
{
	snprintf(c->failure, sizeof(c->failure), "--ctf %s: %s", path,
		 strerror(err));
	return -err;
}

static int ctf_failf(struct ctf *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int ctf_failf(struct ctf *c, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(c->failure, sizeof(c->failure), "--ctf %s: ", c->dir);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(c->failure))
		vsnprintf(c->failure + n, sizeof(c->failure) - (size_t)n, fmt,
			  ap);
	va_end(ap);
	return -err;
}

static const char *ctf_error(const struct output *o)
{
	const struct ctf *c = (const struct ctf *)o;

	return c->failure[0] ? c->failure : NULL;
}

static int ctf_stream_get(struct ctf *c, unsigned int cpu,
			  struct ctf_stream **out)
{
	struct ctf_stream *s;
	const char *path;
	char name[32];
	size_t i;
	int ret;

	if (cpu >= c->nstreams) {
		s = realloc(c->streams, (cpu + 1) * sizeof(*s));
		if (!s)
			return -ENOMEM;
		for (i = c->nstreams; i <= cpu; i++)
			s[i] = (struct ctf_stream){ .fd = -1 };
		c->streams = s;
		c->nstreams = cpu + 1;
	}
	s = &c->streams[cpu];
	if (s->fd < 0) {
		snprintf(name, sizeof(name), "stream_%u", cpu);
		ret = tmpdir_file(&c->tmp, name, &path);
		if (ret)
			return ret;
		s->buf = malloc(CTF_PACKET);
		if (!s->buf)
			return -ENOMEM;
		s->size = CTF_PACKET;
		s->len = CTF_PREAMBLE;
		s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			     0644);
		if (s->fd < 0)
			return ctf_fail(c, path, errno);
	}
	*out = s;
	return 0;
}

static uint8_t *put(uint8_t *p, const void *v, size_t n)
{
	memcpy(p, v, n);
	return p + n;
}

static uint8_t *put64(uint8_t *p, uint64_t v)
{
	return put(p, &v, 8);
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	return put(p, &v, 4);
}

/* Write the packet that s holds, header and context first. */
static int ctf_packet_out(struct ctf *c, struct ctf_stream *s,
			  unsigned int cpu)
{
	uint8_t *p = s->buf;
	size_t off = 0;
	ssize_t n;

	p = put32(p, CTF_MAGIC);
	p = put(p, c->uuid, 16);
	p = put32(p, 0);
	p = put64(p, s->first_ts);
	p = put64(p, s->last_ts);
	p = put64(p, (uint64_t)s->len * 8);
	p = put64(p, (uint64_t)s->len * 8);
	p = put64(p, s->seq);
	p = put64(p, s->discarded);
	put32(p, cpu);
	while (off < s->len) {
		n = write(s->fd, s->buf + off, s->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ctf_fail(c, c->dir, errno);
		off += (size_t)n;
	}
	s->seq++;
	s->len = CTF_PREAMBLE;
	s->events = false;
	s->pending = false;
	return 0;
}

static bool is_stream_name(const char *n)
{
	return !strncmp(n, "stream_", 7) && n[7] &&
	       strspn(n + 7, "0123456789") == strlen(n + 7);
}

/*
 * What is at path: 0 nothing or an empty folder, 1 a trace of ours
 * (metadata and stream_N alone), -ENOTEMPTY something else, -ENOTDIR
 * not a folder, or another negative errno.
 */
static int ctf_dir_state(const char *path)
{
	struct dirent *e;
	bool any = false, other = false;
	DIR *d = opendir(path);

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		any = true;
		if (strcmp(e->d_name, "metadata") && !is_stream_name(e->d_name))
			other = true;
	}
	closedir(d);
	return other ? -ENOTEMPTY : any;
}

/* Remove a trace folder of ours: its files, then itself. */
static void ctf_remove(const char *path)
{
	struct dirent *e;
	DIR *d = opendir(path);

	if (!d)
		return;
	while ((e = readdir(d)))
		if (!strcmp(e->d_name, "metadata") || is_stream_name(e->d_name))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(path);
}

static int ctf_begin(struct output *o, const struct trace_info *trace)
{
	struct ctf *c = (struct ctf *)o;
	int state = ctf_dir_state(c->dir), ret;

	c->trace = trace;
	if (state == -ENOTEMPTY)
		return ctf_failf(c, ENOTEMPTY,
				 "holds files other than a CTF trace's: name a new or empty folder");
	if (state == -ENOTDIR)
		return ctf_failf(c, ENOTDIR, "not a folder");
	if (state < 0)
		return ctf_fail(c, c->dir, -state);
	if (state == 1 && !c->replace)
		return ctf_failf(c, EEXIST,
				 "holds a trace already: give --replace to overwrite it");
	c->dir_is_trace = state == 1;
	/* a signal removes it, with what is written in it */
	ret = tmpdir_make(&c->tmp, c->dir);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return ctf_failf(c, -ret, "cannot make a folder beside it: %s",
				 strerror(-ret));
	return 0;
}

/*
 * Move the trace at dir into a new folder made from the template old
 * (empty: rename() replaces it).  0, or a negative errno, nothing made.
 */
static int ctf_aside(const char *dir, char *old)
{
	int err;

	if (!mkdtemp(old))
		return -errno;
	if (!rename(dir, old))
		return 0;
	err = errno;
	rmdir(old);
	return -err;
}

/*
 * The finished trace from c->tmp to c->dir, and the one it replaces out;
 * the signals wait meanwhile: they find at c->dir the old trace or the
 * new, and no folder beside it.
 */
static int ctf_place(struct ctf *c)
{
	char *old = NULL;
	sigset_t mask;
	int ret = 0;

	if (c->dir_is_trace) {
		old = malloc(strlen(c->dir) + sizeof(".old-XXXXXX"));
		if (!old)
			return -ENOMEM;
		sprintf(old, "%s.old-XXXXXX", c->dir);
	}
	tmpfile_hold_signals(&mask);
	if (old)
		ret = ctf_aside(c->dir, old);
	if (ret) {
		ret = ctf_failf(c, -ret, "cannot move the old trace aside: %s",
				strerror(-ret));
	} else {
		ret = tmpdir_commit(&c->tmp, c->dir);
		if (ret) {
			ret = ctf_fail(c, c->dir, -ret);
			if (old)
				rename(old, c->dir);
		} else if (old) {
			ctf_remove(old);
		}
	}
	tmpfile_release_signals(&mask);
	free(old);
	return ret;
}

static unsigned int meta_nfields(const struct event_meta *m)
{
	return m ? m->sys.n + m->user.n : 0;
}

/* Is field i of the class one that its LTTng counterpart already has? */
static bool shadowed(const struct ctf_class *k, unsigned int i)
{
	return k->lttng && i < k->meta->sys.n &&
	       lttng_has_field(k->lttng, k->meta->sys.f[i].name);
}

static int ctf_class_add(struct ctf *c, const struct event *ev, bool raw,
			 const struct lttng_event *l, const char *syscall,
			 uint32_t *id)
{
	unsigned int nf = ev->meta ? ev->nvalues : 0;
	struct ctf_class *bigger, *k;

	if (c->nclasses == c->classes_cap) {
		c->classes_cap = c->classes_cap ? 2 * c->classes_cap : 64;
		bigger = realloc(c->classes,
				 c->classes_cap * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		c->classes = bigger;
	}
	k = &c->classes[c->nclasses];
	*k = (struct ctf_class){
		.meta = ev->meta, .group = ev->group & 0xff,
		.hook = ev->hook & 0xff, .raw = raw,
		.nfields = raw ? nf : meta_nfields(ev->meta),
		.lttng = l,
	};
	if (syscall) {
		k->syscall = strdup(syscall);
		if (!k->syscall)
			return -ENOMEM;
	}
	*id = (uint32_t)c->nclasses++;
	return 0;
}

static uint32_t syscall_hash(const struct event_meta *m, const char *name)
{
	uint32_t h = 2166136261u ^ (uint32_t)m->ev;

	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return h;
}

/* Twice the slots, the classes put back where they now belong. */
static int syscalls_grow(struct ctf *c)
{
	struct syscall_classes *t = &c->syscalls;
	size_t size = t->slots ? 2 * (t->mask + 1) : 64, i, j;
	uint32_t *slots = calloc(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; t->slots && i <= t->mask; i++) {
		const struct ctf_class *k;

		if (!t->slots[i])
			continue;
		k = &c->classes[t->slots[i] - 1];
		for (j = syscall_hash(k->meta, k->syscall ? k->syscall : "") &
			 (size - 1);
		     slots[j]; j = (j + 1) & (size - 1))
			;
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->mask = size - 1;
	return 0;
}

/* Past CTF_SYSCALL_CLASSES: the event's class as LKET names it. */
static int syscall_generic(struct ctf *c, const struct event *ev,
			   uint32_t *id)
{
	struct syscall_classes *t = &c->syscalls;
	size_t i;
	int ret;

	for (i = syscall_hash(ev->meta, "") & t->mask; t->slots[i];
	     i = (i + 1) & t->mask) {
		const struct ctf_class *k = &c->classes[t->slots[i] - 1];

		if (k->meta == ev->meta && !k->syscall) {
			*id = t->slots[i] - 1;
			return 0;
		}
	}
	if (t->used == t->named && c->diag)
		diagf(c->diag, DIAG_NOTE, c->dir, -1,
		      "more than %d system call names: those past them are of the classes syscall_entry and syscall_return, with the name in syscall_name",
		      CTF_SYSCALL_CLASSES);
	ret = ctf_class_add(c, ev, false, NULL, NULL, id);
	if (ret)
		return ret;
	t->slots[i] = *id + 1;
	t->used++;
	return 0;
}

/* syscall_entry_NAME, syscall_exit_NAME: a class per system call, up to
 * CTF_SYSCALL_CLASSES of them. */
static int syscall_class(struct ctf *c, const struct event *ev,
			 const struct lttng_event *l, uint32_t *id)
{
	struct syscall_classes *t = &c->syscalls;
	const char *name = "";
	size_t i;
	int ret;

	for (i = 0; i < ev->nvalues; i++)
		if (ev->v[i].f->type == LKET_STRING && ev->v[i].s &&
		    !strcmp(ev->v[i].f->name, "syscall_name"))
			name = ev->v[i].s;
	if (!t->slots || 2 * (t->used + 1) > t->mask + 1) {
		ret = syscalls_grow(c);
		if (ret)
			return ret;
	}
	for (i = syscall_hash(ev->meta, name) & t->mask; t->slots[i];
	     i = (i + 1) & t->mask) {
		const struct ctf_class *k = &c->classes[t->slots[i] - 1];

		if (k->meta == ev->meta && k->syscall &&
		    !strcmp(k->syscall, name)) {
			*id = t->slots[i] - 1;
			return 0;
		}
	}
	if (t->named >= CTF_SYSCALL_CLASSES)
		return syscall_generic(c, ev, id);
	ret = ctf_class_add(c, ev, false, l, name, id);
	if (ret)
		return ret;
	t->slots[i] = *id + 1;
	t->used++;
	t->named++;
	return 0;
}

/*
 * The class id of the event, registered when first seen: LTTng's
 * counterpart for an event that matches its metadata and has one.
 */
static int ctf_class(struct ctf *c, const struct event *ev, bool raw,
		     uint32_t *id)
{
	size_t k = ((size_t)(ev->group & 0xff) << 8) | (ev->hook & 0xff), i;
	unsigned int nf = ev->meta ? ev->nvalues : 0;
	const struct lttng_event *l = NULL;
	int ret;

	if (!raw && c->class_id[k]) {
		*id = c->class_id[k] - 1;
		return 0;
	}
	if (!raw)
		l = lttng_event_of(ev->meta->ev);
	if (l && l->per_syscall)
		return syscall_class(c, ev, l, id);
	for (i = 0; raw && i < c->nclasses; i++)
		if (c->classes[i].raw && c->classes[i].meta == ev->meta &&
		    c->classes[i].group == (ev->group & 0xff) &&
		    c->classes[i].hook == (ev->hook & 0xff) &&
		    c->classes[i].nfields == nf) {
			*id = (uint32_t)i;
			return 0;
		}
	ret = ctf_class_add(c, ev, raw, l, NULL, id);
	if (!ret && !raw)
		c->class_id[k] = *id + 1;
	return ret;
}

static const struct field *class_field(const struct event_meta *m,
				       unsigned int i)
{
	return i < m->sys.n ? &m->sys.f[i] : &m->user.f[i - m->sys.n];
}

static uint8_t *put_int(uint8_t *p, unsigned int bytes, int64_t x)
{
	switch (bytes) {
	case 1:
		*p++ = (uint8_t)x;
		return p;
	case 2: {
		uint16_t y = (uint16_t)x;

		return put(p, &y, 2);
	}
	case 4:
		return put32(p, (uint32_t)x);
	default:
		return put64(p, (uint64_t)x);
	}
}

static uint8_t *put_string(uint8_t *p, const char *s, size_t len)
{
	if (len)
		p = put(p, s, len);
	*p++ = 0;
	return p;
}

/* A call stack (ADDRS): a uint16 length, a sequence of uint64. */
static uint8_t *put_addrs(uint8_t *p, const struct value *v)
{
	uint16_t n = v ? (uint16_t)v->n : 0, i;

	p = put(p, &n, 2);
	for (i = 0; i < n; i++)
		p = put64(p, v->a[i]);
	return p;
}

/* The fields LTTng's counterpart has, ahead of LKET's. */
static uint8_t *put_lttng(uint8_t *p, const struct lttng_event *l,
			  const struct event *ev, const struct proc *proc,
			  const struct procmap *procs)
{
	struct lttng_value v;
	unsigned int i;

	for (i = 0; i < l->nfields; i++) {
		const struct lttng_field *f = &l->fields[i];

		lttng_value(f, ev, proc, procs, &v);
		p = f->type == LTTNG_STRING ? put_string(p, v.s, v.slen) :
		    put_int(p, f->type == LTTNG_INT64 ? 8 : 4, v.i);
	}
	return p;
}

static int ctf_event(struct output *o, const struct event *ev,
		     const struct proc *proc)
{
	struct ctf *c = (struct ctf *)o;
	unsigned int nf = meta_nfields(ev->meta), i;
	bool raw = !ev->meta || ev->raw_len || ev->nvalues != nf;
	const struct ctf_class *k;
	struct ctf_stream *s;
	uint64_t ts = ev->rec->timestamp;
	size_t need;
	uint32_t id;
	uint8_t *p;
	int ret;

	ret = ctf_stream_get(c, ev->cpu, &s);
	if (!ret)
		ret = ctf_class(c, ev, raw, &id);
	if (ret)
		return ret;
	k = &c->classes[id];
	nf = k->nfields;
	/* every field at most 8 bytes, strings and raw within the record,
	 * LTTng's names at most PROC_COMM_LEN */
	need = 4 + 8 + 8 + PROC_COMM_LEN + 1 + 8 * (size_t)nf +
	       ev->rec->size + 4 + ev->raw_len + 1;
	if (k->lttng)
		need += k->lttng->nfields * (8 + PROC_COMM_LEN + 1) +
			ev->rec->size;
	if (s->len + need > s->size && s->events) {
		ret = ctf_packet_out(c, s, ev->cpu);
		if (ret)
			return ret;
	}
	if (s->len + need > s->size) {
		uint8_t *bigger = realloc(s->buf, s->len + need);

		if (!bigger)
			return -ENOMEM;
		s->buf = bigger;
		s->size = s->len + need;
	}
	/* time went back on the CPU: readers refuse a stream whose time
	 * does (babeltrace2 stops there), so the event takes the time of
	 * the one before it, and is counted for a note at finish */
	if (ts < s->last_ts) {
		ts = s->last_ts;
		s->clamped++;
	}
	if (!s->events)
		s->first_ts = ts;
	s->last_ts = ts;
	s->events = true;
	p = s->buf + s->len;
	p = put32(p, id);
	p = put64(p, ts);
	p = put32(p, ev->tid);
	p = put32(p, (uint32_t)(proc && proc->pid >= 0 ? proc->pid : -1));
	p = put_string(p, proc ? proc->comm : "", proc ? proc->comm_len : 0);
	if (k->lttng)
		p = put_lttng(p, k->lttng, ev, proc, c->trace->procs);
	for (i = 0; i < nf; i++) {
		const struct field *f = class_field(ev->meta, i);
		const struct value *v = i < ev->nvalues ? &ev->v[i] : NULL;
		bool have = v && v->f == f;

		if (shadowed(k, i))
			continue;
		if (f->type == LKET_ADDRS)
			p = put_addrs(p, have ? v : NULL);
		else if (f->type != LKET_STRING)
			p = put_int(p, f->type, have ? v->i : 0);
		else
			p = put_string(p, have && v->s ? v->s : "",
				       have && v->s ? v->slen : 0);
	}
	if (raw) {
		p = put32(p, ev->raw_len);
		if (ev->raw_len)
			p = put(p, ev->raw, ev->raw_len);
	}
	s->len = (size_t)(p - s->buf);
	return 0;
}

static int ctf_lost(struct output *o, const struct seq_gap *g)
{
	struct ctf *c = (struct ctf *)o;
	unsigned int cpu = g->cpu >= 0 ? (unsigned int)g->cpu : 0;
	struct ctf_stream *s;
	uint64_t ts = g->before_ts ? g->before_ts : g->after_ts;
	int ret;

	ret = ctf_stream_get(c, cpu, &s);
	if (ret)
		return ret;
	/* the events before the gap in one packet, the total after it */
	if (s->events) {
		ret = ctf_packet_out(c, s, cpu);
		if (ret)
			return ret;
	}
	/* an empty packet, if no event follows, from the end of the last */
	if (!s->seq && !s->pending)
		s->first_ts = s->last_ts = g->after_ts;
	else if (!s->pending)
		s->first_ts = s->last_ts;
	s->discarded += seq_gap_count(g);
	s->pending = true;
	if (ts > s->last_ts)
		s->last_ts = ts;
	return 0;
}

/* A TSDL identifier from name: '_' first, then what is not a letter,
 * digit or '_' made '_'; "_" + index when empty. */
static void ctf_ident(char *out, size_t size, const char *name)
{
	size_t i = 0;

	out[i++] = '_';
	for (; name && *name && i + 1 < size; name++)
		out[i++] = (*name >= 'a' && *name <= 'z') ||
			   (*name >= 'A' && *name <= 'Z') ||
			   (*name >= '0' && *name <= '9') ? *name : '_';
	out[i] = '\0';
}

static void ctf_name_chars(FILE *f, const char *n)
{
	for (; *n; n++)
		fputc(*n == '.' || *n == '"' || *n == '\\' ||
		      (unsigned char)*n < 0x20 ? '_' : *n, f);
}

static void ctf_event_name(FILE *f, const struct ctf_class *k)
{
	const char *n = k->meta && k->meta->named ? k->meta->name : NULL;

	if (k->lttng) {
		fputs(k->lttng->name, f);
		/* as LTTng's: letters, digits and '_' only */
		for (n = k->syscall; n && *n; n++)
			fputc((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') ||
			      (*n >= '0' && *n <= '9') ? *n : '_', f);
		return;
	}
	if (!n) {
		n = meta_catalogue_name(k->group, k->hook);
		if (!n) {
			fprintf(f, "unknown_%u_%u", k->group, k->hook);
			return;
		}
	}
	ctf_name_chars(f, n);
}

/*
 * Member names of one class: each a TSDL identifier of at most
 * CTF_IDENT - 1 bytes, unique among those before it by
 * meta_unique_name()'s rule (name, name_2, ...), which JSON's keys and
 * the databases' columns follow too; after cutting and sanitising, so
 * that two names that differ only there stay two members.
 */
#define CTF_IDENT	128

struct ctf_names {
	char (*names)[CTF_IDENT];
	unsigned int n;
};

static bool ctf_name_taken(const char *name, const void *ctx)
{
	const struct ctf_names *t = ctx;
	unsigned int j;

	for (j = 0; j < t->n; j++)
		if (!strcmp(t->names[j], name))
			return true;
	return false;
}

/* Take name (a TSDL identifier already) as given, cut to fit. */
static const char *ctf_take(struct ctf_names *t, const char *name)
{
	char *out = t->names[t->n];

	meta_unique_name(out, CTF_IDENT - 1, name, ctf_name_taken, t);
	t->n++;
	return out;
}

/* The identifier of a field named name: '_' first (ctf_ident()). */
static const char *ctf_unique_ident(struct ctf_names *t, const char *name)
{
	/* field names are at most 200 bytes */
	char id[256];

	ctf_ident(id, sizeof(id), name);
	return ctf_take(t, id);
}

static void ctf_class_out(FILE *f, const struct ctf_class *k, size_t id)
{
	/* fields, their length members and the raw pair */
	static char names[4 * META_MAX_FIELDS + 32][CTF_IDENT];
	struct ctf_names t = { names, 0 };
	unsigned int nf = k->nfields, i;
	const char *name, *len, *raw = NULL, *raw_len = NULL;

	fprintf(f, "event {\n\tname = \"");
	ctf_event_name(f, k);
	fprintf(f, "\";\n\tid = %zu;\n\tstream_id = 0;\n\tfields := struct {\n",
		id);
	/* the raw pair keeps its names: a field named raw gets raw_2 */
	if (k->raw) {
		raw = ctf_take(&t, "_raw");
		raw_len = ctf_take(&t, "_raw_length");
	}
	for (i = 0; k->lttng && i < k->lttng->nfields; i++) {
		const struct lttng_field *lf = &k->lttng->fields[i];

		name = ctf_unique_ident(&t, lf->name);
		if (lf->type == LTTNG_STRING)
			fprintf(f, "\t\tstring %s;\n", name);
		else
			fprintf(f, "\t\tinteger { size = %u; align = 8; signed = %s; base = 10; } %s;\n",
				lf->type == LTTNG_INT64 ? 64u : 32u,
				lf->type == LTTNG_UINT32 ? "false" : "true",
				name);
	}
	for (i = 0; i < nf; i++) {
		const struct field *fd = class_field(k->meta, i);

		if (shadowed(k, i))
			continue;
		name = ctf_unique_ident(&t, fd->name);
		if (fd->type == LKET_STRING) {
			fprintf(f, "\t\tstring %s;\n", name);
		} else if (fd->type == LKET_ADDRS) {
			char want[CTF_IDENT + 16];

			snprintf(want, sizeof(want), "_%s_length", name);
			len = ctf_take(&t, want);
			fprintf(f, "\t\tinteger { size = 16; align = 8; signed = false; base = 10; } %s;\n"
				"\t\tinteger { size = 64; align = 8; signed = false; base = 16; } %s[%s];\n",
				len, name, len);
		} else {
			fprintf(f, "\t\tinteger { size = %u; align = 8; signed = %s; base = %u; } %s;\n",
				8u * fd->type, fd->hex ? "false" : "true",
				fd->hex ? 16u : 10u, name);
		}
	}
	if (k->raw)
		fprintf(f, "\t\tuint32_t %s;\n\t\tuint8_t %s[%s];\n",
			raw_len, raw, raw_len);
	fprintf(f, "\t};\n};\n\n");
}

/* A TSDL string literal's contents: what would end or escape it, '_'. */
static void ctf_env_string(FILE *f, const char *key, const char *s,
			   size_t size)
{
	size_t i;

	fprintf(f, "\t%s = \"", key);
	for (i = 0; i < size && s[i]; i++)
		fputc(s[i] == '"' || s[i] == '\\' ||
		      (unsigned char)s[i] < 0x20 ? '_' : s[i], f);
	fprintf(f, "\";\n");
}

/* Write the metadata of what the output has seen to f. */
static void ctf_metadata(struct ctf *c, FILE *f)
{
	const struct trace_info *t = c->trace;
	const uint8_t *u = c->uuid;
	int64_t off = t && t->have_header ? t->wall_offset : 0;
	int64_t off_s = off / 1000000000, off_ns = off % 1000000000;
	char uuid[40];
	size_t i;

	if (off_ns < 0) {
		off_ns += 1000000000;
		off_s--;
	}
	snprintf(uuid, sizeof(uuid),
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
	fprintf(f, "/* CTF 1.8 */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n"
		"\tbyte_order = %s;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n"
		"\t\tuint8_t uuid[16];\n\t\tuint32_t stream_id;\n\t};\n};\n\n",
		uuid,
		__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "be" : "le");
	fprintf(f, "env {\n\tdomain = \"kernel\";\n"
		"\ttracer_name = \"lttng-modules\";\n\ttracer_major = 2;\n"
		"\ttracer_minor = 13;\n");
	if (t && t->have_header && t->kernel[0])
		ctf_env_string(f, "kernel_release", t->kernel,
			       sizeof(t->kernel));
	if (t && t->hostname[0])
		ctf_env_string(f, "hostname", t->hostname,
			       sizeof(t->hostname));
	if (t && t->machine[0])
		ctf_env_string(f, "machine", t->machine, sizeof(t->machine));
	fprintf(f, "};\n\n");
	fprintf(f, "clock {\n\tname = \"monotonic\";\n\tuuid = \"%s\";\n"
		"\tdescription = \"LKET trace clock\";\n"
		"\tfreq = 1000000000;\n\tprecision = 1;\n"
		"\toffset_s = %lld;\n\toffset = %lld;\n\tabsolute = %s;\n};\n\n",
		uuid, (long long)off_s, (long long)off_ns,
		t && t->have_header ? "true" : "false");
	fprintf(f, "stream {\n\tid = 0;\n"
		"\tpacket.context := struct {\n"
		"\t\tuint64_clock_monotonic_t timestamp_begin;\n"
		"\t\tuint64_clock_monotonic_t timestamp_end;\n"
		"\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
		"\t\tuint64_t packet_seq_num;\n"
		"\t\tuint64_t events_discarded;\n\t\tuint32_t cpu_id;\n\t};\n"
		"\tevent.header := struct {\n\t\tuint32_t id;\n"
		"\t\tuint64_clock_monotonic_t timestamp;\n\t};\n"
		"\tevent.context := struct {\n\t\tint32_t _tid;\n"
		"\t\tint32_t _pid;\n\t\tstring _procname;\n\t};\n};\n\n");
	for (i = 0; i < c->nclasses; i++)
		ctf_class_out(f, &c->classes[i], i);
}

static int ctf_finish(struct output *o)
{
	struct ctf *c = (struct ctf *)o;
	const char *path;
	size_t i;
	FILE *f;
	int ret;

	for (i = 0; i < c->nstreams; i++) {
		struct ctf_stream *s = &c->streams[i];

		if (s->clamped && c->diag)
			diagf(c->diag, DIAG_NOTE, c->dir, -1,
			      "%llu event%s of CPU %zu earlier than the one before %s on that CPU (time went back): written with that event's time",
			      (unsigned long long)s->clamped,
			      s->clamped == 1 ? "" : "s", i,
			      s->clamped == 1 ? "it" : "them");
		if (s->fd < 0 || (!s->events && !s->pending))
			continue;
		ret = ctf_packet_out(c, s, (unsigned int)i);
		if (ret)
			return ret;
	}
	ret = tmpdir_file(&c->tmp, "metadata", &path);
	if (ret)
		return ret;
	f = fopen(path, "we");
	if (!f)
		return ctf_fail(c, path, errno);
	ctf_metadata(c, f);
	if (ferror(f)) {
		fclose(f);
		return ctf_fail(c, path, EIO);
	}
	if (fclose(f))
		return ctf_fail(c, path, errno);
	for (i = 0; i < c->nstreams; i++) {
		struct ctf_stream *s = &c->streams[i];

		if (s->fd >= 0 && fsync(s->fd))
			return ctf_fail(c, c->dir, errno);
	}
	return ctf_place(c);
}

static void ctf_free(struct output *o)
{
	struct ctf *c = (struct ctf *)o;
	size_t i;

	for (i = 0; i < c->nstreams; i++) {
		if (c->streams[i].fd >= 0)
			close(c->streams[i].fd);
		free(c->streams[i].buf);
	}
	/* not put in place: a failed export leaves nothing */
	tmpdir_discard(&c->tmp);
	free(c->streams);
	for (i = 0; i < c->nclasses; i++)
		free(c->classes[i].syscall);
	free(c->syscalls.slots);
	free(c->classes);
	free(c->class_id);
	free(c->dir);
	free(c);
}

int output_ctf_new(struct output **o, const char *dir, bool replace,
		   struct diag *diag)
{
	static const struct output_ops ctf_ops = {
		.begin = ctf_begin,
		.event = ctf_event,
		.lost = ctf_lost,
		.task = ctf_event,
		.finish = ctf_finish,
		.error = ctf_error,
		.free = ctf_free,
	};
	struct ctf *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->o.ops = &ctf_ops;
	c->replace = replace;
	c->diag = diag;
	c->dir = strdup(dir);
	/* DIR/ is DIR: the temporary folder goes beside it */
	while (c->dir && strlen(c->dir) > 1 && c->dir[strlen(c->dir) - 1] == '/')
		c->dir[strlen(c->dir) - 1] = '\0';
	c->class_id = calloc(CTF_CLASSES, sizeof(*c->class_id));
	if (!c->dir || !c->class_id) {
		ctf_free(&c->o);
		return -ENOMEM;
	}
	if (getrandom(c->uuid, sizeof(c->uuid), 0) != sizeof(c->uuid))
		memset(c->uuid, 0x4c, sizeof(c->uuid));
	c->uuid[6] = (uint8_t)((c->uuid[6] & 0x0f) | 0x40);
	c->uuid[8] = (uint8_t)((c->uuid[8] & 0x3f) | 0x80);
	*o = &c->o;
	return 0;
}

static int ctf_create(struct output **o, const struct output_args *a)
{
	return output_ctf_new(o, a->path, a->set->replace, a->set->diag);
}

const struct output_decl output_ctf_decl = {
	.option = "ctf", .arg = "DIR",
	.help =
"      --ctf DIR  write a CTF 1.8 trace (babeltrace2, Trace Compass) in DIR\n"
"                 (no lket.out unless -o or -f; so too --timechart and\n"
"                 --histogram)\n",
	.target = OUTPUT_FOLDER,
	.one_host = true,
	.create = ctf_create,
};
