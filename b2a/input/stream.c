// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c - read LKET records from one per-CPU file (see stream.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/follow.h"
#include "input/stream.h"
#include "input/tracename.h"
#include "runtime/lket_format.h"
#include "runtime/lket_ids.h"

/* A flush larger than this is not a flush: SystemTap's are a few KiB. */
#define MAX_PDU		(1u << 20)
/* Sequence numbers are global, so a file skips those of other CPUs; a
 * jump larger than this is taken as garbage, not as a real flush. */
#define MAX_SEQ_JUMP	(1u << 24)

static size_t frame_header_size(enum framing f)
{
	return f == FRAMING_V5 ? 12 : f == FRAMING_V4 ? 8 : 0;
}

/*
 * Try to make n bytes available at s->pos: what is left moves to the start
 * of the window, then reads (each for all the room left) go on until n
 * bytes are there, the file ends or the window is full.  *avail is how
 * many are then available, fewer than n at the end of the file.  Returns
 * 0, or -errno if a read fails.
 */

/* At the end of what a regular file held when opened: say once if it
 * has grown since (a trace still being written). */
static void file_grew(struct stream *s)
{
	struct stat st;

	if (s->grew_said || fstat(s->fd, &st) < 0 ||
	    (uint64_t)st.st_size <= s->file_size)
		return;
	s->grew_said = true;
	diagf(s->diag, DIAG_NOTE, s->path, -1,
	      "grew while being read (%llu bytes now): converted the %llu it had when opened",
	      (unsigned long long)st.st_size, (unsigned long long)s->file_size);
}

static int fill(struct stream *s, size_t n, size_t *avail)
{
	ssize_t got;

	if (s->len - s->pos >= n) {
		*avail = s->len - s->pos;
		return 0;
	}
	if (s->pos) {
		memmove(s->buf, s->buf + s->pos, s->len - s->pos);
		s->buf_off += s->pos;
		s->len -= s->pos;
		s->pos = 0;
	}
	if (s->await_writer) {
		/* a FIFO nobody has opened yet reads as empty: wait for
		 * its writer's first bytes, or for it to come and go */
		struct pollfd p = { .fd = s->fd, .events = POLLIN };

		while (poll(&p, 1, -1) < 0)
			if (errno != EINTR)
				return -errno;
		s->await_writer = false;
	}
	while (s->len < n && s->len < s->cap) {
		size_t want = s->cap - s->len;

		/* a regular file: what it held when opened, not what a
		 * tracer still writing appends meanwhile */
		if (s->sized) {
			uint64_t end = s->buf_off + s->len;

			if (end >= s->file_size) {
				file_grew(s);
				break;
			}
			if (want > s->file_size - end)
				want = (size_t)(s->file_size - end);
		}
		got = read(s->fd, s->buf + s->len, want);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		/* a trace being written: wait for more, or read what its
		   writer left when done, then end */
		if (got == 0 && s->follow && !s->writer_done) {
			s->writer_done = !follow_wait(s->follow, s->fd, s->path,
						      s->buf_off + s->len);
			continue;
		}
		if (got == 0)
			break;
		s->len += (size_t)got;
	}
	*avail = s->len - s->pos;
	return 0;
}

static uint64_t file_pos(const struct stream *s)
{
	return s->buf_off + s->pos;
}

/* Is p a plausible record head, in byte order swap, of at most limit? */
static bool record_head_ok(const uint8_t *p, bool swap, uint64_t limit)
{
	struct stream tmp = { .swap = swap };
	uint16_t total, sys;

	if (stream_u16(&tmp, p) != LKET_RECORD_MAGIC)
		return false;
	total = stream_u16(&tmp, p + 2);
	sys = stream_u16(&tmp, p + 4);
	if (sys < LKET_RECORD_HEAD_SIZE || total < sys)
		return false;
	return total <= limit || limit >= LKET_RECORD_MAX;
}

/*
 * Is there a plausible flush header at p (avail bytes), in framing f and
 * byte order swap?  A flush must start with a record head, unless a
 * record spanning flushes is being assembled (span) or the file ends
 * before a whole head (callers fill the window first, so a short avail
 * means the end of the file): then the header is judged alone.
 */
static bool frame_ok(const struct stream *s, const uint8_t *p, size_t avail,
		     enum framing f, bool swap, bool span)
{
	struct stream tmp = { .swap = swap };
	size_t hlen = frame_header_size(f);
	uint32_t seq, len;

	if (avail < hlen + 1)
		return false;
	if (f == FRAMING_V5 && stream_u32(&tmp, p) != LKET_FLUSH_V5_MAGIC)
		return false;
	seq = stream_u32(&tmp, p + hlen - 8);
	len = stream_u32(&tmp, p + hlen - 4);
	if (len == 0 || len > MAX_PDU)
		return false;
	if (s->have_seq && (seq - s->seq == 0 || seq - s->seq > MAX_SEQ_JUMP))
		return false;
	if (span)
		return true;
	if (avail < hlen + LKET_RECORD_HEAD_SIZE)
		return avail - hlen < len;
	return record_head_ok(p + hlen, swap, len);
}

/* Detect framing and byte order from the first bytes of the file. */
static bool detect(struct stream *s, const uint8_t *p, size_t avail)
{
	static const enum framing order[] = { FRAMING_V5, FRAMING_V4 };
	size_t i;
	int swap;

	for (i = 0; i < 2; i++)
		for (swap = 0; swap < 2; swap++)
			if (frame_ok(s, p, avail, order[i], swap, false)) {
				s->framing = order[i];
				s->swap = swap;
				return true;
			}
	for (swap = 0; swap < 2; swap++)
		if (avail >= LKET_RECORD_HEAD_SIZE &&
		    record_head_ok(p, swap, LKET_RECORD_MAX)) {
			s->framing = FRAMING_NONE;
			s->swap = swap;
			return true;
		}
	return false;
}

/*
 * Could the n (< LKET_RECORD_HEAD_SIZE) bytes at p that end a flush be
 * the start of a record head that the next flush completes?
 */
static bool head_start_ok(const struct stream *s, const uint8_t *p, size_t n)
{
	uint16_t m = s->swap ? __builtin_bswap16(LKET_RECORD_MAGIC) :
		     LKET_RECORD_MAGIC;
	uint8_t magic[2];

	memcpy(magic, &m, 2);
	return n && p[0] == magic[0] && (n < 2 || p[1] == magic[1]);
}

enum resync_to {
	RESYNC_DETECT,	/* framing and byte order, from the start */
	RESYNC_FRAME,	/* a flush header, or a record head if unframed */
	RESYNC_IN_FLUSH,	/* a record head, within the current flush */
};

/*
 * A record head at s->pos inside the current flush, whose record ends
 * the flush, goes on in the next one, or is followed by another record
 * head (or by the start of one that the next flush completes): one head
 * alone is too easily found in garbage.  1 yes, 0 no, or < 0.
 */
static int flush_head_ok(struct stream *s)
{
	size_t avail, need, rest, total;
	const uint8_t *p;
	int ret;

	if (s->pdu_left < LKET_RECORD_HEAD_SIZE) {
		ret = fill(s, s->pdu_left, &avail);
		if (ret)
			return ret;
		return avail >= s->pdu_left &&
		       head_start_ok(s, s->buf + s->pos, s->pdu_left);
	}
	ret = fill(s, LKET_RECORD_HEAD_SIZE, &avail);
	if (ret)
		return ret;
	p = s->buf + s->pos;
	if (avail < LKET_RECORD_HEAD_SIZE ||
	    !record_head_ok(p, s->swap, LKET_RECORD_MAX))
		return 0;
	total = stream_u16(s, p + 2);
	if (total >= s->pdu_left)
		return 1;
	rest = s->pdu_left - total;
	need = total + (rest < LKET_RECORD_HEAD_SIZE ? rest :
			LKET_RECORD_HEAD_SIZE);
	ret = fill(s, need, &avail);
	if (ret)
		return ret;
	if (avail < need)
		return 1;	/* the file ends first: a truncated flush */
	p = s->buf + s->pos + total;
	return rest < LKET_RECORD_HEAD_SIZE ? head_start_ok(s, p, rest) :
	       record_head_ok(p, s->swap, LKET_RECORD_MAX);
}

/* Is what is at s->pos (avail bytes) where resync(to) stops?  Or < 0. */
static int resync_here(struct stream *s, enum resync_to to, size_t avail)
{
	const uint8_t *p = s->buf + s->pos;

	switch (to) {
	case RESYNC_DETECT:
		return detect(s, p, avail);
	case RESYNC_IN_FLUSH:
		return flush_head_ok(s);
	default:
		return s->framing == FRAMING_NONE ?
		       avail >= LKET_RECORD_HEAD_SIZE &&
		       record_head_ok(p, s->swap, LKET_RECORD_MAX) :
		       frame_ok(s, p, avail, s->framing, s->swap, false);
	}
}

/*
 * Step over garbage: find the next offset at which a flush header (or, in
 * an unframed file, a record head) is plausible, or, inside a flush, a
 * record head: what follows garbage in a flush is read, not the whole
 * flush dropped.  Returns 1 when found (in a flush: or when the flush
 * ends), 0 at end of file, < 0 on a read error.
 */
static int resync(struct stream *s, enum resync_to to)
{
	bool in_flush = to == RESYNC_IN_FLUSH;
	uint64_t start = file_pos(s);
	size_t avail, want;
	int ret;

	want = in_flush ? LKET_RECORD_HEAD_SIZE :
	       frame_header_size(s->framing) + LKET_RECORD_HEAD_SIZE;
	for (;;) {
		if (in_flush && !s->pdu_left)
			break;
		ret = fill(s, want, &avail);
		if (ret)
			return ret;
		if (avail == 0)
			break;
		ret = resync_here(s, to, avail);
		if (ret < 0)
			return ret;
		if (ret)
			break;
		if (avail < want && !in_flush) {
			/* too few bytes left to hold anything */
			s->pos = s->len;
			break;
		}
		s->pos++;
		if (in_flush)
			s->pdu_left--;
	}
	if (to == RESYNC_DETECT && !start && !file_pos(s) && s->len > s->pos)
		s->starts_lket = true;
	if (file_pos(s) != start && in_flush) {
		diagf(s->diag, DIAG_DAMAGE, s->path, (int64_t)start,
		      "%llu bytes of garbage skipped in flush %u%s",
		      (unsigned long long)(file_pos(s) - start), s->seq,
		      s->pdu_left ? "" : ", to its end");
	} else if (to == RESYNC_DETECT && !start && file_pos(s) &&
		   s->len == s->pos) {
		/* nothing from its first byte to its last: no trace */
		s->no_flush = true;
		diagf(s->diag, DIAG_DAMAGE, s->path, -1,
		      "not a trace: not an LKET flush nor record in its %llu bytes",
		      (unsigned long long)file_pos(s));
	} else if (file_pos(s) != start) {
		diagf(s->diag, DIAG_DAMAGE, s->path, (int64_t)start,
		     "%llu bytes of garbage skipped%s",
		     (unsigned long long)(file_pos(s) - start),
		     s->len - s->pos ? "" : " (up to end of file)");
	}
	return s->len - s->pos || (in_flush && !s->pdu_left) ? 1 : 0;
}

/* Framing and byte order, from the first bytes. */
static int start(struct stream *s)
{
	size_t avail;
	int ret;

	s->started = true;
	if (!s->sized) {
		ret = fill(s, 1, &avail);
		if (ret)
			return ret;
		if (!avail) {
			s->empty = true;
			diagf(s->diag, DIAG_NOTE, s->path, -1,
			      "empty, no records");
			return 0;
		}
	}
	ret = resync(s, RESYNC_DETECT);
	return ret < 0 ? ret : 0;
}

int stream_open(struct stream *s, const char *path, int cpu, size_t window,
		struct diag *diag)
{
	return stream_open_follow(s, path, cpu, window, diag, NULL);
}

int stream_open_follow(struct stream *s, const char *path, int cpu,
		       size_t window, struct diag *diag, struct follow *follow)
{
	struct stat st;
	int ret, fl;

	memset(s, 0, sizeof(*s));
	s->path = s->first_path = path;
	s->cpu = cpu;
	s->diag = diag;
	/* never wait in open() for a FIFO's writer: other inputs may be
	 * FIFOs that writer fills first */
	s->fd = !strcmp(path, "-") ?
		fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0) :
		open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (s->fd < 0)
		return -errno;
	if (fstat(s->fd, &st) < 0) {
		ret = -errno;
		goto error;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		goto error;
	}
	/* standard input may be anything; a named device is a mistake */
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
	    !S_ISSOCK(st.st_mode) && strcmp(path, "-")) {
		ret = -EINVAL;
		goto error;
	}
	fl = fcntl(s->fd, F_GETFL);
	if (fl < 0 || fcntl(s->fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		ret = -errno;
		goto error;
	}
	/* a file being written has no size yet: read to where it ends */
	s->follow = S_ISREG(st.st_mode) ? follow : NULL;
	s->sized = S_ISREG(st.st_mode) && !s->follow;
	s->file_size = s->sized ? (uint64_t)st.st_size : 0;
	s->await_writer = S_ISFIFO(st.st_mode) && strcmp(path, "-");
	s->cap = window < 2 * LKET_RECORD_MAX ? 2 * LKET_RECORD_MAX : window;
	s->buf = malloc(s->cap);
	s->span = malloc(LKET_RECORD_MAX);
	if (!s->buf || !s->span) {
		ret = -ENOMEM;
		goto error;
	}
	if (!s->sized)
		return 0;	/* read when its records are wanted */
	posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (s->file_size == 0) {
		s->started = s->empty = true;
		diagf(diag, DIAG_NOTE, path, -1, "empty file, no records");
		return 0;
	}
	ret = start(s);
	if (ret < 0)
		goto error;
	return 0;
error:
	stream_close(s);
	return ret;
}

void stream_close(struct stream *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->buf);
	free(s->span);
	free(s->next_path);
	s->buf = s->span = NULL;
	s->next_path = NULL;
	s->path = s->first_path;
}

/* A flush read that no record's number will say was there. */
static void bare_flush(struct stream *s, uint32_t seq)
{
	if (s->nbare == STREAM_BARE) {
		memmove(s->bare, s->bare + 1, sizeof(s->bare) - sizeof(*s->bare));
		s->nbare--;
	}
	s->bare[s->nbare++] = seq;
}

/*
 * A flush header at s->pos whose payload starts with no record head (a
 * transport failure's stale bytes at its start): still a flush when the
 * header is plausible and the flush ends where the file does or where
 * another plausible flush header is, so that the records after the garbage
 * are read (resync(RESYNC_IN_FLUSH)) rather than the flush skipped as
 * garbage.  The end is looked at only if the window holds it.
 */
static int damaged_frame_ok(struct stream *s)
{
	size_t hlen = frame_header_size(s->framing), avail, end;
	const uint8_t *p;
	uint32_t len;
	int ret;

	ret = fill(s, hlen + LKET_RECORD_HEAD_SIZE, &avail);
	if (ret)
		return ret;
	p = s->buf + s->pos;
	if (!frame_ok(s, p, avail, s->framing, s->swap, true))
		return 0;
	len = stream_u32(s, p + hlen - 4);
	end = hlen + len;
	if (end + hlen + LKET_RECORD_HEAD_SIZE > s->cap)
		return 0;
	ret = fill(s, end + hlen + LKET_RECORD_HEAD_SIZE, &avail);
	if (ret)
		return ret;
	p = s->buf + s->pos;
	if (avail == end)
		return 1;	/* the last flush of the file */
	/* the next header judged alone: its flush may be damaged too */
	return avail > end &&
	       frame_ok(s, p + end, avail - end, s->framing, s->swap, true);
}

/*
 * A flush header at s->pos whose length is damaged (0, more than a flush
 * holds, or not where the next header is) but that is one all the same:
 * its number follows the file's, SystemTap 5.0+'s magic is there, a
 * record head follows it.  It is taken to end where the next plausible
 * flush header is, or the file does, within the read window: its length
 * in *len.  So its number is seen (it was not lost) and its records are
 * read.  1, 0 or < 0.
 */
static int damaged_length(struct stream *s, uint32_t *len)
{
	size_t hlen = frame_header_size(s->framing), need, avail, off;
	struct stream after = { .swap = s->swap, .have_seq = true };
	const uint8_t *p;
	int ret;

	ret = fill(s, hlen + LKET_RECORD_HEAD_SIZE, &avail);
	if (ret)
		return ret;
	p = s->buf + s->pos;
	if (avail < hlen + LKET_RECORD_HEAD_SIZE ||
	    (s->framing == FRAMING_V5 &&
	     stream_u32(s, p) != LKET_FLUSH_V5_MAGIC) ||
	    !record_head_ok(p + hlen, s->swap, LKET_RECORD_MAX))
		return 0;
	after.seq = stream_u32(s, p + hlen - 8);
	if (s->have_seq && (after.seq - s->seq == 0 ||
			    after.seq - s->seq > MAX_SEQ_JUMP))
		return 0;
	/* the next header's number follows this one's */
	for (off = hlen + LKET_RECORD_HEAD_SIZE; off - hlen <= MAX_PDU; off++) {
		need = off + hlen + LKET_RECORD_HEAD_SIZE;
		ret = fill(s, need, &avail);
		if (ret)
			return ret;
		p = s->buf + s->pos;
		if (avail < need && s->len == s->cap)
			return 0;	/* past the window: not told */
		if (avail < need) {
			*len = (uint32_t)(avail - hlen);	/* the file's end */
			return 1;
		}
		if (frame_ok(&after, p + off, avail - off, s->framing, s->swap,
			     false)) {
			*len = (uint32_t)(off - hlen);
			return 1;
		}
	}
	return 0;
}

/*
 * Start the next flush.  Returns 1 when one was found (s->pdu_left set),
 * 0 at end of file, < 0 on a read error.
 */
static int next_frame(struct stream *s, bool span)
{
	size_t hlen = frame_header_size(s->framing), avail;
	uint64_t off, left;
	uint32_t len = 0;
	bool damaged = false;
	int ret;

	for (;;) {
		ret = fill(s, hlen + LKET_RECORD_HEAD_SIZE, &avail);
		if (ret)
			return ret;
		if (avail == 0)
			return 0;
		if (frame_ok(s, s->buf + s->pos, avail, s->framing, s->swap,
			     span))
			break;
		ret = span ? 0 : damaged_frame_ok(s);
		if (ret < 0)
			return ret;
		if (ret)
			break;
		if (avail <= hlen) {
			diagf(s->diag, DIAG_DAMAGE, s->path, (int64_t)file_pos(s),
			     "file ends inside a flush header (%zu bytes)",
			     avail);
			s->pos = s->len;
			return 0;
		}
		if (span)
			return 2;	/* the caller drops the partial record */
		ret = damaged_length(s, &len);
		if (ret < 0)
			return ret;
		if (ret) {
			damaged = true;
			break;
		}
		ret = resync(s, RESYNC_FRAME);
		if (ret <= 0)
			return ret;
	}
	if (s->have_seq && s->new_frame)
		bare_flush(s, s->seq);
	s->seq = stream_u32(s, s->buf + s->pos + hlen - 8);
	s->pdu_left = stream_u32(s, s->buf + s->pos + hlen - 4);
	if (damaged) {
		diagf(s->diag, DIAG_DAMAGE, s->path, (int64_t)file_pos(s),
		      "flush %u: its header's length (%llu bytes) is damaged: taken to be %u bytes, up to %s",
		      s->seq, (unsigned long long)s->pdu_left, len,
		      s->pos + hlen + len < s->len ? "the next flush header" :
		      "the end of the file");
		s->pdu_left = len;
	}
	s->have_seq = true;
	s->new_frame = true;
	s->frames++;
	s->pos += hlen;
	off = file_pos(s);
	left = s->file_size > off ? s->file_size - off : 0;
	if (s->sized && s->pdu_left > left) {
		diagf(s->diag, DIAG_DAMAGE, s->path, (int64_t)(off - hlen),
		     "flush of %llu bytes runs past the end of the file (%llu bytes left): truncated",
		     (unsigned long long)s->pdu_left, (unsigned long long)left);
		s->pdu_left = left;
	}
	return 1;
}

/* A run of records earlier than the latest before them has ended. */
static void report_back(struct stream *s)
{
	diagf(s->diag, DIAG_DAMAGE, s->path, (int64_t)s->back_first,
	      "time goes back: %lu record%s (to offset %llu) earlier than %llu.%09llu, the record at offset %llu, by up to %llu ns: left in file order, after it",
	      s->back_n, s->back_n == 1 ? "" : "s",
	      (unsigned long long)s->back_last,
	      (unsigned long long)(s->last_ts / 1000000000),
	      (unsigned long long)(s->last_ts % 1000000000),
	      (unsigned long long)s->last_off,
	      (unsigned long long)s->back_most);
	s->back_n = 0;
	s->back_most = 0;
}

/* Fill s->rec from a complete record at p. */
static void set_record(struct stream *s, const uint8_t *p, uint64_t off)
{
	struct record *r = &s->rec;

	r->data = p;
	r->size = stream_u16(s, p + 2);
	r->sys_size = stream_u16(s, p + 4);
	r->timestamp = stream_u64(s, p + 8);
	r->id = stream_u64(s, p + 16);
	r->offset = off;
	r->flags = stream_u16(s, p + 6);
	r->seq = s->seq;
	r->seq_last = s->seq;
	r->seq_valid = s->framing != FRAMING_NONE;
	s->records++;
	if (r->timestamp < s->last_ts) {
		/* time went back: the record stays behind the one before */
		r->key = s->last_ts;
		s->out_of_order++;
		if (!s->back_n++)
			s->back_first = off;
		s->back_last = off;
		if (s->last_ts - r->timestamp > s->back_most)
			s->back_most = s->last_ts - r->timestamp;
		return;
	}
	if (s->back_n)
		report_back(s);
	r->key = r->timestamp;
	s->last_ts = r->timestamp;
	s->last_off = off;
}

/*
 * A record that continues past its flush: gather it from the following
 * flushes into s->span.  Returns 1 with s->rec set, 0 if it could not be
 * completed (reported; the caller carries on), < 0 on a read error.
 */
static int assemble(struct stream *s, uint64_t off)
{
	size_t have = 0, total = 0, take, avail;
	uint32_t seq = s->seq;
	int ret;

	for (;;) {
		if (!s->pdu_left) {
			/* a flush that held nothing but the record's middle */
			if (s->seq != seq)
				bare_flush(s, s->seq);
			ret = next_frame(s, true);
			if (ret < 0)
				return ret;
			if (ret != 1)
				break;
			s->new_frame = false;
		}
		ret = fill(s, 1, &avail);
		if (ret)
			return ret;
		if (!avail)
			break;
		take = total ? total - have : LKET_RECORD_HEAD_SIZE - have;
		if (take > s->pdu_left)
			take = s->pdu_left;
		if (take > avail)
			take = avail;
		memcpy(s->span + have, s->buf + s->pos, take);
		have += take;
		s->pos += take;
		s->pdu_left -= take;
		if (!total && have >= LKET_RECORD_HEAD_SIZE) {
			if (!record_head_ok(s->span, s->swap, LKET_RECORD_MAX))
				break;
			total = stream_u16(s, s->span + 2);
		}
		if (total && have == total) {
			set_record(s, s->span, off);
			s->rec.seq = seq;
			return 1;
		}
	}
	diagf(s->diag, DIAG_DAMAGE, s->path, (int64_t)off,
	     "record cut short after %zu of %zu bytes: dropped", have,
	     total ? total : (size_t)LKET_RECORD_HEAD_SIZE);
	return 0;
}

/* A rotated file's start at p: a copy, or the lket.rotation before them. */
static bool copied(const struct stream *s, const uint8_t *p)
{
	uint64_t id = stream_u64(s, p + 16);

	return (stream_u16(s, p + 6) & LKET_RECORD_COPY) ||
	       (LKET_ID_GROUP(id) == LKET_GROUP_LKET &&
		LKET_ID_HOOK(id) == LKET_HOOK_ROTATION);
}

/* A complete record at p that s->skip or s->skip_copies says to step over. */
static bool skipped(const struct stream *s, const uint8_t *p)
{
	uint64_t id;
	unsigned int k;

	if (s->skip_copies && copied(s, p))
		return true;
	if (!s->skip)
		return false;
	id = stream_u64(s, p + 16);
	k = LKET_ID_GROUP(id) << 8 | LKET_ID_HOOK(id);
	return s->skip[k >> 3] >> (k & 7) & 1;
}

/*
 * With s->skip: step over the flushes in the window that hold exactly one
 * record, a skipped one (as the runtime writes them: a flush a record),
 * without the calls of next_frame() and next_framed() for each.  Anything
 * else is left to them.
 */
static void skip_flushes(struct stream *s)
{
	size_t hlen = frame_header_size(s->framing), avail;
	const uint8_t *p;
	uint32_t len;

	for (;;) {
		p = s->buf + s->pos;
		avail = s->len - s->pos;
		if (avail < hlen + LKET_RECORD_HEAD_SIZE ||
		    !frame_ok(s, p, avail, s->framing, s->swap, false))
			return;
		len = stream_u32(s, p + hlen - 4);
		if (len > avail - hlen || stream_u16(s, p + hlen + 2) != len ||
		    !skipped(s, p + hlen))
			return;
		s->seq = stream_u32(s, p + hlen - 8);
		s->have_seq = true;
		s->frames++;
		s->pos += hlen + len;
	}
}

static int next_framed(struct stream *s)
{
	size_t avail;
	uint64_t off;
	uint16_t total;
	int ret;

	for (;;) {
		if (!s->pdu_left && s->skip)
			skip_flushes(s);
		if (!s->pdu_left) {
			ret = next_frame(s, false);
			if (ret <= 0)
				return ret;
		}
		off = file_pos(s);
		ret = fill(s, s->pdu_left < LKET_RECORD_MAX ?
			   s->pdu_left : LKET_RECORD_MAX, &avail);
		if (ret)
			return ret;
		if (avail > s->pdu_left)
			avail = s->pdu_left;
		if (avail >= LKET_RECORD_HEAD_SIZE &&
		    record_head_ok(s->buf + s->pos, s->swap, LKET_RECORD_MAX)) {
			total = stream_u16(s, s->buf + s->pos + 2);
			if (total <= avail && skipped(s, s->buf + s->pos)) {
				s->pos += total;
				s->pdu_left -= total;
				continue;
			}
			if (total <= avail) {
				set_record(s, s->buf + s->pos, off);
				s->pos += total;
				s->pdu_left -= total;
				s->new_frame = false;
				return 1;
			}
		} else if (avail >= LKET_RECORD_HEAD_SIZE ||
			   avail < s->pdu_left ||
			   !head_start_ok(s, s->buf + s->pos, avail)) {
			/* not a record where one must start: on to the next
			 * record head in the flush */
			ret = resync(s, RESYNC_IN_FLUSH);
			if (ret <= 0)
				return ret;
			continue;
		}
		ret = assemble(s, off);
		if (ret)
			return ret;
	}
}

static int next_unframed(struct stream *s)
{
	size_t avail;
	uint16_t total;
	int ret;

	for (;;) {
		ret = fill(s, LKET_RECORD_HEAD_SIZE, &avail);
		if (ret)
			return ret;
		if (avail == 0)
			return 0;
		if (avail >= LKET_RECORD_HEAD_SIZE &&
		    record_head_ok(s->buf + s->pos, s->swap, LKET_RECORD_MAX)) {
			total = stream_u16(s, s->buf + s->pos + 2);
			ret = fill(s, total, &avail);
			if (ret)
				return ret;
			if (avail >= total && skipped(s, s->buf + s->pos)) {
				s->pos += total;
				continue;
			}
			if (avail >= total) {
				set_record(s, s->buf + s->pos, file_pos(s));
				s->pos += total;
				return 1;
			}
			diagf(s->diag, DIAG_DAMAGE, s->path,
			     (int64_t)file_pos(s),
			     "file ends inside a record (%zu of %u bytes)",
			     avail, total);
			s->pos = s->len;
			return 0;
		}
		if (avail < LKET_RECORD_HEAD_SIZE) {
			diagf(s->diag, DIAG_DAMAGE, s->path,
			     (int64_t)file_pos(s),
			     "file ends inside a record head (%zu bytes)",
			     avail);
			s->pos = s->len;
			return 0;
		}
		ret = resync(s, RESYNC_FRAME);
		if (ret <= 0)
			return ret;
	}
}

/*
 * Following a rotated trace, at the end of one of its CPU's files: on
 * into the next one, if its writer has made it (input/follow.h), as a
 * file of its own (framing, byte order, flush numbers) whose copies are
 * stepped over: the files before it said it all.  true: s reads it now.
 */
static bool next_file(struct stream *s)
{
	char *next;
	int fd, k, stem;

	if (!s->follow || s->rotation < 0 || follow_stopped())
		return false;
	next = follow_next_file(s->path);
	if (!next)
		return false;
	fd = open(next, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diagf(s->diag, DIAG_DAMAGE, next, -1,
		      "cannot read: %s: the records of CPU %d end before it",
		      strerror(errno), s->cpu);
		free(next);
		return false;
	}
	k = tracename_rotation(next);
	stem = (int)(strrchr(next, '.') - next) + 1;
	if (k == s->rotation + 2)
		diagf(s->diag, DIAG_NOTE, next, -1,
		      "a rotated trace: the file of CPU %d before this one, %.*s%d, was deleted before it could be read: its records are not converted",
		      s->cpu, stem, next, k - 1);
	else if (k > s->rotation + 2)
		diagf(s->diag, DIAG_NOTE, next, -1,
		      "a rotated trace: the files of CPU %d before this one, %.*s%d to %.*s%d, were deleted before they could be read: their records are not converted",
		      s->cpu, stem, next, s->rotation + 1, stem, next, k - 1);
	close(s->fd);
	s->fd = fd;
	s->done_bytes += s->buf_off + s->len;
	free(s->next_path);
	s->path = s->next_path = next;
	s->rotation = k;
	s->skip_copies = true;
	s->buf_off = s->len = s->pos = 0;
	s->pdu_left = 0;
	/* its own numbers: its copies' flushes repeat the last ones */
	s->have_seq = s->new_frame = false;
	s->started = s->empty = s->writer_done = false;
	return true;
}

/* The next record of the current file: stream_next() but for its end. */
static int next_in_file(struct stream *s)
{
	int ret;

	if (!s->started) {
		ret = s->buf ? start(s) : 0;
		if (ret < 0)
			return ret;
	}
	if (!s->buf || s->empty)
		return 0;
	ret = s->framing == FRAMING_NONE ? next_unframed(s) : next_framed(s);
	if (ret <= 0 && s->back_n)
		report_back(s);
	if (ret <= 0 && s->have_seq && s->new_frame) {
		bare_flush(s, s->seq);
		s->new_frame = false;
	}
	return ret;
}

int stream_next(struct stream *s)
{
	int ret;

	do
		ret = next_in_file(s);
	while (ret == 0 && next_file(s));
	return ret;
}
