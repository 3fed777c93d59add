// SPDX-License-Identifier: GPL-2.0
/*
 * meta.c - each (group, hook)'s fields, from the trace's metadata or the
 * built-in catalogue (meta.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/meta.h"
#include "runtime/lket_format.h"
#include "util/diag.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct catalogue_entry {
	uint8_t group, hook;
	bool meta;		/* a metadata record, known in advance */
	const char *name, *fmt, *names;
};

static const struct catalogue_entry catalogue[] = {
#define LKET_GROUP(...)
#define LKET_EVENT(g, h, NAME, name, kind, fmt, names, doc) \
	{ g, h, kind == META, name, fmt, names },
#define PROBE 0
#define FUNC 1
#define META 2
#include "runtime/lket_events.def"
#undef LKET_GROUP
#undef LKET_EVENT
};
/* catalogue[LKET_EV_x] is the event x */
_Static_assert(ARRAY_SIZE(catalogue) == LKET_NR_EVENTS,
	       "catalogue[] holds every event, in catalogue order");

static const struct catalogue_group {
	uint8_t id;
	const char *name;
} groups[] = {
#define LKET_GROUP(id, name, NAME, doc) { id, #name },
#define LKET_EVENT(...)
#include "runtime/lket_events.def"
#undef LKET_GROUP
#undef LKET_EVENT
};

/* The catalogue's LKET_FIELD lines. */
static const struct catalogue_field {
	uint16_t ev;		/* LKET_EV_* */
	uint8_t flags;
	const char *name;
} field_flags[] = {
#define LKET_GROUP(...)
#define LKET_EVENT(...)
#define LKET_FIELD(NAME, field, flags) { LKET_EV_##NAME, flags, field },
#include "runtime/lket_events.def"
#undef LKET_GROUP
#undef LKET_EVENT
#undef LKET_FIELD
};

const char *meta_event_name(enum lket_event_index ev)
{
	return catalogue[ev].name;
}

const char *meta_group_name(unsigned int group)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(groups); i++)
		if (groups[i].id == group)
			return groups[i].name;
	return NULL;
}

/* The LKET_EV_* of the catalogue's event named name; -1 if none. */
static int catalogue_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(catalogue); i++)
		if (!strcmp(catalogue[i].name, name))
			return (int)i;
	return -1;
}

const char *meta_catalogue_name(unsigned int group, unsigned int hook)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(catalogue); i++)
		if (catalogue[i].group == group && catalogue[i].hook == hook)
			return catalogue[i].name;
	return NULL;
}

static struct event_meta *slot(struct meta *m, unsigned int group,
			       unsigned int hook)
{
	struct event_meta *g = m->group[group & 0xff];
	unsigned int i;

	if (!g) {
		g = calloc(256, sizeof(*g));
		if (!g)
			return NULL;
		for (i = 0; i < 256; i++)
			g[i].ev = -1;
		m->group[group & 0xff] = g;
	}
	return &g[hook & 0xff];
}

static int parse_type(const char *tok, size_t len)
{
	static const struct {
		const char *name;
		int type;
	} types[] = {
		{ "INT8", LKET_INT8 }, { "INT16", LKET_INT16 },
		{ "INT32", LKET_INT32 }, { "INT64", LKET_INT64 },
		{ "UINT8", LKET_INT8 }, { "UINT16", LKET_INT16 },
		{ "UINT32", LKET_INT32 }, { "UINT64", LKET_INT64 },
		{ "STRING", LKET_STRING }, { "ADDRS", LKET_ADDRS },
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i].name) == len &&
		    !memcmp(types[i].name, tok, len))
			return types[i].type;
	return -EINVAL;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/*
 * The flags of a field the catalogue says nothing of (an event it does not
 * know, a field it does not list, a user field), guessed from its name as
 * lket-b2a(1) describes: addresses, flags, masks and handles read best in
 * hex.  The catalogue's own fields are flagged by their LKET_FIELD lines.
 */
static bool hex_name(const char *name)
{
	return strstr(name, "addr") || ends_with(name, "flags") ||
	       ends_with(name, "flag") || !strcmp(name, "handler") ||
	       !strcmp(name, "sigset") || !strncmp(name, "fhandle", 7) ||
	       ends_with(name, "_fh0") || ends_with(name, "_fh1") ||
	       ends_with(name, "_fh2");
}

/*
 * Names go into every output unquoted (lket.out's name=value, SQL column
 * and table names): letters, digits and '_', and '.' between the parts of
 * an event name.
 */
static bool valid_name(const char *s, size_t len, bool dotted)
{
	size_t i;

	if (!len || s[0] == '.' || s[len - 1] == '.')
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		      (dotted && s[i] == '.')))
			return false;
	return true;
}

static size_t count_tokens(const char *s)
{
	size_t n = *s ? 1 : 0;

	for (; *s; s++)
		n += *s == LKET_META_SEP;
	return n;
}

/*
 * Build a field list from "INT32:STRING" and "pid:name".  One allocation
 * holds the fields, their names and their prefixes.
 */
/* -EINVAL, with m->why saying why. */
static int invalid(struct meta *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int invalid(struct meta *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vprintf(&m->why, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const char *meta_why(const struct meta *m)
{
	return m->why ? m->why : "";
}

static int parse_fields(struct meta *m, struct field_list *fl,
			const char *fmt, const char *names)
{
	size_t n = count_tokens(fmt), i, nlen, flen = strlen(fmt) + 1;
	size_t size = n * sizeof(struct field) + 2 * (strlen(names) + 1) +
		      3 * n + flen + strlen(names) + 1;
	const char *t = fmt, *nm = names, *te, *ne;
	char *p;
	int type;

	if (n != count_tokens(names))
		return invalid(m, "%zu types but %zu names", n,
			       count_tokens(names));
	if (n > META_MAX_FIELDS)
		return invalid(m, "%zu fields, more than a record may have (%d)",
			       n, META_MAX_FIELDS);
	fl->f = malloc(size ? size : 1);
	if (!fl->f)
		return -ENOMEM;
	p = (char *)(fl->f + n);
	fl->text = p;
	memcpy(p, fmt, flen);
	p += flen;
	memcpy(p, names, strlen(names) + 1);
	p += strlen(names) + 1;
	for (i = 0; i < n; i++) {
		te = strchr(t, LKET_META_SEP);
		ne = strchr(nm, LKET_META_SEP);
		if (!te)
			te = t + strlen(t);
		if (!ne)
			ne = nm + strlen(nm);
		type = parse_type(t, (size_t)(te - t));
		nlen = (size_t)(ne - nm);
		if (nlen > 200 || !valid_name(nm, nlen, false)) {
			invalid(m, "field %zu, \"%.*s\": a field name has 1 to 200 letters, digits or '_'",
				i + 1, (int)(nlen > 40 ? 40 : nlen), nm);
			goto invalid;
		}
		if (type < 0) {
			invalid(m, "field %zu, \"%.*s\": unknown type \"%.*s\" (INT8, INT16, INT32, INT64, their UINT forms, STRING, ADDRS)",
				i + 1, (int)nlen, nm,
				(int)(te - t > 16 ? 16 : te - t), t);
			goto invalid;
		}
		fl->f[i].type = (uint8_t)type;
		fl->f[i].name = p;
		memcpy(p, nm, nlen);
		p[nlen] = '\0';
		p += nlen + 1;
		fl->f[i].prefix = p;
		*p = ' ';
		memcpy(p + 1, nm, nlen);
		p[nlen + 1] = '=';
		p[nlen + 2] = '\0';
		fl->f[i].prefix_len = (uint8_t)(nlen + 2);
		memset(fl->f[i].prefix_pad, 0, FIELD_PREFIX_PAD);
		if (nlen + 2 <= FIELD_PREFIX_PAD)
			memcpy(fl->f[i].prefix_pad, p, nlen + 2);
		p += nlen + 3;
		t = *te ? te + 1 : te;
		nm = *ne ? ne + 1 : ne;
	}
	fl->n = (unsigned int)n;
	fl->defined = true;
	return 0;
invalid:
	free(fl->f);
	fl->f = NULL;
	fl->text = NULL;
	return -EINVAL;
}

/* Whether the catalogue's event ev lists a field called name. */
static bool catalogue_has_field(int ev, const char *name)
{
	const char sep[] = { LKET_META_SEP, '\0' };
	const char *p = catalogue[ev].names;
	size_t len = strlen(name), n;

	while (*p) {
		n = strcspn(p, sep);
		if (n == len && !memcmp(p, name, len))
			return true;
		p += n + (p[n] != '\0');
	}
	return false;
}

/* The flags of field f of the event ev (LKET_EV_*, -1: not catalogued). */
static uint8_t field_flags_of(int ev, const struct field *f)
{
	uint8_t flags = 0;
	size_t i;

	if (ev < 0 || !catalogue_has_field(ev, f->name))
		return hex_name(f->name) ? LKET_F_HEX : 0;
	for (i = 0; i < ARRAY_SIZE(field_flags); i++)
		if (field_flags[i].ev == ev &&
		    !strcmp(field_flags[i].name, f->name))
			flags |= field_flags[i].flags;
	return flags;
}

/* Flag the fields of e: by the catalogue once e is named, else guessed. */
static void set_flags(struct event_meta *e)
{
	struct field_list *lists[] = { &e->sys, &e->user };
	struct field *f;
	size_t k;
	unsigned int i;

	for (k = 0; k < ARRAY_SIZE(lists); k++)
		for (i = 0; i < lists[k]->n; i++) {
			f = &lists[k]->f[i];
			/* the catalogue states no user field */
			f->flags = field_flags_of(k ? -1 : e->ev, f);
			f->hex = f->type != LKET_STRING &&
				 f->type != LKET_ADDRS &&
				 (f->flags & (LKET_F_HEX | LKET_F_ADDR));
			f->is_unsigned = f->type < LKET_INT64 &&
					 (f->flags & LKET_F_UNSIGNED);
		}
}

unsigned int meta_unique_name(char *out, size_t max, const char *name,
			      bool (*taken)(const char *name, const void *ctx),
			      const void *ctx)
{
	size_t len = strlen(name), n = len < max ? len : max, k;
	char suffix[16];
	unsigned int i;

	memcpy(out, name, n);
	out[n] = '\0';
	for (i = 2; taken(out, ctx); i++) {
		k = (size_t)snprintf(suffix, sizeof(suffix), "_%u", i);
		n = len + k > max ? max - k : len;
		memcpy(out, name, n);
		memcpy(out + n, suffix, k + 1);
	}
	return i - 1;
}

/* The fields of an event before the one being named, in order. */
struct earlier {
	const struct field *const *f;
	size_t n;
};

static bool key_taken(const char *key, const void *ctx)
{
	const struct earlier *e = ctx;
	size_t i, len;

	for (i = 0; i < e->n; i++) {
		len = strlen(e->f[i]->name);
		if (!strncmp(key, e->f[i]->name, len) &&
		    !strcmp(key + len, e->f[i]->key_suffix))
			return true;
	}
	return false;
}

/* Each field of e a key of its own: the hook's fields, then the user's. */
static void set_keys(struct event_meta *e)
{
	const struct field *all[2 * META_MAX_FIELDS];
	struct field_list *lists[] = { &e->sys, &e->user };
	struct earlier before = { all, 0 };
	char key[256];
	struct field *f;
	size_t k;
	unsigned int i;

	for (k = 0; k < ARRAY_SIZE(lists); k++)
		for (i = 0; i < lists[k]->n; i++) {
			f = &lists[k]->f[i];
			/* names are at most 200 bytes: never cut */
			meta_unique_name(key, sizeof(key) - 1, f->name,
					 key_taken, &before);
			snprintf(f->key_suffix, sizeof(f->key_suffix), "%s",
				 key + strlen(f->name));
			all[before.n++] = f;
		}
}

int meta_register(struct meta *m, unsigned int group, unsigned int hook,
		  bool user, const char *fmt, const char *names)
{
	struct event_meta *e = slot(m, group, hook);
	struct field_list *fl;
	int ret;

	if (!e)
		return -ENOMEM;
	fl = user ? &e->user : &e->sys;
	if (fl->defined) {
		const char *old_names = fl->text + strlen(fl->text) + 1;

		return strcmp(fl->text, fmt) || strcmp(old_names, names) ?
		       -EEXIST : 0;
	}
	ret = parse_fields(m, fl, fmt, names);
	if (!ret) {
		set_flags(e);
		set_keys(e);
	}
	return ret;
}

int meta_name(struct meta *m, unsigned int group, unsigned int hook,
	      const char *name)
{
	struct event_meta *e = slot(m, group, hook);
	size_t len = strlen(name);
	char *copy;

	if (!e)
		return -ENOMEM;
	if (e->named)
		return strcmp(e->name, name) ? -EEXIST : 0;
	if (len > 200 || !valid_name(name, len, true))
		return invalid(m, "event name \"%.*s\": an event name has 1 to 200 letters, digits, '_' or '.' (not first or last)",
			       (int)(len > 40 ? 40 : len), name);
	/* zero-padded: printers copy META_NAME_PAD bytes when it fits */
	copy = calloc(1, len + 1 + META_NAME_PAD);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, name, len);
	free((char *)e->name);
	e->name = copy;
	e->name_len = (uint8_t)len;
	e->named = true;
	e->ev = (int16_t)catalogue_find(name);
	set_flags(e);
	return 0;
}

int meta_from_catalogue(struct meta *m, unsigned int group, unsigned int hook)
{
	const struct catalogue_entry *c;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(catalogue); i++) {
		c = &catalogue[i];
		if (c->group != group || c->hook != hook)
			continue;
		ret = meta_register(m, group, hook, false, c->fmt, c->names);
		return ret ? ret : meta_name(m, group, hook, c->name);
	}
	return -ENOENT;
}

int meta_init(struct meta *m)
{
	size_t i;
	int ret;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < ARRAY_SIZE(catalogue); i++) {
		const struct catalogue_entry *c = &catalogue[i];

		if (!c->meta)
			continue;
		ret = meta_register(m, c->group, c->hook, false, c->fmt,
				    c->names);
		if (!ret)
			ret = meta_name(m, c->group, c->hook, c->name);
		if (ret) {
			meta_free(m);
			return ret;
		}
	}
	return 0;
}

void meta_free(struct meta *m)
{
	unsigned int g, h;

	for (g = 0; g < 256; g++) {
		if (!m->group[g])
			continue;
		for (h = 0; h < 256; h++) {
			free(m->group[g][h].sys.f);
			free(m->group[g][h].user.f);
			free((char *)m->group[g][h].name);
		}
		free(m->group[g]);
		m->group[g] = NULL;
	}
	free(m->why);
	m->why = NULL;
}
