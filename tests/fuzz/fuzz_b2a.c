// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for lket-b2a's reader, decoder and outputs: the input's
 * first byte chooses the output (text, text with --delta, JSON Lines, CSV,
 * the --stat summary, the --timechart SVG and the --report latency
 * report into /dev/null, SQLite into a temporary file, CTF into a
 * temporary folder, both removed afterwards, or the Perfetto trace into
 * /dev/null), its second byte where the
 * rest is split into two per-CPU files, and the whole conversion runs on
 * them.  Any crash, sanitizer report or leak is a bug; damage reports and
 * refusals are expected and ignored.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis/report.h"
#include "output/chart/chart.h"
#include "output/ctf/ctf.h"
#include "output/db/db.h"
#include "output/line/line.h"
#include "output/output.h"
#include "output/perfetto/perfetto.h"
#include "pipeline/convert.h"

enum {
	OUT_TEXT, OUT_JSON, OUT_CSV, OUT_SQLITE, OUT_DELTA, OUT_STAT,
	OUT_TIMECHART, OUT_REPORT, OUT_CTF, OUT_PERFETTO,
	OUT_COUNT
};

static int memfile(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("lket-fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	/* "_N" makes it the file of CPU N */
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* Removes the folder of a CTF export and the files in it. */
static void remove_dir(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (d) {
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			/* the CTF layout has a folder in it: kernel/ */
			if (unlink(path) && errno == EISDIR)
				remove_dir(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

/*
 * The output the first byte asks for; *made: db (a file) or ctf (a
 * folder) was created, to remove.
 */
static int make_output(struct output **out, uint8_t which, int null,
		       struct sqlite_options *sq, char *db, char *ctf,
		       bool *made)
{
	static const struct text_options opt = { .time = TIME_WALL };
	static const struct text_options delta = { .time = TIME_REL,
						   .delta = true };
	int fd;

	switch (which % OUT_COUNT) {
	case OUT_JSON:
		return output_json_new(out, null, &opt);
	case OUT_CSV:
		return output_csv_new(out, null, &opt);
	case OUT_DELTA:
		return output_text_new(out, null, &delta);
	case OUT_STAT:
		return output_stat_new(out, null, &opt);
	case OUT_TIMECHART:
		return output_timechart_new(out, null, 4, 0);
	case OUT_PERFETTO:
		return output_perfetto_new(out, null, "/dev/null", NULL);
	case OUT_CTF:
		if (!mkdtemp(ctf))
			return -1;
		*made = true;
		return output_ctf_new(out, ctf, true, NULL);
	case OUT_SQLITE:
		fd = mkstemp(db);
		if (fd < 0)
			return -1;
		close(fd);
		*made = true;
		sq->path = db;
		sq->file = db;
		sq->replace = true;
		return output_sqlite_new(out, sq);
	default:
		return output_text_new(out, null, &opt);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag diag = { 0 };
	struct sqlite_options sq = { .diag = &diag };
	struct convert_options copt = { 0 };
	struct convert_stats stats;
	char p0[64], p1[64], db[] = "/tmp/lket-fuzz-XXXXXX";
	char ctf[] = "/tmp/lket-fuzz-ctf-XXXXXX";
	const char *paths[2] = { p0, p1 };
	struct output *out;
	size_t split;
	bool made = false;
	int fd0, fd1, null;

	if (size < 2)
		return 0;
	split = size > 2 ? (size - 2) * data[1] / 255 : 0;
	fd0 = memfile(data + 2, split, p0, sizeof(p0));
	fd1 = memfile(data + 2 + split, size - 2 - split, p1, sizeof(p1));
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	/* the latency report goes with the text output, as --report */
	if (data[0] % OUT_COUNT == OUT_REPORT && report_new(&copt.report))
		copt.report = NULL;
	if (fd0 >= 0 && fd1 >= 0 && null >= 0 &&
	    !make_output(&out, data[0], null, &sq, db, ctf, &made)) {
		if (!convert_ex(paths, 2, out, &diag, &stats, &copt) &&
		    copt.report)
			report_write(copt.report, null);
		out->ops->free(out);
	}
	report_free(copt.report);
	if (made && data[0] % OUT_COUNT == OUT_CTF)
		remove_dir(ctf);
	else if (made)
		unlink(db);
	if (fd0 >= 0)
		close(fd0);
	if (fd1 >= 0)
		close(fd1);
	if (null >= 0)
		close(null);
	return 0;
}
