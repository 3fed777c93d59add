// SPDX-License-Identifier: GPL-2.0
/* offcpu: a sleep from its switch out to its wake-up, by thread, stack
 * and waker; preemptions and unfinished sleeps left out; a sleep whose
 * wake-up is missing ends at its switch in; the text and folded forms;
 * the filter's say. */
#include "sched_fixture.h"

#include "analysis/offcpu.h"

static const struct field stack_field = { .type = LKET_ADDRS,
					  .name = "stack" };

static struct proc thread(uint32_t tid, int32_t pid, const char *comm)
{
	struct proc p = { .tid = tid, .pid = pid };

	p.comm_len = (uint8_t)strlen(comm);
	memcpy(p.comm, comm, p.comm_len);
	return p;
}

/* An event of hook (4, hook) by p at ts: integers a, b, c (the wake-up's
 * name is p's own), and a stack of the symbols syms (NULL: none). */
static void feed(struct offcpu *o, unsigned int hook, const struct proc *p,
		 uint64_t ts, int64_t a, int64_t b, int64_t c,
		 const char *const *syms, unsigned int nsyms, bool selected)
{
	static uint64_t addrs[4] = { 0x1000, 0x2000, 0x3000, 0x4000 };
	struct record rec = { .timestamp = ts };
	struct event ev = { .rec = &rec, .tid = p->tid, .group = 4,
			    .hook = hook };
	const struct event_meta *m = meta_get(&sched_meta, 4, hook);
	const int64_t ints[] = { a, b, hook == 3 ? 0 : c, c };
	unsigned int k;

	ev.meta = m;
	ev.nsys = ev.nvalues = m->sys.n;
	for (k = 0; k < m->sys.n; k++) {
		ev.v[k].f = &m->sys.f[k];
		ev.v[k].i = ints[k];
		if (m->sys.f[k].type == LKET_STRING) {
			ev.v[k].s = "x";
			ev.v[k].slen = 1;
		}
	}
	if (nsyms) {
		ev.v[k] = (struct value){ .f = &stack_field, .i = nsyms,
					  .a = addrs, .syms = syms,
					  .n = nsyms };
		ev.nvalues++;
	}
	const struct selection sel = { .passed = selected, .record = selected };

	assert_int_equal(offcpu_event(o, &ev, p, &sel), 0);
}

static int write_text(void *o, int fd)
{
	return offcpu_write(o, fd);
}

static int write_folded(void *o, int fd)
{
	return offcpu_write_folded(o, fd);
}

static const char *const reader_stack[] = { "schedule+0x5a", "pipe_read+0x3df",
					    "vfs_read+0x2db" };
static const char *const writer_stack[] = { "try_to_wake_up+0x2d2",
					    "pipe_write+0x1a [pipe]", NULL };

static void test_sleeps(void **state)
{
	const struct proc r = thread(10, 9, "reader"), w = thread(11, 9, "writer");
	const struct proc idle = thread(0, 0, "swapper/0");
	char text[4096];
	struct offcpu *o;

	(void)state;
	assert_int_equal(offcpu_new(&o), 0);
	/* three sleeps in pipe_read, woken by the writer after 100, 200, 300 */
	for (int i = 1; i <= 3; i++) {
		uint64_t t = (uint64_t)i * 10000;

		feed(o, 1, &r, t, 10, 0, 1, reader_stack, 3, true);
		feed(o, 3, &w, t + (uint64_t)i * 100, 10, 9, 0, writer_stack, 3,
		     true);
		feed(o, 1, &idle, t + 5000, 0, 10, 0, NULL, 0, true);
	}
	/* preempted: not asleep */
	feed(o, 1, &r, 50000, 10, 0, 0, reader_stack, 3, true);
	feed(o, 1, &idle, 50500, 0, 10, 0, NULL, 0, true);
	/* a sleep without its wake-up: to the switch in, waker unknown */
	feed(o, 1, &r, 60000, 10, 0, 2, NULL, 0, true);
	feed(o, 1, &idle, 60700, 0, 10, 0, NULL, 0, true);
	/* filtered out at both ends: left out */
	feed(o, 1, &r, 70000, 10, 0, 1, NULL, 0, false);
	feed(o, 1, &idle, 70100, 0, 10, 0, NULL, 0, false);
	/* woken while still on its CPU, then switched out asleep: a sleep
	 * over as it begins, 0 ns by the writer (its stack) */
	feed(o, 3, &w, 75000, 10, 9, 0, writer_stack, 3, true);
	feed(o, 1, &r, 75010, 10, 0, 1, reader_stack, 3, true);
	feed(o, 1, &idle, 75500, 0, 10, 0, NULL, 0, true);
	/* the writer's sleep never ends: left out */
	feed(o, 1, &w, 80000, 11, 0, 1, NULL, 0, true);

	sched_written("offcpu", text, sizeof(text), write_text, o);
	assert_string_equal(text,
		"# lket-b2a off-CPU report: time each thread spent switched out asleep, until its wake-up; times in microseconds\n"
		"\n"
		"thread 10 (reader, pid 9): asleep 1.300 us in 5 sleeps\n"
		"            asleep     sleeps  woken by\n"
		"              0.700          1  (wake-up not recorded)\n"
		"              0.600          4  writer\n"
		"      asleep in: schedule <- pipe_read <- vfs_read\n"
		"      waker: try_to_wake_up <- pipe_write <- 0x3000\n");
	sched_written("folded", text, sizeof(text), write_folded, o);
	assert_string_equal(text,
		"reader-10;--;- 700\n"
		"reader-10;vfs_read;pipe_read;schedule;--;try_to_wake_up;pipe_write;0x3000;writer 600\n");
	offcpu_free(o);
}

static void test_nothing(void **state)
{
	struct offcpu *o;
	char text[512];

	(void)state;
	assert_int_equal(offcpu_new(&o), 0);
	sched_written("empty", text, sizeof(text), write_folded, o);
	assert_string_equal(text, "");
	offcpu_free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleeps),
		cmocka_unit_test(test_nothing),
	};

	return cmocka_run_group_tests(tests, sched_setup, sched_teardown);
}
