// SPDX-License-Identifier: GPL-2.0
/* cputime: CPU time by thread from the context switches, cputop's rules. */
#include "unit.h"

#include "analysis/cputime.h"
#include "decode/meta.h"

static struct field f_prev = { .type = LKET_INT32, .name = "prev_pid" },
	f_next = { .type = LKET_INT32, .name = "next_pid" };
/* no filter: every event selected */
static const struct selection all = { .passed = true, .record = true };
static struct event_meta m_switch = { .ev = LKET_EV_TASK_CTXSWITCH },
	m_other = { .ev = LKET_EV_SYSCALL_ENTRY };

static void other(struct cputime *ct, unsigned int cpu, uint64_t ts)
{
	struct record rec = { .timestamp = ts };
	struct event ev = { .rec = &rec, .meta = &m_other, .cpu = cpu };

	assert_int_equal(cputime_event(ct, &ev, &all), 0);
}

static void sw(struct cputime *ct, unsigned int cpu, uint64_t ts,
	       uint32_t prev, uint32_t next)
{
	struct record rec = { .timestamp = ts };
	struct event ev = { .rec = &rec, .meta = &m_switch, .cpu = cpu,
			    .nvalues = 2 };

	ev.v[0] = (struct value){ .f = &f_prev, .i = prev };
	ev.v[1] = (struct value){ .f = &f_next, .i = next };
	assert_int_equal(cputime_event(ct, &ev, &all), 0);
}

static uint64_t ns_of(const struct cputime *ct, uint32_t tid,
		      unsigned int cpu)
{
	size_t i;

	for (i = 0; i < ct->n; i++)
		if (ct->t[i].tid == tid && (tid || ct->t[i].cpu == cpu))
			return ct->t[i].ns;
	fail_msg("no thread %u", tid);
	return 0;
}

static void test_rules(void **state)
{
	struct cputime ct;

	(void)state;
	assert_int_equal(cputime_init(&ct), 0);
	other(&ct, 0, 1000);
	/* 10 ran since the trace began; 0 on CPU 0 from 1500 to 1800;
	 * 12 on CPU 1 from 1600, switched out at 1700, back at 1900 */
	sw(&ct, 0, 1500, 10, 0);
	sw(&ct, 1, 1600, 0, 12);
	sw(&ct, 1, 1700, 12, 0);
	sw(&ct, 0, 1800, 0, 11);
	sw(&ct, 1, 1900, 0, 12);
	other(&ct, 1, 2500);
	cputime_end(&ct);
	assert_true(cputime_counted(&ct));
	assert_int_equal(ns_of(&ct, 10, 0), 500);
	assert_int_equal(ns_of(&ct, 0, 0), 300);
	/* still running at the end: until the last event */
	assert_int_equal(ns_of(&ct, 11, 0), 700);
	assert_int_equal(ns_of(&ct, 12, 1), 100 + 600);
	/* the idle task of CPU 1 apart from CPU 0's: 1700..1900, and
	 * before 1600 since the trace began */
	assert_int_equal(ns_of(&ct, 0, 1), 600 + 200);
	assert_int_equal(ct.end - ct.begin, 1500);
	cputime_free(&ct);
}

UNIT_MAIN("cputime", NULL, NULL, UNIT_TEST(test_rules))
