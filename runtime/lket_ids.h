/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lket_ids.h - the catalogue's numbers by name, from lket_events.def:
 *
 *	LKET_GROUP_PROCESS		a group's ID (common_data bits 31..24)
 *	LKET_HOOK_PROCESS_SNAPSHOT	a hook's ID inside its group
 *	LKET_EV_PROCESS_SNAPSHOT	an event's index in catalogue order
 *	LKET_F_ADDR ...			what a field holds (LKET_FIELD())
 *
 * C code names groups, hooks and events by these, never by number.  Like
 * lket_format.h it compiles in the kernel (embedded in the tapset, with
 * the catalogue included in place by tools/lket-gencat) and in user space.
 */
#ifndef LKET_IDS_H
#define LKET_IDS_H

enum lket_group {
#define LKET_GROUP(id, name, NAME, doc) LKET_GROUP_##NAME = id,
#define LKET_EVENT(...)
#include "lket_events.def"
#undef LKET_EVENT
#undef LKET_GROUP
};

enum lket_hook {
#define LKET_GROUP(...)
#define LKET_EVENT(g, h, NAME, name, kind, fmt, names, doc) \
	LKET_HOOK_##NAME = h,
#include "lket_events.def"
#undef LKET_EVENT
#undef LKET_GROUP
};

enum lket_event_index {
#define LKET_GROUP(...)
#define LKET_EVENT(g, h, NAME, name, kind, fmt, names, doc) LKET_EV_##NAME,
#include "lket_events.def"
#undef LKET_EVENT
#undef LKET_GROUP
	LKET_NR_EVENTS
};

/* What a field holds beyond its type; see LKET_FIELD in lket_events.def. */
enum lket_field_flag {
	LKET_F_HEX = 1 << 0,		/* flags, a mask, a handle */
	LKET_F_ADDR = 1 << 1,		/* an address */
	LKET_F_PID = 1 << 2,		/* a process (thread group) ID */
	LKET_F_TID = 1 << 3,		/* a thread ID */
	LKET_F_DURATION = 1 << 4,	/* a length of time */
	LKET_F_UNSIGNED = 1 << 5,	/* never below zero: zero-extended */
};

#endif
