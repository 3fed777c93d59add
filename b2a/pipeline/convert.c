// SPDX-License-Identifier: GPL-2.0
/*
 * convert.c - one trace: its source's events, in time order, into the
 * output; the report summed up at the end.
 */
#include <errno.h>
#include <stdlib.h>

#include "analysis/report.h"
#include "pipeline/convert.h"
#include "pipeline/source.h"

int convert(const char *const *paths, size_t npaths, struct output *out,
	    struct diag *diag, struct convert_stats *stats)
{
	return convert_ex(paths, npaths, out, diag, stats, NULL);
}

int convert_ex(const char *const *paths, size_t npaths, struct output *out,
	       struct diag *diag, struct convert_stats *stats,
	       const struct convert_options *opt)
{
	struct source_options sopt = {
		.filter = opt ? opt->filter : NULL,
		.report = opt ? opt->report : NULL,
		.offcpu = opt ? opt->offcpu : NULL,
		.critpath = opt ? opt->critpath : NULL,
		.symbols = opt ? opt->symbols : NULL,
		.follow = opt ? opt->follow : NULL,
	};
	struct source *src;
	uint64_t key, count = 0, done, total;
	int ret;

	ret = source_new(&src, out, diag, stats, &sopt);
	if (ret)
		return ret;
	/* filled in as the files are read; databases open here */
	ret = out->ops->begin(out, source_info(src));
	if (!ret)
		ret = source_open(src, paths, npaths);
	while (!ret && source_peek(src, &key)) {
		ret = source_step(src);
		/* off the hot path: a look every so many records */
		if (opt && opt->progress &&
		    !(++count % CONVERT_PROGRESS_EVERY)) {
			source_progress(src, &done, &total);
			opt->progress(opt->progress_ctx, done, total);
		}
	}
	if (!ret)
		ret = source_finish(src);
	if (!ret && sopt.report) {
		ret = report_finish(sopt.report);
		if (!ret && out->ops->report)
			ret = out->ops->report(out, sopt.report);
	}
	if (!ret)
		ret = out->ops->finish(out);
	source_free(src);
	return ret;
}
