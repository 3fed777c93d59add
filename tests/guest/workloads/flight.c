// SPDX-License-Identifier: GPL-2.0
/*
 * flight - the reads of tests/guest/flight.sh: many fast ones and, with a
 * FIFO, one slow one among them, for a flight recorder to catch.
 *
 *   flight writer FIFO DELAY_MS
 *	opens FIFO for writing (it waits for the reader), sleeps DELAY_MS,
 *	writes one byte and exits: the reader's read of FIFO lasts about
 *	DELAY_MS.  Started before tracing, so that its own start is no
 *	record of the trace.
 *   flight reader N [FIFO STOP]
 *	on CPU 0 alone: N one-byte reads of /dev/zero; with FIFO, then the
 *	slow read of it, the one read of two bytes (a trigger can tell it
 *	from the others, however slow a host makes them), and then a
 *	one-byte read of /dev/zero a millisecond until STOP exists.  Prints
 *	"fd F" (the FIFO's descriptor), "slow MS" (how long its read took)
 *	and "done".
 *   flight spin STOP MARK N
 *	on CPU 0 alone: one-byte reads of /dev/zero until STOP exists
 *	(looked for every 1000 reads), making MARK once it has made N;
 *	then 1000 more, which follow whatever made STOP.  Prints "reads R"
 *	(all it made) and "done".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void fast_reads(int fd, long n)
{
	char c;

	while (n--)
		if (read(fd, &c, 1) != 1)
			die("read /dev/zero");
}

static int writer(const char *fifo, long delay_ms)
{
	struct timespec t = { delay_ms / 1000, (delay_ms % 1000) * 1000000 };
	int fd = open(fifo, O_WRONLY);

	if (fd < 0)
		die(fifo);
	nanosleep(&t, NULL);
	if (write(fd, "x", 1) != 1)
		die("write FIFO");
	return 0;
}

/* /dev/zero, open, on CPU 0 alone */
static int zero_on_cpu0(void)
{
	cpu_set_t cpus;
	int zero;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		die("sched_setaffinity");
	zero = open("/dev/zero", O_RDONLY);
	if (zero < 0)
		die("/dev/zero");
	return zero;
}

static int spin(const char *stop, const char *mark, long n)
{
	int zero = zero_on_cpu0(), fd;
	long reads = 0;

	while (access(stop, F_OK)) {
		fast_reads(zero, 1000);
		reads += 1000;
		if (reads >= n && reads - 1000 < n) {
			fd = open(mark, O_WRONLY | O_CREAT, 0600);
			if (fd < 0)
				die(mark);
			close(fd);
		}
	}
	fast_reads(zero, 1000);
	reads += 1000;
	printf("reads %ld\ndone\n", reads);
	return 0;
}

static int reader(long n, const char *fifo, const char *stop)
{
	struct timespec ms = { 0, 1000000 };
	long long t0;
	char c[2];
	int zero = zero_on_cpu0(), fd;

	fast_reads(zero, n);
	if (fifo) {
		fd = open(fifo, O_RDONLY);
		if (fd < 0)
			die(fifo);
		printf("fd %d\n", fd);
		t0 = now_ns();
		if (read(fd, c, 2) != 1)
			die("read FIFO");
		printf("slow %lld\n", (now_ns() - t0) / 1000000);
		while (access(stop, F_OK)) {
			fast_reads(zero, 1);
			nanosleep(&ms, NULL);
		}
	}
	printf("done\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "writer"))
		return writer(argv[2], atol(argv[3]));
	if ((argc == 3 || argc == 5) && !strcmp(argv[1], "reader"))
		return reader(atol(argv[2]), argc == 5 ? argv[3] : NULL,
			      argc == 5 ? argv[4] : NULL);
	if (argc == 5 && !strcmp(argv[1], "spin"))
		return spin(argv[2], argv[3], atol(argv[4]));
	fprintf(stderr, "usage: flight writer FIFO DELAY_MS | flight reader N [FIFO STOP] | flight spin STOP MARK N\n");
	return 2;
}
