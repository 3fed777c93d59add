// SPDX-License-Identifier: GPL-2.0
/*
 * main: whole runs through b2a_run(), each in a child of its own (getopt
 * keeps its state in the process): exit statuses, and what a run writes
 * and says.
 */
#include "unit.h"

#include <sys/wait.h>

#include "main.h"

/* One flush (SystemTap 5 framing) of a syscall.return of tid 100 on
 * CPU 0 at 2 s, which the catalogue describes */
static const uint8_t rec_return[] = {
	0xf0, 0x9f, 0xa9, 0xba,		/* flush magic */
	LE32(1), LE32(37),		/* sequence, pdu_len */
	LE16(LKET_RECORD_MAGIC),	/* magic */
	LE16(37),			/* total_size */
	LE16(37),			/* sys_size */
	LE16(0),			/* flags */
	LE64(2000000000ull),		/* timestamp */
	LE64(LKET_ID(100, 1, 2, 0)),	/* id: tid 100, 1:2, CPU 0 */
	'r', 'e', 'a', 'd', 0,		/* syscall_name */
	LE64(12),			/* return */
};

/* Run lket-b2a ARGS... in a child, its standard error into err; the exit
 * status. */
static int run(char *err, size_t size, ...)
{
	char *argv[16], path[PATH_MAX_UNIT];
	va_list ap;
	int argc = 0, status, fd;
	ssize_t n;
	pid_t pid;

	argv[argc++] = "lket-b2a";
	va_start(ap, size);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	snprintf(path, sizeof(path), "%s/stderr", unit_dir);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0 ||
		    !freopen("/dev/null", "w", stdout))
			_exit(99);
		_exit(b2a_run(argc, argv));
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = read(fd, err, size - 1);
	close(fd);
	err[n > 0 ? n : 0] = '\0';
	return WEXITSTATUS(status);
}

static void test_options(void **state)
{
	char err[1024];

	(void)state;
	assert_int_equal(run(err, sizeof(err), "--version", NULL), 0);
	assert_string_equal(err, "");
	assert_int_equal(run(err, sizeof(err), "--x", NULL), 2);
	assert_string_equal(err,
		"lket-b2a: unrecognized option '--x'\n"
		"Try 'lket-b2a --help' for more information.\n");
	assert_int_equal(run(err, sizeof(err), "-t", "when", NULL), 2);
	assert_string_equal(err,
		"lket-b2a: -t takes abs, rel, wall or raw, not when\n");
	assert_int_equal(run(err, sizeof(err), "-d", "-", NULL), 2);
	assert_string_equal(err,
		"lket-b2a: -d -: a database cannot go to standard output; name a file\n");
}

static void test_convert(void **state)
{
	char in[PATH_MAX_UNIT], out[PATH_MAX_UNIT], err[1024], text[256];
	ssize_t n;
	int fd;

	(void)state;
	unit_write(in, sizeof(in), "t_0", rec_return, sizeof(rec_return));
	snprintf(out, sizeof(out), "%s/lket.out", unit_dir);
	/* no metadata: decoded with the catalogue's, which is a note */
	assert_int_equal(run(err, sizeof(err), "-q", "-t", "raw", "-o", out,
			     in, NULL), 0);
	assert_string_equal(err, "");
	fd = open(out, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	assert_true(n > 0);
	text[n] = '\0';
	assert_string_equal(text,
		"2000000000 0 100 - - syscall.return syscall_name=\"read\" return=12\n");
	/* an output that is the input: refused, nothing written */
	assert_int_equal(run(err, sizeof(err), "-o", in, in, NULL), 2);
	assert_non_null(strstr(err, "that is the input file"));
	/* nothing to read */
	snprintf(in, sizeof(in), "%s/none_0", unit_dir);
	assert_int_equal(run(err, sizeof(err), "-o", out, in, NULL), 2);
	assert_non_null(strstr(err,
			       "lket-b2a: no trace file could be read\n"));
}

UNIT_MAIN("main", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_options), UNIT_TEST(test_convert))
