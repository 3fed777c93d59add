// SPDX-License-Identifier: GPL-2.0
/*
 * symbols.c: call stack addresses to symbols, against a small kernel and
 * module built here with cc from the assembly below: known symbols at
 * known offsets, the kernel linked at 0xffffffff81000000 and traced at
 * another address (a KASLR slide), the module (a relocatable object, as a
 * .ko is) traced at an address of its own.
 */
#include "unit.h"

#include "analysis/symbols.h"

/*
 * ksys_write: 32 bytes at _stext; do_syscall_64: 64 bytes after it; then
 * start_kernel, past the text the trace gives (0x60 bytes)
 */
static const char kernel_s[] =
	"	.section .note.lket, \"a\", @note\n"
	"	.balign 4\n"
	"	.long 4, 20, 3\n"		/* namesz, descsz, NT_GNU_BUILD_ID */
	"	.asciz \"GNU\"\n"
	"	.fill 20, 1, 0x4b\n"		/* the build ID: 4b4b... */
	"	.text\n"
	"	.globl _stext\n"
	"_stext:\n"
	"	.globl ksys_write\n"
	"	.type ksys_write, @function\n"
	"ksys_write:\n"
	"	.fill 32, 1, 0x90\n"
	"	.size ksys_write, 32\n"
	"	.globl do_syscall_64\n"
	"	.type do_syscall_64, @function\n"
	"do_syscall_64:\n"
	"	.fill 64, 1, 0x90\n"
	"	.size do_syscall_64, 64\n"
	/* past _etext (0x60), in the image: as init text is */
	"	.globl start_kernel\n"
	"	.type start_kernel, @function\n"
	"start_kernel:\n"
	"	.fill 16, 1, 0x90\n"
	"	.size start_kernel, 16\n";

/* mod_a: 16 bytes at the start of .text; mod_b: 16 bytes after it */
static const char module_s[] =
	"	.section .note.gnu.build-id, \"a\", @note\n"
	"	.balign 4\n"
	"	.long 4, 20, 3\n"
	"	.asciz \"GNU\"\n"
	"	.fill 20, 1, 0x4d\n"		/* 4d4d... */
	"	.text\n"
	"	.globl mod_a\n"
	"	.type mod_a, @function\n"
	"mod_a:\n"
	"	.fill 16, 1, 0x90\n"
	"	.size mod_a, 16\n"
	"	.globl mod_b\n"
	"	.type mod_b, @function\n"
	"mod_b:\n"
	"	.fill 16, 1, 0x90\n"
	"	.size mod_b, 16\n";

#define KERNEL_ID	"4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b"
#define MODULE_ID	"4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d"
/* where the trace says they were: not where they were linked */
#define KERNEL_BASE	0xffffffff9a000000ull	/* _stext at run time */
#define MODULE_BASE	0xffffffffc0a01000ull	/* the module's text */
#define MODULE_BASE2	0xffffffffc0c03000ull	/* loaded again, there */

static int setup(void **state)
{
	char path[PATH_MAX_UNIT], cmd[4 * PATH_MAX_UNIT];
	FILE *f;

	if (unit_dir_setup(state))
		return -1;
	snprintf(path, sizeof(path), "%s/k.s", unit_dir);
	f = fopen(path, "w");

	if (!f || fputs(kernel_s, f) < 0 || fclose(f))
		return -1;
	snprintf(path, sizeof(path), "%s/m.s", unit_dir);
	f = fopen(path, "w");
	if (!f || fputs(module_s, f) < 0 || fclose(f))
		return -1;
	/* no build ID of the linker's own: the note above is the one */
	snprintf(cmd, sizeof(cmd),
		 "cd %s && cc -nostdlib -static -no-pie -Wl,--build-id=none "
		 "-Wl,-Ttext=0xffffffff81000000 -Wl,-e,_stext -o vmlinux k.s && "
		 "cc -c -o my-mod.ko m.s && cc -c -o other.ko m.s", unit_dir);
	return system(cmd) ? -1 : 0;
}

static struct symbols *make(struct diag_log *log, const char *dir)
{
	struct symbols_options opt = { .dir = dir, .diag = &log->d };
	struct symbols *sy;

	diag_log_init(log);
	assert_int_equal(symbols_new(&sy, &opt), 0);
	assert_int_equal(symbols_set_release(sy, "9.9.9-test"), 0);
	return sy;
}

static const char *lookup(struct symbols *sy, uint64_t addr)
{
	const char *sym = "unset";

	assert_int_equal(symbols_lookup(sy, addr, &sym), 0);
	return sym;
}

/* The kernel, moved by KASLR: the symbols of its link-time addresses. */
static void test_kernel_slide(void **state)
{
	struct diag_log log;
	struct symbols *sy = make(&log, unit_dir);
	const char *first;

	(void)state;
	assert_int_equal(symbols_add_module(sy, "kernel", KERNEL_BASE, 0x60,
					    KERNEL_ID), 0);
	first = lookup(sy, KERNEL_BASE + 5);
	assert_string_equal(first, "ksys_write+0x5");
	assert_string_equal(lookup(sy, KERNEL_BASE + 0x20), "do_syscall_64+0x0");
	assert_string_equal(lookup(sy, KERNEL_BASE + 0x5f), "do_syscall_64+0x3f");
	/* past the text the trace gives, in the kernel's image (init text) */
	assert_string_equal(lookup(sy, KERNEL_BASE + 0x63), "start_kernel+0x3");
	/* resolved once: the same text, from the cache */
	assert_ptr_equal(lookup(sy, KERNEL_BASE + 5), first);
	assert_int_equal(symbols_cached(sy), 4);
	assert_int_equal(log.n, 0);
	symbols_free(sy);
}

/* A module at a relocated address, its file name with '-' for '_'. */
static void test_module_relocated(void **state)
{
	struct diag_log log;
	struct symbols *sy = make(&log, unit_dir);

	(void)state;
	assert_int_equal(symbols_add_module(sy, "kernel", KERNEL_BASE, 0x60,
					    ""), 0);
	assert_int_equal(symbols_add_module(sy, "my_mod", MODULE_BASE, 0x20,
					    MODULE_ID), 0);
	assert_string_equal(lookup(sy, MODULE_BASE), "mod_a+0x0 [my_mod]");
	assert_string_equal(lookup(sy, MODULE_BASE + 0x13),
			    "mod_b+0x3 [my_mod]");
	/* a build ID the trace does not know is not checked */
	assert_string_equal(lookup(sy, KERNEL_BASE + 1), "ksys_write+0x1");
	assert_int_equal(log.n, 0);
	symbols_free(sy);
}

/* Outside every module: no symbol, said once for all such addresses. */
static void test_outside(void **state)
{
	struct diag_log log;
	struct symbols *sy = make(&log, unit_dir);

	(void)state;
	assert_int_equal(symbols_add_module(sy, "kernel", KERNEL_BASE, 0x60,
					    KERNEL_ID), 0);
	assert_null(lookup(sy, 0x1234));
	assert_null(lookup(sy, KERNEL_BASE - 1));	/* just before it */
	assert_string_equal(lookup(sy, KERNEL_BASE), "ksys_write+0x0");
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_NOTE, "", -1,
		    "call stack address 0x1234 is in no module the trace lists (such as a module's init text, freed after init; and maybe others): shown as addresses");
	symbols_free(sy);
}

/* Debuginfo of another build: not used, said once. */
static void test_build_id_mismatch(void **state)
{
	struct diag_log log;
	struct symbols *sy = make(&log, unit_dir);
	char path[PATH_MAX_UNIT], msg[512];

	(void)state;
	assert_int_equal(symbols_add_module(sy, "other", MODULE_BASE, 0x20,
					    KERNEL_ID), 0);
	assert_null(lookup(sy, MODULE_BASE + 1));
	assert_null(lookup(sy, MODULE_BASE + 2));
	assert_int_equal(log.n, 1);
	snprintf(path, sizeof(path), "%s/other.ko", unit_dir);
	snprintf(msg, sizeof(msg),
		 "build ID %s is not the traced other's (%s): its call stack frames are shown as addresses",
		 MODULE_ID, KERNEL_ID);
	assert_diag(&log, 0, DIAG_DAMAGE, path, -1, msg);
	symbols_free(sy);
}

/* No debuginfo at all: one note for every module, then raw addresses. */
static void test_no_debuginfo(void **state)
{
	struct diag_log log;
	char empty[PATH_MAX_UNIT], msg[512];
	struct symbols *sy;

	(void)state;
	snprintf(empty, sizeof(empty), "%s/none", unit_dir);
	sy = make(&log, empty);
	assert_int_equal(symbols_add_module(sy, "kernel", KERNEL_BASE, 0x60,
					    KERNEL_ID), 0);
	assert_int_equal(symbols_add_module(sy, "my_mod", MODULE_BASE, 0x20,
					    MODULE_ID), 0);
	assert_null(lookup(sy, KERNEL_BASE));
	assert_null(lookup(sy, KERNEL_BASE + 1));
	assert_null(lookup(sy, MODULE_BASE + 1));
	assert_int_equal(log.n, 1);
	snprintf(msg, sizeof(msg),
		 "no debuginfo of kernel 9.9.9-test in %s: call stack frames are shown as addresses (install linux-image-9.9.9-test-dbg, or give --debuginfo)",
		 empty);
	assert_diag(&log, 0, DIAG_NOTE, "", -1, msg);
	symbols_free(sy);
}

/* Debuginfo of the kernel but not of a module: said once, of it. */
static void test_module_missing(void **state)
{
	struct diag_log log;
	struct symbols *sy = make(&log, unit_dir);
	char msg[512];

	(void)state;
	assert_int_equal(symbols_add_module(sy, "kernel", KERNEL_BASE, 0x60,
					    KERNEL_ID), 0);
	assert_int_equal(symbols_add_module(sy, "nfsd", MODULE_BASE, 0x20,
					    ""), 0);
	assert_null(lookup(sy, MODULE_BASE + 1));
	assert_null(lookup(sy, MODULE_BASE + 2));
	assert_string_equal(lookup(sy, KERNEL_BASE), "ksys_write+0x0");
	assert_int_equal(log.n, 1);
	snprintf(msg, sizeof(msg),
		 "no symbols for module nfsd in %s: no debuginfo found for it; its call stack frames are shown as addresses",
		 unit_dir);
	assert_diag(&log, 0, DIAG_NOTE, "", -1, msg);
	symbols_free(sy);
}

/*
 * The tracer's own module: not in the debuginfo folder, but NAME.ko in
 * the current folder, where stap -m NAME built it.
 */
static void test_module_in_cwd(void **state)
{
	char here[PATH_MAX_UNIT], cwd[] = "/tmp/lket-unit-cwd-XXXXXX";
	char cmd[4 * PATH_MAX_UNIT], ko[2 * PATH_MAX_UNIT];
	struct diag_log log;
	struct symbols *sy;

	(void)state;
	assert_non_null(getcwd(here, sizeof(here)));
	assert_non_null(mkdtemp(cwd));
	snprintf(ko, sizeof(ko), "%s/lket_x.ko", cwd);
	snprintf(cmd, sizeof(cmd), "cp %s/my-mod.ko %s", unit_dir, ko);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(chdir(cwd), 0);
	sy = make(&log, unit_dir);
	assert_int_equal(symbols_add_module(sy, "kernel", KERNEL_BASE, 0x60,
					    KERNEL_ID), 0);
	assert_int_equal(symbols_add_module(sy, "lket_x", MODULE_BASE, 0x20,
					    MODULE_ID), 0);
	assert_string_equal(lookup(sy, MODULE_BASE + 0x13),
			    "mod_b+0x3 [lket_x]");
	assert_int_equal(log.n, 0);
	assert_int_equal(chdir(here), 0);
	symbols_free(sy);
	assert_int_equal(unlink(ko), 0);
	assert_int_equal(rmdir(cwd), 0);
}

/*
 * Modules loaded while tracing: their records come after lookups.  An
 * address looked up before its module came is looked up again; a module
 * loaded again elsewhere, or another module where it was, wins from then
 * on; the same record twice changes nothing.
 */
static void test_module_late(void **state)
{
	struct diag_log log;
	struct symbols *sy = make(&log, unit_dir);
	const char *first;

	(void)state;
	assert_int_equal(symbols_add_module(sy, "kernel", KERNEL_BASE, 0x60,
					    KERNEL_ID), 0);
	assert_null(lookup(sy, MODULE_BASE + 0x13));
	assert_string_equal(lookup(sy, KERNEL_BASE + 5), "ksys_write+0x5");
	assert_int_equal(symbols_add_module(sy, "my_mod", MODULE_BASE, 0x20,
					    MODULE_ID), 0);
	first = lookup(sy, MODULE_BASE + 0x13);
	assert_string_equal(first, "mod_b+0x3 [my_mod]");
	assert_string_equal(lookup(sy, KERNEL_BASE + 5), "ksys_write+0x5");
	/* the same again: nothing looked up anew */
	assert_int_equal(symbols_add_module(sy, "my_mod", MODULE_BASE, 0x20,
					    MODULE_ID), 0);
	assert_ptr_equal(lookup(sy, MODULE_BASE + 0x13), first);
	assert_int_equal(symbols_cached(sy), 2);
	/* unloaded, loaded again elsewhere (the same build's debuginfo) */
	assert_int_equal(symbols_add_module(sy, "my_mod", MODULE_BASE2, 0x20,
					    MODULE_ID), 0);
	assert_string_equal(lookup(sy, MODULE_BASE2 + 1), "mod_a+0x1 [my_mod]");
	/* another module where it was first: its symbols now */
	assert_int_equal(symbols_add_module(sy, "other", MODULE_BASE, 0x20,
					    MODULE_ID), 0);
	assert_string_equal(lookup(sy, MODULE_BASE + 0x13), "mod_b+0x3 [other]");
	assert_string_equal(lookup(sy, MODULE_BASE2 + 0x11),
			    "mod_b+0x1 [my_mod]");
	/* what was looked up before stays valid for its holder */
	assert_string_equal(first, "mod_b+0x3 [my_mod]");
	assert_int_equal(log.n, 1);
	assert_diag(&log, 0, DIAG_NOTE, "", -1,
		    "call stack address 0xffffffffc0a01013 is in no module the trace lists (such as a module's init text, freed after init; and maybe others): shown as addresses");
	symbols_free(sy);
}

UNIT_MAIN("symbols", setup, unit_dir_teardown,
	  UNIT_TEST(test_kernel_slide), UNIT_TEST(test_module_relocated),
	  UNIT_TEST(test_outside), UNIT_TEST(test_build_id_mismatch),
	  UNIT_TEST(test_no_debuginfo), UNIT_TEST(test_module_missing),
	  UNIT_TEST(test_module_in_cwd), UNIT_TEST(test_module_late))
