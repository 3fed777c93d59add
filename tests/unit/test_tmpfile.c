// SPDX-License-Identifier: GPL-2.0
/* tmpfile: what is at PATH changes only on commit; no temporary file stays. */
#include "unit.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../../b2a/tmpfile.h"

/* Files in unit_dir whose name has ".tmp-" in it. */
static int temporaries(void)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(unit_dir);

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strstr(de->d_name, ".tmp-"))
			n++;
	closedir(d);
	return n;
}

static void put(struct tmpfile *t, const char *s)
{
	assert_int_equal(write(t->fd, s, strlen(s)), (ssize_t)strlen(s));
}

static void assert_content(const char *path, const char *want)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	assert_true(n >= 0);
	buf[n] = '\0';
	close(fd);
	assert_string_equal(buf, want);
}

static void test_commit_replaces(void **state)
{
	char path[PATH_MAX_UNIT];
	struct tmpfile t;
	struct stat st;

	(void)state;
	unit_write(path, sizeof(path), "out", "old", 3);
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(tmpfile_open(&t, path), 0);
	put(&t, "new");
	/* not yet */
	assert_content(path, "old");
	assert_int_equal(temporaries(), 1);
	assert_int_equal(tmpfile_commit(&t, true), 0);
	assert_content(path, "new");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(temporaries(), 0);
	/* committed twice, or discarded after: nothing happens */
	assert_int_equal(tmpfile_commit(&t, true), 0);
	tmpfile_discard(&t);
	assert_content(path, "new");
	unlink(path);
}

static void test_discard_keeps(void **state)
{
	char path[PATH_MAX_UNIT];
	struct tmpfile t;

	(void)state;
	unit_write(path, sizeof(path), "out", "old", 3);
	assert_int_equal(tmpfile_open(&t, path), 0);
	put(&t, "new");
	tmpfile_discard(&t);
	assert_content(path, "old");
	assert_int_equal(temporaries(), 0);
	unlink(path);
}

static void test_new_file_mode(void **state)
{
	char path[PATH_MAX_UNIT];
	struct tmpfile t;
	struct stat st;
	mode_t mask = umask(022);

	(void)state;
	snprintf(path, sizeof(path), "%s/new", unit_dir);
	assert_int_equal(tmpfile_open(&t, path), 0);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(tmpfile_commit(&t, false), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(st.st_nlink, 1);
	assert_int_equal(temporaries(), 0);
	umask(mask);
	unlink(path);
}

/* replace false: a file that appeared meanwhile stays */
static void test_no_replace(void **state)
{
	char path[PATH_MAX_UNIT];
	struct tmpfile t;

	(void)state;
	snprintf(path, sizeof(path), "%s/db", unit_dir);
	assert_int_equal(tmpfile_open(&t, path), 0);
	put(&t, "new");
	unit_write(path, sizeof(path), "db", "theirs", 6);
	assert_int_equal(tmpfile_commit(&t, false), -EEXIST);
	assert_content(path, "theirs");
	assert_int_equal(temporaries(), 0);
	unlink(path);
}

/* the link stays; the file it names is replaced */
static void test_symlink(void **state)
{
	char path[PATH_MAX_UNIT], link[PATH_MAX_UNIT];
	struct tmpfile t;
	struct stat st;

	(void)state;
	unit_write(path, sizeof(path), "real", "old", 3);
	snprintf(link, sizeof(link), "%s/link", unit_dir);
	assert_int_equal(symlink("real", link), 0);
	assert_int_equal(tmpfile_open(&t, link), 0);
	put(&t, "new");
	assert_int_equal(tmpfile_commit(&t, true), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_content(path, "new");
	assert_int_equal(temporaries(), 0);
	unlink(link);
	unlink(path);
}

/* not a regular file: written in place, no temporary file beside it */
static void test_device(void **state)
{
	struct tmpfile t;

	(void)state;
	assert_int_equal(tmpfile_open(&t, "/dev/null"), 0);
	assert_null(t.tmp);
	put(&t, "gone");
	assert_int_equal(tmpfile_commit(&t, true), 0);
	assert_int_equal(tmpfile_open(&t, "/dev/null"), 0);
	tmpfile_discard(&t);
}

static void test_unwritable_folder(void **state)
{
	struct tmpfile t;
	char path[PATH_MAX_UNIT];

	(void)state;
	snprintf(path, sizeof(path), "%s/no/such/dir/out", unit_dir);
	assert_int_equal(tmpfile_open(&t, path), -ENOENT);
	assert_null(t.target);
	tmpfile_discard(&t);
}

/* SIGTERM, SIGINT, SIGHUP: the temporary files go, the process dies of it */
static void test_signal(void **state)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	char path[PATH_MAX_UNIT], other[PATH_MAX_UNIT];
	size_t i;
	int status;
	pid_t pid;

	(void)state;
	unit_write(path, sizeof(path), "out", "old", 3);
	snprintf(other, sizeof(other), "%s/report", unit_dir);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			struct tmpfile a, b;

			signal(sigs[i], SIG_DFL);
			if (tmpfile_catch_signals() ||
			    tmpfile_open(&a, path) || tmpfile_open(&b, other) ||
			    write(a.fd, "new", 3) != 3)
				_exit(3);
			raise(sigs[i]);
			_exit(4);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), sigs[i]);
		assert_content(path, "old");
		assert_int_equal(access(other, F_OK), -1);
		assert_int_equal(temporaries(), 0);
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commit_replaces),
		cmocka_unit_test(test_discard_keeps),
		cmocka_unit_test(test_new_file_mode),
		cmocka_unit_test(test_no_replace),
		cmocka_unit_test(test_symlink),
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_unwritable_folder),
		cmocka_unit_test(test_signal),
	};

	return cmocka_run_group_tests(tests, unit_dir_setup, unit_dir_teardown);
}
