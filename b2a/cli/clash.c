// SPDX-License-Identifier: GPL-2.0
/* clash.c - outputs that would destroy an input or another output. */
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/clash.h"

/*
 * Standard input ("-") is known by its file's device and inode, from
 * fstat(): not by a name, which /proc/self/fd/0 gives only where /proc
 * is mounted (a chroot, a build root may have none).
 */
static bool stdin_file(struct stat *st)
{
	return !fstat(STDIN_FILENO, st) && S_ISREG(st->st_mode);
}

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

static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * The same inode when both exist; else the same name, x or ./x.  b "-":
 * standard input's file.
 */
static bool same_file(const char *a, const char *b)
{
	char ca[2 * PATH_MAX], cb[2 * PATH_MAX];
	struct stat sa, sb;
	bool ea = stat(a, &sa) == 0, eb;

	if (!strcmp(b, "-"))
		return ea && stdin_file(&sb) && same_inode(&sa, &sb);
	eb = stat(b, &sb) == 0;
	if (!strcmp(a, b))
		return true;
	if (ea && eb)
		return same_inode(&sa, &sb);
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

/* standard input's file, while nftw() looks for it (it takes no argument) */
static struct stat stdin_st;

static int is_stdin(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	return flag == FTW_F && same_inode(st, &stdin_st);
}

/*
 * Does the folder root (resolved) hold the input?  Its name (a link in
 * root, say, which replacing root removes) or the file itself (what a
 * link outside root points to).  Standard input: a file in root, at any
 * depth, that is its file.
 */
static bool holds(const char *root, const char *input)
{
	char name[2 * PATH_MAX], real[PATH_MAX];

	if (!strcmp(input, "-"))
		return stdin_file(&stdin_st) &&
		       nftw(root, is_stdin, 16, FTW_PHYS) == 1;
	if (canonical(input, name, sizeof(name)) && below(root, name))
		return true;
	return realpath(input, real) && below(root, real);
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
				 same_file(outs[i].path, inputs[j]))
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
