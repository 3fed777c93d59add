/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit.h - what the lket-b2a unit tests share: byte-order macros for
 * writing fixtures field by field, a temporary directory to put fixture
 * files in, and a diag sink that remembers every report.
 *
 * Fixtures are written as byte arrays, one field a line:
 *
 *	LE16(LKET_RECORD_MAGIC),	-- magic
 *	LE16(32),			-- total_size
 *
 * LE16() and friends expand to the field's bytes, least significant first;
 * BE16() and friends most significant first.
 */
#ifndef LKET_UNIT_H
#define LKET_UNIT_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/diag.h"
#include "../../runtime/lket_format.h"

#define BYTE(x, n)	((uint8_t)(((uint64_t)(x) >> (8 * (n))) & 0xff))

#define LE16(x)	BYTE(x, 0), BYTE(x, 1)
#define LE32(x)	BYTE(x, 0), BYTE(x, 1), BYTE(x, 2), BYTE(x, 3)
#define LE64(x)	BYTE(x, 0), BYTE(x, 1), BYTE(x, 2), BYTE(x, 3), \
		BYTE(x, 4), BYTE(x, 5), BYTE(x, 6), BYTE(x, 7)
#define BE16(x)	BYTE(x, 1), BYTE(x, 0)
#define BE32(x)	BYTE(x, 3), BYTE(x, 2), BYTE(x, 1), BYTE(x, 0)
#define BE64(x)	BYTE(x, 7), BYTE(x, 6), BYTE(x, 5), BYTE(x, 4), \
		BYTE(x, 3), BYTE(x, 2), BYTE(x, 1), BYTE(x, 0)

/* Little-endian fixtures read without swapping on this host? */
static inline bool host_big_endian(void)
{
	return __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
}

/* ---- a test program ------------------------------------------------------ */

#define UNIT_TEST(f)	cmocka_unit_test(f)

/* main(): the group's name, its setup and teardown (or NULL), its tests
 * (UNIT_TEST(f) each). */
#define UNIT_MAIN(name, setup, teardown, ...)				\
	int main(void)							\
	{								\
		const struct CMUnitTest tests_[] = { __VA_ARGS__ };	\
									\
		return cmocka_run_group_tests_name(name, tests_, setup,	\
						   teardown);		\
	}

/* ---- a temporary directory for fixture files ---------------------------- */

#define PATH_MAX_UNIT	256

static char unit_dir[64];

static inline int unit_dir_setup(void **state)
{
	(void)state;
	strcpy(unit_dir, "/tmp/lket-unit-XXXXXX");
	return mkdtemp(unit_dir) ? 0 : -1;
}

static inline int unit_remove_one(const char *path, const struct stat *st,
				  int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path) ? -1 : 0;
}

/* The test folder and everything in it, folders too (a CTF trace's). */
static inline int unit_dir_teardown(void **state)
{
	(void)state;
	return nftw(unit_dir, unit_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Write len bytes to unit_dir/name; the path is returned in path. */
/* The file name in the test folder read into buf (NUL-terminated, at
 * most size - 1 bytes); how many bytes. */
static inline size_t unit_read(const char *name, char *buf, size_t size)
{
	char path[PATH_MAX_UNIT];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", unit_dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = read(fd, buf, size - 1);
	assert_true(n >= 0);
	buf[n] = '\0';
	close(fd);
	return (size_t)n;
}

static inline void unit_write(char *path, size_t size, const char *name,
			      const void *data, size_t len)
{
	int fd;

	snprintf(path, size, "%s/%s", unit_dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

/* ---- a diag sink that remembers ---------------------------------------- */

#define DIAG_LOG_MAX	16

struct diag_entry {
	enum diag_level level;
	char file[PATH_MAX_UNIT];
	int64_t offset;
	char msg[8192];		/* room for every message a test makes */
};

struct diag_log {
	struct diag d;		/* first: report() gets &log->d */
	unsigned int n;
	struct diag_entry e[DIAG_LOG_MAX];
};

static inline void diag_log_report(struct diag *d, enum diag_level level,
				   const char *file, int64_t offset,
				   const char *msg)
{
	struct diag_log *log = (struct diag_log *)d;
	struct diag_entry *e;

	assert_true(log->n < DIAG_LOG_MAX);
	e = &log->e[log->n++];
	e->level = level;
	snprintf(e->file, sizeof(e->file), "%s", file ? file : "");
	e->offset = offset;
	snprintf(e->msg, sizeof(e->msg), "%s", msg);
}

static inline void diag_log_init(struct diag_log *log)
{
	memset(log, 0, sizeof(*log));
	log->d.report = diag_log_report;
}

/* Assert that report i is exactly this. */
static inline void assert_diag(const struct diag_log *log, unsigned int i,
			       enum diag_level level, const char *file,
			       int64_t offset, const char *msg)
{
	assert_true(i < log->n);
	assert_int_equal(log->e[i].level, level);
	assert_string_equal(log->e[i].file, file);
	assert_int_equal(log->e[i].offset, offset);
	assert_string_equal(log->e[i].msg, msg);
}

#endif
