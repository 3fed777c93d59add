// SPDX-License-Identifier: GPL-2.0
/* outbuf: number formatting and escaping, byte for byte. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "util/outbuf.h"

static void check(char *end, char *buf, const char *want)
{
	*end = '\0';
	assert_string_equal(buf, want);
}

static void test_u64(void **state)
{
	char buf[64];

	(void)state;
	check(fmt_u64(buf, 0), buf, "0");
	check(fmt_u64(buf, 9), buf, "9");
	check(fmt_u64(buf, 10), buf, "10");
	check(fmt_u64(buf, 12345), buf, "12345");
	check(fmt_u64(buf, UINT64_MAX), buf, "18446744073709551615");
}

static void test_i64(void **state)
{
	char buf[64];

	(void)state;
	check(fmt_i64(buf, -1), buf, "-1");
	check(fmt_i64(buf, INT64_MIN), buf, "-9223372036854775808");
	check(fmt_i64(buf, 42), buf, "42");
}

static void test_hex_and_pad(void **state)
{
	char buf[64];

	(void)state;
	check(fmt_hex(buf, 0), buf, "0x0");
	check(fmt_hex(buf, 0x7f0012345000ull), buf, "0x7f0012345000");
	check(fmt_u64_pad(buf, 1500, 9), buf, "000001500");
	check(fmt_u64_pad(buf, 999999999, 9), buf, "999999999");
	check(fmt_u64_pad(buf, 0, 9), buf, "000000000");
	check(fmt_u64_pad(buf, 123456789, 9), buf, "123456789");
	check(fmt_u64_pad(buf, 10000000, 9), buf, "010000000");
	check(fmt_u64_pad(buf, 90807, 9), buf, "000090807");
	check(fmt_u64_pad(buf, 1234567, 7), buf, "1234567");
	check(fmt_u64_pad(buf, 42, 4), buf, "0042");
}

/* The 9-digit fast path against printf, across the whole range. */
static void test_pad9_range(void **state)
{
	char buf[32], want[32];
	uint64_t v;

	(void)state;
	for (v = 0; v < 1000000000; v += 7919) {
		snprintf(want, sizeof(want), "%09llu", (unsigned long long)v);
		check(fmt_u64_pad(buf, v, 9), buf, want);
	}
	check(fmt_u64_pad(buf, 999999999, 9), buf, "999999999");
}

static void test_escaped(void **state)
{
	static const char in[] = "a b\"c\\d\n\t\x01\xff";
	char buf[64];

	(void)state;
	check(fmt_escaped(buf, in, sizeof(in) - 1, 0), buf,
	      "a b\\\"c\\\\d\\n\\t\\x01\\xff");
	check(fmt_escaped(buf, "a b", 3, 1), buf, "a\\x20b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_i64),
		cmocka_unit_test(test_hex_and_pad),
		cmocka_unit_test(test_pad9_range),
		cmocka_unit_test(test_escaped),
	};

	return cmocka_run_group_tests_name("outbuf", tests, NULL, NULL);
}
