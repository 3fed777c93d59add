/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lket_format.h - the LKET on-disk record format, defined once.
 *
 * Included by the kernel-side shim (runtime/lket_shim.h, through the
 * tapset's embedded C) and by lket-b2a.  It must compile both in the kernel
 * (linux/types.h) and in user space (stdint.h), so it uses only fixed-size
 * types and no functions.
 *
 * A trace is the set of per-CPU files written by "stap -b".  Each file is a
 * stream of bulk-transport flushes; the payloads of consecutive flushes of
 * one file, concatenated, form a stream of LKET records laid end to end.  A
 * record may therefore span two flushes (a print buffer that filled up).
 *
 * Every record is:
 *
 *	struct lket_record_head		24 bytes, below
 *	hook fields			as registered for (group, hook)
 *	user-appended fields		as registered with register_user_event
 *
 * All integers are in the byte order of the traced machine; lket-b2a tells
 * it from LKET_RECORD_MAGIC.  Strings are NUL-terminated.  Fields are packed:
 * no padding anywhere.
 */
#ifndef LKET_FORMAT_H
#define LKET_FORMAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

/* First two bytes of every record: "KL" little-endian, "LK" big-endian. */
#define LKET_RECORD_MAGIC	0x4c4bu
#define LKET_RECORD_MAGIC_SWAPPED 0x4b4cu

/*
 * Version of this format, written in the trace header record.  Records are
 * the same in all; what differs is the flushes (below) and how a trace
 * ends.  Version 1 numbered the flushes of all CPUs from one counter.  In
 * version 2 a flush is a frame of one CPU, numbered by that CPU alone, and
 * each frame LKET writes starts with a packet record (lket.packet: the
 * records that CPU dropped since its previous frame).  Version 3 is
 * version 2 with an end: when tracing stops, LKET writes an lket.cpu_end
 * record per CPU (the records it wrote and dropped there) and then one
 * lket.trace_end (the probe hits SystemTap skipped), so that a reader
 * can tell records lost at the end of a file, which leave no gap in the
 * frame numbers, and knows the end itself is missing when there is none.
 * A version 1 trace may end so too.  Version 4 is version 3 with CPUs
 * numbered up to 65535 (LKET_ID below): the 2006 layout had 8 bits.
 */
#define LKET_FORMAT_VERSION	4
#define LKET_FORMAT_VERSION_END	3
#define LKET_FORMAT_VERSION_FRAMES	2
#define LKET_FORMAT_VERSION_GLOBAL_SEQ	1

/* Written as byte_order in the trace header: reads 0x01020304 natively. */
#define LKET_BYTE_ORDER_MARK	0x01020304u

/* The largest record: total_size is 16 bits. */
#define LKET_RECORD_MAX		65535u

struct lket_record_head {
	uint16_t magic;		/* LKET_RECORD_MAGIC */
	uint16_t total_size;	/* whole record: head, hook and user fields */
	uint16_t sys_size;	/* head + hook fields; user fields start here */
	uint16_t flags;		/* LKET_RECORD_*; the tracer writes 0 */
	/* common_data, exactly as lket(5) documents it: */
	uint64_t timestamp;	/* ns, clock named in the trace header */
	uint64_t id;		/* tid<<32 | group<<24 | hook<<16 | cpu */
} __attribute__((packed));

#define LKET_RECORD_HEAD_SIZE	24

/*
 * A record repeated at the start of a rotated trace's file (lket.rotation):
 * what the trace's start and the task records said, for a reader of that
 * file alone.  Not an event of its own; the tracer counted the original.
 */
#define LKET_RECORD_COPY	0x0001u

/*
 * A record written in interrupt context, a hard IRQ or a softirq: its tid
 * is the task the interrupt hit, which did not do what the record says
 * (a timer's wake-up is no work of that task's).  Set in a kprobe's
 * handler, which int3 runs as an NMI on x86-64, when the probe fired in
 * an interrupt; not in an NMI proper, nor by LKET before it (2026-12).
 */
#define LKET_RECORD_IRQ		0x0002u

/*
 * The CPU's low 8 bits stay where the 2006 layout has the CPU (cpu<<8),
 * its high 8 bits go in the lowest byte, which versions 1 to 3 wrote as 0:
 * one decoding reads every version, and a CPU numbered 256 or more no
 * longer spills into the hook.
 */
#define LKET_CPU_MAX		0xffffu
#define LKET_ID(tid, group, hook, cpu)					\
	(((uint64_t)(uint32_t)(tid) << 32) |				\
	 ((uint64_t)((group) & 0xff) << 24) |				\
	 ((uint64_t)((hook) & 0xff) << 16) |				\
	 ((uint64_t)((cpu) & 0xff) << 8) | (((uint64_t)(cpu) >> 8) & 0xff))
#define LKET_ID_TID(id)		((uint32_t)((id) >> 32))
#define LKET_ID_GROUP(id)	((unsigned int)((id) >> 24) & 0xff)
#define LKET_ID_HOOK(id)	((unsigned int)((id) >> 16) & 0xff)
#define LKET_ID_CPU(id)		((((unsigned int)(id) >> 8) & 0xff) |	\
				 (((unsigned int)(id) & 0xff) << 8))

/*
 * Framing added by SystemTap's bulk transport ("stap -b") in front of every
 * flush.  4.7 to 4.9 write lket_flush_v4; 5.0 and later put
 * LKET_FLUSH_V5_MAGIC in front of the same two words.  Files written with
 * no framing at all (raw record streams) are read too.
 */
struct lket_flush_v4 {
	uint32_t sequence;	/* from 1; per CPU (format version 2) or
				   across CPUs (1): a gap is lost data */
	uint32_t pdu_len;	/* bytes of payload that follow */
} __attribute__((packed));

#define LKET_FLUSH_V5_MAGIC	0xbaa99ff0u	/* bytes F0 9F A9 BA */

/*
 * Field types of register_sys_event/register_user_event format strings.
 * "UINT8".."UINT64" are accepted as spellings of INT8..INT64 (lket(5) uses
 * both); "STRING" is NUL-terminated.  "ADDRS" is a list of code addresses,
 * a kernel call stack (lket_stack()): a 16-bit count n, then n 64-bit
 * addresses, innermost frame first.
 */
enum lket_field_type {
	LKET_INT8 = 1,
	LKET_INT16 = 2,
	LKET_INT32 = 4,
	LKET_INT64 = 8,
	LKET_STRING = 0x10,
	LKET_ADDRS = 0x20,
};

/* An ADDRS field: its count, then the addresses. */
typedef uint16_t lket_addrs_count_t;
typedef uint64_t lket_addr_t;

/* The frames lket_stack() records unless told otherwise. */
#define LKET_STACK_DEFAULT_DEPTH	16
/* The most an ADDRS field can hold: a record is at most LKET_RECORD_MAX. */
#define LKET_ADDRS_MAX	((LKET_RECORD_MAX - LKET_RECORD_HEAD_SIZE - \
			  sizeof(lket_addrs_count_t)) / sizeof(lket_addr_t))

/* Separator of both the format and the name lists in metadata records. */
#define LKET_META_SEP		':'

#endif /* LKET_FORMAT_H */
