// SPDX-License-Identifier: GPL-2.0
/*
 * tchart_draw.c - --timechart's drawing (tchart.h): the model's lanes as
 * SVG boxes with titles, the axis, the header and the legend, in columns
 * coarse enough that the file keeps within its bound.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/chart/svg.h"
#include "output/chart/tchart.h"

/* Append to the SVG, or on a dry run only count the bytes. */
static void emit(struct chart *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void emit(struct chart *c, const char *fmt, ...)
{
	char text[TC_ELEMENT_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	/* every piece is built to fit; cut, it would break the XML */
	if (n < 0 || (size_t)n >= sizeof(text))
		n = 0;
	c->bytes += (uint64_t)n;
	if (!c->dry && !outbuf_room(&c->w, (size_t)n))
		outbuf_mem(&c->w, text, (size_t)n);
}


/* How the columns are drawn: in groups of g, each px wide. */
struct layout {
	size_t used, g, drawn;
	double px;
	int y;			/* the next lane's top */
	int plot_top;
};

static const char *const state_name[TC_NSTATES] = {
	[TC_RUN] = "running", [TC_SYSCALL] = "in a system call",
	[TC_WAIT] = "waiting for a CPU", [TC_SLEEP] = "sleeping",
};
static const char *const state_key[TC_NSTATES] = {
	[TC_RUN] = "run", [TC_SYSCALL] = "syscall", [TC_WAIT] = "wait",
	[TC_SLEEP] = "sleep",
};
static const char *const state_colour[TC_NSTATES] = {
	[TC_RUN] = "#2e7d32", [TC_SYSCALL] = "#1565c0",
	[TC_WAIT] = "#ef6c00", [TC_SLEEP] = "#b0bec5",
};
static const char *const mark_name[TC_NMARKS] = {
	[TC_FORK] = "fork", [TC_EXEC] = "exec", [TC_SIG_SENT] = "signal sent",
	[TC_SIG_RECV] = "signal received", [TC_IO_SUB] = "IO submitted",
	[TC_IO_DONE] = "IO completed", [TC_FAULT] = "page fault",
	[TC_WAKEUP] = "woken",
};
static const char *const mark_key[TC_NMARKS] = {
	[TC_FORK] = "fork", [TC_EXEC] = "exec", [TC_SIG_SENT] = "sigsent",
	[TC_SIG_RECV] = "sigrecv", [TC_IO_SUB] = "iosub",
	[TC_IO_DONE] = "iodone", [TC_FAULT] = "fault", [TC_WAKEUP] = "wakeup",
};
static const char *const mark_colour[TC_NMARKS] = {
	[TC_FORK] = "#6a1b9a", [TC_EXEC] = "#000000",
	[TC_SIG_SENT] = "#d81b60", [TC_SIG_RECV] = "#f06292",
	[TC_IO_SUB] = "#00838f", [TC_IO_DONE] = "#4dd0e1",
	[TC_FAULT] = "#c62828", [TC_WAKEUP] = "#f9a825",
};

/* A colour per process, from its pid: hues far apart for near pids. */
static void proc_colour(char *dst, size_t size, int32_t pid, uint32_t tid)
{
	uint32_t k = (uint32_t)(pid >= 0 ? pid : (int32_t)tid) * 2654435761u;
	unsigned int hue = (k >> 16) % 360;

	/* HSL 60% saturation, 45% lightness, as RGB */
	double c = 0.54, h = (hue % 120) / 60.0;
	double x = c * (1 - (h > 1 ? h - 1 : 1 - h)), m = 0.45 - c / 2;
	double r = 0, g = 0, b = 0;

	switch (hue / 60) {
	case 0: r = c; g = x; break;
	case 1: r = x; g = c; break;
	case 2: g = c; b = x; break;
	case 3: g = x; b = c; break;
	case 4: r = x; b = c; break;
	default: r = c; b = x; break;
	}
	snprintf(dst, size, "#%02x%02x%02x", (unsigned int)((r + m) * 255 + .5),
		 (unsigned int)((g + m) * 255 + .5),
		 (unsigned int)((b + m) * 255 + .5));
}

static double col_x(const struct layout *L, size_t j)
{
	return LABEL_W + (double)j * L->px;
}

/* The time of drawn column j's start, since the origin. */
static uint64_t col_time(const struct chart *c, const struct layout *L,
			 size_t j)
{
	return (uint64_t)j * L->g * c->tc.width;
}

/* Drawn column j of lane l: its g columns summed up. */
static void col_sum(const struct layout *L, const struct tc_lane *l,
		    size_t j, struct tc_col *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = j * L->g; i < (j + 1) * L->g && i < TC_COLUMNS; i++)
		tc_col_merge(out, &l->col[i]);
}

static void span_words(const struct chart *c, const struct layout *L,
		       size_t from, size_t to, char *dst, size_t size)
{
	char a[32], b[32];

	svg_duration(a, sizeof(a), col_time(c, L, from));
	svg_duration(b, sizeof(b), col_time(c, L, to));
	snprintf(dst, size, "+%s to +%s", a, b);
}

/* The label of a lane (XML text already), and its group's opening tag. */
static void lane_open(struct chart *c, struct layout *L, const char *kind,
		      const char *t, const char *swatch, const char *extra)
{
	emit(c, "<g class=\"lane\" data-kind=\"%s\" data-y=\"%d\" data-h=\"%d\"%s>\n",
		      kind, L->y, BOX_H, extra ? extra : "");
	if (swatch)
		emit(c, "<rect x=\"4\" y=\"%d\" width=\"8\" height=\"%d\" fill=\"%s\"><title>%s</title></rect>\n",
			      L->y, BOX_H, swatch, t);
	emit(c, "<text x=\"16\" y=\"%d\">%s</text>\n",
		      L->y + BOX_H - 2, t);
}

static void lane_close(struct chart *c, struct layout *L)
{
	emit(c, "</g>\n");
	L->y += LANE_H;
}

static const struct task *task_by_tid(const struct chart *c, uint32_t tid)
{
	const struct u64map_slot *slot = u64map_find(&c->task_of, tid);

	return slot ? &c->tasks[slot->val] : NULL;
}

static void task_words(const struct task *t, uint32_t tid, char *dst,
		       size_t size)
{
	char comm[SVG_TEXT_ROOM(PROC_COMM_LEN)];

	svg_text(comm, sizeof(comm), t && t->comm[0] ? t->comm : "?",
		 PROC_COMM_LEN);
	if (t && t->pid >= 0)
		snprintf(dst, size, "%s (pid %d, tid %u)", comm, t->pid, tid);
	else
		snprintf(dst, size, "%s (tid %u)", comm, tid);
}

/* " (the last by NAME ...)": who woke a task last in a column */
static size_t waker_words(const struct chart *c, uint32_t tid, char *dst,
			  size_t size)
{
	char who[160];
	int n;

	if (tid)
		task_words(task_by_tid(c, tid), tid, who, sizeof(who));
	else
		snprintf(who, sizeof(who), "the idle task or an interrupt");
	n = snprintf(dst, size, " (the last by %s)", who);
	return n < 0 ? 0 : (size_t)n;
}

static void draw_cpu(struct chart *c, struct layout *L, unsigned int cpu)
{
	const struct tc_lane *l = c->cpus[cpu].lane;
	struct tc_col col;
	char label[32], who[160], when[96], busy[32], fill[8];
	size_t j, start = 0;
	uint32_t tid = 0;
	uint64_t ns = 0;

	snprintf(label, sizeof(label), "CPU %u", cpu);
	lane_open(c, L, "cpu", label, NULL, NULL);
	for (j = 0; j <= L->drawn; j++) {
		if (j < L->drawn)
			col_sum(L, l, j, &col);
		if (j < L->drawn && col.ns[TC_RUN] && col.top_tid == tid &&
		    tid) {
			ns += col.ns[TC_RUN];
			continue;
		}
		if (tid) {
			const struct task *t = task_by_tid(c, tid);

			task_words(t, tid, who, sizeof(who));
			span_words(c, L, start, j, when, sizeof(when));
			svg_duration(busy, sizeof(busy), ns);
			proc_colour(fill, sizeof(fill), t ? t->pid : -1, tid);
			emit(c, "<rect class=\"box\" data-tid=\"%u\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>CPU %u: %s ran most, %s: CPU busy %s</title></rect>\n",
				      tid, col_x(L, start), L->y,
				      col_x(L, j) - col_x(L, start), BOX_H,
				      fill, cpu, who, when, busy);
		}
		tid = j < L->drawn && col.ns[TC_RUN] ? col.top_tid : 0;
		ns = tid ? col.ns[TC_RUN] : 0;
		start = j;
	}
	lane_close(c, L);
}

static enum tc_state dominant(const struct tc_col *col)
{
	enum tc_state best = TC_NSTATES;
	int s;

	for (s = 0; s < TC_NSTATES; s++)
		if (col->ns[s] && (best == TC_NSTATES ||
				   col->ns[s] > col->ns[best]))
			best = (enum tc_state)s;
	return best;
}

static void draw_marks(struct chart *c, const struct layout *L,
		       const struct tc_col *col, size_t j, const char *who)
{
	char title[800], when[96];
	size_t n = 0;
	int k, shapes = 0;
	double x = col_x(L, j) + L->px / 2;

	for (k = 0; k < TC_NMARKS; k++)
		shapes += col->mark[k] != 0;
	if (!shapes)
		return;
	span_words(c, L, j, j + 1, when, sizeof(when));
	n += (size_t)snprintf(title + n, sizeof(title) - n, "%s, %s:", who,
			      when);
	emit(c, "<g class=\"mark\"");
	for (k = 0; k < TC_NMARKS; k++) {
		if (!col->mark[k])
			continue;
		emit(c, " data-%s=\"%u\"", mark_key[k],
			      col->mark[k]);
		if (n < sizeof(title))
			n += (size_t)snprintf(title + n, sizeof(title) - n,
					      " %u %s", col->mark[k],
					      mark_name[k]);
		if (k == TC_WAKEUP && n < sizeof(title))
			n += waker_words(c, col->waker_tid, title + n,
					 sizeof(title) - n);
	}
	emit(c, "><title>%s</title>", title);
	for (k = 0; k < TC_NMARKS; k++) {
		if (!col->mark[k])
			continue;
		if (k == TC_FAULT)	/* density: a strip under the box */
			emit(c, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"3\" fill=\"%s\" fill-opacity=\"%.2f\"/>",
				      col_x(L, j), L->y + BOX_H + 1,
				      L->px > 2 ? L->px : 2,
				      mark_colour[k],
				      col->mark[k] >= 8 ? 1.0 :
				      0.3 + 0.7 * col->mark[k] / 8.0);
		else	/* a small tick above the box, one row per kind */
			emit(c, "<rect x=\"%.2f\" y=\"%d\" width=\"3\" height=\"5\" fill=\"%s\"/>",
				      x - 1.5, L->y - 4 + (k % 2) * 2,
				      mark_colour[k]);
	}
	emit(c, "</g>\n");
}

static void draw_task(struct chart *c, struct layout *L,
		      const struct tc_lane *l, const struct task *t,
		      const char *label_text)
{
	struct tc_col col, run = { 0 };
	char who[160], when[96], d[TC_NSTATES][32], fill[8], extra[64];
	enum tc_state st = TC_NSTATES, now;
	size_t j, start = 0, k;

	if (t) {
		task_words(t, t->tid, who, sizeof(who));
		proc_colour(fill, sizeof(fill), t->pid, t->tid);
		snprintf(extra, sizeof(extra), " data-tid=\"%u\"", t->tid);
	} else {
		snprintf(who, sizeof(who), "%s", label_text);
	}
	lane_open(c, L, t ? "task" : "others", t ? who : label_text,
		  t ? fill : NULL, t ? extra : NULL);
	for (j = 0; j <= L->drawn; j++) {
		now = TC_NSTATES;
		if (j < L->drawn) {
			col_sum(L, l, j, &col);
			now = dominant(&col);
		}
		if (j < L->drawn && now == st && st != TC_NSTATES) {
			for (k = 0; k < TC_NSTATES; k++)
				run.ns[k] += col.ns[k];
		} else {
			if (st != TC_NSTATES) {
				for (k = 0; k < TC_NSTATES; k++)
					svg_duration(d[k], sizeof(d[k]),
						     run.ns[k]);
				span_words(c, L, start, j, when, sizeof(when));
				emit(c, "<rect class=\"box\" data-state=\"%s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>%s, %s: mostly %s; running %s, in a system call %s, waiting %s, sleeping %s</title></rect>\n",
					      state_key[st], col_x(L, start),
					      L->y, col_x(L, j) - col_x(L, start),
					      BOX_H, state_colour[st], who,
					      when, state_name[st],
					      d[TC_RUN], d[TC_SYSCALL],
					      d[TC_WAIT], d[TC_SLEEP]);
			}
			st = now;
			start = j;
			memset(&run, 0, sizeof(run));
			if (j < L->drawn)
				for (k = 0; k < TC_NSTATES; k++)
					run.ns[k] = col.ns[k];
		}
		if (j < L->drawn)
			draw_marks(c, L, &col, j, who);
	}
	lane_close(c, L);
}

/* Requests in flight: busy columns, requests ended, the longest. */
static void draw_requests(struct chart *c, struct layout *L,
			  const struct tc_lane *l, const char *kind,
			  const char *label, const char *colour)
{
	struct tc_col col;
	char t[SVG_TEXT_ROOM(64)], when[96], longest[32], depth[32];
	size_t j;
	double span = (double)L->g * (double)c->tc.width;

	svg_text(t, sizeof(t), label, 64);
	lane_open(c, L, kind, t, NULL, NULL);
	for (j = 0; j < L->drawn; j++) {
		col_sum(L, l, j, &col);
		if (!col.ns[TC_RUN] && !col.count)
			continue;
		span_words(c, L, j, j + 1, when, sizeof(when));
		svg_duration(longest, sizeof(longest), col.longest);
		snprintf(depth, sizeof(depth), "%.2f",
			 (double)col.ns[TC_RUN] / span);
		emit(c, "<rect class=\"box\" data-count=\"%u\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>%s, %s: %u ended, the longest %s; %s in flight on average</title></rect>\n",
			      col.count, col_x(L, j), L->y, L->px, BOX_H,
			      colour, t, when, col.count,
			      col.count ? longest : "-", depth);
	}
	lane_close(c, L);
}

static void draw_axis(struct chart *c, const struct layout *L, int bottom)
{
	uint64_t span = col_time(c, L, L->drawn), step, tt;
	char d[32];
	double x;

	step = svg_tick_step(span ? span : 1, 10);
	emit(c, "<g class=\"axis\">\n");
	for (tt = 0; tt <= span; tt += step) {
		x = LABEL_W + (double)tt / (double)span * PLOT_W;
		svg_duration(d, sizeof(d), tt);
		emit(c, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#dddddd\"/><text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">+%s</text>\n",
			      x, L->plot_top - 14, x, bottom, x,
			      L->plot_top - 16, d);
		if (span - tt < step)
			break;
	}
	emit(c, "</g>\n");
}

static int heading(struct chart *c, int y, const char *text)
{
	emit(c, "<text x=\"4\" y=\"%d\" font-weight=\"bold\">%s</text>\n",
		      y + 12, text);
	return y + LANE_H;
}

/* Busiest first: by time on a CPU, or in system calls when the trace
 * has no context switches, then by events. */
static bool by_run;

static int cmp_busy(const void *a, const void *b)
{
	const struct task *x = *(const struct task *const *)a;
	const struct task *y = *(const struct task *const *)b;
	uint64_t bx = by_run ? x->run : x->sys, by = by_run ? y->run : y->sys;

	if (bx != by)
		return bx < by ? 1 : -1;
	if (x->events != y->events)
		return x->events < y->events ? 1 : -1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* One note, when there is room (lines NULL: only counted). */
#define NOTE(...)							\
	do {								\
		if (lines && n < max)					\
			snprintf(lines[n], 160, __VA_ARGS__);		\
		n++;							\
	} while (0)

/* What the picture lacks, and why: the groups the trace did not have.
 * Returns how many notes there are, max or not. */
static size_t notes(const struct chart *c, char lines[][160], size_t max)
{
	size_t n = 0;

	if (!c->saw[LKET_EV_TASK_CTXSWITCH])
		NOTE("No context switches (tskdispatch group not traced): no CPU lanes; tasks show only system calls.");
	if (!c->saw[LKET_EV_SYSCALL_ENTRY])
		NOTE("No system calls (syscall group not traced): no in-system-call state.");
	if (!c->saw[LKET_EV_PROCESS_FORK] && !c->saw[LKET_EV_PROCESS_EXECVE] &&
	    !c->saw[LKET_EV_PROCESS_SNAPSHOT])
		NOTE("No process events (process group not traced): no fork or exec markers, names as first seen.");
	if (!c->ndevs)
		NOTE("No block requests (ioscheduler, scsi groups not traced): no device lanes.");
	if (!c->nrpcs)
		NOTE("No RPC calls (sunrpc group not traced): no RPC lanes.");
	if (c->dropped_lanes)
		NOTE("More devices or RPC servers than lanes: %llu requests not drawn.",
		     (unsigned long long)c->dropped_lanes);
	if (c->lost)
		NOTE("%llu gaps where flushes were lost in transport: what happened there is not drawn.",
		     (unsigned long long)c->lost);
	return n;
}

static void header(struct chart *c, int *y, size_t nshown, size_t ntasks)
{
	char start[64], span[32], kernel[SVG_TEXT_ROOM(64)], line[800];
	char note[TC_NOTES][160];
	size_t i, n = notes(c, note, TC_NOTES);
	int64_t off = c->trace ? c->trace->wall_offset : 0;
	uint64_t wall;

	svg_duration(span, sizeof(span), c->tc.end - c->tc.origin);

	/* unsigned ns since 1970, never wrapped */
	if (c->trace && c->trace->have_header &&
	    !(off >= 0 ? __builtin_add_overflow(c->tc.origin, (uint64_t)off,
						&wall) :
	      __builtin_sub_overflow(c->tc.origin, -(uint64_t)off, &wall)))
		svg_wall(start, sizeof(start), wall);
	else if (c->trace && c->trace->have_header)
		snprintf(start, sizeof(start),
			 "unknown (the header's offset puts it out of 1970 to 2554)");
	else
		snprintf(start, sizeof(start), "unknown (no trace header)");
	svg_text(kernel, sizeof(kernel), c->trace && c->trace->kernel[0] ?
		 c->trace->kernel : "?", 64);
	emit(c, "<text x=\"4\" y=\"16\" font-size=\"14\" font-weight=\"bold\">lket-b2a timechart</text>\n");
	snprintf(line, sizeof(line), "start %s (trace clock %llu.%09llu s), span %s, %llu events, kernel %s; %zu of %zu tasks shown, the rest in others",
		 start, (unsigned long long)(c->tc.origin / 1000000000),
		 (unsigned long long)(c->tc.origin % 1000000000), span,
		 (unsigned long long)c->events, kernel, nshown, ntasks);
	emit(c, "<text class=\"info\" x=\"4\" y=\"32\">%s</text>\n",
		      line);
	*y = 48;
	for (i = 0; i < n; i++, *y += 14)
		emit(c, "<text class=\"note\" x=\"4\" y=\"%d\" fill=\"#b71c1c\">Note: %s</text>\n",
			      *y, note[i]);
}

static int legend(struct chart *c, int y)
{
	int k, x = 4;

	y = heading(c, y, "Legend");
	for (k = 0; k < TC_NSTATES; k++, x += 150)
		emit(c, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"%d\" fill=\"%s\"><title>%s</title></rect><text x=\"%d\" y=\"%d\">%s</text>\n",
			      x, y, BOX_H, state_colour[k], state_name[k],
			      x + 16, y + BOX_H - 2, state_name[k]);
	y += LANE_H;
	x = 4;
	for (k = 0; k < TC_NMARKS; k++, x += 150)
		emit(c, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s</title></rect><text x=\"%d\" y=\"%d\">%s%s</text>\n",
			      x, y + (k == TC_FAULT ? 8 : 4),
			      k == TC_FAULT ? 12 : 2, k == TC_FAULT ? 3 : 4,
			      mark_colour[k], mark_name[k], x + 16,
			      y + BOX_H - 2, mark_name[k],
			      k == TC_FAULT ? " (density)" : "");
	y += LANE_H;
	emit(c, "<text x=\"4\" y=\"%d\">CPU lanes: the colour of the process that ran longest in one stretch (as beside its name below), idle blank. Devices and RPC: requests in flight. Hover for details.</text>\n",
		      y + BOX_H - 2);
	return y + LANE_H;
}

/* The picture, with the columns in groups of L->g. */
static void render(struct chart *c, struct layout *L, struct task **order,
		   size_t shown, size_t n)
{
	unsigned int k;
	int y, height, rows = 0;
	char label[80];
	size_t i;

	L->drawn = L->used ? (L->used + L->g - 1) / L->g : 0;
	L->px = L->drawn ? (double)PLOT_W / (double)L->drawn : PLOT_W;
	/* rows of lanes and headings, for the height and the grid */
	for (k = 0; k < c->ncpus; k++)
		rows += c->cpus[k].lane != NULL;
	rows += (rows > 0) + 2 + (int)shown + (c->ndevs ? 1 + c->ndevs : 0) +
		(c->nrpcs ? 1 + c->nrpcs : 0);
	y = 48 + 14 * (int)notes(c, NULL, 0) + 30;
	height = y + rows * LANE_H + 8 + 4 * LANE_H;
	if (!c->dry)
		svg_begin(&c->w, LABEL_W + PLOT_W + 20, (unsigned int)height,
			  "lket-b2a timechart");
	header(c, &y, shown, n);
	L->plot_top = y + 30;
	L->y = L->plot_top;
	/* the grid first, under the lanes */
	draw_axis(c, L, L->plot_top + rows * LANE_H);
	if (c->ncpus) {
		L->y = heading(c, L->y, "CPUs");
		for (k = 0; k < c->ncpus; k++)
			if (c->cpus[k].lane)
				draw_cpu(c, L, k);
	}
	L->y = heading(c, L->y, "Processes (busiest first)");
	for (i = 0; i < shown; i++)
		draw_task(c, L, order[i]->lane, order[i], NULL);
	snprintf(label, sizeof(label), "others (%zu tasks)", n - shown);
	draw_task(c, L, c->others, NULL, label);
	if (c->ndevs) {
		L->y = heading(c, L->y, "Block devices (requests in flight)");
		for (k = 0; k < c->ndevs; k++) {
			snprintf(label, sizeof(label), "%s %d:%d",
				 c->devs[k].source == REQ_SCSI ?
				 "scsi" : "ioscheduler",
				 c->devs[k].major, c->devs[k].minor);
			draw_requests(c, L, c->devs[k].lane, "dev", label,
				      "#00838f");
		}
	}
	if (c->nrpcs) {
		L->y = heading(c, L->y, "RPC (calls in flight)");
		for (k = 0; k < c->nrpcs; k++) {
			snprintf(label, sizeof(label), "%s %s",
				 c->rpcs[k].server ? "served by" : "calls to",
				 c->rpcs[k].name);
			draw_requests(c, L, c->rpcs[k].lane, "rpc", label,
				      "#5e35b1");
		}
	}
	legend(c, L->y + 8);
	if (!c->dry)
		svg_end(&c->w);
}

int tchart_draw(struct chart *c)
{
	struct task **order = NULL;
	struct layout L = { 0 };
	size_t i, n = 0, shown;

	order = malloc((c->ntasks + 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < c->ntasks; i++)
		if (c->tasks[i].lane)
			order[n++] = &c->tasks[i];
	by_run = c->saw[LKET_EV_TASK_CTXSWITCH];
	qsort(order, n, sizeof(*order), cmp_busy);
	shown = n < c->procs ? n : c->procs;
	for (i = shown; i < n; i++)
		tc_lane_add(c->others, order[i]->lane);

	/*
	 * The finest columns whose picture fits the bound: drawn first
	 * only to count its bytes, then in groups of 2, 4... columns.  One
	 * column a lane always fits: the lanes are few (TC_MAX_*).
	 */
	L.used = tc_used(&c->tc);
	c->dry = true;
	for (L.g = 1; L.g < TC_COLUMNS; L.g *= 2) {
		c->bytes = TC_FRAME_MAX;
		render(c, &L, order, shown, n);
		if (c->bytes <= c->max_bytes)
			break;
	}
	c->dry = false;
	render(c, &L, order, shown, n);
	free(order);
	return 0;
}
