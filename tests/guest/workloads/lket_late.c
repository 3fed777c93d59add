// SPDX-License-Identifier: GPL-2.0
/*
 * lket_late: a kernel module loaded after a script started, for
 * tests/guest/latemod.sh.  Built twice: the script is compiled against
 * the build with LKET_LATE_SUFFIX "0", the guest loads the one with "1".
 *
 *  - lket_late_plain(): the same in both: its probe must be armed and
 *    fire once, from the init;
 *  - lket_late_clone(): its symbol is lket_late_clone.isra.N, N the
 *    suffix: the loaded build has no symbol of the name the script
 *    knows;
 *  - lket_late_blocked(): on the kprobe blacklist (NOKPROBE_SYMBOL): the
 *    kernel refuses to register a probe there.
 */
#include <linux/kprobes.h>
#include <linux/module.h>

#ifndef LKET_LATE_SUFFIX
#define LKET_LATE_SUFFIX "0"
#endif

/*
 * noipa, not only noinline: gcc 14 (Debian 13) works out what such a
 * function returns for a constant argument and drops the call, so that
 * a probe on it, armed, never fired.
 */
static noinline __attribute__((noipa)) int lket_late_plain(int x)
{
	return x + 1;
}

/* the name a .isra clone gets, numbered by the build */
static noinline __attribute__((noipa)) int lket_late_clone(int x)
	__asm__("lket_late_clone.isra." LKET_LATE_SUFFIX);
static noinline __attribute__((noipa)) int lket_late_clone(int x)
{
	return x * 2;
}

static noinline int lket_late_blocked(int x)
{
	return x - 1;
}
NOKPROBE_SYMBOL(lket_late_blocked);

static int __init lket_late_init(void)
{
	pr_info("lket_late: %d\n", lket_late_plain(1) + lket_late_clone(2) +
		lket_late_blocked(3));
	return 0;
}

static void __exit lket_late_exit(void)
{
}

module_init(lket_late_init);
module_exit(lket_late_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("LKET test: probes in a module loaded after the start");
