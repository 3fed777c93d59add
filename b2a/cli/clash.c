// SPDX-License-Identifier: GPL-2.0
/* clash.c - outputs that would destroy an input or another output. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/clash.h"

/* Standard input's file, when it comes from one (< FILE). */
#define STDIN_PATH	"/proc/self/fd/0"

enum out_kind { OUT_NONE, OUT_FILE, OUT_DIR };

/*
 * A file, or one to be made: what writing it would lose.  A folder: what
 * is in it.  Anything else (a terminal, /dev/null, a pipe) loses nothing.
 */
static enum out_kind out_kind(const char *path)
{
	struct stat st;

	if (!path || !strcmp(path, "-"))
		return OUT_NONE;
	if (stat(path, &st) || S_ISREG(st.st_mode))
		return OUT_FILE;
	return S_ISDIR(st.st_mode) ? OUT_DIR : OUT_NONE;
}

/* A file that may not exist yet, as its folder's real path and its name. */
static bool canonical(const char *path, char *out, size_t size)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX];

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path + 1) : 1,
		 slash ? path : ".");
	if (!realpath(dir, real))
		return false;
	return snprintf(out, size, "%s/%s", real, slash ? slash + 1 : path) <
	       (int)size;
}

/* The same inode when both exist; else the same name, x or ./x. */
static bool same_file(const char *a, const char *b)
{
	char ca[2 * PATH_MAX], cb[2 * PATH_MAX];
	struct stat sa, sb;
	bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;

	if (!strcmp(a, b))
		return true;
	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return !ea && !eb && canonical(a, ca, sizeof(ca)) &&
	       canonical(b, cb, sizeof(cb)) && !strcmp(ca, cb);
}

/* Is path (absolute, resolved) below the folder root (the same)? */
static bool below(const char *root, const char *path)
{
	size_t n = strlen(root);

	/* "/" holds every file */
	if (n == 1)
		return path[0] == '/' && path[1];
	return !strncmp(path, root, n) && path[n] == '/';
}

/*
 * Does the folder root (resolved) hold the input?  Its name (a link in
 * root, say, which replacing root removes) or the file itself (what a
 * link outside root points to).
 */
static bool holds(const char *root, const char *input)
{
	char name[2 * PATH_MAX], real[PATH_MAX];
	bool in = !strcmp(input, "-");

	if (!in && canonical(input, name, sizeof(name)) && below(root, name))
		return true;
	return realpath(in ? STDIN_PATH : input, real) && below(root, real);
}

void clash_find(const struct clash_out *outs, size_t nouts,
		char *const *inputs, size_t ninputs, struct clash *c)
{
	char root[PATH_MAX];
	enum out_kind kind;
	size_t i, j;

	for (i = 0; i < nouts; i++) {
		*c = (struct clash){ .out = i };
		kind = out_kind(outs[i].path);
		if (kind == OUT_DIR && !realpath(outs[i].path, root))
			kind = OUT_NONE;
		for (j = 0; kind != OUT_NONE && j < ninputs; j++) {
			c->with = j;
			if (kind == OUT_DIR && holds(root, inputs[j]))
				c->kind = CLASH_HOLDS_INPUT;
			else if (kind == OUT_FILE &&
				 same_file(outs[i].path, strcmp(inputs[j], "-") ?
					   inputs[j] : STDIN_PATH))
				c->kind = CLASH_INPUT;
			if (c->kind)
				return;
		}
		for (j = 0; kind == OUT_FILE && j < i; j++)
			if (out_kind(outs[j].path) == OUT_FILE &&
			    same_file(outs[i].path, outs[j].path)) {
				c->with = j;
				c->kind = CLASH_OUTPUT;
				return;
			}
	}
	*c = (struct clash){ .kind = CLASH_NONE };
}
