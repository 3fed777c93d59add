// SPDX-License-Identifier: GPL-2.0
/*
 * lket-gencat - write what is derived from the event catalogue.
 *
 *   lket-gencat stp [FILE...]	tapset/lket_catalogue.stp: the FILEs (the
 *				runtime's C headers) as one embedded-C
 *				block, GROUP_ and HOOKID_ globals, every
 *				hook's metadata (a C table, which begin
 *				probes register) and one record writer per
 *				event
 *   lket-gencat aliases	tapset/lket_aliases.stp: the public addevent.*
 *				aliases of every hook, group and entry+return
 *				pair, with the records' skip gate and writer
 *   lket-gencat man		the hook list of man/lket.5 (roff)
 *   lket-gencat probes		every public probe, one per line
 *   lket-gencat groups		every group's name, in ID order
 *   lket-gencat fields		every probe with its fields, as lket(5)
 *				writes them: "addevent.x a(INT8), b(STRING)"
 *
 * The catalogue itself is runtime/lket_events.def; see its header.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { PROBE, FUNC, META };

struct group {
	int id;
	const char *name;
	const char *upper;
	const char *doc;
};

struct event {
	int group;
	int hook;
	const char *upper;
	const char *name;
	enum kind kind;
	const char *fmt;
	const char *names;
	const char *doc;
};

static const struct group groups[] = {
#define LKET_GROUP(id, name, NAME, doc) { id, #name, #NAME, doc },
#define LKET_EVENT(...)
#include "../runtime/lket_events.def"
#undef LKET_GROUP
#undef LKET_EVENT
};

static const struct event events[] = {
#define LKET_GROUP(...)
#define LKET_EVENT(g, h, NAME, name, kind, fmt, names, doc) \
	{ g, h, #NAME, name, kind, fmt, names, doc },
#include "../runtime/lket_events.def"
#undef LKET_GROUP
#undef LKET_EVENT
};

/*
 * Fields a hook's writer fills itself, not from its parameters: a name it
 * looks up (LKET_LOOKUP) or an argument of the system call it reads
 * (LKET_SYSARG).
 */
enum own_kind { OWN_LOOKUP, OWN_SYSARG };

struct own_field {
	enum own_kind kind;
	const char *upper;
	const char *field;
	const char *from;		/* LOOKUP: the probe's local */
	const char *c_function;		/* LOOKUP */
	int n;				/* SYSARG: the argument, 1 to 6 */
	const char *conv;		/* SYSARG: INT, UINT, LONG, ULONG */
};

static const struct own_field own_fields[] = {
#define LKET_GROUP(...)
#define LKET_EVENT(...)
#define LKET_LOOKUP(NAME, field, from, fn) \
	{ OWN_LOOKUP, #NAME, field, from, #fn, 0, NULL },
#define LKET_SYSARG(NAME, field, n, conv) \
	{ OWN_SYSARG, #NAME, field, NULL, NULL, n, #conv },
#include "../runtime/lket_events.def"
#undef LKET_GROUP
#undef LKET_EVENT
#undef LKET_LOOKUP
#undef LKET_SYSARG
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Event e's field name if its writer fills it itself as kind, or NULL. */
static const struct own_field *own_field(const struct event *e,
					 const char *name, enum own_kind kind)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(own_fields); i++)
		if (own_fields[i].kind == kind &&
		    !strcmp(own_fields[i].upper, e->upper) &&
		    !strcmp(own_fields[i].field, name))
			return &own_fields[i];
	return NULL;
}

static const struct own_field *lookup_of(const struct event *e,
					 const char *name)
{
	return own_field(e, name, OWN_LOOKUP);
}

static const struct own_field *sysarg_of(const struct event *e,
					 const char *name)
{
	return own_field(e, name, OWN_SYSARG);
}

/*
 * The C expression of event e's field name in its writer: the writer's
 * argument, or what the writer looked up or read itself (lket_f_NAME).
 */
static const char *field_expr(const struct event *e, const char *name)
{
	static char buf[128];

	snprintf(buf, sizeof(buf),
		 lookup_of(e, name) || sysarg_of(e, name) ? "lket_f_%s" :
		 "STAP_ARG_f_%s", name);
	return buf;
}

/* Copy the n-th ':'-separated token of list into buf; 0 if there is none. */
static int token(const char *list, int n, char *buf, size_t size)
{
	const char *p = list, *end;
	size_t len;

	if (!*list)
		return 0;
	while (n--) {
		p = strchr(p, ':');
		if (!p)
			return 0;
		p++;
	}
	end = strchr(p, ':');
	len = end ? (size_t)(end - p) : strlen(p);
	if (len >= size)
		len = size - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return 1;
}

static int is_string(const char *type)
{
	return !strcmp(type, "STRING");
}

static void embed(const char *path);

/*
 * A line '#include "file"' of an embedded header: the file, from the
 * header's own folder, embedded in its place (the module's C has no
 * include path to it).  0 if line is no such include.
 */
static int embed_include(const char *path, const char *line)
{
	const char *slash = strrchr(path, '/');
	char name[1024], inc[2048];
	int dir = slash ? (int)(slash - path + 1) : 0;

	if (sscanf(line, " #include \"%1023[^\"]\"", name) != 1)
		return 0;
	snprintf(inc, sizeof(inc), "%.*s%s", dir, path, name);
	embed(inc);
	return 1;
}

/*
 * What the catalogue holds for lket-b2a alone (LKET_PAIR): its lines, and
 * the sections between these markers with the blank line before each,
 * are left out of the tapset's copy, which has no use for them.
 */
#define B2A_ALONE	"/* ---- lket-b2a's alone"
#define B2A_ALONE_END	"/* ---- end of lket-b2a's alone"

static void embed(const char *path)
{
	char line[4096];
	FILE *f = fopen(path, "r");
	int blank = 0, alone = 0;

	if (!f) {
		perror(path);
		exit(1);
	}
	printf("/* ---- %s ---- */\n", path);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, B2A_ALONE, strlen(B2A_ALONE))) {
			alone = 1;
			blank = 0;
		}
		if (alone || !strncmp(line, "LKET_PAIR(", 10)) {
			if (!strncmp(line, B2A_ALONE_END, strlen(B2A_ALONE_END)))
				alone = 0;
			continue;
		}
		if (blank)
			putchar('\n');
		blank = !strcmp(line, "\n");
		if (!blank && !embed_include(path, line))
			fputs(line, stdout);
	}
	if (blank)
		putchar('\n');
	fclose(f);
}

static int field_size(const char *type)
{
	if (!strcmp(type, "INT8"))
		return 1;
	if (!strcmp(type, "INT16"))
		return 2;
	if (!strcmp(type, "INT32"))
		return 4;
	if (!strcmp(type, "INT64"))
		return 8;
	if (!strcmp(type, "STRING"))
		return 0;
	fprintf(stderr, "lket-gencat: unknown field type %s\n", type);
	exit(1);
}

static const char *c_type(int size)
{
	switch (size) {
	case 1:
		return "u8";
	case 2:
		return "u16";
	case 4:
		return "u32";
	default:
		return "u64";
	}
}

/*
 * The writer of one event, in embedded C: the record head and the hook's
 * fields in catalogue order, written at once into the print buffer
 * (lket_record_reserve() in runtime/lket_shim.h); with -D ASCII_TRACE,
 * the fields as text.  Integers are stored in the traced machine's byte
 * order, cut to the field's size, as printf's %1b..%8b did; strings with
 * their NUL, as %0s did.  Parameters are prefixed because field names
 * such as "return" are stap keywords.  The alias that calls it closes the
 * record (total_size) after the user's probe body, so that printf()s
 * there land in the same record as user-appended data.  A hook's writer
 * (PROBE) is its gate too: it writes nothing and returns 1 when hooks
 * must write nothing (lket_skip()), and its alias then skips the body.
 */
/* A hook's gate, in its writer (a call less a record): 1, nothing written. */
static void writer_gate(const struct event *e)
{
	if (e->kind == PROBE)
		printf("\tif (lket_skip())\n\t\tSTAP_RETURN(1);\n");
}

static void stp_writer(const struct event *e)
{
	char type[32], name[64];
	const struct own_field *l;
	int i, fixed = 0, params = 0;

	printf("\nfunction _lket_write_%s%s(", e->upper,
	       e->kind == PROBE ? ":long" : "");
	for (i = 0; token(e->names, i, name, sizeof(name)); i++) {
		if (sysarg_of(e, name))
			continue;
		token(e->fmt, i, type, sizeof(type));
		l = lookup_of(e, name);
		printf("%sf_%s:%s", params++ ? ", " : "", l ? l->from : name,
		       is_string(type) && !l ? "string" : "long");
	}
	printf(")\n%%{ /* unmodified-fnargs */\n");
	for (i = 0; token(e->names, i, name, sizeof(name)); i++) {
		const struct own_field *a = sysarg_of(e, name);

		l = lookup_of(e, name);
		if (l)
			printf("\tsize_t lket_size_%s;\n"
			       "\tconst char *lket_f_%s =\n"
			       "\t\t%s(STAP_ARG_f_%s, &lket_size_%s);\n",
			       name, name, l->c_function, l->from, name);
		if (a)
			printf("\ts64 lket_f_%s = LKET_SYSARG_%s(%d);\n",
			       name, a->conv, a->n);
	}
	printf("#if LKET_ASCII_TRACE\n");
	writer_gate(e);
	printf("\tlket_ascii_record_begin(%d, %d);\n", e->group, e->hook);
	/* strings escaped: a newline in a file name must not forge a line */
	for (i = 0; token(e->names, i, name, sizeof(name)); i++) {
		token(e->fmt, i, type, sizeof(type));
		if (is_string(type))
			printf("\tlket_ascii_field(\"%s\", %s);\n",
			       name, field_expr(e, name));
		else
			printf("\t_stp_printf(\" %s=%%lld\", (long long)%s);\n",
			       name, field_expr(e, name));
	}
	printf("#else\n\tunsigned long lket_flags;\n");
	for (i = 0; token(e->fmt, i, type, sizeof(type)); i++) {
		token(e->names, i, name, sizeof(name));
		if (is_string(type) && lookup_of(e, name))
			printf("\tsize_t lket_len_%d = lket_size_%s;\n", i, name);
		else if (is_string(type))
			printf("\tsize_t lket_len_%d = strlen(%s) + 1;\n",
			       i, field_expr(e, name));
		else
			fixed += field_size(type);
	}
	printf("\tchar *lket_p;\n\n");
	writer_gate(e);
	printf("\tlket_p = lket_record_reserve(%d, %d, %d", e->group,
	       e->hook, fixed);
	for (i = 0; token(e->fmt, i, type, sizeof(type)); i++)
		if (is_string(type))
			printf(" + lket_len_%d", i);
	printf(", &lket_flags);\n\n\tif (lket_p) {\n");
	for (i = 0; token(e->fmt, i, type, sizeof(type)); i++) {
		int size = field_size(type);

		token(e->names, i, name, sizeof(name));
		if (is_string(type))
			printf("\t\tlket_p = lket_put(lket_p, %s, lket_len_%d);\n",
			       field_expr(e, name), i);
		else
			printf("\t\t{\n\t\t\t%s v = (%s)%s;\n\n"
			       "\t\t\tlket_p = lket_put(lket_p, &v, %d);\n\t\t}\n",
			       c_type(size), c_type(size), field_expr(e, name),
			       size);
	}
	printf("\t\tlket_record_reserved(&lket_flags);\n\t}\n#endif\n%%}\n");
}

/* Hooks whose metadata one begin probe handler writes. */
#define META_CHUNK	16

static int gen_stp(int nfiles, char **files)
{
	size_t i, n;
	int f;

	printf("/* Generated by tools/lket-gencat from runtime/lket_events.def: do not edit. */\n\n");
	if (nfiles) {
		printf("%%{\n");
		for (f = 0; f < nfiles; f++)
			embed(files[f]);
		printf("%%}\n\n");
	}
	for (i = 0; i < ARRAY_SIZE(groups); i++)
		printf("global GROUP_%s = %d\n", groups[i].upper, groups[i].id);
	printf("\n");
	for (i = 0; i < ARRAY_SIZE(events); i++)
		if (events[i].kind != META)
			printf("global HOOKID_%s = %d\n", events[i].upper,
			       events[i].hook);

	/*
	 * The metadata of every hook, as a C table that a loop walks: a
	 * register_sys_event() call per hook in the script was a third of
	 * every module's C, and of its build time.
	 */
	printf("\n%%{\n/* Every hook's group, hook ID, field types and names, and name. */\n"
	       "static const struct lket_hook_meta {\n"
	       "\tu8 group, hook;\n\tconst char *fmt, *names, *name;\n"
	       "} lket_hook_meta[] = {\n");
	for (i = 0, n = 0; i < ARRAY_SIZE(events); i++) {
		const struct event *e = &events[i];

		if (e->kind == META)
			continue;
		printf("\t{ %d, %d, \"%s\", \"%s\", \"%s\" },\n",
		       e->group, e->hook, e->fmt, e->names, e->name);
		n++;
	}
	printf("};\n%%}\n");
	printf("\nfunction _lket_hook_meta_count:long()\n"
	       "%%{ /* pure */\n\tSTAP_RETVALUE = ARRAY_SIZE(lket_hook_meta);\n%%}\n");
	printf("\nfunction _lket_hook_meta_id:long(i:long, hook:long)\n"
	       "%%{ /* pure */\n"
	       "\tconst struct lket_hook_meta *m = NULL;\n\n"
	       "\tif (STAP_ARG_i >= 0 && STAP_ARG_i < ARRAY_SIZE(lket_hook_meta))\n"
	       "\t\tm = &lket_hook_meta[STAP_ARG_i];\n"
	       "\tSTAP_RETVALUE = !m ? -1 : STAP_ARG_hook ? m->hook : m->group;\n%%}\n");
	printf("\n/* what: 0 the field types, 1 their names, 2 the hook's name */\n"
	       "function _lket_hook_meta_text:string(i:long, what:long)\n"
	       "%%{ /* pure */\n"
	       "\tconst struct lket_hook_meta *m = NULL;\n\n"
	       "\tif (STAP_ARG_i >= 0 && STAP_ARG_i < ARRAY_SIZE(lket_hook_meta))\n"
	       "\t\tm = &lket_hook_meta[STAP_ARG_i];\n"
	       "\tstrlcpy(STAP_RETVALUE, !m ? \"\" : STAP_ARG_what == 0 ? m->fmt :\n"
	       "\t\tSTAP_ARG_what == 1 ? m->names : m->name, MAXSTRINGLEN);\n%%}\n");
	printf("\nfunction _lket_register_hooks(first:long)\n{\n"
	       "\tfor (i = first; i < first + %d && i < _lket_hook_meta_count(); i++) {\n"
	       "\t\tgrpid = _lket_hook_meta_id(i, 0)\n"
	       "\t\thookid = _lket_hook_meta_id(i, 1)\n"
	       "\t\tregister_sys_event(grpid, hookid, _lket_hook_meta_text(i, 0),\n"
	       "\t\t\t\t   _lket_hook_meta_text(i, 1))\n"
	       "\t\t_lket_event_desc(grpid, hookid, _lket_hook_meta_text(i, 2))\n"
	       "\t}\n}\n", (int)META_CHUNK);
	/*
	 * A begin probe's handler runs with interrupts off: the metadata of
	 * all hooks in one took 8 to 12 ms in the RT guest (TCG,
	 * bench/rt-start.sh), so a handler writes META_CHUNK hooks'.  They
	 * may run in any order (stap sorts begin probes by priority alone).
	 */
	printf("\n/* The metadata of every hook, written before the first event,\n"
	       " * %d hooks a handler (tapset/lket_core.stp: the start-up order). */\n",
	       (int)META_CHUNK);
	for (i = 0; i < n; i += META_CHUNK)
		printf("probe begin(-1000000002) { _lket_register_hooks(%zu) }\n", i);

	for (i = 0; i < ARRAY_SIZE(events); i++)
		stp_writer(&events[i]);
	return 0;
}

static void man_escape(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static int gen_man(void)
{
	char type[32], name[64];
	size_t g, i;
	int n;

	for (g = 0; g < ARRAY_SIZE(groups); g++) {
		printf(".SS %s (group %d): %s\n", groups[g].name, groups[g].id,
		       groups[g].doc);
		for (i = 0; i < ARRAY_SIZE(events); i++) {
			const struct event *e = &events[i];

			if (e->group != groups[g].id)
				continue;
			printf(".TP\n.B %s%s\n", e->kind == PROBE ? "addevent." : "",
			       e->name);
			printf("hook %d%s: ", e->hook,
			       e->kind == FUNC ? ", written by a function" :
			       e->kind == META ? ", metadata" : "");
			man_escape(e->doc);
			printf(".\n.br\nRecord: \\fIcommon_data\\fR");
			for (n = 0; token(e->names, n, name, sizeof(name)); n++) {
				token(e->fmt, n, type, sizeof(type));
				printf(", ");
				man_escape(name);
				printf("(%s)", type);
			}
			printf("\n");
		}
	}
	return 0;
}

static int gen_probes(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++)
		if (events[i].kind == PROBE)
			printf("addevent.%s\n", events[i].name);
	return 0;
}

static int gen_groups(void)
{
	size_t g;

	for (g = 0; g < ARRAY_SIZE(groups); g++)
		printf("%s\n", groups[g].name);
	return 0;
}

static int gen_fields(void)
{
	char type[32], name[64];
	size_t i;
	int n;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		if (events[i].kind == META)
			continue;
		printf("%s%s", events[i].kind == PROBE ? "addevent." : "",
		       events[i].name);
		for (n = 0; token(events[i].names, n, name, sizeof(name)); n++) {
			token(events[i].fmt, n, type, sizeof(type));
			printf("%s%s(%s)", n ? ", " : " ", name, type);
		}
		printf("\n");
	}
	return 0;
}

/*
 * lket-gencat locals: "addevent.NAME field from", a line a lookup: the
 * hook's probe sets the local "from" (documented with the fields), its
 * writer looks field up from it.
 */
static int gen_locals(void)
{
	const struct event *e;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(own_fields); i++)
		for (j = 0; j < ARRAY_SIZE(events); j++) {
			e = &events[j];
			if (own_fields[i].kind == OWN_LOOKUP &&
			    !strcmp(e->upper, own_fields[i].upper))
				printf("addevent.%s %s %s\n", e->name,
				       own_fields[i].field, own_fields[i].from);
		}
	return 0;
}

/* ---- lket-gencat aliases: tapset/lket_aliases.stp ---- */

/*
 * The group and pair aliases are those of 2006's tapsets, which the
 * catalogue alone does not fix: these groups had no entry+return pair
 * aliases (addevent.nfs.fop.open), and these took every member of the
 * group alias as optional, so that a hook whose probe points the kernel
 * lacks (iosyscall.llseek on x86-64) leaves the group working.
 */
static const char *const flat_groups[] = { "sunrpc", "nfs", "nfsd" };
static const char *const optional_groups[] = { "iosyscall", "aio", "scsi" };

#define NAME_MAX_LEN 128
#define WRAP 79

static int in_list(const char *const *list, size_t n, const char *s)
{
	while (n--)
		if (!strcmp(list[n], s))
			return 1;
	return 0;
}

/*
 * Print item, after ", " unless it is the first, on a new line that
 * starts with cont (ending at column cont_col) when it would end past
 * WRAP; the column it ends at.
 */
static int put_item(int col, int first, const char *item, const char *cont,
		    int cont_col)
{
	int len = (int)strlen(item);

	if (!first) {
		putchar(',');
		col++;
		if (col + 1 + len + 1 > WRAP) {
			printf("\n%s", cont);
			col = cont_col;
		} else {
			putchar(' ');
			col++;
		}
	}
	return col + printf("%s", item);
}

/* The child of prefix that leads to name, into buf; 0 if name is not below. */
static int child_of(const char *name, const char *prefix, char *buf)
{
	size_t len = strlen(prefix);
	const char *end;

	if (strncmp(name, prefix, len) || name[len] != '.')
		return 0;
	end = strchr(name + len + 1, '.');
	len = end ? (size_t)(end - name) : strlen(name);
	if (len >= NAME_MAX_LEN) {
		fprintf(stderr, "lket-gencat: name too long: %s\n", name);
		exit(1);
	}
	memcpy(buf, name, len);
	buf[len] = '\0';
	return 1;
}

static int is_leaf(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++)
		if (events[i].kind == PROBE && !strcmp(events[i].name, name))
			return 1;
	return 0;
}

/* Whether prefix has a child with children of its own (nfs.fop). */
static int has_subnode(const char *prefix)
{
	char c[NAME_MAX_LEN];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++)
		if (events[i].kind == PROBE &&
		    child_of(events[i].name, prefix, c) &&
		    strcmp(c, events[i].name))
			return 1;
	return 0;
}

/* Whether a node (a proper prefix of some hook) has an alias. */
static int has_alias(const char *node, const char *group)
{
	return !strcmp(node, group) || has_subnode(node) ||
	       !in_list(flat_groups, ARRAY_SIZE(flat_groups), group);
}

/*
 * Print the members of node's alias, in catalogue order: each child that
 * is a hook or has an alias itself, else that child's own members.
 */
static int print_members(const char *node, const char *group, int col,
			 const char *sep, const char *opt, int *first)
{
	char kids[ARRAY_SIZE(events)][NAME_MAX_LEN];
	size_t i, k, n = 0;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		if (events[i].kind != PROBE ||
		    !child_of(events[i].name, node, kids[n]))
			continue;
		for (k = 0; k < n && strcmp(kids[k], kids[n]); k++)
			;
		if (k == n)
			n++;
	}
	for (k = 0; k < n; k++) {
		char item[NAME_MAX_LEN + 16];

		if (!is_leaf(kids[k]) && !has_alias(kids[k], group)) {
			col = print_members(kids[k], group, col, sep, opt, first);
			continue;
		}
		snprintf(item, sizeof(item), "addevent.%s%s", kids[k], opt);
		col = put_item(col, *first, item, sep,
			       sep[0] == '\t' ? 8 : (int)strlen(sep));
		*first = 0;
	}
	return col;
}

static void alias_doc(const char *node, const struct group *g)
{
	int first = 1;

	if (!strcmp(node, g->name))
		printf("\n/**\n * probe addevent.%s - %c%s\n *\n", node,
		       toupper((unsigned char)g->doc[0]), g->doc + 1);
	else
		printf("\n/**\n * probe addevent.%s - Every addevent.%s.* hook\n *\n",
		       node, node);
	printf(" * Description: ");
	print_members(node, g->name, 16, " * ", "", &first);
	printf(".");
	if (!strcmp(node, g->name) &&
	    in_list(optional_groups, ARRAY_SIZE(optional_groups), g->name))
		printf("\n * A member whose probe points this kernel lacks is left out.");
	printf("\n */\n");
}

static void gen_group_alias(const char *node, const struct group *g)
{
	int first = 1;
	const char *opt = "";

	if (!strcmp(node, g->name) &&
	    in_list(optional_groups, ARRAY_SIZE(optional_groups), g->name))
		opt = " ?";
	alias_doc(node, g);
	printf("probe addevent.%s =\n\t", node);
	print_members(node, g->name, 8, "\t", opt, &first);
	printf("\n{\n}\n");
}

/*
 * A hook's public alias, in two steps: the hand-written __lket_<name>
 * has set one local per field; the writer, the gate too, opens the record
 * before the user's probe body, the public alias closes it after (so
 * that user-appended data lands in the record), with an embedded-C
 * expression: a SystemTap function's call and context bookkeeping cost
 * more than closing a record the body printed nothing to.  The writer's
 * statement reads _lket_lock_point first: the user's globals are locked
 * there (tapset/lket_core.stp says why).
 */
static void gen_hook_alias(const struct event *e)
{
	char type[32], name[64], item[100];
	int i, n, col;

	col = printf("\n/* addevent.%s - Record: common_data", e->name) - 1;
	for (i = 0; token(e->names, i, name, sizeof(name)); i++) {
		token(e->fmt, i, type, sizeof(type));
		snprintf(item, sizeof(item), "%s(%s)", name, type);
		col = put_item(col, 0, item, " * ", 3);
	}
	printf(" */\nprobe __lket_rec.%s = __lket_%s\n{\n", e->name, e->name);
	col = printf("\tif (_lket_lock_point || _lket_write_%s(", e->upper) + 7;
	for (i = 0, n = 0; token(e->names, i, name, sizeof(name)); i++) {
		const struct own_field *l = lookup_of(e, name);

		if (sysarg_of(e, name))
			continue;	/* the writer reads it itself */
		col = put_item(col, !n++, l ? l->from :
			       strcmp(name, "return") ? name : "retval",
			       "\t\t", 16);
	}
	printf("))\n\t\tnext\n}\n\nprobe addevent.%s += __lket_rec.%s\n{\n"
	       "\t%%{ LKET_RECORD_END() %%}\n}\n", e->name, e->name);
}

static int gen_aliases(void)
{
	char nodes[ARRAY_SIZE(events)][NAME_MAX_LEN];
	size_t g, i, k, n;

	printf("/* Generated by tools/lket-gencat from runtime/lket_events.def: do not edit. */\n");
	printf("\n/*\n"
	       " * The public addevent.* probe aliases.  Each hook's probe\n"
	       " * __lket_<name>, hand-written in tapset/<group>.stp, sets one local\n"
	       " * per record field, named after the field (\"return\" is retval);\n"
	       " * here the record is written from them, unless the hooks are off\n"
	       " * (_lket_skip()), and closed after the user's probe body.  The kernel-doc\n"
	       " * of the hooks is next to their __lket_<name> probes.\n"
	       " */\n");
	for (g = 0; g < ARRAY_SIZE(groups); g++) {
		const struct group *gr = &groups[g];

		n = 0;
		for (i = 0; i < ARRAY_SIZE(events); i++) {
			const char *p = events[i].name;

			if (events[i].group != gr->id || events[i].kind != PROBE)
				continue;
			/* the group's own alias, unless the group is one hook
			 * (pagefault) */
			if (!n && strcmp(p, gr->name))
				strcpy(nodes[n++], gr->name);
			if (!n)
				continue;
			/* every proper prefix below the group's */
			for (p = strchr(p + strlen(gr->name) + 1, '.'); p;
			     p = strchr(p + 1, '.')) {
				size_t len = (size_t)(p - events[i].name);

				for (k = 0; k < n; k++)
					if (strlen(nodes[k]) == len &&
					    !strncmp(nodes[k], events[i].name, len))
						break;
				if (k == n) {
					memcpy(nodes[n], events[i].name, len);
					nodes[n++][len] = '\0';
				}
			}
		}
		for (i = 0; i < ARRAY_SIZE(events); i++)
			if (events[i].group == gr->id && events[i].kind == PROBE)
				break;
		if (i == ARRAY_SIZE(events))
			continue;
		printf("\n/* ---- %d: %s ---- */\n", gr->id, gr->name);
		for (k = 0; k < n; k++)
			if (has_alias(nodes[k], gr->name))
				gen_group_alias(nodes[k], gr);
		for (i = 0; i < ARRAY_SIZE(events); i++)
			if (events[i].group == gr->id && events[i].kind == PROBE)
				gen_hook_alias(&events[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "stp"))
		return gen_stp(argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "man"))
		return gen_man();
	if (argc == 2 && !strcmp(argv[1], "probes"))
		return gen_probes();
	if (argc == 2 && !strcmp(argv[1], "fields"))
		return gen_fields();
	if (argc == 2 && !strcmp(argv[1], "groups"))
		return gen_groups();
	if (argc == 2 && !strcmp(argv[1], "locals"))
		return gen_locals();
	if (argc == 2 && !strcmp(argv[1], "aliases"))
		return gen_aliases();
	fprintf(stderr, "usage: lket-gencat stp [FILE...] | aliases | man | probes | fields | groups | locals\n");
	return 2;
}
