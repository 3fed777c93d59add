// SPDX-License-Identifier: GPL-2.0
/* diag: reports counted by level, formatted, and to no sink at all. */
#include "unit.h"

static void test_counts(void **state)
{
	struct diag_log log;
	char longer[6000];

	(void)state;
	diag_log_init(&log);
	diagf(&log.d, DIAG_DAMAGE, "t_0", 24, "record %u:%u cut", 3, 5);
	diagf(&log.d, DIAG_NOTE, NULL, -1, "empty");
	assert_int_equal(log.d.damage, 1);
	assert_int_equal(log.d.notes, 1);
	assert_diag(&log, 0, DIAG_DAMAGE, "t_0", 24, "record 3:5 cut");
	assert_diag(&log, 1, DIAG_NOTE, "", -1, "empty");
	/* no fixed buffer cuts a message, however long */
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	diagf(&log.d, DIAG_NOTE, "t_1", 0, "%s: the end", longer);
	assert_int_equal(strlen(log.e[2].msg), sizeof(longer) - 1 + 9);
	assert_string_equal(log.e[2].msg + sizeof(longer) - 1, ": the end");
}

/* A message kept for later (an output's error()): whole, and replaced
 * by the next one. */
static void test_text(void **state)
{
	char longer[3000], *text = NULL;

	(void)state;
	memset(longer, 'y', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	assert_int_equal(text_printf(&text, "--ctf %s: %s", longer, "gone"),
			 0);
	assert_int_equal(strlen(text), 6 + sizeof(longer) - 1 + 6);
	assert_string_equal(text + strlen(text) - 6, ": gone");
	assert_int_equal(text_printf(&text, "%d", 7), 0);
	assert_string_equal(text, "7");
	free(text);
}

static void test_no_sink(void **state)
{
	struct diag d = { 0 };

	(void)state;
	/* counted all the same: the exit status depends on it */
	diagf(&d, DIAG_DAMAGE, "t_0", 0, "garbage");
	diagf(&d, DIAG_DAMAGE, "t_0", 8, "garbage");
	assert_int_equal(d.damage, 2);
	assert_int_equal(d.notes, 0);
}

UNIT_MAIN("diag", NULL, NULL,
	  UNIT_TEST(test_counts), UNIT_TEST(test_text),
	  UNIT_TEST(test_no_sink))
