// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for lket-b2a's reader and decoder: the input is split
 * into two per-CPU files at a point its first byte chooses, and the whole
 * conversion runs on them into /dev/null.  Any crash, sanitizer report or
 * leak is a bug; damage reports are expected and ignored.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../b2a/convert.h"
#include "../../b2a/output.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct text_options opt = { .time = TIME_WALL };
	struct diag diag = { 0 };
	struct convert_stats stats;
	char p0[64], p1[64];
	const char *paths[2] = { p0, p1 };
	struct output *out;
	size_t split;
	int fd0, fd1, null;

	if (size < 1)
		return 0;
	split = size > 1 ? (size - 1) * data[0] / 255 : 0;
	fd0 = memfile(data + 1, split, p0, sizeof(p0));
	fd1 = memfile(data + 1 + split, size - 1 - split, p1, sizeof(p1));
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd0 >= 0 && fd1 >= 0 && null >= 0 &&
	    !output_text_new(&out, null, &opt)) {
		convert(paths, 2, out, &diag, &stats);
		out->free(out);
	}
	if (fd0 >= 0)
		close(fd0);
	if (fd1 >= 0)
		close(fd1);
	if (null >= 0)
		close(null);
	return 0;
}
