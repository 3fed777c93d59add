// SPDX-License-Identifier: GPL-2.0
/*
 * options: the command line into what a run asks for; the registry's
 * outputs by their options, the defaults that follow, and what is
 * refused.  usage: each output's help in the registry's order.
 */
#include "unit.h"

#include <getopt.h>

#include "cli/options.h"
#include "cli/usage.h"

/* The registry index of the output with long option name. */
static size_t decl(const char *name)
{
	size_t i;

	for (i = 0; i < output_registry_size; i++)
		if (!strcmp(output_registry[i]->option, name))
			return i;
	fail_msg("no output --%s", name);
	return 0;
}

/* Parse argv (NULL-terminated, after the program's name). */
static int parse(struct options *o, char **args)
{
	char *argv[16] = { "lket-b2a" };
	struct diag d = { 0 };
	int argc = 1;

	while (args[argc - 1]) {
		argv[argc] = args[argc - 1];
		argc++;
	}
	options_init(o);
	optind = 0;	/* getopt from the start, its state reset */
	return options_parse(argc, argv, o, &d);
}

static void test_outputs(void **state)
{
	char *args[] = { "-f", "json", "-d", "x.db", "--pg", "dbname=x",
			 "--timechart", "t.svg", "-q", "my_trace_0", NULL };
	struct options o;

	(void)state;
	assert_int_equal(parse(&o, args), -1);
	/* -f alone asks for the line output: under its format's name */
	assert_string_equal(o.paths[decl("output")], "lket.json");
	assert_string_equal(o.paths[decl("db")], "x.db");
	assert_string_equal(o.paths[decl("pg")], "dbname=x");
	assert_string_equal(o.paths[decl("timechart")], "t.svg");
	assert_null(o.paths[decl("ctf")]);
	assert_true(o.quiet);
	/* the schema named after the trace */
	assert_string_equal(o.set.schema, "my_trace");
	assert_int_equal(o.set.timechart_procs, TIMECHART_PROCS);
	options_free(&o);
}

static void test_fallback(void **state)
{
	char *db[] = { "-d", "x.db", NULL }, *none[] = { NULL };
	char *both[] = { "-d", "x.db", "-o", "out", NULL };
	struct options o;

	(void)state;
	/* a database alone writes no lket.out */
	assert_int_equal(parse(&o, db), -1);
	assert_null(o.paths[decl("output")]);
	options_free(&o);
	assert_int_equal(parse(&o, none), -1);
	assert_string_equal(o.paths[decl("output")], "lket.out");
	options_free(&o);
	assert_int_equal(parse(&o, both), -1);
	assert_string_equal(o.paths[decl("output")], "out");
	options_free(&o);
}

/*
 * One rule for every output but -o's, the registry's and the reports
 * alike: given alone, it writes no lket.out; -o or -f asks for it.
 * --stat's summary goes to standard output unless -o names a file.
 */
static void test_report_alone(void **state)
{
	static char *alone[][3] = {
		{ "-d", "x.db" }, { "--ctf", "c" }, { "--timechart", "t.svg" },
		{ "--histogram", "h.svg" }, { "--report", "r" },
		{ "--rpc-report", "rpc" }, { "--offcpu", "o" },
		{ "--offcpu-folded", "f" }, { "--critical-path", "7" },
	};
	char *stat[] = { "--stat", NULL }, *stat_o[] = { "--stat", "-o", "s", NULL };
	char *with_f[] = { "--report", "r", "-f", "text", NULL };
	struct options o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(alone) / sizeof(alone[0]); i++) {
		assert_int_equal(parse(&o, alone[i]), -1);
		if (o.paths[decl("output")])
			fail_msg("%s alone writes %s", alone[i][0],
				 o.paths[decl("output")]);
		options_free(&o);
	}
	assert_int_equal(parse(&o, stat), -1);
	assert_string_equal(o.paths[decl("output")], "-");
	options_free(&o);
	assert_int_equal(parse(&o, stat_o), -1);
	assert_string_equal(o.paths[decl("output")], "s");
	options_free(&o);
	assert_int_equal(parse(&o, with_f), -1);
	assert_string_equal(o.paths[decl("output")], "lket.out");
	options_free(&o);
}

static void test_refused(void **state)
{
	char *stat_json[] = { "--stat", "-f", "json", NULL };
	char *pictures[] = { "--timechart", "-", "--histogram", "-", NULL };
	char *procs[] = { "--timechart-procs", "0", NULL };
	struct options o;

	(void)state;
	assert_int_equal(parse(&o, stat_json), 2);
	options_free(&o);
	assert_int_equal(parse(&o, pictures), 2);
	options_free(&o);
	assert_int_equal(parse(&o, procs), 2);
	options_free(&o);
}

static void test_usage(void **state)
{
	char *text = NULL, *at;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	usage_print(f);
	fclose(f);
	/* every output's help, in the registry's order */
	at = text;
	for (i = 0; i < output_registry_size; i++) {
		at = strstr(at, output_registry[i]->help);
		assert_non_null(at);
	}
	assert_non_null(strstr(text, "Exit status: 0 all converted"));
	/* what it makes, said first: every kind of output */
	at = strstr(text, "Output:");
	assert_non_null(at);
	*at = '\0';
	assert_non_null(strstr(text, "CTF"));
	assert_non_null(strstr(text, "SVG"));
	assert_non_null(strstr(text, "SQLite"));
	free(text);
}

UNIT_MAIN("options", NULL, NULL,
	  UNIT_TEST(test_outputs), UNIT_TEST(test_fallback),
	  UNIT_TEST(test_report_alone),
	  UNIT_TEST(test_refused), UNIT_TEST(test_usage))
