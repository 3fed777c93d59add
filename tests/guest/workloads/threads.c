// SPDX-License-Identifier: GPL-2.0
/*
 * threads workload: COUNT threads that wait, so that the process
 * snapshot at the start of tracing has that many tasks to record
 * (tests/guest/loss.sh).  Prints "READY n" once they all exist, then
 * waits until its standard input reaches its end.
 *
 *   threads COUNT
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int gate[2];

static void *wait_gate(void *arg)
{
	char c;

	(void)arg;
	while (read(gate[0], &c, 1) < 0)
		;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t t;
	int i, n;
	char c;

	if (argc != 2)
		return 2;
	n = atoi(argv[1]);
	if (pipe(gate) || pthread_attr_init(&attr) ||
	    pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN))
		return 1;
	for (i = 0; i < n; i++)
		if (pthread_create(&t, &attr, wait_gate, NULL)) {
			perror("pthread_create");
			return 1;
		}
	printf("READY %d\n", n);
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	return 0;
}
