/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outbuf.h - buffered output with number formatting that needs no printf.
 *
 * Writers reserve room for a line with outbuf_room(), append to ob->p, and
 * the buffer goes out with one write() when it fills.
 */
#ifndef LKET_OUTBUF_H
#define LKET_OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct outbuf {
	int fd;
	char *buf, *p, *end;
	int error;		/* first write error, negative errno */
	uint64_t written;
};

int outbuf_init(struct outbuf *ob, int fd, size_t size);
/* Write out what is buffered; returns ob->error. */
int outbuf_flush(struct outbuf *ob);
void outbuf_free(struct outbuf *ob);

/* Make *buf, of *size bytes, hold at least n: twice its size, or n if
 * more.  -ENOMEM leaves it as it was. */
int buf_reserve(char **buf, size_t *size, size_t n);

/* printf into the buffer, for what is not on a hot path; text longer
 * than the buffer is cut. */
void outbuf_printf(struct outbuf *ob, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Make sure n bytes fit at ob->p; n must be below the buffer's size. */
static inline int outbuf_room(struct outbuf *ob, size_t n)
{
	if ((size_t)(ob->end - ob->p) >= n)
		return 0;
	return outbuf_flush(ob);
}

static inline void outbuf_mem(struct outbuf *ob, const void *s, size_t n)
{
	memcpy(ob->p, s, n);
	ob->p += n;
}

static inline void outbuf_char(struct outbuf *ob, char c)
{
	*ob->p++ = c;
}

/* Longest output of the formatters below. */
#define OUTBUF_NUM_MAX	24

char *fmt_u64(char *p, uint64_t v);
char *fmt_i64(char *p, int64_t v);
char *fmt_hex(char *p, uint64_t v);	/* "0x..." */
char *fmt_hexdump(char *p, const uint8_t *bytes, size_t len);	/* 2 * len */
char *fmt_u64_pad(char *p, uint64_t v, int width);	/* zero-padded */

/* Append len bytes of s, escaping what would break a line or a field:
 * \" \\ \n \t and \xNN for other control and non-ASCII bytes.  Needs up
 * to 4 * len bytes of room. */
char *fmt_escaped(char *p, const char *s, size_t len, int escape_space);

/* Length of the valid UTF-8 sequence at u (n bytes left), 0 if none:
 * no overlong forms, no surrogates, nothing past U+10FFFF. */
size_t utf8_seq(const unsigned char *u, size_t n);

#define ESC_QUOTE	1	/* '"' as \" too: the text goes in quotes */
#define ESC_DOUBLE	2	/* every other backslash doubled */
/* inside a JSON string, and in PostgreSQL's COPY text format */
#define ESC_JSON	(ESC_QUOTE | ESC_DOUBLE)
#define ESC_COPY	ESC_DOUBLE
/*
 * Strings as JSON, CSV and the databases hold them (lket-b2a(1), VALUE
 * REPRESENTATION): valid UTF-8 text, with no control character in it, from
 * which the bytes can be read back.  Printable characters (valid UTF-8)
 * stay; \\ \n \t, and \xNN for other control characters, DEL, the C1
 * controls' bytes and bytes that are not UTF-8, as lket.out writes them.
 * Needs up to 5 * len bytes of room.
 */
char *fmt_utf8_escaped(char *p, const char *s, size_t len, unsigned int flags);

#endif
