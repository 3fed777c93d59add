// SPDX-License-Identifier: GPL-2.0
/*
 * pbwire.c - the protocol buffers writer's buffer and its nested
 * messages' lengths (pbwire.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "util/pbwire.h"

int pb_init(struct pbuf *b, size_t cap)
{
	memset(b, 0, sizeof(*b));
	b->buf = malloc(cap ? cap : 1);
	if (!b->buf)
		return -ENOMEM;
	b->cap = cap ? cap : 1;
	return 0;
}

void pb_free(struct pbuf *b)
{
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

int pb_grow(struct pbuf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 64;
	uint8_t *bigger;

	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	bigger = realloc(b->buf, cap);
	if (!bigger)
		return -ENOMEM;
	b->buf = bigger;
	b->cap = cap;
	return 0;
}

int pb_close_long(struct pbuf *b)
{
	size_t start = b->open[--b->depth], len = b->len - start;
	size_t n = pb_varint_size(len);
	int ret;

	if (n > 1) {
		/* the body moves up by the length's bytes past the one kept */
		ret = pb_reserve(b, n - 1);
		if (ret) {
			b->depth++;
			return ret;
		}
		memmove(b->buf + start + n - 1, b->buf + start, len);
		b->len += n - 1;
	}
	pb_put_varint(b->buf + start - 1, len);
	return 0;
}

int pb_close_all(struct pbuf *b)
{
	int ret = 0;

	while (!ret && b->depth)
		ret = pb_close(b);
	return ret;
}
