// SPDX-License-Identifier: GPL-2.0
/*
 * tasks: threads and processes born while tracing, for tests/guest/ctf.sh.
 * Writes 3 times to /dev/null itself; a thread renamed "lket-worker"
 * (prctl) writes 3 times; a child execs dd, which writes 3 blocks.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void write_null(int n)
{
	int fd = open("/dev/null", O_WRONLY);
	char buf[64] = { 0 };

	while (fd >= 0 && n-- > 0)
		if (write(fd, buf, sizeof(buf)) < 0)
			break;
	if (fd >= 0)
		close(fd);
}

static void *worker(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "lket-worker");
	write_null(3);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pid_t pid;
	int status;

	write_null(3);
	if (pthread_create(&t, NULL, worker, NULL) || pthread_join(t, NULL))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		execl("/bin/dd", "dd", "if=/dev/zero", "of=/dev/null", "bs=512",
		      "count=3", "status=none", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return 1;
	printf("tasks %d worker done, dd %d\n", (int)getpid(), (int)pid);
	return 0;
}
