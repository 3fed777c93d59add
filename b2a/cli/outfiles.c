// SPDX-License-Identifier: GPL-2.0
/*
 * outfiles.c - what a run writes (outfiles.h): the registry's outputs and
 * the reports, on files put in place only when the conversion succeeded,
 * so that what was there survives a failure.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/clash.h"
#include "cli/outfiles.h"
#include "output/tee.h"

static void add(struct outfiles *fs, const char *option, const char *path,
		int decl)
{
	struct outfile *f = &fs->f[fs->n++];

	*f = (struct outfile){ .path = path, .decl = decl };
	snprintf(f->option, sizeof(f->option), "%s", option);
}

/* The registry's outputs of target, in its order. */
static void add_decls(struct outfiles *fs, const struct options *o,
		      enum output_target target)
{
	const struct output_decl *d;
	char name[40];
	size_t i;

	for (i = 0; i < output_registry_size; i++) {
		d = output_registry[i];
		if (d->target != target)
			continue;
		add(fs, output_decl_name(d, name, sizeof(name)), o->paths[i],
		    (int)i);
		fs->f[fs->n - 1].keep = target == OUTPUT_DB_FILE;
		fs->f[fs->n - 1].folder = target == OUTPUT_FOLDER;
	}
}

static void list(struct outfiles *fs, const struct options *o)
{
	fs->n = 0;
	add_decls(fs, o, OUTPUT_DB_FILE);
	fs->report = (int)fs->n;
	add(fs, "--report", o->report_path, -1);
	fs->rpc = (int)fs->n;
	add(fs, "--rpc-report", o->rpc_path, -1);
	fs->offcpu = (int)fs->n;
	add(fs, "--offcpu", o->offcpu_path, -1);
	fs->offcpu_folded = (int)fs->n;
	add(fs, "--offcpu-folded", o->offcpu_folded_path, -1);
	fs->critpath = (int)fs->n;
	add(fs, "--critical-path-out", o->critpath_tid ?
	    (o->critpath_path ? o->critpath_path : "-") : NULL, -1);
	add_decls(fs, o, OUTPUT_FILE);
	add_decls(fs, o, OUTPUT_FOLDER);
}

/*
 * Refuse, before anything is written, an output that is one of the
 * inputs or holds one (a folder), or the same file as another output.
 */
static int check_clashes(const struct outfiles *fs, char *const *paths,
			 size_t npaths)
{
	struct clash_out outs[sizeof(fs->f) / sizeof(fs->f[0])];
	struct clash c;
	const char *in;
	size_t i;

	for (i = 0; i < fs->n; i++)
		outs[i] = (struct clash_out){ fs->f[i].option, fs->f[i].path };
	clash_find(outs, fs->n, paths, npaths, &c);
	if (c.kind == CLASH_NONE)
		return 0;
	in = c.kind == CLASH_OUTPUT ? NULL : paths[c.with];
	if (in && !strcmp(in, "-"))
		in = "- (standard input)";
	if (c.kind == CLASH_OUTPUT)
		fprintf(stderr, "lket-b2a: %s %s: the same file as %s %s; nothing written\n",
			outs[c.out].option, outs[c.out].path,
			outs[c.with].option, outs[c.with].path);
	else
		fprintf(stderr, "lket-b2a: %s %s: %s the input file %s; nothing written\n",
			outs[c.out].option, outs[c.out].path,
			c.kind == CLASH_INPUT ? "that is" : "holds", in);
	return -EINVAL;
}

int outfiles_open(struct outfiles *fs, const struct options *o,
		  const struct inputs *in, const char **what, bool *refused)
{
	struct outfile *f;
	size_t i;
	int ret;

	list(fs, o);
	ret = check_clashes(fs, in->paths, in->n);
	*refused = ret != 0;
	if (!ret)
		ret = tmpfile_catch_signals();
	for (i = 0; !ret && i < fs->n; i++) {
		f = &fs->f[i];
		if (!f->path || f->folder || !strcmp(f->path, "-"))
			continue;
		*what = f->path;
		ret = tmpfile_open(&f->t, f->path);
		/* a database is opened by name; closing a second descriptor
		 * of the file would drop its locks (SQLite's) */
		if (!ret && f->keep) {
			close(f->t.fd);
			f->t.fd = -1;
		}
	}
	return ret;
}

int outfiles_fd(const struct outfiles *fs, int i)
{
	return i >= 0 && fs->f[i].t.target ? fs->f[i].t.fd : STDOUT_FILENO;
}

/* The file of registry entry decl; -1: none (a service). */
static int file_of(const struct outfiles *fs, size_t decl)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (fs->f[i].decl == (int)decl)
			return (int)i;
	return -1;
}

int outfiles_outputs(const struct outfiles *fs, const struct options *o,
		     struct output **out, const char **what)
{
	struct output *outs[OUTPUTS_MAX];
	struct output_args a;
	size_t n = 0, i;
	int ret = 0, f;

	for (i = 0; !ret && i < output_registry_size; i++) {
		if (!options_want(o, i))
			continue;
		f = file_of(fs, i);
		a = (struct output_args){ .path = o->paths[i], .set = &o->set,
			.fd = outfiles_fd(fs, f),
			.file = f >= 0 ? fs->f[f].t.tmp : NULL };
		*what = output_registry[i]->label ? output_registry[i]->label :
			o->paths[i];
		ret = output_decl_create(output_registry[i], &a, &outs[n]);
		n += !ret;
	}
	if (!ret && n == 1) {
		*out = outs[0];
		return 0;
	}
	if (!ret) {
		ret = output_tee_new(out, outs, n);
		if (!ret) {
			*what = NULL;
			return 0;
		}
	}
	for (i = 0; i < n; i++)
		outs[i]->ops->free(outs[i]);
	return ret;
}

int outfiles_commit(struct outfiles *fs, bool replace, const char **what)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < fs->n; i++) {
		if (fs->f[i].folder)
			continue;
		*what = fs->f[i].path;
		ret = tmpfile_commit(&fs->f[i].t, !fs->f[i].keep || replace);
	}
	return ret;
}

void outfiles_discard(struct outfiles *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		tmpfile_discard(&fs->f[i].t);
}
