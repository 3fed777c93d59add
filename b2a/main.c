// SPDX-License-Identifier: GPL-2.0
/*
 * lket-b2a - convert an LKET binary trace into text (lket.out), JSON Lines,
 * CSV, SQLite or PostgreSQL, with filters and latency reports.
 *
 * The one place that reports errors: every module returns negative errno
 * values, and what is found wrong in the input comes here through the
 * diag sink.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/filter.h"
#include "analysis/report.h"
#include "analysis/rpcreport.h"
#include "analysis/symbols.h"
#include "cli/clash.h"
#include "input/stream.h"
#include "output/output.h"
#include "pipeline/convert.h"
#include "pipeline/multihost.h"
#include "util/diag.h"
#include "util/progress.h"
#include "util/tmpfile.h"
#include "util/version.h"

#define MAX_MESSAGES_PER_FILE	20
#define LKET_MAX_HOSTS		64
/* --timechart-procs: the default, and the most (the SVG's size bound
 * holds for any number; beyond this the lanes get too coarse) */
#define TIMECHART_PROCS		16
#define TIMECHART_PROCS_MAX	100

static const char usage[] =
"usage: lket-b2a [OPTION]... [FILE|PREFIX|FOLDER]...\n"
"   or: lket-b2a [OPTION]... LABEL=TRACE LABEL=TRACE...\n"
"Merge the per-CPU files of an LKET trace (stap -b) by time and decode\n"
"them into text, JSON Lines, CSV, SQLite or PostgreSQL.  With no FILE,\n"
"reads stpd_cpu* in the current folder; a PREFIX stands for PREFIX_0,\n"
"PREFIX_1, ... (stap -o PREFIX), or PREFIX_cpuN, or PREFIXcpuN; a FOLDER\n"
"for the per-CPU files in it; - is standard input (a pipe, say).\n"
"LABEL=TRACE names the host of a trace (a FILE, PREFIX or FOLDER): the\n"
"traces of several hosts are merged into one timeline, their clocks\n"
"aligned by their SUNRPC calls, each event with its host's label.\n"
"\n"
"Output:\n"
"  -o, --output FILE  write to FILE instead of lket.out (lket.json, lket.csv\n"
"                 with -f json, -f csv); - for standard output\n"
"  -f, --format FORMAT  text (the default), json (JSON Lines), csv, or none\n"
"  -d, --db FILE  write an SQLite database (no lket.out unless -o or -f)\n"
"      --pg CONNINFO  load into PostgreSQL (libpq connection string)\n"
"      --schema NAME  PostgreSQL schema (default: named after the trace);\n"
"                 the traces of any number of hosts share one\n"
"      --host LABEL  the host of a single trace in the databases (default:\n"
"                 the hostname its header gives)\n"
"      --ctf DIR  write a CTF 1.8 trace (babeltrace2, Trace Compass) in DIR\n"
"                 (no lket.out unless -o or -f; so too --timechart and\n"
"                 --histogram)\n"
"      --timechart FILE  draw the trace over time as an SVG picture: CPUs,\n"
"                 the busiest processes, block devices, RPC (lket-b2a(1))\n"
"      --timechart-procs N  processes with a lane of their own (default 16,\n"
"                 at most 100); the others share one\n"
"      --histogram FILE  latency histograms of --report's pairs as an SVG\n"
"                 picture, log-scaled, p50/p90/p99/max marked\n"
"      --replace  overwrite an existing database file or CTF trace; reload\n"
"                 a host the PostgreSQL schema has\n"
"      --report FILE  latency report of entry/return pairs and requests\n"
"      --rpc-report FILE  (several hosts) each RPC's time as the client saw\n"
"                 it, split into the server's and the wire and queues'\n"
"      --stat     write a summary to the -o file instead of the event lines:\n"
"                 events by type, CPU and process, the time span, losses\n"
"  -t, --time FORMAT  time as abs (trace clock, seconds; the default),\n"
"                 rel (since the first event), wall (UTC, from the trace\n"
"                 header), raw (ns)\n"
"      --delta    add the time since the previous event after the time\n"
"                 (text): +0.000001000\n"
"  -i             add [group:hook] to every event name\n"
"  -N             print group:hook instead of event names\n"
"  -C             leave out the process name column (text)\n"
"Call stacks (ADDRS fields, lket_stack()):\n"
"      --debuginfo DIR  the kernel's and modules' debuginfo under DIR\n"
"                 (default " SYMBOLS_DEFAULT_DIR ": Debian's\n"
"                 linux-image-RELEASE-dbg); a module not there is\n"
"                 looked for as NAME.ko in the current folder\n"
"      --stack-lines  add (file:line) to every frame\n"
"      --no-symbols   show the frames as addresses\n"
"Filters (all must match; a list or a repeated option means any of):\n"
"      --pid LIST    process IDs, 1,2,3\n"
"      --tid LIST    thread IDs\n"
"      --comm GLOB   process name, shell glob (repeatable)\n"
"      --cpu LIST    CPUs, 0,2-3\n"
"      --event LIST  event names, globs or prefixes: syscall,iosyscall.open*\n"
"      --from TIME   SECONDS since the first event, or YYYY-MM-DDTHH:MM:SS[.N]\n"
"      --to TIME     UTC (needs the trace header); both ends included\n"
"      --where EXPR  a field's value, NAME OP VALUE; OP: == != < <= > >=;\n"
"                    VALUE an integer, or a string or glob (== != only):\n"
"                    'fd==3', 'syscall_name==read' (repeatable, all must\n"
"                    match; events without the field do not)\n"
"  -q, --quiet    do not report damage or lost flushes on standard error\n"
"                 (still counted), nor progress on a terminal\n"
"  -h, --help     this help\n"
"      --version  print the version\n"
"\n"
"Files are written beside their name and put in place only when the\n"
"conversion succeeds; an output that is an input, a folder that holds\n"
"one, or an output named twice is refused before anything is written.\n"
"\n"
"On a terminal, standard error shows the progress of long conversions.\n"
"\n"
"Exit status: 0 all converted; 1 converted, but the input was damaged or\n"
"records were lost (see standard error); 2 nothing could be converted,\n"
"no file changed.\n";

struct reporter {
	struct diag d;
	struct progress progress;
	bool quiet;
	const char *last_file;
	unsigned int in_file;
	unsigned long hidden;
};

/* The progress line, if one is shown, is erased: messages go above. */
static void progress_erase(struct reporter *r)
{
	if (r->progress.shown)
		fputs("\r\033[K", stderr);
	r->progress.shown = false;
}

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
	progress_erase(r);
	fprintf(stderr, "lket-b2a: %s%s", level == DIAG_NOTE ? "note: " : "",
		file ? file : "trace");
	if (offset >= 0)
		fprintf(stderr, ": offset %lld", (long long)offset);
	fprintf(stderr, ": %s\n", msg);
}


static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct reporter *r = ctx;
	struct timespec now;
	char line[128];

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!progress_due(&r->progress, (uint64_t)now.tv_sec * 1000000000u +
			  (uint64_t)now.tv_nsec))
		return;
	progress_format(line, sizeof(line), done, total);
	fprintf(stderr, "\r%s\033[K", line);
	r->progress.shown = true;
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
 * The length of a per-CPU file name without its CPU part: "trace" of
 * trace_0, tracecpu0 and trace_cpu0; 0 if the name has none.
 */
static size_t trace_name_len(const char *name)
{
	size_t n = strlen(name);

	if (stream_cpu_from_name(name) < 0)
		return 0;
	while (n && name[n - 1] >= '0' && name[n - 1] <= '9')
		n--;
	if (n >= 3 && !strncmp(name + n - 3, "cpu", 3))
		n -= 3;
	if (n && name[n - 1] == '_')
		n--;
	return n;
}

/*
 * Every file in dir named prefix, then tail, then a CPU number
 * ("stpd_cpu" + "" + "0"; "trace" + "_" + "0"), in CPU order.
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
		    strlen(name) > plen &&
		    strspn(name + plen, "0123456789") == strlen(name + plen) &&
		    stream_cpu_from_name(name) >= 0) {
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

		len = trace_name_len(name);
		snprintf(path, sizeof(path), "%s%s%s", dir,
			 dir[strlen(dir) - 1] == '/' ? "" : "/", name);
		if (ret || name[0] == '.' || stream_cpu_from_name(name) < 0 ||
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

/* Long options without a letter; a filter's is OPT_FILTER + its kind. */
enum {
	OPT_PG = 256, OPT_SCHEMA, OPT_REPLACE, OPT_REPORT, OPT_VERSION,
	OPT_STAT, OPT_DELTA, OPT_WHERE, OPT_CTF, OPT_RPC_REPORT,
	OPT_TIMECHART, OPT_TIMECHART_PROCS, OPT_HISTOGRAM, OPT_DEBUGINFO,
	OPT_NO_SYMBOLS, OPT_STACK_LINES, OPT_HOST, OPT_FILTER = 512,
};

static const struct option long_options[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "time", required_argument, NULL, 't' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "pg", required_argument, NULL, OPT_PG },
	{ "schema", required_argument, NULL, OPT_SCHEMA },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "replace", no_argument, NULL, OPT_REPLACE },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "pid", required_argument, NULL, OPT_FILTER + FILTER_PID },
	{ "tid", required_argument, NULL, OPT_FILTER + FILTER_TID },
	{ "comm", required_argument, NULL, OPT_FILTER + FILTER_COMM },
	{ "cpu", required_argument, NULL, OPT_FILTER + FILTER_CPU },
	{ "event", required_argument, NULL, OPT_FILTER + FILTER_EVENT },
	{ "from", required_argument, NULL, OPT_FILTER + FILTER_FROM },
	{ "to", required_argument, NULL, OPT_FILTER + FILTER_TO },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "stat", no_argument, NULL, OPT_STAT },
	{ "delta", no_argument, NULL, OPT_DELTA },
	{ "where", required_argument, NULL, OPT_WHERE },
	{ "ctf", required_argument, NULL, OPT_CTF },
	{ "rpc-report", required_argument, NULL, OPT_RPC_REPORT },
	{ "timechart", required_argument, NULL, OPT_TIMECHART },
	{ "timechart-procs", required_argument, NULL, OPT_TIMECHART_PROCS },
	{ "histogram", required_argument, NULL, OPT_HISTOGRAM },
	{ "debuginfo", required_argument, NULL, OPT_DEBUGINFO },
	{ "no-symbols", no_argument, NULL, OPT_NO_SYMBOLS },
	{ "stack-lines", no_argument, NULL, OPT_STACK_LINES },
	{ NULL, 0, NULL, 0 },
};

/* The filter option of a getopt value, or NULL. */
static const struct option *filter_option(int opt)
{
	const struct option *lo;

	for (lo = long_options; lo->name; lo++)
		if (lo->val == opt && opt >= OPT_FILTER)
			return lo;
	return NULL;
}

/*
 * The PostgreSQL schema named after the trace: the base name of the first
 * argument (a prefix, or a file without its _N / cpuN), lower case, with
 * what is not a letter, digit or underscore made an underscore.
 */
/* A host label: letters, digits, '_', '-', '.', HOST_LABEL_MAX at most */
static bool label_valid(const char *s, size_t n)
{
	return n && n <= HOST_LABEL_MAX &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") >= n;
}

static void schema_from(const char *arg, char *out, size_t size)
{
	const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
	size_t n = strlen(base), i;

	while (n && base[n - 1] >= '0' && base[n - 1] <= '9')
		n--;
	if (n && base[n - 1] == '_')
		n--;
	else if (n >= 3 && !strncmp(base + n - 3, "cpu", 3) &&
		 n < strlen(base))
		n -= 3;
	if (n && base[n - 1] == '_')
		n--;
	if (!n) {
		base = "lket";
		n = 4;
	}
	for (i = 0; i < n && i + 1 < size; i++) {
		char c = base[i];

		out[i] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			 c == '_' ? c : c >= 'A' && c <= 'Z' ? (char)(c + 32) :
			 '_';
	}
	out[i] = '\0';
	if (out[0] >= '0' && out[0] <= '9')
		out[0] = '_';
}

/* One of the files written: -o, --report, -d. */
struct file_out {
	const char *option;
	const char *path;	/* NULL: not written; "-": standard output */
	struct tmpfile t;
};

/* What the command line asks for. */
struct options {
	struct text_options text;
	struct sqlite_options sqlite;
	struct pg_options pg;
	struct filter filter;
	struct symbols_options symbols;
	bool no_symbols;
	const char *out_path, *format, *report_path, *ctf_dir, *rpc_path;
	const char *timechart_path, *histogram_path;
	unsigned int timechart_procs;
	bool summary;
	char schema[64];	/* --pg without --schema: the trace's name */
};

/* One option that names a filter; returns 0, or the exit status. */
static int filter_arg(struct options *o, const struct option *lo,
		      const char *arg)
{
	enum filter_kind kind = (enum filter_kind)(lo->val - OPT_FILTER);
	int ret = filter_add(&o->filter, kind, arg);

	if (!ret)
		return 0;
	fprintf(stderr, "lket-b2a: --%s %s: %s\n", lo->name, arg,
		ret != -EINVAL ? strerror(-ret) :
		kind == FILTER_FROM || kind == FILTER_TO ?
		"not SECONDS[.FRACTION] nor YYYY-MM-DDTHH:MM:SS[.FRACTION][Z]" :
		"not a valid list");
	return 2;
}

static int time_arg(struct text_options *t, const char *arg)
{
	static const char *const names[] = {
		[TIME_ABS] = "abs", [TIME_REL] = "rel", [TIME_WALL] = "wall",
		[TIME_RAW] = "raw",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i])) {
			t->time = (enum time_format)i;
			return 0;
		}
	fprintf(stderr, "lket-b2a: -t takes abs, rel, wall or raw, not %s\n",
		arg);
	return 2;
}

/* --timechart-procs N: how many tasks get lanes of their own. */
static int procs_arg(struct options *o, const char *arg)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (*arg < '0' || *arg > '9' || *end || n < 1 ||
	    n > TIMECHART_PROCS_MAX) {
		fprintf(stderr, "lket-b2a: --timechart-procs takes a number from 1 to %d, not %s\n",
			TIMECHART_PROCS_MAX, arg);
		return 2;
	}
	o->timechart_procs = (unsigned int)n;
	return -1;
}

/* One option of getopt's; returns -1 to go on, or the exit status. */
static int option(struct options *o, struct reporter *rep, int opt)
{
	const struct option *filter = filter_option(opt);
	int ret;

	if (filter)
		return filter_arg(o, filter, optarg) ? 2 : -1;
	switch (opt) {
	case 'o':
		o->out_path = optarg;
		break;
	case 'f':
		if (strcmp(optarg, "text") && strcmp(optarg, "json") &&
		    strcmp(optarg, "csv") && strcmp(optarg, "none")) {
			fprintf(stderr, "lket-b2a: -f takes text, json, csv or none, not %s\n",
				optarg);
			return 2;
		}
		o->format = optarg;
		break;
	case 'd':
		o->sqlite.path = optarg;
		break;
	case OPT_PG:
		o->pg.conninfo = optarg;
		break;
	case OPT_SCHEMA:
		o->pg.schema = optarg;
		break;
	case OPT_HOST:
		if (!label_valid(optarg, strlen(optarg))) {
			fprintf(stderr, "lket-b2a: --host %s: a host label has at most %d letters, digits, '_', '-' or '.'\n",
				optarg, HOST_LABEL_MAX);
			return 2;
		}
		o->sqlite.host = o->pg.host = optarg;
		break;
	case OPT_REPLACE:
		o->sqlite.replace = o->pg.replace = true;
		break;
	case OPT_CTF:
		o->ctf_dir = optarg;
		break;
	case OPT_REPORT:
		o->report_path = optarg;
		break;
	case OPT_RPC_REPORT:
		o->rpc_path = optarg;
		break;
	case OPT_TIMECHART:
		o->timechart_path = optarg;
		break;
	case OPT_HISTOGRAM:
		o->histogram_path = optarg;
		break;
	case OPT_TIMECHART_PROCS:
		return procs_arg(o, optarg);
	case OPT_DEBUGINFO:
		o->symbols.dir = optarg;
		break;
	case OPT_NO_SYMBOLS:
		o->no_symbols = true;
		break;
	case OPT_STACK_LINES:
		o->symbols.lines = true;
		break;
	case OPT_WHERE:
		ret = filter_add_where(&o->filter, optarg);
		if (ret) {
			fprintf(stderr, "lket-b2a: --where %s: %s\n", optarg,
				ret == -EINVAL ?
				"not NAME OP VALUE (OP one of == != < <= > >=; a string value takes == or != only)" :
				strerror(-ret));
			return 2;
		}
		break;
	case 't':
		return time_arg(&o->text, optarg) ? 2 : -1;
	case 'i':
		o->text.ids = true;
		break;
	case 'N':
		o->text.no_names = true;
		break;
	case 'C':
		o->text.no_comm = true;
		break;
	case 'q':
		rep->quiet = true;
		break;
	case 'h':
		fputs(usage, stdout);
		return 0;
	case OPT_DELTA:
		o->text.delta = true;
		break;
	case OPT_STAT:
		o->summary = true;
		break;
	case OPT_VERSION:
		printf("lket-b2a %s\n", LKET_VERSION);
		return 0;
	default:
		/* getopt has said what is wrong, on one line */
		fputs("Try 'lket-b2a --help' for more information.\n", stderr);
		return 2;
	}
	return -1;
}

/* The options, and what follows from them; -1 to go on, or the exit
 * status. */
static int parse_options(int argc, char **argv, struct options *o,
			 struct reporter *rep)
{
	const char *arg;
	struct stat st;
	int opt, status;

	while ((opt = getopt_long(argc, argv, "o:t:f:d:iNCqh", long_options,
				  NULL)) != -1) {
		status = option(o, rep, opt);
		if (status >= 0)
			return status;
	}
	o->sqlite.diag = o->pg.diag = &rep->d;
	if (o->timechart_path && !strcmp(o->timechart_path, "-") &&
	    o->histogram_path && !strcmp(o->histogram_path, "-")) {
		fprintf(stderr, "lket-b2a: --timechart - and --histogram -: two pictures cannot share standard output\n");
		return 2;
	}
	if (o->summary && o->format && strcmp(o->format, "text")) {
		fprintf(stderr, "lket-b2a: --stat writes text, not -f %s\n",
			o->format);
		return 2;
	}
	if (o->summary)
		o->format = "text";
	/* a database alone writes no lket.out, unless asked for */
	if (!o->format)
		o->format = (o->sqlite.path || o->pg.conninfo ||
			     o->ctf_dir || o->timechart_path ||
			     o->histogram_path) &&
			    !o->out_path ? "none" : "text";
	/* the default file is named after its format */
	if (!o->out_path)
		o->out_path = !strcmp(o->format, "json") ? "lket.json" :
			      !strcmp(o->format, "csv") ? "lket.csv" :
			      "lket.out";
	/* SQLite needs a file it can replace */
	if (o->sqlite.path && !strcmp(o->sqlite.path, "-")) {
		fprintf(stderr, "lket-b2a: -d -: a database cannot go to standard output; name a file\n");
		return 2;
	}
	if (o->sqlite.path && stat(o->sqlite.path, &st) == 0 &&
	    !S_ISREG(st.st_mode)) {
		fprintf(stderr, "lket-b2a: -d %s: a database must be a regular file\n",
			o->sqlite.path);
		return 2;
	}
	if (o->pg.conninfo && !o->pg.schema) {
		/* LABEL=TRACE: the trace's */
		arg = optind < argc ? argv[optind] : "stpd_cpu0";
		if (strchr(arg, '=') && label_valid(arg, (size_t)(strchr(arg, '=') - arg)))
			arg = strchr(arg, '=') + 1;
		schema_from(arg, o->schema, sizeof(o->schema));
		o->pg.schema = o->schema;
	}
	return -1;
}

/* The files to read; with LABEL=TRACE arguments, whose host each is. */
struct inputs {
	char **paths;
	size_t n, cap;
	size_t *host_of;	/* per path: its host's index */
	char *labels[LKET_MAX_HOSTS];
	size_t nhosts;
};

static void inputs_free(struct inputs *in)
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
	if (errno != ENOENT || !eq || label_valid(arg, (size_t)(eq - arg)) ||
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

/*
 * What several hosts' traces cannot go into yet, refused; what their
 * outputs need to know.  -1 to go on, or the exit status.
 */
static int check_hosts(struct options *o, const struct inputs *in)
{
	const char *opt;
	struct stat st;
	size_t i;

	if (!in->nhosts) {
		if (!o->rpc_path)
			return -1;
		fprintf(stderr, "lket-b2a: --rpc-report needs the traces of a client and a server, each as LABEL=TRACE\n");
		return 2;
	}
	if (o->pg.host) {
		fprintf(stderr, "lket-b2a: --host names the host of a single trace; LABEL=TRACE names each of several\n");
		return 2;
	}
	opt = o->ctf_dir ? "--ctf" : o->summary ? "--stat" :
	      o->report_path ? "--report" :
	      o->timechart_path ? "--timechart" :
	      o->histogram_path ? "--histogram" :
	      o->filter.from.kind != BOUND_NONE ? "--from" :
	      o->filter.to.kind != BOUND_NONE ? "--to" : NULL;
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
	o->text.hosts = true;
	return -1;
}

/* The arguments from argv[first] on as files; -1 to go on, or the exit
 * status. */
static int collect_inputs(int argc, char **argv, int first,
			  struct inputs *in)
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

enum { OUT_DB, OUT_REPORT, OUT_RPC, OUT_TEXT, OUT_TIMECHART, OUT_HISTOGRAM,
       NFILES };

/* What a conversion did, for the exit status. */
struct result {
	int ret;
	const char *what;	/* what failed; NULL: the outputs together */
	char failure[512];	/* the output's own words; "" none */
	bool refused;		/* an output clashed: nothing was written */
	bool no_files;		/* no input could be read */
	struct convert_stats stats;
	struct host_clock clocks[LKET_MAX_HOSTS];
	size_t nclocks;		/* hosts whose clocks were aligned */
	const char *no_host;	/* a host none of whose files was read */
};

/*
 * Refuse, before anything is written, an output that is one of the
 * inputs or holds one (a folder), or the same file as another output.
 */
static int check_clashes(const struct file_out *files,
			 const char *ctf_dir, char *const *paths,
			 size_t npaths)
{
	struct clash_out outs[NFILES + 1];
	struct clash c;
	const char *in;
	size_t i;

	for (i = 0; i < NFILES; i++)
		outs[i] = (struct clash_out){ files[i].option, files[i].path };
	outs[i++] = (struct clash_out){ "--ctf", ctf_dir };
	clash_find(outs, i, paths, npaths, &c);
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

/*
 * Every file is written beside its target and put in place only when the
 * conversion succeeded: what was there survives a failure.
 */
static int open_files(const struct options *o, struct file_out *files,
		      const struct inputs *in, struct result *res)
{
	size_t i;
	int ret;

	files[OUT_DB].path = o->sqlite.path;
	files[OUT_REPORT].path = o->report_path;
	files[OUT_RPC].path = o->rpc_path;
	files[OUT_TEXT].path = strcmp(o->format, "none") ? o->out_path : NULL;
	files[OUT_TIMECHART].path = o->timechart_path;
	files[OUT_HISTOGRAM].path = o->histogram_path;
	ret = check_clashes(files, o->ctf_dir, in->paths, in->n);
	res->refused = ret != 0;
	if (!ret)
		ret = tmpfile_catch_signals();
	for (i = 0; !ret && i < NFILES; i++) {
		if (!files[i].path || !strcmp(files[i].path, "-"))
			continue;
		res->what = files[i].path;
		ret = tmpfile_open(&files[i].t, files[i].path);
	}
	if (!ret && o->sqlite.path) {
		/* SQLite opens it by name; closing a second descriptor of
		 * the file would drop SQLite's locks */
		close(files[OUT_DB].t.fd);
		files[OUT_DB].t.fd = -1;
	}
	return ret;
}

static int file_fd(const struct file_out *f)
{
	return f->t.target ? f->t.fd : STDOUT_FILENO;
}

/* The line output the options ask for, at fd. */
static int line_output(const struct options *o, struct output **out, int fd)
{
	if (!strcmp(o->format, "json"))
		return output_json_new(out, fd, &o->text);
	if (!strcmp(o->format, "csv"))
		return output_csv_new(out, fd, &o->text);
	if (o->summary)
		return output_stat_new(out, fd, &o->text);
	return output_text_new(out, fd, &o->text);
}

/* Every output asked for, as one (a tee of several). */
static int make_outputs(struct options *o, const struct file_out *files,
			struct output **out, struct result *res)
{
	struct output *outs[6];
	size_t n = 0, i;
	int ret = 0;

	if (files[OUT_TEXT].path) {
		res->what = o->out_path;
		ret = line_output(o, &outs[n], file_fd(&files[OUT_TEXT]));
		n += !ret;
	}
	if (!ret && o->sqlite.path) {
		res->what = o->sqlite.path;
		o->sqlite.file = files[OUT_DB].t.tmp;
		ret = output_sqlite_new(&outs[n], &o->sqlite);
		n += !ret;
	}
	if (!ret && o->ctf_dir) {
		res->what = o->ctf_dir;
		/* the reporter's, as the databases' */
		ret = output_ctf_new(&outs[n], o->ctf_dir,
				     o->sqlite.replace, o->sqlite.diag);
		n += !ret;
	}
	if (!ret && o->timechart_path) {
		res->what = o->timechart_path;
		ret = output_timechart_new(&outs[n],
					   file_fd(&files[OUT_TIMECHART]),
					   o->timechart_procs, 0);
		n += !ret;
	}
	if (!ret && o->histogram_path) {
		res->what = o->histogram_path;
		ret = output_histogram_new(&outs[n],
					   file_fd(&files[OUT_HISTOGRAM]));
		n += !ret;
	}
	if (!ret && o->pg.conninfo) {
		res->what = "PostgreSQL";
		ret = output_pg_new(&outs[n], &o->pg);
		n += !ret;
	}
	if (!ret && n == 1) {
		*out = outs[0];
		return 0;
	}
	if (!ret) {
		ret = output_tee_new(out, outs, n);
		if (!ret) {
			res->what = NULL;
			return 0;
		}
	}
	for (i = 0; i < n; i++)
		outs[i]->ops->free(outs[i]);
	return ret;
}

/* Several hosts: their traces as one timeline, and the RPC report. */
static int run_hosts(struct options *o, const struct inputs *in,
		     struct reporter *rep, struct result *res,
		     struct output *out, const struct file_out *files)
{
	struct host_trace hosts[LKET_MAX_HOSTS];
	const char **paths = calloc(in->n ? in->n : 1, sizeof(*paths));
	struct multihost_options mopt = { .filter = &o->filter };
	size_t h, i, k = 0;
	int ret = paths ? 0 : -ENOMEM;

	for (h = 0; !ret && h < in->nhosts; h++) {
		hosts[h].label = in->labels[h];
		hosts[h].paths = paths + k;
		for (i = 0; i < in->n; i++)
			if (in->host_of[i] == h)
				paths[k++] = in->paths[i];
		hosts[h].npaths = (size_t)(paths + k - hosts[h].paths);
	}
	if (!ret && o->rpc_path)
		ret = rpcreport_new(&mopt.rpc);
	if (!ret)
		ret = convert_hosts(hosts, in->nhosts, out, &rep->d,
				    &res->stats, &mopt, res->clocks);
	for (h = 0; ret == -ENOENT && h < in->nhosts; h++)
		if (res->clocks[h].no_files)
			res->no_host = in->labels[h];
	res->nclocks = ret ? 0 : in->nhosts;
	if (!ret && mopt.rpc) {
		res->what = o->rpc_path;
		ret = rpcreport_write(mopt.rpc, file_fd(&files[OUT_RPC]));
	}
	rpcreport_free(mopt.rpc);
	free(paths);
	return ret;
}

/* Convert into the outputs, write the report, put the files in place. */
static void run(struct options *o, const struct inputs *in,
		struct reporter *rep, struct result *res)
{
	struct file_out files[NFILES] = {
		[OUT_DB] = { .option = "-d" },
		[OUT_REPORT] = { .option = "--report" },
		[OUT_RPC] = { .option = "--rpc-report" },
		[OUT_TEXT] = { .option = "-o" },
		[OUT_TIMECHART] = { .option = "--timechart" },
		[OUT_HISTOGRAM] = { .option = "--histogram" },
	};
	struct convert_options copt = { .filter = &o->filter };
	struct output *out = NULL;
	const char *failure;
	size_t i;
	int ret;

	ret = open_files(o, files, in, res);
	if (!ret)
		ret = make_outputs(o, files, &out, res);
	/* the histograms draw the report's latencies */
	if (!ret && (o->report_path || o->histogram_path))
		ret = report_new(&copt.report);
	/* call stacks of several hosts (their kernels differ): addresses */
	if (!ret && !o->no_symbols && !in->nhosts) {
		o->symbols.diag = &rep->d;
		ret = symbols_new(&copt.symbols, &o->symbols);
	}
	if (!ret && in->nhosts) {
		ret = run_hosts(o, in, rep, res, out, files);
		failure = ret && out->ops->error ? out->ops->error(out) : NULL;
		snprintf(res->failure, sizeof(res->failure), "%s",
			 failure ? failure : "");
	} else if (!ret) {
		/* a terminal only: a log file gets no progress lines */
		if (!rep->quiet && isatty(STDERR_FILENO)) {
			copt.progress = show_progress;
			copt.progress_ctx = rep;
		}
		ret = convert_ex((const char *const *)in->paths, in->n, out,
				 &rep->d, &res->stats, &copt);
		failure = ret && out->ops->error ? out->ops->error(out) : NULL;
		/* an output's -ENOENT is its own (a missing --ctf folder) */
		res->no_files = ret == -ENOENT && !res->stats.files &&
				!failure;
		snprintf(res->failure, sizeof(res->failure), "%s",
			 failure ? failure : "");
	}
	if (!ret && o->report_path) {
		res->what = o->report_path;
		ret = report_write(copt.report, file_fd(&files[OUT_REPORT]));
	}
	progress_erase(rep);
	if (out)
		out->ops->free(out);
	report_free(copt.report);
	symbols_free(copt.symbols);
	/* the database first: it alone may refuse (it appeared meanwhile) */
	for (i = 0; !ret && i < NFILES; i++) {
		res->what = files[i].path;
		ret = tmpfile_commit(&files[i].t,
				     i != OUT_DB || o->sqlite.replace);
	}
	for (i = 0; i < NFILES; i++)
		tmpfile_discard(&files[i].t);
	res->ret = ret;
}

/* How each host's clock was put on the first's: one line per host. */
static void print_clocks(const struct inputs *in, const struct result *res)
{
	const struct host_clock *k;
	size_t h;

	for (h = 0; h < res->nclocks; h++) {
		k = &res->clocks[h];
		fprintf(stderr, "lket-b2a: host %s: ", in->labels[h]);
		if (k->status == 1)
			fprintf(stderr, "the reference clock\n");
		else if (k->status)
			fprintf(stderr, "offset %+lld ns (%s; %s)\n",
				(long long)k->wall_diff,
				k->wall ? "wall clock" : "none known",
				k->status == -EDOM ?
				"the RPC pairs contradict each other" :
				"no RPC pairs");
		else
			fprintf(stderr, "offset %+.0f ns +- %.0f ns at %lld.%09lld, drift %+.2f ppm (%+.2f to %+.2f), from %zu RPCs (wall clock %+lld ns)\n",
				(double)k->wall_diff + k->fit.offset,
				k->fit.uncertainty,
				(long long)(k->clock.pivot / 1000000000),
				(long long)(k->clock.pivot % 1000000000),
				k->fit.drift * 1e6, k->fit.drift_min * 1e6,
				k->fit.drift_max * 1e6, k->fit.nlower,
				(long long)k->wall_diff);
	}
}

static int exit_status(const struct options *o, const struct reporter *rep,
		       const struct result *res)
{
	/* what was lost, summed up after the messages that said where */
	const struct {
		uint64_t n;
		const char *what;
	} losses[] = {
		{ res->stats.lost, "flushes lost in transport" },
		{ res->stats.dropped, "records dropped by the tracer" },
		{ res->stats.missing,
		  "records written by the tracer missing from the files" },
		{ res->stats.skipped, "probe hits skipped by SystemTap" },
	};
	size_t i;

	if (rep->hidden)
		fprintf(stderr, "lket-b2a: %lu more messages not shown\n",
			rep->hidden);
	if (res->refused)
		return 2;
	if (res->no_files) {
		fprintf(stderr, "lket-b2a: no trace file could be read\n");
		return 2;
	}
	if (res->no_host) {
		fprintf(stderr, "lket-b2a: host %s: no trace file could be read\n",
			res->no_host);
		return 2;
	}
	if (res->ret == -ENODATA) {
		fprintf(stderr, "lket-b2a: -t wall, --from/--to DATE: a wall-clock time needs the trace header's wall-clock offset, and this trace has no header\n");
		return 2;
	}
	if (res->failure[0]) {
		fprintf(stderr, "lket-b2a: %s\n", res->failure);
		return 2;
	}
	if (res->ret == -EEXIST && res->what && res->what == o->sqlite.path) {
		fprintf(stderr, "lket-b2a: %s exists: give --replace to overwrite it\n",
			o->sqlite.path);
		return 2;
	}
	if (res->ret) {
		fprintf(stderr, "lket-b2a: %s: %s\n",
			res->what ? res->what : "output", strerror(-res->ret));
		return 2;
	}
	for (i = 0; !rep->quiet && i < sizeof(losses) / sizeof(losses[0]); i++)
		if (losses[i].n)
			fprintf(stderr, "lket-b2a: %llu %s\n",
				(unsigned long long)losses[i].n, losses[i].what);
	return rep->d.damage ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct options o = { .text = { .time = TIME_ABS },
			     .timechart_procs = TIMECHART_PROCS };
	struct reporter rep = { .d = { .report = report } };
	struct inputs in = { 0 };
	struct result res = { 0 };
	int status;

	/* A trace holds kernel addresses (a KASLR bypass) and other users'
	 * file and process names: what it makes is its owner's alone.  A
	 * file replaced keeps its mode (tmpfile.c). */
	umask(umask(0) | 077);
	/* getopt names the program by argv[0], which may be a path */
	argv[0] = (char *)"lket-b2a";
	filter_init(&o.filter);
	status = parse_options(argc, argv, &o, &rep);
	if (status < 0)
		status = collect_inputs(argc, argv, optind, &in);
	if (status < 0)
		status = check_hosts(&o, &in);
	if (status < 0) {
		run(&o, &in, &rep, &res);
		if (!rep.quiet)
			print_clocks(&in, &res);
		status = exit_status(&o, &rep, &res);
	}
	inputs_free(&in);
	filter_free(&o.filter);
	return status;
}
