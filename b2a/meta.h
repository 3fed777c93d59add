/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meta.h - what each (group, hook) record holds, from the trace itself.
 *
 * Filled from the trace's register_sys_event, register_user_event and
 * event_desc records; only the metadata records themselves (group 0) are
 * known in advance, from the catalogue.  The decoder reads fields by type
 * from here and never by event.
 */
#ifndef LKET_META_H
#define LKET_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hook IDs by catalogue name: LKET_HOOK_TRACE_HEADER, LKET_HOOK_PACKET... */
enum lket_hook {
#define LKET_GROUP(...)
#define LKET_EVENT(g, h, NAME, name, kind, fmt, names, doc) \
	LKET_HOOK_##NAME = h,
#include "../runtime/lket_events.def"
#undef LKET_EVENT
#undef LKET_GROUP
};

#define META_MAX_FIELDS	64
#define FIELD_PREFIX_PAD	32
/* event names are allocated with this many zero bytes after them */
#define META_NAME_PAD	64

struct field {
	uint8_t type;		/* enum lket_field_type */
	bool hex;		/* printed as 0x...: addresses, flags */
	const char *name;
	const char *prefix;	/* " name=", ready to print */
	uint8_t prefix_len;
	/* the same, zero-padded: printers copy a fixed size when it fits */
	char prefix_pad[FIELD_PREFIX_PAD];
};

struct field_list {
	struct field *f;
	unsigned int n;
	bool defined;
	char *text;		/* "fmt\0names\0" as registered, to compare */
};

struct event_meta {
	const char *name;	/* "syscall.entry"; NULL until named */
	uint8_t name_len;
	bool named;
	struct field_list sys, user;
};

struct meta {
	struct event_meta *group[256];	/* each NULL or 256 hooks */
};

int meta_init(struct meta *m);
void meta_free(struct meta *m);

/* NULL if nothing is known of (group, hook). */
static inline const struct event_meta *meta_get(const struct meta *m,
						unsigned int group,
						unsigned int hook)
{
	const struct event_meta *g = m->group[group & 0xff];

	return g && (g[hook & 0xff].sys.defined || g[hook & 0xff].named) ?
	       &g[hook & 0xff] : NULL;
}

/*
 * Register the fields of (group, hook): its own (user = false) or those
 * appended by the user.  Returns 0, -EINVAL if fmt and names don't make a
 * field list, -EEXIST if a different list is already registered (the first
 * one stays), -ENOMEM.
 */
int meta_register(struct meta *m, unsigned int group, unsigned int hook,
		  bool user, const char *fmt, const char *names);
/* Name (group, hook).  -EEXIST if it has another name already. */
int meta_name(struct meta *m, unsigned int group, unsigned int hook,
	      const char *name);

/* The catalogue's name of (group, hook), for records without metadata. */
const char *meta_catalogue_name(unsigned int group, unsigned int hook);
/*
 * Register in m the catalogue's fields and name of (group, hook), for a
 * trace that lacks its metadata.  -ENOENT if the catalogue does not know
 * it; else as meta_register() and meta_name().
 */
int meta_from_catalogue(struct meta *m, unsigned int group, unsigned int hook);

#endif
