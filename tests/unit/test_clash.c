// SPDX-License-Identifier: GPL-2.0
/* clash: an output that is an input, holds one, or is another output. */
#include "unit.h"

#include <sys/stat.h>

#include "cli/clash.h"

/* unit_dir/name, in one of a few buffers (a call names up to four) */
static const char *at(const char *name)
{
	static char bufs[8][PATH_MAX_UNIT];
	static unsigned int next;
	char *p = bufs[next++ % 8];

	snprintf(p, PATH_MAX_UNIT, "%s/%s", unit_dir, name);
	return p;
}

static void file(const char *name)
{
	char path[PATH_MAX_UNIT];

	unit_write(path, sizeof(path), name, "x", 1);
}

/* The clash of one output with the inputs. */
static struct clash one(const char *option, const char *path,
			const char *in0, const char *in1)
{
	const struct clash_out out = { option, path };
	char *inputs[2] = { (char *)in0, (char *)in1 };
	struct clash c;

	clash_find(&out, 1, inputs, in1 ? 2 : 1, &c);
	return c;
}

static void assert_clash(struct clash c, enum clash_kind kind, size_t with)
{
	assert_int_equal(c.kind, kind);
	if (kind != CLASH_NONE)
		assert_int_equal(c.with, with);
}

static void test_file(void **state)
{
	char rel[PATH_MAX_UNIT];

	(void)state;
	file("t_0");
	file("t_1");
	assert_int_equal(link(at("t_1"), at("hard")), 0);
	assert_int_equal(symlink("t_0", at("soft")), 0);
	assert_clash(one("-o", at("t_1"), at("t_0"), at("t_1")), CLASH_INPUT, 1);
	assert_clash(one("-o", at("hard"), at("t_0"), at("t_1")), CLASH_INPUT, 1);
	assert_clash(one("-o", at("soft"), at("t_0"), at("t_1")), CLASH_INPUT, 0);
	/* another name of the folder: ./ and .. */
	snprintf(rel, sizeof(rel), "%s/./../%s/t_0", unit_dir,
		 strrchr(unit_dir, '/') + 1);
	assert_clash(one("-d", rel, at("t_0"), NULL), CLASH_INPUT, 0);
	/* neither there yet: the same name is the same file */
	assert_clash(one("-o", at("new"), at("./new"), NULL), CLASH_INPUT, 0);
	assert_clash(one("-o", at("new"), at("t_0"), at("t_1")), CLASH_NONE, 0);
	/* nothing to lose in a device, nor on standard output */
	assert_clash(one("-o", "/dev/null", "/dev/null", NULL), CLASH_NONE, 0);
	assert_clash(one("-o", "-", "-", NULL), CLASH_NONE, 0);
	unlink(at("soft"));
	unlink(at("hard"));
	unlink(at("t_1"));
	unlink(at("t_0"));
}

static void test_folder(void **state)
{
	(void)state;
	assert_int_equal(mkdir(at("d"), 0755), 0);
	assert_int_equal(mkdir(at("d/sub"), 0755), 0);
	assert_int_equal(mkdir(at("d2"), 0755), 0);
	file("d/stream_0");
	file("d/sub/t_0");
	file("d2/t_0");
	file("t_0");
	assert_int_equal(symlink("d", at("l")), 0);
	assert_int_equal(symlink("../t_0", at("d/out")), 0);
	assert_int_equal(symlink("d/stream_0", at("in")), 0);
	assert_clash(one("--ctf", at("d"), at("t_0"), at("d/stream_0")),
		     CLASH_HOLDS_INPUT, 1);
	assert_clash(one("--ctf", at("d/"), at("d/sub/t_0"), NULL),
		     CLASH_HOLDS_INPUT, 0);
	/* the folder, or the input, through a link to the folder */
	assert_clash(one("--ctf", at("l"), at("d/stream_0"), NULL),
		     CLASH_HOLDS_INPUT, 0);
	assert_clash(one("--ctf", at("d"), at("l/stream_0"), NULL),
		     CLASH_HOLDS_INPUT, 0);
	/* a link in the folder to a file outside: the link goes with it */
	assert_clash(one("--ctf", at("d"), at("d/out"), NULL),
		     CLASH_HOLDS_INPUT, 0);
	/* a link outside to a file in it: the file goes */
	assert_clash(one("--ctf", at("d"), at("in"), NULL),
		     CLASH_HOLDS_INPUT, 0);
	/* d2 is not in d, nor d in d/sub */
	assert_clash(one("--ctf", at("d"), at("d2/t_0"), at("t_0")),
		     CLASH_NONE, 0);
	assert_clash(one("--ctf", at("d/sub"), at("d/stream_0"), NULL),
		     CLASH_NONE, 0);
	assert_clash(one("--ctf", "/", at("t_0"), NULL), CLASH_HOLDS_INPUT, 0);
	/* a folder yet to be made holds nothing */
	assert_clash(one("--ctf", at("nosuch"), at("t_0"), NULL), CLASH_NONE, 0);
	unlink(at("in"));
	unlink(at("d/out"));
	unlink(at("l"));
	unlink(at("t_0"));
	unlink(at("d2/t_0"));
	unlink(at("d/sub/t_0"));
	unlink(at("d/stream_0"));
	rmdir(at("d2"));
	rmdir(at("d/sub"));
	rmdir(at("d"));
}

/* - is standard input: the file it comes from, if one */
static void test_stdin(void **state)
{
	int saved = dup(STDIN_FILENO), fd;

	(void)state;
	assert_true(saved >= 0);
	file("t_0");
	assert_int_equal(mkdir(at("d"), 0755), 0);
	file("d/stream_0");
	fd = open(at("t_0"), O_RDONLY | O_CLOEXEC);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	assert_clash(one("-o", at("t_0"), at("d/stream_0"), "-"), CLASH_INPUT, 1);
	assert_clash(one("--ctf", at("d"), "-", NULL), CLASH_NONE, 0);
	fd = open(at("d/stream_0"), O_RDONLY | O_CLOEXEC);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	assert_clash(one("--ctf", at("d"), "-", NULL), CLASH_HOLDS_INPUT, 0);
	assert_clash(one("-o", at("t_0"), "-", NULL), CLASH_NONE, 0);
	/* at any depth; known by its inode, not by /proc's name for it */
	assert_int_equal(mkdir(at("d/sub"), 0755), 0);
	file("d/sub/t_1");
	fd = open(at("d/sub/t_1"), O_RDONLY | O_CLOEXEC);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	assert_clash(one("--ctf", at("d"), "-", NULL), CLASH_HOLDS_INPUT, 0);
	assert_clash(one("--ctf", at("d/sub"), "-", NULL), CLASH_HOLDS_INPUT, 0);
	assert_clash(one("-o", at("d/sub/t_1"), "-", NULL), CLASH_INPUT, 0);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
	unlink(at("d/sub/t_1"));
	rmdir(at("d/sub"));
	unlink(at("d/stream_0"));
	rmdir(at("d"));
	unlink(at("t_0"));
}

/* two outputs, one file; the inputs are looked at first */
static void test_outputs(void **state)
{
	struct clash_out outs[] = {
		{ "-d", NULL }, { "--report", NULL }, { "-o", NULL },
		{ "--ctf", NULL },
	};
	char *inputs[] = { (char *)at("t_0") };
	struct clash c;

	(void)state;
	file("t_0");
	outs[1].path = at("r");
	outs[2].path = at("./r");
	clash_find(outs, 4, inputs, 1, &c);
	assert_int_equal(c.kind, CLASH_OUTPUT);
	assert_int_equal(c.out, 2);
	assert_int_equal(c.with, 1);
	outs[2].path = at("t_0");
	clash_find(outs, 4, inputs, 1, &c);
	assert_int_equal(c.kind, CLASH_INPUT);
	assert_int_equal(c.out, 2);
	assert_int_equal(c.with, 0);
	outs[2].path = at("o");
	outs[3].path = unit_dir;
	clash_find(outs, 4, inputs, 1, &c);
	assert_int_equal(c.kind, CLASH_HOLDS_INPUT);
	assert_int_equal(c.out, 3);
	outs[3].path = NULL;
	clash_find(outs, 4, inputs, 1, &c);
	assert_int_equal(c.kind, CLASH_NONE);
	unlink(at("t_0"));
}

UNIT_MAIN("clash", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_file), UNIT_TEST(test_folder), UNIT_TEST(test_stdin),
	  UNIT_TEST(test_outputs))
