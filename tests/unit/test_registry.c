// SPDX-License-Identifier: GPL-2.0
/*
 * registry: every output declared once and completely, no option twice,
 * and an output that lacks an op every output must have refused.
 */
#include "unit.h"
#include "log_output.h"

#include "output/registry.h"

static void test_declarations(void **state)
{
	const struct output_decl *d, *e;
	size_t i, j;

	(void)state;
	assert_true(output_registry_size > 0);
	assert_true(output_registry_size <= OUTPUTS_MAX);
	for (i = 0; i < output_registry_size; i++) {
		d = output_registry[i];
		assert_non_null(d->option);
		assert_non_null(d->arg);
		assert_non_null(d->create);
		/* its help names its option */
		assert_non_null(d->help);
		assert_non_null(strstr(d->help, d->option));
		for (j = 0; j < i; j++) {
			e = output_registry[j];
			assert_string_not_equal(d->option, e->option);
			assert_false(d->letter && d->letter == e->letter);
		}
	}
}

static void test_names(void **state)
{
	const struct output_decl with = { .option = "db", .letter = 'd' };
	const struct output_decl without = { .option = "ctf" };
	char buf[16];

	(void)state;
	assert_string_equal(output_decl_name(&with, buf, sizeof(buf)), "-d");
	assert_string_equal(output_decl_name(&without, buf, sizeof(buf)),
			    "--ctf");
}

/* Every registered output, made into /dev/null, has the ops. */
static void test_outputs_complete(void **state)
{
	const struct output_settings set = {
		.format = "text", .schema = "s", .timechart_procs = 4,
	};
	struct output_args a = { .path = "/nonexistent/x", .set = &set };
	struct output *o;
	size_t i;

	(void)state;
	a.fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	assert_true(a.fd >= 0);
	a.file = "/nonexistent/x";
	for (i = 0; i < output_registry_size; i++) {
		assert_int_equal(output_decl_create(output_registry[i], &a,
						    &o), 0);
		assert_true(output_ops_complete(o->ops));
		o->ops->free(o);
	}
	close(a.fd);
}

/* A toy output that forgot its lost op: the log output's ops but that. */
static struct output_ops partial_ops;
static struct log_output toy;

static int toy_create(struct output **o, const struct output_args *a)
{
	(void)a;
	partial_ops = log_ops_bare;
	partial_ops.lost = NULL;
	log_output_init(&toy, &partial_ops);
	*o = &toy.o;
	return 0;
}

static void test_incomplete_refused(void **state)
{
	const struct output_decl d = { .option = "toy", .create = toy_create };
	const struct output_args a = { 0 };
	struct output *o = NULL;

	(void)state;
	assert_int_equal(output_decl_create(&d, &a, &o), -ENOSYS);
	assert_null(o);
	/* freed by the registry, which made it */
	assert_true(toy.freed);
	assert_false(output_ops_complete(&partial_ops));
}

UNIT_MAIN("registry", NULL, NULL,
	  UNIT_TEST(test_declarations), UNIT_TEST(test_names),
	  UNIT_TEST(test_outputs_complete), UNIT_TEST(test_incomplete_refused))
