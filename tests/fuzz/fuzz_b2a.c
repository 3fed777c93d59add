// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for lket-b2a's reader, decoder and outputs: the input's
 * first byte chooses the output (text, text with --delta, JSON Lines, CSV,
 * the --stat summary or the --timechart SVG into /dev/null, or SQLite
 * into a temporary file removed afterwards), its second byte where the
 * rest is split into two per-CPU files, and the whole conversion runs
 * on them.  Any crash, sanitizer report or leak is a bug; damage reports
 * and refusals are expected and ignored.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../b2a/convert.h"
#include "../../b2a/output.h"

enum {
	OUT_TEXT, OUT_JSON, OUT_CSV, OUT_SQLITE, OUT_DELTA, OUT_STAT,
	OUT_TIMECHART, OUT_COUNT
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

/* The output the first byte asks for; *made: db was created, to remove. */
static int make_output(struct output **out, uint8_t which, int null,
		       struct sqlite_options *sq, char *db, bool *made)
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
	struct convert_stats stats;
	char p0[64], p1[64], db[] = "/tmp/lket-fuzz-XXXXXX";
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
	if (fd0 >= 0 && fd1 >= 0 && null >= 0 &&
	    !make_output(&out, data[0], null, &sq, db, &made)) {
		convert(paths, 2, out, &diag, &stats);
		out->ops->free(out);
	}
	if (made)
		unlink(db);
	if (fd0 >= 0)
		close(fd0);
	if (fd1 >= 0)
		close(fd1);
	if (null >= 0)
		close(null);
	return 0;
}
