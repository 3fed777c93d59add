// SPDX-License-Identifier: GPL-2.0
/*
 * pf_syscalls: x86-64 system call numbers by name: the common ones, the
 * first and the last, names that are a prefix of a call's or longer than
 * it, and every call of the kernel's own header where the machine has it.
 */
#include "unit.h"

#include "output/perfetto/pf.h"

static int nr(const char *s)
{
	return pf_syscall_nr(s, strlen(s));
}

static void test_known(void **state)
{
	(void)state;
	assert_int_equal(nr("read"), 0);
	assert_int_equal(nr("openat"), 257);
	assert_int_equal(nr("getppid"), 110);
	assert_int_equal(nr("exit_group"), 231);
	assert_int_equal(nr("clock_nanosleep"), 230);
	assert_int_equal(nr("newfstatat"), 262);
	assert_int_equal(nr("rt_sigreturn"), 15);
	/* by its bytes: the name need not end there */
	assert_int_equal(pf_syscall_nr("writev!", 6), 20);
}

static void test_unknown(void **state)
{
	(void)state;
	assert_int_equal(nr(""), -1);
	assert_int_equal(nr("rea"), -1);
	assert_int_equal(nr("readx"), -1);
	assert_int_equal(nr("no_such_call"), -1);
	assert_int_equal(nr("sendfile64"), -1);	/* x86-64's is sendfile */
}

/* Every call the machine's kernel header names, where it has one. */
static void test_header(void **state)
{
	FILE *f = fopen("/usr/include/x86_64-linux-gnu/asm/unistd_64.h", "r");
	char line[256], name[64];
	int n, calls = 0;

	(void)state;
	if (!f)
		skip();
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "#define __NR_%63s %d", name, &n) == 2) {
			if (nr(name) != n)
				fail_msg("%s: %d, the header says %d", name,
					 nr(name), n);
			calls++;
		}
	fclose(f);
	assert_true(calls > 300);
}

UNIT_MAIN("pf_syscalls", NULL, NULL,
	  UNIT_TEST(test_known), UNIT_TEST(test_unknown),
	  UNIT_TEST(test_header))
