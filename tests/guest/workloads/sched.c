// SPDX-License-Identifier: GPL-2.0
/*
 * sched - the wake-ups tests/guest/sched.sh checks, one after the other:
 *   pingpong  threads "lket-ping" on CPU 0 and "lket-pong" on CPU 1 send
 *             a byte back and forth over two pipes ROUNDS times: each
 *             read that sleeps is woken by the other thread's write;
 *   sleeper   thread "lket-sleep" sleeps 10 ms 100 times: woken by the
 *             timer;
 *   fork      a child that exits at once: the parent's wakeup_new;
 *   migrate   thread "lket-move" runs on CPU 0, then moves itself to
 *             CPU 1 with sched_setaffinity.
 * Prints "NAME TID" for each thread (the child: "child PID"), then
 * "done".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS	1000

static int to_pong[2], to_ping[2];

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* This thread on CPU cpu alone, named name; its tid said. */
static void become(const char *name, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	prctl(PR_SET_NAME, name);
	printf("%s %ld\n", name + 5, (long)syscall(SYS_gettid));
	fflush(stdout);
}

static void *ping(void *arg)
{
	char c = 'x';
	int i;

	(void)arg;
	become("lket-ping", 0);
	for (i = 0; i < ROUNDS; i++)
		if (write(to_pong[1], &c, 1) != 1 ||
		    read(to_ping[0], &c, 1) != 1)
			die("ping");
	return NULL;
}

static void *pong(void *arg)
{
	char c;
	int i;

	(void)arg;
	become("lket-pong", 1);
	for (i = 0; i < ROUNDS; i++)
		if (read(to_pong[0], &c, 1) != 1 ||
		    write(to_ping[1], &c, 1) != 1)
			die("pong");
	return NULL;
}

static void *sleeper(void *arg)
{
	const struct timespec ten_ms = { 0, 10 * 1000 * 1000 };
	int i;

	(void)arg;
	become("lket-sleep", 0);
	for (i = 0; i < 100; i++)
		nanosleep(&ten_ms, NULL);
	return NULL;
}

static void *mover(void *arg)
{
	volatile unsigned long spin;

	(void)arg;
	become("lket-move", 0);
	for (spin = 0; spin < 1000000; spin++)
		;
	become("lket-move", 1);
	for (spin = 0; spin < 1000000; spin++)
		;
	return NULL;
}

static void run(void *(*fn)(void *), void *(*fn2)(void *))
{
	pthread_t a, b;

	if (pthread_create(&a, NULL, fn, NULL) ||
	    (fn2 && pthread_create(&b, NULL, fn2, NULL)))
		die("pthread_create");
	pthread_join(a, NULL);
	if (fn2)
		pthread_join(b, NULL);
}

int main(void)
{
	pid_t child;

	if (pipe(to_pong) || pipe(to_ping))
		die("pipe");
	printf("main %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	run(ping, pong);
	run(sleeper, NULL);
	child = fork();
	if (child < 0)
		die("fork");
	if (!child)
		_exit(0);
	printf("child %ld\n", (long)child);
	waitpid(child, NULL, 0);
	run(mover, NULL);
	printf("done\n");
	return 0;
}
