// SPDX-License-Identifier: GPL-2.0
/*
 * u64map.c - a map from 64-bit keys to 32-bit values, open addressing
 * (u64map.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "util/u64map.h"

static size_t hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k;
}

int u64map_init(struct u64map *m)
{
	m->mask = 255;
	m->used = 0;
	m->s = calloc(m->mask + 1, sizeof(*m->s));
	return m->s ? 0 : -ENOMEM;
}

void u64map_free(struct u64map *m)
{
	free(m->s);
	m->s = NULL;
	m->used = 0;
}

struct u64map_slot *u64map_find(const struct u64map *m, uint64_t key)
{
	size_t i = hash64(key) & m->mask;

	for (; m->s[i].used; i = (i + 1) & m->mask)
		if (m->s[i].key == key)
			return &m->s[i];
	return NULL;
}

int u64map_put(struct u64map *m, uint64_t key, uint32_t val)
{
	struct u64map bigger;
	size_t i;

	if (2 * (m->used + 1) > m->mask) {
		bigger.mask = 2 * m->mask + 1;
		bigger.used = 0;
		bigger.s = calloc(bigger.mask + 1, sizeof(*bigger.s));
		if (!bigger.s)
			return -ENOMEM;
		for (i = 0; i <= m->mask; i++)
			if (m->s[i].used)
				u64map_put(&bigger, m->s[i].key, m->s[i].val);
		free(m->s);
		*m = bigger;
	}
	i = hash64(key) & m->mask;
	while (m->s[i].used && m->s[i].key != key)
		i = (i + 1) & m->mask;
	if (!m->s[i].used)
		m->used++;
	m->s[i].key = key;
	m->s[i].val = val;
	m->s[i].used = true;
	return 0;
}

void u64map_del(struct u64map *m, struct u64map_slot *slot)
{
	size_t i = (size_t)(slot - m->s), j = i, k;

	m->s[i].used = false;
	m->used--;
	for (;;) {
		j = (j + 1) & m->mask;
		if (!m->s[j].used)
			return;
		k = hash64(m->s[j].key) & m->mask;
		/* stays if its home k lies cyclically in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		m->s[i] = m->s[j];
		m->s[j].used = false;
		i = j;
	}
}
