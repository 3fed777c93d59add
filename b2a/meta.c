// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/lket_format.h"
#include "meta.h"

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
#include "../runtime/lket_events.def"
#undef LKET_GROUP
#undef LKET_EVENT
};

const char *meta_catalogue_name(unsigned int group, unsigned int hook)
{
	size_t i;

	for (i = 0; i < sizeof(catalogue) / sizeof(catalogue[0]); i++)
		if (catalogue[i].group == group && catalogue[i].hook == hook)
			return catalogue[i].name;
	return NULL;
}

static struct event_meta *slot(struct meta *m, unsigned int group,
			       unsigned int hook)
{
	struct event_meta *g = m->group[group & 0xff];

	if (!g) {
		g = calloc(256, sizeof(*g));
		if (!g)
			return NULL;
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
		{ "STRING", LKET_STRING },
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

/* Addresses, flags, masks and handles read best in hex; see lket-b2a(1). */
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
static int parse_fields(struct field_list *fl, const char *fmt,
			const char *names)
{
	size_t n = count_tokens(fmt), i, nlen, flen = strlen(fmt) + 1;
	size_t size = n * sizeof(struct field) + 2 * (strlen(names) + 1) +
		      3 * n + flen + strlen(names) + 1;
	const char *t = fmt, *nm = names, *te, *ne;
	char *p;
	int type;

	if (n != count_tokens(names) || n > META_MAX_FIELDS)
		return -EINVAL;
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
		if (type < 0 || nlen > 200 || !valid_name(nm, nlen, false))
			goto invalid;
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
		fl->f[i].hex = type != LKET_STRING && hex_name(fl->f[i].name);
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

int meta_register(struct meta *m, unsigned int group, unsigned int hook,
		  bool user, const char *fmt, const char *names)
{
	struct event_meta *e = slot(m, group, hook);
	struct field_list *fl;

	if (!e)
		return -ENOMEM;
	fl = user ? &e->user : &e->sys;
	if (fl->defined) {
		const char *old_names = fl->text + strlen(fl->text) + 1;

		return strcmp(fl->text, fmt) || strcmp(old_names, names) ?
		       -EEXIST : 0;
	}
	return parse_fields(fl, fmt, names);
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
		return -EINVAL;
	/* zero-padded: printers copy META_NAME_PAD bytes when it fits */
	copy = calloc(1, len + 1 + META_NAME_PAD);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, name, len);
	free((char *)e->name);
	e->name = copy;
	e->name_len = (uint8_t)len;
	e->named = true;
	return 0;
}

int meta_from_catalogue(struct meta *m, unsigned int group, unsigned int hook)
{
	const struct catalogue_entry *c;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(catalogue) / sizeof(catalogue[0]); i++) {
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
	for (i = 0; i < sizeof(catalogue) / sizeof(catalogue[0]); i++) {
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
}
