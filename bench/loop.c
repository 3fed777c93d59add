// SPDX-License-Identifier: GPL-2.0
/*
 * bench-loop - the traced workload of make bench: COUNT getppid system
 * calls in a tight loop (2 x COUNT raw_syscalls events), then exit.
 * Called through syscall(2) so no libc may cache or skip it.
 *
 *   bench-loop [-r] [-p RATE] [-t FILE] COUNT
 *
 * -r  read(2) one byte of /dev/zero instead: the kprobe-based hooks
 *     (addevent.iosyscall.read, on __x64_sys_read)
 * -p  at most RATE calls a second: the calls of each millisecond in one
 *     burst, then a sleep until the next millisecond is due (the rate
 *     sweep of bench/guest.sh; a clock read per call would add calls of
 *     its own where the guest's clock is not in the vDSO)
 * -t  append the loop's own elapsed time to FILE: "COUNT NANOSECONDS"
 *     (CLOCK_MONOTONIC around the loop only, not start-up or exit)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC 1000000000ll
#define BURSTS_PER_SEC 1000

static long long ns_between(const struct timespec *a, const struct timespec *b)
{
	return (long long)(b->tv_sec - a->tv_sec) * NSEC_PER_SEC +
	       (b->tv_nsec - a->tv_nsec);
}

static void one_call(int fd)
{
	char byte;

	if (fd >= 0)
		syscall(SYS_read, fd, &byte, 1);
	else
		syscall(SYS_getppid);
}

/* Sleep until START + NS, if that is still to come. */
static void sleep_until(const struct timespec *start, long long ns)
{
	struct timespec due = *start;

	due.tv_sec += ns / NSEC_PER_SEC;
	due.tv_nsec += ns % NSEC_PER_SEC;
	if (due.tv_nsec >= NSEC_PER_SEC) {
		due.tv_sec++;
		due.tv_nsec -= NSEC_PER_SEC;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL))
		;
}

static void loop(int fd, long n, long rate, const struct timespec *start)
{
	long burst, done = 0, i;

	if (rate <= 0) {
		for (i = 0; i < n; i++)
			one_call(fd);
		return;
	}
	burst = rate / BURSTS_PER_SEC > 0 ? rate / BURSTS_PER_SEC : 1;
	while (done < n) {
		for (i = 0; i < burst && done < n; i++, done++)
			one_call(fd);
		sleep_until(start, (long long)done * NSEC_PER_SEC / rate);
	}
}

int main(int argc, char **argv)
{
	struct timespec a, b;
	const char *tfile = NULL;
	long n, rate = 0;
	int fd = -1, opt;
	FILE *f;

	while ((opt = getopt(argc, argv, "rp:t:")) != -1) {
		switch (opt) {
		case 'r':
			fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				perror("/dev/zero");
				return 1;
			}
			break;
		case 'p':
			rate = atol(optarg);
			break;
		case 't':
			tfile = optarg;
			break;
		default:
			rate = -1;
		}
	}
	if (optind != argc - 1 || (n = atol(argv[optind])) < 0 || rate < 0) {
		fprintf(stderr, "usage: bench-loop [-r] [-p RATE] [-t FILE] COUNT\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	loop(fd, n, rate, &a);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (tfile) {
		f = fopen(tfile, "a");
		if (!f) {
			perror(tfile);
			return 1;
		}
		fprintf(f, "%ld %lld\n", n, ns_between(&a, &b));
		if (fclose(f)) {
			perror(tfile);
			return 1;
		}
	}
	return 0;
}
