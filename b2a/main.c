// SPDX-License-Identifier: GPL-2.0
/*
 * lket-b2a - convert an LKET binary trace into text (lket.out).
 *
 * The one place that reports errors: every module returns negative errno
 * values, and what is found wrong in the input comes here through the
 * diag sink.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"
#include "diag.h"
#include "output.h"
#include "stream.h"

#define MAX_MESSAGES_PER_FILE	20

static const char usage[] =
"usage: lket-b2a [OPTION]... [FILE|PREFIX]...\n"
"Merge the per-CPU files of an LKET trace (stap -b) by time and decode\n"
"them into text.  With no FILE, reads stpd_cpu* in the current folder; a\n"
"PREFIX stands for PREFIX_0, PREFIX_1, ... (stap -o PREFIX).\n"
"\n"
"  -o FILE     write to FILE instead of lket.out; - for standard output\n"
"  -t FORMAT   time as abs (trace clock, seconds; the default), rel (since\n"
"              the first event), wall (UTC, from the trace header), raw (ns)\n"
"  -i          add [group:hook] to every event name\n"
"  -N          print group:hook instead of event names\n"
"  -C          leave out the process name column\n"
"  -q          do not report damage on standard error (still counted)\n"
"  -h          this help\n"
"\n"
"Exit status: 0 all converted; 1 converted, but the input was damaged or\n"
"records were lost (see standard error); 2 nothing could be converted.\n";

struct reporter {
	struct diag d;
	bool quiet;
	const char *last_file;
	unsigned int in_file;
	unsigned long hidden;
};

static void report(struct diag *d, enum diag_level level, const char *file,
		   int64_t offset, const char *msg)
{
	struct reporter *r = (struct reporter *)d;

	if (r->quiet)
		return;
	if (file != r->last_file) {
		r->last_file = file;
		r->in_file = 0;
	}
	if (++r->in_file > MAX_MESSAGES_PER_FILE) {
		r->hidden++;
		return;
	}
	fprintf(stderr, "lket-b2a: %s%s", level == DIAG_NOTE ? "note: " : "",
		file ? file : "trace");
	if (offset >= 0)
		fprintf(stderr, ": offset %lld", (long long)offset);
	fprintf(stderr, ": %s\n", msg);
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

/*
 * Every file in dir named prefix followed by a CPU number ("stpd_cpu" +
 * "0"; "trace_" + "0"), in CPU order.
 */
static int expand_prefix(const char *arg, const char *prefix_tail,
			 char ***list, size_t *n, size_t *cap)
{
	char dir[4096], path[8192];
	const char *slash = strrchr(arg, '/'), *base;
	struct dirent **names;
	int i, count, cpu, found = 0, ret = 0;
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
	plen = strlen(base) + strlen(prefix_tail);
	for (i = 0; i < count; i++) {
		const char *name = names[i]->d_name;

		if (!ret && !strncmp(name, base, strlen(base)) &&
		    !strncmp(name + strlen(base), prefix_tail,
			     strlen(prefix_tail)) &&
		    strlen(name) > plen &&
		    strspn(name + plen, "0123456789") == strlen(name + plen)) {
			cpu = stream_cpu_from_name(name);
			if (cpu >= 0) {
				snprintf(path, sizeof(path), "%s%s",
					 slash ? dir : "", name);
				ret = add_path(list, n, cap, path);
				found++;
			}
		}
		free(names[i]);
	}
	free(names);
	return ret ? ret : found;
}

int main(int argc, char **argv)
{
	struct text_options topt = { .time = TIME_ABS };
	struct reporter rep = { .d = { .report = report } };
	const char *out_path = "lket.out";
	struct convert_stats stats;
	struct output *out = NULL;
	char **paths = NULL;
	size_t npaths = 0, cap = 0, i;
	struct stat st;
	int opt, fd, ret;

	while ((opt = getopt(argc, argv, "o:t:iNCqh")) != -1) {
		switch (opt) {
		case 'o':
			out_path = optarg;
			break;
		case 't':
			if (!strcmp(optarg, "abs"))
				topt.time = TIME_ABS;
			else if (!strcmp(optarg, "rel"))
				topt.time = TIME_REL;
			else if (!strcmp(optarg, "wall"))
				topt.time = TIME_WALL;
			else if (!strcmp(optarg, "raw"))
				topt.time = TIME_RAW;
			else {
				fprintf(stderr, "lket-b2a: -t takes abs, rel, wall or raw, not %s\n",
					optarg);
				return 2;
			}
			break;
		case 'i':
			topt.ids = true;
			break;
		case 'N':
			topt.no_names = true;
			break;
		case 'C':
			topt.no_comm = true;
			break;
		case 'q':
			rep.quiet = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}

	ret = 0;
	if (optind == argc) {
		ret = expand_prefix("stpd_cpu", "", &paths, &npaths, &cap);
		if (ret == 0) {
			fprintf(stderr, "lket-b2a: no stpd_cpu* files here; name the trace's files or prefix\n");
			return 2;
		}
	}
	for (; optind < argc && ret >= 0; optind++) {
		const char *arg = argv[optind];

		/* an existing file, else a prefix: ARG_N, then ARGcpuN */
		if (stat(arg, &st) == 0 || errno != ENOENT) {
			ret = add_path(&paths, &npaths, &cap, arg);
			continue;
		}
		ret = expand_prefix(arg, "_", &paths, &npaths, &cap);
		if (ret == 0)
			ret = expand_prefix(arg, "", &paths, &npaths, &cap);
		if (ret == 0) {
			/* let the conversion report it with the others */
			ret = add_path(&paths, &npaths, &cap, arg);
		}
	}
	if (ret < 0) {
		fprintf(stderr, "lket-b2a: %s\n", strerror(-ret));
		return 2;
	}

	if (!strcmp(out_path, "-"))
		fd = STDOUT_FILENO;
	else
		fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  0644);
	if (fd < 0) {
		fprintf(stderr, "lket-b2a: %s: %s\n", out_path, strerror(errno));
		return 2;
	}
	ret = output_text_new(&out, fd, &topt);
	if (!ret)
		ret = convert((const char *const *)paths, npaths, out, &rep.d,
			      &stats);
	if (out)
		out->free(out);
	if (fd != STDOUT_FILENO && close(fd) && !ret)
		ret = -errno;
	for (i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);

	if (rep.hidden)
		fprintf(stderr, "lket-b2a: %lu more messages not shown\n",
			rep.hidden);
	if (ret == -ENOENT) {
		fprintf(stderr, "lket-b2a: no trace file could be read\n");
		return 2;
	}
	if (ret) {
		fprintf(stderr, "lket-b2a: %s: %s\n", out_path, strerror(-ret));
		return 2;
	}
	if (stats.lost)
		fprintf(stderr, "lket-b2a: %llu flushes lost in transport\n",
			(unsigned long long)stats.lost);
	return rep.d.damage ? 1 : 0;
}
