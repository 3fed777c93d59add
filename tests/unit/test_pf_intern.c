// SPDX-License-Identifier: GPL-2.0
/*
 * pf_intern: a name interned once per kind and generation, its entry in
 * the packet's InternedData; call stacks outermost frame first, a frame
 * and a stack interned once, an unknown frame named by its address; past
 * the tables' size a new generation that says so and starts again.
 */
#include "pf_fixture.h"

/* The pending InternedData's entries of field num. */
static unsigned int pending(const struct pf_intern *in, uint32_t num)
{
	return pbr_count(in->pending.buf, in->pending.len, num);
}

static void test_strings(void **state)
{
	struct pf_intern in;
	uint64_t a, b, c, d;
	struct pbf f, m = { 0 };

	(void)state;
	assert_int_equal(pf_intern_init(&in), 0);
	assert_true(in.cleared);
	pf_intern_packet(&in);
	assert_int_equal(pf_intern_string(&in, PF_IN_NAME, "open", 4, &a), 0);
	assert_int_equal(pf_intern_string(&in, PF_IN_NAME, "open", 4, &b), 0);
	assert_int_equal(pf_intern_string(&in, PF_IN_CAT, "open", 4, &c), 0);
	assert_int_equal(pf_intern_string(&in, PF_IN_ARG, "fd", 2, &d), 0);
	assert_int_equal(a, b);
	assert_true(a != c && c != d && a && c && d);
	assert_int_equal(pending(&in, PF_INTERNEDDATA_EVENT_NAMES), 1);
	assert_int_equal(pending(&in, PF_INTERNEDDATA_EVENT_CATEGORIES), 1);
	assert_int_equal(pending(&in, PF_INTERNEDDATA_DEBUG_ANNOTATION_NAMES),
			 1);
	assert_true(pbr_get(in.pending.buf, in.pending.len,
			    PF_INTERNEDDATA_EVENT_NAMES, 0, &f));
	m = f;
	assert_int_equal(pbr_u(&m, PF_EVENTNAME_IID, 0), a);
	f = pbr_sub(&m, PF_EVENTNAME_NAME, 0);
	assert_true(pbr_streq(&f, "open"));
	pf_intern_free(&in);
}

static void test_stacks(void **state)
{
	static const uint64_t addr[] = { 0xffffffff81000010ull,
					 0xffffffff81000020ull, 0x1234 };
	static const char *const sym[] = { "inner+0x10", "outer+0x20", NULL };
	struct pf_intern in;
	uint64_t s1, s2, s3, s0, frame;
	struct pbf cs, fr, name;

	(void)state;
	assert_int_equal(pf_intern_init(&in), 0);
	assert_int_equal(pf_intern_stack(&in, addr, sym, 3, &s1), 0);
	assert_int_equal(pending(&in, PF_INTERNEDDATA_FRAMES), 3);
	assert_int_equal(pending(&in, PF_INTERNEDDATA_FUNCTION_NAMES), 3);
	assert_int_equal(pending(&in, PF_INTERNEDDATA_CALLSTACKS), 1);
	/* outermost first: the unknown frame, by its address */
	assert_true(pbr_get(in.pending.buf, in.pending.len,
			    PF_INTERNEDDATA_CALLSTACKS, 0, &cs));
	assert_int_equal(pbr_u(&cs, PF_CALLSTACK_IID, 0), s1);
	assert_int_equal(pbr_count(cs.p, cs.len, PF_CALLSTACK_FRAME_IDS), 3);
	frame = pbr_u(&cs, PF_CALLSTACK_FRAME_IDS, 0);
	assert_true(pbr_get(in.pending.buf, in.pending.len,
			    PF_INTERNEDDATA_FUNCTION_NAMES, 0, &fr));
	assert_int_equal(pbr_u(&fr, PF_INTERNEDSTRING_IID, 0), frame);
	name = pbr_sub(&fr, PF_INTERNEDSTRING_STR, 0);
	assert_true(pbr_streq(&name, "0x1234"));
	/* the same stack again: nothing new; a shorter one shares frames */
	in.pending.len = 0;
	assert_int_equal(pf_intern_stack(&in, addr, sym, 3, &s2), 0);
	assert_int_equal(s1, s2);
	assert_int_equal(in.pending.len, 0);
	assert_int_equal(pf_intern_stack(&in, addr, sym, 2, &s3), 0);
	assert_true(s3 != s1);
	assert_int_equal(pending(&in, PF_INTERNEDDATA_FRAMES), 0);
	assert_int_equal(pending(&in, PF_INTERNEDDATA_CALLSTACKS), 1);
	assert_int_equal(pf_intern_stack(&in, addr, sym, 0, &s0), 0);
	assert_int_equal(s0, 0);
	pf_intern_free(&in);
}

static void test_generations(void **state)
{
	struct pf_intern in;
	uint64_t first, again, i, iid;
	char name[32];

	(void)state;
	assert_int_equal(pf_intern_init(&in), 0);
	pf_intern_packet(&in);
	in.cleared = false;
	assert_int_equal(pf_intern_string(&in, PF_IN_NAME, "x", 1, &first), 0);
	for (i = 0; in.gen == 1 && i < 200000; i++) {
		snprintf(name, sizeof(name), "n%llu", (unsigned long long)i);
		in.pending.len = 0;
		assert_int_equal(pf_intern_string(&in, PF_IN_ARG, name,
						  strlen(name), &iid), 0);
		pf_intern_packet(&in);
	}
	/* full: a new generation, said by the next packet, iids anew */
	assert_int_equal(in.gen, 2);
	assert_true(in.cleared);
	in.pending.len = 0;
	assert_int_equal(pf_intern_string(&in, PF_IN_NAME, "x", 1, &again), 0);
	assert_int_equal(pending(&in, PF_INTERNEDDATA_EVENT_NAMES), 1);
	assert_int_equal(again, 1);
	pf_intern_free(&in);
}

UNIT_MAIN("pf_intern", pf_setup, pf_teardown,
	  UNIT_TEST(test_strings), UNIT_TEST(test_stacks),
	  UNIT_TEST(test_generations))
