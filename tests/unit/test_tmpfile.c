// SPDX-License-Identifier: GPL-2.0
/* tmpfile: what is at PATH changes only on commit; no temporary stays. */
#include "unit.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "util/tmpfile.h"

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

/* a link to a file not made yet stays too: the file is made where it
 * points, through a second link and a relative folder */
static void test_symlink_dangling(void **state)
{
	char path[PATH_MAX_UNIT], link[PATH_MAX_UNIT], link2[PATH_MAX_UNIT];
	char sub[PATH_MAX_UNIT];
	struct tmpfile t;
	struct stat st;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/sub", unit_dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(path, sizeof(path), "%s/sub/new", unit_dir);
	snprintf(link, sizeof(link), "%s/link", unit_dir);
	snprintf(link2, sizeof(link2), "%s/sub/link2", unit_dir);
	assert_int_equal(symlink("sub/link2", link), 0);
	assert_int_equal(symlink("new", link2), 0);
	assert_int_equal(tmpfile_open(&t, link), 0);
	put(&t, "new");
	assert_int_equal(tmpfile_commit(&t, true), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(link2, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_content(path, "new");
	assert_int_equal(temporaries(), 0);
	unlink(link);
	unlink(link2);
	unlink(path);
	rmdir(sub);
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

/* a folder of files: in place whole on commit, gone on discard */
static void test_tmpdir(void **state)
{
	char path[PATH_MAX_UNIT], file[PATH_MAX_UNIT];
	const char *a, *b, *again;
	struct tmpdir d;
	struct stat st;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/ctf", unit_dir);
	assert_int_equal(tmpdir_make(&d, path), 0);
	assert_int_equal(temporaries(), 1);
	assert_int_equal(stat(d.path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_int_equal(tmpdir_file(&d, "stream_0", &a), 0);
	assert_int_equal(tmpdir_file(&d, "metadata", &b), 0);
	assert_int_equal(tmpdir_file(&d, "stream_0", &again), 0);
	assert_ptr_equal(a, again);
	fd = open(a, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(tmpdir_commit(&d, path), 0);
	assert_null(d.path);
	assert_int_equal(temporaries(), 0);
	snprintf(file, sizeof(file), "%s/ctf/stream_0", unit_dir);
	assert_int_equal(access(file, F_OK), 0);
	/* committed: discard leaves it */
	tmpdir_discard(&d);
	assert_int_equal(access(file, F_OK), 0);
	unlink(file);
	rmdir(path);

	assert_int_equal(tmpdir_make(&d, path), 0);
	assert_int_equal(tmpdir_file(&d, "metadata", &a), 0);
	fd = open(a, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	tmpdir_discard(&d);
	assert_int_equal(temporaries(), 0);
	assert_int_equal(access(path, F_OK), -1);

	/* a folder in it: its files, it, then the folder go on discard */
	assert_int_equal(tmpdir_make(&d, path), 0);
	assert_int_equal(tmpdir_subdir(&d, "kernel"), 0);
	assert_int_equal(tmpdir_file(&d, "kernel/metadata", &a), 0);
	assert_int_equal(tmpdir_file(&d, "metadata", &b), 0);
	assert_ptr_not_equal(a, b);
	fd = open(a, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(stat(d.dirs[0], &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	tmpdir_discard(&d);
	assert_int_equal(temporaries(), 0);
	assert_int_equal(access(path, F_OK), -1);
}

/*
 * Every signal that ends the process: the temporary files and folders
 * go, files in the folders first, and it dies of that signal.  More of
 * them than a fixed table would hold.
 */
static void test_signal_folder(void **state)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				    SIGPIPE, SIGXCPU, SIGXFSZ };
	char path[PATH_MAX_UNIT], name[32];
	const struct rlimit no_core = { 0, 0 };
	size_t i;
	int status;
	pid_t pid;

	(void)state;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			struct tmpfile t[3];
			struct tmpdir d[2];
			const char *f;
			int j, k, fd;

			signal(sigs[i], SIG_DFL);
			setrlimit(RLIMIT_CORE, &no_core);
			if (tmpfile_catch_signals())
				_exit(3);
			for (j = 0; j < 3; j++) {
				snprintf(path, sizeof(path), "%s/out%d", unit_dir, j);
				if (tmpfile_open(&t[j], path))
					_exit(3);
			}
			for (k = 0; k < 2; k++) {
				snprintf(path, sizeof(path), "%s/ctf%d", unit_dir, k);
				/* the files in a folder inside it, as --ctf's */
				if (tmpdir_make(&d[k], path) ||
				    tmpdir_subdir(&d[k], "kernel"))
					_exit(3);
				for (j = 0; j < 10; j++) {
					snprintf(name, sizeof(name), "kernel/stream_%d", j);
					if (tmpdir_file(&d[k], name, &f))
						_exit(3);
					fd = open(f, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
					if (fd < 0)
						_exit(3);
					close(fd);
				}
			}
			/* one discarded: its slots free, taken again */
			tmpfile_discard(&t[1]);
			snprintf(path, sizeof(path), "%s/out1", unit_dir);
			if (tmpfile_open(&t[1], path))
				_exit(3);
			raise(sigs[i]);
			_exit(4);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), sigs[i]);
		assert_int_equal(temporaries(), 0);
	}
}

/* held, a signal waits; let in, it ends the process */
static void test_hold_signals(void **state)
{
	char path[PATH_MAX_UNIT];
	int status;
	pid_t pid;

	(void)state;
	snprintf(path, sizeof(path), "%s/held", unit_dir);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct tmpfile t;
		sigset_t mask;
		int fd;

		signal(SIGTERM, SIG_DFL);
		if (tmpfile_catch_signals() || tmpfile_open(&t, path))
			_exit(3);
		tmpfile_hold_signals(&mask);
		raise(SIGTERM);
		fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			_exit(3);
		close(fd);
		tmpfile_release_signals(&mask);
		_exit(4);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(temporaries(), 0);
	unlink(path);
}

UNIT_MAIN("tmpfile", unit_dir_setup, unit_dir_teardown,
	  UNIT_TEST(test_commit_replaces), UNIT_TEST(test_discard_keeps),
	  UNIT_TEST(test_new_file_mode), UNIT_TEST(test_no_replace),
	  UNIT_TEST(test_symlink), UNIT_TEST(test_symlink_dangling),
	  UNIT_TEST(test_device), UNIT_TEST(test_unwritable_folder),
	  UNIT_TEST(test_signal), UNIT_TEST(test_tmpdir),
	  UNIT_TEST(test_signal_folder), UNIT_TEST(test_hold_signals))
