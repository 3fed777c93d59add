// SPDX-License-Identifier: GPL-2.0
/*
 * out_histogram.c - lket-b2a --histogram FILE.svg: one latency histogram
 * per paired event of the latency report (report.c pairs them; this only
 * draws what it summed up), in plain SVG.
 *
 * Buckets are the report's, powers of two of nanoseconds, drawn side by
 * side across the page: the x axis is logarithmic.  p50, p90, p99 and
 * max are lines at their place on that axis, their values in rows above
 * the bars, laid out by their text's width so that none covers another.
 * Panels go by total time, the most first, MAX_PANELS at most.  Bars and
 * lines carry a <title> (hover text) and data- attributes with the exact
 * numbers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "output/chart/chart.h"
#include "output/chart/svg.h"
#include "output/output.h"
#include "output/registry.h"
#include "util/outbuf.h"

#define PANEL_W		900	/* the page's width */
#define PLOT_X		60
#define PLOT_R		(PANEL_W - 20)	/* the plot's right edge */
#define MIN_BUCKETS	8	/* the axis spans at least this many */
#define LABEL_FS	9	/* percentile and axis labels' font size */
#define LABEL_ROWS	4	/* rows above the bars for the labels */
#define ROW_H		11
#define ROWS_TOP	30	/* the first row's baseline, below the heading */
#define PLOT_TOP	(ROWS_TOP + LABEL_ROWS * ROW_H - 4)
#define PLOT_H		90
#define PANEL_H		(PLOT_TOP + PLOT_H + 28)
#define MAX_PANELS	24	/* the most drawn; a note says the rest */
/*
 * What a character of sans-serif takes, in em, at most about (DejaVu
 * Sans' digits: 0.64): the boxes labels are laid out by, so that none
 * covers another.
 */
#define CHAR_EM		0.68

struct hist {
	char *what;
	uint64_t count, total, min, max, mean, p50, p90, p99;
	uint64_t unmatched_begin, unmatched_end;
	uint64_t bucket[REPORT_BUCKETS];
};

struct histogram {
	struct output o;
	struct outbuf w;
	const struct trace_info *trace;
	struct hist *h;
	size_t n;
	bool reported;
};

static struct histogram *histogram_of(const struct output *o)
{
	return (struct histogram *)o;
}

static int hist_begin(struct output *o, const struct trace_info *trace)
{
	histogram_of(o)->trace = trace;
	return 0;
}

static int hist_event(struct output *o, const struct event *ev,
		      const struct proc *proc)
{
	(void)o;
	(void)ev;
	(void)proc;
	return 0;
}

static int hist_lost(struct output *o, const struct seq_gap *g)
{
	(void)o;
	(void)g;
	return 0;
}

/* The report's per-event latencies (not those per process or thread),
 * copied. */
static int hist_report(struct output *o, const struct report *r)
{
	struct histogram *H = histogram_of(o);
	size_t i, n = report_count(r);
	const struct latency *l;
	struct hist *h;

	H->reported = true;
	H->h = calloc(n ? n : 1, sizeof(*H->h));
	if (!H->h)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		l = report_get(r, i);
		if (l->scope != LATENCY_EVENT || !l->count)
			continue;
		h = &H->h[H->n];
		h->what = strdup(l->what);
		if (!h->what)
			return -ENOMEM;
		H->n++;
		h->count = l->count;
		h->total = l->total;
		h->min = l->min;
		h->max = l->max;
		h->mean = l->mean;
		h->p50 = l->p50;
		h->p90 = l->p90;
		h->p99 = l->p99;
		h->unmatched_begin = l->unmatched_begin;
		h->unmatched_end = l->unmatched_end;
		memcpy(h->bucket, l->hist, sizeof(h->bucket));
	}
	return 0;
}

/* Where ns falls on the log axis: bucket k spans [2^k, 2^(k+1)), and
 * inside it the place is linear (so the value lies in its own bar). */
static double log_pos(uint64_t ns)
{
	int k = ns ? 63 - __builtin_clzll(ns) : 0;

	return ns ? k + (double)(ns - (1ull << k)) / (double)(1ull << k) : 0;
}

/* The width text of n characters takes at font size fs. */
static double text_w(size_t n, int fs)
{
	return (double)n * CHAR_EM * fs;
}

struct label {
	double x;		/* where the value is */
	double x0, x1;		/* its text's box */
	int row;
};

/* Does label l's box, in row r, cover one of the n placed before? */
static bool covers_label(const struct label *l, int r,
			 const struct label *placed, int n)
{
	int k;

	for (k = 0; k < n; k++)
		if (placed[k].row == r && l->x0 < placed[k].x1 + 4 &&
		    placed[k].x0 < l->x1 + 4)
			return true;
	return false;
}

/* Would label l in row r cross a line, or its line a label: a line
 * runs from its label down to the bars? */
static bool crosses_line(const struct label *l, int r,
			 const struct label *placed, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		const struct label *o = &placed[k];

		if (o->row < r && o->x > l->x0 - 1 && o->x < l->x1 + 1)
			return true;
		if (o->row > r && l->x > o->x0 - 1 && l->x < o->x1 + 1)
			return true;
	}
	return false;
}

/*
 * Put label l in the first row (from the top) where its box covers no
 * other label's and no line crosses it; where every row has a line that
 * would (a label left of its line at the page's edge, across the line
 * of one before it), in the first row where it covers no label: a label
 * a line crosses stays readable, two on one another do not.  There are
 * as many rows as labels: one is always free.
 */
static void place(struct label *l, const struct label *placed, int n)
{
	int r;

	for (r = 0; r < LABEL_ROWS; r++)
		if (!covers_label(l, r, placed, n) &&
		    !crosses_line(l, r, placed, n))
			break;
	if (r == LABEL_ROWS)
		for (r = 0; r < LABEL_ROWS - 1; r++)
			if (!covers_label(l, r, placed, n))
				break;
	l->row = r;
}

/* p50 <= p90 <= p99 <= max: left to right, each in a free row. */
static void percentiles(struct histogram *H, const struct hist *h, int top,
			int base, int lo, double bw, const char *what)
{
	static const char *const pname[] = { "p50", "p90", "p99", "max" };
	const uint64_t pval[] = { h->p50, h->p90, h->p99, h->max };
	char a[32], words[48];
	struct label lab[4];
	int i, y;

	for (i = 0; i < 4; i++) {
		double w;

		svg_duration(a, sizeof(a), pval[i]);
		snprintf(words, sizeof(words), "%s %s", pname[i], a);
		w = text_w(strlen(words), LABEL_FS);
		lab[i].x = PLOT_X + bw * (log_pos(pval[i]) - lo);
		/* right of its line, or left of it at the page's edge */
		lab[i].x0 = lab[i].x + 2 + w <= PANEL_W - 4 ? lab[i].x + 2 :
			    lab[i].x - 2 - w;
		lab[i].x1 = lab[i].x0 + w;
		place(&lab[i], lab, i);
		y = top + ROWS_TOP + ROW_H * lab[i].row;
		outbuf_printf(&H->w, "<g class=\"pct\" data-name=\"%s\" data-ns=\"%llu\"><title>%s: %s %s</title>"
			      "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#c62828\" stroke-dasharray=\"3,2\"/>"
			      "<text x=\"%.2f\" y=\"%d\" fill=\"#c62828\" font-size=\"%d\">%s</text></g>\n",
			      pname[i], (unsigned long long)pval[i], what,
			      pname[i], a, lab[i].x, y - LABEL_FS, lab[i].x,
			      base, lab[i].x0, y, LABEL_FS, words);
	}
}

static void panel(struct histogram *H, const struct hist *h, int top)
{
	char what[SVG_TEXT_ROOM(128)], a[32], b[32], mean[32];
	int lo = -1, hi = 0, k, step;
	uint64_t most = 0;
	double bw, x, bh, widest = 0;
	int plot_top = top + PLOT_TOP, base = plot_top + PLOT_H;

	for (k = 0; k < REPORT_BUCKETS; k++)
		if (h->bucket[k]) {
			if (lo < 0)
				lo = k;
			hi = k;
			if (h->bucket[k] > most)
				most = h->bucket[k];
		}
	if (lo < 0)
		return;
	/* the width, for at least MIN_BUCKETS: a bar or two stay bars */
	while (hi - lo + 1 < MIN_BUCKETS && (lo > 0 || hi < REPORT_BUCKETS - 1)) {
		if (hi < REPORT_BUCKETS - 1)
			hi++;
		if (hi - lo + 1 < MIN_BUCKETS && lo > 0)
			lo--;
	}
	bw = (double)(PLOT_R - PLOT_X) / (hi - lo + 1);
	svg_text(what, sizeof(what), h->what, 128);
	svg_duration(mean, sizeof(mean), h->mean);
	outbuf_printf(&H->w, "<g class=\"histogram\" data-what=\"%s\" data-count=\"%llu\">\n"
		      "<text x=\"4\" y=\"%d\" font-weight=\"bold\">%s: %llu latencies, mean %s, unmatched %llu/%llu</text>\n",
		      what, (unsigned long long)h->count, top + 14, what,
		      (unsigned long long)h->count, mean,
		      (unsigned long long)h->unmatched_begin,
		      (unsigned long long)h->unmatched_end);
	outbuf_printf(&H->w, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888888\"/>\n",
		      PLOT_X, base, PLOT_R, base);
	outbuf_printf(&H->w, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%llu</text>\n",
		      PLOT_X - 4, plot_top + 10, (unsigned long long)most);
	/* the axis' labels, every step buckets so that they do not touch */
	for (k = lo; k <= hi + 1; k++) {
		svg_duration(a, sizeof(a), k ? 1ull << k : 0);
		if (text_w(strlen(a), LABEL_FS) > widest)
			widest = text_w(strlen(a), LABEL_FS);
	}
	step = (int)((widest + 6) / bw) + 1;
	for (k = lo; k <= hi; k++) {
		x = PLOT_X + bw * (k - lo);
		bh = h->bucket[k] ? 1 + (double)(PLOT_H - 1) *
			(double)h->bucket[k] / (double)most : 0;
		svg_duration(a, sizeof(a), k ? 1ull << k : 0);
		svg_duration(b, sizeof(b), 1ull << (k + 1));
		if (h->bucket[k])
			outbuf_printf(&H->w, "<rect class=\"bar\" data-bucket=\"%d\" data-count=\"%llu\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#1565c0\"><title>%s: %s to %s: %llu</title></rect>\n",
				      k, (unsigned long long)h->bucket[k],
				      x + 1, base - bh, bw - 2, bh, what, a, b,
				      (unsigned long long)h->bucket[k]);
		if ((k - lo) % step == 0 &&
		    x + text_w(strlen(a), LABEL_FS) <= PANEL_W - 4)
			outbuf_printf(&H->w, "<text x=\"%.2f\" y=\"%d\" font-size=\"%d\">%s</text>\n",
				      x, base + 12, LABEL_FS, a);
	}
	percentiles(H, h, top, base, lo, bw, what);
	outbuf_printf(&H->w, "</g>\n");
}

/* By total time, the most first; then by name. */
static int cmp_total(const void *a, const void *b)
{
	const struct hist *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->what, y->what);
}

static int hist_finish(struct output *o)
{
	struct histogram *H = histogram_of(o);
	size_t i, shown = H->n < MAX_PANELS ? H->n : MAX_PANELS;
	int y = 48, height;

	qsort(H->h, H->n, sizeof(*H->h), cmp_total);
	if (!H->n || shown < H->n)
		y += H->n ? 16 : 30;	/* a note: its lines */
	height = y + (int)shown * PANEL_H + 20;
	svg_begin(&H->w, PANEL_W, (unsigned int)height,
		  "lket-b2a latency histograms");
	outbuf_printf(&H->w, "<text x=\"4\" y=\"16\" font-size=\"14\" font-weight=\"bold\">lket-b2a latency histograms</text>\n"
		      "<text x=\"4\" y=\"32\">By total time, the most first. Buckets of powers of two of nanoseconds (a log scale); p50, p90, p99 and max marked. Hover for numbers.</text>\n");
	if (!H->n)
		outbuf_printf(&H->w, "<text class=\"note\" x=\"4\" y=\"48\" fill=\"#b71c1c\">Note: no latencies: the trace has no paired events%s:</text>\n"
			      "<text class=\"note\" x=\"4\" y=\"62\" fill=\"#b71c1c\">syscall, iosyscall, aio, sunrpc, nfs, nfsd entry/return; ioscheduler, scsi requests.</text>\n",
			      H->reported ? "" : " or no report was made");
	else if (shown < H->n)
		outbuf_printf(&H->w, "<text class=\"note\" x=\"4\" y=\"48\" fill=\"#b71c1c\">Note: %zu more left out, of less total time (the latency report has them all).</text>\n",
			      H->n - shown);
	for (i = 0; i < shown; i++, y += PANEL_H)
		panel(H, &H->h[i], y);
	svg_end(&H->w);
	return outbuf_flush(&H->w);
}

static void hist_free(struct output *o)
{
	struct histogram *H = histogram_of(o);
	size_t i;

	for (i = 0; i < H->n; i++)
		free(H->h[i].what);
	free(H->h);
	outbuf_free(&H->w);
	free(H);
}

static const struct output_ops histogram_ops = {
	.begin = hist_begin,
	.event = hist_event,
	.lost = hist_lost,
	.report = hist_report,
	.finish = hist_finish,
	.free = hist_free,
};

int output_histogram_new(struct output **o, int fd)
{
	struct histogram *H = calloc(1, sizeof(*H));

	if (!H)
		return -ENOMEM;
	H->o.ops = &histogram_ops;
	if (outbuf_init(&H->w, fd, 1 << 16)) {
		free(H);
		return -ENOMEM;
	}
	*o = &H->o;
	return 0;
}

static int histogram_create(struct output **o, const struct output_args *a)
{
	return output_histogram_new(o, a->fd);
}

const struct output_decl output_histogram_decl = {
	.option = "histogram", .arg = "FILE",
	.help =
"      --histogram FILE  latency histograms of --report's pairs as an SVG\n"
"                 picture, log-scaled, p50/p90/p99/max marked\n",
	.target = OUTPUT_FILE,
	.one_host = true,
	.picture = true,
	.needs_report = true,
	.create = histogram_create,
};
