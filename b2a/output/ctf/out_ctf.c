// SPDX-License-Identifier: GPL-2.0
/*
 * out_ctf.c - a CTF 1.8 trace directory (lket-b2a --ctf DIR) that
 * babeltrace2 reads, laid out as an LTTng session's kernel trace:
 * DIR/kernel/metadata (TSDL text) and one data stream file per CPU,
 * DIR/kernel/stream_N.
 *
 * Streams go out packet by packet (CTF_PACKET bytes, more for an event
 * that does not fit in one), so that memory stays flat however long the
 * trace.  The metadata is written last, at finish, when every event class
 * is known: one per (group, hook) seen, named as LKET names it with '.'
 * made '_' (syscall.entry is syscall_entry), with its decoded fields.  An
 * event whose record did not match its metadata (bytes left over, fields
 * missing) is of another class of the same name: the fields that could
 * be decoded, then the undecoded bytes, _raw (one class per number of
 * fields decoded); an event without metadata is unknown_G_H, only _raw.
 * System calls have a class each, as LTTng's (syscall_entry_NAME), up to
 * CTF_SYSCALL_CLASSES; those past it are of LKET's own class.
 * Integers are signed, but for those LKET shows in hex (unsigned, base
 * 16); every field name is prefixed with '_', which babeltrace2 removes,
 * so that no name clashes with a TSDL keyword.
 *
 * The trace is written in a new folder beside DIR (DIR.tmp-XXXXXX,
 * tmpfile.h's) and put in place at finish, so that a failed or
 * interrupted export leaves nothing, and what was at DIR stays as it
 * was.  DIR may be missing or empty; a trace already there (kernel/
 * holding metadata and stream_N alone, or those files in DIR itself, as
 * LKET wrote them before) is replaced with --replace and refused without;
 * anything else there is refused.
 *
 * An event earlier than the one before it on its CPU (time went back)
 * is written with that one's time, as readers want a stream's time
 * never to go back; how many, a note at finish.
 *
 * Lost flushes and dropped records add to events_discarded of the CPU's
 * stream (a running total, as CTF counts it); lost flushes of no one CPU
 * (format version 1) count on CPU 0's.  A total that no later packet
 * carries gets an empty packet of its own at finish.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/ctf/ctf.h"
#include "output/ctf/ctf_int.h"
#include "output/registry.h"
#include "util/diag.h"
#include "util/tmpfile.h"

/* Say what failed, for error(): the path and the errno's words. */
int ctf_fail(struct ctf *c, const char *path, int err)
{
	text_printf(&c->failure, "--ctf %s: %s", path, strerror(err));
	return -err;
}

int ctf_failf(struct ctf *c, int err, const char *fmt, ...)
{
	char *what = NULL;
	va_list ap;

	va_start(ap, fmt);
	text_vprintf(&what, fmt, ap);
	va_end(ap);
	if (what)
		text_printf(&c->failure, "--ctf %s: %s", c->dir, what);
	free(what);
	return -err;
}

static const char *ctf_error(const struct output *o)
{
	const struct ctf *c = (const struct ctf *)o;

	return c->failure;
}

static bool is_trace_file(const char *n)
{
	if (!strcmp(n, "metadata"))
		return true;
	return !strncmp(n, "stream_", 7) && n[7] &&
	       strspn(n + 7, "0123456789") == strlen(n + 7);
}

/*
 * What is at path: 0 nothing or an empty folder, 1 a trace of ours
 * (metadata and stream_N alone; at the top, also the folder kernel
 * holding those alone), -ENOTEMPTY something else, -ENOTDIR not a
 * folder, or another negative errno.
 */
static int ctf_dir_state(const char *path, bool top)
{
	struct dirent *e;
	bool any = false, other = false;
	DIR *d = opendir(path);
	char *sub;
	int ret;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!other && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		any = true;
		if (is_trace_file(e->d_name))
			continue;
		if (!top || strcmp(e->d_name, CTF_SUBDIR)) {
			other = true;
			continue;
		}
		sub = malloc(strlen(path) + sizeof("/" CTF_SUBDIR));
		if (!sub) {
			closedir(d);
			return -ENOMEM;
		}
		sprintf(sub, "%s/" CTF_SUBDIR, path);
		ret = ctf_dir_state(sub, false);
		free(sub);
		if (ret == -ENOMEM) {
			closedir(d);
			return ret;
		}
		other = ret < 0;
	}
	closedir(d);
	return other ? -ENOTEMPTY : any;
}

/* Remove a trace folder of ours: its files, its kernel folder's, then
 * the folders. */
static void ctf_remove(const char *path)
{
	struct dirent *e;
	DIR *d = opendir(path), *k;
	int fd;

	if (!d)
		return;
	fd = openat(dirfd(d), CTF_SUBDIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	k = fd >= 0 ? fdopendir(fd) : NULL;
	if (!k && fd >= 0)
		close(fd);
	while (k && (e = readdir(k)))
		if (is_trace_file(e->d_name))
			unlinkat(dirfd(k), e->d_name, 0);
	if (k)
		closedir(k);
	unlinkat(dirfd(d), CTF_SUBDIR, AT_REMOVEDIR);
	while ((e = readdir(d)))
		if (is_trace_file(e->d_name))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(path);
}

static int ctf_begin(struct output *o, const struct trace_info *trace)
{
	struct ctf *c = (struct ctf *)o;
	int state = ctf_dir_state(c->dir, true), ret;

	c->trace = trace;
	if (state == -ENOTEMPTY)
		return ctf_failf(c, ENOTEMPTY,
				 "holds files other than a CTF trace's: name a new or empty folder");
	if (state == -ENOTDIR)
		return ctf_failf(c, ENOTDIR, "not a folder");
	if (state < 0)
		return ctf_fail(c, c->dir, -state);
	if (state == 1 && !c->replace)
		return ctf_failf(c, EEXIST,
				 "holds a trace already: give --replace to overwrite it");
	c->dir_is_trace = state == 1;
	/* a signal removes it, with what is written in it */
	ret = tmpdir_make(&c->tmp, c->dir);
	if (!ret)
		ret = tmpdir_subdir(&c->tmp, CTF_SUBDIR);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return ctf_failf(c, -ret, "cannot make a folder beside it: %s",
				 strerror(-ret));
	return 0;
}

/*
 * Move the trace at dir into a new folder made from the template old
 * (empty: rename() replaces it).  0, or a negative errno, nothing made.
 */
static int ctf_aside(const char *dir, char *old)
{
	int err;

	if (!mkdtemp(old))
		return -errno;
	if (!rename(dir, old))
		return 0;
	err = errno;
	rmdir(old);
	return -err;
}

/*
 * The finished trace from c->tmp to c->dir, and the one it replaces out;
 * the signals wait meanwhile: they find at c->dir the old trace or the
 * new, and no folder beside it.
 */
static int ctf_place(struct ctf *c)
{
	char *old = NULL;
	sigset_t mask;
	int ret = 0;

	if (c->dir_is_trace) {
		old = malloc(strlen(c->dir) + sizeof(".old-XXXXXX"));
		if (!old)
			return -ENOMEM;
		sprintf(old, "%s.old-XXXXXX", c->dir);
	}
	tmpfile_hold_signals(&mask);
	if (old)
		ret = ctf_aside(c->dir, old);
	if (ret) {
		ret = ctf_failf(c, -ret, "cannot move the old trace aside: %s",
				strerror(-ret));
	} else {
		ret = tmpdir_commit(&c->tmp, c->dir);
		if (ret) {
			ret = ctf_fail(c, c->dir, -ret);
			if (old)
				rename(old, c->dir);
		} else if (old) {
			ctf_remove(old);
		}
	}
	tmpfile_release_signals(&mask);
	free(old);
	return ret;
}

static int ctf_finish(struct output *o)
{
	struct ctf *c = (struct ctf *)o;
	const char *path;
	size_t i;
	FILE *f;
	int ret;

	for (i = 0; i < c->nstreams; i++) {
		struct ctf_stream *s = &c->streams[i];

		if (s->clamped && c->diag)
			diagf(c->diag, DIAG_NOTE, c->dir, -1,
			      "%llu event%s of CPU %zu earlier than the one before %s on that CPU (time went back): written with that event's time",
			      (unsigned long long)s->clamped,
			      s->clamped == 1 ? "" : "s", i,
			      s->clamped == 1 ? "it" : "them");
		if (s->fd < 0 || (!s->events && !s->pending &&
				  s->last_ts >= c->last_ts))
			continue;
		/* to the end of the trace: a packet without events if the
		 * last one went out full */
		if (!s->events && !s->pending)
			s->first_ts = s->last_ts;
		if (s->last_ts < c->last_ts)
			s->last_ts = c->last_ts;
		ret = ctf_packet_out(c, s, (unsigned int)i);
		if (ret)
			return ret;
	}
	ret = tmpdir_file(&c->tmp, CTF_SUBDIR "/metadata", &path);
	if (ret)
		return ret;
	f = fopen(path, "we");
	if (!f)
		return ctf_fail(c, path, errno);
	ctf_metadata(c, f);
	if (ferror(f)) {
		fclose(f);
		return ctf_fail(c, path, EIO);
	}
	if (fclose(f))
		return ctf_fail(c, path, errno);
	for (i = 0; i < c->nstreams; i++) {
		struct ctf_stream *s = &c->streams[i];

		if (s->fd >= 0 && fsync(s->fd))
			return ctf_fail(c, c->dir, errno);
	}
	return ctf_place(c);
}

static void ctf_free(struct output *o)
{
	struct ctf *c = (struct ctf *)o;
	size_t i;

	for (i = 0; i < c->nstreams; i++) {
		if (c->streams[i].fd >= 0)
			close(c->streams[i].fd);
		free(c->streams[i].buf);
	}
	/* not put in place: a failed export leaves nothing */
	tmpdir_discard(&c->tmp);
	free(c->streams);
	for (i = 0; i < c->nclasses; i++) {
		free(c->classes[i].syscall);
		free(c->classes[i].lttng_from);
	}
	ctf_call_names_free(c);
	free(c->syscalls.slots);
	free(c->classes);
	free(c->class_id);
	free(c->dir);
	free(c->failure);
	free(c);
}

int output_ctf_new(struct output **o, const char *dir, bool replace,
		   struct diag *diag)
{
	static const struct output_ops ctf_ops = {
		.begin = ctf_begin,
		.event = ctf_event,
		.lost = ctf_lost,
		.task = ctf_event,
		.finish = ctf_finish,
		.error = ctf_error,
		.free = ctf_free,
	};
	struct ctf *c = calloc(1, sizeof(*c));
	size_t i;

	if (!c)
		return -ENOMEM;
	c->o.ops = &ctf_ops;
	c->replace = replace;
	c->diag = diag;
	c->dir = strdup(dir);
	/* DIR/ is DIR: the temporary folder goes beside it */
	while (c->dir && strlen(c->dir) > 1 && c->dir[strlen(c->dir) - 1] == '/')
		c->dir[strlen(c->dir) - 1] = '\0';
	c->class_id = calloc(CTF_CLASSES, sizeof(*c->class_id));
	if (!c->dir || !c->class_id) {
		ctf_free(&c->o);
		return -ENOMEM;
	}
	for (i = 0; i < LKET_NR_EVENTS; i++)
		c->call_of_return[i] = lttng_syscall_of_return((int)i);
	if (getrandom(c->uuid, sizeof(c->uuid), 0) != sizeof(c->uuid))
		memset(c->uuid, 0x4c, sizeof(c->uuid));
	c->uuid[6] = (uint8_t)((c->uuid[6] & 0x0f) | 0x40);
	c->uuid[8] = (uint8_t)((c->uuid[8] & 0x3f) | 0x80);
	*o = &c->o;
	return 0;
}

static int ctf_create(struct output **o, const struct output_args *a)
{
	return output_ctf_new(o, a->path, a->set->replace, a->set->diag);
}

const struct output_decl output_ctf_decl = {
	.option = "ctf", .arg = "DIR",
	.help =
"      --ctf DIR  write a CTF 1.8 trace (babeltrace2, Trace Compass) in DIR\n"
"                 (no lket.out unless -o or -f; so too --timechart and\n"
"                 --histogram)\n",
	.target = OUTPUT_FOLDER,
	.one_host = true,
	.create = ctf_create,
};
