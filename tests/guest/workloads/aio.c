// SPDX-License-Identifier: GPL-2.0
/*
 * aio workload: native AIO through the raw system calls (no libaio):
 * io_setup, io_submit of three iocbs with distinct fds, offsets, sizes
 * and priorities (a pwrite, a pread, a poll that never completes),
 * io_getevents, io_cancel of the poll, io_getevents of the cancelled
 * event, io_destroy.  Prints what the records must hold, as
 * "EXPECT HOOK RETURN FIELD=VALUE..." in lket-b2a's notation
 * (tests/guest/io-expect.awk).
 *
 *   aio DIR
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static char wbuf[4096], rbuf[4096];

static long ret(long r)
{
	return r < 0 ? -errno : r;
}

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

#define ADDR(p) ((unsigned long)(uintptr_t)(p))

int main(int argc, char **argv)
{
	char a[400], b[400];
	struct iocb cb[3], *cbp[3];
	struct io_event ev[4];
	struct timespec ts = { 5, 123456789 };
	aio_context_t ctx = 0;
	int fa, fb, pfd[2], i;
	long r;

	if (argc != 2)
		return 2;
	snprintf(a, sizeof(a), "%s/aio-a-%d", argv[1], (int)getpid());
	snprintf(b, sizeof(b), "%s/aio-b-%d", argv[1], (int)getpid());
	fa = open(a, O_CREAT | O_RDWR | O_TRUNC, 0600);
	fb = open(b, O_CREAT | O_RDWR | O_TRUNC, 0600);
	if (fa < 0 || fb < 0 || pipe(pfd))
		fail("open");
	memset(wbuf, 'w', sizeof(wbuf));
	if (pwrite(fb, wbuf, sizeof(wbuf), 8192) != sizeof(wbuf))
		fail("pwrite");
	printf("PID %d\n", (int)getpid());

	r = ret(syscall(SYS_io_setup, 17, &ctx));
	printf("EXPECT io_setup %ld nr_events=17 ctxp_uaddr=0x%lx\n", r, ADDR(&ctx));
	if (r)
		fail("io_setup");

	memset(cb, 0, sizeof(cb));
	cb[0].aio_lio_opcode = IOCB_CMD_PWRITE;	/* 1 */
	cb[0].aio_reqprio = 0;
	cb[0].aio_fildes = fa;
	cb[0].aio_buf = ADDR(wbuf);
	cb[0].aio_nbytes = 1536;
	cb[0].aio_offset = 4096;
	cb[1].aio_lio_opcode = IOCB_CMD_PREAD;	/* 0 */
	cb[1].aio_reqprio = 3;			/* ignored without IOCB_FLAG_IOPRIO */
	cb[1].aio_fildes = fb;
	cb[1].aio_buf = ADDR(rbuf);
	cb[1].aio_nbytes = 2560;
	cb[1].aio_offset = 8192;
	cb[2].aio_lio_opcode = IOCB_CMD_POLL;	/* 5 */
	cb[2].aio_fildes = pfd[0];
	cb[2].aio_buf = POLLIN;
	for (i = 0; i < 3; i++)
		cbp[i] = &cb[i];

	r = ret(syscall(SYS_io_submit, ctx, 3, cbp));
	printf("EXPECT io_submit %ld ctx_id=%lu nr=3 iocbpp_uaddr=0x%lx\n", r,
	       (unsigned long)ctx, ADDR(cbp));
	for (i = 0; i < 3; i++)
		printf("EXPECT io_submit_one 0 ctx=%lu user_iocb_uaddr=0x%lx aio_lio_opcode=%d aio_reqprio=%d aio_fildes=%u aio_buf=%llu aio_nbytes=%llu aio_offset=%lld\n",
		       (unsigned long)ctx, ADDR(&cb[i]), cb[i].aio_lio_opcode,
		       cb[i].aio_reqprio, cb[i].aio_fildes,
		       (unsigned long long)cb[i].aio_buf,
		       (unsigned long long)cb[i].aio_nbytes,
		       (long long)cb[i].aio_offset);
	if (r != 3)
		fail("io_submit");

	/* the write and the read complete; the poll does not */
	r = ret(syscall(SYS_io_getevents, ctx, 2, 4, ev, &ts));
	printf("EXPECT io_getevents %ld ctx_id=%lu min_nr=2 nr=4 events_uaddr=0x%lx tv_sec=5 tv_nsec=123456789\n",
	       r, (unsigned long)ctx, ADDR(ev));

	/* cancelling the poll: -EINPROGRESS, its event then comes */
	r = ret(syscall(SYS_io_cancel, ctx, &cb[2], &ev[3]));
	printf("EXPECT io_cancel %ld ctx_id=%lu iocb_uaddr=0x%lx result_uaddr=0x%lx\n",
	       r, (unsigned long)ctx, ADDR(&cb[2]), ADDR(&ev[3]));
	r = ret(syscall(SYS_io_getevents, ctx, 1, 1, ev, NULL));
	printf("EXPECT io_getevents %ld ctx_id=%lu min_nr=1 nr=1 events_uaddr=0x%lx tv_sec=-1 tv_nsec=-1\n",
	       r, (unsigned long)ctx, ADDR(ev));
	/* a second cancel finds nothing in flight */
	r = ret(syscall(SYS_io_cancel, ctx, &cb[2], &ev[3]));
	printf("EXPECT io_cancel %ld ctx_id=%lu iocb_uaddr=0x%lx result_uaddr=0x%lx\n",
	       r, (unsigned long)ctx, ADDR(&cb[2]), ADDR(&ev[3]));

	r = ret(syscall(SYS_io_destroy, ctx));
	printf("EXPECT io_destroy %ld ctx=%lu\n", r, (unsigned long)ctx);
	unlink(a);
	unlink(b);
	fflush(stdout);
	return 0;
}
