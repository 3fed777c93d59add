// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/lket_format.h"
#include "sqlschema.h"

static const char *const common[] = {
	"time", "cpu", "tid", "pid", "comm", "raw",
};

/* Lower-case letters, digits and underscores only; not starting with a
 * digit. */
static void sql_name(char *out, size_t size, const char *prefix,
		     const char *name)
{
	size_t n = 0;
	const char *s;

	for (s = prefix; *s && n + 1 < size; s++)
		out[n++] = *s;
	for (s = name; *s && n + 1 < size; s++) {
		char c = *s;

		out[n++] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ?
			   c : c >= 'A' && c <= 'Z' ? (char)(c + 32) : '_';
	}
	out[n] = '\0';
	if (out[0] >= '0' && out[0] <= '9')
		out[0] = '_';
}

static bool taken(const struct sql_table *t, unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		if (!strcmp(common[i], name))
			return true;
	for (i = 0; i < n; i++)
		if (!strcmp(t->cols[i], name))
			return true;
	return false;
}

int sql_table_init(struct sql_table *t, const struct event_meta *m)
{
	const struct field_list *lists[2] = { &m->sys, &m->user };
	unsigned int i, k, n = 0;
	char prefix[8];

	sql_name(t->name, sizeof(t->name), "", m->name ? m->name : "unknown");
	t->ncols = m->sys.n + m->user.n;
	t->cols = calloc(t->ncols ? t->ncols : 1, sizeof(*t->cols));
	if (!t->cols)
		return -ENOMEM;
	for (k = 0; k < 2; k++)
		for (i = 0; i < lists[k]->n; i++, n++) {
			strcpy(prefix, "");
			sql_name(t->cols[n], sizeof(t->cols[n]), prefix,
				 lists[k]->f[i].name);
			while (taken(t, n, t->cols[n]) &&
			       strlen(prefix) + 3 < sizeof(prefix)) {
				strcat(prefix, "f_");
				sql_name(t->cols[n], sizeof(t->cols[n]), prefix,
					 lists[k]->f[i].name);
			}
		}
	return 0;
}

void sql_table_free(struct sql_table *t)
{
	free(t->cols);
	t->cols = NULL;
}

char *sql_ident(char *p, const char *name)
{
	*p++ = '"';
	for (; *name; name++) {
		if (*name == '"')
			*p++ = '"';
		*p++ = *name;
	}
	*p++ = '"';
	*p = '\0';
	return p;
}

void sql_table_rename(struct sql_table *t, unsigned int group,
		      unsigned int hook)
{
	size_t n = strlen(t->name);

	if (n > 100)
		n = 100;
	snprintf(t->name + n, sizeof(t->name) - n, "_%u_%u", group, hook);
}

size_t sql_text_size(const struct sql_table *t)
{
	return 512 + (size_t)(t->ncols + 8) * (2 * SQL_NAME_MAX + 16);
}

char *sql_create_table(char *p, const struct sql_table *t,
		       const struct event_meta *m, const struct sql_types *ty)
{
	unsigned int i;

	p += sprintf(p, "CREATE TABLE ");
	p = sql_ident(p, t->name);
	p += sprintf(p, " (time %s NOT NULL, cpu INTEGER, tid %s, pid INTEGER, "
		     "comm TEXT", ty->int64, ty->int64);
	for (i = 0; i < t->ncols; i++) {
		const struct field *f = i < m->sys.n ? &m->sys.f[i] :
						       &m->user.f[i - m->sys.n];

		*p++ = ',';
		*p++ = ' ';
		p = sql_ident(p, t->cols[i]);
		p += sprintf(p, " %s",
			     f->type == LKET_STRING ? "TEXT" : ty->int64);
	}
	p += sprintf(p, ", raw %s)", ty->bytes);
	return p;
}
