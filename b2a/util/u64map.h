/* SPDX-License-Identifier: GPL-2.0 */
/*
 * u64map.h - a map from 64-bit keys to 32-bit values: open addressing,
 * linear probing, deletion by shifting back (no tombstones).  The latency
 * report and the timechart keep their threads and requests in it.
 */
#ifndef LKET_U64MAP_H
#define LKET_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64map_slot {
	uint64_t key;
	uint32_t val;
	bool used;
};

struct u64map {
	struct u64map_slot *s;
	size_t mask, used;
};

int u64map_init(struct u64map *m);
void u64map_free(struct u64map *m);
/* NULL if key is not there. */
struct u64map_slot *u64map_find(const struct u64map *m, uint64_t key);
/* Set key to val, growing the table as needed. */
int u64map_put(struct u64map *m, uint64_t key, uint32_t val);
/* Remove a slot u64map_find() returned. */
void u64map_del(struct u64map *m, struct u64map_slot *slot);

#endif
