// SPDX-License-Identifier: GPL-2.0
/* svg: text made safe for XML, durations, wall-clock times, axis steps. */
#include "unit.h"

#include "output/chart/svg.h"

static void test_svg_text(void **state)
{
	char out[SVG_TEXT_ROOM(32)], d[32];

	(void)state;
	svg_text(out, sizeof(out), "a<b>&\"c'\x01 caf\xc3\xa9 \xff", 32);
	assert_string_equal(out,
		"a&lt;b&gt;&amp;&quot;c&apos;\\x01 caf\xc3\xa9 \\xff");
	/* cut where it fits, never inside an entity */
	svg_text(out, 8, "<<<", 3);
	assert_string_equal(out, "&lt;");
	svg_duration(d, sizeof(d), 850);
	assert_string_equal(d, "850 ns");
	svg_duration(d, sizeof(d), 12500);
	assert_string_equal(d, "12.5 us");
	svg_duration(d, sizeof(d), 3200000);
	assert_string_equal(d, "3.20 ms");
	svg_wall(d, sizeof(d), 1764421205000001000ll);
	assert_string_equal(d, "2025-11-29 13:00:05.000001 UTC");
	/* unsigned ns since 1970: past 2^63 is 2262, not before 1970 */
	svg_wall(d, sizeof(d), 9223372040854776000ull);
	assert_string_equal(d, "2262-04-11 23:47:20.854776 UTC");
	assert_int_equal(svg_tick_step(5130000, 10), 500000);
	assert_int_equal(svg_tick_step(1000, 10), 100);
	assert_int_equal(svg_tick_step(3000, 10), 500);
}

UNIT_MAIN("svg", NULL, NULL,
	  UNIT_TEST(test_svg_text))
