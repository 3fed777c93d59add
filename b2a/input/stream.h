/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stream.h - read LKET records from one per-CPU file.
 *
 * A file holds bulk-transport flushes (SystemTap 4.7-4.9 or 5.0+ framing)
 * or, with no framing, records laid end to end; which one is detected per
 * file, as is its byte order.  The reader hands out one record at a time,
 * pointing into its read window when the record lies inside one flush and
 * into a side buffer when it spans flushes.  Garbage (a transport failure's
 * stale bytes, a torn write) is reported by file offset and stepped over by
 * resynchronising on the next plausible frame or record, inside a flush
 * too: the records after garbage in a flush are read.  Memory is a fixed
 * window, whatever the file's size.
 */
#ifndef LKET_STREAM_H
#define LKET_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

struct follow;

enum framing {
	FRAMING_NONE,	/* records end to end */
	FRAMING_V4,	/* {u32 sequence; u32 pdu_len} (SystemTap 4.7-4.9) */
	FRAMING_V5,	/* F0 9F A9 BA, then the same (SystemTap 5.0+) */
};

struct record {
	const uint8_t *data;	/* the whole record, head first */
	uint32_t size;		/* total_size */
	uint32_t sys_size;
	uint64_t timestamp;
	uint64_t key;		/* merge order: the latest timestamp of its
				   file so far, so that a record earlier
				   than the one before it stays behind it */
	uint64_t id;		/* tid<<32 | group<<24 | hook<<16 | cpu<<8 */
	uint64_t offset;	/* of the record in its file */
	uint16_t flags;		/* LKET_RECORD_* */
	uint32_t seq;		/* of the flush that carried its first byte */
	uint32_t seq_last;	/* of the flush that carried its last byte */
	bool seq_valid;		/* false in unframed files */
};

struct stream {
	const char *path;	/* the file read now */
	/* the file opened: path, unless following a rotated trace
	   (input/follow.h) has gone on into its CPU's next files */
	const char *first_path;
	char *next_path;	/* path, when one of those: owned */
	uint64_t done_bytes;	/* the bytes of the files before it */
	int fd;
	int cpu;		/* from the file name; -1 if it has none */
	int rotation;		/* a rotated file's number (name "_CPU.N");
				   -1: not one */
	/* a rotated file after the first given of its CPU: the copies
	   at its start (LKET_RECORD_COPY, lket.rotation) are stepped
	   over, the earlier file said it all */
	bool skip_copies;
	unsigned int order;	/* place among the files given: breaks ties */
	uint64_t file_size;	/* 0 unless sized */
	bool sized;		/* a regular file: its size is known */
	bool grew_said;		/* it grew while read: said once */
	bool started;		/* framing detected (or the file is empty) */
	bool empty;		/* not a byte in it */
	bool await_writer;	/* a FIFO: wait for a writer before reading */
	/* NULL, or a trace still being written: at the end of the file,
	   wait for what its writer appends (input/follow.h) */
	struct follow *follow;
	bool writer_done;	/* following: it will not grow any more */
	/* not a flush nor a record in the whole file: not a trace (said) */
	bool no_flush;
	/* its first bytes are a flush, or a record: written as LKET's are */
	bool starts_lket;
	/* the pipeline read a record of LKET's from it: one that the
	   trace's metadata, or LKET's catalogue, decodes */
	bool lket_seen;
	enum framing framing;
	/*
	 * NULL, or bit group << 8 | hook set: records of that event are
	 * stepped over whole, not returned (a first pass that wants few
	 * events); LKET's own records are always returned.
	 */
	const uint8_t *skip;
	bool swap;		/* written in the other byte order */

	uint8_t *buf;		/* read window */
	size_t cap, len, pos;
	uint64_t buf_off;	/* file offset of buf[0] */

	uint64_t pdu_left;	/* payload bytes left in the current flush */
	uint32_t seq;		/* of the current flush */
	bool have_seq;
	bool new_frame;		/* the current flush has yielded no record yet */
	/*
	 * Flushes read whose number no record carries (all garbage, or the
	 * middle of a record over three): they were not lost, which the
	 * caller's lost-flush tracking must know; it takes them from here
	 * (nbare = 0).  More than STREAM_BARE in a row: the oldest dropped.
	 */
#define STREAM_BARE	8
	uint32_t bare[STREAM_BARE];
	unsigned int nbare;

	uint8_t *span;		/* a record assembled across flushes */

	struct record rec;	/* the current record, after stream_next() */
	uint64_t last_ts;	/* the latest timestamp so far */
	uint64_t last_off;	/* and its record's offset */
	/* the current run of records earlier than last_ts, reported when
	 * time has caught up or at the end of the file */
	uint64_t back_first, back_last, back_most;
	unsigned long back_n;
	unsigned long frames, records, out_of_order;
	struct diag *diag;
};

/*
 * Open path ("-": standard input) and detect its framing and byte order.
 * A FIFO or pipe is opened without waiting for its writer, and read from
 * the first stream_next() on.  cpu is the CPU its name says (-1:
 * unknown).  window is the read window's size in bytes.  Returns 0, or a
 * negative errno (the file could not be opened or read, or is a folder
 * or a device).
 */
int stream_open(struct stream *s, const char *path, int cpu, size_t window,
		struct diag *diag);
/*
 * The same, for a file its tracer still writes (lket-b2a --follow): its
 * end is where it stops growing, as follow says, and its framing is
 * detected from its first bytes, whenever they come.
 */
int stream_open_follow(struct stream *s, const char *path, int cpu,
		       size_t window, struct diag *diag, struct follow *follow);

/*
 * 1: s->rec holds the next record; 0: end of file; < 0: read error.
 * Following a rotated trace's file (s->rotation set, NAME_N.K), its end
 * is not the end: the records go on in the next file of its CPU, when
 * there is one (input/follow.h), its copies stepped over (skip_copies).
 */
int stream_next(struct stream *s);

void stream_close(struct stream *s);

/* Integers of a record, in the stream's byte order. */
static inline uint16_t stream_u16(const struct stream *s, const void *p)
{
	uint16_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return s->swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t stream_u32(const struct stream *s, const void *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return s->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t stream_u64(const struct stream *s, const void *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return s->swap ? __builtin_bswap64(v) : v;
}

#endif
