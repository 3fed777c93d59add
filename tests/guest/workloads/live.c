// SPDX-License-Identifier: GPL-2.0
/*
 * live - markers for tests/guest/live.sh, and how long each took to reach
 * a live conversion's output:
 *
 *   live DIR N INTERVAL_MS [OUTPUT]
 *
 * On CPU 0 alone (CPU 1 stays idle), N times: sleep INTERVAL_MS, then
 * lseek() a file in DIR to offset 7000 + i, the marker, which
 * addevent.iosyscall.lseek.entry records as "offset=7000+i whence=0".
 * With OUTPUT (the live output of lket-b2a --follow, a file that grows),
 * it first waits for OUTPUT to appear, then after each marker reads
 * OUTPUT as it grows until the marker's line is there, and prints
 *
 *   lag I NANOSECONDS
 *
 * (CLOCK_MONOTONIC, from just before the lseek), or "lag I missing" when
 * it has not come within 10 s.  OUTPUT is read with read() alone: the
 * watching itself makes no lseek.  Ends with "done".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MARKER_BASE	7000
#define WAIT_NS		10000000000LL

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

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* What OUTPUT has grown by, appended to text (its last line kept). */
struct watch {
	int fd;
	char text[65536];
	size_t len;
};

/* Has the line of marker been written? */
static int seen(struct watch *w, const char *needle)
{
	ssize_t got;
	char *nl;

	for (;;) {
		if (w->len + 1 >= sizeof(w->text)) {
			/* keep the unfinished last line only */
			nl = memrchr(w->text, '\n', w->len);
			size_t keep = nl ? w->len - (size_t)(nl + 1 - w->text) : 0;

			memmove(w->text, w->text + w->len - keep, keep);
			w->len = keep;
		}
		got = read(w->fd, w->text + w->len, sizeof(w->text) - 1 - w->len);
		if (got <= 0)
			break;
		w->len += (size_t)got;
		w->text[w->len] = '\0';
		if (strstr(w->text, needle))
			return 1;
	}
	w->text[w->len] = '\0';
	return strstr(w->text, needle) != NULL;
}

int main(int argc, char **argv)
{
	struct watch *w = NULL;
	cpu_set_t cpus;
	char path[4096], needle[64];
	long long t0, t;
	int fd, n, interval, i;

	if (argc < 4)
		return 2;
	n = atoi(argv[2]);
	interval = atoi(argv[3]);
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		die("sched_setaffinity");
	snprintf(path, sizeof(path), "%s/markers", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(path);
	if (argc > 4) {
		w = calloc(1, sizeof(*w));
		if (!w)
			die("calloc");
		t0 = now_ns();
		while ((w->fd = open(argv[4], O_RDONLY)) < 0 &&
		       now_ns() - t0 < WAIT_NS)
			sleep_ms(10);
		if (w->fd < 0)
			die(argv[4]);
	}
	for (i = 0; i < n; i++) {
		sleep_ms(interval);
		snprintf(needle, sizeof(needle), " offset=%d whence=0",
			 MARKER_BASE + i);
		t0 = now_ns();
		if (lseek(fd, MARKER_BASE + i, SEEK_SET) < 0)
			die("lseek");
		if (!w)
			continue;
		do {
			if (seen(w, needle))
				break;
			sleep_ms(2);
		} while (now_ns() - t0 < WAIT_NS);
		t = now_ns() - t0;
		if (t < WAIT_NS)
			printf("lag %d %lld\n", i, t);
		else
			printf("lag %d missing\n", i);
		fflush(stdout);
	}
	puts("done");
	return 0;
}
