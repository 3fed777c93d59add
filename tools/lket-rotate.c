// SPDX-License-Identifier: GPL-2.0
/*
 * lket-rotate - a rotated trace: per-CPU files of at most SIZE bytes, the
 * newest COUNT of each CPU kept (lket-run-traced --rotate; lket(5),
 * Rotation).
 *
 *   lket-rotate -s BYTES -n COUNT -o OUTPREFIX INPUT...
 *
 * Each INPUT is one CPU's stream of bulk-transport flushes, as stapio
 * writes it (a FIFO lket-run-traced hands stapio, or a file), its CPU
 * taken from its name (NAME_N).  The flushes are copied whole into
 * OUTPREFIX_N.K, K from 0, mode 0600.  A file ends before the flush that
 * would take it past SIZE, at a record boundary; the next is made before
 * it is closed (a reader following the trace goes on when it sees it);
 * when the CPU has more than COUNT files, the oldest is deleted.
 *
 * Why not stapio's own -S: a file must decode alone, and what makes a
 * trace readable (its header, metadata, host and module records, the
 * task table) is written once, at its start.  So each file after a
 * CPU's first starts with a flush of its own: an lket.rotation record
 * (the file's number, what the CPU's earlier files held), then copies
 * (LKET_RECORD_COPY) of those records and of the task records of every
 * task still alive, all stamped with the time of the CPU's last record
 * before the file.  That flush carries the number before the first one
 * copied after it, so the frame numbers run on without a gap.
 *
 * Ends at the end of every input, or on SIGTERM: then it reads what the
 * inputs still hold, without waiting, and stops.  SIGINT is ignored: a
 * Ctrl-C reaches the whole terminal's group, and stapio, which it ends,
 * still has records to write.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/tracename.h"
#include "runtime/lket_format.h"
#include "runtime/lket_ids.h"
#include "util/u64map.h"

#define CPUS_MAX	4096
#define FRAME_MAX	(64u << 20)	/* larger: not a flush, garbage */
#define COPY_PDU_MAX	(256u << 10)	/* a copies' flush, at most */
#define PIPE_ROOM	(1 << 20)	/* a FIFO's buffer */

/* A growing run of bytes. */
struct bytes {
	uint8_t *p;
	size_t len, cap;
};

static int bytes_add(struct bytes *b, const void *p, size_t n)
{
	uint8_t *bigger;
	size_t cap;

	if (b->len + n > b->cap) {
		cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n)
			cap *= 2;
		bigger = realloc(b->p, cap);
		if (!bigger)
			return -ENOMEM;
		b->p = bigger;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

/* A task alive: the record that made it, and the last that renamed it. */
struct task {
	struct bytes made, named;
	bool used;
};

enum framing { FRAMING_UNKNOWN, FRAMING_V4, FRAMING_V5 };

struct cpu {
	const char *input;
	int cpu, in;
	bool done, refused;
	struct bytes buf;	/* read, not yet a whole flush */
	enum framing framing;
	/* the record stream across flushes */
	uint8_t rec[LKET_RECORD_MAX];
	size_t have, want;	/* of the record being put together */
	/* the output */
	int out;
	long file;
	uint64_t bytes, nflushes;	/* of the current file */
	uint64_t records, dropped;	/* before the current file */
	uint64_t file_records, file_dropped;	/* in it */
	uint64_t first_ns, last_ns;
	bool any;
};

static struct {
	uint64_t size;
	long count;
	const char *prefix;
	struct cpu *cpus;
	size_t n;
	struct bytes start;	/* copies of the trace's start records */
	struct u64map tids;	/* tid -> tasks[] */
	struct task *tasks;
	size_t ntasks, captasks;
	bool said_start;
} r;

static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
	(void)sig;
	stopping = 1;
}

static void fail(const char *what, const char *path, int err)
{
	fprintf(stderr, "lket-rotate: %s%s%s: %s\n", what, path ? " " : "",
		path ? path : "", strerror(err));
}

static uint16_t u16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void out_name(char *buf, size_t size, const struct cpu *c, long file)
{
	snprintf(buf, size, "%s_%d.%ld", r.prefix, c->cpu, file);
}

static int write_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;
	ssize_t w;

	while (n) {
		w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

static size_t header_size(enum framing f)
{
	return f == FRAMING_V5 ? 12 : 8;
}

static int write_flush(struct cpu *c, uint32_t seq, const void *pdu,
		       uint32_t len)
{
	uint8_t h[12];
	size_t hl = header_size(c->framing);
	uint32_t magic = LKET_FLUSH_V5_MAGIC;
	int ret;

	if (c->framing == FRAMING_V5)
		memcpy(h, &magic, 4);
	memcpy(h + hl - 8, &seq, 4);
	memcpy(h + hl - 4, &len, 4);
	ret = write_all(c->out, h, hl);
	if (!ret)
		ret = write_all(c->out, pdu, len);
	c->bytes += hl + len;
	return ret;
}

/* The records a task alive needs, at ts, as copies. */
static int add_copy(struct bytes *b, const struct bytes *rec, uint64_t ts)
{
	uint16_t flags;
	size_t at = b->len;
	int ret;

	if (!rec->len)
		return 0;
	ret = bytes_add(b, rec->p, rec->len);
	if (ret)
		return ret;
	flags = u16(b->p + at + 6) | LKET_RECORD_COPY;
	memcpy(b->p + at + 6, &flags, 2);
	memcpy(b->p + at + 8, &ts, 8);
	return 0;
}

/*
 * The start of file c->file: a copy of the trace header, lket.rotation,
 * the other copies, in flushes of at most COPY_PDU_MAX numbered up to
 * next - 1.
 */
static int write_start(struct cpu *c, uint32_t next)
{
	struct bytes all = { 0 };
	uint8_t head[LKET_RECORD_HEAD_SIZE + 4 + 5 * 8];
	uint16_t total = sizeof(head), zero = 0, magic = LKET_RECORD_MAGIC;
	uint64_t id = LKET_ID(0, LKET_GROUP_LKET, LKET_HOOK_ROTATION, c->cpu);
	uint64_t fields[5] = { r.size, c->records, c->dropped, c->first_ns,
			       c->last_ns };
	int32_t file = (int32_t)c->file;
	size_t i, at, cut, *cuts = NULL, ncuts = 0;
	uint32_t seq;
	int ret;

	memcpy(head, &magic, 2);
	memcpy(head + 2, &total, 2);
	memcpy(head + 4, &total, 2);
	memcpy(head + 6, &zero, 2);
	memcpy(head + 8, &c->last_ns, 8);
	memcpy(head + 16, &id, 8);
	memcpy(head + 24, &file, 4);
	memcpy(head + 28, fields, sizeof(fields));
	/* the header first, as in the trace: it says how to read the rest */
	for (ret = 0, i = 0; i < 3 && !ret; i++)
		for (at = 0; !ret && at < r.start.len;
		     at += u16(r.start.p + at + 2)) {
			struct bytes one = { r.start.p + at,
					     u16(r.start.p + at + 2), 0 };
			bool header = LKET_ID_HOOK(u64(one.p + 16)) ==
				      LKET_HOOK_TRACE_HEADER;

			if (i == 0 && header)
				ret = add_copy(&all, &one, c->last_ns);
			else if (i == 1 && !at)
				ret = bytes_add(&all, head, sizeof(head));
			else if (i == 2 && !header)
				ret = add_copy(&all, &one, c->last_ns);
		}
	if (!r.start.len)
		ret = bytes_add(&all, head, sizeof(head));
	for (i = 0; !ret && i < r.ntasks; i++)
		if (r.tasks[i].used) {
			ret = add_copy(&all, &r.tasks[i].made, c->last_ns);
			if (!ret)
				ret = add_copy(&all, &r.tasks[i].named,
					       c->last_ns);
		}
	/* whole records a flush */
	for (at = 0, cut = 0; !ret && at < all.len; at += u16(all.p + at + 2)) {
		if (at - cut + u16(all.p + at + 2) > COPY_PDU_MAX) {
			size_t *more = realloc(cuts, (ncuts + 1) * sizeof(*cuts));

			if (!more) {
				ret = -ENOMEM;
				break;
			}
			cuts = more;
			cuts[ncuts++] = at;
			cut = at;
		}
	}
	if (!ret && all.len > r.size / 2 && !r.said_start) {
		r.said_start = true;
		fprintf(stderr, "lket-rotate: a file's start, which makes it decode alone (metadata, the tasks alive), takes %zu bytes of the %llu a file holds: larger files would hold more records\n",
			all.len, (unsigned long long)r.size);
	}
	seq = next - 1 - (uint32_t)ncuts;
	for (i = 0, cut = 0; !ret && i <= ncuts; i++) {
		at = i < ncuts ? cuts[i] : all.len;
		ret = write_flush(c, seq++, all.p + cut, (uint32_t)(at - cut));
		cut = at;
	}
	free(cuts);
	free(all.p);
	return ret;
}

static int open_file(struct cpu *c)
{
	char path[PATH_MAX];

	out_name(path, sizeof(path), c, c->file);
	c->out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (c->out < 0 || fchmod(c->out, 0600)) {
		fail("cannot write", path, errno);
		return -1;
	}
	c->bytes = 0;
	c->nflushes = 0;
	if (c->file >= r.count) {
		out_name(path, sizeof(path), c, c->file - r.count);
		if (unlink(path) && errno != ENOENT) {
			fail("cannot delete", path, errno);
			return -1;
		}
	}
	return 0;
}

/*
 * Before the flush numbered seq: the next file.  It is made before the
 * current one is closed: a reader following the trace (lket-b2a
 * --follow) takes a file whose writer has closed it with no later file
 * beside it for the CPU's last, and one with a later file for done.
 */
static int next_file(struct cpu *c, uint32_t seq)
{
	char path[PATH_MAX];
	int done = c->out, ret;

	c->records += c->file_records;
	c->dropped += c->file_dropped;
	c->file_records = c->file_dropped = 0;
	c->file++;
	if (open_file(c)) {
		close(done);
		return -1;
	}
	if (close(done)) {
		out_name(path, sizeof(path), c, c->file - 1);
		fail("cannot write", path, errno);
		return -1;
	}
	ret = write_start(c, seq);
	if (ret) {
		out_name(path, sizeof(path), c, c->file);
		fail("cannot write", path, -ret);
		return -1;
	}
	return 0;
}

static struct task *task_of(uint32_t tid, bool make)
{
	struct u64map_slot *slot = u64map_find(&r.tids, tid);
	struct task *t, *bigger;
	size_t i;

	if (slot)
		return &r.tasks[slot->val];
	if (!make)
		return NULL;
	for (i = 0; i < r.ntasks && r.tasks[i].used; i++)
		;
	if (i == r.ntasks) {
		if (r.ntasks == r.captasks) {
			r.captasks = r.captasks ? 2 * r.captasks : 1024;
			bigger = realloc(r.tasks, r.captasks * sizeof(*bigger));
			if (!bigger)
				return NULL;
			r.tasks = bigger;
		}
		memset(&r.tasks[r.ntasks], 0, sizeof(*r.tasks));
		r.ntasks++;
	}
	if (u64map_put(&r.tids, tid, (uint32_t)i))
		return NULL;
	t = &r.tasks[i];
	t->used = true;
	t->made.len = t->named.len = 0;
	return t;
}

/* What a whole record tells: counts, the start, the tasks. */
static int see_record(struct cpu *c, const uint8_t *p, size_t n)
{
	uint64_t id = u64(p + 16), ts = u64(p + 8);
	unsigned int group = LKET_ID_GROUP(id), hook = LKET_ID_HOOK(id);
	uint16_t sys = u16(p + 4);
	struct bytes *keep = NULL;
	struct task *t;
	uint32_t tid;

	if (!c->any) {
		c->first_ns = ts;
		c->any = true;
	}
	c->last_ns = ts;
	if (group != LKET_GROUP_LKET) {
		c->file_records++;
		if (group != LKET_GROUP_PROCESS || hook != LKET_HOOK_PROCESS_SNAPSHOT)
			return 0;
	} else if (hook == LKET_HOOK_PACKET) {
		if (sys >= LKET_RECORD_HEAD_SIZE + 4)
			c->file_dropped += u32(p + LKET_RECORD_HEAD_SIZE);
		return 0;
	} else if (hook != LKET_HOOK_CPU_END && hook != LKET_HOOK_TRACE_END) {
		c->file_records++;
	}
	if (group == LKET_GROUP_LKET) {
		switch (hook) {
		case LKET_HOOK_TRACE_HEADER:
		case LKET_HOOK_REGSYSEVT:
		case LKET_HOOK_REGUSREVT:
		case LKET_HOOK_REGEVTDESC:
		case LKET_HOOK_HOST:
		case LKET_HOOK_MODULE:
			return bytes_add(&r.start, p, n);
		case LKET_HOOK_TASK_NEW:
		case LKET_HOOK_TASK_EXEC:
		case LKET_HOOK_TASK_RENAME:
		case LKET_HOOK_TASK_EXIT:
			break;
		default:
			return 0;
		}
	}
	/* a task record: tid is its first field */
	if (sys < LKET_RECORD_HEAD_SIZE + 4)
		return 0;
	tid = u32(p + LKET_RECORD_HEAD_SIZE);
	if (group == LKET_GROUP_LKET && hook == LKET_HOOK_TASK_EXIT) {
		struct u64map_slot *slot = u64map_find(&r.tids, tid);

		if (slot) {
			r.tasks[slot->val].used = false;
			u64map_del(&r.tids, slot);
		}
		return 0;
	}
	t = task_of(tid, true);
	if (!t)
		return -ENOMEM;
	if (group == LKET_GROUP_PROCESS || hook == LKET_HOOK_TASK_NEW) {
		t->named.len = 0;
		keep = &t->made;
	} else {
		keep = &t->named;
	}
	keep->len = 0;
	return bytes_add(keep, p, n);
}

/*
 * A flush's payload into the record stream.  Records whole in it are
 * seen in place; one that spans flushes is put together in c->rec.
 * Garbage (no record head where one must start) ends the payload's
 * records: the next flush starts afresh.
 */
static int see_payload(struct cpu *c, const uint8_t *p, size_t n)
{
	size_t take;
	int ret;

	while (n) {
		if (!c->have && n >= LKET_RECORD_HEAD_SIZE &&
		    u16(p) == LKET_RECORD_MAGIC &&
		    u16(p + 2) >= LKET_RECORD_HEAD_SIZE && u16(p + 2) <= n) {
			ret = see_record(c, p, u16(p + 2));
			if (ret)
				return ret;
			n -= u16(p + 2);
			p += u16(p + 2);
			continue;
		}
		take = (c->want ? c->want : LKET_RECORD_HEAD_SIZE) - c->have;
		if (take > n)
			take = n;
		memcpy(c->rec + c->have, p, take);
		c->have += take;
		p += take;
		n -= take;
		if (!c->want && c->have == LKET_RECORD_HEAD_SIZE) {
			if (u16(c->rec) != LKET_RECORD_MAGIC ||
			    u16(c->rec + 2) < LKET_RECORD_HEAD_SIZE) {
				c->have = 0;
				return 0;
			}
			c->want = u16(c->rec + 2);
		}
		if (c->want && c->have == c->want) {
			ret = see_record(c, c->rec, c->want);
			c->have = c->want = 0;
			if (ret)
				return ret;
		}
	}
	return 0;
}

static bool detect(struct cpu *c)
{
	const uint8_t *p = c->buf.p;
	uint32_t magic = LKET_FLUSH_V5_MAGIC;

	if (c->buf.len < 12 + LKET_RECORD_HEAD_SIZE)
		return false;
	if (!memcmp(p, &magic, 4) && u16(p + 12) == LKET_RECORD_MAGIC)
		c->framing = FRAMING_V5;
	else if (u16(p + 8) == LKET_RECORD_MAGIC)
		c->framing = FRAMING_V4;
	return true;
}

/* The whole flushes in c->buf: copied, the file changed before one. */
static int copy_flushes(struct cpu *c)
{
	size_t hl, at = 0, whole;
	uint32_t seq, len;
	int ret;

	if (c->framing == FRAMING_UNKNOWN) {
		if (!detect(c))
			return 0;
		if (c->framing == FRAMING_UNKNOWN) {
			fprintf(stderr, "lket-rotate: %s: not LKET's binary records in SystemTap's bulk flushes (a trace built with -D ASCII_TRACE cannot be rotated)\n",
				c->input);
			c->refused = true;
			return -1;
		}
	}
	hl = header_size(c->framing);
	while (c->buf.len - at >= hl) {
		seq = u32(c->buf.p + at + hl - 8);
		len = u32(c->buf.p + at + hl - 4);
		if (len > FRAME_MAX) {
			fprintf(stderr, "lket-rotate: %s: a flush of %u bytes at offset %llu of the stream: not a trace\n",
				c->input, len,
				(unsigned long long)(c->bytes + at));
			return -1;
		}
		whole = hl + len;
		if (c->buf.len - at < whole)
			break;
		if (c->nflushes && !c->have &&
		    c->bytes + whole > r.size && next_file(c, seq))
			return -1;
		ret = write_flush(c, seq, c->buf.p + at + hl, len);
		if (ret) {
			char path[PATH_MAX];

			out_name(path, sizeof(path), c, c->file);
			fail("cannot write", path, -ret);
			return -1;
		}
		c->nflushes++;
		ret = see_payload(c, c->buf.p + at + hl, len);
		if (ret) {
			fail("", NULL, -ret);
			return -1;
		}
		at += whole;
	}
	memmove(c->buf.p, c->buf.p + at, c->buf.len - at);
	c->buf.len -= at;
	return 0;
}

/* Read what c's input has; 1 at its end. */
static int take(struct cpu *c)
{
	ssize_t got;

	for (;;) {
		if (c->buf.cap - c->buf.len < 65536) {
			uint8_t *bigger = realloc(c->buf.p,
						  2 * c->buf.cap + 65536);

			if (!bigger) {
				fail("", NULL, ENOMEM);
				return -1;
			}
			c->buf.p = bigger;
			c->buf.cap = 2 * c->buf.cap + 65536;
		}
		got = read(c->in, c->buf.p + c->buf.len,
			   c->buf.cap - c->buf.len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return 0;
		if (got < 0) {
			fail("cannot read", c->input, errno);
			return -1;
		}
		if (got == 0)
			return 1;
		c->buf.len += (size_t)got;
		if (copy_flushes(c))
			return -1;
	}
}

static void finish(struct cpu *c)
{
	char path[PATH_MAX];
	bool nothing = !c->file && !c->bytes && !c->buf.len;

	out_name(path, sizeof(path), c, c->file);
	/* kept, not lost: what could not be rotated goes as it came */
	if (c->buf.len)
		fprintf(stderr, "lket-rotate: %s: %s (%zu bytes): kept as they are in %s\n",
			c->input, c->refused ? "not rotated" :
			"the stream ends inside a flush", c->buf.len, path);
	if (c->buf.len && write_all(c->out, c->buf.p, c->buf.len))
		fail("cannot write", path, errno);
	if (close(c->out))
		fail("cannot write", path, errno);
	/* a CPU stapio never wrote for (offline): no file */
	else if (nothing && unlink(path))
		fail("cannot delete", path, errno);
	close(c->in);
	c->done = true;
}

static void free_all(struct pollfd *fds)
{
	size_t i;

	for (i = 0; r.cpus && i < r.n; i++)
		free(r.cpus[i].buf.p);
	for (i = 0; i < r.ntasks; i++) {
		free(r.tasks[i].made.p);
		free(r.tasks[i].named.p);
	}
	free(r.tasks);
	free(r.start.p);
	u64map_free(&r.tids);
	free(r.cpus);
	free(fds);
}

static int usage(void)
{
	fprintf(stderr, "usage: lket-rotate -s BYTES -n COUNT -o OUTPREFIX INPUT...\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct pollfd *fds;
	struct sigaction sa = { .sa_handler = on_stop };
	size_t i, left;
	char *end;
	int opt, ret, status = 0;

	while ((opt = getopt(argc, argv, "s:n:o:")) != -1) {
		switch (opt) {
		case 's':
			r.size = strtoull(optarg, &end, 10);
			if (*end || !r.size)
				return usage();
			break;
		case 'n':
			r.count = strtol(optarg, &end, 10);
			if (*end || r.count < 1)
				return usage();
			break;
		case 'o':
			r.prefix = optarg;
			break;
		default:
			return usage();
		}
	}
	if (!r.size || !r.count || !r.prefix || optind >= argc ||
	    (size_t)(argc - optind) > CPUS_MAX)
		return usage();
	r.n = (size_t)(argc - optind);
	r.cpus = calloc(r.n, sizeof(*r.cpus));
	fds = calloc(r.n, sizeof(*fds));
	if (!r.cpus || !fds || u64map_init(&r.tids)) {
		fail("", NULL, ENOMEM);
		free_all(fds);
		return 1;
	}
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGINT, SIG_IGN);
	for (i = 0; i < r.n; i++) {
		struct cpu *c = &r.cpus[i];

		c->input = argv[optind + (int)i];
		c->cpu = tracename_cpu(c->input);
		if (c->cpu < 0) {
			fprintf(stderr, "lket-rotate: %s: no CPU in its name (NAME_N)\n",
				c->input);
			free_all(fds);
			return 2;
		}
		/* a FIFO: open now, its writer comes later */
		c->in = open(c->input, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (c->in < 0) {
			fail("cannot read", c->input, errno);
			free_all(fds);
			return 1;
		}
		/* room for a sub-buffer or more: stapio's writes wait less */
		(void)fcntl(c->in, F_SETPIPE_SZ, PIPE_ROOM);
		if (open_file(c)) {
			free_all(fds);
			return 1;
		}
	}
	for (left = r.n; left && !stopping;) {
		for (i = 0; i < r.n; i++) {
			fds[i].fd = r.cpus[i].done ? -1 : r.cpus[i].in;
			fds[i].events = POLLIN;
		}
		ret = poll(fds, r.n, -1);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0) {
			fail("poll", NULL, errno);
			status = 1;
			break;
		}
		for (i = 0; i < r.n; i++) {
			if (r.cpus[i].done || !fds[i].revents)
				continue;
			ret = take(&r.cpus[i]);
			if (ret < 0)
				status = 1;
			if (ret) {
				finish(&r.cpus[i]);
				left--;
			}
		}
		if (status)
			break;
	}
	/* stopped: what is there, without waiting */
	for (i = 0; i < r.n; i++) {
		if (r.cpus[i].done)
			continue;
		if (!status && take(&r.cpus[i]) < 0)
			status = 1;
		finish(&r.cpus[i]);
	}
	free_all(fds);
	return status;
}
