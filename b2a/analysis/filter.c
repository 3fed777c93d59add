// SPDX-License-Identifier: GPL-2.0
/*
 * filter.c - which events reach the outputs: --pid, --comm, --event, --from,
 * --where... (filter.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/filter.h"
#include "decode/meta.h"

void filter_init(struct filter *f)
{
	memset(f, 0, sizeof(*f));
	f->to_ts = UINT64_MAX;
}

static void free_list(char **list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

void filter_free(struct filter *f)
{
	size_t i;

	free(f->tids);
	free(f->pids);
	free_list(f->comms, f->ncomms);
	free_list(f->events, f->nevents);
	free(f->event_cache);
	for (i = 0; i < f->nwheres; i++) {
		free(f->wheres[i].name);
		free(f->wheres[i].text);
	}
	free(f->wheres);
	free(f->strbuf);
	filter_init(f);
}

/* A whole, non-negative decimal number below limit. */
static int parse_uint(const char *s, size_t len, uint64_t limit,
		      uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!len || len > 19)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	if (x >= limit)
		return -EINVAL;
	*v = x;
	return 0;
}

int filter_parse_seconds(const char *s, int64_t *ns)
{
	const char *dot = strchr(s, '.');
	size_t ilen = dot ? (size_t)(dot - s) : strlen(s);
	uint64_t sec = 0, frac = 0;
	size_t i, flen = 0;

	if (ilen && parse_uint(s, ilen, 9000000000ull, &sec))
		return -EINVAL;
	if (dot) {
		flen = strlen(dot + 1);
		if (flen > 9 || (!flen && !ilen))
			return -EINVAL;
		if (flen && parse_uint(dot + 1, flen, UINT64_MAX, &frac))
			return -EINVAL;
		for (i = flen; i < 9; i++)
			frac *= 10;
	} else if (!ilen) {
		return -EINVAL;
	}
	*ns = (int64_t)(sec * 1000000000ull + frac);
	return 0;
}

int filter_parse_iso(const char *s, int64_t *ns)
{
	struct tm tm = { 0 };
	const char *end;
	int64_t frac = 0;
	time_t t;

	if (strlen(s) < 19 || (s[10] != 'T' && s[10] != ' '))
		return -EINVAL;
	end = strptime(s, s[10] == 'T' ? "%Y-%m-%dT%H:%M:%S" :
		       "%Y-%m-%d %H:%M:%S", &tm);
	if (!end || end != s + 19)
		return -EINVAL;
	if (*end == '.') {
		char digits[16];
		size_t n = strspn(end + 1, "0123456789");

		if (!n || n > 9)
			return -EINVAL;
		memcpy(digits, end, n + 1);
		digits[n + 1] = '\0';
		if (filter_parse_seconds(digits, &frac))
			return -EINVAL;
		end += n + 1;
	}
	if (*end == 'Z')
		end++;
	if (*end)
		return -EINVAL;
	t = timegm(&tm);
	if (t == (time_t)-1 || t < 0)
		return -EINVAL;
	*ns = (int64_t)t * 1000000000 + frac;
	return 0;
}

static int push(void **list, size_t *n, size_t size, const void *item)
{
	void *bigger = realloc(*list, (*n + 1) * size);

	if (!bigger)
		return -ENOMEM;
	memcpy((char *)bigger + *n * size, item, size);
	*list = bigger;
	(*n)++;
	return 0;
}

/* One comma-separated item of a list option. */
static int add_item(struct filter *f, enum filter_kind kind, const char *s,
		    size_t len)
{
	uint64_t v, lo, hi;
	const char *dash;
	char *copy;
	int ret;

	switch (kind) {
	case FILTER_PID:
	case FILTER_TID:
		if (parse_uint(s, len, 1ull << 32, &v))
			return -EINVAL;
		if (kind == FILTER_TID) {
			uint32_t tid = (uint32_t)v;

			return push((void **)&f->tids, &f->ntids, sizeof(tid),
				    &tid);
		} else {
			int32_t pid = (int32_t)v;

			if (v > INT32_MAX)
				return -EINVAL;
			return push((void **)&f->pids, &f->npids, sizeof(pid),
				    &pid);
		}
	case FILTER_CPU:
		dash = memchr(s, '-', len);
		if (dash) {
			if (parse_uint(s, (size_t)(dash - s), B2A_CPUS, &lo) ||
			    parse_uint(dash + 1, len - (size_t)(dash - s) - 1,
				       B2A_CPUS, &hi) || lo > hi)
				return -EINVAL;
		} else if (parse_uint(s, len, B2A_CPUS, &lo)) {
			return -EINVAL;
		} else {
			hi = lo;
		}
		for (v = lo; v <= hi; v++)
			f->cpus[v / 64] |= 1ull << (v % 64);
		f->have_cpus = true;
		return 0;
	case FILTER_COMM:
	case FILTER_EVENT:
		if (!len)
			return -EINVAL;
		copy = strndup(s, len);
		if (!copy)
			return -ENOMEM;
		ret = kind == FILTER_COMM ?
		      push((void **)&f->comms, &f->ncomms, sizeof(copy), &copy) :
		      push((void **)&f->events, &f->nevents, sizeof(copy), &copy);
		if (ret)
			free(copy);
		return ret;
	default:
		return -EINVAL;
	}
}

static int parse_bound(const char *arg, struct time_bound *b)
{
	if (!filter_parse_seconds(arg, &b->ns)) {
		b->kind = BOUND_REL;
		return 0;
	}
	if (!filter_parse_iso(arg, &b->ns)) {
		b->kind = BOUND_WALL;
		return 0;
	}
	return -EINVAL;
}

int filter_add(struct filter *f, enum filter_kind kind, const char *arg)
{
	const char *p = arg, *comma;
	size_t len;
	int ret;

	f->active = true;
	if (f->event_cache)	/* answers given may change */
		memset(f->event_cache, 0, 256 * 256);
	if (kind == FILTER_FROM)
		return parse_bound(arg, &f->from);
	if (kind == FILTER_TO)
		return parse_bound(arg, &f->to);
	/* a process name may hold a comma: --comm takes one glob */
	if (kind == FILTER_COMM)
		return add_item(f, kind, arg, strlen(arg));
	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		ret = add_item(f, kind, p, len);
		if (ret || !comma)
			return ret;
		p = comma + 1;
	}
}

static uint64_t resolve(const struct time_bound *b,
			const struct trace_info *info, uint64_t none)
{
	uint64_t ts;

	switch (b->kind) {
	case BOUND_REL:
		return __builtin_add_overflow(info->first_ts, (uint64_t)b->ns,
					      &ts) ? UINT64_MAX : ts;
	case BOUND_WALL:
		/* ns since 1970 minus the offset, unsigned: before the
		 * trace's clock began is 0, past its end UINT64_MAX */
		if (info->wall_offset >= 0)
			return (uint64_t)b->ns > (uint64_t)info->wall_offset ?
			       (uint64_t)b->ns - (uint64_t)info->wall_offset : 0;
		return __builtin_add_overflow((uint64_t)b->ns,
					      -(uint64_t)info->wall_offset,
					      &ts) ? UINT64_MAX : ts;
	default:
		return none;
	}
}

/* A whole integer, signed, decimal or 0x hex, of 64 bits signed or not. */
static int parse_int(const char *s, __int128 *v)
{
	bool neg = *s == '-';
	unsigned long long x;
	char *end;

	if (neg)
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, !strncmp(s, "0x", 2) || !strncmp(s, "0X", 2) ?
		     16 : 10);
	if (errno || *end || (neg && x > (unsigned long long)INT64_MAX + 1))
		return -EINVAL;
	*v = neg ? -(__int128)x : (__int128)x;
	return 0;
}

int filter_add_where(struct filter *f, const char *expr)
{
	static const char *const ops[] = {
		[WHERE_EQ] = "==", [WHERE_NE] = "!=", [WHERE_LE] = "<=",
		[WHERE_GE] = ">=", [WHERE_LT] = "<", [WHERE_GT] = ">",
	};
	/* two-character operators first: "<=" is not "<" then "=3" */
	static const enum where_op order[] = {
		WHERE_EQ, WHERE_NE, WHERE_LE, WHERE_GE, WHERE_LT, WHERE_GT,
	};
	struct where w = { 0 };
	size_t nlen = strcspn(expr, "=!<>"), vlen, i;
	const char *p = expr + nlen, *val;
	int ret;

	while (nlen && expr[nlen - 1] == ' ')
		nlen--;
	for (i = 0; i < nlen; i++)
		if (!isalnum((unsigned char)expr[i]) && expr[i] != '_')
			return -EINVAL;
	if (!nlen)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		if (!strncmp(p, ops[order[i]], strlen(ops[order[i]])))
			break;
	if (i == 6)
		return -EINVAL;
	w.op = order[i];
	val = p + strlen(ops[w.op]);
	val += strspn(val, " ");
	vlen = strlen(val);
	if (vlen >= 2 && val[0] == '"' && val[vlen - 1] == '"') {
		val++;
		vlen -= 2;
	} else {
		if (!vlen)
			return -EINVAL;
		w.is_int = !parse_int(val, &w.num);
	}
	/* a string has no order */
	if (!w.is_int && w.op != WHERE_EQ && w.op != WHERE_NE)
		return -EINVAL;
	w.name = strndup(expr, nlen);
	w.text = strndup(val, vlen);
	ret = w.name && w.text ? push((void **)&f->wheres, &f->nwheres,
				      sizeof(w), &w) : -ENOMEM;
	if (ret) {
		free(w.name);
		free(w.text);
		return ret;
	}
	f->active = true;
	return 0;
}

int filter_prepare(struct filter *f, const struct trace_info *info)
{
	if ((f->from.kind == BOUND_WALL || f->to.kind == BOUND_WALL) &&
	    !info->have_header)
		return -ENODATA;
	f->from_ts = resolve(&f->from, info, 0);
	f->to_ts = resolve(&f->to, info, UINT64_MAX);
	return 0;
}

/* "iosyscall" and "sunrpc.clnt" name every event below them. */
static bool event_matches(const struct filter *f, const char *name)
{
	size_t i, n;

	for (i = 0; i < f->nevents; i++) {
		n = strlen(f->events[i]);
		if (!fnmatch(f->events[i], name, 0) ||
		    (!strncmp(f->events[i], name, n) && name[n] == '.'))
			return true;
	}
	return false;
}

static bool event_passes(struct filter *f, const struct event *ev)
{
	const char *name;
	uint8_t *c;

	if (!ev->meta || !ev->meta->named) {
		name = meta_catalogue_name(ev->group, ev->hook);
		return event_matches(f, name ? name : "unknown");
	}
	if (!f->event_cache) {
		f->event_cache = calloc(256 * 256, 1);
		if (!f->event_cache)
			return event_matches(f, ev->meta->name);
	}
	c = &f->event_cache[(ev->group & 0xff) << 8 | (ev->hook & 0xff)];
	if (!*c)
		*c = event_matches(f, ev->meta->name) ? 1 : 2;
	return *c == 1;
}

static bool compare(enum where_op op, __int128 a, __int128 b)
{
	switch (op) {
	case WHERE_EQ:
		return a == b;
	case WHERE_NE:
		return a != b;
	case WHERE_LT:
		return a < b;
	case WHERE_LE:
		return a <= b;
	case WHERE_GT:
		return a > b;
	default:
		return a >= b;
	}
}

/* A string field's value against a glob: == matches, != does not. */
static bool string_matches(struct filter *f, const struct where *w,
			   const struct value *v)
{
	size_t size = (size_t)v->slen + 1;
	char *bigger;

	if (w->op != WHERE_EQ && w->op != WHERE_NE)
		return false;
	if (size > f->strbuf_size) {
		bigger = realloc(f->strbuf, size);
		if (!bigger)
			return false;
		f->strbuf = bigger;
		f->strbuf_size = size;
	}
	memcpy(f->strbuf, v->s, v->slen);
	f->strbuf[v->slen] = '\0';
	return !fnmatch(w->text, f->strbuf, 0) == (w->op == WHERE_EQ);
}

/* An event without the field does not match, whatever the operator. */
static bool where_matches(struct filter *f, const struct where *w,
			  const struct event *ev)
{
	const struct value *v = ev->v, *end = ev->v + ev->nvalues;

	for (; v < end && strcmp(v->f->name, w->name); v++)
		;
	if (v == end)
		return false;
	if (v->f->type == LKET_STRING)
		return string_matches(f, w, v);
	if (!w->is_int)
		return false;
	/* addresses and flags are unsigned, as printed */
	return compare(w->op, v->f->hex ? (__int128)value_unsigned(v) :
			      (__int128)v->i, w->num);
}

bool filter_thread(const struct filter *f, uint32_t tid,
		   const struct proc *proc)
{
	char comm[PROC_COMM_LEN + 1];
	size_t i;

	if (f->ntids) {
		for (i = 0; i < f->ntids && f->tids[i] != tid; i++)
			;
		if (i == f->ntids)
			return false;
	}
	if (f->npids) {
		if (!proc || proc->pid < 0)
			return false;
		for (i = 0; i < f->npids && f->pids[i] != proc->pid; i++)
			;
		if (i == f->npids)
			return false;
	}
	if (f->ncomms) {
		if (!proc || !proc->comm_len)
			return false;
		memcpy(comm, proc->comm, proc->comm_len);
		comm[proc->comm_len] = '\0';
		for (i = 0; i < f->ncomms && fnmatch(f->comms[i], comm, 0); i++)
			;
		if (i == f->ncomms)
			return false;
	}
	return true;
}

/* --from/--to and --cpu: the cheap tests, first */
static bool time_and_cpu_pass(const struct filter *f, const struct event *ev)
{
	return filter_time(f, ev->rec->timestamp) &&
	       (!f->have_cpus || (ev->cpu < B2A_CPUS &&
				  (f->cpus[ev->cpu / 64] >> (ev->cpu % 64) & 1)));
}

/* --event and --where */
static bool content_passes(struct filter *f, const struct event *ev)
{
	size_t i;

	if (f->nevents && !event_passes(f, ev))
		return false;
	for (i = 0; i < f->nwheres; i++)
		if (!where_matches(f, &f->wheres[i], ev))
			return false;
	return true;
}

bool filter_record(struct filter *f, const struct event *ev)
{
	return time_and_cpu_pass(f, ev) && content_passes(f, ev);
}

bool filter_event(struct filter *f, const struct event *ev,
		  const struct proc *proc)
{
	return time_and_cpu_pass(f, ev) && filter_thread(f, ev->tid, proc) &&
	       content_passes(f, ev);
}
