// SPDX-License-Identifier: GPL-2.0
/*
 * out_perfetto (and pf_trace): the output declared in the registry; a
 * trace's machine and clock first (uname, the host name, BOOTTIME and
 * REALTIME from the header's wall-clock offset), then its packets, a
 * trace of no event too; several hosts each a machine with a sequence of
 * its own, the first one's packets first; the first packet that interns
 * says its sequence starts, the next ones that they need it; strings
 * made valid UTF-8 as lket-b2a escapes them; a write that fails said in
 * the output's words.
 */
#include "pf_fixture.h"

#include "output/registry.h"

static struct procmap procs;

static int setup(void **state)
{
	return pf_setup(state) || procmap_init(&procs) ? -1 : 0;
}

static int teardown(void **state)
{
	procmap_free(&procs);
	return pf_teardown(state);
}

static void test_registry(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < output_registry_size; i++)
		if (!strcmp(output_registry[i]->option, "perfetto"))
			break;
	assert_true(i < output_registry_size);
	assert_int_equal(output_registry[i]->target, OUTPUT_FILE);
	assert_false(output_registry[i]->one_host);
	assert_true(output_registry[i]->picture);
}

static void test_machine(void **state)
{
	struct trace_info info = {
		.have_header = true, .first_ts = 5000, .procs = &procs,
		.wall_offset = 1764421200000000000ll,
		.kernel = "6.1.0-test", .hostname = "guest",
		.machine = "x86_64",
	};
	struct pf_run r;
	struct pbf pkt, si, u, s, cs, c;

	(void)state;
	pf_run_begin(&r, "machine.pftrace", &info);
	pf_run_finish(&r);
	/* the first packet: system info */
	assert_true(pbr_get(r.data, r.len, PF_TRACE_PACKET, 0, &pkt));
	si = pbr_sub(&pkt, PF_TRACEPACKET_SYSTEM_INFO, 0);
	u = pbr_sub(&si, PF_SYSTEMINFO_UTSNAME, 0);
	s = pbr_sub(&u, PF_UTSNAME_SYSNAME, 0);
	assert_true(pbr_streq(&s, "Linux"));
	s = pbr_sub(&u, PF_UTSNAME_RELEASE, 0);
	assert_true(pbr_streq(&s, "6.1.0-test"));
	s = pbr_sub(&u, PF_UTSNAME_MACHINE, 0);
	assert_true(pbr_streq(&s, "x86_64"));
	s = pbr_sub(&si, PF_SYSTEMINFO_MACHINE_NAME, 0);
	assert_true(pbr_streq(&s, "guest"));
	assert_int_equal(pbr_u(&pkt, PF_TRACEPACKET_MACHINE_ID, 99), 99);
	/* the clock */
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_CLOCK_SNAPSHOT, 0,
				   &pkt));
	cs = pbr_sub(&pkt, PF_TRACEPACKET_CLOCK_SNAPSHOT, 0);
	assert_int_equal(pbr_u(&cs, PF_CLOCKSNAPSHOT_PRIMARY_TRACE_CLOCK, 0),
			 PF_BUILTIN_CLOCK_BOOTTIME);
	c = pbr_sub(&cs, PF_CLOCKSNAPSHOT_CLOCKS, 0);
	assert_int_equal(pbr_u(&c, PF_CLOCKSNAPSHOT_CLOCK_CLOCK_ID, 0),
			 PF_BUILTIN_CLOCK_BOOTTIME);
	assert_int_equal(pbr_u(&c, PF_CLOCKSNAPSHOT_CLOCK_TIMESTAMP, 0), 5000);
	c = pbr_sub(&cs, PF_CLOCKSNAPSHOT_CLOCKS, 1);
	assert_int_equal(pbr_u(&c, PF_CLOCKSNAPSHOT_CLOCK_CLOCK_ID, 0),
			 PF_BUILTIN_CLOCK_REALTIME);
	assert_int_equal(pbr_u(&c, PF_CLOCKSNAPSHOT_CLOCK_TIMESTAMP, 0),
			 1764421200000005000ull);
	/* a trace of no event: its stats all the same */
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_TRACE_STATS, 0, &pkt));
	free(r.data);

	/* a date past 2262: BOOTTIME alone (no overflow under UBSan) */
	info.wall_offset = INT64_MAX - 10;
	pf_run_begin(&r, "late.pftrace", &info);
	pf_run_finish(&r);
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_CLOCK_SNAPSHOT, 0,
				   &pkt));
	cs = pbr_sub(&pkt, PF_TRACEPACKET_CLOCK_SNAPSHOT, 0);
	assert_int_equal(pbr_count(cs.p, cs.len, PF_CLOCKSNAPSHOT_CLOCKS), 1);
	free(r.data);
}

static void test_hosts(void **state)
{
	struct trace_info hi[2] = {
		{ .procs = &procs, .hostname = "nfs-client",
		  .machine = "x86_64" },
		{ .procs = &procs, .hostname = "nfs-server",
		  .machine = "aarch64" },
	};
	struct trace_host th[2] = { { .label = "c", .info = &hi[0] },
				    { .label = "s", .info = &hi[1] } };
	struct trace_info two = { .procs = &procs, .hosts = th, .nhosts = 2 };
	const struct pf_fv fault[] = { PF_I(0x1000), PF_I(0) };
	struct pf_run r;
	struct record rec;
	struct event ev;
	struct pbf pkt, si, s;
	unsigned int i;

	(void)state;
	pf_run_begin(&r, "hosts.pftrace", &two);
	/* the second host's event first */
	pf_event_of(&ev, &rec, LKET_GROUP_PAGEFAULT, LKET_HOOK_PAGEFAULT,
		    1000, 10, 0, fault, 2);
	ev.host = th[1].label;
	pf_run_event(&r, &ev, NULL);
	ev.host = th[0].label;
	pf_run_event(&r, &ev, NULL);
	pf_run_finish(&r);
	/* the first host's machine first, then the second's */
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_SYSTEM_INFO, 0, &pkt));
	assert_false(pbr_count(pkt.p, pkt.len, PF_TRACEPACKET_MACHINE_ID));
	si = pbr_sub(&pkt, PF_TRACEPACKET_SYSTEM_INFO, 0);
	s = pbr_sub(&si, PF_SYSTEMINFO_MACHINE_NAME, 0);
	assert_true(pbr_streq(&s, "c (nfs-client)"));
	assert_true(pf_packet_with(&r, PF_TRACEPACKET_SYSTEM_INFO, 1, &pkt));
	assert_int_equal(pbr_u(&pkt, PF_TRACEPACKET_MACHINE_ID, 0), 1);
	assert_int_equal(pbr_u(&pkt, PF_TRACEPACKET_TRUSTED_PACKET_SEQUENCE_ID,
			       0), 2);
	/* each machine's first packet that interns starts its sequence */
	for (i = 0; i < 2; i++) {
		assert_true(pf_packet_with(&r, PF_TRACEPACKET_TRACK_EVENT, i,
					   &pkt));
		assert_int_equal(pbr_u(&pkt, PF_TRACEPACKET_MACHINE_ID, 0),
				 1 - i);
		assert_int_equal(pbr_u(&pkt, PF_TRACEPACKET_SEQUENCE_FLAGS, 0),
				 PF_TRACEPACKET_SEQ_INCREMENTAL_STATE_CLEARED |
				 PF_TRACEPACKET_SEQ_NEEDS_INCREMENTAL_STATE);
	}
	free(r.data);
}

static void test_text(void **state)
{
	struct pf *p;
	const char *s;
	size_t n;

	(void)state;
	assert_int_equal(pf_new(&p, -1, "x", NULL), 0);
	s = "plain \xc3\xa9t\xc3\xa9";
	n = strlen(s);
	assert_int_equal(pf_text(p, &s, &n), 0);
	assert_string_equal(s, "plain \xc3\xa9t\xc3\xa9");
	s = "a\tb\xff\xc2\x85";
	n = strlen(s);
	assert_int_equal(pf_text(p, &s, &n), 0);
	assert_int_equal(n, strlen("a\\tb\\xff\\xc2\\x85"));
	assert_memory_equal(s, "a\\tb\\xff\\xc2\\x85", n);
	pf_free(p);
}

static void test_write_error(void **state)
{
	struct trace_info info = { .procs = &procs };
	const struct pf_fv fault[] = { PF_I(0x1000), PF_I(0) };
	char path[PATH_MAX_UNIT];
	struct output *o;
	struct record rec;
	struct event ev;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/ro.pftrace", unit_dir);
	fd = open(path, O_RDONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(output_perfetto_new(&o, fd, path, NULL), 0);
	assert_int_equal(o->ops->begin(o, &info), 0);
	pf_event_of(&ev, &rec, LKET_GROUP_PAGEFAULT, LKET_HOOK_PAGEFAULT,
		    1000, 10, 0, fault, 2);
	assert_int_equal(o->ops->event(o, &ev, NULL), 0);
	assert_int_equal(o->ops->finish(o), -EBADF);
	assert_non_null(o->ops->error(o));
	assert_non_null(strstr(o->ops->error(o), "--perfetto "));
	assert_non_null(strstr(o->ops->error(o), strerror(EBADF)));
	o->ops->free(o);
	close(fd);
}

UNIT_MAIN("out_perfetto", setup, teardown,
	  UNIT_TEST(test_registry), UNIT_TEST(test_machine),
	  UNIT_TEST(test_hosts), UNIT_TEST(test_text),
	  UNIT_TEST(test_write_error))
