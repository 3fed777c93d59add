// SPDX-License-Identifier: GPL-2.0
/*
 * follow: waiting at the end of a file its writer still has open, its end
 * when the writer closes it, and the stop at SIGINT.  The writer is a
 * thread of this test: an open descriptor for writing is a writer,
 * whoever holds it.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include "unit.h"

#include "input/follow.h"

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&t, NULL);
}

static int idles;

static void count_idle(void *ctx)
{
	(void)ctx;
	idles++;
}

/* The writer: 10 bytes after 50 ms, then closes after 50 ms more. */
static void *writer(void *arg)
{
	int fd = *(int *)arg;

	sleep_ms(50);
	assert_int_equal(write(fd, "0123456789", 10), 10);
	sleep_ms(50);
	close(fd);
	return NULL;
}

static struct diag_log log_;
static struct follow follow = {
	.idle = count_idle, .interval_ms = 5, .diag = &log_.d,
};

/* An empty file's reader (returned) and writer (*wfd); skipped where
 * leases cannot be taken (a file system without them, a user who may
 * not). */
static int open_file(const char *name, int *wfd)
{
	char path[PATH_MAX_UNIT];
	int fd;

	unit_write(path, sizeof(path), name, "", 0);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	if (fcntl(fd, F_SETLEASE, F_RDLCK)) {
		print_message("no read lease on %s (%s): skipped\n", path,
			      strerror(errno));
		close(fd);
		skip();
	}
	fcntl(fd, F_SETLEASE, F_UNLCK);
	*wfd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	assert_true(*wfd >= 0);
	diag_log_init(&log_);
	idles = 0;
	return fd;
}

/* Waits while the writer has it open: grown, then done at its close. */
static void test_grows_then_done(void **state)
{
	pthread_t t;
	int wfd, fd = open_file("grows", &wfd);

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, writer, &wfd), 0);
	assert_int_equal(follow_wait(&follow, fd, "grows", 0), 1);
	/* the output written out once, before the first sleep */
	assert_int_equal(idles, 1);
	assert_int_equal(follow_wait(&follow, fd, "grows", 10), 0);
	assert_int_equal(idles, 2);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(log_.n, 0);
	close(fd);
}

/* Grown already: no wait; no writer: done at once. */
static void test_no_wait(void **state)
{
	int wfd, fd = open_file("quick", &wfd);

	(void)state;
	assert_int_equal(write(wfd, "ab", 2), 2);
	assert_int_equal(follow_wait(&follow, fd, "quick", 1), 1);
	close(wfd);
	assert_int_equal(follow_wait(&follow, fd, "quick", 2), 0);
	assert_int_equal(idles, 0);
	close(fd);
}

/* A file cut shorter than what was read: said, and done. */
static void test_cut(void **state)
{
	int wfd, fd = open_file("cut", &wfd);

	(void)state;
	assert_int_equal(write(wfd, "abcd", 4), 4);
	assert_int_equal(ftruncate(wfd, 0), 0);
	assert_int_equal(follow_wait(&follow, fd, "cut", 4), 0);
	assert_diag(&log_, 0, DIAG_DAMAGE, "cut", 0,
		    "cut to 0 bytes while read (a new trace written over it?): read no further");
	close(wfd);
	close(fd);
}

static void *close_late(void *arg)
{
	sleep_ms(500);
	close(*(int *)arg);
	return NULL;
}

/*
 * A rotated trace's file is done when the next file of its CPU is there,
 * its writer's descriptor still open: lket-rotate makes the next file
 * first, then closes this one.
 */
static void test_rotated_done(void **state)
{
	struct timespec t0, t1;
	char path[PATH_MAX_UNIT], next[PATH_MAX_UNIT];
	pthread_t t;
	int wfd, fd = open_file("w_0.3", &wfd);
	long ms;

	(void)state;
	unit_write(next, sizeof(next), "w_0.4", "", 0);
	snprintf(path, sizeof(path), "%s/w_0.3", unit_dir);
	/* a reader that waited for the close would wait 500 ms */
	assert_int_equal(pthread_create(&t, NULL, close_late, &wfd), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(follow_wait(&follow, fd, path, 0), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	assert_true(ms < 250);
	assert_int_equal(pthread_join(t, NULL), 0);
	close(fd);
}

/* The next file of a rotated file's CPU: the lowest number above its,
 * of its name and CPU; none for the last, nor for other names. */
static void test_next_file(void **state)
{
	static const char *const names[] = {
		"n_0.2", "n_0.5", "n_0.12", "n_1.3", "m_0.4", "n_0.x", "nn_0.3",
	};
	char path[PATH_MAX_UNIT], *next;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unit_write(path, sizeof(path), names[i], "", 0);
	snprintf(path, sizeof(path), "%s/n_0.2", unit_dir);
	next = follow_next_file(path);
	assert_non_null(next);
	/* 3 and 4 deleted (or not made): 5 */
	snprintf(path, sizeof(path), "%s/n_0.5", unit_dir);
	assert_string_equal(next, path);
	free(next);
	next = follow_next_file(path);
	snprintf(path, sizeof(path), "%s/n_0.12", unit_dir);
	assert_string_equal(next, path);
	free(next);
	assert_null(follow_next_file(path));
	snprintf(path, sizeof(path), "%s/n_1.3", unit_dir);
	assert_null(follow_next_file(path));
	snprintf(path, sizeof(path), "%s/n_0", unit_dir);
	assert_null(follow_next_file(path));
}

static int before_calls;

static void before(int sig)
{
	(void)sig;
	before_calls++;
}

/* SIGINT stops following, once: the handler before takes the next.
 * Last: the stop is for good. */
static void test_stop(void **state)
{
	struct sigaction sa = { .sa_handler = before };
	int wfd, fd = open_file("stop", &wfd);

	(void)state;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGINT, &sa, NULL), 0);
	assert_int_equal(follow_catch_stop(), 0);
	assert_false(follow_stopped());
	raise(SIGINT);
	assert_true(follow_stopped());
	assert_int_equal(before_calls, 0);
	/* the writer still has it open: done all the same */
	assert_int_equal(follow_wait(&follow, fd, "stop", 0), 0);
	raise(SIGINT);
	assert_int_equal(before_calls, 1);
	close(wfd);
	close(fd);
}

UNIT_MAIN("follow", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_grows_then_done), UNIT_TEST(test_no_wait),
	  UNIT_TEST(test_cut), UNIT_TEST(test_rotated_done),
	  UNIT_TEST(test_next_file), UNIT_TEST(test_stop))
