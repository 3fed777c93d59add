// SPDX-License-Identifier: GPL-2.0
/*
 * outbuf.c - buffered output, and numbers formatted without printf
 * (outbuf.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/outbuf.h"

int outbuf_init(struct outbuf *ob, int fd, size_t size)
{
	ob->fd = fd;
	ob->error = 0;
	ob->written = 0;
	ob->buf = malloc(size);
	if (!ob->buf)
		return -ENOMEM;
	ob->p = ob->buf;
	ob->end = ob->buf + size;
	return 0;
}

int outbuf_flush(struct outbuf *ob)
{
	const char *p = ob->buf;
	ssize_t n;

	while (!ob->error && p < ob->p) {
		n = write(ob->fd, p, (size_t)(ob->p - p));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ob->error = -errno;
			break;
		}
		p += n;
		ob->written += (uint64_t)n;
	}
	ob->p = ob->buf;
	return ob->error;
}

int buf_reserve(char **buf, size_t *size, size_t n)
{
	size_t want = n > 2 * *size ? n : 2 * *size;
	char *bigger;

	if (n <= *size)
		return 0;
	bigger = realloc(*buf, want);
	if (!bigger)
		return -ENOMEM;
	*buf = bigger;
	*size = want;
	return 0;
}

void outbuf_printf(struct outbuf *ob, const char *fmt, ...)
{
	size_t room = (size_t)(ob->end - ob->p);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(ob->p, room, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n >= room && ob->p > ob->buf) {
		outbuf_flush(ob);
		room = (size_t)(ob->end - ob->p);
		va_start(ap, fmt);
		n = vsnprintf(ob->p, room, fmt, ap);
		va_end(ap);
	}
	if (n > 0)
		ob->p += (size_t)n < room ? (size_t)n : room - 1;
}

void outbuf_free(struct outbuf *ob)
{
	free(ob->buf);
	ob->buf = ob->p = ob->end = NULL;
}

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

char *fmt_u64(char *p, uint64_t v)
{
	char tmp[20], *t = tmp + sizeof(tmp);
	size_t n;

	while (v >= 100) {
		t -= 2;
		memcpy(t, digit_pairs + (v % 100) * 2, 2);
		v /= 100;
	}
	if (v >= 10) {
		t -= 2;
		memcpy(t, digit_pairs + v * 2, 2);
	} else {
		*--t = (char)('0' + v);
	}
	n = (size_t)(tmp + sizeof(tmp) - t);
	memcpy(p, t, n);
	return p + n;
}

char *fmt_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return fmt_u64(p, 0 - (uint64_t)v);
	}
	return fmt_u64(p, (uint64_t)v);
}

char *fmt_hex(char *p, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16], *t = tmp + sizeof(tmp);
	size_t n;

	do {
		*--t = hex[v & 15];
		v >>= 4;
	} while (v);
	*p++ = '0';
	*p++ = 'x';
	n = (size_t)(tmp + sizeof(tmp) - t);
	memcpy(p, t, n);
	return p + n;
}

char *fmt_hexdump(char *p, const uint8_t *bytes, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		*p++ = hex[bytes[i] >> 4];
		*p++ = hex[bytes[i] & 15];
	}
	return p;
}

/*
 * The nanoseconds of every time stamp: 32-bit divisions by constants,
 * independent of each other, rather than a chain of 64-bit ones.
 */
static char *fmt_nanoseconds(char *p, uint32_t v)
{
	uint32_t rest = v % 10000000;

	memcpy(p, digit_pairs + (v / 10000000) * 2, 2);
	memcpy(p + 2, digit_pairs + (rest / 100000) * 2, 2);
	memcpy(p + 4, digit_pairs + (rest / 1000 % 100) * 2, 2);
	memcpy(p + 6, digit_pairs + (rest / 10 % 100) * 2, 2);
	p[8] = (char)('0' + rest % 10);
	return p + 9;
}

char *fmt_u64_pad(char *p, uint64_t v, int width)
{
	char *q = p + width;

	if (width == 9 && v < 1000000000)
		return fmt_nanoseconds(p, (uint32_t)v);

	while (q - p >= 2) {
		q -= 2;
		memcpy(q, digit_pairs + (v % 100) * 2, 2);
		v /= 100;
	}
	if (q > p)
		*--q = (char)('0' + v % 10);
	return p + width;
}

/* 1: the byte must be escaped (or is a space, escaped on request) */
static const unsigned char escape_class[256] = {
	[0 ... 0x20] = 1, ['"'] = 1, ['\\'] = 1, [0x7f ... 0xff] = 1,
};

char *fmt_escaped(char *p, const char *s, size_t len, int escape_space)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, run;

	while (i < len) {
		/* a run of bytes that go out as they are */
		for (run = i; run < len && !escape_class[u[run]]; run++)
			;
		memcpy(p, u + i, run - i);
		p += run - i;
		if (run == len)
			break;
		i = run;
		unsigned char c = u[i++];

		if (c == ' ' && !escape_space) {
			*p++ = ' ';
		} else if (c == '"' || c == '\\') {
			*p++ = '\\';
			*p++ = (char)c;
		} else if (c == '\n') {
			*p++ = '\\';
			*p++ = 'n';
		} else if (c == '\t') {
			*p++ = '\\';
			*p++ = 't';
		} else {
			*p++ = '\\';
			*p++ = 'x';
			*p++ = hex[c >> 4];
			*p++ = hex[c & 15];
		}
	}
	return p;
}

size_t utf8_seq(const unsigned char *u, size_t n)
{
	unsigned char c = u[0], lo = 0x80, hi = 0xbf;
	size_t len, k;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	/* the second byte's range rules out overlongs and surrogates */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || u[1] < lo || u[1] > hi)
		return 0;
	for (k = 2; k < len; k++)
		if ((u[k] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* 1: not a printable ASCII character that stands for itself */
static const unsigned char utf8_escape_class[256] = {
	[0 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1, [0x7f ... 0xff] = 1,
};

char *fmt_utf8_escaped(char *p, const char *s, size_t len, unsigned int flags)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, run, n;
	unsigned char c;

	while (i < len) {
		for (run = i; run < len && !utf8_escape_class[u[run]]; run++)
			;
		memcpy(p, u + i, run - i);
		p += run - i;
		if (run == len)
			break;
		i = run;
		c = u[i];
		if (c == '"') {
			if (flags & ESC_QUOTE)
				*p++ = '\\';
			*p++ = '"';
			i++;
			continue;
		}
		/* C1 controls (U+0080..U+009F) are escaped like C0 ones */
		n = c >= 0x80 && !(c == 0xc2 && i + 1 < len && u[i + 1] < 0xa0) ?
		    utf8_seq(u + i, len - i) : 0;
		if (n) {
			memcpy(p, u + i, n);
			p += n;
			i += n;
			continue;
		}
		*p++ = '\\';
		if (flags & ESC_DOUBLE)
			*p++ = '\\';
		if (c == '\\') {
			*p++ = '\\';
			if (flags & ESC_DOUBLE)
				*p++ = '\\';
		} else if (c == '\n') {
			*p++ = 'n';
		} else if (c == '\t') {
			*p++ = 't';
		} else {
			*p++ = 'x';
			*p++ = hex[c >> 4];
			*p++ = hex[c & 15];
		}
		i++;
	}
	return p;
}
