// SPDX-License-Identifier: GPL-2.0
/*
 * source: one host's trace as events in time order, step by step; its
 * clock put on another's without reordering; scan mode (source.c and
 * deliver.c; metarec.c, tasks.c and losses.c in test_metarec.c).
 */
#include <pthread.h>
#include <time.h>

#include "unit.h"
#include "log_output.h"

#include "input/follow.h"
#include "pipeline/source.h"

/* An event 200:9, which nothing describes, of tid on cpu at ts */
#define REC(ts, tid, cpu)						\
	LE16(LKET_RECORD_MAGIC),	/* magic */			\
	LE16(28),			/* total_size */		\
	LE16(28),			/* sys_size */			\
	LE16(0),			/* flags */			\
	LE64(ts),			/* timestamp */			\
	LE64(LKET_ID(tid, 200, 9, cpu)),	/* id */		\
	0xde, 0xad, 0xbe, 0xef		/* fields */

/* sunrpc.svc.create.return (return), without its metadata: decoded by
 * the catalogue */
#define RET(ts, value)							\
	LE16(LKET_RECORD_MAGIC),	/* magic */			\
	LE16(32),			/* total_size */		\
	LE16(32),			/* sys_size */			\
	LE16(0),			/* flags */			\
	LE64(ts),			/* timestamp */			\
	LE64(LKET_ID(5, LKET_GROUP_SUNRPC, 18, 0)),	/* id */	\
	LE64(value)			/* return */

/* flush 1 (SystemTap 4.7-4.9 framing) */
static const uint8_t cpu0[] = {
	LE32(1), LE32(88),		/* sequence, pdu_len */
	REC(1000, 10, 0),
	RET(2500, 42),
	REC(3000, 10, 0),
};

/* flush 2 */
static const uint8_t cpu1[] = {
	LE32(2), LE32(28),
	REC(2000, 11, 1),
};

struct fixture {
	char p0[PATH_MAX_UNIT], p1[PATH_MAX_UNIT];
	const char *paths[2];
	struct diag_log diag;
	struct log_output out;
	struct convert_stats stats;
	struct source *src;
};

static void fixture_init(struct fixture *f, const struct source_options *opt)
{
	unit_write(f->p0, sizeof(f->p0), "s_0", cpu0, sizeof(cpu0));
	unit_write(f->p1, sizeof(f->p1), "s_1", cpu1, sizeof(cpu1));
	f->paths[0] = f->p0;
	f->paths[1] = f->p1;
	diag_log_init(&f->diag);
	log_output_init(&f->out, &log_ops);
	assert_int_equal(source_new(&f->src, &f->out.o, &f->diag.d, &f->stats,
				    opt), 0);
	assert_int_equal(source_open(f->src, f->paths, 2), 0);
}

/* Every step's key, then the events as the output got them. */
static void run(struct fixture *f, char *keys, size_t size)
{
	uint64_t key;
	size_t len = 0;

	keys[0] = '\0';
	while (source_peek(f->src, &key)) {
		len += (size_t)snprintf(keys + len, size - len, "%llu ",
					(unsigned long long)key);
		assert_true(len < size);
		assert_int_equal(source_step(f->src), 0);
	}
	assert_int_equal(source_finish(f->src), 0);
}

static void test_steps(void **state)
{
	struct fixture f;
	char keys[128];

	(void)state;
	if (host_big_endian())
		skip();
	fixture_init(&f, NULL);
	run(&f, keys, sizeof(keys));
	assert_string_equal(keys, "1000 2000 2500 3000 ");
	assert_string_equal(f.out.log,
			    "event 200:9 1000 cpu 0 tid 10 pid -1\n"
			    "event 200:9 2000 cpu 1 tid 11 pid -1\n"
			    "event 11:18 2500 cpu 0 tid 5 pid -1\n"
			    "event 200:9 3000 cpu 0 tid 10 pid -1\n");
	assert_int_equal(source_info(f.src)->first_ts, 1000);
	source_free(f.src);
	assert_int_equal(f.stats.events, 4);
	assert_int_equal(f.stats.files, 2);
}

/* On another clock: 1 ms later, 10% slower from 2000 on; host named. */
static void test_clock(void **state)
{
	const struct source_clock k = { .offset = 1000000, .pivot = 2000,
					.slope = -0.1 };
	const struct source_options opt = { .host = "b", .clock = &k };
	struct fixture f;
	char keys[128];

	(void)state;
	if (host_big_endian())
		skip();
	fixture_init(&f, &opt);
	run(&f, keys, sizeof(keys));
	/* 1000 + 1000000 + floor(-0.1 * -1000) = 1001100 */
	assert_string_equal(keys, "1001100 1002000 1002450 1002900 ");
	assert_string_equal(f.out.log,
			    "event 200:9 1001100 cpu 0 tid 10 pid -1 host b\n"
			    "event 200:9 1002000 cpu 1 tid 11 pid -1 host b\n"
			    "event 11:18 1002450 cpu 0 tid 5 pid -1 host b\n"
			    "event 200:9 1002900 cpu 0 tid 10 pid -1 host b\n");
	assert_int_equal(source_info(f.src)->first_ts, 1001100);
	source_free(f.src);
}

/* The mapping never goes back, and stops at 0. */
static void test_clock_monotone(void **state)
{
	const struct source_clock k = { .offset = -5000, .pivot = 123456,
					.slope = -0.000999 };
	uint64_t t, prev = 0;

	(void)state;
	assert_int_equal(source_clock_map(&k, 0), 0);
	for (t = 0; t < 400000; t += 7) {
		uint64_t m = source_clock_map(&k, t);

		assert_true(m >= prev);
		prev = m;
	}
	assert_true(prev > 390000);
}

static int scanned(void *ctx, const struct event *ev)
{
	char *log = ctx;
	size_t len = strlen(log);

	snprintf(log + len, 64, "%llu return=%lld\n",
		 (unsigned long long)ev->rec->timestamp,
		 (long long)event_int(ev, "return", -1));
	return 0;
}

/* Scan mode: the events asked for, and nothing to the output. */
static void test_scan(void **state)
{
	static bool want[LKET_NR_EVENTS] = {
		[LKET_EV_SUNRPC_SVC_CREATE_RETURN] = true,
	};
	char log[256] = "";
	const struct source_options opt = {
		.scan = scanned, .scan_ctx = log, .scan_want = want,
	};
	struct fixture f;

	(void)state;
	if (host_big_endian())
		skip();
	fixture_init(&f, &opt);
	assert_int_equal(source_scan(f.src), 0);
	assert_string_equal(log, "2500 return=42\n");
	assert_string_equal(f.out.log, "");
	source_free(f.src);
}

/* An LKET-group record that no hook describes: ignored, as damage */
#define META(ts)							\
	LE16(LKET_RECORD_MAGIC),	/* magic */			\
	LE16(28),			/* total_size */		\
	LE16(28),			/* sys_size */			\
	LE16(0),			/* flags */			\
	LE64(ts),			/* timestamp */			\
	LE64(LKET_ID(0, LKET_GROUP_LKET, 200, 0)),	/* id */	\
	0xde, 0xad, 0xbe, 0xef		/* fields */

/* Scan mode reads on past a metadata record that follows an event (a
 * real trace's modules register events as they load): it used to stop
 * there, and a host's RPCs after it were never paired. */
static void test_scan_after_meta(void **state)
{
	static const uint8_t mixed[] = {
		LE32(1), LE32(120),
		REC(1000, 10, 0),
		META(1500),
		RET(2500, 42),
		RET(3500, 43),
	};
	static bool want[LKET_NR_EVENTS] = {
		[LKET_EV_SUNRPC_SVC_CREATE_RETURN] = true,
	};
	char log[256] = "", path[PATH_MAX_UNIT];
	const char *paths[1] = { path };
	const struct source_options opt = {
		.scan = scanned, .scan_ctx = log, .scan_want = want,
	};
	struct diag_log diag;
	struct log_output out;
	struct convert_stats stats;
	struct source *src;

	(void)state;
	if (host_big_endian())
		skip();
	unit_write(path, sizeof(path), "m_0", mixed, sizeof(mixed));
	diag_log_init(&diag);
	log_output_init(&out, &log_ops);
	assert_int_equal(source_new(&src, &out.o, &diag.d, &stats, &opt), 0);
	assert_int_equal(source_open(src, paths, 1), 0);
	assert_int_equal(source_scan(src), 0);
	assert_string_equal(log, "2500 return=42\n3500 return=43\n");
	source_free(src);
}

/* A packet record: with nothing after it in its flush, the beacon a
 * quiet CPU writes in a live trace */
#define PACKET(ts, cpu)							\
	LE16(LKET_RECORD_MAGIC),	/* magic */			\
	LE16(28),			/* total_size */		\
	LE16(28),			/* sys_size */			\
	LE16(0),			/* flags */			\
	LE64(ts),			/* timestamp */			\
	LE64(LKET_ID(0, LKET_GROUP_LKET, LKET_HOOK_PACKET, cpu)),	\
	LE32(0)				/* discarded */

/* The tracer: holds the files open until told to close them (5 s at
 * most), as stapio does until tracing stops. */
struct tracer {
	int fd[2];
	pthread_mutex_t lock;
	pthread_cond_t go;
	bool told, timed_out;
};

static void *tracer_run(void *arg)
{
	struct tracer *t = arg;
	struct timespec until;
	int ret = 0;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 5;
	pthread_mutex_lock(&t->lock);
	while (!t->told && ret != ETIMEDOUT)
		ret = pthread_cond_timedwait(&t->go, &t->lock, &until);
	t->timed_out = !t->told;
	pthread_mutex_unlock(&t->lock);
	close(t->fd[0]);
	close(t->fd[1]);
	return NULL;
}

/*
 * Following a live trace whose CPU 1 has been quiet, its file nothing but
 * beacons: CPU 0's events come out while the tracer still writes.  The
 * metadata read ahead used to take the beacons for metadata and wait for
 * CPU 1's first event, which came only when tracing stopped.  The time of
 * the first event is the first event's, not a beacon's.
 */
static void test_follow_quiet_cpu(void **state)
{
	static const uint8_t quiet[] = {
		LE32(1), LE32(28), PACKET(500, 1),
		LE32(2), LE32(28), PACKET(1500, 1),
	};
	struct follow follow = { .interval_ms = 5 };
	const struct source_options opt = { .follow = &follow };
	struct tracer t = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.go = PTHREAD_COND_INITIALIZER,
	};
	struct fixture f;
	pthread_t thread;
	uint64_t key;
	int lease;

	(void)state;
	if (host_big_endian())
		skip();
	unit_write(f.p0, sizeof(f.p0), "q_0", cpu0, sizeof(cpu0));
	unit_write(f.p1, sizeof(f.p1), "q_1", quiet, sizeof(quiet));
	lease = open(f.p1, O_RDONLY | O_CLOEXEC);
	assert_true(lease >= 0);
	if (fcntl(lease, F_SETLEASE, F_RDLCK)) {
		print_message("no read lease on %s (%s): skipped\n", f.p1,
			      strerror(errno));
		close(lease);
		skip();
	}
	fcntl(lease, F_SETLEASE, F_UNLCK);
	close(lease);
	t.fd[0] = open(f.p0, O_WRONLY | O_APPEND | O_CLOEXEC);
	t.fd[1] = open(f.p1, O_WRONLY | O_APPEND | O_CLOEXEC);
	assert_true(t.fd[0] >= 0 && t.fd[1] >= 0);
	assert_int_equal(pthread_create(&thread, NULL, tracer_run, &t), 0);
	f.paths[0] = f.p0;
	f.paths[1] = f.p1;
	diag_log_init(&f.diag);
	follow.diag = &f.diag.d;
	log_output_init(&f.out, &log_ops);
	assert_int_equal(source_new(&f.src, &f.out.o, &f.diag.d, &f.stats,
				    &opt), 0);
	assert_int_equal(source_open(f.src, f.paths, 2), 0);
	/* the first beacon, then CPU 0's first event */
	while (source_peek(f.src, &key) && key <= 1000)
		assert_int_equal(source_step(f.src), 0);
	pthread_mutex_lock(&t.lock);
	t.told = true;
	pthread_cond_signal(&t.go);
	pthread_mutex_unlock(&t.lock);
	assert_string_equal(f.out.log, "event 200:9 1000 cpu 0 tid 10 pid -1\n");
	assert_int_equal(source_info(f.src)->first_ts, 1000);
	/* the rest when the tracer is done */
	while (source_peek(f.src, &key))
		assert_int_equal(source_step(f.src), 0);
	assert_int_equal(source_finish(f.src), 0);
	pthread_join(thread, NULL);
	assert_false(t.timed_out);
	assert_string_equal(f.out.log,
			    "event 200:9 1000 cpu 0 tid 10 pid -1\n"
			    "event 11:18 2500 cpu 0 tid 5 pid -1\n"
			    "event 200:9 3000 cpu 0 tid 10 pid -1\n");
	source_free(f.src);
}

UNIT_MAIN("source", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_steps), UNIT_TEST(test_clock),
	  UNIT_TEST(test_clock_monotone), UNIT_TEST(test_scan),
	  UNIT_TEST(test_scan_after_meta), UNIT_TEST(test_follow_quiet_cpu))
