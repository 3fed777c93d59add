/* txcheck: check the per-CPU bulk files written by the txstress module.
 *
 *   txcheck NBEGIN NWORK FILE...
 *
 * Each file must be a clean stream of frames {u32 sequence; u32 pdu_len}
 * + one txstress record, or several of kind 4 (see txstress.stp); from
 * SystemTap 5.0 each frame header starts with the magic F0 9F A9 BA
 * (taken from the file's first bytes: a file is all of one kind).
 * Reports frames, frames that
 * do not parse (then resyncs on the next plausible frame), sequence gaps
 * (each CPU numbers its own frames from 1: the runtime patch
 * 30-per-cpu-frames.patch), missing record indexes, and whether the
 * trailer (end probe) arrived.  Exit 0 when everything is there and clean, 1 otherwise,
 * 2 on usage or I/O errors.  One summary line on stdout:
 *   frames=F bad=B junk_bytes=J seq_max=S seq_missing=G idx_missing=I
 *   begin=NB/NBEGIN work=NW/NWORK trailer=yes|no tail_missing=T
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC 0x5854544cu
#define MAXN (1u << 22)

static unsigned char *idxseen;
/* bytes of SystemTap 5's magic in front of each frame header: 0 or 4 */
static size_t mlen;
static const unsigned char stap5_magic[4] = { 0xf0, 0x9f, 0xa9, 0xba };

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static uint16_t rd16(const unsigned char *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}

/* Is there a valid record at p (n bytes left)?  Returns its size or 0. */
static size_t record_ok(const unsigned char *p, size_t n)
{
	uint32_t len, idx, i;

	if (n < 16)
		return 0;
	len = rd32(p + 8);
	if (len < 16 || len > n || rd32(p) != MAGIC || rd16(p + 12) < 1 || rd16(p + 12) > 4)
		return 0;
	idx = rd32(p + 4);
	for (i = 16; i < len; i++)
		if (p[i] != (unsigned char)(idx * 7 + i))
			return 0;
	return len;
}

/* Is there a valid frame at p (n bytes left): its payload one record, or
 * (kind 4, written in place) records of that kind end to end?  Returns
 * its size or 0. */
static size_t frame_ok(const unsigned char *p, size_t n)
{
	size_t len, off, r;

	if (n < mlen + 8 + 16)
		return 0;
	if (mlen && memcmp(p, stap5_magic, mlen))
		return 0;
	p += mlen;
	n -= mlen;
	len = rd32(p + 4);
	if (len < 16 || len > 65536 || 8 + len > n)
		return 0;
	for (off = 8; off < 8 + len; off += r) {
		r = record_ok(p + off, 8 + len - off);
		if (!r || (off > 8 && rd16(p + off + 12) != 4))
			return 0;
	}
	return mlen + 8 + len;
}

int main(int argc, char **argv)
{
	unsigned long frames = 0, bad = 0, junk = 0, nbeg = 0, nwork = 0;
	unsigned long want_beg, want_work, seq_missing = 0, idx_missing = 0, tail_missing = 0;
	uint32_t seq_max = 0, idx_max = 0, trailer = 0;
	int have_trailer = 0, a;

	if (argc < 4) {
		fprintf(stderr, "usage: txcheck NBEGIN NWORK FILE...\n");
		return 2;
	}
	want_beg = strtoul(argv[1], NULL, 0);
	want_work = strtoul(argv[2], NULL, 0);
	idxseen = calloc(MAXN, 1);
	if (!idxseen)
		return 2;

	for (a = 3; a < argc; a++) {
		FILE *f = fopen(argv[a], "rb");
		unsigned char *buf;
		long sz;
		size_t off = 0, n;
		uint32_t seq_next = 1;	/* this file's next frame */
		int inbad = 0;

		if (!f || fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
			perror(argv[a]);
			return 2;
		}
		buf = malloc(sz + 1);
		if (!buf || fread(buf, 1, sz, f) != (size_t)sz) {
			perror(argv[a]);
			return 2;
		}
		fclose(f);
		mlen = sz >= 4 && !memcmp(buf, stap5_magic, 4) ? 4 : 0;
		while (off < (size_t)sz) {
			n = frame_ok(buf + off, sz - off);
			if (!n) {
				if (!inbad) {
					bad++;
					fprintf(stderr, "txcheck: %s: offset %zu: bad frame (seq %u len %u)\n",
						argv[a], off, sz - off >= mlen + 8 ? rd32(buf + off + mlen) : 0,
						sz - off >= mlen + 8 ? rd32(buf + off + mlen + 4) : 0);
				}
				inbad = 1;
				junk++;
				off++;
				continue;
			}
			inbad = 0;
			frames++;
			{
				const unsigned char *fr = buf + off + mlen;
				uint32_t seq = rd32(fr);
				size_t r;

				if (seq != seq_next) {
					fprintf(stderr, "txcheck: %s: offset %zu: frame %u, expected %u\n",
						argv[a], off, seq, seq_next);
					if (seq > seq_next)
						seq_missing += seq - seq_next;
					else
						bad++;	/* out of order */
				}
				if (seq >= seq_next)
					seq_next = seq + 1;
				if (seq > seq_max)
					seq_max = seq;
				for (r = 8; r < n - mlen; r += rd32(fr + r + 8)) {
					uint32_t idx = rd32(fr + r + 4);
					unsigned kind = rd16(fr + r + 12);

					if (idx < MAXN) {
						idxseen[idx] = 1;
						if (idx > idx_max)
							idx_max = idx;
					}
					if (kind == 1)
						nbeg++;
					else if (kind == 3) {
						have_trailer = 1;
						trailer = idx;
					} else
						nwork++;
				}
			}
			off += n;
		}
		free(buf);
	}

	{
		/* All records up to the trailer (or the highest seen) must be
		 * there; without a trailer the tail cannot be counted here, but
		 * the begin/work counts still show it. */
		uint32_t top = have_trailer ? trailer : idx_max;

		for (uint32_t i = 0; i <= top; i++)
			if (!idxseen[i])
				idx_missing++;
	}
	tail_missing = (want_beg + want_work + 1) - (nbeg + nwork + have_trailer);
	if (nbeg + nwork + have_trailer > want_beg + want_work + 1)
		tail_missing = 0;
	printf("frames=%lu bad=%lu junk_bytes=%lu seq_max=%u seq_missing=%lu idx_missing=%lu "
	       "begin=%lu/%lu work=%lu/%lu trailer=%s lost_records=%lu\n",
	       frames, bad, junk, seq_max, seq_missing, idx_missing, nbeg, want_beg,
	       nwork, want_work, have_trailer ? "yes" : "no", tail_missing);
	return (bad || junk || seq_missing || idx_missing || nbeg != want_beg ||
		nwork != want_work || !have_trailer) ? 1 : 0;
}
