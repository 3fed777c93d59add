/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pf_fixture.h - what the Perfetto export's unit tests share: the
 * catalogue's metadata, events made field by field, the export run into
 * a file of the test folder and read back, and a protobuf reader that
 * walks what it wrote by field number.
 */
#ifndef LKET_PF_FIXTURE_H
#define LKET_PF_FIXTURE_H

#include "unit.h"

#include <fcntl.h>

#include "decode/meta.h"
#include "output/perfetto/perfetto.h"
#include "output/perfetto/pf.h"

static struct meta pf_meta;

/* The catalogue's metadata of these (group, hook)s. */
static int pf_setup(void **state)
{
	static const unsigned int ids[][2] = {
		{ LKET_GROUP_TASK, LKET_HOOK_TASK_CTXSWITCH },
		{ LKET_GROUP_TASK, LKET_HOOK_TASK_WAKEUP },
		{ LKET_GROUP_TASK, LKET_HOOK_TASK_CPUIDLE },
		{ LKET_GROUP_SYSCALL, LKET_HOOK_SYSCALL_ENTRY },
		{ LKET_GROUP_SYSCALL, LKET_HOOK_SYSCALL_RETURN },
		{ LKET_GROUP_IOSYSCALL, LKET_HOOK_IOSYSCALL_OPEN_ENTRY },
		{ LKET_GROUP_IOSYSCALL, LKET_HOOK_IOSYSCALL_OPEN_RETURN },
		{ LKET_GROUP_PAGEFAULT, LKET_HOOK_PAGEFAULT },
		{ LKET_GROUP_PROCESS, LKET_HOOK_PROCESS_SNAPSHOT },
		{ LKET_GROUP_PROCESS, LKET_HOOK_PROCESS_FORK },
		{ LKET_GROUP_PROCESS, LKET_HOOK_PROCESS_EXECVE },
		{ LKET_GROUP_IOSCHED, LKET_HOOK_IOSCHED_ELV_ADD_REQUEST },
		{ LKET_GROUP_LKET, LKET_HOOK_TASK_NEW },
		{ LKET_GROUP_LKET, LKET_HOOK_TASK_EXEC },
		{ LKET_GROUP_LKET, LKET_HOOK_TRACE_HEADER },
		{ LKET_GROUP_SUNRPC, LKET_HOOK_SUNRPC_SCHED_EXECUTE_ENTRY },
		{ LKET_GROUP_SUNRPC, LKET_HOOK_SUNRPC_SVC_PROCESS_ENTRY },
		{ LKET_GROUP_SUNRPC, LKET_HOOK_SUNRPC_SCHED_RELEASE_TASK_ENTRY },
		{ LKET_GROUP_SUNRPC, LKET_HOOK_SUNRPC_SVC_SEND_ENTRY },
	};
	size_t i;

	if (unit_dir_setup(state) || meta_init(&pf_meta))
		return -1;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!meta_get(&pf_meta, ids[i][0], ids[i][1]) &&
		    meta_from_catalogue(&pf_meta, ids[i][0], ids[i][1]))
			return -1;
	return 0;
}

static int pf_teardown(void **state)
{
	meta_free(&pf_meta);
	return unit_dir_teardown(state);
}

/* A field's value: an integer, or a string when s is set. */
struct pf_fv {
	int64_t i;
	const char *s;
};

#define PF_STR(x)	((struct pf_fv){ .s = (x) })
#define PF_I(x)		((struct pf_fv){ .i = (x) })

/* ev (its record rec) of (group, hook) at ts, thread tid on cpu, its
 * own fields' values in order. */
static inline void pf_event_of(struct event *ev, struct record *rec,
			unsigned int group, unsigned int hook, uint64_t ts,
			uint32_t tid, unsigned int cpu, const struct pf_fv *v,
			unsigned int n)
{
	const struct event_meta *m = meta_get(&pf_meta, group, hook);
	unsigned int k;

	assert_non_null(m);
	assert_true(n <= m->sys.n);
	memset(ev, 0, sizeof(*ev));
	*rec = (struct record){ .timestamp = ts, .size = 64 };
	ev->rec = rec;
	ev->meta = m;
	ev->group = group;
	ev->hook = hook;
	ev->tid = tid;
	ev->cpu = cpu;
	ev->nsys = ev->nvalues = n;
	for (k = 0; k < n; k++) {
		ev->v[k].f = &m->sys.f[k];
		ev->v[k].i = v[k].i;
		if (v[k].s) {
			ev->v[k].s = v[k].s;
			ev->v[k].slen = (uint32_t)strlen(v[k].s);
		}
	}
}

/* ---- the export into a file ------------------------------------------ */

struct pf_run {
	struct output *o;
	int fd;
	char path[PATH_MAX_UNIT];
	uint8_t *data;		/* the file, read back after finish */
	size_t len;
};

static inline void pf_run_begin(struct pf_run *r, const char *name,
			 const struct trace_info *info)
{
	snprintf(r->path, sizeof(r->path), "%s/%s", unit_dir, name);
	r->fd = open(r->path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(r->fd >= 0);
	assert_int_equal(output_perfetto_new(&r->o, r->fd, r->path, NULL), 0);
	assert_int_equal(r->o->ops->begin(r->o, info), 0);
}

static inline void pf_run_event(struct pf_run *r, const struct event *ev,
			 const struct proc *proc)
{
	assert_int_equal(r->o->ops->event(r->o, ev, proc), 0);
}

static inline void pf_run_finish(struct pf_run *r)
{
	off_t n;

	assert_int_equal(r->o->ops->finish(r->o), 0);
	r->o->ops->free(r->o);
	n = lseek(r->fd, 0, SEEK_END);
	assert_true(n >= 0);
	r->len = (size_t)n;
	r->data = malloc(r->len ? r->len : 1);
	assert_non_null(r->data);
	assert_int_equal(pread(r->fd, r->data, r->len, 0), (ssize_t)r->len);
	close(r->fd);
}

/* ---- reading protobuf ------------------------------------------------- */

struct pbf {
	uint32_t num;
	unsigned int wt;
	uint64_t v;		/* varint, fixed64 */
	const uint8_t *p;	/* length-delimited */
	size_t len;
};

static inline uint64_t pbr_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	for (;;) {
		assert_true(*p < end && shift < 64);
		v |= (uint64_t)(**p & 0x7f) << shift;
		shift += 7;
		if (!(*(*p)++ & 0x80))
			return v;
	}
}

/* The next field of the message at *p (end its end): false past it. */
static inline bool pbr_next(const uint8_t **p, const uint8_t *end,
			    struct pbf *f)
{
	uint64_t key;
	int i;

	if (*p >= end)
		return false;
	key = pbr_varint(p, end);
	*f = (struct pbf){ .num = (uint32_t)(key >> 3),
			   .wt = (unsigned int)(key & 7) };
	switch (f->wt) {
	case PB_WT_VARINT:
		f->v = pbr_varint(p, end);
		break;
	case PB_WT_FIXED64:
		assert_true(end - *p >= 8);
		for (i = 0; i < 8; i++)
			f->v |= (uint64_t)(*p)[i] << (8 * i);
		*p += 8;
		break;
	case PB_WT_LEN:
		f->len = (size_t)pbr_varint(p, end);
		assert_true(f->len <= (size_t)(end - *p));
		f->p = *p;
		*p += f->len;
		break;
	default:
		fail_msg("wire type %u", f->wt);
	}
	return true;
}

/* The k-th field numbered num of the message m (len bytes). */
static inline bool pbr_get(const uint8_t *m, size_t len, uint32_t num,
			   unsigned int k, struct pbf *out)
{
	const uint8_t *p = m, *end = m + len;

	while (pbr_next(&p, end, out))
		if (out->num == num && !k--)
			return true;
	return false;
}

static inline unsigned int pbr_count(const uint8_t *m, size_t len, uint32_t num)
{
	const uint8_t *p = m, *end = m + len;
	struct pbf f;
	unsigned int n = 0;

	while (pbr_next(&p, end, &f))
		n += f.num == num;
	return n;
}

/* The message's field num, of the varint or fixed kind; missing if none. */
static inline uint64_t pbr_u(const struct pbf *m, uint32_t num,
			     uint64_t missing)
{
	struct pbf f;

	return pbr_get(m->p, m->len, num, 0, &f) ? f.v : missing;
}

/* Its nested message (or string) field num, k-th; asserted there. */
static inline struct pbf pbr_sub(const struct pbf *m, uint32_t num,
				 unsigned int k)
{
	struct pbf f;

	assert_true(pbr_get(m->p, m->len, num, k, &f));
	return f;
}

static inline bool pbr_streq(const struct pbf *f, const char *s)
{
	return f->len == strlen(s) && !memcmp(f->p, s, f->len);
}

/* The k-th packet of the trace that has field num. */
static inline bool pf_packet_with(const struct pf_run *r, uint32_t num,
			   unsigned int k, struct pbf *pkt)
{
	unsigned int i;

	for (i = 0; pbr_get(r->data, r->len, PF_TRACE_PACKET, i, pkt); i++)
		if (pbr_count(pkt->p, pkt->len, num) && !k--)
			return true;
	return false;
}

#endif
