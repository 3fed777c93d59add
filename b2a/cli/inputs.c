// SPDX-License-Identifier: GPL-2.0
/*
 * inputs.c - the files lket-b2a reads (inputs.h): its arguments expanded
 * by the per-CPU file-name rule, and their hosts' labels.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/inputs.h"
#include "cli/options.h"
#include "input/tracename.h"

bool host_label_valid(const char *s, size_t n)
{
	return n && n <= HOST_LABEL_MAX &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") >= n;
}

/* Append path to a growing list. */
static int add_path(char ***list, size_t *n, size_t *cap, const char *path)
{
	char **bigger;

	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		bigger = realloc(*list, *cap * sizeof(**list));
		if (!bigger)
			return -ENOMEM;
		*list = bigger;
	}
	(*list)[*n] = strdup(path);
	if (!(*list)[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* A CPU number, or a rotated file's "CPU.K" (tracename.h)? */
static bool cpu_part(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (!n)
		return false;
	if (s[n] == '.')
		s += n + 1, n = strspn(s, "0123456789");
	return n && !s[n];
}

/*
 * Every file in dir named prefix, then tail, then a CPU number
 * ("stpd_cpu" + "" + "0"; "trace" + "_" + "0"), in CPU order, a rotated
 * trace's files ("trace_0.3") in file order.
 */
static int expand_tail(const char *arg, const char *tail, char ***list,
		       size_t *n, size_t *cap)
{
	char dir[4096], path[8192];
	const char *slash = strrchr(arg, '/'), *base;
	struct dirent **names;
	int i, count, found = 0, ret = 0;
	size_t plen;

	if (slash) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - arg + 1), arg);
		base = slash + 1;
	} else {
		snprintf(dir, sizeof(dir), ".");
		base = arg;
	}
	count = scandir(dir, &names, NULL, versionsort);
	if (count < 0)
		return 0;
	plen = strlen(base) + strlen(tail);
	for (i = 0; i < count; i++) {
		const char *name = names[i]->d_name;

		if (!ret && !strncmp(name, base, strlen(base)) &&
		    !strncmp(name + strlen(base), tail, strlen(tail)) &&
		    strlen(name) > plen && cpu_part(name + plen) &&
		    tracename_cpu(name) >= 0) {
			snprintf(path, sizeof(path), "%s%s", slash ? dir : "",
				 name);
			ret = add_path(list, n, cap, path);
			found++;
		}
		free(names[i]);
	}
	free(names);
	return ret ? ret : found;
}

/*
 * A prefix stands for PREFIX_N, PREFIX_cpuN or PREFIXcpuN (the first of
 * these that exists), or PREFIXN when the prefix ends in one (stpd_cpu).
 * Returns the number of files found, or a negative errno.
 */
static int expand_prefix(const char *arg, char ***list, size_t *n,
			 size_t *cap)
{
	static const char *const tails[] = { "_", "_cpu", "cpu", "" };
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < sizeof(tails) / sizeof(tails[0]); i++)
		ret = expand_tail(arg, tails[i], list, n, cap);
	return ret;
}

/*
 * A folder: the per-CPU files in it, which must be of one trace (one
 * name before their CPU numbers).  Returns how many, 0 when there are
 * none, -EEXIST when two traces are there (other is set to one file of
 * each), or a negative errno.
 */
static int expand_dir(const char *dir, char ***list, size_t *n, size_t *cap,
		      char *other, size_t size)
{
	char path[8192], first[256] = "";
	struct dirent **names;
	struct stat st;
	int i, count, found = 0, ret = 0;
	size_t len, first_len = 0;

	count = scandir(dir, &names, NULL, versionsort);
	if (count < 0)
		return -errno;
	for (i = 0; i < count; i++) {
		const char *name = names[i]->d_name;

		len = tracename_len(name);
		snprintf(path, sizeof(path), "%s%s%s", dir,
			 dir[strlen(dir) - 1] == '/' ? "" : "/", name);
		if (ret || name[0] == '.' || tracename_cpu(name) < 0 ||
		    stat(path, &st) || S_ISDIR(st.st_mode)) {
			free(names[i]);
			continue;
		}
		if (!found) {
			snprintf(first, sizeof(first), "%s", name);
			first_len = len;
		} else if (len != first_len || strncmp(name, first, len)) {
			snprintf(other, size, "%s and %s", first, name);
			ret = -EEXIST;
		}
		if (!ret)
			ret = add_path(list, n, cap, path);
		found++;
		free(names[i]);
	}
	free(names);
	return ret ? ret : found;
}

void inputs_free(struct inputs *in)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		free(in->paths[i]);
	free(in->paths);
	free(in->host_of);
	for (i = 0; i < in->nhosts; i++)
		free(in->labels[i]);
}

/*
 * LABEL=TRACE: the length of LABEL (letters, digits, _ - .), or 0 when
 * arg is not one (no '=', another character, or a file of that name).
 */
static size_t label_len(const char *arg)
{
	size_t n = strspn(arg, "abcdefghijklmnopqrstuvwxyz"
			  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.");
	struct stat st;

	if (!n || arg[n] != '=' || !stat(arg, &st))
		return 0;
	return n;
}

/*
 * Refuse arg, saying why, if it is a device (standard input may be one),
 * or LABEL=TRACE with a label that is not one and no file of that name.
 */
static bool bad_input(const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct stat st;

	if (!stat(arg, &st)) {
		if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
			return false;
		fprintf(stderr, "lket-b2a: %s: a device is refused as input (standard input may be one)\n",
			arg);
		return true;
	}
	/* a '/' before the '=': a prefix, not a label */
	if (errno != ENOENT || !eq || host_label_valid(arg, (size_t)(eq - arg)) ||
	    memchr(arg, '/', (size_t)(eq - arg)))
		return false;
	fprintf(stderr, "lket-b2a: %s: no such file, nor LABEL=TRACE: a host label has at most %d letters, digits, '_', '-' or '.'\n",
		arg, HOST_LABEL_MAX);
	return true;
}

/* The host labelled by the first n bytes of arg, added if new; its index,
 * or a negative errno. */
static int host_index(struct inputs *in, const char *arg, size_t n)
{
	size_t i;

	if (n > HOST_LABEL_MAX) {
		fprintf(stderr, "lket-b2a: %.*s: a host label has at most %d characters\n",
			(int)n, arg, HOST_LABEL_MAX);
		return -EINVAL;
	}
	for (i = 0; i < in->nhosts; i++)
		if (strlen(in->labels[i]) == n && !strncmp(in->labels[i], arg, n))
			return (int)i;
	if (in->nhosts == LKET_MAX_HOSTS) {
		fprintf(stderr, "lket-b2a: at most %d hosts at once\n",
			LKET_MAX_HOSTS);
		return -EINVAL;
	}
	in->labels[i] = strndup(arg, n);
	if (!in->labels[i])
		return -ENOMEM;
	in->nhosts++;
	return (int)i;
}

/* The host of the paths from first on; 0 or -ENOMEM. */
static int set_host(struct inputs *in, size_t first, size_t host)
{
	size_t *bigger = realloc(in->host_of, (in->cap ? in->cap : 1) *
				 sizeof(*bigger));

	if (!bigger)
		return -ENOMEM;
	in->host_of = bigger;
	for (; first < in->n; first++)
		in->host_of[first] = host;
	return 0;
}

/* A folder argument: its per-CPU files; 0, or a negative errno. */
static int add_dir(struct inputs *in, const char *arg)
{
	char two[600];
	int ret = expand_dir(arg, &in->paths, &in->n, &in->cap, two,
			     sizeof(two));

	if (ret > 0 || (ret < 0 && ret != -EEXIST))
		return ret < 0 ? ret : 0;
	fprintf(stderr, ret ?
		"lket-b2a: %s: holds more than one trace (%s); name its prefix\n" :
		"lket-b2a: %s: no per-CPU files (NAME_N, NAMEcpuN) in this folder\n",
		arg, two);
	return -EINVAL;
}


int inputs_collect(int argc, char **argv, int first, struct inputs *in)
{
	struct stat st;
	int i, ret = 0, host = -1;
	size_t before, labelled = 0;

	if (first == argc) {
		ret = expand_tail("stpd_cpu", "", &in->paths, &in->n, &in->cap);
		if (ret == 0) {
			fprintf(stderr, "lket-b2a: no stpd_cpu* files here; name the trace's files or prefix\n");
			return 2;
		}
	}
	for (i = first; i < argc && ret >= 0; i++) {
		const char *arg = argv[i];
		size_t n = label_len(arg);
		if (!n && bad_input(arg))
			return 2;
		if (n) {
			host = host_index(in, arg, n);
			if (host < 0) {
				ret = host;
				break;
			}
			labelled++;
			arg += n + 1;
		}
		before = in->n;
		if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
			ret = add_dir(in, arg);
		/* - (standard input), an existing file, else a prefix */
		else if (!strcmp(arg, "-") || stat(arg, &st) == 0 ||
			 errno != ENOENT)
			ret = add_path(&in->paths, &in->n, &in->cap, arg);
		/* none: the conversion reports it with the others */
		else if ((ret = expand_prefix(arg, &in->paths, &in->n,
					      &in->cap)) == 0)
			ret = add_path(&in->paths, &in->n, &in->cap, arg);
		if (ret >= 0 && n)
			ret = set_host(in, before, (size_t)host);
	}
	if (ret >= 0 && labelled && labelled != (size_t)(argc - first)) {
		fprintf(stderr, "lket-b2a: with LABEL=TRACE arguments, every trace needs its host's label\n");
		return 2;
	}
	if (ret == -EINVAL)
		return 2;
	if (ret < 0) {
		fprintf(stderr, "lket-b2a: %s\n", strerror(-ret));
		return 2;
	}
	return -1;
}

/* Does a path given name no file yet? */
static bool inputs_missing(const struct inputs *in)
{
	struct stat st;
	size_t i;

	for (i = 0; i < in->n; i++)
		if (strcmp(in->paths[i], "-") && stat(in->paths[i], &st) &&
		    errno == ENOENT)
			return true;
	return false;
}

static int recollect(int argc, char **argv, int first, struct inputs *in)
{
	static const struct timespec pause = { 0, 100000000 };

	nanosleep(&pause, NULL);
	inputs_free(in);
	memset(in, 0, sizeof(*in));
	return inputs_collect(argc, argv, first, in);
}

int inputs_await(int argc, char **argv, int first, struct inputs *in,
		 bool quiet)
{
	bool waited = false;
	int status = -1;

	while (status < 0 && inputs_missing(in)) {
		if (!waited && !quiet)
			fprintf(stderr, "lket-b2a: note: %s: no file yet: waiting for the tracer to make it\n",
				in->paths[0]);
		waited = true;
		status = recollect(argc, argv, first, in);
	}
	/* the tracer makes every CPU's file at once */
	if (status < 0 && waited)
		status = recollect(argc, argv, first, in);
	return status;
}

/* The first option asked for that takes one trace only; NULL: none. */
static const char *one_host_option(const struct options *o, char *buf,
				   size_t size)
{
	size_t i;

	for (i = 0; i < output_registry_size; i++)
		if (o->paths[i] && output_registry[i]->one_host)
			return output_decl_name(output_registry[i], buf, size);
	return o->set.summary ? "--stat" :
	       o->follow ? "--follow" :
	       o->report_path ? "--report" :
	       o->filter.from.kind != BOUND_NONE ? "--from" :
	       o->filter.to.kind != BOUND_NONE ? "--to" : NULL;
}

int inputs_check_hosts(struct options *o, const struct inputs *in)
{
	const char *opt;
	char name[64];
	struct stat st;
	size_t i;

	if (!in->nhosts) {
		if (!o->rpc_path)
			return -1;
		fprintf(stderr, "lket-b2a: --rpc-report needs the traces of a client and a server, each as LABEL=TRACE\n");
		return 2;
	}
	if (o->set.host) {
		fprintf(stderr, "lket-b2a: --host names the host of a single trace; LABEL=TRACE names each of several\n");
		return 2;
	}
	opt = one_host_option(o, name, sizeof(name));
	if (opt) {
		fprintf(stderr, "lket-b2a: %s takes one trace for now, not several hosts' (LABEL=TRACE)\n",
			opt);
		return 2;
	}
	/* read twice: once for the RPCs, once for the events */
	for (i = 0; i < in->n; i++)
		if (!strcmp(in->paths[i], "-") ||
		    (!stat(in->paths[i], &st) && !S_ISREG(st.st_mode))) {
			fprintf(stderr, "lket-b2a: %s: several hosts' traces are read twice: regular files only, no pipe\n",
				in->paths[i]);
			return 2;
		}
	o->set.text.hosts = true;
	return -1;
}
