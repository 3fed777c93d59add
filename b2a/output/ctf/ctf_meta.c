// SPDX-License-Identifier: GPL-2.0
/*
 * ctf_meta.c - the CTF export's translation (ctf_int.h): an event class
 * per (group, hook) seen, per system call, per raw shape, and the TSDL
 * metadata that describes them, written at finish.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/ctf/ctf_int.h"

/* The first of m's fields named name; -1: none. */
static int field_at(const struct event_meta *m, const char *name)
{
	unsigned int i, n = meta_nfields(m);

	for (i = 0; i < n; i++)
		if (!strcmp(class_field(m, i)->name, name))
			return (int)i;
	return -1;
}

/*
 * What k's events take from their LTTng counterpart, by field name, found
 * once: the system fields it holds, and where each of its fields' values
 * is.
 */
static int ctf_class_lttng(struct ctf_class *k)
{
	const struct lttng_event *l = k->lttng;
	unsigned int i;

	for (i = 0; k->meta && i < k->meta->sys.n && i < 64; i++)
		if (lttng_shadows(l, k->meta->sys.f[i].name))
			k->shadowed |= 1ull << i;
	if (!l->nfields)
		return 0;
	k->lttng_from = malloc(l->nfields * sizeof(*k->lttng_from));
	if (!k->lttng_from)
		return -ENOMEM;
	for (i = 0; i < l->nfields; i++) {
		const char *names[LTTNG_FROM_MAX];
		unsigned int j;

		lttng_field_reads(&l->fields[i], names);
		for (j = 0; j < LTTNG_FROM_MAX; j++)
			k->lttng_from[i][j] = (int16_t)(names[j][0] ?
					field_at(k->meta, names[j]) : -1);
	}
	return 0;
}

static int ctf_class_add(struct ctf *c, const struct event *ev, bool raw,
			 const struct lttng_event *l, const char *syscall,
			 uint32_t *id)
{
	unsigned int nf = ev->meta ? ev->nvalues : 0;
	struct ctf_class *bigger, *k;

	if (c->nclasses == c->classes_cap) {
		c->classes_cap = c->classes_cap ? 2 * c->classes_cap : 64;
		bigger = realloc(c->classes,
				 c->classes_cap * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		c->classes = bigger;
	}
	k = &c->classes[c->nclasses];
	*k = (struct ctf_class){
		.meta = ev->meta, .group = ev->group & 0xff,
		.hook = ev->hook & 0xff, .raw = raw,
		.nfields = raw ? nf : meta_nfields(ev->meta),
		.lttng = l,
	};
	if (syscall) {
		k->syscall = strdup(syscall);
		if (!k->syscall)
			return -ENOMEM;
	}
	c->nclasses++;
	*id = (uint32_t)c->nclasses - 1;
	return l ? ctf_class_lttng(k) : 0;
}

static uint32_t syscall_hash(const struct event_meta *m, const char *name)
{
	uint32_t h = 2166136261u ^ (uint32_t)m->ev;

	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return h;
}

/* Twice the slots, the classes put back where they now belong. */
static int syscalls_grow(struct ctf *c)
{
	struct syscall_classes *t = &c->syscalls;
	size_t size = t->slots ? 2 * (t->mask + 1) : 64, i, j;
	uint32_t *slots = calloc(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; t->slots && i <= t->mask; i++) {
		const struct ctf_class *k;

		if (!t->slots[i])
			continue;
		k = &c->classes[t->slots[i] - 1];
		for (j = syscall_hash(k->meta, k->syscall) &
			 (size - 1);
		     slots[j]; j = (j + 1) & (size - 1))
			;
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->mask = size - 1;
	return 0;
}

/*
 * syscall_entry_NAME, syscall_exit_NAME: a class per system call and
 * event, up to CTF_SYSCALL_CLASSES of them; those past it, and calls
 * without a name, are LTTng's "unknown" (the name in syscall_name).
 */
int ctf_syscall_class(struct ctf *c, const struct event *ev,
		      const struct lttng_event *l, const char *name,
		      uint32_t *id)
{
	struct syscall_classes *t = &c->syscalls;
	size_t i;
	int ret;

	if (!*name)
		name = "unknown";
	if (!t->slots || 2 * (t->used + 1) > t->mask + 1) {
		ret = syscalls_grow(c);
		if (ret)
			return ret;
	}
	for (;;) {
		for (i = syscall_hash(ev->meta, name) & t->mask; t->slots[i];
		     i = (i + 1) & t->mask) {
			const struct ctf_class *k = &c->classes[t->slots[i] - 1];

			if (k->meta == ev->meta && k->lttng == l &&
			    !strcmp(k->syscall, name)) {
				*id = t->slots[i] - 1;
				return 0;
			}
		}
		if (t->named < CTF_SYSCALL_CLASSES || !strcmp(name, "unknown"))
			break;
		if (!c->syscall_overflow && c->diag)
			diagf(c->diag, DIAG_NOTE, c->dir, -1,
			      "more than %d system call classes: the calls past them are syscall_entry_unknown and syscall_exit_unknown, with the name in syscall_name",
			      CTF_SYSCALL_CLASSES);
		c->syscall_overflow = true;
		name = "unknown";
	}
	ret = ctf_class_add(c, ev, false, l, name, id);
	if (ret)
		return ret;
	t->slots[i] = *id + 1;
	t->used++;
	t->named++;
	return 0;
}

/*
 * The class id of the event, registered when first seen: LTTng's
 * counterpart for an event that matches its metadata and has one.
 */
int ctf_class(struct ctf *c, const struct event *ev, bool raw,
	      uint32_t *id)
{
	size_t k = ((size_t)(ev->group & 0xff) << 8) | (ev->hook & 0xff), i;
	unsigned int nf = ev->meta ? ev->nvalues : 0;
	const struct lttng_event *l = NULL;
	int ret;

	if (!raw && c->class_id[k]) {
		*id = c->class_id[k] - 1;
		return 0;
	}
	if (!raw)
		l = lttng_event_of_meta(ev->meta);
	if (l && l->per_syscall)
		return ctf_syscall_class(c, ev, l, lttng_syscall_class(
			ev->meta->ev == LKET_EV_SYSCALL_ENTRY,
			lttng_syscall_name(ev)), id);
	for (i = 0; raw && i < c->nclasses; i++)
		if (c->classes[i].raw && c->classes[i].meta == ev->meta &&
		    c->classes[i].group == (ev->group & 0xff) &&
		    c->classes[i].hook == (ev->hook & 0xff) &&
		    c->classes[i].nfields == nf) {
			*id = (uint32_t)i;
			return 0;
		}
	ret = ctf_class_add(c, ev, raw, l, NULL, id);
	if (!ret && !raw)
		c->class_id[k] = *id + 1;
	return ret;
}

/* A TSDL identifier from name: '_' first, then what is not a letter,
 * digit or '_' made '_'; "_" + index when empty. */
static void ctf_ident(char *out, size_t size, const char *name)
{
	size_t i = 0;

	out[i++] = '_';
	for (; name && *name && i + 1 < size; name++)
		out[i++] = (*name >= 'a' && *name <= 'z') ||
			   (*name >= 'A' && *name <= 'Z') ||
			   (*name >= '0' && *name <= '9') ? *name : '_';
	out[i] = '\0';
}

static void ctf_name_chars(FILE *f, const char *n)
{
	for (; *n; n++)
		fputc(*n == '.' || *n == '"' || *n == '\\' ||
		      (unsigned char)*n < 0x20 ? '_' : *n, f);
}

static void ctf_event_name(FILE *f, const struct ctf_class *k)
{
	const char *n = k->meta && k->meta->named ? k->meta->name : NULL;

	if (k->lttng) {
		fputs(k->lttng->name, f);
		/* as LTTng's: letters, digits and '_' only */
		for (n = k->syscall; n && *n; n++)
			fputc((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') ||
			      (*n >= '0' && *n <= '9') ? *n : '_', f);
		return;
	}
	if (!n) {
		n = meta_catalogue_name(k->group, k->hook);
		if (!n) {
			fprintf(f, "unknown_%u_%u", k->group, k->hook);
			return;
		}
	}
	ctf_name_chars(f, n);
}

/*
 * Member names of one class: each a TSDL identifier of at most
 * CTF_IDENT - 1 bytes, unique among those before it by
 * meta_unique_name()'s rule (name, name_2, ...), which JSON's keys and
 * the databases' columns follow too; after cutting and sanitising, so
 * that two names that differ only there stay two members.
 */
#define CTF_IDENT	128

struct ctf_names {
	char (*names)[CTF_IDENT];
	unsigned int n;
};

static bool ctf_name_taken(const char *name, const void *ctx)
{
	const struct ctf_names *t = ctx;
	unsigned int j;

	for (j = 0; j < t->n; j++)
		if (!strcmp(t->names[j], name))
			return true;
	return false;
}

/* Take name (a TSDL identifier already) as given, cut to fit. */
static const char *ctf_take(struct ctf_names *t, const char *name)
{
	char *out = t->names[t->n];

	meta_unique_name(out, CTF_IDENT - 1, name, ctf_name_taken, t);
	t->n++;
	return out;
}

/* The identifier of a field named name: '_' first (ctf_ident()). */
static const char *ctf_unique_ident(struct ctf_names *t, const char *name)
{
	/* field names are at most 200 bytes */
	char id[256];

	ctf_ident(id, sizeof(id), name);
	return ctf_take(t, id);
}

static void ctf_class_out(FILE *f, const struct ctf_class *k, size_t id)
{
	/* fields, their length members and the raw pair */
	static char names[4 * META_MAX_FIELDS + 32][CTF_IDENT];
	struct ctf_names t = { names, 0 };
	unsigned int nf = k->nfields, i;
	const char *name, *len, *raw = NULL, *raw_len = NULL;

	fprintf(f, "event {\n\tname = \"");
	ctf_event_name(f, k);
	fprintf(f, "\";\n\tid = %zu;\n\tstream_id = 0;\n\tfields := struct {\n",
		id);
	/* the raw pair keeps its names: a field named raw gets raw_2 */
	if (k->raw) {
		raw = ctf_take(&t, "_raw");
		raw_len = ctf_take(&t, "_raw_length");
	}
	for (i = 0; k->lttng && i < k->lttng->nfields; i++) {
		const struct lttng_field *lf = &k->lttng->fields[i];

		name = ctf_unique_ident(&t, lf->name);
		if (lf->type == LTTNG_STRING)
			fprintf(f, "\t\tstring %s;\n", name);
		else
			fprintf(f, "\t\tinteger { size = %u; align = 8; signed = %s; base = 10; } %s;\n",
				lf->type == LTTNG_INT64 ? 64u : 32u,
				lf->type == LTTNG_UINT32 ? "false" : "true",
				name);
	}
	for (i = 0; i < nf; i++) {
		const struct field *fd = class_field(k->meta, i);

		if (shadowed(k, i))
			continue;
		name = ctf_unique_ident(&t, fd->name);
		if (fd->type == LKET_STRING) {
			fprintf(f, "\t\tstring %s;\n", name);
		} else if (fd->type == LKET_ADDRS) {
			char want[CTF_IDENT + 16];

			snprintf(want, sizeof(want), "_%s_length", name);
			len = ctf_take(&t, want);
			fprintf(f, "\t\tinteger { size = 16; align = 8; signed = false; base = 10; } %s;\n"
				"\t\tinteger { size = 64; align = 8; signed = false; base = 16; } %s[%s];\n",
				len, name, len);
		} else {
			fprintf(f, "\t\tinteger { size = %u; align = 8; signed = %s; base = %u; } %s;\n",
				8u * fd->type,
				fd->hex || fd->is_unsigned ? "false" : "true",
				fd->hex ? 16u : 10u, name);
		}
	}
	if (k->raw)
		fprintf(f, "\t\tuint32_t %s;\n\t\tuint8_t %s[%s];\n",
			raw_len, raw, raw_len);
	fprintf(f, "\t};\n};\n\n");
}

/* A TSDL string literal's contents: what would end or escape it, '_'. */
static void ctf_env_string(FILE *f, const char *key, const char *s,
			   size_t size)
{
	size_t i;

	fprintf(f, "\t%s = \"", key);
	for (i = 0; i < size && s[i]; i++)
		fputc(s[i] == '"' || s[i] == '\\' ||
		      (unsigned char)s[i] < 0x20 ? '_' : s[i], f);
	fprintf(f, "\";\n");
}

/* Write the metadata of what the output has seen to f. */
void ctf_metadata(struct ctf *c, FILE *f)
{
	const struct trace_info *t = c->trace;
	const uint8_t *u = c->uuid;
	int64_t off = t && t->have_header ? t->wall_offset : 0;
	int64_t off_s = off / 1000000000, off_ns = off % 1000000000;
	char uuid[40];
	size_t i;

	if (off_ns < 0) {
		off_ns += 1000000000;
		off_s--;
	}
	snprintf(uuid, sizeof(uuid),
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
	fprintf(f, "/* CTF 1.8 */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n"
		"\tbyte_order = %s;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n"
		"\t\tuint8_t uuid[16];\n\t\tuint32_t stream_id;\n\t};\n};\n\n",
		uuid,
		__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "be" : "le");
	fprintf(f, "env {\n\tdomain = \"kernel\";\n"
		"\ttracer_name = \"lttng-modules\";\n\ttracer_major = 2;\n"
		"\ttracer_minor = 13;\n\ttracer_patchlevel = 0;\n");
	if (t && t->have_header && t->kernel[0])
		ctf_env_string(f, "kernel_release", t->kernel,
			       sizeof(t->kernel));
	if (t && t->hostname[0])
		ctf_env_string(f, "hostname", t->hostname,
			       sizeof(t->hostname));
	if (t && t->machine[0])
		ctf_env_string(f, "machine", t->machine, sizeof(t->machine));
	fprintf(f, "};\n\n");
	fprintf(f, "clock {\n\tname = \"monotonic\";\n\tuuid = \"%s\";\n"
		"\tdescription = \"LKET trace clock\";\n"
		"\tfreq = 1000000000;\n\tprecision = 1;\n"
		"\toffset_s = %lld;\n\toffset = %lld;\n\tabsolute = %s;\n};\n\n",
		uuid, (long long)off_s, (long long)off_ns,
		t && t->have_header ? "true" : "false");
	fprintf(f, "stream {\n\tid = 0;\n"
		"\tpacket.context := struct {\n"
		"\t\tuint64_clock_monotonic_t timestamp_begin;\n"
		"\t\tuint64_clock_monotonic_t timestamp_end;\n"
		"\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
		"\t\tuint64_t packet_seq_num;\n"
		"\t\tuint64_t events_discarded;\n\t\tuint32_t cpu_id;\n\t};\n"
		"\tevent.header := struct {\n\t\tuint32_t id;\n"
		"\t\tuint64_clock_monotonic_t timestamp;\n\t};\n"
		"\tevent.context := struct {\n\t\tint32_t _tid;\n"
		"\t\tint32_t _pid;\n\t\tstring _procname;\n\t};\n};\n\n");
	for (i = 0; i < c->nclasses; i++)
		ctf_class_out(f, &c->classes[i], i);
}
