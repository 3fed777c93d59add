// SPDX-License-Identifier: GPL-2.0
/*
 * out_ctf: the metadata of one event class, a lost run, the stream file
 * (out_ctf.c, ctf_stream.c, ctf_meta.c).
 */
#include "unit.h"

#include <sys/stat.h>

#include "output/ctf/ctf.h"
#include "output/ctf/ctf_int.h"
#include "output/output.h"

static struct meta meta;

static int setup(void **state)
{
	if (unit_dir_setup(state) || meta_init(&meta) ||
	    meta_register(&meta, 3, 5, false, "INT64:INT16:INT32:STRING",
			  "buf_addr:request_flags:event:path") ||
	    meta_name(&meta, 3, 5, "io.submit"))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	meta_free(&meta);
	return unit_dir_teardown(state);
}

/* io.submit of tid 7 on CPU 0 at 5.000000001 s */
static const uint8_t rec_io[] = {
	LE16(LKET_RECORD_MAGIC),	/* magic */
	LE16(42),			/* total_size */
	LE16(42),			/* sys_size */
	LE16(0),			/* flags */
	LE64(5000000001ull),		/* timestamp */
	LE64(LKET_ID(7, 3, 5, 0)),	/* id: tid 7, 3:5, CPU 0 */
	LE64(0xffff888000001000ull),	/* buf_addr: INT64, hex */
	LE16(0x8001),			/* request_flags: INT16, hex */
	LE32(0xfffffffb),		/* event: INT32 -5, a TSDL keyword */
	'/', 'x', 0,			/* path */
};

static const struct proc proc = { .tid = 7, .pid = 6, .comm = "x",
				  .comm_len = 1 };

/* wall clock = trace clock + 1764421200.000000005 s */
static struct trace_info info = {
	.have_header = true, .first_ts = 5000000000ull,
	.wall_offset = 1764421200000000005ll, .kernel = "6.1.0-test",
};

static const char want_event[] =
	"event {\n"
	"\tname = \"io_submit\";\n"
	"\tid = 0;\n"
	"\tstream_id = 0;\n"
	"\tfields := struct {\n"
	"\t\tinteger { size = 64; align = 8; signed = false; base = 16; } _buf_addr;\n"
	"\t\tinteger { size = 16; align = 8; signed = false; base = 16; } _request_flags;\n"
	"\t\tinteger { size = 32; align = 8; signed = true; base = 10; } _event;\n"
	"\t\tstring _path;\n"
	"\t};\n"
	"};\n";

static void test_metadata(void **state)
{
	struct stream s = { .swap = host_big_endian() };
	struct seq_gap g = {
		.first = 3, .last = 4, .after_ts = 5000000002ull, .cpu = 0,
	};
	struct output *o;
	struct event ev = { 0 };
	char text[8192];
	uint8_t data[512];
	uint32_t magic;
	uint64_t v;
	size_t n;

	(void)state;
	assert_int_equal(output_ctf_new(&o, unit_dir, false, NULL), 0);
	assert_int_equal(o->ops->begin(o, &info), 0);
	s.rec.data = rec_io;
	s.rec.size = sizeof(rec_io);
	s.rec.sys_size = sizeof(rec_io);
	s.rec.timestamp = 5000000001ull;
	s.rec.id = LKET_ID(7, 3, 5, 0);
	assert_int_equal(decode_record(&meta, &s, &ev), 0);
	assert_int_equal(o->ops->event(o, &ev, &proc), 0);
	assert_int_equal(o->ops->lost(o, &g), 0);
	assert_int_equal(o->ops->finish(o), 0);
	o->ops->free(o);

	unit_read("kernel/metadata", text, sizeof(text));
	assert_memory_equal(text, "/* CTF 1.8 */\n", 14);
	assert_non_null(strstr(text, "\tmajor = 1;\n\tminor = 8;\n"));
	assert_non_null(strstr(text, host_big_endian() ?
			       "\tbyte_order = be;\n" : "\tbyte_order = le;\n"));
	assert_non_null(strstr(text, "\t\tuint32_t magic;\n"
				     "\t\tuint8_t uuid[16];\n"
				     "\t\tuint32_t stream_id;\n"));
	assert_non_null(strstr(text, "\tdomain = \"kernel\";\n"
				     "\ttracer_name = \"lttng-modules\";\n"
				     "\ttracer_major = 2;\n"
				     "\ttracer_minor = 13;\n"
				     "\ttracer_patchlevel = 0;\n"
				     "\tkernel_release = \"6.1.0-test\";\n"));
	assert_non_null(strstr(text, "\tfreq = 1000000000;\n"));
	assert_non_null(strstr(text, "\toffset_s = 1764421200;\n"
				     "\toffset = 5;\n"));
	assert_non_null(strstr(text, "\t\tuint64_t events_discarded;\n"
				     "\t\tuint32_t cpu_id;\n"));
	assert_non_null(strstr(text, "\t\tint32_t _tid;\n\t\tint32_t _pid;\n"
				     "\t\tstring _procname;\n"));
	assert_non_null(strstr(text, want_event));
	/* one class only */
	assert_null(strstr(text, "id = 1;"));

	/* two packets: the event's, then the lost flushes' (empty) */
	n = unit_read("kernel/stream_0", (char *)data, sizeof(data));
	memcpy(&magic, data, 4);
	assert_int_equal(magic, 0xC1FC1FC1u);
	/* content_size in bits, after magic, uuid, stream_id, 2 times */
	memcpy(&v, data + 40, 8);
	/* id, timestamp, tid, pid, procname "x", then the fields */
	assert_int_equal(v, 8 * (76 + 4 + 8 + 4 + 4 + 2 + 8 + 2 + 4 + 3));
	assert_int_equal(n, v / 8 + 76);
	/* events_discarded: 0 in the first packet, 2 in the second */
	memcpy(&v, data + 64, 8);
	assert_int_equal(v, 0);
	memcpy(&v, data + n - 76 + 64, 8);
	assert_int_equal(v, 2);
}

/*
 * System call events: each name is looked up in LTTng's tables once, its
 * class and call kept, not searched for again by name on every event.
 */
static void test_syscall_names(void **state)
{
	static const char *const names[] = { "read", "getpid", "openat" };
	struct field f[] = { { .type = LKET_STRING, .name = "syscall_name" } };
	struct event_meta m = { .ev = LKET_EV_SYSCALL_ENTRY,
				.sys = { f, 1, true, NULL } };
	struct record r = { .size = 40 };
	struct event ev = { .rec = &r, .meta = &m, .tid = 7, .group = 1,
			    .hook = 1, .nsys = 1, .nvalues = 1 };
	const struct ctf_call_name *named;
	struct output *o;
	struct ctf *c;
	char text[16384];
	uint32_t id[3];
	unsigned int i;

	(void)state;
	assert_int_equal(output_ctf_new(&o, unit_dir, true, NULL), 0);
	c = (struct ctf *)o;
	assert_int_equal(o->ops->begin(o, &info), 0);
	ev.v[0].f = &f[0];
	for (i = 0; i < 3000; i++) {
		ev.v[0].s = names[i % 3];
		ev.v[0].slen = strlen(names[i % 3]);
		r.timestamp = 5000000000ull + i;
		assert_int_equal(o->ops->event(o, &ev, &proc), 0);
		assert_int_equal(ctf_call_named(c, &ev, &named), 0);
		if (i < 3)
			id[i] = named->id;
		assert_int_equal(named->id, id[i % 3]);
	}
	/* three names, found once each; read and openat are LTTng's
	 * unknown entry (its analyses read their arguments), getpid its
	 * own class */
	assert_int_equal(c->call_names.n, 3);
	assert_int_equal(c->ncall_kinds, 1);
	assert_int_equal(id[0], id[2]);
	assert_int_not_equal(id[0], id[1]);
	assert_int_equal(c->nclasses, 2);
	ev.v[0].s = "read";
	ev.v[0].slen = 4;
	assert_int_equal(ctf_call_named(c, &ev, &named), 0);
	assert_ptr_equal(named->call, lttng_syscall_of("read"));
	ev.v[0].s = "getpid";
	ev.v[0].slen = 6;
	assert_int_equal(ctf_call_named(c, &ev, &named), 0);
	assert_null(named->call);
	assert_int_equal(o->ops->finish(o), 0);
	o->ops->free(o);
	unit_read("kernel/metadata", text, sizeof(text));
	assert_non_null(strstr(text, "name = \"syscall_entry_unknown\";"));
	assert_non_null(strstr(text, "name = \"syscall_entry_getpid\";"));
}

UNIT_MAIN("out_ctf", setup, teardown,
	  UNIT_TEST(test_metadata), UNIT_TEST(test_syscall_names))
