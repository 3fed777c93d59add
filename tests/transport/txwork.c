/* Workload for tests/transport: N getppid() calls as fast as possible, then
 * exit at once (so the last records are written just before the command
 * ends).  Installed as "lkettx-work": the stress module keys on that name. */
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000, i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
