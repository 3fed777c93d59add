// SPDX-License-Identifier: GPL-2.0
/* out_json and out_csv: one event, one lost run, byte for byte. */
#include "unit.h"

#include "output/line/line.h"
#include "output/output.h"

static struct meta meta;

static int setup(void **state)
{
	if (unit_dir_setup(state) || meta_init(&meta) ||
	    meta_register(&meta, 3, 5, false, "INT64:INT16:INT32:STRING",
			  "buf_addr:request_flags:count:path") ||
	    meta_name(&meta, 3, 5, "io.submit"))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	meta_free(&meta);
	return unit_dir_teardown(state);
}

/* io.submit of tid 7 on CPU 0 at 5.000000001 s; a path to escape */
static const uint8_t rec_io[] = {
	LE16(LKET_RECORD_MAGIC),	/* magic */
	LE16(48),			/* total_size */
	LE16(48),			/* sys_size */
	LE16(0),			/* flags */
	LE64(5000000001ull),		/* timestamp */
	LE64(LKET_ID(7, 3, 5, 0)),	/* id: tid 7, 3:5, CPU 0 */
	LE64(0xffff888000001000ull),	/* buf_addr: INT64, hex */
	LE16(0x8001),			/* request_flags: INT16, hex */
	LE32(0xfffffffb),		/* count: INT32 -5 */
	'a', ',', '"', '\n', 0xff, 0xc3, 0xa9, 0,	/* path */
	0xbe, 0xef,			/* undescribed: raw */
};

static const struct proc proc = { .tid = 7, .pid = 6, .comm = "x,\"y",
				  .comm_len = 4 };

static struct trace_info info = { .have_header = true, .first_ts = 5000000000ull };

static void run(int (*make)(struct output **, int, const struct text_options *),
		const char *want)
{
	struct text_options opt = { .time = TIME_REL };
	struct stream s = { .swap = host_big_endian() };
	struct seq_gap g = {
		.first = 3, .last = 4, .after_ts = 5000000002ull, .cpu = -1,
	};
	struct output *o;
	struct event ev = { 0 };
	char path[256], text[2048];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/out", unit_dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(make(&o, fd, &opt), 0);
	assert_int_equal(o->ops->begin(o, &info), 0);
	s.rec.data = rec_io;
	s.rec.size = sizeof(rec_io);
	s.rec.sys_size = sizeof(rec_io);
	s.rec.timestamp = 5000000001ull;
	s.rec.id = LKET_ID(7, 3, 5, 0);
	/* two bytes more than the fields: shown raw, -EBADMSG */
	assert_int_equal(decode_record(&meta, &s, &ev), -EBADMSG);
	assert_int_equal(o->ops->event(o, &ev, &proc), 0);
	assert_int_equal(o->ops->lost(o, &g), 0);
	assert_int_equal(o->ops->finish(o), 0);
	o->ops->free(o);
	n = pread(fd, text, sizeof(text) - 1, 0);
	assert_true(n >= 0);
	text[n] = '\0';
	assert_string_equal(text, want);
	close(fd);
}

static void test_json(void **state)
{
	(void)state;
	run(output_json_new,
	    "{\"ts\":5000000001,\"time\":\"0.000000001\",\"cpu\":0,\"tid\":7,\"pid\":6,"
	    "\"comm\":\"x,\\\"y\",\"event\":\"io.submit\",\"fields\":{"
	    "\"buf_addr\":\"0xffff888000001000\",\"request_flags\":\"0x8001\","
	    "\"count\":-5,\"path\":\"a,\\\"\\\\n\\\\xff\xc3\xa9\"},\"raw\":\"beef\"}\n"
	    "{\"ts\":5000000002,\"time\":\"0.000000002\",\"cpu\":null,\"tid\":null,"
	    "\"pid\":null,\"comm\":null,\"event\":\"lket.lost\",\"fields\":{"
	    "\"count\":2,\"first_seq\":3,\"last_seq\":4}}\n");
}

static void test_csv(void **state)
{
	(void)state;
	run(output_csv_new,
	    "time,cpu,tid,pid,comm,event,fields\n"
	    "0.000000001,0,7,6,\"x,\"\"y\",io.submit,\"buf_addr=0xffff888000001000 "
	    "request_flags=0x8001 count=-5 path=\"\"a,\\\"\"\\n\\xff\xc3\xa9\"\" raw=beef\"\n"
	    "0.000000002,,,,,lket.lost,count=2 first_seq=3 last_seq=4\n");
}

UNIT_MAIN("out_json/out_csv", setup, teardown,
	  UNIT_TEST(test_json), UNIT_TEST(test_csv))
