// SPDX-License-Identifier: GPL-2.0
/*
 * iosyscall workload: calls each IO system call of the iosyscall group
 * with distinct values and prints, for each call, what its entry and
 * return records must hold:
 *
 *   EXPECT HOOK RETURN FIELD=VALUE...
 *
 * in lket-b2a's notation (addresses and flags in hex "0x...", other
 * integers in decimal, strings quoted).  tests/guest/iosyscall.sh checks
 * every one against the trace.  Built 64-bit and 32-bit (-m32: the
 * _llseek, sendfile and sendfile64 system calls of 32-bit tasks).
 *
 *   iosyscall DIR     work in DIR (a file system on the traced disk)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static char buf[16384];
/* a user address nothing is mapped at, hidden from the compiler */
static volatile uintptr_t bad_addr = 16;

#define ADDR(p) ((unsigned long)(uintptr_t)(p))

static long ret(long r)
{
	return r < 0 ? -errno : r;
}

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

int main(int argc, char **argv)
{
	char path[400], path2[512];
	struct iovec iov[3];
	long r;
	int fd, fd2;

	if (argc != 2)
		return 2;
	memset(buf, 'x', sizeof(buf));
	snprintf(path, sizeof(path), "%s/io-%d-%d", argv[1],
		 (int)sizeof(long) * 8, (int)getpid());
	snprintf(path2, sizeof(path2), "%s.out", path);
	printf("PID %d\n", (int)getpid());

	/* open: glibc's open() is openat(); O_CREAT|O_RDWR|O_TRUNC = 0x242 */
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0640);
	if (fd < 0)
		fail(path);
	printf("EXPECT open %d filename=\"%s\" flags=0x242 mode=416\n", fd, path);

	/* the other open system call, where the architecture has it */
#ifdef SYS_open
	fd2 = syscall(SYS_open, path2, O_CREAT | O_WRONLY | O_TRUNC, 0604);
	if (fd2 < 0)
		fail(path2);
	printf("EXPECT open %d filename=\"%s\" flags=0x241 mode=388\n", fd2, path2);
#else
	fd2 = open(path2, O_CREAT | O_WRONLY | O_TRUNC, 0604);
	if (fd2 < 0)
		fail(path2);
#endif

	r = ret(write(fd, buf, 4000));
	printf("EXPECT write %ld fd=%d buf_addr=0x%lx count=4000\n", r, fd, ADDR(buf));
	r = ret(pwrite(fd, buf + 16, 1000, 8192));
	if (sizeof(long) == 8)
		printf("EXPECT pwrite64 %ld fd=%d buff_addr=0x%lx count=1000 offset=8192\n",
	       r, fd, ADDR(buf + 16));
	/* a 32-bit glibc's lseek() is _llseek(): the llseek hook */
	r = ret(lseek(fd, 123, SEEK_SET));
#ifdef __i386__
	printf("EXPECT llseek 0 fd=%d offset_high=0 offset_low=123 whence=0\n", fd);
#else
	printf("EXPECT lseek %ld fd=%d offset=123 whence=0\n", r, fd);
#endif
	r = ret(lseek(fd, -3, SEEK_END));
#ifdef __i386__
	printf("EXPECT llseek 0 fd=%d offset_high=4294967295 offset_low=4294967293 whence=2\n", fd);
#else
	printf("EXPECT lseek %ld fd=%d offset=-3 whence=2\n", r, fd);
#endif
	r = ret(lseek(fd, 100, SEEK_SET));
	r = ret(read(fd, buf + 32, 77));
	printf("EXPECT read %ld fd=%d buf_addr=0x%lx count=77\n", r, fd, ADDR(buf + 32));

	iov[0].iov_base = buf + 64; iov[0].iov_len = 10;
	iov[1].iov_base = buf + 128; iov[1].iov_len = 20;
	iov[2].iov_base = buf + 256; iov[2].iov_len = 30;
	r = ret(readv(fd, iov, 3));
	printf("EXPECT readv %ld fd=%d vector_addr=0x%lx count=3\n", r, fd, ADDR(iov));
	r = ret(writev(fd, iov, 2));
	printf("EXPECT writev %ld fd=%d vector_addr=0x%lx count=2\n", r, fd, ADDR(iov));
	r = ret(pread(fd, buf + 512, 55, 4096));
	if (sizeof(long) == 8)
		printf("EXPECT pread64 %ld fd=%d buff_addr=0x%lx count=55 offset=4096\n",
	       r, fd, ADDR(buf + 512));
#ifdef __x86_64__
	r = ret(readahead(fd, 4096, 8192));
	printf("EXPECT readahead %ld fd=%d offset=4096 count=8192\n", r, fd);
#endif
	r = ret(fsync(fd));
	printf("EXPECT fsync %ld fd=%d\n", r, fd);
	r = ret(fdatasync(fd));
	printf("EXPECT fdatasync %ld fd=%d\n", r, fd);
	sync();
	printf("EXPECT sync 0\n");
	r = ret(flock(fd, LOCK_EX | LOCK_NB));
	printf("EXPECT flock %ld fd=%d operation=6\n", r, fd);
	r = ret(flock(fd, LOCK_UN));
	printf("EXPECT flock %ld fd=%d operation=8\n", r, fd);

	{
		/* sendfile from fd at offset 11, then from the file position */
#ifdef __i386__
		long off32 = 11;
		long long off64 = 33;

		r = ret(syscall(SYS_sendfile, fd2, fd, &off32, 300));
		printf("EXPECT sendfile %ld out_fd=%d in_fd=%d offset_uaddr=0x%lx count=300\n",
		       r, fd2, fd, ADDR(&off32));
		r = ret(syscall(SYS_sendfile64, fd2, fd, &off64, 301));
		printf("EXPECT sendfile %ld out_fd=%d in_fd=%d offset_uaddr=0x%lx count=301\n",
		       r, fd2, fd, ADDR(&off64));
#else
		off_t off = 11;

		r = ret(syscall(SYS_sendfile, fd2, fd, &off, 300));
		printf("EXPECT sendfile %ld out_fd=%d in_fd=%d offset_uaddr=0x%lx count=300\n",
		       r, fd2, fd, ADDR(&off));
#endif
		r = ret(syscall(SYS_sendfile, fd2, fd, NULL, 7));
		printf("EXPECT sendfile %ld out_fd=%d in_fd=%d offset_uaddr=0x0 count=7\n",
		       r, fd2, fd);
	}
#ifdef SYS__llseek
	{
		/* offset (1 << 32) + 5 from the start: beyond the end is fine */
		long long result = 0;

		r = ret(syscall(SYS__llseek, fd, 1, 5, &result, SEEK_SET));
		printf("EXPECT llseek %ld fd=%d offset_high=1 offset_low=5 result_addr=0x%lx whence=0\n",
		       r, fd, ADDR(&result));
		if (result != (1LL << 32) + 5)
			fail("_llseek result");
	}
#endif
	/* faults and errors: a bad buffer, a bad file name, a bad fd */
	r = ret(syscall(SYS_pread64, fd, (void *)bad_addr, 10, 0));
	if (sizeof(long) == 8)
		printf("EXPECT pread64 %ld fd=%d buff_addr=0x10 count=10 offset=0\n", r, fd);
	r = ret(syscall(SYS_read, fd, (void *)bad_addr, 12));
	printf("EXPECT read %ld fd=%d buf_addr=0x10 count=12\n", r, fd);
	r = ret(syscall(SYS_openat, AT_FDCWD, (char *)bad_addr, O_RDONLY, 0));
	printf("EXPECT open %ld filename=\"\" flags=0x0 mode=0\n", r);
	r = ret(close(9999));
	printf("EXPECT close %ld fd=9999\n", r);

	r = ret(close(fd2));
	printf("EXPECT close %ld fd=%d\n", r, fd2);
	r = ret(close(fd));
	printf("EXPECT close %ld fd=%d\n", r, fd);
	unlink(path2);
	unlink(path);
	fflush(stdout);
	return 0;
}
