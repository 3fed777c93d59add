// SPDX-License-Identifier: GPL-2.0
/* rpcreport: each call's time split in three, per procedure. */
#include "unit.h"

#include "analysis/rpcreport.h"

/* Write r to a file and read it back into buf. */
static void written(struct rpcreport *r, char *buf, size_t size)
{
	char path[PATH_MAX_UNIT];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/rpc", unit_dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(rpcreport_write(r, fd), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	n = read(fd, buf, size - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	close(fd);
}

static void test_split(void **state)
{
	/* three NFSv3 WRITEs: 100, 200, 300 us; the server 40, 50, 60 us */
	static const struct rpc_call calls[] = {
		{ 1, 100003, 1000000, 1100000 },
		{ 2, 100003, 2000000, 2200000 },
		{ 3, 100003, 3000000, 3300000 },
		{ 4, 100003, 4000000, 0 },		/* never released */
		{ 5, 100003, 5000000, 5010000 },	/* server longer */
		{ 6, 100021, 6000000, 6001000 },	/* nlockmgr */
	};
	static const struct rpc_serve serves[] = {
		{ 1, 100003, 3, 7, 9000000, 9040000 },
		{ 2, 100003, 3, 7, 9100000, 9150000 },
		{ 3, 100003, 3, 7, 9200000, 9260000 },
		{ 4, 100003, 3, 7, 9300000, 9310000 },
		{ 5, 100003, 3, 7, 9400000, 9420000 },
		{ 6, 100021, 4, 22, 9500000, 9500500 },
	};
	struct rpc_match m[6];
	struct rpcreport *r;
	char buf[4096];
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++)
		m[i] = (struct rpc_match){ &calls[i], &serves[i] };
	assert_int_equal(rpcreport_new(&r), 0);
	assert_int_equal(rpcreport_add(r, "c", "s", m, 6, 8), 0);
	written(r, buf, sizeof(buf));
	assert_non_null(strstr(buf, "client c, server s: 6 of 8 calls answered\n"));
	/* nearest rank: p50 of 3 is the 2nd, p90 and p99 the 3rd */
	assert_non_null(strstr(buf,
		"nfs.v3.WRITE                    3 total                 200.000            300.000            300.000            300.000\n"
		"                                  server                 50.000             60.000             60.000             60.000\n"
		"                                  wire+queue            150.000            240.000            240.000            240.000\n"
		"    1 left out: no release_task or no svc.send\n"
		"    1 left out: the server took longer than the call\n"));
	assert_non_null(strstr(buf,
		"nlockmgr.v4.22                  1 total                   1.000"));
	/* sorted by program */
	assert_true(strstr(buf, "nfs.v3") < strstr(buf, "nlockmgr"));
	rpcreport_free(r);
}

static void test_empty(void **state)
{
	struct rpcreport *r;
	char buf[1024];

	(void)state;
	assert_int_equal(rpcreport_new(&r), 0);
	written(r, buf, sizeof(buf));
	assert_non_null(strstr(buf, "# lket-b2a RPC report"));
	assert_null(strstr(buf, "procedure"));
	rpcreport_free(r);
}

UNIT_MAIN("rpcreport", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_split), UNIT_TEST(test_empty))
