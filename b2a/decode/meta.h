/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meta.h - what each (group, hook) record holds, from the trace itself.
 *
 * Filled from the trace's register_sys_event, register_user_event and
 * event_desc records; only the metadata records themselves (group 0) are
 * known in advance, from the catalogue.  The decoder reads fields by type
 * from here and never by event.  What a field holds (its flags: hex, an
 * address, a pid...) is the catalogue's, looked up by event and field
 * name, so that a trace whose IDs differ from this catalogue's still gets
 * it.
 */
#ifndef LKET_META_H
#define LKET_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* LKET_GROUP_*, LKET_HOOK_*, LKET_EV_*, LKET_F_*: the catalogue's names */
#include "runtime/lket_ids.h"

#define META_MAX_FIELDS	64
#define FIELD_PREFIX_PAD	32
/* event names are allocated with this many zero bytes after them */
#define META_NAME_PAD	64

struct field {
	uint8_t type;		/* enum lket_field_type */
	uint8_t flags;		/* enum lket_field_flag */
	bool hex;		/* printed as 0x...: LKET_F_ADDR, LKET_F_HEX */
	bool is_unsigned;	/* decoded zero-extended: LKET_F_UNSIGNED */
	const char *name;
	const char *prefix;	/* " name=", ready to print */
	uint8_t prefix_len;
	/* the same, zero-padded: printers copy a fixed size when it fits */
	char prefix_pad[FIELD_PREFIX_PAD];
	/*
	 * What makes the name a key of its own in the event (JSON's):
	 * "_2", "_3"... when an earlier field, the hook's or the user's,
	 * has it (meta_unique_name()'s rule); "" else.
	 */
	char key_suffix[12];
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
	/* the catalogue's event of that name (LKET_EV_*), -1 if none */
	int16_t ev;
	struct field_list sys, user;
};

struct meta {
	struct event_meta *group[256];	/* each NULL or 256 hooks */
	char *why;		/* the last -EINVAL's words; meta_why() */
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
/*
 * What was wrong when meta_register() or meta_name() last returned
 * -EINVAL: the field and the rule it broke ("field 2, \"a-b\": a field
 * name has 1 to 200 letters, digits or '_'"), the number of fields past
 * META_MAX_FIELDS, the event name.
 */
const char *meta_why(const struct meta *m);

/*
 * A name that nothing else takes: name itself when taken() says it is
 * free, else the first free of name_2, name_3 ..., name cut for the
 * number to fit in max bytes.  The one rule of JSON's keys and the
 * databases' columns.  In out (max + 1 bytes); returns the number, 1
 * for name itself.
 */
unsigned int meta_unique_name(char *out, size_t max, const char *name,
			      bool (*taken)(const char *name, const void *ctx),
			      const void *ctx);

/* The catalogue's name of (group, hook), for records without metadata. */
const char *meta_catalogue_name(unsigned int group, unsigned int hook);
/* The catalogue's dotted name of an event: "process.fork". */
const char *meta_event_name(enum lket_event_index ev);
/* The catalogue's name of a group: "syscall"; NULL if it has none. */
const char *meta_group_name(unsigned int group);
/*
 * Register in m the catalogue's fields and name of (group, hook), for a
 * trace that lacks its metadata.  -ENOENT if the catalogue does not know
 * it; else as meta_register() and meta_name().
 */
int meta_from_catalogue(struct meta *m, unsigned int group, unsigned int hook);

#endif
