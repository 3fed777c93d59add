// SPDX-License-Identifier: GPL-2.0
/*
 * lket-b2a - convert an LKET binary trace into text (lket.out), JSON Lines,
 * CSV, SQLite or PostgreSQL, with filters and latency reports.
 *
 * main.c runs one conversion: the command line (cli/), the outputs it
 * asks for (output/registry.h), the pipeline (pipeline/convert.h or,
 * several hosts, pipeline/multihost.h), the exit status.  It is the one
 * place that reports errors: every module returns negative errno values,
 * and what is found wrong in the input comes here through the diag sink.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/critpath.h"
#include "analysis/offcpu.h"
#include "analysis/report.h"
#include "analysis/rpcreport.h"
#include "analysis/symbols.h"
#include "cli/inputs.h"
#include "cli/options.h"
#include "cli/outfiles.h"
#include "input/follow.h"
#include "main.h"
#include "pipeline/convert.h"
#include "pipeline/multihost.h"
#include "util/diag.h"
#include "util/progress.h"
#include "util/u64map.h"

#define MAX_MESSAGES_PER_FILE	20

struct reporter {
	struct diag d;
	struct progress progress;
	bool quiet;
	/* messages shown per file (by a hash of its name; 0 the trace):
	 * the cap holds when messages about two files alternate */
	struct u64map shown;
	unsigned long hidden;
	unsigned long hidden_losses;	/* of them, DIAG_LOSS: in the sums */
};

/* The progress line, if one is shown, is erased: messages go above. */
static void progress_erase(struct reporter *r)
{
	if (r->progress.shown)
		fputs("\r\033[K", stderr);
	r->progress.shown = false;
}

/* Is this one more message about file than are shown?  Counted. */
static bool over_cap(struct reporter *r, const char *file)
{
	uint64_t key = 0;
	struct u64map_slot *slot;
	const char *p;

	for (p = file; p && *p; p++)
		key = (key ^ (unsigned char)*p) * 1099511628211ull;
	if (file)
		key |= 1;	/* never the trace's */
	slot = u64map_find(&r->shown, key);
	if (slot && slot->val >= MAX_MESSAGES_PER_FILE)
		return true;
	if (slot) {
		slot->val++;
		return false;
	}
	/* no memory to count it in: shown */
	u64map_put(&r->shown, key, 1);
	return false;
}

static void report(struct diag *d, enum diag_level level, const char *file,
		   int64_t offset, const char *msg)
{
	struct reporter *r = (struct reporter *)d;

	if (r->quiet)
		return;
	if (over_cap(r, file)) {
		r->hidden++;
		if (level == DIAG_LOSS)
			r->hidden_losses++;
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

/* What a conversion did, for the exit status. */
struct result {
	int ret;
	const char *what;	/* what failed; NULL: the outputs together */
	char *failure;		/* the output's own words, whole; NULL none */
	bool refused;		/* an output clashed: nothing was written */
	bool no_files;		/* no input could be read */
	struct convert_stats stats;
	struct host_clock clocks[LKET_MAX_HOSTS];
	size_t nclocks;		/* hosts whose clocks were aligned */
	const char *no_host;	/* a host none of whose files was read */
};

/* Several hosts: their traces as one timeline, and the RPC report. */
static int run_hosts(struct options *o, const struct inputs *in,
		     struct reporter *rep, struct result *res,
		     struct output *out, const struct outfiles *files)
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
		ret = rpcreport_write(mopt.rpc, outfiles_fd(files, files->rpc));
	}
	rpcreport_free(mopt.rpc);
	free(paths);
	return ret;
}

/* Does an output asked for draw the latency report? */
static bool wants_report(const struct options *o)
{
	size_t i;

	for (i = 0; i < output_registry_size; i++)
		if (options_want(o, i) && output_registry[i]->needs_report)
			return true;
	return o->report_path != NULL;
}

/* --follow: lines out before the converter waits for the tracer */
static void flush_output(void *ctx)
{
	struct output *out = ctx;

	if (out->ops->flush)
		out->ops->flush(out);	/* an error stays for finish */
}

/* One trace: convert it, with progress on a terminal; with --follow, as
 * it is written. */
static int run_one(const struct options *o, const struct inputs *in,
		   struct reporter *rep, struct result *res,
		   struct output *out, struct convert_options *copt)
{
	struct follow follow = {
		.idle = flush_output, .ctx = out,
		.interval_ms = FOLLOW_INTERVAL_MS, .diag = &rep->d,
	};
	int ret;

	if (o->follow) {
		ret = follow_catch_stop();
		if (ret)
			return ret;
		copt->follow = &follow;
	}
	/* a terminal only: a log file gets no progress lines */
	if (!rep->quiet && isatty(STDERR_FILENO)) {
		copt->progress = show_progress;
		copt->progress_ctx = rep;
	}
	ret = convert_ex((const char *const *)in->paths, in->n, out,
			 &rep->d, &res->stats, copt);
	copt->follow = NULL;
	return ret;
}

/* Convert into the outputs, write the report, put the files in place. */
static void run(struct options *o, const struct inputs *in,
		struct reporter *rep, struct result *res)
{
	struct outfiles files;
	struct convert_options copt = { .filter = &o->filter };
	struct output *out = NULL;
	const char *failure;
	int ret;

	ret = outfiles_open(&files, o, in, &res->what, &res->refused);
	if (!ret)
		ret = outfiles_outputs(&files, o, &out, &res->what);
	/* the histograms draw the report's latencies */
	if (!ret && wants_report(o))
		ret = report_new(&copt.report);
	if (!ret && (o->offcpu_path || o->offcpu_folded_path))
		ret = offcpu_new(&copt.offcpu);
	if (!ret && o->critpath_tid)
		ret = critpath_new(&copt.critpath, o->critpath_tid);
	/* call stacks of several hosts (their kernels differ): addresses */
	if (!ret && !o->no_symbols && !in->nhosts) {
		o->symbols.diag = &rep->d;
		ret = symbols_new(&copt.symbols, &o->symbols);
	}
	if (!ret) {
		ret = in->nhosts ? run_hosts(o, in, rep, res, out, &files) :
		      run_one(o, in, rep, res, out, &copt);
		failure = ret && out->ops->error ? out->ops->error(out) : NULL;
		/* an output's -ENOENT is its own (a missing --ctf folder) */
		res->no_files = !in->nhosts && ret == -ENOENT &&
				!res->stats.files && !failure;
		/* the output is freed before its words are said */
		res->failure = failure ? strdup(failure) : NULL;
	}
	if (!ret && o->report_path) {
		res->what = o->report_path;
		ret = report_write(copt.report,
				   outfiles_fd(&files, files.report));
	}
	if (!ret && o->offcpu_path) {
		res->what = o->offcpu_path;
		ret = offcpu_write(copt.offcpu,
				   outfiles_fd(&files, files.offcpu));
	}
	if (!ret && o->critpath_tid) {
		res->what = "--critical-path";
		ret = critpath_write(copt.critpath,
				     outfiles_fd(&files, files.critpath));
	}
	if (!ret && o->offcpu_folded_path) {
		res->what = o->offcpu_folded_path;
		ret = offcpu_write_folded(copt.offcpu,
					  outfiles_fd(&files, files.offcpu_folded));
	}
	progress_erase(rep);
	if (out)
		out->ops->free(out);
	report_free(copt.report);
	offcpu_free(copt.offcpu);
	critpath_free(copt.critpath);
	symbols_free(copt.symbols);
	/* the database first: it alone may refuse (it appeared meanwhile) */
	if (!ret)
		ret = outfiles_commit(&files, o->set.replace, &res->what);
	outfiles_discard(&files);
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

/* Is path a file kept unless --replace (a database), as named? */
static bool kept_file(const struct options *o, const char *path)
{
	size_t i;

	for (i = 0; path && i < output_registry_size; i++)
		if (output_registry[i]->target == OUTPUT_DB_FILE &&
		    o->paths[i] == path)
			return true;
	return false;
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

	/* whether the hidden ones are only losses the sums below count, or
	 * damage the reader has not seen */
	if (rep->hidden == rep->hidden_losses && rep->hidden)
		fprintf(stderr, "lket-b2a: %lu more messages not shown, all about the losses summed up below\n",
			rep->hidden);
	else if (rep->hidden)
		fprintf(stderr, "lket-b2a: %lu more messages not shown, %lu of them about the losses summed up below\n",
			rep->hidden, rep->hidden_losses);
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
	if (res->ret == -ENOMSG) {
		fprintf(stderr, "lket-b2a: none of the files given is an LKET trace's: nothing written\n");
		return 2;
	}
	if (res->ret == -ENODATA) {
		fprintf(stderr, "lket-b2a: -t wall, --from/--to DATE: a wall-clock time needs the trace header's wall-clock offset, and this trace has no header\n");
		return 2;
	}
	if (res->failure) {
		fprintf(stderr, "lket-b2a: %s\n", res->failure);
		return 2;
	}
	if (res->ret == -EEXIST && kept_file(o, res->what)) {
		fprintf(stderr, "lket-b2a: %s exists: give --replace to overwrite it\n",
			res->what);
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

int b2a_run(int argc, char **argv)
{
	struct options o;
	struct reporter rep = { .d = { .report = report } };
	struct inputs in = { 0 };
	struct result res = { 0 };
	int status;

	options_init(&o);
	if (u64map_init(&rep.shown)) {
		fprintf(stderr, "lket-b2a: %s\n", strerror(ENOMEM));
		return 2;
	}
	status = options_parse(argc, argv, &o, &rep.d);
	rep.quiet = o.quiet;
	if (status < 0)
		status = inputs_collect(argc, argv, optind, &in);
	if (status < 0 && o.follow)
		status = inputs_await(argc, argv, optind, &in, o.quiet);
	if (status < 0)
		status = inputs_check_hosts(&o, &in);
	if (status < 0) {
		run(&o, &in, &rep, &res);
		if (!rep.quiet)
			print_clocks(&in, &res);
		status = exit_status(&o, &rep, &res);
		free(res.failure);
	}
	inputs_free(&in);
	options_free(&o);
	u64map_free(&rep.shown);
	return status;
}

/* Without main() for the unit test (tests/unit/test_main.c). */
#ifndef B2A_NO_MAIN
int main(int argc, char **argv)
{
	/* A trace holds kernel addresses (a KASLR bypass) and other users'
	 * file and process names: what it makes is its owner's alone.  A
	 * file replaced keeps its mode (tmpfile.c). */
	umask(umask(0) | 077);
	/* getopt names the program by argv[0], which may be a path */
	argv[0] = (char *)"lket-b2a";
	return b2a_run(argc, argv);
}
#endif
