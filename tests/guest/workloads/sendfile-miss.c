// SPDX-License-Identifier: GPL-2.0
/*
 * sendfile-miss workload: a sendfile() whose return a module with one
 * kretprobe instance (stap -DKRETACTIVE=1) misses, then sendfile()s
 * that return as usual, whose records the trace must hold all the same.
 *
 *   1. a child's sendfile() into a pipe this process has filled blocks,
 *      and holds the one instance of sendfile's return probe;
 *   2. once the child sleeps in it, this process's sendfile() into a
 *      file finds no instance: its return is missed.  It then reads the
 *      pipe, and the child's call returns;
 *   3. this process makes CALLS sendfile()s of distinct sizes into the
 *      file, each printed as
 *
 *        EXPECT sendfile RETURN out_fd=N in_fd=N offset_uaddr=0x0 count=N
 *
 *      in lket-b2a's notation, for tests/guest/iosyscall.sh to find.
 *
 *   sendfile-miss DIR     work in DIR
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CALLS 5

static char buf[65536];

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

/* Does task pid sleep in a sendfile() (/proc/PID/syscall: its number
 * first, "running" while it runs)? */
static int in_sendfile(pid_t pid)
{
	char path[64], line[256];
	FILE *f;
	int in = 0;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	f = fopen(path, "r");
	if (!f)
		fail(path);
	if (fgets(line, sizeof(line), f))
		in = atol(line) == SYS_sendfile && strncmp(line, "running", 7);
	fclose(f);
	return in;
}

int main(int argc, char **argv)
{
	char path[512], out[520];
	int pipefd[2], in, fd, status, i;
	pid_t holder;
	ssize_t r;
	long filled = 0;

	if (argc != 2)
		return 2;
	memset(buf, 'x', sizeof(buf));
	snprintf(path, sizeof(path), "%s/sendfile-miss-%d", argv[1], (int)getpid());
	snprintf(out, sizeof(out), "%s.out", path);
	in = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	if (in < 0 || write(in, buf, sizeof(buf)) != sizeof(buf) ||
	    lseek(in, 0, SEEK_SET))
		fail(path);
	fd = open(out, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	if (fd < 0)
		fail(out);
	/* a full pipe: a sendfile() into it waits for room */
	if (pipe2(pipefd, O_NONBLOCK))
		fail("pipe");
	while ((r = write(pipefd[1], buf, sizeof(buf))) > 0)
		filled += r;
	if (errno != EAGAIN || fcntl(pipefd[0], F_SETFL, 0) ||
	    fcntl(pipefd[1], F_SETFL, 0))
		fail("filling the pipe");
	printf("PID %d\n", (int)getpid());
	fflush(stdout);

	/* 1. the holder: sleeps in sendfile(), with the instance */
	holder = fork();
	if (holder < 0)
		fail("fork");
	if (!holder) {
		off_t off = 0;

		close(pipefd[0]);
		_exit(sendfile(pipefd[1], in, &off, sizeof(buf)) > 0 ? 0 : 1);
	}
	close(pipefd[1]);
	while (!in_sendfile(holder))
		usleep(10000);

	/* 2. no instance left: this call's return is missed */
	r = sendfile(fd, in, NULL, 4096);
	printf("MISSED sendfile %ld\n", r < 0 ? -errno : (long)r);
	while ((r = read(pipefd[0], buf, sizeof(buf))) > 0)
		;
	if (r < 0)
		fail("read");
	if (waitpid(holder, &status, 0) != holder || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail("the holder's sendfile()");

	/* 3. the instance free again: calls whose returns are seen */
	for (i = 0; i < CALLS; i++) {
		long count = 101 + i;

		r = sendfile(fd, in, NULL, count);
		printf("EXPECT sendfile %ld out_fd=%d in_fd=%d offset_uaddr=0x0 count=%ld\n",
		       r < 0 ? -errno : (long)r, fd, in, count);
	}
	close(fd);
	close(in);
	unlink(out);
	unlink(path);
	return 0;
}
