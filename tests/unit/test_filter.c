// SPDX-License-Identifier: GPL-2.0
/* filter: option parsing, each criterion, times relative and wall-clock. */
#include "unit.h"

#include "analysis/filter.h"

static struct meta meta;

static int setup(void **state)
{
	(void)state;
	if (meta_init(&meta) ||
	    meta_register(&meta, 1, 1, false, "STRING", "syscall_name") ||
	    meta_name(&meta, 1, 1, "syscall.entry") ||
	    meta_register(&meta, 8, 1, false, "STRING:INT32:INT32",
			  "filename:flags:mode") ||
	    meta_name(&meta, 8, 1, "iosyscall.open.entry") ||
	    meta_register(&meta, 11, 1, false, "INT64", "clnt") ||
	    meta_name(&meta, 11, 1, "sunrpc.clnt.create_client.entry"))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	meta_free(&meta);
	return 0;
}

static struct record rec;

/* An event of (group, hook) by tid on cpu at ts; no values needed. */
static struct event make(unsigned int group, unsigned int hook, uint32_t tid,
			 unsigned int cpu, uint64_t ts)
{
	struct event ev = { .rec = &rec, .tid = tid, .group = group,
			    .hook = hook, .cpu = cpu };

	rec.timestamp = ts;
	ev.meta = meta_get(&meta, group, hook);
	return ev;
}

static const struct proc bash = { .tid = 100, .pid = 42, .comm = "bash",
				  .comm_len = 4 };
static const struct proc work = { .tid = 101, .pid = 43,
				  .comm = "work, thread", .comm_len = 12 };

static void test_seconds(void **state)
{
	int64_t ns;

	(void)state;
	assert_int_equal(filter_parse_seconds("1.5", &ns), 0);
	assert_int_equal(ns, 1500000000);
	assert_int_equal(filter_parse_seconds(".000000001", &ns), 0);
	assert_int_equal(ns, 1);
	assert_int_equal(filter_parse_seconds("12", &ns), 0);
	assert_int_equal(ns, 12000000000ll);
	assert_int_equal(filter_parse_seconds("3.", &ns), 0);
	assert_int_equal(ns, 3000000000ll);
	assert_int_equal(filter_parse_seconds("", &ns), -EINVAL);
	assert_int_equal(filter_parse_seconds(".", &ns), -EINVAL);
	assert_int_equal(filter_parse_seconds("-1", &ns), -EINVAL);
	assert_int_equal(filter_parse_seconds("1.0000000001", &ns), -EINVAL);
	assert_int_equal(filter_parse_seconds("1e3", &ns), -EINVAL);
}

static void test_iso(void **state)
{
	int64_t ns;

	(void)state;
	assert_int_equal(filter_parse_iso("2025-11-29T13:00:00", &ns), 0);
	assert_int_equal(ns, 1764421200000000000ll);
	assert_int_equal(filter_parse_iso("2025-11-29 13:00:05.25Z", &ns), 0);
	assert_int_equal(ns, 1764421205250000000ll);
	assert_int_equal(filter_parse_iso("1970-01-01T00:00:00.000000001", &ns), 0);
	assert_int_equal(ns, 1);
	assert_int_equal(filter_parse_iso("2025-11-29", &ns), -EINVAL);
	assert_int_equal(filter_parse_iso("2025-11-29T13:00:00+01", &ns), -EINVAL);
	assert_int_equal(filter_parse_iso("2025-11-29T13:00:00.", &ns), -EINVAL);
	assert_int_equal(filter_parse_iso("13:00:00", &ns), -EINVAL);
}

static void test_lists(void **state)
{
	struct filter f;
	struct event ev = make(1, 1, 100, 3, 10);

	(void)state;
	filter_init(&f);
	assert_int_equal(filter_add(&f, FILTER_PID, "1,42"), 0);
	assert_int_equal(filter_add(&f, FILTER_CPU, "0,2-5"), 0);
	assert_true(filter_event(&f, &ev, &bash));
	assert_false(filter_event(&f, &ev, &work));
	assert_false(filter_event(&f, &ev, NULL));	/* pid not known */
	ev.cpu = 1;
	assert_false(filter_event(&f, &ev, &bash));
	ev.cpu = 5;
	assert_true(filter_event(&f, &ev, &bash));
	assert_int_equal(filter_add(&f, FILTER_PID, "1,,2"), -EINVAL);
	assert_int_equal(filter_add(&f, FILTER_CPU, "5-2"), -EINVAL);
	/* CPUs up to 8191 (format version 4), not beyond */
	assert_int_equal(filter_add(&f, FILTER_CPU, "300"), 0);
	ev.cpu = 300;
	assert_true(filter_event(&f, &ev, &bash));
	ev.cpu = 301;
	assert_false(filter_event(&f, &ev, &bash));
	assert_int_equal(filter_add(&f, FILTER_CPU, "8192"), -EINVAL);
	assert_int_equal(filter_add(&f, FILTER_TID, "x"), -EINVAL);
	filter_free(&f);
}

static void test_tid_comm(void **state)
{
	struct filter f;
	struct event ev = make(1, 1, 101, 0, 10);

	(void)state;
	filter_init(&f);
	assert_int_equal(filter_add(&f, FILTER_TID, "101"), 0);
	/* a process name may hold a comma: one glob per option */
	assert_int_equal(filter_add(&f, FILTER_COMM, "work, *"), 0);
	assert_int_equal(filter_add(&f, FILTER_COMM, "ba?h"), 0);
	assert_true(filter_event(&f, &ev, &work));
	assert_true(filter_event(&f, &ev, &bash));
	ev.tid = 100;
	assert_false(filter_event(&f, &ev, &bash));
	filter_free(&f);
}

/* The two halves the analyses ask apart: about threads, about records. */
static void test_thread_record(void **state)
{
	struct filter f;
	struct event ev = make(1, 1, 100, 1, 10);

	(void)state;
	filter_init(&f);
	assert_true(filter_thread(&f, 100, &bash));
	assert_int_equal(filter_add(&f, FILTER_PID, "43"), 0);
	assert_int_equal(filter_add(&f, FILTER_CPU, "1"), 0);
	/* the thread is bash's (pid 42): the record passes the rest */
	assert_false(filter_event(&f, &ev, &bash));
	assert_false(filter_thread(&f, 100, &bash));
	assert_true(filter_thread(&f, 101, &work));
	assert_false(filter_thread(&f, 101, NULL));	/* pid not known */
	assert_true(filter_record(&f, &ev));
	ev.cpu = 0;
	assert_false(filter_record(&f, &ev));
	ev.cpu = 1;
	ev.tid = 101;
	assert_true(filter_event(&f, &ev, &work));
	filter_free(&f);
}

static void test_events(void **state)
{
	struct filter f;
	struct event entry = make(1, 1, 100, 0, 10);
	struct event open = make(8, 1, 100, 0, 10);
	struct event rpc = make(11, 1, 100, 0, 10);
	struct event ret = make(1, 2, 100, 0, 10);	/* catalogue name */

	(void)state;
	filter_init(&f);
	/* a group, a dotted prefix, a glob */
	assert_int_equal(filter_add(&f, FILTER_EVENT, "iosyscall,sunrpc.clnt"), 0);
	assert_false(filter_event(&f, &entry, &bash));
	assert_true(filter_event(&f, &open, &bash));
	assert_true(filter_event(&f, &rpc, &bash));
	assert_false(filter_event(&f, &ret, &bash));
	assert_int_equal(filter_add(&f, FILTER_EVENT, "*.return"), 0);
	assert_true(filter_event(&f, &ret, &bash));
	/* "sys" is no group: prefixes end at a dot */
	filter_free(&f);
	filter_init(&f);
	assert_int_equal(filter_add(&f, FILTER_EVENT, "sys"), 0);
	assert_false(filter_event(&f, &entry, &bash));
	assert_int_equal(filter_add(&f, FILTER_EVENT, "syscall.entry"), 0);
	assert_true(filter_event(&f, &entry, &bash));
	assert_true(filter_event(&f, &entry, &bash));	/* cached */
	filter_free(&f);
}

static void test_times(void **state)
{
	struct trace_info info = { .have_header = true, .first_ts = 5000,
				   .wall_offset = 1000000000000ll };
	struct filter f;
	struct event ev = make(1, 1, 100, 0, 0);

	(void)state;
	filter_init(&f);
	assert_int_equal(filter_add(&f, FILTER_FROM, ".000001"), 0);
	assert_int_equal(filter_add(&f, FILTER_TO, "1970-01-01T00:16:40.000007"), 0);
	assert_int_equal(filter_prepare(&f, &info), 0);
	assert_int_equal(f.from_ts, 6000);	/* first event + 1 us */
	assert_int_equal(f.to_ts, 7000);	/* wall - offset */
	rec.timestamp = 5999;
	assert_false(filter_event(&f, &ev, NULL));
	rec.timestamp = 6000;
	assert_true(filter_event(&f, &ev, NULL));
	rec.timestamp = 7000;
	assert_true(filter_event(&f, &ev, NULL));
	rec.timestamp = 7001;
	assert_false(filter_event(&f, &ev, NULL));
	/* a wall-clock time needs the header */
	info.have_header = false;
	assert_int_equal(filter_prepare(&f, &info), -ENODATA);
	assert_int_equal(filter_add(&f, FILTER_FROM, "soon"), -EINVAL);
	filter_free(&f);
	/* no criterion: inactive, every time passes */
	filter_init(&f);
	assert_false(f.active);
	assert_true(filter_time(&f, 0) && filter_time(&f, UINT64_MAX));
	filter_free(&f);
}

static void test_where_parse(void **state)
{
	static const char *const bad[] = {
		"", "fd", "fd=3", "==3", "fd==", "f d==3", "fd=>3", "fd<>3",
		"name<read", "name>=\"3\"", "fd<0x", "fd<-", "fd<1e3",
		"fd<18446744073709551616", "fd>-9223372036854775809",
	};
	static const char *const good[] = {
		"fd==3", "fd == 3", "count>=4096", "addr<0xffffffff00000000",
		"ret<-9223372036854775808", "name==read*", "name!=\"3\"",
		"fd<=18446744073709551615", "fd>-1", "name==\"\"",
	};
	struct filter f;
	size_t i;

	(void)state;
	filter_init(&f);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(filter_add_where(&f, bad[i]), -EINVAL);
	assert_false(f.active);
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(filter_add_where(&f, good[i]), 0);
	assert_true(f.active);
	assert_int_equal(f.nwheres, sizeof(good) / sizeof(good[0]));
	assert_string_equal(f.wheres[1].name, "fd");
	assert_int_equal(f.wheres[4].op, WHERE_LT);
	assert_true(f.wheres[4].num == -(__int128)9223372036854775807ll - 1);
	assert_false(f.wheres[6].is_int);
	assert_string_equal(f.wheres[6].text, "3");
	filter_free(&f);
}

/* One where against one event. */
static bool where(const char *expr, const struct event *ev)
{
	struct filter f;
	bool ok;

	filter_init(&f);
	assert_int_equal(filter_add_where(&f, expr), 0);
	ok = filter_event(&f, ev, &bash);
	filter_free(&f);
	return ok;
}

static void test_where_match(void **state)
{
	static const struct field name = { .type = LKET_STRING,
					   .name = "syscall_name" };
	static const struct field addr = { .type = LKET_INT64, .hex = true,
					   .name = "addr" };
	static const struct field ret = { .type = LKET_INT32, .name = "ret" };
	struct event ev = make(1, 1, 100, 0, 10);
	char text[] = "readv";
	struct filter f;

	(void)state;
	ev.nvalues = 3;
	ev.v[0] = (struct value){ .f = &name, .s = text, .slen = 4 };
	ev.v[1] = (struct value){ .f = &addr, .i = -4096 };
	ev.v[2] = (struct value){ .f = &ret, .i = -2 };
	/* strings: the value's own length, globs, == and != */
	assert_true(where("syscall_name==read", &ev));
	assert_false(where("syscall_name==readv", &ev));
	assert_true(where("syscall_name==re?d", &ev));
	assert_true(where("syscall_name!=write", &ev));
	assert_false(where("syscall_name!=r*", &ev));
	assert_false(where("syscall_name==4", &ev));
	/* hex fields are unsigned, others signed */
	assert_true(where("addr==0xfffffffffffff000", &ev));
	assert_true(where("addr>0x7fffffffffffffff", &ev));
	assert_false(where("addr<0", &ev));
	assert_true(where("ret<0", &ev));
	assert_true(where("ret==-2", &ev));
	assert_true(where("ret>=-2", &ev));
	assert_false(where("ret>-2", &ev));
	assert_true(where("ret<=-2", &ev));
	assert_true(where("ret!=2", &ev));
	/* an integer field is no string; a missing field matches nothing */
	assert_false(where("ret==\"-2\"", &ev));
	assert_false(where("ret==x", &ev));
	assert_false(where("fd!=3", &ev));
	/* all must match */
	filter_init(&f);
	assert_int_equal(filter_add_where(&f, "ret<0"), 0);
	assert_int_equal(filter_add_where(&f, "syscall_name==read"), 0);
	assert_true(filter_event(&f, &ev, &bash));
	assert_int_equal(filter_add_where(&f, "addr==0"), 0);
	assert_false(filter_event(&f, &ev, &bash));
	filter_free(&f);
}

UNIT_MAIN("filter", setup, teardown,
	  UNIT_TEST(test_seconds), UNIT_TEST(test_iso), UNIT_TEST(test_lists),
	  UNIT_TEST(test_tid_comm), UNIT_TEST(test_thread_record),
	  UNIT_TEST(test_events),
	  UNIT_TEST(test_times), UNIT_TEST(test_where_parse),
	  UNIT_TEST(test_where_match))
