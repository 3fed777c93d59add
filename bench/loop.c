// SPDX-License-Identifier: GPL-2.0
/*
 * bench-loop - the traced workload of make bench: COUNT getppid system
 * calls in a tight loop (2 x COUNT raw_syscalls events), then exit.
 * Called through syscall(2) so no libc may cache or skip it.
 *
 *   bench-loop [-r | -w] [-p RATE] [-t FILE] COUNT
 *
 * -r  read(2) one byte of /dev/zero instead: the kprobe-based hooks
 *     (addevent.iosyscall.read, on __x64_sys_read)
 * -w  COUNT round trips of a byte between two threads on CPUs 0 and 1,
 *     over two pipes: 2 x COUNT wake-ups (sched_waking, and the context
 *     switches they cause; the wake-up hooks of addevent.tskdispatch)
 * -p  at most RATE calls a second: the calls of each millisecond in one
 *     burst, then a sleep until the next millisecond is due (the rate
 *     sweep of bench/guest.sh; a clock read per call would add calls of
 *     its own where the guest's clock is not in the vDSO)
 * -t  append the loop's own elapsed time to FILE: "COUNT NANOSECONDS
 *     OTHERS" (CLOCK_MONOTONIC around the loop only, not start-up or
 *     exit).  OTHERS: the nanoseconds the other CPUs ran tasks meanwhile
 *     (their rq_cpu_time in /proc/schedstat, which leaves out idle), -1
 *     when the loop changed CPUs or the kernel does not say.  Beside a
 *     loop alone on its CPU, that is what the tracer's consumer (and the
 *     writeback it causes) cost elsewhere: work a busy machine pays for.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
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

/*
 * The time CPUs other than SKIP have run tasks, in ns (/proc/schedstat's
 * cpu lines: "cpuN yld 0 sched goidle ttwu ttwu_local rq_cpu_time ..."),
 * or -1.  A task's time is added when it leaves the CPU, so one running
 * across the loop's end is counted in the next loop's figure.
 */
static long long others_busy_ns(int skip)
{
	unsigned long long busy, sum = 0;
	char line[512];
	int cpu, found = 0;
	FILE *f = fopen("/proc/schedstat", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu%d %*u %*u %*u %*u %*u %*u %llu", &cpu,
			   &busy) == 2) {
			found = 1;
			if (cpu != skip)
				sum += busy;
		}
	fclose(f);
	return found ? (long long)sum : -1;
}

/* -w: the pipes, and the round trips each thread makes */
static int to_b[2], to_a[2];
static long trips;

static void on_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *pong(void *arg)
{
	char c;
	long i;

	(void)arg;
	on_cpu(1);
	for (i = 0; i < trips; i++)
		if (read(to_b[0], &c, 1) != 1 || write(to_a[1], &c, 1) != 1)
			break;
	return NULL;
}

/* 2 x n wake-ups: this thread on CPU 0, the other on CPU 1 */
static int ping_pong(long n, struct timespec *a, struct timespec *b)
{
	pthread_t t;
	char c = 'x';
	long i;

	trips = n;
	if (pipe(to_b) || pipe(to_a) || pthread_create(&t, NULL, pong, NULL)) {
		perror("bench-loop -w");
		return 1;
	}
	on_cpu(0);
	clock_gettime(CLOCK_MONOTONIC, a);
	for (i = 0; i < n; i++)
		if (write(to_b[1], &c, 1) != 1 || read(to_a[0], &c, 1) != 1)
			break;
	clock_gettime(CLOCK_MONOTONIC, b);
	pthread_join(t, NULL);
	return i == n ? 0 : 1;
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
	long long others = -1, others_a;
	const char *tfile = NULL;
	long n, rate = 0;
	int fd = -1, opt, wake = 0;
	FILE *f;

	while ((opt = getopt(argc, argv, "rwp:t:")) != -1) {
		switch (opt) {
		case 'w':
			wake = 1;
			break;
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
		fprintf(stderr, "usage: bench-loop [-r | -w] [-p RATE] [-t FILE] COUNT\n");
		return 2;
	}
	if (wake) {
		if (ping_pong(n, &a, &b))
			return 1;
	} else {
		int cpu = sched_getcpu();

		others_a = others_busy_ns(cpu);
		clock_gettime(CLOCK_MONOTONIC, &a);
		loop(fd, n, rate, &a);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (others_a >= 0 && sched_getcpu() == cpu) {
			others = others_busy_ns(cpu);
			others = others >= others_a ? others - others_a : -1;
		}
	}
	if (tfile) {
		f = fopen(tfile, "a");
		if (!f) {
			perror(tfile);
			return 1;
		}
		fprintf(f, "%ld %lld %lld\n", n, ns_between(&a, &b), others);
		if (fclose(f)) {
			perror(tfile);
			return 1;
		}
	}
	return 0;
}
