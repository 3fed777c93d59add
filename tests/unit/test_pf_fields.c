// SPDX-License-Identifier: GPL-2.0
/*
 * pf_fields: the constants the Perfetto export writes fields by
 * (pf_fields.h, made from lket_perfetto.proto by tools/pf-fields.awk)
 * against protoc's own reading of the schema (tests/perfetto/
 * proto-fields.py, into PF_FIELDS_LISTING by the Makefile): every field's
 * number, type and label, every enum value's number, and nothing of the
 * schema left out; the kernel events' table writes each field as its
 * wire type.
 */
#include "unit.h"

#define PF_FIELD_FACTS
#include "output/perfetto/pf.h"

#ifndef PF_FIELDS_LISTING
#error "build with -DPF_FIELDS_LISTING='\"path\"' (see the Makefile)"
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char listing[1 << 16];

/* The listing's line of key ("field Message.name "), its rest in *rest. */
static bool line_of(const char *key, const char **rest)
{
	size_t n = strlen(key);
	const char *p = listing;

	while (p && *p) {
		if (!strncmp(p, key, n)) {
			*rest = p + n;
			return true;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return false;
}

static void test_fields(void **state)
{
	const struct pf_field_fact *f;
	char key[256], type[128], label[32];
	const char *rest, *dot;
	unsigned int lines = 0;
	const char *p;
	int number;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(pf_field_facts); i++) {
		f = &pf_field_facts[i];
		snprintf(key, sizeof(key), "field %s.%s ", f->message,
			 f->field);
		if (!line_of(key, &rest))
			fail_msg("%s: not in protoc's reading of the schema",
				 key);
		assert_int_equal(sscanf(rest, "%d %127s %31s", &number, type,
					label), 3);
		if (number != f->number)
			fail_msg("%s: %d in C, %d in the schema", key,
				 f->number, number);
		/* a message's or enum's type: the name the schema uses */
		dot = strrchr(type, '.');
		assert_string_equal(dot ? dot + 1 : type, f->type);
		assert_string_equal(label, f->label);
	}
	for (p = listing; (p = strstr(p, "field ")); p++)
		lines += p == listing || p[-1] == '\n';
	/* every field of the schema has its constant */
	assert_int_equal(lines, ARRAY_SIZE(pf_field_facts));
}

static void test_enums(void **state)
{
	const struct pf_enum_fact *e;
	const char *rest;
	char key[256];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(pf_enum_facts); i++) {
		e = &pf_enum_facts[i];
		snprintf(key, sizeof(key), "value %s.%s ", e->enumeration,
			 e->value);
		if (!line_of(key, &rest))
			fail_msg("%s: not in protoc's reading", key);
		assert_int_equal(atoi(rest), e->number);
	}
	/* the ones the C code names */
	assert_int_equal(PF_TRACEPACKET_SEQ_INCREMENTAL_STATE_CLEARED, 1);
	assert_int_equal(PF_TRACKEVENT_TYPE_INSTANT, 3);
}

/* The kernel events' fields are written as their conversion says:
 * varints or strings, each as the schema declares it. */
static void test_kernel_table(void **state)
{
	(void)state;
	assert_true(pf_tps_consistent());
}

static int setup(void **state)
{
	FILE *f = fopen(PF_FIELDS_LISTING, "r");
	size_t n;

	(void)state;
	if (!f)
		return -1;
	n = fread(listing, 1, sizeof(listing) - 1, f);
	listing[n] = '\0';
	fclose(f);
	return n ? 0 : -1;
}

UNIT_MAIN("pf_fields", setup, NULL,
	  UNIT_TEST(test_fields), UNIT_TEST(test_enums),
	  UNIT_TEST(test_kernel_table))
