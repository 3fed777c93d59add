// SPDX-License-Identifier: GPL-2.0
/* meta: the built-in metadata records, registration, names, the catalogue. */
#include "unit.h"

#include "decode/meta.h"

static int meta_setup(void **state)
{
	struct meta *m = malloc(sizeof(*m));

	if (!m || meta_init(m)) {
		free(m);
		return -1;
	}
	*state = m;
	return 0;
}

static int meta_teardown(void **state)
{
	meta_free(*state);
	free(*state);
	return 0;
}

static void expect_field(const struct field *f, int type, const char *name,
			 bool hex)
{
	char prefix[256];

	snprintf(prefix, sizeof(prefix), " %s=", name);
	assert_int_equal(f->type, type);
	assert_string_equal(f->name, name);
	assert_string_equal(f->prefix, prefix);
	assert_int_equal(f->prefix_len, strlen(prefix));
	assert_int_equal(f->hex, hex);
}

static void test_init_group0(void **state)
{
	struct meta *m = *state;
	const struct event_meta *e;

	e = meta_get(m, 0, 1);
	assert_non_null(e);
	assert_true(e->named);
	assert_string_equal(e->name, "lket.trace_header");
	assert_int_equal(e->name_len, strlen("lket.trace_header"));
	assert_true(e->sys.defined);
	assert_false(e->user.defined);
	assert_int_equal(e->sys.n, 6);
	expect_field(&e->sys.f[0], LKET_INT16, "version", false);
	expect_field(&e->sys.f[1], LKET_INT32, "byte_order", false);
	expect_field(&e->sys.f[2], LKET_STRING, "clock", false);
	expect_field(&e->sys.f[3], LKET_INT64, "wall_offset", false);
	expect_field(&e->sys.f[4], LKET_INT16, "nr_cpus", false);
	expect_field(&e->sys.f[5], LKET_STRING, "kernel", false);

	e = meta_get(m, 0, 2);
	assert_non_null(e);
	assert_string_equal(e->name, "lket.register_sys_event");
	assert_int_equal(e->sys.n, 4);
	expect_field(&e->sys.f[0], LKET_INT8, "grpid", false);
	expect_field(&e->sys.f[1], LKET_INT8, "hookid", false);
	expect_field(&e->sys.f[2], LKET_STRING, "fmt", false);
	expect_field(&e->sys.f[3], LKET_STRING, "names", false);

	e = meta_get(m, 0, 3);
	assert_non_null(e);
	assert_string_equal(e->name, "lket.register_user_event");
	assert_int_equal(e->sys.n, 4);

	e = meta_get(m, 0, 4);
	assert_non_null(e);
	assert_string_equal(e->name, "lket.event_desc");
	assert_int_equal(e->sys.n, 3);
	expect_field(&e->sys.f[2], LKET_STRING, "name", false);

	e = meta_get(m, 0, 5);
	assert_non_null(e);
	assert_string_equal(e->name, "lket.packet");
	assert_int_equal(e->sys.n, 1);
	expect_field(&e->sys.f[0], LKET_INT32, "discarded", false);

	e = meta_get(m, 0, 7);
	assert_non_null(e);
	assert_string_equal(e->name, "lket.task_new");
	assert_int_equal(e->ev, LKET_EV_TASK_NEW);
	expect_field(&e->sys.f[3], LKET_STRING, "process_name", false);

	e = meta_get(m, 0, 11);
	assert_non_null(e);
	assert_string_equal(e->name, "lket.module");
	assert_int_equal(e->sys.n, 4);
	expect_field(&e->sys.f[0], LKET_INT64, "base", true);
	expect_field(&e->sys.f[1], LKET_INT64, "size", false);
	expect_field(&e->sys.f[2], LKET_STRING, "name", false);
	expect_field(&e->sys.f[3], LKET_STRING, "build_id", false);

	e = meta_get(m, 0, 12);
	assert_non_null(e);
	assert_string_equal(e->name, "lket.cpu_end");
	assert_int_equal(e->sys.n, 3);
	expect_field(&e->sys.f[0], LKET_INT32, "cpu", false);
	expect_field(&e->sys.f[1], LKET_INT64, "records", false);
	expect_field(&e->sys.f[2], LKET_INT64, "dropped", false);

	e = meta_get(m, 0, 13);
	assert_non_null(e);
	assert_string_equal(e->name, "lket.trace_end");
	assert_int_equal(e->sys.n, 2);
	expect_field(&e->sys.f[0], LKET_INT64, "skipped", false);

	/* only group 0 is known in advance, and only its catalogue hooks */
	assert_null(meta_get(m, 0, 200));
	assert_null(meta_get(m, 1, 1));
	assert_null(meta_get(m, 2, 1));
}

static void test_register_types(void **state)
{
	struct meta *m = *state;
	const struct event_meta *e;

	assert_int_equal(meta_register(m, 5, 9, false,
				       "INT8:INT16:INT32:INT64:STRING",
				       "a:bb:count:d:name"), 0);
	e = meta_get(m, 5, 9);
	assert_non_null(e);
	assert_false(e->named);
	assert_true(e->sys.defined);
	assert_false(e->user.defined);
	assert_int_equal(e->sys.n, 5);
	expect_field(&e->sys.f[0], LKET_INT8, "a", false);
	expect_field(&e->sys.f[1], LKET_INT16, "bb", false);
	expect_field(&e->sys.f[2], LKET_INT32, "count", false);
	expect_field(&e->sys.f[3], LKET_INT64, "d", false);
	expect_field(&e->sys.f[4], LKET_STRING, "name", false);

	/* lket(5) spells them UINT* too */
	assert_int_equal(meta_register(m, 5, 10, false,
				       "UINT8:UINT16:UINT32:UINT64",
				       "w:x:y:z"), 0);
	e = meta_get(m, 5, 10);
	assert_int_equal(e->sys.n, 4);
	expect_field(&e->sys.f[0], LKET_INT8, "w", false);
	expect_field(&e->sys.f[1], LKET_INT16, "x", false);
	expect_field(&e->sys.f[2], LKET_INT32, "y", false);
	expect_field(&e->sys.f[3], LKET_INT64, "z", false);

	/* a call stack: a list of addresses, never one hex number */
	assert_int_equal(meta_register(m, 5, 12, false, "INT32", "pid"), 0);
	assert_int_equal(meta_register(m, 5, 12, true, "ADDRS:INT8",
				       "stack_addr:n"), 0);
	e = meta_get(m, 5, 12);
	assert_non_null(e);
	assert_int_equal(e->user.n, 2);
	expect_field(&e->user.f[0], LKET_ADDRS, "stack_addr", false);
	expect_field(&e->user.f[1], LKET_INT8, "n", false);

	/* common_data only */
	assert_int_equal(meta_register(m, 5, 11, false, "", ""), 0);
	e = meta_get(m, 5, 11);
	assert_non_null(e);
	assert_true(e->sys.defined);
	assert_int_equal(e->sys.n, 0);

	/* user fields are a list of their own */
	assert_int_equal(meta_register(m, 5, 9, true, "INT32", "tag"), 0);
	e = meta_get(m, 5, 9);
	assert_true(e->user.defined);
	assert_int_equal(e->user.n, 1);
	expect_field(&e->user.f[0], LKET_INT32, "tag", false);
	assert_int_equal(e->sys.n, 5);
}

static void test_register_invalid(void **state)
{
	struct meta *m = *state;

	assert_int_equal(meta_register(m, 6, 1, false, "INT8:INT8", "a"),
			 -EINVAL);
	assert_int_equal(meta_register(m, 6, 1, false, "INT8", "a:b"),
			 -EINVAL);
	assert_int_equal(meta_register(m, 6, 1, false, "INT8:FLOAT", "a:b"),
			 -EINVAL);
	assert_int_equal(meta_register(m, 6, 1, false, "int8", "a"), -EINVAL);
	assert_int_equal(meta_register(m, 6, 1, false, "INT", "a"), -EINVAL);
	assert_int_equal(meta_register(m, 6, 1, false, "INT8:INT8", "a:"),
			 -EINVAL);
	assert_int_equal(meta_register(m, 6, 1, false, "INT8:", "a:b"),
			 -EINVAL);
	/* nothing of it stays: a valid one is taken afterwards */
	assert_null(meta_get(m, 6, 1));
	assert_int_equal(meta_register(m, 6, 1, false, "INT8", "a"), 0);
	assert_int_equal(meta_get(m, 6, 1)->sys.n, 1);
}

/* Each way a field list or a name is malformed has words of its own,
 * naming the field and the limit. */
static void test_register_why(void **state)
{
	struct meta *m = *state;
	char fmt[1000 * 6], names[1000 * 6];
	size_t i, nf = 0, nn = 0;

	assert_int_equal(meta_register(m, 6, 3, false, "INT8:INT8", "a:a-b"),
			 -EINVAL);
	assert_string_equal(meta_why(m),
			    "field 2, \"a-b\": a field name has 1 to 200 letters, digits or '_'");
	assert_int_equal(meta_register(m, 6, 3, false, "INT8:FLOAT", "a:b"),
			 -EINVAL);
	assert_string_equal(meta_why(m),
			    "field 2, \"b\": unknown type \"FLOAT\" (INT8, INT16, INT32, INT64, their UINT forms, STRING, ADDRS)");
	assert_int_equal(meta_register(m, 6, 3, false, "INT8:INT8", "a"),
			 -EINVAL);
	assert_string_equal(meta_why(m), "2 types but 1 names");
	/* a long name in the reason: whole, not cut at a buffer's end */
	memset(names, 'n', 150);
	strcpy(names + 150, ":b");
	assert_int_equal(meta_register(m, 6, 3, false, "FLOAT:INT8", names),
			 -EINVAL);
	names[150] = '\0';
	snprintf(fmt, sizeof(fmt),
		 "field 1, \"%.150s\": unknown type \"FLOAT\" (INT8, INT16, INT32, INT64, their UINT forms, STRING, ADDRS)",
		 names);
	assert_string_equal(meta_why(m), fmt);
	assert_int_equal(meta_name(m, 6, 3, "ev name"), -EINVAL);
	assert_string_equal(meta_why(m),
			    "event name \"ev name\": an event name has 1 to 200 letters, digits, '_' or '.' (not first or last)");
	for (i = 0; i < 1000; i++) {
		nf += (size_t)sprintf(fmt + nf, "%sINT8", i ? ":" : "");
		nn += (size_t)sprintf(names + nn, "%sf%zu", i ? ":" : "", i);
		if (i + 1 != 65 && i + 1 != 1000)
			continue;
		assert_int_equal(meta_register(m, 6, 3, false, fmt, names),
				 -EINVAL);
		assert_string_equal(meta_why(m), i + 1 == 65 ?
				    "65 fields, more than a record may have (64)" :
				    "1000 fields, more than a record may have (64)");
	}
}

static void test_register_limit(void **state)
{
	struct meta *m = *state;
	char fmt[65 * 6], names[65 * 4];
	size_t i;

	fmt[0] = names[0] = '\0';
	for (i = 0; i < META_MAX_FIELDS; i++) {
		sprintf(fmt + strlen(fmt), "%sINT8", i ? ":" : "");
		sprintf(names + strlen(names), "%sf%zu", i ? ":" : "", i);
	}
	assert_int_equal(meta_register(m, 6, 2, false, fmt, names), 0);
	assert_int_equal(meta_get(m, 6, 2)->sys.n, META_MAX_FIELDS);
	strcat(fmt, ":INT8");
	strcat(names, ":f64");
	assert_int_equal(meta_register(m, 6, 3, false, fmt, names), -EINVAL);
	assert_null(meta_get(m, 6, 3));
}

static void test_reregister(void **state)
{
	struct meta *m = *state;
	const struct event_meta *e;

	assert_int_equal(meta_register(m, 7, 1, false, "INT32:STRING",
				       "pid:comm"), 0);
	/* the same again: fine (every CPU's file may carry it) */
	assert_int_equal(meta_register(m, 7, 1, false, "INT32:STRING",
				       "pid:comm"), 0);
	/* other types, other names: refused, the first one stays */
	assert_int_equal(meta_register(m, 7, 1, false, "INT64:STRING",
				       "pid:comm"), -EEXIST);
	assert_int_equal(meta_register(m, 7, 1, false, "INT32:STRING",
				       "tid:comm"), -EEXIST);
	assert_int_equal(meta_register(m, 7, 1, false, "INT32", "pid"),
			 -EEXIST);
	e = meta_get(m, 7, 1);
	assert_int_equal(e->sys.n, 2);
	expect_field(&e->sys.f[0], LKET_INT32, "pid", false);
	expect_field(&e->sys.f[1], LKET_STRING, "comm", false);
	/* the built-in metadata records can't be changed either */
	assert_int_equal(meta_register(m, 0, 1, false, "INT8", "version"),
			 -EEXIST);
	assert_int_equal(meta_get(m, 0, 1)->sys.n, 6);
}

/* a name met again in an event: a key of its own, tid_2, tid_3 ... */
static void test_keys(void **state)
{
	struct meta *m = *state;
	const struct event_meta *e;

	assert_int_equal(meta_register(m, 7, 2, false, "INT32:INT32:INT32",
				       "tid:tid_2:tid"), 0);
	e = meta_get(m, 7, 2);
	assert_string_equal(e->sys.f[0].key_suffix, "");
	assert_string_equal(e->sys.f[1].key_suffix, "");
	/* tid_2 is taken by a field of that name */
	assert_string_equal(e->sys.f[2].key_suffix, "_3");
	/* the user's fields come after the hook's */
	assert_int_equal(meta_register(m, 7, 2, true, "INT32:INT32", "tid:x"), 0);
	assert_string_equal(e->user.f[0].key_suffix, "_4");
	assert_string_equal(e->user.f[1].key_suffix, "");
	/* whichever is registered first */
	assert_int_equal(meta_register(m, 7, 3, true, "INT32", "fd"), 0);
	e = meta_get(m, 7, 3);
	assert_null(e);
	assert_int_equal(meta_register(m, 7, 3, false, "INT32:INT32", "fd:fd"), 0);
	e = meta_get(m, 7, 3);
	assert_string_equal(e->sys.f[0].key_suffix, "");
	assert_string_equal(e->sys.f[1].key_suffix, "_2");
	assert_string_equal(e->user.f[0].key_suffix, "_3");
}

static bool taken_abc(const char *name, const void *ctx)
{
	(void)ctx;
	return !strcmp(name, "abcdef") || !strcmp(name, "abcd_2");
}

/* the number is kept, the name cut to fit */
static void test_unique_name(void **state)
{
	char out[8];

	(void)state;
	assert_int_equal(meta_unique_name(out, 7, "xyz", taken_abc, NULL), 1);
	assert_string_equal(out, "xyz");
	assert_int_equal(meta_unique_name(out, 6, "abcdef", taken_abc, NULL), 3);
	assert_string_equal(out, "abcd_3");
	assert_int_equal(meta_unique_name(out, 7, "abcdef", taken_abc, NULL), 2);
	assert_string_equal(out, "abcde_2");
}

static void test_hex_names(void **state)
{
	struct meta *m = *state;
	const struct event_meta *e;

	assert_int_equal(meta_register(m, 8, 1, false,
		"INT64:INT32:INT64:INT64:INT16:INT64:INT32:INT32:INT32:INT64:INT32:STRING:INT32:INT32",
		"buf_addr:request_flags:sigset:handler:flag:address:fhandle:nfs_fh0:count:pid:flags_count:str_addr:size:sa_flags"),
		0);
	e = meta_get(m, 8, 1);
	assert_int_equal(e->sys.n, 14);
	expect_field(&e->sys.f[0], LKET_INT64, "buf_addr", true);
	expect_field(&e->sys.f[1], LKET_INT32, "request_flags", true);
	expect_field(&e->sys.f[2], LKET_INT64, "sigset", true);
	expect_field(&e->sys.f[3], LKET_INT64, "handler", true);
	expect_field(&e->sys.f[4], LKET_INT16, "flag", true);
	expect_field(&e->sys.f[5], LKET_INT64, "address", true);
	expect_field(&e->sys.f[6], LKET_INT32, "fhandle", true);
	expect_field(&e->sys.f[7], LKET_INT32, "nfs_fh0", true);
	expect_field(&e->sys.f[8], LKET_INT32, "count", false);
	expect_field(&e->sys.f[9], LKET_INT64, "pid", false);
	expect_field(&e->sys.f[10], LKET_INT32, "flags_count", false);
	/* strings are never hex, whatever their name */
	expect_field(&e->sys.f[11], LKET_STRING, "str_addr", false);
	expect_field(&e->sys.f[12], LKET_INT32, "size", false);
	expect_field(&e->sys.f[13], LKET_INT32, "sa_flags", true);
}

static void test_name(void **state)
{
	struct meta *m = *state;
	const struct event_meta *e;

	/* a name alone makes (group, hook) known, without fields */
	assert_int_equal(meta_name(m, 9, 1, "aio.io_submit"), 0);
	e = meta_get(m, 9, 1);
	assert_non_null(e);
	assert_true(e->named);
	assert_false(e->sys.defined);
	assert_string_equal(e->name, "aio.io_submit");
	assert_int_equal(e->name_len, 13);
	assert_int_equal(meta_name(m, 9, 1, "aio.io_submit"), 0);
	assert_int_equal(meta_name(m, 9, 1, "aio.other"), -EEXIST);
	assert_string_equal(meta_get(m, 9, 1)->name, "aio.io_submit");
	/* fields after the name */
	assert_int_equal(meta_register(m, 9, 1, false, "INT64", "ctx"), 0);
	assert_int_equal(meta_get(m, 9, 1)->sys.n, 1);
	assert_int_equal(meta_name(m, 9, 2, ""), -EINVAL);
	assert_null(meta_get(m, 9, 2));
	assert_int_equal(meta_name(m, 0, 1, "my.header"), -EEXIST);
}

/* Names go unquoted into lket.out and SQL: only identifier characters. */
static void test_unsafe_names(void **state)
{
	struct meta *m = *state;

	assert_int_equal(meta_register(m, 9, 3, false, "INT8", "a b"), -EINVAL);
	assert_int_equal(meta_register(m, 9, 3, false, "INT8", "a=b"), -EINVAL);
	assert_int_equal(meta_register(m, 9, 3, false, "INT8", "x;drop"), -EINVAL);
	assert_int_equal(meta_register(m, 9, 3, false, "INT8", "a.b"), -EINVAL);
	assert_null(meta_get(m, 9, 3));
	assert_int_equal(meta_name(m, 9, 3, "a\"b"), -EINVAL);
	assert_int_equal(meta_name(m, 9, 3, ".aio"), -EINVAL);
	assert_int_equal(meta_name(m, 9, 3, "aio."), -EINVAL);
	assert_int_equal(meta_name(m, 9, 3, "aio io"), -EINVAL);
	assert_null(meta_get(m, 9, 3));
	assert_int_equal(meta_name(m, 9, 3, "aio.io_cancel_2"), 0);
}

static void test_catalogue_name(void **state)
{
	(void)state;
	assert_string_equal(meta_catalogue_name(1, 1), "syscall.entry");
	assert_string_equal(meta_catalogue_name(1, 2), "syscall.return");
	assert_string_equal(meta_catalogue_name(0, 1), "lket.trace_header");
	assert_string_equal(meta_catalogue_name(2, 3), "process.fork");
	assert_null(meta_catalogue_name(200, 9));
	assert_null(meta_catalogue_name(1, 0));
}

/* The catalogue's IDs and names, as runtime/lket_ids.h names them. */
static void test_ids(void **state)
{
	(void)state;
	assert_int_equal(LKET_GROUP_PROCESS, 2);
	assert_int_equal(LKET_HOOK_PROCESS_FORK, 3);
	assert_string_equal(meta_event_name(LKET_EV_PROCESS_FORK),
			    "process.fork");
	assert_string_equal(meta_event_name(LKET_EV_TRACE_HEADER),
			    "lket.trace_header");
	assert_string_equal(meta_group_name(LKET_GROUP_SYSCALL), "syscall");
	assert_string_equal(meta_group_name(LKET_GROUP_IOSCHED),
			    "ioscheduler");
	assert_null(meta_group_name(200));
}

/*
 * Field flags: the catalogue's, by event and field name, whatever the
 * trace's IDs and whichever of name and fields comes first; guessed from
 * the field's name for what the catalogue does not list.
 */
static void test_field_flags(void **state)
{
	struct meta *m = *state;
	const struct event_meta *e;

	/* fields, then the name (as the tapset writes them) */
	assert_int_equal(meta_register(m, 99, 3, false,
		"INT32:INT32:INT32:INT64", "new_tid:new_pid:ppid:parent_addr"),
		0);
	e = meta_get(m, 99, 3);
	assert_int_equal(e->ev, -1);
	assert_int_equal(e->sys.f[1].flags, 0);
	assert_true(e->sys.f[3].hex);
	assert_int_equal(meta_name(m, 99, 3, "process.fork"), 0);
	assert_int_equal(e->ev, LKET_EV_PROCESS_FORK);
	assert_int_equal(e->sys.f[0].flags, LKET_F_TID);
	assert_int_equal(e->sys.f[1].flags, LKET_F_PID);
	assert_int_equal(e->sys.f[2].flags, LKET_F_PID);
	assert_false(e->sys.f[1].hex);
	/* not in the catalogue's process.fork: guessed */
	assert_int_equal(e->sys.f[3].flags, LKET_F_HEX);
	assert_true(e->sys.f[3].hex);

	/* the name, then the fields; user fields are always guessed */
	assert_int_equal(meta_name(m, 77, 2, "scsi.iodispatching"), 0);
	assert_int_equal(meta_register(m, 77, 2, false,
		"INT8:INT64:INT32:INT64", "host:reqbuf_addr:reqbuf_len:request_addr"),
		0);
	assert_int_equal(meta_register(m, 77, 2, true, "INT64:INT32",
				       "user_addr:pid"), 0);
	e = meta_get(m, 77, 2);
	assert_int_equal(e->ev, LKET_EV_SCSI_IODISPATCHING);
	assert_int_equal(e->sys.f[0].flags, 0);
	assert_int_equal(e->sys.f[1].flags, LKET_F_ADDR);
	assert_true(e->sys.f[1].hex);
	assert_false(e->sys.f[2].hex);
	assert_int_equal(e->sys.f[3].flags, LKET_F_ADDR);
	assert_int_equal(e->user.f[0].flags, LKET_F_HEX);
	assert_int_equal(e->user.f[1].flags, 0);

	/* an event the catalogue does not know: guessed */
	assert_int_equal(meta_name(m, 77, 3, "my.event"), 0);
	assert_int_equal(meta_register(m, 77, 3, false, "INT64:INT64",
				       "handler:sigset_size"), 0);
	e = meta_get(m, 77, 3);
	assert_int_equal(e->ev, -1);
	assert_true(e->sys.f[0].hex);
	assert_false(e->sys.f[1].hex);
}

/* A trace without metadata: the catalogue's fields and name. */
static void test_from_catalogue(void **state)
{
	struct meta *m = *state;
	const struct event_meta *e;

	assert_null(meta_get(m, 1, 1));
	assert_int_equal(meta_from_catalogue(m, 1, 1), 0);
	e = meta_get(m, 1, 1);
	assert_non_null(e);
	assert_true(e->named && e->sys.defined);
	assert_string_equal(e->name, "syscall.entry");
	assert_int_equal(e->sys.n, 1);
	assert_string_equal(e->sys.f[0].name, "syscall_name");
	/* again: the same, no conflict */
	assert_int_equal(meta_from_catalogue(m, 1, 1), 0);
	assert_int_equal(meta_from_catalogue(m, 200, 9), -ENOENT);
	assert_null(meta_get(m, 200, 9));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_init_group0, meta_setup,
						meta_teardown),
		cmocka_unit_test_setup_teardown(test_register_types,
						meta_setup, meta_teardown),
		cmocka_unit_test_setup_teardown(test_register_why,
						meta_setup, meta_teardown),
		cmocka_unit_test_setup_teardown(test_register_invalid,
						meta_setup, meta_teardown),
		cmocka_unit_test_setup_teardown(test_register_limit,
						meta_setup, meta_teardown),
		cmocka_unit_test_setup_teardown(test_reregister, meta_setup,
						meta_teardown),
		cmocka_unit_test_setup_teardown(test_keys, meta_setup,
						meta_teardown),
		cmocka_unit_test(test_unique_name),
		cmocka_unit_test_setup_teardown(test_hex_names, meta_setup,
						meta_teardown),
		cmocka_unit_test_setup_teardown(test_name, meta_setup,
						meta_teardown),
		cmocka_unit_test_setup_teardown(test_unsafe_names, meta_setup,
						meta_teardown),
		cmocka_unit_test(test_catalogue_name),
		cmocka_unit_test(test_ids),
		cmocka_unit_test_setup_teardown(test_field_flags, meta_setup,
						meta_teardown),
		cmocka_unit_test_setup_teardown(test_from_catalogue, meta_setup,
						meta_teardown),
	};

	return cmocka_run_group_tests_name("meta", tests, NULL, NULL);
}
