// SPDX-License-Identifier: GPL-2.0
/*
 * inputs: arguments to files (a prefix, a folder, LABEL=TRACE), and what
 * several hosts' traces refuse.  outfiles: the files a run writes put in
 * place only when committed, and a clash refused before any is made.
 */
#include "unit.h"

#include <pthread.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/inputs.h"
#include "cli/options.h"
#include "cli/outfiles.h"

static const uint8_t nothing[1];

static void collect(struct inputs *in, char **args, int want)
{
	char *argv[8] = { "lket-b2a" };
	int argc = 1;

	while (args[argc - 1]) {
		argv[argc] = args[argc - 1];
		argc++;
	}
	*in = (struct inputs){ 0 };
	assert_int_equal(inputs_collect(argc, argv, 1, in), want);
}

static void test_prefix_and_folder(void **state)
{
	char path[PATH_MAX_UNIT], prefix[PATH_MAX_UNIT];
	char *args[] = { prefix, NULL }, *dir[] = { unit_dir, NULL };
	struct inputs in;

	(void)state;
	unit_write(path, sizeof(path), "tr_1", nothing, 0);
	unit_write(path, sizeof(path), "tr_0", nothing, 0);
	snprintf(prefix, sizeof(prefix), "%s/tr", unit_dir);
	collect(&in, args, -1);
	assert_int_equal(in.n, 2);
	/* in CPU order */
	assert_non_null(strstr(in.paths[0], "tr_0"));
	assert_non_null(strstr(in.paths[1], "tr_1"));
	assert_int_equal(in.nhosts, 0);
	inputs_free(&in);
	collect(&in, dir, -1);
	assert_int_equal(in.n, 2);
	inputs_free(&in);
}

/*
 * A rotated trace's files (NAME_N.K): a prefix and a folder stand for
 * all of them, each CPU's in file order (10 after 9), beside no other.
 */
static void test_rotated(void **state)
{
	static const char *const made[] = { "rt_1.9", "rt_0.10", "rt_0.9",
					    "rt_1.10", "rt_0.x", "rt_0." };
	static const char *const want[] = { "rt_0.9", "rt_0.10", "rt_1.9",
					    "rt_1.10" };
	char path[PATH_MAX_UNIT], prefix[PATH_MAX_UNIT + 8], sub[PATH_MAX_UNIT];
	char name[64];
	char *args[] = { prefix, NULL }, *dir[] = { sub, NULL };
	struct inputs in;
	size_t i;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/rot", unit_dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(name, sizeof(name), "rot/%s", made[i]);
		unit_write(path, sizeof(path), name, nothing, 0);
	}
	snprintf(prefix, sizeof(prefix), "%s/rt", sub);
	collect(&in, args, -1);
	assert_int_equal(in.n, 4);
	for (i = 0; i < in.n; i++)
		assert_string_equal(strrchr(in.paths[i], '/') + 1, want[i]);
	inputs_free(&in);
	collect(&in, dir, -1);
	assert_int_equal(in.n, 4);
	for (i = 0; i < in.n; i++)
		assert_string_equal(strrchr(in.paths[i], '/') + 1, want[i]);
	inputs_free(&in);
}

/* The tracer, late: CPU 1's file after 150 ms, CPU 0's right after. */
static void *late_tracer(void *arg)
{
	struct timespec t = { 0, 150000000 };
	char path[PATH_MAX_UNIT];

	(void)arg;
	nanosleep(&t, NULL);
	unit_write(path, sizeof(path), "late_1", nothing, 0);
	unit_write(path, sizeof(path), "late_0", nothing, 0);
	return NULL;
}

/* --follow before the tracer: the prefix names no file until it comes,
 * then every CPU's */
static void test_await(void **state)
{
	char prefix[PATH_MAX_UNIT];
	char *argv[] = { "lket-b2a", prefix, NULL };
	struct inputs in = { 0 };
	pthread_t t;

	(void)state;
	snprintf(prefix, sizeof(prefix), "%s/late", unit_dir);
	assert_int_equal(inputs_collect(2, argv, 1, &in), -1);
	assert_int_equal(in.n, 1);	/* the prefix itself: no file yet */
	assert_int_equal(pthread_create(&t, NULL, late_tracer, NULL), 0);
	assert_int_equal(inputs_await(2, argv, 1, &in, true), -1);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(in.n, 2);
	assert_non_null(strstr(in.paths[0], "late_0"));
	assert_non_null(strstr(in.paths[1], "late_1"));
	inputs_free(&in);
}

static void test_labels(void **state)
{
	char a[2 * PATH_MAX_UNIT], b[2 * PATH_MAX_UNIT], path[PATH_MAX_UNIT];
	char *args[] = { a, b, NULL }, *half[] = { a, path, NULL };
	struct options o;
	struct inputs in;

	(void)state;
	unit_write(path, sizeof(path), "ha_0", nothing, 0);
	snprintf(a, sizeof(a), "client=%s", path);
	unit_write(path, sizeof(path), "hb_0", nothing, 0);
	snprintf(b, sizeof(b), "server=%s", path);
	collect(&in, args, -1);
	assert_int_equal(in.nhosts, 2);
	assert_string_equal(in.labels[0], "client");
	assert_string_equal(in.labels[in.host_of[1]], "server");
	options_init(&o);
	assert_int_equal(inputs_check_hosts(&o, &in), -1);
	assert_true(o.set.text.hosts);
	/* --stat takes one trace */
	o.set.summary = true;
	assert_int_equal(inputs_check_hosts(&o, &in), 2);
	options_free(&o);
	inputs_free(&in);
	/* a label on one trace only */
	collect(&in, half, 2);
	inputs_free(&in);
}

static void test_outfiles(void **state)
{
	char in0[PATH_MAX_UNIT], out[PATH_MAX_UNIT];
	char *paths[] = { in0 };
	struct inputs in = { .paths = paths, .n = 1 };
	struct outfiles fs;
	struct options o;
	const char *what = NULL;
	bool refused;
	struct stat st;

	(void)state;
	unit_write(in0, sizeof(in0), "in_0", nothing, 0);
	snprintf(out, sizeof(out), "%s/out.txt", unit_dir);
	options_init(&o);
	o.report_path = out;
	assert_int_equal(outfiles_open(&fs, &o, &in, &what, &refused), 0);
	assert_false(refused);
	assert_int_equal(write(outfiles_fd(&fs, fs.report), "r\n", 2), 2);
	/* written beside, not yet in place */
	assert_int_not_equal(stat(out, &st), 0);
	assert_int_equal(outfiles_commit(&fs, false, &what), 0);
	outfiles_discard(&fs);
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_size, 2);
	/* the report onto the input: refused, nothing opened */
	o.report_path = in0;
	assert_int_equal(outfiles_open(&fs, &o, &in, &what, &refused),
			 -EINVAL);
	assert_true(refused);
	outfiles_discard(&fs);
	options_free(&o);
}

UNIT_MAIN("inputs", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_prefix_and_folder), UNIT_TEST(test_rotated),
	  UNIT_TEST(test_await),
	  UNIT_TEST(test_labels),
	  UNIT_TEST(test_outfiles))
