/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_fixture.h - what the scheduling analyses' unit tests share: the
 * metadata of tskdispatch.ctxswitch (4, 1) and tskdispatch.wakeup (4, 3),
 * as the catalogue has them, in a test folder of their own.
 */
#ifndef LKET_SCHED_FIXTURE_H
#define LKET_SCHED_FIXTURE_H

#include "unit.h"

#include "decode/meta.h"

static struct meta sched_meta;

static int sched_setup(void **state)
{
	if (unit_dir_setup(state) || meta_init(&sched_meta) ||
	    meta_register(&sched_meta, 4, 1, false, "INT32:INT32:INT8",
			  "prev_pid:next_pid:prev_state") ||
	    meta_name(&sched_meta, 4, 1, "tskdispatch.ctxswitch") ||
	    meta_register(&sched_meta, 4, 3, false, "INT32:INT32:STRING:INT32",
			  "tid:pid:name:target_cpu") ||
	    meta_name(&sched_meta, 4, 3, "tskdispatch.wakeup"))
		return -1;
	return 0;
}

static int sched_teardown(void **state)
{
	meta_free(&sched_meta);
	return unit_dir_teardown(state);
}

/* The test folder's file name, read back after fn wrote it to a new fd. */
static void sched_written(const char *name, char *text, size_t size,
			  int (*fn)(void *ctx, int fd), void *ctx)
{
	char path[PATH_MAX_UNIT];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", unit_dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fn(ctx, fd), 0);
	close(fd);
	unit_read(name, text, size);
}

#endif
