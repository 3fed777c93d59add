/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nfs-reclaim.c - make kswapd write a dirty NFS page itself, the only
 * caller of nfs_writepage() on 6.1 (tests/guest/nfs.sh, reclaim step).
 *
 *   nfs-reclaim FILE FILE_MIB ANON_MAX_MIB
 *
 * Dirties FILE_MIB MiB of FILE and keeps it open (a close would flush
 * it), then takes anonymous memory 8 MiB at a time until the mount's
 * vfswritepage counter (/proc/self/mountstats) moves or ANON_MAX_MIB is
 * reached; then frees it and closes FILE.  The guest sets the dirty
 * limits above its memory beforehand, so the flusher leaves the pages
 * dirty and page reclaim finds them.
 *
 * kswapd writes a dirty file page only on its second pass over it, and
 * only when the pages it finds are all dirty: it may take several rounds.
 * So the anonymous memory stops growing when little is left that page
 * reclaim could free without writing (MemFree plus clean page cache
 * below FLOOR_MIB), waits there a while, gives some back, and grows
 * again, up to ROUNDS times, rather than running into the OOM killer.
 *
 * Prints "nfs-reclaim: fileid name=N fileid=I pages=P" first and
 * "nfs-reclaim: vfswritepage=C anon_mib=M" last; exits 0 if C > 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MIB (1024L * 1024L)
#define ANON_STEP_MIB 8
#define FLOOR_MIB 128
#define ROUNDS 12
#define WAIT_TENTHS 20
#define GIVE_BACK_STEPS 4
/* the 11th counter of "events:" is NFSIOS_VFSWRITEPAGE */
#define VFSWRITEPAGE_FIELD 11

/* vfswritepage of the NFS mount holding FILE's directory, or -1 */
static long vfswritepage(const char *mountpoint)
{
	char line[4096], want[4200];
	int in_mount = 0;
	long count = -1;
	FILE *f = fopen("/proc/self/mountstats", "r");

	if (!f)
		return -1;
	snprintf(want, sizeof(want), " mounted on %s with fstype nfs", mountpoint);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "device ", 7)) {
			in_mount = strstr(line, want) != NULL;
			continue;
		}
		if (in_mount && !strncmp(line, "\tevents:", 8)) {
			char *p = line + 8;
			int i;

			for (i = 1; i <= VFSWRITEPAGE_FIELD; i++)
				count = strtol(p, &p, 10);
			break;
		}
	}
	fclose(f);
	return count;
}

/* /proc/meminfo's value of KEY in MiB, or -1 */
static long meminfo_mib(const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			kib = atol(line + n + 1);
			break;
		}
	fclose(f);
	return kib < 0 ? -1 : kib / 1024;
}

/* What reclaim could still free without writing: free and clean cache. */
static long reclaimable_mib(void)
{
	return meminfo_mib("MemFree") + meminfo_mib("Cached") -
	       meminfo_mib("Dirty") - meminfo_mib("Writeback") -
	       meminfo_mib("Shmem");
}

int main(int argc, char **argv)
{
	static char page[4096];
	char mountpoint[4096], *slash, **chunks;
	long file_mib, anon_max, anon = 0, pages, i, count = 0, round = 0, t;
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	struct stat st;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: nfs-reclaim FILE FILE_MIB ANON_MAX_MIB\n");
		return 2;
	}
	file_mib = atol(argv[2]);
	anon_max = atol(argv[3]);
	snprintf(mountpoint, sizeof(mountpoint), "%s", argv[1]);
	slash = strrchr(mountpoint, '/');
	if (!slash || slash == mountpoint) {
		fprintf(stderr, "nfs-reclaim: FILE must be DIR/NAME\n");
		return 2;
	}
	*slash = '\0';

	fd = open(argv[1], O_CREAT | O_TRUNC | O_WRONLY, 0644);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "nfs-reclaim: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	pages = file_mib * MIB / (long)sizeof(page);
	printf("nfs-reclaim: fileid name=%s fileid=%llu pages=%ld pid=%d\n",
	       slash + 1, (unsigned long long)st.st_ino, pages, (int)getpid());
	fflush(stdout);
	for (i = 0; i < pages; i++) {
		memset(page, 'a' + (int)(i % 26), sizeof(page));
		if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page)) {
			fprintf(stderr, "nfs-reclaim: write: %s\n", strerror(errno));
			return 1;
		}
	}

	chunks = calloc((size_t)(anon_max / ANON_STEP_MIB + 1), sizeof(*chunks));
	if (!chunks)
		return 1;
	for (i = 0; anon + ANON_STEP_MIB <= anon_max; i++) {
		count = vfswritepage(mountpoint);
		if (count != 0)
			break;
		if (reclaimable_mib() < FLOOR_MIB) {
			if (++round > ROUNDS)
				break;
			for (t = 0; t < WAIT_TENTHS; t++) {
				nanosleep(&pause, NULL);
				if (vfswritepage(mountpoint) != 0)
					break;
			}
			for (t = 0; t < GIVE_BACK_STEPS && i > 0; t++) {
				munmap(chunks[--i], ANON_STEP_MIB * MIB);
				chunks[i] = NULL;
				anon -= ANON_STEP_MIB;
			}
			i--;	/* the for loop's i++ comes next: this slot again */
			continue;
		}
		chunks[i] = mmap(NULL, ANON_STEP_MIB * MIB, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (chunks[i] == MAP_FAILED) {
			chunks[i] = NULL;
			break;
		}
		/* small pages: no compaction for huge ones under pressure */
		madvise(chunks[i], ANON_STEP_MIB * MIB, MADV_NOHUGEPAGE);
		memset(chunks[i], 1, ANON_STEP_MIB * MIB);
		anon += ANON_STEP_MIB;
		/* slowly, so that kswapd rather than the allocator reclaims */
		nanosleep(&pause, NULL);
	}
	count = vfswritepage(mountpoint);
	printf("nfs-reclaim: vfswritepage=%ld anon_mib=%ld rounds=%ld\n", count,
	       anon, round);
	fflush(stdout);
	while (i-- > 0)
		if (chunks[i])
			munmap(chunks[i], ANON_STEP_MIB * MIB);
	if (close(fd)) {
		fprintf(stderr, "nfs-reclaim: close: %s\n", strerror(errno));
		return 1;
	}
	return count > 0 ? 0 : 1;
}
