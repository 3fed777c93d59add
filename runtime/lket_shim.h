/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lket_shim.h - the kernel side of LKET records.
 *
 * Embedded once, after lket_format.h and lket_ids.h, into the embedded-C
 * block of the generated tapset/lket_catalogue.stp, so it becomes part of
 * the one C file stap writes for a module: it may define state.  It sits
 * after SystemTap's runtime (print buffer, transport), whose internals it
 * uses.
 *
 * A record is written by one probe handler, on one CPU, with preemption
 * disabled (SystemTap holds the per-CPU probe context):
 *
 *	lket_record_reserve()	reserve the record head and the hook's
 *				fields, which the generated writer fills in
 *	user fields		printf() in the user's probe body
 *	lket_record_end()	total_size = the record's bytes with what
 *				the probe body printed
 *
 * (With -D ASCII_TRACE the writer uses lket_ascii_record_begin() and a
 * printf of the fields as text instead.)
 *
 * With the patched runtime (LKET_FRAMES, tools/stap-runtime-patches/
 * 30-per-cpu-frames.patch), the head and fields are written in place, at
 * the end of the frame open in this CPU's relay sub-buffer
 * (_stp_frame_reserve()); what the probe body prints collects in the
 * print buffer and is appended behind them when the record ends (moving
 * the record to the next sub-buffer if this one cannot take both), so the
 * handler's own flush finds nothing to do.  No lock and no atomic
 * operation on memory shared with other CPUs is on that path: a probe
 * handler holds the runtime context, so nothing else writes on this CPU,
 * and interrupts are off.  A frame holds a sub-buffer's worth of records,
 * so stapio's reads and writes are per frame, not per record.  Each frame
 * starts with a packet record (group 0): the records this CPU dropped
 * since its previous frame, because the transport was full (also counted
 * in lket_nr_dropped and reported when tracing stops), so lket-b2a names
 * the CPU, the number and the times between which records were lost.
 *
 * A runtime without the patch gets the print lock and SystemTap's flush
 * of every record at the end of its handler, as before: the record is
 * staged in the print buffer, where its head sits at offset 0 (the
 * reserve flushes whatever the buffer held) and is patched in place until
 * the buffer is flushed.
 *
 * Either way SystemTap flushes the print buffer when a printf() does not
 * fit in what is left of it.  A record with its user data therefore MUST
 * fit in the print buffer (STP_BUFFER_SIZE, 8192 bytes): if the user's
 * probe body printf()s more than that, the buffer is flushed with the
 * record unfinished, the record is split and lket_record_end() finds it
 * gone; it counts that (lket_nr_split, reported when tracing stops)
 * instead of patching bytes that are no longer there.  The unfinished
 * head was sent with total_size == sys_size, so a reader treats the user
 * fields as garbage between records and resynchronises.
 *
 * Everything here runs in probe context: no sleeping, no allocation, and
 * bounded work (process_snapshot() is capped at LKET_SNAPSHOT_MAX tasks,
 * and walks them in batches when LKET starts).
 */
#ifndef LKET_SHIM_H
#define LKET_SHIM_H

#include <linux/buildid.h>
#include <linux/compat.h>
#include <linux/elf.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/stacktrace.h>
#include <linux/version.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/utsname.h>
#include <asm/syscall.h>

/* "stap -D ASCII_TRACE": write text lines instead of binary records. */
#ifdef ASCII_TRACE
#define LKET_ASCII_TRACE	1
#else
#define LKET_ASCII_TRACE	0
#endif

/*
 * The record clock, named in the trace header: local_clock(), the
 * scheduler's clock that perf stamps its samples with (ftrace's "local"
 * clock is its sched_clock()): NMI-safe, per CPU without locks, kept in
 * step across CPUs.  ktime_get_mono_fast_ns() reads the clocksource
 * itself, which where it is not the TSC (hpet or acpi_pm, as in many
 * virtual machines) costs a device access per record: under qemu's
 * emulation that was most of what a record cost.
 */
#ifdef LKET_CLOCK_MONO
/* stap -D LKET_CLOCK_MONO: CLOCK_MONOTONIC, steered by NTP */
#define LKET_CLOCK_NAME		"mono"
#else
#define LKET_CLOCK_NAME		"local"
#endif

#ifndef LKET_SNAPSHOT_MAX
#define LKET_SNAPSHOT_MAX	65536
#endif

/*
 * The patched runtime appends records to per-CPU frames without the print
 * lock, and numbers frames per CPU: the trace header then says
 * LKET_FORMAT_VERSION, else LKET_FORMAT_VERSION_GLOBAL_SEQ.
 */
#if defined(STP_FRAME_RESERVE) && defined(STP_SEQ_PER_CPU)
#define LKET_FRAMES		1
#define LKET_TRACE_VERSION	LKET_FORMAT_VERSION
#else
#define LKET_FRAMES		0
#define LKET_TRACE_VERSION	LKET_FORMAT_VERSION_GLOBAL_SEQ
#endif

/* Every record must fit in total_size, and in the print buffer. */
#if STP_BUFFER_SIZE > LKET_RECORD_MAX
#error "STP_BUFFER_SIZE is larger than an LKET record can be"
#endif

/*
 * The record being written on a CPU: to recognise its head in the print
 * buffer, or (LKET_FRAMES) to find it in its frame and what the probe body
 * printed after it.
 */
struct lket_open_record {
	struct lket_record_head *head;	/* print buffer; frame; NULL: dropped */
	u64 timestamp;
	u64 id;
	bool open;		/* begun, not yet ended */
#if LKET_FRAMES
	char *user;		/* where the print buffer's user data starts */
	size_t size;		/* head and fields, in the frame */
#endif
};

static DEFINE_PER_CPU(struct lket_open_record, lket_open_record);

/* Set last by LKET's begin probes: hooks write nothing before it. */
static int lket_ready;
/* The process draining the buffers (stapio, all its threads). */
static pid_t lket_consumer_tgid;
/* Records cut by a print buffer flush (see the top of this file). */
static atomic_t lket_nr_split = ATOMIC_INIT(0);
/* Tasks process_snapshot() did not record (LKET_SNAPSHOT_MAX). */
static atomic_t lket_nr_snapshot_dropped = ATOMIC_INIT(0);
/* Records dropped because this CPU's transport buffers were full. */
static DEFINE_PER_CPU(unsigned long, lket_nr_dropped);
/* ... since this CPU's last packet record */
static DEFINE_PER_CPU(u32, lket_nr_discarded);
/*
 * Records written into this CPU's buffers, but for packet and end records:
 * its lket.cpu_end record says how many, and lket-b2a counts those it
 * finds (a frame lost at the end of a file leaves no gap in the numbers).
 */
static DEFINE_PER_CPU(unsigned long, lket_nr_written);

static unsigned long lket_nr_dropped_sum(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(lket_nr_dropped, cpu);
	return sum;
}

/*
 * A record this CPU could not write: the transport was full, or the CPU
 * has no print buffer (SystemTap allocates them for the CPUs online at
 * start).  Its lket.cpu_end and its next packet record count it.
 */
static void lket_count_dropped(void)
{
	this_cpu_inc(lket_nr_dropped);
	this_cpu_inc(lket_nr_discarded);
}

/*
 * The print buffer of this CPU, for a record.  With the patched runtime,
 * without the print lock (see the top of this file): interrupts off is
 * all a probe handler needs.
 */
static __always_inline bool lket_print_lock(unsigned long *flags)
{
	if (!LKET_FRAMES)
		return _stp_print_trylock_irqsave(flags);
	local_irq_save(*flags);
	return true;
}

static __always_inline void lket_print_unlock(unsigned long *flags)
{
	if (!LKET_FRAMES)
		_stp_print_unlock_irqrestore(flags);
	else
		local_irq_restore(*flags);
}

static inline u64 lket_clock_ns(void)
{
#ifdef LKET_CLOCK_MONO
	return ktime_get_mono_fast_ns();
#else
	return local_clock();
#endif
}

/*
 * Called from the first LKET begin probe, which runs in the stapio thread
 * that started the module (SystemTap runs begin probes from its STP_START
 * request): its thread group is the consumer.  Its tid is stp_pid(); the
 * bulk-mode reader threads are other tids of the same thread group.
 */
static void lket_start(void)
{
	lket_consumer_tgid = current->tgid;
	smp_store_release(&lket_ready, 0);
}

static void lket_live_start(void);
static bool lket_flight_arm(void);

/* Hooks on; then a flight recorder is armed, or live beacons start. */
static void lket_set_ready(void)
{
	smp_store_release(&lket_ready, 1);
	if (!lket_flight_arm())
		lket_live_start();
}

static inline bool lket_is_consumer(const struct task_struct *task)
{
	return task && task->tgid == READ_ONCE(lket_consumer_tgid);
}

/*
 * A switch from the consumer to another task (or to idle) is recorded
 * although current is the consumer: addevent.tskdispatch.ctxswitch
 * records every switch, so that on each CPU a switch's prev is the
 * previous switch's next (without it, a task that got the CPU from
 * stapio had no switch-in in the trace).  Set by that hook's probe just
 * before its lket_skip(), in the same handler, which clears it.
 */
static DEFINE_PER_CPU(bool, lket_switch_from_consumer);

static void lket_record_switch_from_consumer(void)
{
	if (in_task() && lket_is_consumer(current))
		this_cpu_write(lket_switch_from_consumer, true);
}

/*
 * Should a hook write nothing?  Before the metadata is out, and for what
 * the consumer itself does.  In interrupt context "current" is just the
 * task that was interrupted: an IO completion or a packet arriving while
 * stapio runs is not stapio's doing, and is recorded.
 */
static inline bool lket_skip(void)
{
	if (in_task() && lket_is_consumer(current)) {
		if (!this_cpu_read(lket_switch_from_consumer))
			return true;
		this_cpu_write(lket_switch_from_consumer, false);
	}
	return !smp_load_acquire(&lket_ready);
}

#if LKET_ASCII_TRACE
/*
 * Event names for the text prefix, filled by _lket_event_desc() from the
 * begin probes (one thread, before lket_set_ready()) and only read after.
 */
#define LKET_ASCII_NAMES	512
#define LKET_ASCII_NAME_LEN	48

struct lket_ascii_name {
	u16 key;		/* group << 8 | hook */
	char name[LKET_ASCII_NAME_LEN];
};

static struct lket_ascii_name lket_ascii_names[LKET_ASCII_NAMES];
static unsigned int lket_nr_ascii_names;

static void lket_ascii_name_add(unsigned int group, unsigned int hook,
				const char *name)
{
	struct lket_ascii_name *n;

	if (lket_nr_ascii_names >= LKET_ASCII_NAMES)
		return;
	n = &lket_ascii_names[lket_nr_ascii_names++];
	n->key = (group & 0xff) << 8 | (hook & 0xff);
	strscpy(n->name, name, sizeof(n->name));
}

static const char *lket_ascii_name(unsigned int group, unsigned int hook)
{
	u16 key = (group & 0xff) << 8 | (hook & 0xff);
	unsigned int i;

	for (i = 0; i < lket_nr_ascii_names; i++)
		if (lket_ascii_names[i].key == key)
			return lket_ascii_names[i].name;
	return "?";
}

/*
 * A string of a text record, escaped as lket.out escapes it: " and \ as
 * \" and \\, a newline and a tab as \n and \t, other control and
 * non-ASCII bytes as \xHH, and with space true (a process name) blanks
 * as \x20: a name or a file name that holds a newline, or a blank, must
 * not forge a line or a field.  At most max bytes.
 */
static void lket_ascii_string(const char *s, size_t max, bool space)
{
	static const char hex[] = "0123456789abcdef";
	char out[64 + 5];	/* printed a piece at a time */
	size_t i, n = 0;

	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = s[i];

		if (n >= sizeof(out) - 5) {
			out[n] = '\0';
			_stp_print(out);
			n = 0;
		}
		if ((c > ' ' && c < 0x7f && c != '"' && c != '\\') ||
		    (c == ' ' && !space)) {
			out[n++] = c;
		} else if (c == '"' || c == '\\') {
			out[n++] = '\\';
			out[n++] = c;
		} else if (c == '\n' || c == '\t') {
			out[n++] = '\\';
			out[n++] = c == '\n' ? 'n' : 't';
		} else {
			out[n++] = '\\';
			out[n++] = 'x';
			out[n++] = hex[c >> 4];
			out[n++] = hex[c & 15];
		}
	}
	out[n] = '\0';
	_stp_print(out);
}

/* " name=\"value\"", value escaped */
static void lket_ascii_field(const char *name, const char *value)
{
	_stp_printf(" %s=\"", name);
	lket_ascii_string(value, MAXSTRINGLEN, false);
	_stp_print("\"");
}

/*
 * Text records are lines:
 *	<ns> <cpu> <tid> <pid> <execname> <event.name>[ field=value...][user]
 */
static void lket_ascii_prefix(u64 ns, unsigned int group, unsigned int hook)
{
	_stp_printf("%llu %d %d %d ", (unsigned long long)ns,
		    (int)smp_processor_id(), (int)current->pid,
		    (int)current->tgid);
	lket_ascii_string(current->comm, TASK_COMM_LEN, true);
	_stp_printf(" %s", lket_ascii_name(group, hook));
}
#else
static inline void lket_ascii_name_add(unsigned int group, unsigned int hook,
				       const char *name)
{
}
#endif /* LKET_ASCII_TRACE */

/*
 * The head of the record open on this CPU and the length of the record so
 * far, if the head is still where it was reserved; NULL if the print
 * buffer was flushed since (the record was split).  SystemTap's print
 * buffer is private to print.c, which comes after this file; only the
 * functions print.h declares are used.  _stp_reserve_bytes() returns the
 * end of what the buffer holds: reserving one byte and giving it back
 * measures the record without writing anything.
 */
static struct lket_record_head *lket_open_head(struct lket_open_record *rec,
					       size_t *len)
{
	struct lket_record_head *head = rec->head;
	char *end = _stp_reserve_bytes(1);

	if (!end)
		return NULL;
	_stp_unreserve_bytes(1);
	if (end < (char *)head + LKET_RECORD_HEAD_SIZE ||
	    head->magic != LKET_RECORD_MAGIC ||
	    head->timestamp != rec->timestamp || head->id != rec->id)
		return NULL;
	*len = end - (char *)head;
	return head;
}

#if LKET_FRAMES
/*
 * The packet record (lket.packet in runtime/lket_events.def: discarded
 * INT32) at the start of every frame.  Written here
 * rather than by a generated writer: it is placed by
 * _stp_frame_reserve() as the frame opens.  lket-b2a decodes it by the
 * catalogue (built in, as all of group 0): every guest test's trace has
 * them, and a record of another layout would be reported as damage.
 */
#define LKET_PACKET_SIZE	(LKET_RECORD_HEAD_SIZE + 4)

static void lket_packet_write(char *p, u64 ns)
{
	struct lket_record_head head = {
		.magic = LKET_RECORD_MAGIC,
		.total_size = LKET_PACKET_SIZE,
		.sys_size = LKET_PACKET_SIZE,
		.timestamp = ns,
		.id = LKET_ID(0, LKET_GROUP_LKET, LKET_HOOK_PACKET,
			      raw_smp_processor_id()),
	};
	u32 discarded = this_cpu_read(lket_nr_discarded);

	memcpy(p, &head, sizeof(head));
	memcpy(p + sizeof(head), &discarded, sizeof(discarded));
	this_cpu_write(lket_nr_discarded, 0);
}

#ifdef STP_RELAY_BEACON
/*
 * A live trace's beacon (tools/stap-runtime-patches/
 * 97-relay-live-beacons.patch): a packet record stamped now, written on
 * this CPU by its reader's read, interrupts off, when the reader has had
 * nothing for LKET_LIVE_MS.  No record of this CPU older than it is still
 * to come, so lket-b2a --follow need not wait for a quiet CPU.  None
 * while a record is open here: what its probe body prints is appended
 * right behind it when it ends.  None when the buffers are full: that is
 * no news, and not a record lost.
 */
static void lket_beacon(void)
{
	u64 ns = lket_clock_ns();
	void *packet;
	char *p;

	if (this_cpu_ptr(&lket_open_record)->open)
		return;
	/* a frame opened for it: its packet record is the beacon */
	p = _stp_frame_reserve(0, LKET_PACKET_SIZE, &packet);
	if (p && !packet)
		p = _stp_frame_reserve(LKET_PACKET_SIZE, LKET_PACKET_SIZE,
				       &packet);
	else
		p = NULL;
	if (packet)
		lket_packet_write(packet, ns);
	if (p)
		lket_packet_write(p, ns);
}

static void lket_live_start(void)
{
	if (!LKET_ASCII_TRACE)
		WRITE_ONCE(_stp_relay_beacon, lket_beacon);
}

/* No beacon after the end records. */
static void lket_live_stop(void)
{
	WRITE_ONCE(_stp_relay_beacon, NULL);
}
#endif

/*
 * What a return probe needs from its entry, per task: SystemTap's @entry()
 * keeps it in a global map behind a lock, which times out under load (the
 * probe is skipped, its record lost), and 4.8 cannot save it in the
 * kretprobe instance on 6.1.  So each kind has a lock-free table of
 * (task, value) slots: a task holds one slot a kind at most (an entry
 * whose return was missed leaves it to the task's next entry), gives it
 * back at the return, and loses it when it exits.  No two probes of one
 * task run at once, so a slot's value is the task's alone.
 */
enum lket_slot_kind {
	LKET_SLOT_NFS_READ, LKET_SLOT_NFS_WRITE, LKET_SLOT_NFS_DIRTY,
	LKET_SLOT_NFS_SPLICE, LKET_SLOT_BLK_START, LKET_SLOT_SENDFILE,
	LKET_SLOT_OPEN,
	LKET_SLOT_KINDS
};
#define LKET_TASK_SLOTS 64

struct lket_task_slots {
	struct task_struct *task[LKET_TASK_SLOTS];
	unsigned long value[LKET_TASK_SLOTS];
	atomic_t held;		/* slots taken: most returns look no further */
};
static struct lket_task_slots lket_task_slots[LKET_SLOT_KINDS];

static struct lket_task_slots *lket_slots(long kind)
{
	return &lket_task_slots[(unsigned long)kind % LKET_SLOT_KINDS];
}

/* The current task's slot of kind, or -1. */
static int lket_slot_find(struct lket_task_slots *t)
{
	int i;

	if (!atomic_read(&t->held))
		return -1;
	for (i = 0; i < LKET_TASK_SLOTS; i++)
		if (READ_ONCE(t->task[i]) == current)
			return i;
	return -1;
}

/* Keep value for the current task's return; false when the table is
 * full (the caller counts what that loses). */
static bool lket_slot_put(long kind, unsigned long value)
{
	struct lket_task_slots *t = lket_slots(kind);
	int i = lket_slot_find(t);

	if (i < 0) {
		for (i = 0; i < LKET_TASK_SLOTS; i++)
			if (cmpxchg(&t->task[i], NULL, current) == NULL)
				break;
		if (i == LKET_TASK_SLOTS)
			return false;
		atomic_inc(&t->held);
	}
	WRITE_ONCE(t->value[i], value);
	return true;
}

/* The current task's value of kind, its slot given back or kept; false
 * if it has none. */
static bool lket_slot_read(long kind, unsigned long *value, bool give_back)
{
	struct lket_task_slots *t = lket_slots(kind);
	int i = lket_slot_find(t);

	if (i < 0)
		return false;
	*value = READ_ONCE(t->value[i]);
	if (give_back) {
		WRITE_ONCE(t->task[i], NULL);
		atomic_dec(&t->held);
	}
	return true;
}

/* A task exits: its slots of every kind are given back. */
static void lket_slots_forget(struct task_struct *task)
{
	int k, i;

	for (k = 0; k < LKET_SLOT_KINDS; k++) {
		struct lket_task_slots *t = &lket_task_slots[k];

		if (!atomic_read(&t->held))
			continue;
		for (i = 0; i < LKET_TASK_SLOTS; i++)
			if (READ_ONCE(t->task[i]) == task &&
			    cmpxchg(&t->task[i], task, NULL) == task)
				atomic_dec(&t->held);
	}
}

/*
 * Room for size bytes at the end of this CPU's open frame (a new frame
 * starts with a packet record stamped ns); NULL, counted, when the
 * transport is full.  Interrupts are off.
 */
static char *lket_frame_reserve(size_t size, u64 ns)
{
	void *packet;
	char *p = _stp_frame_reserve(size, LKET_PACKET_SIZE, &packet);

	if (!p) {
		lket_count_dropped();
		return NULL;
	}
	if (packet)
		lket_packet_write(packet, ns);
	return p;
}

/*
 * What the probe body printed after this CPU's record (user_len bytes at
 * rec->user in the print buffer), appended to it in its frame.  The
 * record is the last thing in the frame (nothing else writes frames on
 * this CPU while a handler runs); when the frame cannot take the user
 * data, the record is given back and written again, with it, at the start
 * of the next sub-buffer: the old copy is still intact, since the reader
 * only ever sees that sub-buffer's closed frame, and relay reuses a
 * sub-buffer only after it has gone round all the others.
 */
static void lket_frame_user_data(struct lket_open_record *rec, size_t user_len,
				 size_t room)
{
	struct lket_record_head *old = rec->head;
	size_t size = rec->size + user_len;
	char *tail = (char *)old + rec->size;
	void *packet;
	char *p;

	if (size > LKET_RECORD_MAX) {
		atomic_inc(&lket_nr_split);
	} else if (user_len <= room) {
		/* the open frame takes it: right behind the record */
		p = _stp_frame_reserve(user_len, LKET_PACKET_SIZE, &packet);
		if (!WARN_ON_ONCE(p != tail || packet)) {
			memcpy(p, rec->user, user_len);
			old->total_size = size;
		}
	} else {
		_stp_frame_unreserve(rec->size);
		p = lket_frame_reserve(size, rec->timestamp);
		if (p) {
			memcpy(p, old, rec->size);
			memcpy(p + rec->size, rec->user, user_len);
			((struct lket_record_head *)p)->total_size = size;
		} else {
			this_cpu_dec(lket_nr_written);	/* counted dropped */
		}
	}
	_stp_unreserve_bytes(user_len);
}

/*
 * What the probe body printed after the record open on this CPU
 * (user_len bytes), appended to it in its frame.  A record dropped
 * because the transport was full takes what the body printed with it.
 * Out of line: most records have none, and their end pays no frame
 * set-up for it.
 */
static noinline void lket_frame_user_end(struct lket_open_record *rec,
					 size_t user_len)
{
	unsigned long flags;
	size_t room;

	local_irq_save(flags);
	if (!rec->head) {
		_stp_unreserve_bytes(user_len);
	} else if (_stp_frame_tail(&room) != (char *)rec->head + rec->size) {
		/*
		 * A flush of the print buffer closed the frame: the probe body
		 * printed more than the buffer holds
		 */
		atomic_inc(&lket_nr_split);
	} else {
		lket_frame_user_data(rec, user_len, room);
	}
	local_irq_restore(flags);
}

/*
 * Close the record open on this CPU (LKET_FRAMES): it is in its frame
 * already, total_size counting the hook's fields; what the probe body
 * printed since is appended to it.
 */
static __always_inline void lket_frame_record_end(struct lket_open_record *rec)
{
	char *end = _stp_print_end();

	/* nothing printed (most hooks' case): the record is whole already */
	if (likely(!rec->user || end <= rec->user))
		return;
	lket_frame_user_end(rec, end - rec->user);
}
#endif

#if !LKET_FRAMES || !defined(STP_RELAY_BEACON)
/* A runtime without live beacons: nothing to start or stop. */
static void lket_live_start(void)
{
}

static void lket_live_stop(void)
{
}
#endif

/*
 * The flight recorder (lket-run-traced --flight, lket(5) Flight recorder;
 * tools/stap-runtime-patches/98-relay-flight-recorder.patch): lket_flight=1
 * on the module's command line arms it once the trace's start is written.
 * A trigger (lket_snapshot()) freezes the buffers LKET_FLIGHT_GRACE_MS
 * later; so does the stop.
 */
static int lket_flight;
module_param(lket_flight, int, 0400);
MODULE_PARM_DESC(lket_flight, "1: keep each CPU's newest records only, until lket_snapshot() or the stop (lket-run-traced --flight)");

#ifndef LKET_FLIGHT_GRACE_MS
#define LKET_FLIGHT_GRACE_MS	10
#endif

#if LKET_FRAMES && defined(STP_RELAY_FLIGHT) && !LKET_ASCII_TRACE
MODULE_INFO(lket_flight_recorder, "1");	/* lket-run-traced checks */

static bool lket_flight_on(void)
{
	return READ_ONCE(lket_flight) == 1;
}

/*
 * The freeze, from the relay's wake-up timer, which then has the module
 * ask stapio to stop: no hook writes any more.
 */
static void lket_flight_freeze(void)
{
	smp_store_release(&lket_ready, 0);
}

static bool lket_flight_arm(void)
{
	if (!lket_flight_on())
		return false;
	_stp_relay_flight_arm(lket_flight_freeze);
	return true;
}

/* From a probe: true when this call is the trigger that counts. */
static bool lket_flight_trigger(void)
{
	return lket_flight_on() &&
	       _stp_relay_flight_trigger(LKET_FLIGHT_GRACE_MS);
}

/* a no-op unless armed */
static void lket_flight_stop(void)
{
	_stp_relay_flight_stop();
}

/* lket.flight's ring: the bytes of records a CPU keeps at most */
static u64 lket_flight_ring(void)
{
	return _stp_relay_flight_ring();
}
#else
/* A text trace, or a runtime without the flight recorder. */
static bool lket_flight_on(void)
{
	return false;
}

static bool lket_flight_arm(void)
{
	return false;
}

static bool lket_flight_trigger(void)
{
	return false;
}

static void lket_flight_stop(void)
{
}

static u64 lket_flight_ring(void)
{
	return 0;
}
#endif

/*
 * Close the record open on this CPU: total_size = the bytes written so far
 * (the hook's fields and what the user's probe body appended); in a text
 * trace, its newline.
 */
static inline void lket_record_end(void)
{
	struct lket_open_record *rec = this_cpu_ptr(&lket_open_record);
	struct lket_record_head *head;
	unsigned long flags;
	size_t len;

	if (!rec->open)
		return;
	rec->open = false;
	if (LKET_ASCII_TRACE) {
		_stp_print("\n");
		return;
	}
#if LKET_FRAMES
	lket_frame_record_end(rec);
	return;
#endif
	/*
	 * No print lock here, which would cost atomic operations on
	 * SystemTap's global counters per record: the record was opened on
	 * this CPU, so the CPU has a print buffer; records are written by
	 * probe handlers only, and SystemTap never runs two handlers at once
	 * on a CPU.  Interrupts stay off, for builds with -DINTERRUPTIBLE=1.
	 */
	local_irq_save(flags);
	head = lket_open_head(rec, &len);
	if (head) {
		head->total_size = len;
	} else {
		atomic_inc(&lket_nr_split);
	}
	local_irq_restore(flags);
}

/* lket_record_end() as an expression: the public aliases' embedded C */
#define LKET_RECORD_END()	(lket_record_end(), 0)

#if LKET_ASCII_TRACE
/* A text record: its prefix; the writer prints the fields after it. */
static void lket_ascii_record_begin(unsigned int group, unsigned int hook)
{
	struct lket_open_record *rec = this_cpu_ptr(&lket_open_record);

	/* a record left open ("next" in a probe body) still needs its newline */
	lket_record_end();
	lket_ascii_prefix(lket_clock_ns(), group, hook);
	rec->open = true;
}
#endif

/*
 * Kernel call stacks: an ADDRS field (lket_format.h: a count, then the
 * return addresses, innermost first).  lket-b2a symbolises them
 * afterwards from the module records below and the kernel's debuginfo:
 * here they are raw addresses only.
 *
 *  - lket_stack() appends one to the record open on this CPU, as user
 *    data: it goes to the print buffer behind the record, like what a
 *    probe body printf()s;
 *  - stap -D LKET_STACK=N: every hook's record ends with one (at most N
 *    frames), the last of the hook's own fields, "stack", which
 *    register_sys_event() adds to every hook's metadata; records written
 *    here otherwise (process_snapshot()) carry an empty one.
 *
 * A kprobe's handler unwinds from the probed instruction
 * (stack_trace_save_regs(), which the kernel does not export: found
 * through kallsyms when tracing starts), so that the first frame is the
 * probed function.  A return probe's handler runs on the return
 * trampoline, which the probed function returned to; its registers are
 * those of that return, with the instruction pointer set back to the
 * real return address (rethook and kretprobe do so before calling the
 * handler), so it unwinds from them too: the first frame is where the
 * probed function returns to in its caller, then the caller's callers,
 * none of the trampoline's frames.  Should the instruction pointer not be
 * the return address SystemTap knows (a kernel that does not set it),
 * the return probe is unwound as other probes are.  Other probes
 * (tracepoints) unwind from here with stack_trace_save(), and the frames
 * in this module (LKET's and SystemTap's own: the handler) are left out,
 * so that the first is where the kernel called the probe.  Both are the kernel's unwinder (ORC on
 * Debian's kernels), bounded by depth, into a per-CPU buffer: no
 * allocation, no locks.
 */
#ifndef LKET_STACK_DEPTH
#define LKET_STACK_DEPTH	LKET_STACK_DEFAULT_DEPTH
#endif
/* The deepest stack recorded. */
#define LKET_STACK_MAX		64
/* Frames of this module's own, at most, above a probe's caller. */
#define LKET_STACK_OWN		16

#if LKET_STACK_DEPTH > LKET_STACK_MAX || LKET_STACK_DEPTH < 1
#error "LKET_STACK_DEPTH is 1 to LKET_STACK_MAX (64)"
#endif

#ifdef LKET_STACK
#define LKET_STACK_ALL		LKET_STACK
#if LKET_STACK_ALL > LKET_STACK_MAX || LKET_STACK_ALL < 1
#error "LKET_STACK is 1 to LKET_STACK_MAX (64)"
#endif
#else
#define LKET_STACK_ALL		0
#endif

typedef unsigned int (*lket_save_regs_fn)(struct pt_regs *regs,
					  unsigned long *store,
					  unsigned int size,
					  unsigned int skipnr);
static lket_save_regs_fn lket_save_regs;

struct lket_stack_buf {
	unsigned long ip[LKET_STACK_MAX + LKET_STACK_OWN];
	unsigned int n;
};

static DEFINE_PER_CPU(struct lket_stack_buf, lket_stack_buf);

/*
 * The kernel symbols LKET needs, each looked up once.  kallsyms_lookup_name()
 * walks the kernel's symbols one by one, and a probe handler runs with
 * interrupts off: tapset/lket_core.stp has each looked up by a begin
 * probe of its own, the first with the trace header, the others before
 * module_snapshot() (which looks up those still missing itself when a
 * script calls it first).
 */
enum lket_sym {
	LKET_SYM_SAVE_REGS, LKET_SYM_STEXT, LKET_SYM_ETEXT,
	LKET_SYM_BUILD_ID, LKET_SYM_MODULES, LKET_SYMS
};
static const char *const lket_sym_names[LKET_SYMS] = {
	[LKET_SYM_SAVE_REGS] = "stack_trace_save_regs",
	[LKET_SYM_STEXT] = "_stext",
	[LKET_SYM_ETEXT] = "_etext",
	[LKET_SYM_BUILD_ID] = "vmlinux_build_id",
	[LKET_SYM_MODULES] = "modules",
};
static unsigned long lket_sym_addr[LKET_SYMS];
static unsigned int lket_syms_found;	/* looked up, in enum order */

/* Look the next symbol up; false when all are. */
static bool lket_sym_lookup_next(void)
{
	if (lket_syms_found >= LKET_SYMS)
		return false;
	lket_sym_addr[lket_syms_found] =
		kallsyms_lookup_name(lket_sym_names[lket_syms_found]);
	lket_syms_found++;
	return true;
}

static unsigned long lket_sym(enum lket_sym sym)
{
	while (lket_syms_found <= sym && lket_sym_lookup_next())
		;
	return lket_sym_addr[sym];
}

static void lket_stack_init(void)
{
	lket_save_regs = (lket_save_regs_fn)lket_sym(LKET_SYM_SAVE_REGS);
}

/*
 * The registers to unwind the probe a tapset function runs in from: a
 * kprobe's, or a return probe's whose instruction pointer is the real
 * return address; else NULL.  Macros: SystemTap's struct context is
 * complete only in the functions of the script, where CONTEXT is their
 * probe's.
 */
#define LKET_RETURN_REGS_OK						\
	(CONTEXT->ips.krp.pi && CONTEXT->kregs &&			\
	 REG_IP(CONTEXT->kregs) ==					\
	 (unsigned long)_stp_ret_addr_r(CONTEXT->ips.krp.pi))
#define LKET_PROBE_REGS							\
	(CONTEXT->probe_type == stp_probe_type_kprobe ? CONTEXT->kregs :	\
	 CONTEXT->probe_type == stp_probe_type_kretprobe &&		\
	 LKET_RETURN_REGS_OK ? CONTEXT->kregs : NULL)

/*
 * Take the call stack, at most depth frames, into this CPU's buffer;
 * regs: where to unwind from, NULL: here.  Interrupts are off.
 */
static struct lket_stack_buf *lket_stack_take(struct pt_regs *regs,
					      unsigned int depth)
{
	struct lket_stack_buf *buf = this_cpu_ptr(&lket_stack_buf);
	unsigned int own = 0;

	/*
	 * The one record the consumer gets, a switch from it, has none
	 * of its frames: LKET records nothing else the consumer does, and
	 * they would be its reads in this module.
	 */
	if (in_task() && lket_is_consumer(current)) {
		buf->n = 0;
		return buf;
	}
	if (depth > LKET_STACK_MAX)
		depth = LKET_STACK_MAX;
	if (regs && lket_save_regs) {
		buf->n = lket_save_regs(regs, buf->ip, depth, 0);
		return buf;
	}
	buf->n = stack_trace_save(buf->ip, depth + LKET_STACK_OWN, 0);
	while (own < buf->n &&
	       within_module(buf->ip[own], THIS_MODULE))
		own++;
	buf->n -= own;
	if (buf->n > depth)
		buf->n = depth;
	memmove(buf->ip, buf->ip + own, buf->n * sizeof(buf->ip[0]));
	return buf;
}

static inline size_t lket_stack_size(const struct lket_stack_buf *buf)
{
	return sizeof(lket_addrs_count_t) + buf->n * sizeof(lket_addr_t);
}

/* The ADDRS field of buf at p; returns its end. */
static char *lket_stack_put(char *p, const struct lket_stack_buf *buf)
{
	lket_addrs_count_t count = buf->n;
	lket_addr_t addr;
	unsigned int i;

	memcpy(p, &count, sizeof(count));
	p += sizeof(count);
	for (i = 0; i < buf->n; i++, p += sizeof(addr)) {
		addr = buf->ip[i];
		memcpy(p, &addr, sizeof(addr));
	}
	return p;
}

/*
 * lket_stack(): append the call stack, at most depth frames, to this
 * CPU's open record, as user data.
 */
static void lket_stack_append(struct pt_regs *regs, unsigned int depth)
{
	struct lket_stack_buf *buf;
	unsigned long flags;

	if (!this_cpu_ptr(&lket_open_record)->open)
		return;		/* no record: nothing to append to */
	local_irq_save(flags);
	buf = lket_stack_take(regs, depth);
	if (LKET_ASCII_TRACE) {
		unsigned int i;

		_stp_print(" stack=[");
		for (i = 0; i < buf->n; i++)
			_stp_printf(i ? ", %#lx" : "%#lx", buf->ip[i]);
		_stp_print("]");
	} else {
		char *p = _stp_reserve_bytes(lket_stack_size(buf));

		if (p)
			lket_stack_put(p, buf);
	}
	local_irq_restore(flags);
}

/* Room for the largest metadata record: a head, two IDs, two strings. */
#define LKET_META_ROOM	(LKET_RECORD_HEAD_SIZE + 2 + 2 * MAXSTRINGLEN)

/*
 * The binary writers generated from the catalogue write a whole record at
 * once, with interrupts off (unpatched runtime: under one print lock):
 *
 *	p = lket_record_reserve(group, hook, body, &flags);
 *	if (p) {
 *		p = lket_put(p, &field, size); ...	exactly body bytes
 *		lket_record_reserved(&flags);
 *	}
 *
 * The record starts where no buffer-full flush can split it.  Any amount
 * of user data may follow a hook's record, so it starts an empty print
 * buffer: reserving a whole buffer flushes what it holds, and the rest is
 * given back.  Metadata records (group 0) have no user data and are
 * bounded by their two strings; written by the hundred at start-up, they
 * share buffers when the runtime is unpatched, with room kept for the
 * largest (reserving it flushes only when it is not there).  A record left open (a "next" or an error
 * in a probe body skipped its _lket_record_end()) is closed first.
 */
/*
 * Is this a hard IRQ or a softirq, whose "current" is only the task it
 * hit (LKET_RECORD_IRQ)?  A kprobe that int3 fired runs inside
 * irqentry_nmi_enter() on x86-64, which counts an NMI and a hard IRQ of
 * its own, in a task or not: each NMI level is taken off the hard IRQs,
 * and what is left is an interrupt the probe fired in.  PREEMPT_RT runs
 * softirqs in threads (ktimers/N, ksoftirqd/N, or whoever enabled them),
 * whose work is theirs: only a hard IRQ counts there.
 */
static __always_inline bool lket_in_irq(void)
{
	unsigned long pc = preempt_count();
	unsigned long hardirqs = (pc & HARDIRQ_MASK) >> HARDIRQ_SHIFT;
	unsigned long nmis = (pc & NMI_MASK) >> NMI_SHIFT;

	return hardirqs > nmis ||
	       (!IS_ENABLED(CONFIG_PREEMPT_RT) && in_serving_softirq());
}

static void lket_head_fill(struct lket_record_head *head, size_t size,
			   u64 ns, unsigned int group, unsigned int hook)
{
	head->magic = LKET_RECORD_MAGIC;
	head->total_size = size;
	head->sys_size = size;
	head->flags = lket_in_irq() ? LKET_RECORD_IRQ : 0;
	head->timestamp = ns;
	head->id = LKET_ID(current->pid, group, hook, raw_smp_processor_id());
}

static char *lket_record_reserve_at(unsigned int group, unsigned int hook,
				    size_t body, unsigned long *flags,
				    struct pt_regs *regs)
{
	struct lket_open_record *rec = this_cpu_ptr(&lket_open_record);
	struct lket_stack_buf *stack = NULL;
	struct lket_record_head *head;
	size_t size = sizeof(*head) + body;
	u64 ns = lket_clock_ns();

	lket_record_end();
	if (LKET_STACK_ALL && group != LKET_GROUP_LKET) {
		/* -D LKET_STACK: the stack ends the hook's fields */
		stack = lket_stack_take(regs, LKET_STACK_ALL);
		size += lket_stack_size(stack);
	}
	if (size > STP_BUFFER_SIZE || size > LKET_RECORD_MAX) {
		atomic_inc(&lket_nr_split);
		return NULL;
	}
	if (!lket_print_lock(flags)) {
		lket_count_dropped();
		return NULL;
	}
#if LKET_FRAMES
	/*
	 * Straight into the frame; what the probe body prints goes to the
	 * print buffer, from rec->user on, until lket_record_end().  A CPU
	 * without a print buffer (onlined after start) still writes the
	 * record; only what the body prints is lost.
	 */
	/* where the probe body's prints will start: read, not reserved (a
	 * record whose body prints nothing, most hooks', makes no print
	 * buffer call at either end; runtime patch 96) */
	rec->user = _stp_print_end();
	head = (struct lket_record_head *)lket_frame_reserve(size, ns);
	rec->size = size;
	rec->head = head;
	rec->timestamp = ns;
	rec->open = true;
	if (!head) {
		lket_print_unlock(flags);
		return NULL;
	}
#else
	if (group != 0) {
		head = _stp_reserve_bytes(STP_BUFFER_SIZE);
		if (head && size < STP_BUFFER_SIZE)
			_stp_unreserve_bytes(STP_BUFFER_SIZE - size);
	} else {
		if (_stp_reserve_bytes(LKET_META_ROOM))
			_stp_unreserve_bytes(LKET_META_ROOM);
		head = _stp_reserve_bytes(size);
	}
	if (!head) {
		lket_count_dropped();
		lket_print_unlock(flags);
		return NULL;
	}
	rec->head = head;
	rec->timestamp = ns;
	rec->open = true;
#endif
	lket_head_fill(head, size, ns, group, hook);
	rec->id = head->id;
	this_cpu_inc(lket_nr_written);
	if (stack)
		lket_stack_put((char *)(head + 1) + body, stack);
	return (char *)(head + 1);
}

/*
 * The generated writers' call: in a tapset function, with its probe's
 * registers for the -D LKET_STACK stack.
 */
#define lket_record_reserve(group, hook, body, flags)			\
	lket_record_reserve_at(group, hook, body, flags, LKET_PROBE_REGS)

static __always_inline void lket_record_reserved(unsigned long *flags)
{
	lket_print_unlock(flags);
}

static inline char *lket_put(char *p, const void *field, size_t size)
{
	memcpy(p, field, size);
	return p + size;
}

/*
 * Argument n (1 to 6) of the system call the current task is in, as its
 * entry saved it, for the writers' LKET_SYSARG fields (runtime/
 * lket_events.def): a load from the task's own pt_regs.  SystemTap's
 * int_arg() and the like read each argument through the pointer the
 * syscall wrapper was passed, with a fault-guarded copy: on read()'s
 * entry hook that was half of what the hook cost.  syscall_get_arguments()
 * knows a 32-bit call's registers; its arguments are 32 bits wide.
 */
static __always_inline unsigned long lket_sysarg(unsigned int n)
{
	unsigned long args[6];

	syscall_get_arguments(current, task_pt_regs(current), args);
	return args[(n - 1) % 6];
}

static __always_inline bool lket_sysarg_32(void)
{
#if defined(CONFIG_X86_64) && defined(CONFIG_IA32_EMULATION)
	return in_ia32_syscall();
#else
	return false;
#endif
}

/* as SystemTap's int_arg(), uint_arg(), long_arg() and ulong_arg() */
#define LKET_SYSARG_INT(n)	((s64)(s32)lket_sysarg(n))
#define LKET_SYSARG_UINT(n)	((s64)(u32)lket_sysarg(n))
#define LKET_SYSARG_LONG(n)	(lket_sysarg_32() ? (s64)(s32)lket_sysarg(n) : \
				 (s64)lket_sysarg(n))
#define LKET_SYSARG_ULONG(n)	(lket_sysarg_32() ? (s64)(u32)lket_sysarg(n) : \
				 (s64)lket_sysarg(n))

/*
 * process_snapshot(): one PROCESS_SNAPSHOT record per task (tid, pid,
 * ppid, process_name).  Written here rather than by the
 * generated writer because a script loop over every task would exceed
 * MAXACTION; the layout must match the catalogue entry (the guest test,
 * tests/tapset/guest.sh, decodes init's record by the catalogue's
 * metadata).  Each record is reserved whole: in its frame (LKET_FRAMES),
 * or in the print buffer, which several share without being split.
 */
static void lket_snapshot_task(struct task_struct *t)
{
	char comm[TASK_COMM_LEN];
	u32 f[3];		/* tid, pid, ppid */
	u64 ns = lket_clock_ns();

	/* An unlocked copy, as tracepoints do; always NUL-terminated. */
	memcpy(comm, t->comm, sizeof(comm));
	comm[sizeof(comm) - 1] = '\0';
	f[0] = t->pid;
	f[1] = t->tgid;
	f[2] = task_tgid_nr(rcu_dereference(t->real_parent));
#if LKET_ASCII_TRACE
	lket_ascii_prefix(ns, LKET_GROUP_PROCESS,
			  LKET_HOOK_PROCESS_SNAPSHOT);
	_stp_printf(" tid=%d pid=%d ppid=%d", (int)f[0], (int)f[1], (int)f[2]);
	lket_ascii_field("process_name", comm);
	_stp_print("\n");
#else
	{
		/* -D LKET_STACK: every record has a stack; this one none */
		const struct lket_stack_buf none = { .n = 0 };
		struct lket_record_head *head;
		size_t len = strlen(comm) + 1;
		size_t size = sizeof(*head) + sizeof(f) + len +
			      (LKET_STACK_ALL ? lket_stack_size(&none) : 0);
		unsigned long flags;
		char *p;

		if (!lket_print_lock(&flags)) {
			lket_count_dropped();
			return;
		}
#if LKET_FRAMES
		/* into the frame: a full transport drops (and counts) this
		 * record alone, where a flush of the print buffer would have
		 * dropped all it held, counted as written */
		p = lket_frame_reserve(size, ns);
#else
		p = _stp_reserve_bytes(size);
		if (!p)
			lket_count_dropped();
#endif
		if (p) {
			head = (struct lket_record_head *)p;
			lket_head_fill(head, size, ns, LKET_GROUP_PROCESS,
				       LKET_HOOK_PROCESS_SNAPSHOT);
			memcpy(p + sizeof(*head), f, sizeof(f));
			memcpy(p + sizeof(*head) + sizeof(f), comm, len);
			if (LKET_STACK_ALL)
				lket_stack_put(p + sizeof(*head) + sizeof(f) +
					       len, &none);
			this_cpu_inc(lket_nr_written);
		}
		lket_print_unlock(&flags);
	}
#endif
}

/*
 * The walk, by task ID (find_ge_pid(): each thread has its own), in
 * batches of LKET_SNAPSHOT_BATCH tasks, each from its own begin probe
 * (tapset/lket_core.stp): a probe handler runs with interrupts off, and
 * one walk of every task held a CPU for as long as 131072 tasks take,
 * which PREEMPT_RT cannot afford.  Between batches the walk goes on from
 * the next ID: a task that exits meanwhile is simply not found, one born
 * meanwhile is found if its ID is above the cursor (IDs are handed out
 * upwards until they wrap).  Began by lket_snapshot_begin(), from one
 * thread (the begin probes run one after the other).
 */
#define LKET_SNAPSHOT_BATCH	4096

static int lket_snapshot_next;		/* next task ID; -1: done */
static unsigned int lket_snapshot_recorded, lket_snapshot_left;

static void lket_snapshot_begin(void)
{
	lket_snapshot_next = 1;
	lket_snapshot_recorded = 0;
	lket_snapshot_left = 0;
}

/* The next batch of the walk; false when it is done. */
static bool lket_snapshot_batch(void)
{
	unsigned int n = 0;
	struct task_struct *t;
	struct pid *pid;

	if (lket_snapshot_next < 0)
		return false;
	lket_record_end();	/* close whatever this CPU has open */
	rcu_read_lock();
	while (n < LKET_SNAPSHOT_BATCH) {
		pid = find_ge_pid(lket_snapshot_next, &init_pid_ns);
		if (!pid) {
			lket_snapshot_next = -1;
			break;
		}
		lket_snapshot_next = pid_nr(pid) + 1;
		t = pid_task(pid, PIDTYPE_PID);
		if (!t)
			continue;
		n++;
		if (lket_snapshot_recorded < LKET_SNAPSHOT_MAX) {
			lket_snapshot_task(t);
			lket_snapshot_recorded++;
		} else if (++lket_snapshot_left > LKET_SNAPSHOT_MAX) {
			lket_snapshot_next = -1;	/* bound the walk too */
			break;
		}
	}
	rcu_read_unlock();
	return lket_snapshot_next >= 0;
}

/* The walk's end: the rest of it, here, when the begin probes' batches
 * did not reach it (-D LKET_SNAPSHOT_MAX above 65536); what it left out,
 * counted. */
static void lket_snapshot_finish(void)
{
	while (lket_snapshot_batch())
		;
	if (lket_snapshot_left)
		atomic_add(lket_snapshot_left, &lket_nr_snapshot_dropped);
	lket_snapshot_left = 0;
}

/* process_snapshot(): the whole walk at once, in the caller's handler. */
static void lket_process_snapshot(void)
{
	lket_snapshot_begin();
	lket_snapshot_finish();
}

/*
 * Module records (lket.module): the kernel, then every module loaded when
 * tracing starts, with where its text is and its GNU build ID, so that
 * lket-b2a can symbolise call stacks (KASLR moves the kernel, modules
 * load anywhere).  Written from a begin probe, then one for each module
 * loaded while tracing (lket_module_loaded()).
 */
#define LKET_BUILD_ID_MAX	BUILD_ID_SIZE_MAX	/* a SHA-1's 20 */
/* ELF's NT_GNU_BUILD_ID (<elf.h>), which the kernel's headers lack */
#define LKET_NT_GNU_BUILD_ID	3
#define LKET_BUILD_ID_HEX	(2 * LKET_BUILD_ID_MAX + 1)

static void lket_hex(char *hex, const u8 *id, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	hex[2 * len] = '\0';
}

/*
 * Where a module's code and read-only data are.  Up to 6.3 one
 * allocation, core_layout, holds the text, then the read-only data (to
 * ro_size); from 6.4 each kind of memory has its own, mod->mem[].
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define LKET_MOD_TEXT_BASE(mod)	((mod)->mem[MOD_TEXT].base)
#define LKET_MOD_TEXT_SIZE(mod)	((mod)->mem[MOD_TEXT].size)
#define LKET_MOD_RO_BASE(mod)	((const char *)(mod)->mem[MOD_RODATA].base)
#define LKET_MOD_RO_END(mod)	((const char *)(mod)->mem[MOD_RODATA].base + \
				 (mod)->mem[MOD_RODATA].size)
#else
#define LKET_MOD_TEXT_BASE(mod)	((mod)->core_layout.base)
#define LKET_MOD_TEXT_SIZE(mod)	((mod)->core_layout.text_size)
#define LKET_MOD_RO_BASE(mod)	((const char *)(mod)->core_layout.base + \
				 (mod)->core_layout.text_size)
#define LKET_MOD_RO_END(mod)	((const char *)(mod)->core_layout.base + \
				 (mod)->core_layout.ro_size)
#endif

/*
 * The GNU build ID note of a module: in its read-only data (the
 * .note.gnu.build-id section is allocated, not writable), 4-byte aligned.
 */
static void lket_module_build_id(const struct module *mod, char *hex)
{
	const char *ro = LKET_MOD_RO_BASE(mod);
	const char *end = LKET_MOD_RO_END(mod);
	const char *p;
	Elf64_Nhdr nh;

	hex[0] = '\0';
	for (p = PTR_ALIGN(ro, 4); p + sizeof(nh) + 4 + LKET_BUILD_ID_MAX <= end;
	     p += 4) {
		memcpy(&nh, p, sizeof(nh));
		if (nh.n_type != LKET_NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    nh.n_descsz != LKET_BUILD_ID_MAX ||
		    memcmp(p + sizeof(nh), "GNU", 4))
			continue;
		lket_hex(hex, (const u8 *)p + sizeof(nh) + 4,
			 LKET_BUILD_ID_MAX);
		return;
	}
}

static void lket_module_record(const char *name, u64 base, u64 size,
			       const char *build_id)
{
	size_t name_len = strlen(name) + 1, id_len = strlen(build_id) + 1;
	unsigned long flags;
	char *p;

	p = lket_record_reserve_at(LKET_GROUP_LKET, LKET_HOOK_MODULE,
				   2 * sizeof(u64) + name_len + id_len, &flags,
				   NULL);
	if (p) {
		p = lket_put(p, &base, sizeof(base));
		p = lket_put(p, &size, sizeof(size));
		p = lket_put(p, name, name_len);
		lket_put(p, build_id, id_len);
		lket_record_reserved(&flags);
	}
	lket_record_end();
}

static void lket_module_add(const struct module *mod)
{
	char hex[LKET_BUILD_ID_HEX];

	lket_module_build_id(mod, hex);
	lket_module_record(mod->name, (unsigned long)LKET_MOD_TEXT_BASE(mod),
			   LKET_MOD_TEXT_SIZE(mod), hex);
}

/* the kernel's list of modules, from the snapshot on (before ready) */
static struct list_head *lket_modules;

static void lket_module_snapshot(void)
{
	unsigned long stext = lket_sym(LKET_SYM_STEXT);
	unsigned long etext = lket_sym(LKET_SYM_ETEXT);
	const u8 *kid = (const u8 *)lket_sym(LKET_SYM_BUILD_ID);
	struct list_head *modules =
		(struct list_head *)lket_sym(LKET_SYM_MODULES);
	char hex[LKET_BUILD_ID_HEX] = "";
	struct module *mod;

	lket_modules = modules;
	if (LKET_ASCII_TRACE)
		return;
	if (kid && memchr_inv(kid, 0, LKET_BUILD_ID_MAX))
		lket_hex(hex, kid, LKET_BUILD_ID_MAX);
	if (stext && etext > stext)
		lket_module_record("kernel", stext, etext - stext, hex);
	if (!modules)
		return;
	preempt_disable();
	list_for_each_entry_rcu(mod, modules, list) {
		if (mod->state == MODULE_STATE_UNFORMED)
			continue;
		lket_module_add(mod);
	}
	preempt_enable();
}

/*
 * A module loaded while tracing: its record, from the module_load
 * tracepoint, which load_module() fires once the module is formed (its
 * text and read-only data in place, build ID note included, mod->state
 * MODULE_STATE_COMING) and before its init function runs.  Its init text
 * is freed after init and not recorded.
 */
static void lket_module_loaded(const struct module *mod)
{
	const struct module *m;

	if (LKET_ASCII_TRACE || !smp_load_acquire(&lket_ready) || !lket_modules)
		return;
	/* A pointer a script passed: only a module on the kernel's list is
	 * read (RCU: preemption off keeps it there meanwhile). */
	preempt_disable();
	list_for_each_entry_rcu(m, lket_modules, list) {
		if (m != mod)
			continue;
		if (mod->state != MODULE_STATE_UNFORMED)
			lket_module_add(mod);
		break;
	}
	preempt_enable();
}

/*
 * The end of the trace (lket.cpu_end in runtime/lket_events.def: cpu
 * INT32, records INT64, dropped INT64), one record per CPU that is online
 * or wrote or dropped anything.  Written here rather than by the
 * generated writer: a script loop over 256 CPUs would exceed MAXACTION.
 * From the last end probe: every other probe is gone, so the counts of
 * other CPUs no longer change, and they are all read before the first
 * record adds to this CPU's.
 */
struct lket_cpu_end {
	u32 cpu;
	u64 records, dropped;
} __packed;

static DEFINE_PER_CPU(struct lket_cpu_end, lket_cpu_end);

static void lket_cpu_end_records(void)
{
	struct lket_cpu_end *end;
	unsigned long flags;
	char *p;
	int cpu;

	if (LKET_ASCII_TRACE)
		return;
	lket_live_stop();
	for_each_possible_cpu(cpu) {
		end = per_cpu_ptr(&lket_cpu_end, cpu);
		end->cpu = cpu;
		end->records = per_cpu(lket_nr_written, cpu);
		end->dropped = per_cpu(lket_nr_dropped, cpu);
	}
	for_each_possible_cpu(cpu) {
		end = per_cpu_ptr(&lket_cpu_end, cpu);
		if (!cpu_online(cpu) && !end->records && !end->dropped)
			continue;
		p = lket_record_reserve_at(LKET_GROUP_LKET, LKET_HOOK_CPU_END,
					   sizeof(*end), &flags, NULL);
		if (p) {
			memcpy(p, end, sizeof(*end));
			lket_record_reserved(&flags);
		}
		lket_record_end();
	}
}

/* register_user_event() arguments: known types, as many names as types. */
static const char *lket_check_fields(const char *fmt, const char *names)
{
	static const char *const types[] = {
		"INT8", "INT16", "INT32", "INT64",
		"UINT8", "UINT16", "UINT32", "UINT64", "STRING", "ADDRS",
	};
	unsigned int nfmt = 0, nnames = 0, i;
	const char *p, *end;
	size_t len;

	if (!*fmt)
		return *names ? "names given for an empty format" : NULL;
	for (p = fmt; ; p = end + 1) {
		end = strchrnul(p, LKET_META_SEP);
		len = end - p;
		for (i = 0; i < ARRAY_SIZE(types); i++)
			if (strlen(types[i]) == len && !strncmp(p, types[i], len))
				break;
		if (i == ARRAY_SIZE(types))
			return "unknown field type (want INT8, INT16, INT32, INT64, STRING or ADDRS)";
		nfmt++;
		if (!*end)
			break;
	}
	for (p = names; ; p = end + 1) {
		end = strchrnul(p, LKET_META_SEP);
		if (end == p)
			return "empty field name";
		nnames++;
		if (!*end)
			break;
	}
	return nfmt == nnames ? NULL : "not as many names as field types";
}

/*
 * Kprobe handlers that return with interrupts still off (x86-64).
 *
 * Why: the kernel runs a kprobe's handler with current_kprobe set on the
 * CPU, and a kprobe that fires while another one is "running" there is
 * not handled: the kernel only counts it in its nmissed, and SystemTap
 * reports the sum as "skipped probes" at exit (with -DSTP_TIMING:
 * "Skipped due to missed kprobe on '...'").  LKET modules run handlers
 * with interrupts off (-DINTERRUPTIBLE=0, tools/lket-stap), but
 * SystemTap's generated enter_kprobe_probe() / enter_kretprobe_common()
 * turn them back on (local_irq_restore()) before returning to the kprobe
 * code, which clears current_kprobe only afterwards.  Every interrupt
 * that arrived during the handler is taken right there, inside that
 * window, and so are the softirqs run on its way out: the block
 * completion (addevent.ioscheduler.elv_completed_request on
 * __blk_mq_end_request(), addevent.scsi.iocompleted on
 * scsi_io_completion()) of an IO that finished while a task-context hook
 * (a system call, blk_mq_start_request()...) was being recorded was
 * missed: 3 + 2 records lost in tests/guest/scsi.sh's all-hooks run.
 *
 * Fix: wrap the three handlers the runtime (linux/kprobes.c) registers
 * (kprobe pre_handler, kretprobe handler and entry_handler) so that they
 * disable interrupts first; SystemTap's local_irq_save() then saves "off"
 * and its local_irq_restore() leaves them off.  On x86-64 every way into a
 * kprobe handler restores the interrupted context's flags itself once the
 * kprobe is done (int3: iret; kprobes on ftrace: ftrace_regs_caller's
 * popf; optimized kprobes: the optprobe template's popf; kretprobe
 * returns: arch_rethook_trampoline's popf), after current_kprobe is
 * cleared, so the pending interrupts are taken outside the window and
 * their hooks run.  (preempt_enable() in that exit path does not
 * reschedule with interrupts off: a reschedule asked for by the handler
 * waits for the next preemption point, as it would inside any
 * local_irq_save() section.)  What remains is the kernel's own few instructions
 * between setting current_kprobe and calling the handler (and
 * pre_handler_kretprobe() of return hooks without an entry handler): an
 * interrupt landing exactly there still makes the kernel miss a nested
 * kprobe, which stap reports as skipped probes (man lket(5), LIMITS).
 *
 * How, without patching the runtime: the runtime names the handlers in
 * calls/definitions (followed by "(") and takes their address without
 * one ("kp->pre_handler = &enter_kprobe_probe;").  The function-like
 * macros below rename only the former, so the generated handlers become
 * lket_stap_*, and the address taken is that of the wrappers here.  The
 * wrappers reach the renamed handlers through weakref aliases: a module
 * without kprobes has neither the runtime's kprobes.c nor the handlers,
 * and the unused wrappers then reference nothing.  A runtime that names
 * its handlers otherwise leaves the wrappers unused (no fix, no harm).
 */
#if !INTERRUPTIBLE && defined(CONFIG_KPROBES) && defined(CONFIG_X86_64)
#include <linux/kprobes.h>

static int lket_kp_fwd(struct kprobe *, struct pt_regs *)
	__attribute__((weakref("lket_stap_enter_kprobe_probe")));
static int lket_krp_fwd(struct kretprobe_instance *, struct pt_regs *)
	__attribute__((weakref("lket_stap_enter_kretprobe_probe")));
static int lket_krp_entry_fwd(struct kretprobe_instance *, struct pt_regs *)
	__attribute__((weakref("lket_stap_enter_kretprobe_entry_probe")));

static int __maybe_unused enter_kprobe_probe(struct kprobe *inst,
					     struct pt_regs *regs)
{
	local_irq_disable();	/* the kprobe's exit path turns them back on */
	return lket_kp_fwd(inst, regs);
}

static int __maybe_unused enter_kretprobe_probe(struct kretprobe_instance *inst,
						struct pt_regs *regs)
{
	local_irq_disable();
	return lket_krp_fwd(inst, regs);
}

static int __maybe_unused
enter_kretprobe_entry_probe(struct kretprobe_instance *inst,
			    struct pt_regs *regs)
{
	local_irq_disable();
	return lket_krp_entry_fwd(inst, regs);
}

#define enter_kprobe_probe(inst, regs) \
	lket_stap_enter_kprobe_probe(inst, regs)
#define enter_kretprobe_probe(inst, regs) \
	lket_stap_enter_kretprobe_probe(inst, regs)
#define enter_kretprobe_entry_probe(inst, regs) \
	lket_stap_enter_kretprobe_entry_probe(inst, regs)
#endif

#endif /* LKET_SHIM_H */
