// SPDX-License-Identifier: GPL-2.0
/*
 * source.c - one host's trace as a source of events (source.h): open its
 * files, read their metadata ahead, then peek and step through the
 * merged records; each record is delivered by deliver.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/filter.h"
#include "input/tracename.h"
#include "pipeline/source_int.h"

/* Is an earlier rotated file of CPU cpu than number rotation given? */
static bool earlier_rotated(const char *const *paths, size_t npaths, int cpu,
			    int rotation)
{
	size_t i;
	int k;

	for (i = 0; i < npaths; i++) {
		k = tracename_rotation(paths[i]);
		if (k >= 0 && k < rotation && tracename_cpu(paths[i]) == cpu)
			return true;
	}
	return false;
}

/* Open every file once; a file seen twice (same inode, or same CPU). */
static size_t open_streams(const char *const *paths, size_t npaths,
			   struct stream *streams, struct diag *diag,
			   struct follow *follow)
{
	size_t window = WINDOW_TOTAL / (npaths ? npaths : 1);
	struct stat st;
	dev_t *devs = calloc(npaths ? npaths : 1, sizeof(*devs));
	ino_t *inos = calloc(npaths ? npaths : 1, sizeof(*inos));
	size_t i, j, n = 0;
	int ret, cpu, rotation;

	if (window > WINDOW_MAX)
		window = WINDOW_MAX;
	for (i = 0; i < npaths; i++) {
		/* "-" is standard input, whatever it is */
		if ((strcmp(paths[i], "-") ? stat(paths[i], &st) :
		     fstat(STDIN_FILENO, &st)) == 0) {
			for (j = 0; j < n && devs && inos; j++)
				if (devs[j] == st.st_dev && inos[j] == st.st_ino)
					break;
			if (devs && inos && j < n) {
				diagf(diag, DIAG_DAMAGE, paths[i], -1,
				      strcmp(paths[i], "-") ||
				      strcmp(streams[j].path, "-") ?
				      "same file as %s: read once" :
				      "standard input given twice: read once",
				      streams[j].path);
				continue;
			}
		}
		cpu = tracename_cpu(paths[i]);
		rotation = tracename_rotation(paths[i]);
		/* followed, a CPU's rotated files are read one after the
		   other by one stream, from the first given: the files its
		   writer makes meanwhile too (input/follow.h) */
		if (follow && rotation >= 0 &&
		    earlier_rotated(paths, npaths, cpu, rotation))
			continue;
		for (j = 0; cpu >= 0 && j < n; j++)
			if (streams[j].cpu == cpu &&
			    (streams[j].rotation < 0 || rotation < 0 ||
			     streams[j].rotation == rotation))
				break;
		if (cpu >= 0 && j < n) {
			diagf(diag, DIAG_DAMAGE, paths[i], -1,
			      "a second file for CPU %d (the first is %s): skipped",
			      cpu, streams[j].path);
			continue;
		}
		ret = stream_open_follow(&streams[n], paths[i], cpu, window,
					 diag, follow);
		streams[n].order = (unsigned int)n;
		streams[n].rotation = rotation;
		if (ret) {
			diagf(diag, DIAG_DAMAGE, paths[i], -1, "cannot read: %s",
			      strerror(-ret));
			continue;
		}
		if (devs && inos) {
			devs[n] = st.st_dev;
			inos[n] = st.st_ino;
		}
		n++;
	}
	free(devs);
	free(inos);
	/* of a CPU's rotated files, the first given holds the copies */
	for (i = 0; i < n; i++)
		for (j = 0; j < n && streams[i].rotation >= 0; j++)
			if (streams[j].cpu == streams[i].cpu &&
			    streams[j].rotation < streams[i].rotation)
				streams[i].skip_copies = true;
	return n;
}

int source_new(struct source **sp, struct output *out, struct diag *diag,
	       struct convert_stats *stats, const struct source_options *opt)
{
	struct source *c = calloc(1, sizeof(*c));
	int ret;

	*sp = NULL;
	if (!c)
		return -ENOMEM;
	c->out = out;
	c->diag = diag;
	c->stats = stats;
	c->opt = opt;
	c->filter = opt && opt->filter && opt->filter->active ? opt->filter :
		    NULL;
	c->report = opt ? opt->report : NULL;
	c->offcpu = opt ? opt->offcpu : NULL;
	c->critpath = opt ? opt->critpath : NULL;
	c->symbols = opt ? opt->symbols : NULL;
	c->host = opt ? opt->host : NULL;
	c->follow = opt ? opt->follow : NULL;
	c->ev.host = c->host;
	if (opt && opt->clock) {
		c->clock = *opt->clock;
		c->map = true;
	}
	if (opt && opt->scan) {
		c->scan = opt->scan;
		c->scan_ctx = opt->scan_ctx;
		c->scan_want = opt->scan_want;
		c->scan_skip = calloc(LKET_SKIP_BYTES, 1);
		if (!c->scan_skip) {
			free(c);
			return -ENOMEM;
		}
	}
	memset(stats, 0, sizeof(*stats));
	ret = meta_init(&c->meta);
	if (ret)
		goto out_free;
	ret = procmap_init(&c->procs);
	if (ret)
		goto out_meta;
	seqtrack_init(&c->seq, losses_on_gap, c);
	c->info.procs = &c->procs;
	c->info.critpath = c->critpath;
	*sp = c;
	return 0;
out_meta:
	meta_free(&c->meta);
out_free:
	free(c->scan_skip);
	free(c);
	return ret;
}

const struct trace_info *source_info(const struct source *c)
{
	return &c->info;
}

/* The current record of s onto the common time base. */
static inline void map_record(struct source *c, struct stream *s)
{
	if (c->map)
		s->rec.timestamp = source_clock_map(&c->clock,
						    s->rec.timestamp);
}

/*
 * Following a trace, a packet record that ends its flush: a live trace's
 * beacon (lket(5)), after which a quiet CPU's file may hold nothing else
 * until tracing stops.  Reading ahead for metadata stops there: it would
 * wait for that, and hold back every other CPU's events meanwhile.
 */
static bool at_beacon(const struct source *c, const struct stream *s)
{
	return c->follow && !s->pdu_left &&
	       LKET_ID_GROUP(s->rec.id) == LKET_GROUP_LKET &&
	       LKET_ID_HOOK(s->rec.id) == LKET_HOOK_PACKET;
}

/* The time of the first event is known: ts, as read.  0, or < 0. */
static int first_event_at(struct source *c, uint64_t ts)
{
	c->first_pending = false;
	c->info.first_ts = c->map ? source_clock_map(&c->clock, ts) : ts;
	return c->filter ? filter_prepare(c->filter, &c->info) : 0;
}

int source_open(struct source *c, const char *const *paths, size_t npaths)
{
	size_t alloc = npaths ? npaths : 1, i, k, n, header, nlive = 0;
	uint64_t first_ts = UINT64_MAX;
	struct stream *s;
	int ret;

	c->files = calloc(alloc, sizeof(*c->files));
	c->streams = calloc(alloc, sizeof(*c->streams));
	c->live = calloc(alloc, sizeof(*c->live));
	c->runs = calloc(alloc, sizeof(*c->runs));
	c->first = calloc(alloc, sizeof(*c->first));
	if (!c->files || !c->streams || !c->live || !c->runs || !c->first)
		return -ENOMEM;
	n = c->n = open_streams(paths, npaths, c->streams, c->diag,
				c->follow);
	c->stats->files = n;
	if (!n)
		return -ENOENT;
	for (i = 0; i < n; i++)
		c->rotated |= c->streams[i].rotation >= 0;
	/*
	 * Metadata first: each file's leading group-0 records, starting with
	 * the file whose first record is the trace header, which says how
	 * the flushes are numbered.
	 */
	for (i = 0; i < n; i++)
		c->first[i] = stream_next(&c->streams[i]);
	for (i = 0; i < n; i++)
		if (c->first[i] == 1 &&
		    LKET_ID_GROUP(c->streams[i].rec.id) == LKET_GROUP_LKET &&
		    LKET_ID_HOOK(c->streams[i].rec.id) == LKET_HOOK_TRACE_HEADER)
			break;
	header = i < n ? i : 0;
	for (k = 0; k < n; k++) {
		i = k == 0 ? header : k <= header ? k - 1 : k;
		s = &c->streams[i];
		for (ret = c->first[i]; ret == 1 && metarec_is_metadata(&s->rec) &&
		     !at_beacon(c, s); ret = stream_next(s)) {
			map_record(c, s);
			ret = deliver_record(c, s);
			if (ret)
				return ret;
		}
		if (ret < 0) {
			diagf(c->diag, DIAG_DAMAGE, s->path, -1,
			      "read error: %s", strerror(-ret));
			continue;
		}
		if (ret != 1)
			continue;
		c->live[nlive++] = s;
		/* at a beacon: this CPU's first event is still to come, and
		 * may be the trace's; the merge finds it (source_step()) */
		if (metarec_is_metadata(&s->rec))
			c->first_pending = true;
		else if (s->rec.timestamp < first_ts)
			first_ts = s->rec.timestamp;
	}
	for (i = 0; i < n; i++)
		c->files[i] = c->streams[i].first_path;
	c->info.files = c->files;
	c->info.nfiles = n;
	if (!c->first_pending) {
		ret = first_event_at(c, first_ts == UINT64_MAX ? 0 : first_ts);
		if (ret)
			return ret;
	}
	ret = merge_streams(&c->m, c->live, nlive);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		c->total = c->streams[i].sized && c->total != UINT64_MAX ?
			   c->total + c->streams[i].file_size : UINT64_MAX;
	return 0;
}

bool source_peek(const struct source *c, uint64_t *key)
{
	const struct stream *s = merge_peek(&c->m);

	if (!s)
		return false;
	*key = c->map ? source_clock_map(&c->clock, s->rec.key) : s->rec.key;
	return true;
}

int source_step(struct source *c)
{
	struct stream *s = merge_peek(&c->m);
	int ret;

	if (!s)
		return 0;
	if (c->first_pending && !metarec_is_metadata(&s->rec)) {
		ret = first_event_at(c, s->rec.timestamp);
		if (ret)
			return ret;
	}
	map_record(c, s);
	ret = deliver_record(c, s);
	if (ret)
		return ret;
	/* the streams' next, inline: the hot path */
	ret = merge_advance_with(&c->m, merge_stream_next);
	if (ret)
		diagf(c->diag, DIAG_DAMAGE, s->path, -1, "read error: %s",
		      strerror(-ret));
	return 0;
}

int source_scan(struct source *c)
{
	struct stream *s;
	size_t i;
	int ret = 0;

	/* the heap holds every stream with a record left, in no order */
	for (i = 0; !ret && i < c->m.n; i++) {
		s = c->m.heap[i].src;
		s->skip = c->scan_skip;
		do {
			ret = 0;
			if (LKET_ID_GROUP(s->rec.id) == LKET_GROUP_LKET)
				metarec_apply(c, s);
			else if (!(s->rec.flags & LKET_RECORD_COPY))
				ret = deliver_scan(c, s);
		} while (!ret && !c->error && (ret = stream_next(s)) == 1);
		if (ret == 1 || ret == 0)
			ret = c->error;
		else if (ret < 0 && ret != -ENOMEM)
			ret = 0;	/* a read error: the second pass says it */
	}
	c->m.n = 0;
	return ret;
}

void source_progress(const struct source *c, uint64_t *done, uint64_t *total)
{
	size_t i;

	for (*done = 0, i = 0; i < c->n; i++)
		*done += c->streams[i].done_bytes + c->streams[i].buf_off +
			 c->streams[i].pos;
	*total = c->total == UINT64_MAX ? 0 : c->total;
}

/*
 * The files read that neither start as LKET's do (a flush, or a record)
 * nor hold a record of LKET's (that the trace's metadata, or LKET's
 * catalogue, decodes): not a trace, said.  When no file given is LKET's
 * (and one is not empty), what was given is no trace: -ENOMSG, and
 * nothing is written.
 */
static int check_traces(struct source *c)
{
	bool lket = false, other = false;
	struct stream *s;
	size_t i;

	for (i = 0; i < c->n; i++) {
		s = &c->streams[i];
		lket |= s->lket_seen || s->starts_lket;
		if (s->lket_seen || s->starts_lket ||
		    !(s->done_bytes + s->buf_off + s->len))
			continue;
		other = true;
		/* the whole file garbage: said when it was read */
		if (!s->no_flush)
			diagf(c->diag, DIAG_DAMAGE, s->path, -1,
			      "not a trace: it starts with no LKET flush nor record, and none of what read as records in it is LKET's");
	}
	return !lket && other ? -ENOMSG : 0;
}

int source_finish(struct source *c)
{
	losses_finish(c);
	if (!c->error && !c->scan)
		c->error = check_traces(c);
	return c->error;
}

void source_free(struct source *c)
{
	size_t i;

	if (!c)
		return;
	merge_free(&c->m);
	for (i = 0; i < c->n; i++) {
		c->stats->bytes += c->streams[i].sized ?
				   c->streams[i].file_size :
				   c->streams[i].done_bytes +
				   c->streams[i].buf_off + c->streams[i].len;
		stream_close(&c->streams[i]);
	}
	free(c->scan_skip);
	procmap_free(&c->procs);
	meta_free(&c->meta);
	meta_free(&c->fallback);
	free(c->first);
	free(c->runs);
	free(c->files);
	free(c->live);
	free(c->streams);
	free(c);
}
