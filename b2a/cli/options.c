// SPDX-License-Identifier: GPL-2.0
/*
 * options.c - lket-b2a's command line (options.h): getopt over its own
 * options and the registry's outputs, each output's option taking the
 * path it writes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/inputs.h"
#include "cli/options.h"
#include "cli/usage.h"
#include "input/tracename.h"
#include "util/version.h"

/* Long options without a letter; a filter's is OPT_FILTER + its kind, an
 * output's OPT_OUTPUT + its index in the registry. */
enum {
	OPT_SCHEMA = 256, OPT_REPLACE, OPT_REPORT, OPT_VERSION,
	OPT_STAT, OPT_DELTA, OPT_WHERE, OPT_RPC_REPORT,
	OPT_TIMECHART_PROCS, OPT_DEBUGINFO,
	OPT_NO_SYMBOLS, OPT_STACK_LINES, OPT_HOST, OPT_OFFCPU,
	OPT_OFFCPU_FOLDED, OPT_CRITICAL_PATH, OPT_CRITICAL_PATH_OUT,
	OPT_FOLLOW,
	OPT_FILTER = 512,
	OPT_OUTPUT = 1024,
};

static const struct option own_options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "time", required_argument, NULL, 't' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
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
	{ "rpc-report", required_argument, NULL, OPT_RPC_REPORT },
	{ "offcpu", required_argument, NULL, OPT_OFFCPU },
	{ "offcpu-folded", required_argument, NULL, OPT_OFFCPU_FOLDED },
	{ "critical-path", required_argument, NULL, OPT_CRITICAL_PATH },
	{ "critical-path-out", required_argument, NULL, OPT_CRITICAL_PATH_OUT },
	{ "timechart-procs", required_argument, NULL, OPT_TIMECHART_PROCS },
	{ "debuginfo", required_argument, NULL, OPT_DEBUGINFO },
	{ "no-symbols", no_argument, NULL, OPT_NO_SYMBOLS },
	{ "stack-lines", no_argument, NULL, OPT_STACK_LINES },
	{ "follow", no_argument, NULL, OPT_FOLLOW },
};

#define OWN_OPTIONS	(sizeof(own_options) / sizeof(own_options[0]))

/* The registry's options, then lket-b2a's own; and the letters. */
static void build_options(struct option *lo, char *letters)
{
	const struct output_decl *d;
	size_t i, n = 0;

	for (i = 0; i < output_registry_size; i++) {
		d = output_registry[i];
		lo[n++] = (struct option){ d->option, required_argument, NULL,
					   d->letter ? d->letter :
					   OPT_OUTPUT + (int)i };
		if (d->letter) {
			*letters++ = d->letter;
			*letters++ = ':';
		}
	}
	for (i = 0; i < OWN_OPTIONS; i++)
		lo[n++] = own_options[i];
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	strcpy(letters, "t:f:iNCqh");
}

/* The registry entry a getopt value stands for; -1: none. */
static int output_of(int opt)
{
	size_t i;

	if (opt >= OPT_OUTPUT)
		return opt - OPT_OUTPUT < (int)output_registry_size ?
		       opt - OPT_OUTPUT : -1;
	for (i = 0; i < output_registry_size; i++)
		if (output_registry[i]->letter &&
		    output_registry[i]->letter == opt)
			return (int)i;
	return -1;
}

/* One option that names a filter; returns 0, or the exit status. */
static int filter_arg(struct options *o, int opt, const char *arg)
{
	enum filter_kind kind = (enum filter_kind)(opt - OPT_FILTER);
	const struct option *lo = own_options;
	int ret = filter_add(&o->filter, kind, arg);

	if (!ret)
		return 0;
	while (lo->val != opt)
		lo++;
	fprintf(stderr, "lket-b2a: --%s %s: %s\n", lo->name, arg,
		ret != -EINVAL ? strerror(-ret) :
		kind == FILTER_FROM || kind == FILTER_TO ?
		"not SECONDS[.FRACTION] nor YYYY-MM-DDTHH:MM:SS[.FRACTION][Z]" :
		"not a valid list");
	return 2;
}

static int where_arg(struct options *o, const char *arg)
{
	int ret = filter_add_where(&o->filter, arg);

	if (!ret)
		return 0;
	fprintf(stderr, "lket-b2a: --where %s: %s\n", arg,
		ret == -EINVAL ?
		"not NAME OP VALUE (OP one of == != < <= > >=; a string value takes == or != only)" :
		strerror(-ret));
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

static int format_arg(struct output_settings *s, const char *arg)
{
	if (strcmp(arg, "text") && strcmp(arg, "json") &&
	    strcmp(arg, "csv") && strcmp(arg, "none")) {
		fprintf(stderr, "lket-b2a: -f takes text, json, csv or none, not %s\n",
			arg);
		return 2;
	}
	s->format = arg;
	return 0;
}

/* --timechart-procs N: how many tasks get lanes of their own. */
static int procs_arg(struct output_settings *s, const char *arg)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (*arg < '0' || *arg > '9' || *end || n < 1 ||
	    n > TIMECHART_PROCS_MAX) {
		fprintf(stderr, "lket-b2a: --timechart-procs takes a number from 1 to %d, not %s\n",
			TIMECHART_PROCS_MAX, arg);
		return 2;
	}
	s->timechart_procs = (unsigned int)n;
	return 0;
}

static int host_arg(struct output_settings *s, const char *arg)
{
	if (!host_label_valid(arg, strlen(arg))) {
		fprintf(stderr, "lket-b2a: --host %s: a host label has at most %d letters, digits, '_', '-' or '.'\n",
			arg, HOST_LABEL_MAX);
		return 2;
	}
	s->host = arg;
	return 0;
}

/* --critical-path TID: a thread ID, 1 or more */
static int critical_path_arg(struct options *o, const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > INT32_MAX) {
		fprintf(stderr, "lket-b2a: --critical-path %s: not a thread ID\n",
			arg);
		return 2;
	}
	o->critpath_tid = (int32_t)v;
	return 0;
}

/* An option that takes an argument; 0, or the exit status. */
static int valued(struct options *o, int opt, const char *arg)
{
	switch (opt) {
	case 'f':
		return format_arg(&o->set, arg);
	case 't':
		return time_arg(&o->set.text, arg);
	case OPT_SCHEMA:
		o->set.schema = arg;
		return 0;
	case OPT_HOST:
		return host_arg(&o->set, arg);
	case OPT_REPORT:
		o->report_path = arg;
		return 0;
	case OPT_RPC_REPORT:
		o->rpc_path = arg;
		return 0;
	case OPT_OFFCPU:
		o->offcpu_path = arg;
		return 0;
	case OPT_OFFCPU_FOLDED:
		o->offcpu_folded_path = arg;
		return 0;
	case OPT_CRITICAL_PATH:
		return critical_path_arg(o, arg);
	case OPT_CRITICAL_PATH_OUT:
		o->critpath_path = arg;
		return 0;
	case OPT_TIMECHART_PROCS:
		return procs_arg(&o->set, arg);
	case OPT_DEBUGINFO:
		o->symbols.dir = arg;
		return 0;
	case OPT_WHERE:
		return where_arg(o, arg);
	}
	return filter_arg(o, opt, arg);
}

/* A flag; -1 to go on, or the exit status (0 after --help, --version). */
static int flag(struct options *o, int opt)
{
	switch (opt) {
	case OPT_REPLACE:
		o->set.replace = true;
		break;
	case OPT_NO_SYMBOLS:
		o->no_symbols = true;
		break;
	case OPT_STACK_LINES:
		o->symbols.lines = true;
		break;
	case 'i':
		o->set.text.ids = true;
		break;
	case 'N':
		o->set.text.no_names = true;
		break;
	case 'C':
		o->set.text.no_comm = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	case OPT_DELTA:
		o->set.text.delta = true;
		break;
	case OPT_STAT:
		o->set.summary = true;
		break;
	case OPT_FOLLOW:
		o->follow = true;
		break;
	case 'h':
		usage_print(stdout);
		return 0;
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

/* One option of getopt's; returns -1 to go on, or the exit status. */
static int option(struct options *o, int opt, const char *arg)
{
	int out = output_of(opt);

	if (out >= 0) {
		o->paths[out] = arg;
		return -1;
	}
	if (arg)
		return valued(o, opt, arg) ? 2 : -1;
	return flag(o, opt);
}

/*
 * The option of the first report asked for, in outfiles.c's order: the
 * files written beside the registry's outputs.  NULL: none.
 */
static const char *report_asked(const struct options *o)
{
	return o->report_path ? "--report" :
	       o->rpc_path ? "--rpc-report" :
	       o->offcpu_path ? "--offcpu" :
	       o->offcpu_folded_path ? "--offcpu-folded" :
	       o->critpath_tid ? "--critical-path" : NULL;
}

/*
 * The option of the first output asked for other than -o's: another of
 * the registry's (-d, --ctf, --timechart, --histogram...), or a report.
 * NULL: none.
 */
static const char *other_output(const struct options *o, char *buf,
				size_t size)
{
	size_t i;

	for (i = 0; i < output_registry_size; i++)
		if (o->paths[i] && !output_registry[i]->fallback)
			return output_decl_name(output_registry[i], buf, size);
	return report_asked(o);
}

/*
 * Which outputs are written, one rule for all: -o's only if asked for (-o
 * or -f) or if no other output is (of the registry's, or a report):
 * --ctf, -d, --report or --critical-path alone write no lket.out.  Its
 * file is named after its format; --stat's summary, a report too, goes
 * to standard output unless -o names a file.
 */
static void settle_fallback(struct options *o)
{
	struct output_settings *s = &o->set;
	bool asked = false;
	char name[64];
	size_t i;

	for (i = 0; i < output_registry_size; i++)
		if (output_registry[i]->fallback)
			asked = asked || o->paths[i];
	if (s->summary)
		s->format = "text";
	if (!s->format)
		s->format = other_output(o, name, sizeof(name)) && !asked ?
			    "none" : "text";
	for (i = 0; i < output_registry_size; i++) {
		if (!output_registry[i]->fallback)
			continue;
		/* a live trace's lines go where they can be seen as they
		   come, and so does the summary */
		if (!o->paths[i] && (o->follow || s->summary))
			o->paths[i] = "-";
		if (!o->paths[i])
			o->paths[i] = !strcmp(s->format, "json") ? "lket.json" :
				      !strcmp(s->format, "csv") ? "lket.csv" :
				      "lket.out";
		if (!strcmp(s->format, "none"))
			o->paths[i] = NULL;
	}
}

/*
 * --follow writes lines as the records come: only the -o output (text,
 * JSON, CSV), nothing that needs the whole trace first.  0, or the exit
 * status.
 */
static int check_follow(const struct options *o)
{
	const char *other;
	char name[64];

	if (!o->follow)
		return 0;
	other = other_output(o, name, sizeof(name));
	if (!other)
		other = o->set.summary ? "--stat" :
			!strcmp(o->set.format, "none") ? "-f none" : NULL;
	if (other) {
		fprintf(stderr, "lket-b2a: --follow writes the -o output (text, JSON, CSV) as the trace is written, not %s, which needs the whole trace\n",
			other);
		return 2;
	}
	return 0;
}

/* What the outputs asked for cannot be; 0, or the exit status. */
static int check_outputs(const struct options *o)
{
	const struct output_decl *d, *picture = NULL;
	char name[64], other[64];
	struct stat st;
	size_t i;

	for (i = 0; i < output_registry_size; i++) {
		d = output_registry[i];
		if (!o->paths[i] || !d->picture || strcmp(o->paths[i], "-"))
			continue;
		if (picture) {
			fprintf(stderr, "lket-b2a: %s - and %s -: two pictures cannot share standard output\n",
				output_decl_name(picture, other, sizeof(other)),
				output_decl_name(d, name, sizeof(name)));
			return 2;
		}
		picture = d;
	}
	if (o->set.summary && o->set.format && strcmp(o->set.format, "text")) {
		fprintf(stderr, "lket-b2a: --stat writes text, not -f %s\n",
			o->set.format);
		return 2;
	}
	/* a database needs a file it can replace */
	for (i = 0; i < output_registry_size; i++) {
		d = output_registry[i];
		if (!o->paths[i] || d->target != OUTPUT_DB_FILE)
			continue;
		output_decl_name(d, name, sizeof(name));
		if (!strcmp(o->paths[i], "-")) {
			fprintf(stderr, "lket-b2a: %s -: a database cannot go to standard output; name a file\n",
				name);
			return 2;
		}
		if (stat(o->paths[i], &st) == 0 && !S_ISREG(st.st_mode)) {
			fprintf(stderr, "lket-b2a: %s %s: a database must be a regular file\n",
				name, o->paths[i]);
			return 2;
		}
	}
	return 0;
}

/*
 * The PostgreSQL schema named after the trace: the base name of the first
 * argument (a prefix, or a file without its _N / cpuN), lower case, with
 * what is not a letter, digit or underscore made an underscore.
 */
static void schema_from(const char *arg, char *out, size_t size)
{
	const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
	size_t n = tracename_stem(base), i;

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

/* --schema's default: the name of the first trace (LABEL=TRACE: its). */
static void default_schema(struct options *o, int argc, char **argv)
{
	const char *arg = optind < argc ? argv[optind] : "stpd_cpu0";
	const char *eq = strchr(arg, '=');

	if (o->set.schema)
		return;
	if (eq && host_label_valid(arg, (size_t)(eq - arg)))
		arg = eq + 1;
	schema_from(arg, o->schema, sizeof(o->schema));
	o->set.schema = o->schema;
}

void options_init(struct options *o)
{
	*o = (struct options){ .set = { .text = { .time = TIME_ABS },
					.timechart_procs = TIMECHART_PROCS } };
	filter_init(&o->filter);
}

void options_free(struct options *o)
{
	filter_free(&o->filter);
}

int options_parse(int argc, char **argv, struct options *o,
		  struct diag *diag)
{
	struct option lo[OUTPUTS_MAX + OWN_OPTIONS + 1];
	char letters[2 * OUTPUTS_MAX + 16];
	int opt, status;

	build_options(lo, letters);
	while ((opt = getopt_long(argc, argv, letters, lo, NULL)) != -1) {
		status = option(o, opt, optarg);
		if (status >= 0)
			return status;
	}
	o->set.diag = diag;
	status = check_outputs(o);
	if (status)
		return status;
	settle_fallback(o);
	status = check_follow(o);
	if (status)
		return status;
	default_schema(o, argc, argv);
	return -1;
}
