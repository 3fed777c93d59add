// SPDX-License-Identifier: GPL-2.0
/* u64map: keys found after growing, deleted keys gone, others kept. */
#include "unit.h"

#include "util/u64map.h"

static void test_put_find(void **state)
{
	struct u64map m;
	struct u64map_slot *s;
	uint64_t k;

	(void)state;
	assert_int_equal(u64map_init(&m), 0);
	assert_null(u64map_find(&m, 42));
	/* enough keys to grow the table several times, 0 and ~0 among them */
	for (k = 0; k < 10000; k++)
		assert_int_equal(u64map_put(&m, k * 0x9e3779b97f4a7c15ull,
					    (uint32_t)k), 0);
	assert_int_equal(u64map_put(&m, ~0ull, 7), 0);
	for (k = 0; k < 10000; k++) {
		s = u64map_find(&m, k * 0x9e3779b97f4a7c15ull);
		assert_non_null(s);
		assert_int_equal(s->val, (uint32_t)k);
	}
	assert_int_equal(u64map_find(&m, ~0ull)->val, 7);
	/* put of a key there: its value replaced, not a second slot */
	assert_int_equal(u64map_put(&m, ~0ull, 8), 0);
	assert_int_equal(u64map_find(&m, ~0ull)->val, 8);
	u64map_free(&m);
}

static void test_del(void **state)
{
	struct u64map m;
	uint64_t k;

	(void)state;
	assert_int_equal(u64map_init(&m), 0);
	for (k = 1; k <= 1000; k++)
		assert_int_equal(u64map_put(&m, k << 20, (uint32_t)k), 0);
	/* every other key out: the rest stay reachable past the holes */
	for (k = 1; k <= 1000; k += 2)
		u64map_del(&m, u64map_find(&m, k << 20));
	for (k = 1; k <= 1000; k++)
		if (k & 1)
			assert_null(u64map_find(&m, k << 20));
		else
			assert_int_equal(u64map_find(&m, k << 20)->val,
					 (uint32_t)k);
	u64map_free(&m);
}

UNIT_MAIN("u64map", NULL, NULL,
	  UNIT_TEST(test_put_find), UNIT_TEST(test_del))
