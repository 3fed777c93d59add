// SPDX-License-Identifier: GPL-2.0
/*
 * toctou workload: a second thread changes what open() and io_submit()
 * are given while the calls run.  The records must name what the kernel
 * used, not what user memory held when the call started.
 *
 *  - open: the name's last byte flips between 'a' and 'b' (two files of
 *    DIR); which one the kernel opened is read back with fstat();
 *  - io_submit: a pread iocb's aio_nbytes flips between 1024 and 2048 (a
 *    file of 8192 bytes); the completion's res is what the kernel read.
 *
 * Those races are won by chance.  Before them, the same calls are made
 * UFFD_CALLS times with the name, then the iocb, in a page that is not
 * there when the call starts: its first access, the kernel's copy, waits
 * for a userfaultfd thread to put it in (toctou-b; an iocb of 2048
 * bytes).  Whatever read user memory before the kernel's copy found
 * nothing there.
 *
 * Prints "PID pid", "TID tid" (the calling thread's), then in call order
 * "OPEN name" and "SUBMIT nbytes", then "UFFD n": the calls whose page
 * came in by userfaultfd, and last "FLIPS a b": how many racing opens
 * found each file (both nonzero: the name did change under the calls).
 *
 *   toctou DIR COUNT
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static char name[400];
static size_t flip_at;			/* the byte of name that flips */
static struct iocb cb;
static volatile int stop;

#define UFFD_CALLS	50
static int uffd = -1;
static long page_size;
static char *upage;			/* registered with uffd */
static char *fill;			/* what a fault of upage gets */
static volatile unsigned long uffd_faults;

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

/* On its own CPU when there are two: the flips land inside the calls. */
static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		sched_setaffinity(0, sizeof(set), &set);
}

static void *flipper(void *arg)
{
	volatile char *c = &name[flip_at];
	volatile __u64 *n = &cb.aio_nbytes;

	(void)arg;
	pin(1);
	while (!stop) {
		*c = *c == 'a' ? 'b' : 'a';
		*n = *n == 1024 ? 2048 : 1024;
	}
	return NULL;
}

/* The page-fault thread: each fault of upage gets fill. */
static void *uffd_thread(void *arg)
{
	struct uffd_msg msg;
	struct uffdio_copy copy;

	(void)arg;
	for (;;) {
		if (read(uffd, &msg, sizeof(msg)) != sizeof(msg)) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			fail("uffd read");
		}
		if (msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		copy.dst = msg.arg.pagefault.address & ~(page_size - 1);
		copy.src = (uintptr_t)fill;
		copy.len = page_size;
		copy.mode = 0;
		copy.copy = 0;
		if (ioctl(uffd, UFFDIO_COPY, &copy) && errno != EEXIST)
			fail("UFFDIO_COPY");
		uffd_faults++;
	}
	return NULL;
}

/* upage, registered; 0 if userfaultfd is not available. */
static int uffd_setup(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	pthread_t t;

	page_size = sysconf(_SC_PAGESIZE);
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		return 0;
	upage = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fill = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (upage == MAP_FAILED || fill == MAP_FAILED)
		fail("mmap");
	reg.range.start = (uintptr_t)upage;
	reg.range.len = page_size;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		return 0;
	if (pthread_create(&t, NULL, uffd_thread, NULL))
		fail("pthread_create");
	return 1;
}

/* upage gone again: the next access faults, and gets fill */
static void uffd_drop(void)
{
	if (madvise(upage, page_size, MADV_DONTNEED))
		fail("madvise");
}

int main(int argc, char **argv)
{
	static char buf[8192];
	struct stat sa, sb, st;
	struct io_event ev;
	struct iocb *cbp = &cb;
	aio_context_t ctx = 0;
	unsigned long na = 0, nb = 0;
	pthread_t t;
	int fd, data, i, count;

	if (argc != 3)
		return 2;
	count = atoi(argv[2]);
	snprintf(name, sizeof(name), "%s/toctou-a", argv[1]);
	flip_at = strlen(name) - 1;
	fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	if (fd < 0 || fstat(fd, &sa) || close(fd))
		fail("toctou-a");
	name[flip_at] = 'b';
	fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	if (fd < 0 || fstat(fd, &sb) || close(fd))
		fail("toctou-b");
	data = open(name, O_RDWR);
	if (data < 0 || pwrite(data, buf, sizeof(buf), 0) != sizeof(buf))
		fail("data");
	if (syscall(SYS_io_setup, 4, &ctx))
		fail("io_setup");
	cb.aio_lio_opcode = IOCB_CMD_PREAD;
	cb.aio_fildes = data;
	cb.aio_buf = (uintptr_t)buf;
	cb.aio_nbytes = 1024;
	pin(0);
	printf("PID %d\nTID %ld\n", (int)getpid(), (long)syscall(SYS_gettid));
	fflush(stdout);

	if (uffd_setup()) {
		struct iocb *ucb = (struct iocb *)fill;

		/* the name of toctou-b, then an iocb of 2048 bytes */
		strcpy(fill, name);
		for (i = 0; i < UFFD_CALLS; i++) {
			uffd_drop();
			fd = open(upage, O_RDONLY);
			if (fd < 0 || fstat(fd, &st) || st.st_ino != sb.st_ino)
				fail("open (userfaultfd)");
			close(fd);
			printf("OPEN %s\n", name);
		}
		memset(fill, 0, page_size);
		*ucb = cb;
		ucb->aio_nbytes = 2048;
		for (i = 0; i < UFFD_CALLS; i++) {
			struct iocb *up = (struct iocb *)upage;

			uffd_drop();
			if (syscall(SYS_io_submit, ctx, 1, &up) != 1)
				fail("io_submit (userfaultfd)");
			if (syscall(SYS_io_getevents, ctx, 1, 1, &ev, NULL) != 1)
				fail("io_getevents");
			printf("SUBMIT %lld\n", (long long)ev.res);
		}
	}
	printf("UFFD %lu\n", uffd_faults);

	if (pthread_create(&t, NULL, flipper, NULL))
		fail("pthread_create");

	for (i = 0; i < count; i++) {
		fd = open(name, O_RDONLY);
		if (fd < 0 || fstat(fd, &st))
			fail("open");
		close(fd);
		if (st.st_ino == sa.st_ino) {
			na++;
			printf("OPEN %.*sa\n", (int)flip_at, name);
		} else if (st.st_ino == sb.st_ino) {
			nb++;
			printf("OPEN %.*sb\n", (int)flip_at, name);
		} else {
			fail("fstat: neither file");
		}
	}
	for (i = 0; i < count; i++) {
		if (syscall(SYS_io_submit, ctx, 1, &cbp) != 1)
			fail("io_submit");
		if (syscall(SYS_io_getevents, ctx, 1, 1, &ev, NULL) != 1)
			fail("io_getevents");
		printf("SUBMIT %lld\n", (long long)ev.res);
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("FLIPS %lu %lu\n", na, nb);
	syscall(SYS_io_destroy, ctx);
	close(data);
	name[flip_at] = 'a';
	unlink(name);
	name[flip_at] = 'b';
	unlink(name);
	return 0;
}
