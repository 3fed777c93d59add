// SPDX-License-Identifier: GPL-2.0
/*
 * lket-gen - write an LKET trace exactly as the runtime shim and SystemTap's
 * bulk transport do, for lket-b2a's golden tests and benchmarks.
 *
 *   lket-gen [OPTION]... SCENARIO PREFIX
 *
 * writes PREFIX_0, PREFIX_1 (as "stap -o PREFIX" names them).  The
 * scenarios are in kinds[] below, each with what it writes, and the
 * options in usage(): lket-gen --help prints both.
 *
 * Each record is one flush, as the shim writes it: the record head, the
 * hook's fields in catalogue order, user data, then total/sys sizes.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../runtime/lket_format.h"
#include "../../runtime/lket_ids.h"

/* The trace header's kernel: the first of runtime/targets, -D'd by the Makefile. */
#ifndef LKET_KERNEL_RELEASE
#error "build with -DLKET_KERNEL_RELEASE='\"release\"' (see the Makefile)"
#endif

struct cat {
	int group, hook;
	const char *name, *fmt, *names;
	bool meta;
};

static const struct cat catalogue[] = {
#define LKET_GROUP(...)
#define PROBE 0
#define FUNC 1
#define META 2
#define LKET_EVENT(g, h, NAME, name, kind, fmt, names, doc) \
	{ g, h, name, fmt, names, kind == META },
#include "../../runtime/lket_events.def"
};

#define NCAT (sizeof(catalogue) / sizeof(catalogue[0]))
#define NCPU 2

static FILE *files[NCPU];
static enum { F_NONE, F_V4, F_V5 } framing = F_V4;
static bool swap;
/* -p: each CPU numbers its flushes (format version 2), else one counter */
static bool per_cpu_seq;
static uint32_t sequence[NCPU] = { 1, 1 };
/* -e: end the trace with lket.cpu_end and lket.trace_end; -k N skipped */
static bool with_end;
static long nr_skipped;
/* -F: a flight recording (lket.flight after the trace header) */
static bool flight;
/* what the end records say: records written and dropped by CPU (all but
 * packet and end records), and the time of the last */
static uint64_t written[NCPU], dropped[NCPU], last_ts;

/* -c N: CPU 1's records name CPU N (a machine with that many CPUs) */
static unsigned int cpu_number[NCPU] = { 0, 1 };

static uint8_t rec[LKET_RECORD_MAX];
static size_t len;
/* the head's flags of the records written (LKET_RECORD_IRQ) */
static uint16_t record_flags;

static void put(uint64_t v, int size)
{
	int i;

	/* native order is little-endian on the machines this runs on */
	for (i = 0; i < size; i++)
		rec[len + (size_t)(swap ? size - 1 - i : i)] =
			(uint8_t)(v >> (8 * i));
	len += (size_t)size;
}

static void put_str(const char *s)
{
	size_t n = strlen(s) + 1;

	memcpy(rec + len, s, n);
	len += n;
}

static void begin(int group, int hook, int cpu, uint32_t tid, uint64_t ts)
{
	len = 0;
	put(LKET_RECORD_MAGIC, 2);
	put(0, 2);		/* total_size, set by end() */
	put(0, 2);		/* sys_size, set by sys_end() */
	put(record_flags, 2);	/* flags */
	put(ts, 8);
	put(LKET_ID(tid, group, hook, cpu_number[cpu]), 8);
}

/* The timestamp of the record being built (bytes 8..15 of its head). */
static uint64_t rec_timestamp(void)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t)rec[8 + (swap ? 7 - i : i)] << (8 * i);
	return v;
}

static void patch16(size_t at, size_t v)
{
	size_t save = len;

	len = at;
	put(v, 2);
	len = save;
}

/* Records the tracer dropped on a CPU since its last packet record (-p). */
static uint32_t discarded[NCPU];

/* A packet record of cpu at ts into out (-p); its size. */
static size_t packet_record(int cpu, uint64_t ts, uint8_t *out)
{
	size_t save = len, n = LKET_RECORD_HEAD_SIZE + 4;

	/* put() writes into rec; build the packet at its end */
	len = sizeof(rec) - n;
	put(LKET_RECORD_MAGIC, 2);
	put(n, 2);
	put(n, 2);
	put(0, 2);
	put(ts, 8);
	put(LKET_ID(0, LKET_GROUP_LKET, LKET_HOOK_PACKET, cpu_number[cpu]), 8);
	put(discarded[cpu], 4);
	memcpy(out, rec + sizeof(rec) - n, n);
	discarded[cpu] = 0;
	len = save;
	return n;
}

/* A flush header for a payload of n bytes into head; its size. */
static size_t frame_head(uint32_t seq, uint32_t n, uint8_t *head)
{
	uint32_t words[3] = { LKET_FLUSH_V5_MAGIC, seq, n };
	size_t save = len, hlen = 0, i;

	for (i = framing == F_V5 ? 0 : 1; framing != F_NONE && i < 3; i++) {
		/* put() writes into rec; borrow its tail */
		len = sizeof(rec) - 4;
		put(words[i], 4);
		memcpy(head + hlen, rec + sizeof(rec) - 4, 4);
		hlen += 4;
	}
	len = save;
	return hlen;
}

/* batch_begin() .. batch_end(): the records of one CPU in one big flush,
 * with damage() planted in it, as a transport failure leaves it */
static int batch_cpu = -1;
static uint32_t batch_seq;
static uint8_t batch[1 << 20];
static size_t batch_len;

/*
 * The transport: one flush per record, numbered per CPU or globally.
 * With -p, as the patched runtime writes them: each flush is a frame
 * that starts with a packet record (lket.packet: the records dropped
 * since the previous frame), and a lost record is one the tracer dropped
 * (no frame, no number).  Without -p, a lost record is a lost flush.
 */
static void flush(int cpu, bool lose)
{
	uint8_t head[12], packet[LKET_RECORD_HEAD_SIZE + 4];
	size_t hlen, plen = 0;
	uint32_t seq;

	if (rec_timestamp() > last_ts)
		last_ts = rec_timestamp();
	if (lose && per_cpu_seq) {
		discarded[cpu]++;
		dropped[cpu]++;
		return;
	}
	/* the tracer counts what it wrote, lost on the way or not */
	written[cpu]++;
	if (cpu == batch_cpu) {
		memcpy(batch + batch_len, rec, len);
		batch_len += len;
		return;
	}
	if (per_cpu_seq)
		plen = packet_record(cpu, rec_timestamp(), packet);
	seq = sequence[per_cpu_seq ? cpu : 0]++;
	if (lose)
		return;
	hlen = frame_head(seq, (uint32_t)(plen + len), head);
	fwrite(head, 1, hlen, files[cpu]);
	fwrite(packet, 1, plen, files[cpu]);
	fwrite(rec, 1, len, files[cpu]);
}

static void batch_begin(int cpu, uint64_t ts)
{
	batch_cpu = cpu;
	batch_seq = sequence[per_cpu_seq ? cpu : 0]++;
	batch_len = per_cpu_seq ? packet_record(cpu, ts, batch) : 0;
}

/* n bytes that are no record, in the flush being gathered */
static void damage(size_t n)
{
	memset(batch + batch_len, 'G', n);
	batch_len += n;
}

static void batch_end(void)
{
	uint8_t head[12];
	size_t hlen = frame_head(batch_seq, (uint32_t)batch_len, head);

	fwrite(head, 1, hlen, files[batch_cpu]);
	fwrite(batch, 1, batch_len, files[batch_cpu]);
	batch_cpu = -1;
}

static const struct cat *find(const char *name)
{
	size_t i;

	for (i = 0; i < NCAT; i++)
		if (!strcmp(catalogue[i].name, name))
			return &catalogue[i];
	fprintf(stderr, "lket-gen: no event %s\n", name);
	exit(2);
}

/* An ADDRS field: the count it says, and the n addresses it has. */
struct addrs {
	int64_t count;
	size_t n;
	const uint64_t *a;
};

/*
 * Fields from the arguments: const char * for STRING, const struct addrs
 * * for ADDRS, int64_t otherwise.
 */
static void fields(const char *fmt, va_list ap)
{
	const char *t = fmt;
	const struct addrs *as;
	size_t i;

	while (*t) {
		if (!strncmp(t, "STRING", 6)) {
			put_str(va_arg(ap, const char *));
		} else if (!strncmp(t, "ADDRS", 5)) {
			as = va_arg(ap, const struct addrs *);
			put((uint64_t)as->count, sizeof(lket_addrs_count_t));
			for (i = 0; i < as->n; i++)
				put(as->a[i], sizeof(lket_addr_t));
		} else if (!strncmp(t, "INT8", 4)) {
			put((uint64_t)va_arg(ap, int64_t), 1);
		} else if (!strncmp(t, "INT16", 5)) {
			put((uint64_t)va_arg(ap, int64_t), 2);
		} else if (!strncmp(t, "INT32", 5)) {
			put((uint64_t)va_arg(ap, int64_t), 4);
		} else {
			put((uint64_t)va_arg(ap, int64_t), 8);
		}
		t = strchr(t, ':');
		t = t ? t + 1 : "";
	}
}

/* user: a format of user-appended fields, then their values, or NULL */
static void event_ex(int cpu, uint64_t ts, uint32_t tid, bool lose,
		     const char *name, const char *user, ...)
{
	const struct cat *c = find(name);
	va_list ap;

	begin(c->group, c->hook, cpu, tid, ts);
	va_start(ap, user);
	fields(c->fmt, ap);
	patch16(4, len);
	if (user)
		fields(user, ap);
	va_end(ap);
	patch16(2, len);
	flush(cpu, lose);
}

#define I(x) ((int64_t)(x))
#define event(cpu, ts, tid, name, ...) \
	event_ex(cpu, ts, tid, false, name, NULL, __VA_ARGS__)
/* the same, written in interrupt context: tid is the task it hit */
#define event_irq(cpu, ts, tid, name, ...)				\
	do {								\
		record_flags = LKET_RECORD_IRQ;				\
		event(cpu, ts, tid, name, __VA_ARGS__);			\
		record_flags = 0;					\
	} while (0)

/* nometa: the trace lacks the metadata of groups 1 and 2 (syscall,
 * process), as if their registrations were lost. */
static bool no_meta_1_2;

/* The trace header's: wall-clock ns = timestamp + wall_offset. */
static int64_t wall_offset = 1764421200000000000ll;

static void trace_header(uint64_t ts)
{
	event(0, ts, 900, "lket.trace_header",
	      I(!per_cpu_seq ? LKET_FORMAT_VERSION_GLOBAL_SEQ :
		with_end ? LKET_FORMAT_VERSION : LKET_FORMAT_VERSION_FRAMES),
	      I(LKET_BYTE_ORDER_MARK), "mono", I(wall_offset),
	      I(NCPU), LKET_KERNEL_RELEASE);
}

static void metadata(uint64_t ts)
{
	size_t i;

	trace_header(ts);
	if (flight)
		event(0, ts, 900, "lket.flight", I(1 << 20), I(10));
	for (i = 0; i < NCAT; i++) {
		if (catalogue[i].meta || (no_meta_1_2 &&
		    (catalogue[i].group == LKET_GROUP_SYSCALL ||
		     catalogue[i].group == LKET_GROUP_PROCESS)))
			continue;
		event(0, ts, 900, "lket.register_sys_event",
		      I(catalogue[i].group), I(catalogue[i].hook),
		      catalogue[i].fmt, catalogue[i].names);
		event(0, ts, 900, "lket.event_desc", I(catalogue[i].group),
		      I(catalogue[i].hook), catalogue[i].name);
	}
}

/* An event of the trace's own, registered and named. */
static void define(uint64_t ts, int group, int hook, const char *name,
		   const char *fmt, const char *names)
{
	event(0, ts, 900, "lket.register_sys_event", I(group), I(hook), fmt,
	      names);
	event(0, ts, 900, "lket.event_desc", I(group), I(hook), name);
}

/* A record of (group, hook): fields as fmt says, from the arguments. */
static void custom(int cpu, uint64_t ts, uint32_t tid, int group, int hook,
		   const char *fmt, ...)
{
	va_list ap;

	begin(group, hook, cpu, tid, ts);
	va_start(ap, fmt);
	fields(fmt, ap);
	va_end(ap);
	patch16(4, len);
	patch16(2, len);
	flush(cpu, false);
}

#define LONG_NAME "a_field_name_that_runs_past_the_63_bytes_postgresql_keeps_of_a_name"

static void dbnames(void)
{
	static const char *const taken[] = {
		"events", "latency", "trace", "processes", "sqlite_master",
		"syscall_entry_time", "pg_class", "unknown_events",
	};
	uint64_t t = 2000000000ull;
	size_t i;

	metadata(t);
	define(t, 150, 1, "dup.fields", "INT32:INT32:INT32:INT32:INT32",
	       "tid:tid:tid:tid:tid");
	define(t, 150, 2, "sys.cols", "INT32:INT64:STRING:INT64",
	       "xmin:ctid:" LONG_NAME "_1:" LONG_NAME "_2");
	define(t, 150, 3, "dup.plain", "INT32:INT32:INT32", "len:len:len");
	for (i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		define(t, 151, (int)i, taken[i], "INT32:INT64",
		       "x:some_addr");
	event(0, t, 900, "process.snapshot", I(42), I(42), I(1), "names");
	event(0, t + 100, 42, "syscall.entry", "read");
	custom(0, t + 200, 42, 150, 1, "INT32:INT32:INT32:INT32:INT32",
	       I(1), I(2), I(3), I(4), I(5));
	custom(0, t + 250, 42, 150, 3, "INT32:INT32:INT32", I(7), I(8), I(9));
	custom(0, t + 300, 42, 150, 2, "INT32:INT64:STRING:INT64", I(-1),
	       I(0x7fffffffffffffffll), "long", I(-9));
	for (i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		custom(1, t + 400 + 100 * i, 42, 151, (int)i, "INT32:INT64",
		       I(i), I(0xffffffff81000000ull + i));
}

/* 129 bytes: names past CTF's 127 that differ only after them */
#define LONG_130 "a_field_name_that_runs_past_the_127_bytes_a_ctf_member_name_keeps_" \
	"of_it_so_that_two_such_names_differ_only_in_what_is_cut_off_xyz"

static void longnames(void)
{
	uint64_t t = 2000000000ull;

	metadata(t);
	define(t, 150, 3, "long.fields", "INT32:INT32:INT32:INT32:INT32",
	       LONG_130 "_first:" LONG_130 "_second:" LONG_130 "_third:x:x");
	event(0, t, 900, "process.snapshot", I(42), I(42), I(1), "names");
	custom(0, t + 100, 42, 150, 3, "INT32:INT32:INT32:INT32:INT32",
	       I(1), I(2), I(3), I(4), I(5));
	custom(1, t + 200, 42, 150, 3, "INT32:INT32:INT32:INT32:INT32",
	       I(6), I(7), I(8), I(9), I(10));
}

/*
 * A trace whose catalogue differs from lket-b2a's: events it knows by
 * name under other IDs, one with a field more, one with fewer.  Process
 * tracking, field flags and the report go by the names.
 */
static void moved(void)
{
	uint64_t t = 4000000000ull;

	trace_header(t);
	define(t, 40, 7, "process.fork", "INT32:INT32:INT32:INT64",
	       "new_tid:new_pid:ppid:clone_flags");
	define(t, 40, 9, "process.execve", "INT32:STRING",
	       "pid:new_process_name");
	define(t, 41, 1, "scsi.ioentry", "INT8:INT8:INT8:INT64",
	       "disk_major:disk_minor:device_state:request_addr");
	define(t, 41, 2, "scsi.iocompleted", "INT64:INT32",
	       "request_addr:bytes_done");
	custom(0, t + 100, 4242, 40, 7, "INT32:INT32:INT32:INT64", I(4250),
	       I(4250), I(4242), I(0x1200011));
	custom(0, t + 200, 4250, 40, 9, "INT32:STRING", I(4250),
	       "/usr/bin/moved");
	custom(1, t + 300, 4250, 41, 1, "INT8:INT8:INT8:INT64", I(8), I(0),
	       I(1), I(0xffff888000200000ull));
	custom(1, t + 1300, 4250, 41, 2, "INT64:INT32",
	       I(0xffff888000200000ull), I(4096));
}

/* n events of their own, one record each: at most groups 100 to 255
 * (group IDs are 8 bits, and 0 is the metadata's). */
static void many(long n)
{
	uint64_t t = 3000000000ull;
	char name[32];
	long i;

	if (n > 156 * 256)
		n = 156 * 256;

	metadata(t);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "many.e%ld", i);
		define(t, 100 + (int)(i / 256), (int)(i % 256), name,
		       "INT64:STRING", "request_addr:what");
	}
	for (i = 0; i < n; i++)
		custom((int)(i & 1), t + 100 + (uint64_t)i, 4242,
		       100 + (int)(i / 256), (int)(i % 256), "INT64:STRING",
		       I(0xffff888000000000ull + (uint64_t)i), "x");
}

/* After the real metadata: registrations that contradict it. */
static void badmeta(uint64_t t)
{
	event(0, t, 900, "lket.register_sys_event", I(1), I(1),
	      "INT32", "syscall_nr");
	event(0, t, 900, "lket.register_sys_event", I(3), I(1),
	      "STRING:INT8", "elevator_name");
	event(0, t, 900, "lket.register_sys_event", I(0), I(2),
	      "INT8", "x");
	event(0, t, 900, "lket.register_sys_event", I(100), I(1),
	      "INT8:FLOAT", "a:b");
	event(0, t, 900, "lket.event_desc", I(1), I(2), "syscall.exit");
}

static void golden(bool bad_metadata)
{
	uint64_t t = 5000000000ull;

	metadata(t);
	if (bad_metadata)
		badmeta(t);
	event(0, t, 900, "lket.register_user_event", I(7), I(2),
	      "INT32:INT32", "mac_len:priority");
	event(0, t, 900, "process.snapshot", I(1), I(1), I(0), "init");
	event(0, t, 900, "process.snapshot", I(4242), I(4242), I(1), "workload");
	event(0, t, 900, "process.snapshot", I(4243), I(4242), I(1), "work thread");

	/* equal timestamps on both CPUs: CPU 0 first */
	event(1, t + 1000, 4243, "syscall.entry", "getppid");
	event(0, t + 1000, 4242, "syscall.entry", "openat");
	event(0, t + 1500, 4242, "iosyscall.open.entry",
	      "/tmp/a \"quoted\"\tname\n", I(0101), I(0644));
	event(0, t + 1600, 4242, "iosyscall.open.return", I(3));
	event(1, t + 1700, 4243, "syscall.return", "getppid",
	      I(4242));
	event(0, t + 2000, 4242, "syscall.return", "openat", I(3));
	event(1, t + 2100, 4243, "pagefault", I(0x7f0012345000ll), I(1));
	event(0, t + 2200, 4242, "process.fork", I(4250), I(4250), I(4242));
	event(1, t + 2300, 4250, "process.execve", I(4250), "/usr/bin/true");
	event(1, t + 2400, 4250, "syscall.entry", "exit_group");
	/* a flush lost in transport between these two */
	event_ex(0, t + 2500, 4242, true, "syscall.entry", NULL, "wait4");
	event(0, t + 2600, 4242, "tskdispatch.ctxswitch", I(4242), I(0), I(1));
	/* user-appended data, registered */
	event_ex(1, t + 2700, 4243, false, "netdev.transmit", "INT32:INT32",
		 "lo", I(74), I(0x0800), I(768), I(14), I(6));
	/* user-appended data, not registered: shown raw */
	event_ex(0, t + 2800, 4242, false, "netdev.receive", "INT16",
		 "lo", I(74), I(0x0800), I(768), I(0xbeef));
	/* an event nobody registered */
	begin(200, 9, 1, 4243, t + 2900);
	put(0x0102030405060708ull, 8);
	patch16(4, len);
	patch16(2, len);
	flush(1, false);
	event(1, t + 3000, 4243, "signal.send.entry", I(10), I(0), I(1), I(4242));
	event(1, t + 3100, 4243, "signal.send.return", I(-1));
	event(0, t + 3200, 0, "tskdispatch.cpuidle", I(0));
}

/*
 * Where the stacks trace says the kernel and modules of
 * tests/golden/stack-kernel.s and stack-module.s were: not where they
 * were linked (KASLR), each module's text at its own address.
 */
#define STACK_KERNEL	0xffffffff9a000000ull	/* _stext */
#define STACK_MY_MOD	0xffffffffc0a01000ull
#define STACK_OTHER	0xffffffffc0b02000ull
#define STACK_KERNEL_ID	"4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b"
#define STACK_MODULE_ID	"4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d"

static void stack_write(int cpu, uint64_t ts, uint32_t tid,
			const struct addrs *as)
{
	event_ex(cpu, ts, tid, false, "iosyscall.write.entry", "ADDRS",
		 I(1), I(0x5600aa000000ll), I(512), as);
}


/* The stack traces' start: the metadata and the kernel's module record. */
static void stacks_start(uint64_t t)
{
	metadata(t);
	event(0, t, 900, "lket.module", I(STACK_KERNEL), I(0x60), "kernel",
	      STACK_KERNEL_ID);
}

/* ... and after their other modules: the stack field of write entries,
 * and the process that writes. */
static void stacks_ready(uint64_t t)
{
	event(0, t, 900, "lket.register_user_event",
	      I(LKET_GROUP_IOSYSCALL), I(LKET_HOOK_IOSYSCALL_WRITE_ENTRY),
	      "ADDRS", "stack");
	event(0, t, 900, "process.snapshot", I(4242), I(4242), I(1), "workload");
}

static void stacks(void)
{
	static const uint64_t syscall[] = {
		STACK_KERNEL + 0x5, STACK_KERNEL + 0x25, STACK_KERNEL + 0x5f,
	};
	static const uint64_t module[] = {
		STACK_MY_MOD + 0x13, STACK_MY_MOD, STACK_KERNEL + 0x20,
	};
	/* a module whose debuginfo is of another build; nowhere */
	static const uint64_t strange[] = {
		STACK_OTHER + 0x1, 0x1234, STACK_KERNEL,
	};
	const struct addrs s1 = { 3, 3, syscall }, s2 = { 3, 3, module },
			   s3 = { 3, 3, strange }, empty = { 0, 0, NULL },
			   /* says 5 frames, has 2: runs past the record */
			   cut = { 5, 2, syscall };
	uint64_t t = 5000000000ull;

	stacks_start(t);
	event(0, t, 900, "lket.module", I(STACK_MY_MOD), I(0x20), "my_mod",
	      STACK_MODULE_ID);
	event(0, t, 900, "lket.module", I(STACK_OTHER), I(0x20), "other",
	      STACK_KERNEL_ID);
	stacks_ready(t);
	stack_write(0, t + 1000, 4242, &s1);
	stack_write(1, t + 1100, 4242, &s2);
	stack_write(0, t + 1200, 4242, &s1);
	stack_write(1, t + 1300, 4242, &s3);
	stack_write(0, t + 1400, 4242, &empty);
	stack_write(1, t + 1500, 4242, &cut);
	event(0, t + 1600, 4242, "iosyscall.write.return", I(512));
}

static void stackslate(void)
{
	static const uint64_t first[] = { STACK_MY_MOD + 0x13,
					  STACK_KERNEL + 0x25 };
	static const uint64_t again[] = { STACK_OTHER + 0x1,
					  STACK_MY_MOD + 0x13 };
	const struct addrs s1 = { 2, 2, first }, s2 = { 2, 2, again };
	uint64_t t = 5000000000ull;

	stacks_start(t);
	stacks_ready(t);
	/* before my_mod is loaded: its address is in no module yet */
	stack_write(0, t + 1000, 4242, &s1);
	event(1, t + 1100, 4250, "lket.module", I(STACK_MY_MOD), I(0x20),
	      "my_mod", STACK_MODULE_ID);
	stack_write(0, t + 1200, 4242, &s1);
	/* the same record again: nothing changes */
	event(1, t + 1250, 4250, "lket.module", I(STACK_MY_MOD), I(0x20),
	      "my_mod", STACK_MODULE_ID);
	stack_write(0, t + 1300, 4242, &s1);
	/* unloaded, loaded again at STACK_OTHER; the old place still said */
	event(1, t + 1400, 4251, "lket.module", I(STACK_OTHER), I(0x20),
	      "my_mod", STACK_MODULE_ID);
	stack_write(0, t + 1500, 4242, &s2);
	/* other (debuginfo of another build) where my_mod was first */
	event(1, t + 1600, 4252, "lket.module", I(STACK_MY_MOD), I(0x20),
	      "other", STACK_KERNEL_ID);
	stack_write(0, t + 1700, 4242, &s2);
}

static void stackbench(long n)
{
	uint64_t a[LKET_STACK_DEFAULT_DEPTH], t = 5000000000ull;
	const struct addrs as = { LKET_STACK_DEFAULT_DEPTH,
				  LKET_STACK_DEFAULT_DEPTH, a };
	long i;
	int k;

	metadata(t);
	event(0, t, 900, "lket.module", I(STACK_KERNEL), I(0x60), "kernel",
	      STACK_KERNEL_ID);
	event(0, t, 900, "lket.module", I(STACK_MY_MOD), I(0x20), "my_mod",
	      STACK_MODULE_ID);
	event(0, t, 900, "lket.register_user_event",
	      I(LKET_GROUP_IOSYSCALL), I(LKET_HOOK_IOSYSCALL_WRITE_ENTRY),
	      "ADDRS", "stack");
	for (i = 0; i < n; i++) {
		for (k = 0; k < LKET_STACK_DEFAULT_DEPTH; k++)
			a[k] = k & 1 ? STACK_MY_MOD + (uint64_t)((i + k) % 32) :
			       STACK_KERNEL + (uint64_t)((i * 7 + k) % 96);
		stack_write((int)(i & 1), t + 1000 + (uint64_t)i, 4242, &as);
	}
}

static void bench(long n)
{
	static const char *const calls[] = {
		"read", "write", "openat", "close", "getppid", "futex",
		"epoll_wait", "mmap", "newfstatat", "clock_nanosleep",
	};
	uint64_t t = 1000000000ull, state = 88172645463325252ull;
	long i;
	int cpu;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(4242), I(4242), I(1), "bench");
	event(1, t, 900, "process.snapshot", I(4243), I(4243), I(1), "other");
	for (i = 0; i < n; i++) {
		/* xorshift: a fixed, cheap mix */
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		cpu = (int)(state & 1);
		t += 50 + (state >> 60);
		switch ((state >> 8) % 16) {
		case 0:
			event(cpu, t, 4242 + (uint32_t)cpu, "tskdispatch.ctxswitch",
			      I(4242 + cpu), I(4243 - cpu), I(1));
			break;
		case 1:
			event(cpu, t, 4242 + (uint32_t)cpu, "pagefault",
			      I(0x7f0000000000ll + (int64_t)((state >> 16) & 0xfffff000)),
			      I((state >> 40) & 1));
			break;
		default:
			event(cpu, t, 4242 + (uint32_t)cpu,
			      (state >> 12) & 1 ? "syscall.entry" : "syscall.return",
			      calls[(state >> 20) % 10], I(0));
		}
	}
}

/* What addevent.syscall writes for `bench-loop COUNT` pinned to CPU 1. */
static void syscalls(long n)
{
	uint64_t t = 1000000000ull, state = 88172645463325252ull;
	long i;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(4242), I(4242), I(1),
	      "bench-loop");
	for (i = 0; i < n; i++) {
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		/* about 100 ns between events, some jitter */
		t += 90 + (state >> 59);
		event(1, t, 4242, i & 1 ? "syscall.return" : "syscall.entry",
		      "getppid", I(4242));
	}
}

/*
 * Two big flushes of CPU 1 (80 KB each, 2000 records of 40 bytes) with
 * 40 bytes of garbage in them, where a record should start: first thing
 * in the first, after 1000 records in the second; between them, a flush
 * of 64 bytes of garbage and nothing else.  Flushes of one record
 * before them (CPU 1's first is one: its framing is told from it), and
 * after them.
 */
static void bigflush(void)
{
	uint64_t t = 8000000000ull;
	int i, k;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(4242), I(4242), I(1), "sleeper");
	event(0, t, 900, "process.snapshot", I(4243), I(4243), I(1), "other");
	event(1, t + 5, 4242, "syscall.entry", "getpid");
	for (k = 0; k < 2; k++) {
		event(0, t + 100000 * (uint64_t)k + 10, 4243, "syscall.entry",
		      "read");
		batch_begin(1, t + 100000 * (uint64_t)k + 20);
		for (i = 0; i < 2000; i++) {
			if (i == (k ? 1000 : 0))
				damage(40);
			event(1, t + 100000 * (uint64_t)k + 20 + 10 * (uint64_t)i,
			      4242, i & 1 ? "syscall.return" : "syscall.entry",
			      "clock_nanosleep", I(0));
		}
		batch_end();
		/* and a flush of garbage alone (but its packet record) */
		if (!k) {
			batch_begin(1, t + 50000);
			damage(64);
			batch_end();
		}
	}
	event(0, t + 300000, 4243, "syscall.return", "read", I(64));
	event(1, t + 300000, 4242, "syscall.return", "getpid",
	      I(4242));
}

/*
 * Switches to and from the idle task (tid 0) on both CPUs: ls and sh
 * run, go idle, run again; tid 0 writes records while idle.
 */
static void idle(void)
{
	uint64_t t = 9000000000ull;
	int cpu;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(4300), I(4300), I(1), "ls");
	event(0, t, 900, "process.snapshot", I(4301), I(4301), I(1), "sh");
	for (cpu = 0; cpu < 2; cpu++) {
		uint32_t tid = 4300 + (uint32_t)cpu;
		uint64_t c = t + 10 * (uint64_t)cpu;

		event(cpu, c + 100, 0, "tskdispatch.ctxswitch", I(0), I(tid),
		      I(0));
		event(cpu, c + 200, tid, "syscall.entry", "read");
		event(cpu, c + 300, tid, "tskdispatch.ctxswitch", I(tid), I(0),
		      I(1));
		event(cpu, c + 400, 0, "tskdispatch.cpuidle", I(0));
		event(cpu, c + 500, 0, "tskdispatch.ctxswitch", I(0), I(tid),
		      I(0));
		event(cpu, c + 600, tid, "syscall.return", "read", I(64));
	}
}

/* EVENTS system calls of distinct names, an entry and a return each. */
static void sysnames(long n)
{
	uint64_t t = 1000000000ull;
	char name[32];
	long i;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(4242), I(4242), I(1), "calls");
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "call_%ld", i);
		event((int)(i & 1), t + 100 * (uint64_t)i + 10, 4242,
		      "syscall.entry", name);
		event((int)(i & 1), t + 100 * (uint64_t)i + 60, 4242,
		      "syscall.return", name, I(0));
	}
}

/* System calls the tapset could not name: "" in syscall_name. */
static void nameless(void)
{
	uint64_t t = 3000000000ull;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(4243), I(4243), I(1), "sig");
	event(0, t + 10, 4243, "syscall.entry", "rt_sigreturn");
	event(0, t + 20, 4243, "syscall.return", "", I(0));
	event(1, t + 30, 4243, "syscall.entry", "");
	event(1, t + 40, 4243, "syscall.return", "", I(0));
}

/*
 * System calls that the syscall group and an iosyscall hook both record
 * (the CTF export writes them once): an openat and a read whose records
 * are next to each other, a read whose hook record another thread's
 * event comes between, a write of the hook alone, an lseek whose hook
 * record is lost, a tgkill (the signal group's hook) and a kill without
 * its hook; the threads switched to and from as they run.
 */
static void calls(void)
{
	uint64_t t = 4000000000ull;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(4300), I(4300), I(1), "cat");
	event(0, t, 900, "process.snapshot", I(4301), I(4301), I(1), "sh");
	event(0, t + 50, 0, "tskdispatch.ctxswitch", I(0), I(4300), I(0));
	event(1, t + 50, 0, "tskdispatch.ctxswitch", I(0), I(4301), I(0));
	event(0, t + 100, 4300, "syscall.entry", "openat");
	event(0, t + 110, 4300, "iosyscall.open.entry", "/etc/passwd",
	      I(0x80000), I(0));
	event(0, t + 190, 4300, "iosyscall.open.return", I(3));
	event(0, t + 200, 4300, "syscall.return", "openat", I(3));
	event(0, t + 300, 4300, "syscall.entry", "read");
	event(0, t + 310, 4300, "iosyscall.read.entry", I(3),
	      I(0x7ffd1000), I(4096));
	event(0, t + 390, 4300, "iosyscall.read.return", I(1203));
	event(0, t + 400, 4300, "syscall.return", "read", I(1203));
	event(0, t + 450, 4300, "tskdispatch.ctxswitch", I(4300), I(0), I(1));
	event(1, t + 460, 4301, "tskdispatch.ctxswitch", I(4301), I(4300),
	      I(1));
	event(1, t + 500, 4300, "syscall.entry", "read");
	event(1, t + 505, 4301, "pagefault", I(0x7f0012345000ll), I(1));
	event(1, t + 510, 4300, "iosyscall.read.entry", I(3),
	      I(0x7ffd1000), I(4096));
	event(1, t + 590, 4300, "iosyscall.read.return", I(0));
	event(1, t + 600, 4300, "syscall.return", "read", I(0));
	event(1, t + 650, 4300, "tskdispatch.ctxswitch", I(4300), I(4301),
	      I(1));
	event(0, t + 660, 0, "tskdispatch.ctxswitch", I(0), I(4300), I(0));
	event(1, t + 700, 4301, "iosyscall.write.entry", I(1),
	      I(0x7ffd2000), I(6));
	event(1, t + 790, 4301, "iosyscall.write.return", I(6));
	event(0, t + 800, 4300, "syscall.entry", "lseek");
	event_ex(0, t + 810, 4300, true, "iosyscall.lseek.entry", NULL, I(3),
		 I(0), I(0));
	event(0, t + 890, 4300, "iosyscall.lseek.return", I(0));
	event(0, t + 900, 4300, "syscall.return", "lseek", I(0));
	event(0, t + 1000, 4300, "syscall.entry", "getpid");
	event(0, t + 1100, 4300, "syscall.return", "getpid", I(4300));
	event(0, t + 1200, 4300, "syscall.entry", "tgkill");
	event(0, t + 1210, 4300, "signal.systgkill.entry", I(4301), I(4301),
	      I(15));
	event(0, t + 1290, 4300, "signal.systgkill.return", I(0));
	event(0, t + 1300, 4300, "syscall.return", "tgkill", I(0));
	event(0, t + 1400, 4300, "syscall.entry", "kill");
	event(0, t + 1500, 4300, "syscall.return", "kill", I(-3));
	/* tracing stopped between an openat's two entry records: unknown,
	 * and with no return, in no one's count of calls */
	event(0, t + 1600, 4300, "syscall.entry", "openat");
}

/*
 * Every system call that an entry hook records (the CTF export's table,
 * written out again here as the test's own list): its syscall.entry and
 * the hook's record, once each, for the export's classes to be checked
 * against lttng-modules' (tests/ctf/lttng-fields.py).
 */
static void allcalls(void)
{
	static const char *const calls[][2] = {
		{ "open", "iosyscall.open.entry" },
		{ "openat", "iosyscall.open.entry" },
		{ "close", "iosyscall.close.entry" },
		{ "read", "iosyscall.read.entry" },
		{ "write", "iosyscall.write.entry" },
		{ "readv", "iosyscall.readv.entry" },
		{ "writev", "iosyscall.writev.entry" },
		{ "pread64", "iosyscall.pread64.entry" },
		{ "pwrite64", "iosyscall.pwrite64.entry" },
		{ "readahead", "iosyscall.readahead.entry" },
		{ "sendfile", "iosyscall.sendfile.entry" },
		{ "lseek", "iosyscall.lseek.entry" },
		{ "sync", "iosyscall.sync.entry" },
		{ "fsync", "iosyscall.fsync.entry" },
		{ "fdatasync", "iosyscall.fdatasync.entry" },
		{ "flock", "iosyscall.flock.entry" },
		{ "kill", "signal.syskill.entry" },
		{ "tkill", "signal.systkill.entry" },
		{ "tgkill", "signal.systgkill.entry" },
		{ "rt_sigpending", "signal.pending.entry" },
		{ "io_setup", "aio.io_setup.entry" },
		{ "io_submit", "aio.io_submit.entry" },
		{ "io_getevents", "aio.io_getevents.entry" },
		{ "io_destroy", "aio.io_destroy.entry" },
		{ "io_cancel", "aio.io_cancel.entry" },
	};
	uint64_t t = 5000000000ull;
	size_t i;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(4400), I(4400), I(1), "calls");
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		event(0, t += 100, 4400, "syscall.entry", calls[i][0]);
		/* the open hook's first field is its file name; the others
		 * are numbers, as many as the hook has */
		if (!strcmp(calls[i][1], "iosyscall.open.entry"))
			event(0, t += 10, 4400, calls[i][1], "/f", I(0), I(0));
		else
			event(0, t += 10, 4400, calls[i][1], I(1), I(1), I(1),
			      I(1), I(1), I(1), I(1), I(1));
		event(0, t += 100, 4400, "syscall.return", calls[i][0], I(0));
	}
}

/* Strings to escape, in fields and in a process name. */
static void formulas(uint64_t t);

static void strings(void)
{
	uint64_t t = 7000000000ull;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(77), I(77), I(1),
	      "a\"b,c\\d\xff");
	event(0, t + 100, 77, "syscall.entry", "caf\xc3\xa9 \xc3\x28 \xe2\x82");
	event(0, t + 200, 77, "iosyscall.open.entry",
	      "x,y\"z\r\nw\\v\x01\x7f\xf0\x9f\x98\x80|\xfe\xff", I(0), I(0));
	event(0, t + 300, 77, "iosyscall.open.return", I(-2));
	formulas(t);
}

/* Process names a spreadsheet would run as formulas, control bytes. */
static void formulas(uint64_t t)
{
	static const char *const names[] = {
		"=cmd|'/C calc'!A", "+1+1", "-1+1", "@SUM(A1:A9)", "\tlead-tab",
		"\rlead-cr", "'quoted", "\x1b[31mred\x07\x7f",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		event(1, t, 900, "process.snapshot", I(80 + (int)i),
		      I(80 + (int)i), I(1), names[i]);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		event(1, t + 400 + 10 * i, 80 + (uint32_t)i, "syscall.entry",
		      names[i]);
}

/* A system call name of lat ns that returns ret. */
static void syscall_pair(int cpu, uint64_t *t, uint32_t tid,
			 const char *name, uint64_t lat, int64_t ret)
{
	event(cpu, *t, tid, "syscall.entry", name);
	event(cpu, *t + lat, tid, "syscall.return", name, ret);
	*t += lat + 1000;
}

/*
 * Planted latencies:
 *   syscall(read), pid 5001 "lat-a": 100 pairs, 1, 2, ... 100 us
 *   syscall(write), pid 5002 "lat-b": 10 pairs of 2 us; one entry that
 *     never returns, one return without entry
 *   iosyscall.open, pid 5002: 3 pairs of 5 us
 *   ioscheduler: 4 requests, add -> dispatch 10 us -> complete 100 us;
 *     one dispatch of an address never added, one add never completed
 *   scsi: 2 requests, ioentry -> iodispatching 1 us -> iodone 50 us ->
 *     iocompleted 2 us
 */
static void latency(void)
{
	uint64_t t = 1000000000ull, a;
	int i;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(5001), I(5001), I(1), "lat-a");
	event(0, t, 900, "process.snapshot", I(5002), I(5002), I(1), "lat-b");
	t += 1000;
	for (i = 1; i <= 100; i++)
		syscall_pair(0, &t, 5001, "read", (uint64_t)i * 1000, I(64));
	for (i = 0; i < 10; i++)
		syscall_pair(0, &t, 5002, "write", 2000, I(64));
	event(0, t, 5002, "syscall.return", "write", I(64)); /* no entry */
	t += 1000;
	event(0, t, 5002, "syscall.entry", "write");	/* never returns */
	t += 1000;
	for (i = 0; i < 3; i++) {
		event(0, t, 5002, "iosyscall.open.entry", "/tmp/f", I(0), I(0));
		event(0, t + 5000, 5002, "iosyscall.open.return", I(3));
		t += 6000;
	}
	for (i = 0; i < 4; i++) {
		a = 0xffff888000100000ull + (uint64_t)i * 0x100;
		event(0, t, 5002, "ioscheduler.elv_add_request", "mq-deadline",
		      I(8), I(0), I(a), I(1));
		event(0, t + 10000, 5002, "ioscheduler.elv_next_request.return",
		      I(8), I(0), I(a), I(1));
		event(0, t + 110000, 0, "ioscheduler.elv_completed_request",
		      "mq-deadline", I(8), I(0), I(a), I(1));
		t += 120000;
	}
	event(0, t, 5002, "ioscheduler.elv_next_request.return", I(8), I(0),
	      I(0xffff888000999000ll), I(1));
	event(0, t + 1000, 5002, "ioscheduler.elv_add_request", "mq-deadline",
	      I(8), I(0), I(0xffff888000777000ll), I(1));
	t += 2000;
	for (i = 0; i < 2; i++) {
		a = 0xffff888000200000ull + (uint64_t)i * 0x100;
		event(0, t, 5001, "scsi.ioentry", I(8), I(0), I(1), I(a));
		event(0, t + 1000, 5001, "scsi.iodispatching", I(0), I(0),
		      I(0), I(0), I(1), I(1), I(0x1000), I(4096), I(a));
		event(0, t + 51000, 0, "scsi.iodone", I(0), I(0), I(0), I(0),
		      I(1), I(1), I(a));
		event(0, t + 53000, 0, "scsi.iocompleted", I(0), I(0), I(0),
		      I(0), I(1), I(1), I(a), I(4096));
		t += 60000;
	}
}

/* Scheduling latencies planted: see "wakeups" in the usage above. */
static void wakeups(void)
{
	uint64_t t0 = 2000000000ull, t1 = t0 + 2000000, t;
	int i;

	metadata(t0);
	event(0, t0, 900, "process.snapshot", I(6001), I(6000), I(1), "pong");
	event(0, t0, 900, "process.snapshot", I(6002), I(6000), I(1), "pong");
	event(0, t0, 900, "process.snapshot", I(6003), I(6003), I(1), "spin");
	event(0, t0 + 10, 0, "tskdispatch.ctxswitch", I(0), I(6001), I(0));
	for (i = 1; i <= 10; i++) {
		t = t0 + (uint64_t)i * 100000;
		event(0, t, 6001, "tskdispatch.wakeup", I(6002), I(6000),
		      "pong", I(1));
		event(0, t + 100, 6001, "tskdispatch.ctxswitch", I(6001), I(0),
		      I(1));
		event(1, t + (uint64_t)i * 1000, 0, "tskdispatch.ctxswitch",
		      I(0), I(6002), I(0));
		event(1, t + 20000, 6002, "tskdispatch.wakeup", I(6001),
		      I(6000), "pong", I(0));
		event(1, t + 20100, 6002, "tskdispatch.ctxswitch", I(6002),
		      I(0), I(1));
		event(0, t + 20500, 0, "tskdispatch.ctxswitch", I(0), I(6001),
		      I(0));
	}
	/* 6003 runs on CPU 1 when it is woken: it never waits */
	event(1, t1 - 1000, 0, "tskdispatch.ctxswitch", I(0), I(6003), I(0));
	event(0, t1, 6001, "tskdispatch.wakeup", I(6003), I(6003), "spin",
	      I(1));
	event(1, t1 + 200, 6003, "tskdispatch.ctxswitch", I(6003), I(0), I(0));
	event(1, t1 + 5000, 0, "tskdispatch.ctxswitch", I(0), I(6003), I(0));
	/* a fork: its child waits 5 us, then moves to CPU 0 */
	event(0, t1 + 10000, 6001, "tskdispatch.wakeup_new", I(6004), I(6004),
	      "pong", I(1));
	event(1, t1 + 15000, 6003, "tskdispatch.ctxswitch", I(6003), I(6004),
	      I(1));
	event(0, t1 + 20000, 6001, "tskdispatch.migrate", I(6004), I(1), I(0));
	/* woken, never run */
	event(0, t1 + 30000, 6001, "tskdispatch.wakeup", I(6005), I(6005),
	      "never", I(0));
}

/* Two events of one nanosecond on two CPUs: see "wakeuptie" above. */
static void wakeup_tie(void)
{
	uint64_t t = 3000000000ull;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(7001), I(7001), I(1), "sleeper");
	event(0, t, 900, "process.snapshot", I(7002), I(7002), I(1), "waker");
	event(0, t + 1000, 0, "tskdispatch.ctxswitch", I(0), I(7001), I(0));
	event(1, t + 1000, 0, "tskdispatch.ctxswitch", I(0), I(7002), I(0));
	event(0, t + 5000, 7001, "tskdispatch.ctxswitch", I(7001), I(0), I(1));
	event(1, t + 5000, 7002, "tskdispatch.wakeup", I(7001), I(7001),
	      "sleeper", I(0));
	event(0, t + 8000, 0, "tskdispatch.ctxswitch", I(0), I(7001), I(0));
}

/* Tasks that exit: see "exits" in the usage above. */
static void exits(void)
{
	uint64_t t = 4000000000ull;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(8101), I(8101), I(1), "sh");
	event(0, t, 900, "process.snapshot", I(8103), I(8103), I(1), "waiter");
	event(1, t + 500, 0, "tskdispatch.ctxswitch", I(0), I(8103), I(0));
	event(0, t + 1000, 0, "tskdispatch.ctxswitch", I(0), I(8101), I(0));
	event(1, t + 2000, 8103, "tskdispatch.ctxswitch", I(8103), I(0), I(1));
	event(0, t + 9000, 8101, "lket.task_new", I(8102), I(8102), I(8101),
	      "sh");
	event(0, t + 10000, 8101, "tskdispatch.wakeup_new", I(8102), I(8102),
	      "sh", I(0));
	event(0, t + 12000, 8101, "tskdispatch.wakeup", I(8103), I(8103),
	      "waiter", I(1));
	event(1, t + 13000, 0, "tskdispatch.ctxswitch", I(0), I(8103), I(0));
	event(0, t + 15000, 8101, "tskdispatch.ctxswitch", I(8101), I(8102),
	      I(1));
	event(0, t + 16000, 8102, "lket.task_exec", I(8102), I(8102),
	      "/usr/bin/cat");
	event(1, t + 20000, 8103, "tskdispatch.ctxswitch", I(8103), I(0),
	      I(0x80));
	event(0, t + 24000, 8102, "tskdispatch.wakeup", I(8101), I(8101),
	      "sh", I(0));
	event(0, t + 25000, 8102, "tskdispatch.ctxswitch", I(8102), I(8101),
	      I(0x80));
	event(0, t + 40000, 8101, "tskdispatch.ctxswitch", I(8101), I(0),
	      I(1));
	event(1, t + 800000, 0, "tskdispatch.cpuidle", I(0));
}

/* Wake-ups by an interrupt and by a task seen late: see "irqwake" above. */
static void irqwake(void)
{
	uint64_t t = 5000000000ull;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(8201), I(8201), I(2),
	      "rcu_preempt");
	event(0, t, 900, "process.snapshot", I(8202), I(8202), I(1), "ls");
	event(0, t, 900, "process.snapshot", I(8203), I(8203), I(1), "waker");
	event(0, t + 1000, 0, "tskdispatch.ctxswitch", I(0), I(8201), I(0));
	event(1, t + 1500, 0, "tskdispatch.ctxswitch", I(0), I(8202), I(0));
	event(0, t + 2000, 8201, "tskdispatch.ctxswitch", I(8201), I(0),
	      I(2));
	event(1, t + 30000, 8202, "syscall.entry", "read");
	event_irq(1, t + 50000, 8202, "tskdispatch.wakeup", I(8201),
		  I(8201), "rcu_preempt", I(0));
	event(0, t + 52000, 0, "tskdispatch.ctxswitch", I(0), I(8201), I(0));
	event(0, t + 60000, 8201, "tskdispatch.ctxswitch", I(8201), I(0),
	      I(2));
	event(1, t + 65000, 8202, "syscall.return", "read", I(4096));
	event(1, t + 70000, 8202, "tskdispatch.ctxswitch", I(8202), I(8203),
	      I(1));
	event(1, t + 80000, 8203, "tskdispatch.wakeup", I(8201), I(8201),
	      "rcu_preempt", I(0));
	event(0, t + 81000, 0, "tskdispatch.ctxswitch", I(0), I(8201), I(0));
	event(0, t + 90000, 8201, "tskdispatch.ctxswitch", I(8201), I(0),
	      I(2));
	event(1, t + 95000, 8203, "tskdispatch.ctxswitch", I(8203), I(0),
	      I(1));
}

/*
 * What a timechart draws: 8 tasks of 6 processes taking turns on 2 CPUs
 * (context switches, idle), in and out of system calls, page faults,
 * forks and execs, signals, block requests through the IO scheduler and
 * SCSI, RPC calls to a server; EVENTS records, about 250 ns apart.
 */
static void timechart(long n)
{
	static const char *const names[] = {
		"web", "web worker", "db", "cc", "make", "nfs-client",
		"logger", "backup",
	};
	static const int pids[] = { 3001, 3001, 3003, 3004, 3005, 3006,
				    3007, 3008 };
	uint64_t t = 1000000000ull, state = 88172645463325252ull;
	uint64_t ioq[2][64];
	uint32_t cur[NCPU] = { 0, 0 }, next, child = 4000;
	bool in_sys[4100] = { false }, in_rpc = false;
	int nq[2] = { 0, 0 }, q, cpu;
	long i;
	size_t k;

	metadata(t);
	for (k = 0; k < 8; k++)
		event(0, t, 900, "process.snapshot", I(3001 + (int)k),
		      I(pids[k]), I(1), names[k]);
	for (i = 0; i < n; i++) {
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		cpu = (int)(state & 1);
		t += 200 + (state >> 57);
		k = (state >> 8) % 32;
		if (!cur[cpu] && k >= 4)
			k = 0;		/* an idle CPU picks up a task */
		q = (int)((state >> 20) & 1);
		switch (k) {
		case 0: case 1: case 2:	/* a context switch */
			next = (state >> 24) % 10 < 8 ?
			       3001 + (uint32_t)((state >> 28) % 8) : 0;
			if (next && next == cur[!cpu])
				next = 0;
			if (next == cur[cpu])
				next = 0;
			event(cpu, t, cur[cpu], "tskdispatch.ctxswitch",
			      I(cur[cpu]), I(next), I((state >> 32) & 1));
			cur[cpu] = next;
			break;
		case 3:
			if (cur[cpu]) {
				event(cpu, t, 0, "tskdispatch.cpuidle", I(0));
				event(cpu, t + 1, cur[cpu],
				      "tskdispatch.ctxswitch", I(cur[cpu]),
				      I(0), I(1));
				cur[cpu] = 0;
				i++;
			}
			break;
		case 4:
			event(cpu, t, cur[cpu], "pagefault",
			      I(0x7f0000000000ll + (int64_t)(state & 0xfff000)),
			      I((state >> 40) & 1));
			break;
		case 5:
			if (child < 4099 && (state >> 36) % 64 == 0) {
				event(cpu, t, cur[cpu], "process.fork",
				      I(child), I(child),
				      I(pids[cur[cpu] - 3001]));
				event(cpu, t + 50, child, "process.execve",
				      I(child), "/usr/bin/true");
				event(cpu, t + 100, child, "syscall.entry",
				      "exit_group");
				child++;
				i += 2;
			} else {
				event(cpu, t, cur[cpu], "signal.send.entry",
				      I(10), I(0), I(1),
				      I(pids[(state >> 44) % 8]));
			}
			break;
		case 6: case 7:		/* a block request in or out */
			if (nq[q] < 64 && (nq[q] == 0 || (state >> 48) & 1)) {
				ioq[q][nq[q]] = 0xffff888000100000ull +
						((uint64_t)i << 8);
				if (q == 0)
					event(cpu, t, cur[cpu],
					      "ioscheduler.elv_add_request",
					      "mq-deadline", I(8), I(0),
					      I(ioq[q][nq[q]]), I(1));
				else
					event(cpu, t, cur[cpu], "scsi.ioentry",
					      I(8), I(16), I(1),
					      I(ioq[q][nq[q]]));
				nq[q]++;
			} else if (q == 0) {
				event(cpu, t, 0,
				      "ioscheduler.elv_completed_request",
				      "mq-deadline", I(8), I(0),
				      I(ioq[q][--nq[q]]), I(1));
			} else {
				event(cpu, t, 0, "scsi.iocompleted", I(0),
				      I(0), I(0), I(0), I(1), I(1),
				      I(ioq[q][--nq[q]]), I(4096));
			}
			break;
		case 8:			/* the NFS client calls its server */
			if (cur[cpu] == 3006 && !in_rpc)
				event(cpu, t, 3006, "sunrpc.clnt.call_sync.entry",
				      "nfs-server", I(100003), I(3), I(6), I(0));
			else if (cur[cpu] == 3006)
				event(cpu, t, 3006, "sunrpc.clnt.call_sync.return",
				      I(0));
			else
				event(cpu, t, cur[cpu], "pagefault",
				      I(0x7f0000001000ll), I(0));
			if (cur[cpu] == 3006)
				in_rpc = !in_rpc;
			break;
		default:		/* system calls */
			event(cpu, t, cur[cpu], in_sys[cur[cpu]] ?
			      "syscall.return" : "syscall.entry",
			      cur[cpu] & 1 ? "read" : "write", I(64));
			in_sys[cur[cpu]] = !in_sys[cur[cpu]];
		}
	}
}

/* CPU 0's clock steps back 3 us between an entry and its return. */
static void backwards(void)
{
	uint64_t t = 1000000000ull;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(6001), I(6001), I(1), "back");
	event(0, t, 900, "process.snapshot", I(6002), I(6002), I(1), "fwd");
	event(1, t + 3000, 6002, "syscall.entry", "write");
	event(0, t + 5000, 6001, "syscall.entry", "read");
	/* CPU 0's clock steps back 3 us: two records before t + 5000 */
	event(0, t + 2000, 6001, "syscall.return", "read", I(64));
	event(0, t + 4000, 6001, "syscall.entry", "getpid");
	event(1, t + 6000, 6002, "syscall.return", "write", I(64));
	event(0, t + 7000, 6001, "syscall.return", "getpid",
	      I(6001));
}

/*
 * A trace of one group (iosyscall) and the always-on task records: a
 * shell in the snapshot forks a child that execs a program, a thread of
 * it is renamed, and each does IO; lket-b2a must name every one.  Then
 * a context switch and system calls, as the CTF export maps them.
 */
static void tasks(void)
{
	uint64_t t = 6000000000ull;

	metadata(t);
	event(0, t, 900, "lket.host", "guest", "x86_64");
	event(0, t, 900, "process.snapshot", I(1), I(1), I(0), "init");
	event(0, t, 900, "process.snapshot", I(4242), I(4242), I(1), "sh");
	event(0, t + 100, 4242, "lket.task_new", I(5000), I(5000), I(4242),
	      "sh");
	event(1, t + 200, 5000, "lket.task_exec", I(5000), I(5000),
	      "/usr/bin/dd");
	event(1, t + 300, 5000, "iosyscall.write.entry", I(1),
	      I(0x7ffd1000), I(512));
	event(0, t + 400, 5000, "lket.task_new", I(5001), I(5000), I(4242),
	      "dd");
	event(0, t + 500, 5001, "lket.task_rename", I(5001), I(5000),
	      "dd worker");
	event(0, t + 600, 5001, "iosyscall.write.entry", I(1),
	      I(0x7ffd2000), I(4096));
	event(1, t + 700, 5000, "tskdispatch.ctxswitch", I(5000), I(5001),
	      I(1));
	event(1, t + 800, 5001, "syscall.entry", "write");
	event(1, t + 900, 5001, "syscall.return", "write", I(64));
	event(0, t + 1000, 5001, "lket.task_exit", I(5001), I(5000));
	event(1, t + 1100, 5000, "lket.task_exit", I(5000), I(5000));
}

/*
 * What the timechart must end: a task that exits (lket.task_exit) early
 * in a second of trace, then is switched out dead; a kworker whose
 * switch-out is missing (CPU 1 switches in another task 1.27 ms after
 * it); then CPU 0 busy until the end.  Prints each exit as "TID SECONDS"
 * (what lket.out does not show: task records are not events).
 */
static void lanes(void)
{
	uint64_t t = 1000000000ull;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(7001), I(7001), I(1), "sh");
	event(0, t, 900, "process.snapshot", I(7002), I(7002), I(2),
	      "kworker/1:0");
	event(0, t, 900, "process.snapshot", I(7003), I(7003), I(1), "worker");
	event(0, t, 900, "process.snapshot", I(7004), I(7004), I(7001),
	      "short");
	event(0, t + 1000, 0, "tskdispatch.ctxswitch", I(0), I(7004), I(0));
	event(1, t + 50000, 0, "tskdispatch.ctxswitch", I(0), I(7002), I(0));
	event(0, t + 100000, 7004, "syscall.entry", "exit_group");
	event(0, t + 200000, 7004, "lket.task_exit", I(7004), I(7004));
	/* TASK_DEAD: switched out for good */
	event(0, t + 210000, 7004, "tskdispatch.ctxswitch", I(7004), I(7001),
	      I(0x80));
	/* the kworker's switch-out (7002 -> 7003) was never recorded */
	event(1, t + 1320000, 0, "tskdispatch.ctxswitch", I(0), I(7003),
	      I(0));
	event(1, t + 3000000, 7003, "tskdispatch.ctxswitch", I(7003), I(0),
	      I(1));
	event(0, t + 500000000, 7001, "syscall.entry", "read");
	event(0, t + 600000000, 7001, "syscall.return", "read",
	      I(64));
	event(0, t + 1000000000, 7001, "syscall.entry", "write");
	printf("7004 %llu.%09llu\n", (unsigned long long)(t + 200000) / 1000000000,
	       (unsigned long long)(t + 200000) % 1000000000);
}

/*
 * What the histogram picture must lay out: 30 system calls, call k made
 * k + 1 times (the total time grows with k), latencies close together
 * (p50, p90, p99 and max within a bucket or two); more than it draws.
 */
static void pairs(void)
{
	uint64_t t = 1000000000ull;
	char name[16];
	int k, j;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(8001), I(8001), I(1), "calls");
	for (k = 0; k < 30; k++) {
		snprintf(name, sizeof(name), "call%02d", k);
		for (j = 0; j <= k; j++) {
			event(0, t += 100, 8001, "syscall.entry", name);
			t += 1000 + 40 * (uint64_t)k + 13 * (uint64_t)j;
			event(0, t, 8001, "syscall.return", name, I(0));
		}
	}
}

/* Times at the end of the clock: the last at 2^64 - 256 ns. */
static void drops(void)
{
	uint64_t t = 1000000000ull;
	int i;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(7001), I(7001), I(1), "drops");
	for (i = 0; i < 30; i++) {
		t += 1000;
		event(0, t, 7001, "syscall.entry", "getppid");
		event_ex(0, t + 500, 7001, true, "syscall.return", NULL,
			 "getppid", I(7000));
	}
	event(0, t + 1000, 7001, "syscall.entry", "exit_group");
}

static void late(void)
{
	uint64_t t = UINT64_MAX - 255 - 3000;

	metadata(t);
	event(0, t, 900, "process.snapshot", I(9001), I(9001), I(1), "late");
	event(0, t + 1000, 9001, "syscall.entry", "read");
	event(1, t + 2000, 9001, "syscall.return", "read", I(64));
	event(0, t + 3000, 9001, "syscall.entry", "write");
}

static long nr_events = 1000000;

static const char *out_prefix;
static void open_files(const char *suffix);
static void close_files(void);

/* One RPC of the rpc kind, in true time (ns). */
struct rpc {
	uint64_t execute, process, send, release;
	uint32_t xid, proc;
};

#define RPC_C0	1000000000ull		/* the client's clock at T = 0 */
#define RPC_S0	7300000000ull		/* the server's */
#define RPC_PPM	40			/* the server's clock runs fast */
#define RPC_WALL_ERROR	1500000ll	/* the server's header is off */
#define RPC_WALL	1764421200000000000ll	/* wall clock at T = 0 */

static uint64_t server_clock(uint64_t t)
{
	return RPC_S0 + t + t * RPC_PPM / 1000000;
}

static void rpc_client(const struct rpc *r, long n)
{
	long i;

	wall_offset = RPC_WALL - (int64_t)RPC_C0;
	metadata(RPC_C0);
	event(0, RPC_C0, 900, "process.snapshot", I(700), I(700), I(1), "dd");
	for (i = 0; i < n; i++) {
		int cpu = (int)(i & 1);

		event(cpu, RPC_C0 + r[i].execute, 700,
		      "sunrpc.sched.execute.entry", I(r[i].xid), I(100003),
		      I(3), I(6), I(i + 1), I(0x80));
		/* the last call is never answered */
		if (i + 1 < n)
			event(cpu, RPC_C0 + r[i].release, 700,
			      "sunrpc.sched.release_task.entry", I(r[i].xid),
			      I(100003), I(3), I(6), I(0x80));
	}
}

static void rpc_server(const struct rpc *r, long n)
{
	long i;

	wall_offset = RPC_WALL - (int64_t)RPC_S0 + RPC_WALL_ERROR;
	metadata(RPC_S0);
	event(0, RPC_S0, 900, "process.snapshot", I(700), I(700), I(2), "nfsd");
	/* a call of another client, which this one never made */
	event(0, server_clock(100), 700, "sunrpc.svc.process.entry", "nfsd",
	      I(100003), I(0xa9fe0009), I(0x11110000), I(100003), I(3), I(1));
	event(0, server_clock(5100), 700, "sunrpc.svc.send.entry", "nfsd",
	      I(0xa9fe0009), I(0x11110000), I(100003), I(3), I(1));
	for (i = 0; i + 1 < n; i++) {
		int cpu = (int)((i >> 1) & 1);

		event(cpu, server_clock(r[i].process), 700,
		      "sunrpc.svc.process.entry", "nfsd", I(100003),
		      I(0xa9fe0001), I(r[i].xid), I(100003), I(3),
		      I(r[i].proc));
		event(cpu, server_clock(r[i].send), 700,
		      "sunrpc.svc.send.entry", "nfsd", I(0xa9fe0001),
		      I(r[i].xid), I(100003), I(3), I(r[i].proc));
	}
}

/* An NFS client's calls and its server's halves, on two hosts. */
static void rpc(void)
{
	static const uint32_t procs[] = { 1, 3, 6, 7 };
	uint64_t state = 88172645463325252ull;
	struct rpc *r = calloc((size_t)nr_events + 1, sizeof(*r));
	long i;

	if (!r)
		exit(1);
	for (i = 0; i < nr_events; i++) {
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		r[i].xid = 0x5a3c0000u + (uint32_t)i;
		r[i].proc = procs[(state >> 40) % 4];
		r[i].execute = 1000000 + (uint64_t)i * 250000000 +
			       (state >> 8) % 200000;
		r[i].process = r[i].execute + 30000 + (state >> 20) % 150000;
		r[i].send = r[i].process + 10000 + (state >> 32) % 400000;
		r[i].release = r[i].send + 30000 + (state >> 44) % 150000;
	}
	rpc_client(r, nr_events);
	close_files();
	open_files("-server");
	rpc_server(r, nr_events);
	free(r);
	printf("clocks %llu %llu %d\n", (unsigned long long)RPC_C0,
	       (unsigned long long)RPC_S0, RPC_PPM);
}

static void make_golden(void)
{
	golden(false);
}

static void make_badmeta(void)
{
	golden(true);
}

static void make_nometa(void)
{
	no_meta_1_2 = true;
	golden(false);
}

static void make_bench(void)
{
	bench(nr_events);
}

static void make_syscalls(void)
{
	syscalls(nr_events);
}

static void make_sysnames(void)
{
	sysnames(nr_events);
}

static void make_many(void)
{
	many(nr_events);
}

static void make_stackbench(void)
{
	stackbench(nr_events);
}

static void make_timechart(void)
{
	timechart(nr_events);
}

static const struct trace_kind {
	const char *name;
	void (*make)(void);
	/* what it writes, for --help: lines of at most 62 columns */
	const char *help;
} kinds[] = {
	{ "golden", make_golden,
	  "a small trace that exercises every decoding path: both CPUs,\n"
	  "equal timestamps, strings to escape, user-appended data, an\n"
	  "event without metadata, a process map, lost flushes" },
	{ "badmeta", make_badmeta,
	  "the golden trace plus metadata that contradicts itself: a\n"
	  "second register_sys_event for syscall.entry with other fields,\n"
	  "one whose formats and names don't pair up, one for group 0" },
	{ "nometa", make_nometa,
	  "the golden trace without the metadata of groups 1 and 2\n"
	  "(syscall, process), as if their registrations were lost: their\n"
	  "events decoded by the catalogue" },
	{ "bench", make_bench,
	  "EVENTS records of a realistic mix (syscall entry/return with\n"
	  "names, context switches, page faults) on 2 CPUs" },
	{ "syscalls", make_syscalls,
	  "EVENTS records of one task in a getppid loop on CPU 1:\n"
	  "syscall.entry, syscall.return, ... with names, as\n"
	  "addevent.syscall writes them (bench/peers.sh: the same events\n"
	  "as raw_syscalls recorded by perf and trace-cmd)" },
	{ "idle", idle,
	  "ls and sh switching to and from the idle task (tid 0) on CPU 0\n"
	  "and 1, tid 0 writing records in between" },
	{ "bigflush", bigflush,
	  "two big flushes of CPU 1, 2000 records each, with 40 bytes of\n"
	  "garbage where a record should start: first thing in one, in\n"
	  "the middle of the other; between them a flush of garbage" },
	{ "sysnames", make_sysnames,
	  "EVENTS system calls of as many names, an entry and a return\n"
	  "each, on 2 CPUs" },
	{ "nameless", nameless,
	  "system calls without a name: rt_sigreturn's return (the return\n"
	  "hook reads the number from the registers it restored) and a\n"
	  "number no table knows, entry and return" },
	{ "calls", calls,
	  "system calls that both the syscall group and an iosyscall hook\n"
	  "record, next to each other on their CPU or not" },
	{ "allcalls", allcalls,
	  "each system call an entry hook records, with its hook's record" },
	{ "strings", strings,
	  "strings that JSON and CSV must escape: quotes, commas, line\n"
	  "ends, control bytes, valid and invalid UTF-8, in fields and in\n"
	  "a process name; process names that start like spreadsheet\n"
	  "formulas (=, +, -, @, tab, CR)" },
	{ "latency", latency,
	  "entry/return pairs and request lifecycles with planted\n"
	  "latencies (tests/golden/latency.expect lists them), and some\n"
	  "that do not pair up" },
	{ "backwards", backwards,
	  "a system call that returns before it enters: time going back\n"
	  "on CPU 0 for two records, a negative latency for the report;\n"
	  "CPU 1 in order" },
	{ "wakeups", wakeups,
	  "two threads of one process ping-pong on 2 CPUs, 10 rounds:\n"
	  "thread 6002 waits i us for CPU 1 after its wake-up in round i,\n"
	  "thread 6001 0.5 us each time; a wake-up of a thread still\n"
	  "running (6003), which it absorbs; a fork's wakeup_new that\n"
	  "waits 5 us (6004), then its migrate; a wake-up whose thread\n"
	  "never runs (6005) (tests/golden/sched_report.expect)" },
	{ "wakeuptie", wakeup_tie,
	  "a thread woken on CPU 1 in the nanosecond it leaves CPU 0 to\n"
	  "sleep, run again 3 us later: whether the wake-up came before\n"
	  "it left, the trace cannot tell" },
	{ "exits", exits,
	  "tasks that exit (prev_state TASK_DEAD, 0x80): sh (8101) forks\n"
	  "cat (8102), runnable 5 us, which runs 10 us, wakes sh after 9\n"
	  "us of sleep and exits, switching sh in; waiter (8103), asleep\n"
	  "10 us, woken by sh, runs 7 us and exits; the trace goes on\n"
	  "775 us after" },
	{ "irqwake", irqwake,
	  "rcu_preempt (8201) on CPU 0, blocked 48 us, is woken by a\n"
	  "timer interrupt that hit ls (8202), running on CPU 1 (its\n"
	  "record is ls's, flagged LKET_RECORD_IRQ); blocked again 20 us,\n"
	  "it is woken by waker (8203), a task that the trace shows first\n"
	  "10 us into that sleep, switched in on CPU 1" },
	{ "dbnames", dbnames,
	  "metadata that text takes and SQL names do not: a field name\n"
	  "five times, named like a common column (tid), another three\n"
	  "times (len), a field named xmin, names past 63 bytes, events\n"
	  "named like the database's own tables (events, trace, ...)" },
	{ "longnames", longnames,
	  "field names past the 127 bytes a CTF member name keeps, alike\n"
	  "up to there, and a name twice" },
	{ "many", make_many,
	  "EVENTS distinct events (group 100 on), one record each" },
	{ "moved", moved,
	  "process and SCSI events under IDs of their own (groups 40 and\n"
	  "41), fields added and dropped: a trace whose catalogue\n"
	  "differs, decoded by its metadata and known by its names" },
	{ "tasks", tasks,
	  "one group and the always-on task records: threads born after\n"
	  "the process snapshot, renamed by exec and by prctl, and ended" },
	{ "timechart", make_timechart,
	  "EVENTS records of 8 tasks on 2 CPUs: context switches, idle,\n"
	  "system calls, page faults, forks and execs, signals, block\n"
	  "requests (ioscheduler, scsi), RPC calls" },
	{ "lanes", lanes,
	  "lanes the timechart must end: a task that exits, a kworker\n"
	  "whose switch-out is missing; prints the exits" },
	{ "pairs", pairs,
	  "30 system calls of close latencies, call k made k + 1 times:\n"
	  "more histograms than the picture draws" },
	{ "late", late,
	  "a few events at the end of the clock, the last at 2^64 - 256" },
	{ "drops", drops,
	  "(with -p) 30 system calls on CPU 0, each followed by a record\n"
	  "the tracer dropped: 30 runs of lost records, more than\n"
	  "lket-b2a shows messages for" },
	{ "stacks", stacks,
	  "kernel call stacks (ADDRS user fields, as lket_stack() writes\n"
	  "them) and the module records to symbolise them with: the\n"
	  "kernel and modules of tests/golden/stack-*.s, frames in each,\n"
	  "one stack seen twice, an empty one, addresses outside every\n"
	  "module, a module whose debuginfo has another build ID, and a\n"
	  "stack whose count runs past its record" },
	{ "stackslate", stackslate,
	  "modules loaded while tracing: their records after the first\n"
	  "events, on the other CPU: a stack through my_mod before its\n"
	  "record and after it, my_mod loaded again elsewhere, then other\n"
	  "where my_mod was first, and a record repeated" },
	{ "stackbench", make_stackbench,
	  "the stacks trace's metadata, then EVENTS write entries on 2\n"
	  "CPUs, each with a 16-frame stack of the kernel and my_mod, of\n"
	  "96 distinct stacks: symbolisation once warm" },
	{ "rpc", rpc,
	  "two hosts, an NFS client and its server, EVENTS RPCs 250 ms\n"
	  "apart: PREFIX-client_N and PREFIX-server_N. The server's clock\n"
	  "runs 40 ppm fast and its header's wall-clock offset is 1.5 ms\n"
	  "off; the call takes 30-180 us each way, the server 10-410 us.\n"
	  "The last call is never answered, and the server answers one\n"
	  "call of another client. Both hosts have a thread 700 (dd on\n"
	  "the client, nfsd on the server). Prints the truth on standard" },
};

static void open_files(const char *suffix)
{
	char path[4096];
	int cpu;

	for (cpu = 0; cpu < NCPU; cpu++) {
		snprintf(path, sizeof(path), "%s%s_%d", out_prefix, suffix, cpu);
		written[cpu] = dropped[cpu] = 0;
		files[cpu] = fopen(path, "wb");
		if (!files[cpu]) {
			perror(path);
			exit(1);
		}
		setvbuf(files[cpu], NULL, _IOFBF, 1 << 20);
	}
}

/* -e: the end of the trace, as the tracer's last end probe writes it */
static void trace_end(void)
{
	uint64_t n[NCPU], d[NCPU], ts = last_ts + 1000;
	int cpu;

	memcpy(n, written, sizeof(n));
	memcpy(d, dropped, sizeof(d));
	for (cpu = 0; cpu < NCPU; cpu++)
		event(0, ts, 900, "lket.cpu_end", I(cpu_number[cpu]), I(n[cpu]), I(d[cpu]));
	event(0, ts, 900, "lket.trace_end", I(nr_skipped), I(0));
}

static void close_files(void)
{
	int cpu;

	if (with_end)
		trace_end();

	for (cpu = 0; cpu < NCPU; cpu++)
		if (fclose(files[cpu])) {
			perror("lket-gen");
			exit(1);
		}
}

/* The options, then every scenario with what it writes: to standard
 * output for --help (0), else to standard error (2). */
static int usage(FILE *f, int status)
{
	static const char options[] =
"usage: lket-gen [OPTION]... SCENARIO PREFIX\n"
"Write an LKET trace exactly as the runtime shim and SystemTap's bulk\n"
"transport do, into PREFIX_0 and PREFIX_1 (as stap -o PREFIX names them),\n"
"for lket-b2a's golden tests and benchmarks.\n"
"\n"
"  -f v4|v5|none  framing: SystemTap 4.7-4.9's (the default), 5.0's (a\n"
"                 magic before each flush), or records end to end\n"
"  -s             the other byte order\n"
"  -p             each CPU numbers its own flushes (format version 2, the\n"
"                 patched runtime); without it one counter numbers them\n"
"                 all (version 1)\n"
"  -c N           CPU 1's records name CPU N instead (a machine with N+1\n"
"                 CPUs or more: over 255, format version 4's wider field)\n"
"  -e             the trace ends as LKET ends it (format version 4 with\n"
"                 -p): an lket.cpu_end record per CPU (the records written\n"
"                 there, those dropped) and lket.trace_end, on CPU 0 after\n"
"                 the last record\n"
"  -k N           (with -e) lket.trace_end says SystemTap skipped N probe\n"
"                 hits\n"
"  -F             a flight recording (lket.flight after the trace header)\n"
"  -w NS          the trace header's wall-clock offset (ns since 1970 of\n"
"                 timestamp 0), instead of 2025-11-29T13:00:00Z's\n"
"  -n EVENTS      how many events the scenarios that say EVENTS write\n"
"                 (default 1000000)\n"
"  -h, --help     this help\n"
"\n"
"SCENARIO:\n";
	const struct trace_kind *k;
	const char *p, *nl;

	fputs(options, f);
	for (k = kinds; k < kinds + sizeof(kinds) / sizeof(kinds[0]); k++) {
		fprintf(f, "  %-12s ", k->name);
		for (p = k->help; (nl = strchr(p, '\n')); p = nl + 1)
			fprintf(f, "%.*s\n%15s", (int)(nl - p), p, "");
		fprintf(f, "%s\n", p);
	}
	return status;
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct trace_kind *kind;
	int opt;

	while ((opt = getopt_long(argc, argv, "f:psn:ek:c:w:Fh", long_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'h':
			return usage(stdout, 0);
		case 'F':
			flight = true;
			break;
		case 'c':
			cpu_number[1] = (unsigned int)atol(optarg);
			break;
		case 'w':
			wall_offset = atoll(optarg);
			break;
		case 'e':
			with_end = true;
			break;
		case 'k':
			nr_skipped = atol(optarg);
			break;
		case 'f':
			framing = !strcmp(optarg, "v5") ? F_V5 :
				  !strcmp(optarg, "none") ? F_NONE : F_V4;
			break;
		case 'p':
			per_cpu_seq = true;
			break;
		case 's':
			swap = true;
			break;
		case 'n':
			nr_events = atol(optarg);
			break;
		default:
			fputs("Try 'lket-gen --help' for more information.\n",
			      stderr);
			return 2;
		}
	}
	for (kind = kinds; argc - optind == 2 &&
	     kind < kinds + sizeof(kinds) / sizeof(kinds[0]); kind++)
		if (!strcmp(argv[optind], kind->name))
			break;
	if (argc - optind != 2 || kind == kinds + sizeof(kinds) / sizeof(kinds[0]))
		return usage(stderr, 2);
	out_prefix = argv[optind + 1];
	open_files(kind->make == rpc ? "-client" : "");
	kind->make();
	close_files();
	return 0;
}
