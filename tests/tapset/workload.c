// SPDX-License-Identifier: GPL-2.0
/*
 * workload - a small program whose system calls, forks, execs, signals
 * and page faults the guest tests trace ("stap -c 'workload TAG'") and
 * then look for in lket.out.  Each step says what it should leave in the
 * trace.
 *
 *   workload TAG		run every step
 *   workload --exec-child	what the forked child execs: exits 0
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NPAGES 16
/* getppid() calls of the uservol run (tests/tapset/guest.sh) */
#define NVOLUME 20000

static volatile sig_atomic_t nr_usr1;

static void on_usr1(int sig)
{
	(void)sig;
	nr_usr1++;
}

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

int main(int argc, char **argv)
{
	char path[256], self[256];
	struct sigaction sa;
	sigset_t set, pending;
	pid_t pid, child;
	ssize_t n;
	char *mem;
	int fd, status, i;

	if (argc == 2 && !strcmp(argv[1], "--exec-child"))
		return 0;
	if (argc != 2)
		return 2;

	pid = getpid();
	/* syscall.entry/return openat: a file name nobody else uses */
	snprintf(path, sizeof(path), "/tmp/lket-%s-%d", argv[1], (int)pid);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		fail(path);
	close(fd);
	unlink(path);

	/* process.fork: new_pid = child; process.execve: our own binary */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		fail("readlink");
	self[n] = '\0';
	child = fork();
	if (child < 0)
		fail("fork");
	if (child == 0) {
		execl(self, self, "--exec-child", (char *)NULL);
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail("child");

	/* signal.do_action: sig=10 handler=on_usr1 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	if (sigaction(SIGUSR1, &sa, NULL))
		fail("sigaction");

	/* signal.syskill/systgkill/systkill entry (sig=10) and return 0 */
	if (kill(pid, SIGUSR1))
		fail("kill");
	if (syscall(SYS_tgkill, pid, pid, SIGUSR1))
		fail("tgkill");
	if (syscall(SYS_tkill, pid, SIGUSR1))
		fail("tkill");
	/* signal.syskill.return: -ESRCH (-3) for a process that cannot exist */
	if (kill(0x3ffffff0, SIGUSR1) == 0)
		fail("kill of a missing process succeeded");

	/* signal.procmask: how=0 (SIG_BLOCK) sigset=512 (bit of signal 10) */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		fail("sigprocmask");
	/* signal.send.entry while blocked, signal.pending: setsize=8 */
	if (kill(pid, SIGUSR1))
		fail("kill");
	if (sigpending(&pending) || !sigismember(&pending, SIGUSR1))
		fail("sigpending");
	/* how=1 (SIG_UNBLOCK): the pending SIGUSR1 is delivered */
	if (sigprocmask(SIG_UNBLOCK, &set, NULL))
		fail("sigprocmask");
	if (nr_usr1 != 4) {
		fprintf(stderr, "workload: %d SIGUSR1 handled, want 4\n",
			(int)nr_usr1);
		return 1;
	}

	/* pagefault: write_access=1 on each fresh page */
	mem = mmap(NULL, NPAGES * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		fail("mmap");
	for (i = 0; i < NPAGES; i++)
		mem[i * 4096] = 1;
	printf("workload: pid %d pages %p\n", (int)pid, (void *)mem);
	munmap(mem, NPAGES * 4096);

	/* ascii: a name that would forge a line, a field and quotes in a
	 * text trace, then a fork under it (process.fork's execname) */
	if (!strcmp(argv[1], "ascii")) {
		if (prctl(PR_SET_NAME, "wl\nforged \"1\\"))
			fail("prctl");
		child = fork();
		if (child < 0)
			fail("fork");
		if (child == 0)
			_exit(0);
		if (waitpid(child, &status, 0) != child)
			fail("child");
	}

	/* uservol: enough records with user data to fill many sub-buffers */
	if (!strcmp(argv[1], "uservol"))
		for (i = 0; i < NVOLUME; i++)
			syscall(SYS_getppid);
	return 0;
}
