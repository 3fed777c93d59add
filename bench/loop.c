// SPDX-License-Identifier: GPL-2.0
/*
 * bench-loop - the traced workload of make bench: COUNT getppid system
 * calls in a tight loop (2 x COUNT raw_syscalls events), then exit.
 * Called through syscall(2) so no libc may cache or skip it.
 *
 *   bench-loop [-r] [-t FILE] COUNT
 *
 * -r  read(2) one byte of /dev/zero instead: the kprobe-based hooks
 *     (addevent.iosyscall.read, on __x64_sys_read)
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

int main(int argc, char **argv)
{
	struct timespec a, b;
	const char *tfile = NULL;
	int fd = -1;
	char byte;
	long i, n;
	FILE *f;

	if (argc >= 2 && !strcmp(argv[1], "-r")) {
		fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			perror("/dev/zero");
			return 1;
		}
		argv++;
		argc--;
	}
	if (argc == 4 && !strcmp(argv[1], "-t")) {
		tfile = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc != 2 || (n = atol(argv[1])) < 0) {
		fprintf(stderr, "usage: bench-loop [-r] [-t FILE] COUNT\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (fd >= 0)
		for (i = 0; i < n; i++)
			syscall(SYS_read, fd, &byte, 1);
	else
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (tfile) {
		f = fopen(tfile, "a");
		if (!f) {
			perror(tfile);
			return 1;
		}
		fprintf(f, "%ld %lld\n", n, (long long)(b.tv_sec - a.tv_sec) *
			1000000000ll + (b.tv_nsec - a.tv_nsec));
		if (fclose(f)) {
			perror(tfile);
			return 1;
		}
	}
	return 0;
}
