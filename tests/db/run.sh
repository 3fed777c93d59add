#!/bin/sh
# Database outputs of lket-b2a, end to end: generated traces loaded into
# SQLite and into a throwaway PostgreSQL cluster this test starts itself
# (initdb + pg_ctl in a temporary folder, Unix socket only), queried back
# and compared with lket.out; and the bad cases: a full disk (a small
# tmpfs, when run as root), a refused connection, a missing permission, a
# server that goes away mid-load.  Nothing half-loaded may remain.
#
#   tests/db/run.sh BUILD        LKET_SKIP_PG=1 skips PostgreSQL;
#                                LKET_B2A=build/asan/lket-b2a tests that one
set -u
build=$(cd "${1:?usage: run.sh BUILD}" && pwd)
b2a=${LKET_B2A:-$build/lket-b2a}
gen=$build/lket-gen
work=$(mktemp -d /tmp/lket-db.XXXXXX)
chmod 755 "$work"
pass=0 fail=0
mnt=
. "$(dirname "$0")/pg-cluster.sh"

cleanup() {
	pg_stop
	if [ -n "$mnt" ]; then umount "$mnt" 2> /dev/null; fi
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

ok()   { pass=$((pass + 1)); echo "ok   $1"; }
bad()  { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | head -20; }
check() { # NAME EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then ok "$1"; else
		bad "$1" "expected: $2
actual:   $3"; fi
}

cd "$work" || exit 1
"$gen" golden t && "$gen" strings s && "$gen" latency l &&
	"$gen" -n 300000 bench b || { echo "lket-gen failed"; exit 1; }
"$b2a" -q -o t.out t
# per event counts of lket.out, lost flushes as lket.lost
text_counts=$(awk '{ print $6 }' t.out | sort | uniq -c | awk '{ print $2 "|" $1 }')

# ---- SQLite -------------------------------------------------------------
if command -v sqlite3 > /dev/null; then
	"$b2a" -q -f none -d t.db t
	check "sqlite: counts per event equal lket.out's" "$text_counts" \
		"$(sqlite3 t.db "select replace(event, 'unknown', 'unknown[200:9]'), count(*) from events group by 1 order by 1" | LC_ALL=C sort)"
	check "sqlite: values" "openat getppid exit_group" \
		"$(sqlite3 t.db "select syscall_name from syscall_entry order by time, cpu" | xargs)"
	check "sqlite: user-appended fields as columns" "14|6" \
		"$(sqlite3 t.db "select mac_len, priority from netdev_transmit")"
	check "sqlite: indexes on time and tid" "1|1" \
		"$(sqlite3 t.db "select count(*) filter (where name = 'syscall_entry_time'), count(*) filter (where name = 'syscall_entry_tid') from sqlite_master where type = 'index'")"
	"$b2a" -q -f none -d b.db b
	"$b2a" -q -o b.out b
	check "sqlite: 300k events, counts equal lket.out's" \
		"$(awk '{ print $6 }' b.out | LC_ALL=C sort | uniq -c | awk '{ print $2 "|" $1 }')" \
		"$(sqlite3 b.db "select event, count(*) from events group by 1" | LC_ALL=C sort)"
	check "sqlite: 300k events, tids per event equal lket.out's" \
		"$(awk '$6 == "pagefault" { s += $3 } END { print s }' b.out)" \
		"$(sqlite3 b.db "select sum(tid) from pagefault")"
	"$b2a" -q -f none -d l.db --report l.report l
	check "sqlite: latency table equals the report" "syscall(read)|100|5050000|1000|50000|90000|99000|100000" \
		"$(sqlite3 l.db "select what, count, total_ns, min_ns, p50_ns, p90_ns, p99_ns, max_ns from latency_by_event where what = 'syscall(read)'")"
	# bad cases
	mkdir ro && chmod 555 ro
	if [ "$(id -u)" != 0 ]; then
		"$b2a" -q -f none -d ro/t.db t 2> err
		check "sqlite: unwritable folder refused" "2 1" "$? $(grep -c 'Permission denied' err)"
	fi
	if [ "$(id -u)" = 0 ] && mkdir full && mount -t tmpfs -o size=1m tmpfs full 2> /dev/null; then
		mnt=$work/full
		"$b2a" -q -f none -d full/b.db b 2> err
		st=$?
		check "sqlite: disk full reported, nothing left" "2 1 0" \
			"$st $(grep -c 'No space left on device' err) $(ls full | wc -l)"
		# lket.out too: what was there stays, no temporary file
		echo old > full/b.out
		"$b2a" -q -o full/b.out b 2> err
		st=$?
		check "text: disk full reported, the old file kept" "2 1 old 1" \
			"$st $(grep -c 'No space left on device' err) $(cat full/b.out) $(ls full | wc -l)"
		umount full && mnt=
	else
		echo "skip sqlite: disk full (needs root to mount a tmpfs)"
	fi
else
	bad "sqlite3 (the command) is missing: tools/install-deps build"
fi

# ---- PostgreSQL ---------------------------------------------------------
if [ "${LKET_SKIP_PG:-}" = 1 ]; then
	echo "skip PostgreSQL (LKET_SKIP_PG=1)"
elif ! pg_start "$work"; then
	bad "PostgreSQL: cannot start a cluster"
else
	conn=$pgconn
	q() { "$pgbin/psql" "$conn" -XAtq -c "$1" 2>&1; }

	"$b2a" -q -f none --pg "$conn" t
	check "pg: schema named after the trace, loaded" "$?" 1
	check "pg: counts per event equal lket.out's" "$text_counts" \
		"$(q "select replace(event, 'unknown', 'unknown[200:9]'), count(*) from t.events group by 1" | LC_ALL=C sort)"
	check "pg: values" "openat getppid exit_group" \
		"$(q "select syscall_name from t.syscall_entry order by time, cpu" | xargs)"
	check "pg: values equal SQLite's" \
		"$(sqlite3 -separator '|' t.db "select time, tid, pid, comm, filename, flags, mode from iosyscall_open_entry")" \
		"$(q "select time, tid, pid, comm, filename, flags, mode from t.iosyscall_open_entry")"
	check "pg: processes, lost, trace" "5|1|mono|t_0,t_1" \
		"$(q "select (select count(*) from t.processes), (select sum(count) from t.lost), clock, replace(files, E'\n', ',') from t.trace")"
	"$b2a" -q -f none --pg "$conn" t 2> err
	check "pg: an existing schema is refused" "2 1" \
		"$? $(grep -c 'schema t exists: give --replace' err)"
	"$b2a" -q -f none --replace --event syscall --pg "$conn" t
	check "pg: --replace reloads it (5 syscalls, 1 lost)" "6" \
		"$(q "select count(*) from t.events")"
	"$b2a" -q -f none --pg "$conn" --schema strings s
	check "pg: invalid UTF-8 kept as \\xNN text" \
		"$(printf 'x,y"z\\r|w\\v\001\177\360\237\230\200|\\xfe\\xff')" \
		"$(q "select replace(replace(filename, E'\r', '\r'), E'\n', '|') from strings.iosyscall_open_entry")"
	"$b2a" -q -f none --pg "$conn" --report l.report l
	check "pg: latency as tables" "syscall(read)|100|50000|90000|99000" \
		"$(q "select what, count, p50_ns, p90_ns, p99_ns from l.latency_by_event where what = 'syscall(read)'")"
	"$b2a" -q -f none --pg "$conn" b
	check "pg: 300k events" "$(wc -l < b.out)" "$(q "select count(*) from b.events")"

	# bad cases
	"$b2a" -q -f none --pg "host=$work/nowhere user=lket dbname=postgres" t 2> err
	check "pg: a refused connection is reported" "2 1" \
		"$? $(grep -c 'PostgreSQL: cannot connect' err)"
	q "create role weak login; revoke create on database postgres from public; revoke create on schema public from public" > /dev/null
	"$b2a" -q -f none --pg "host=$work/pg user=weak dbname=postgres" --schema w t 2> err
	check "pg: a permission error is reported, nothing loaded" "2 1 0" \
		"$? $(grep -c 'permission denied' err) $(q "select count(*) from pg_namespace where nspname = 'w'")"
	# the server goes away mid-load
	"$gen" -n 3000000 bench big
	"$b2a" -q -f none --pg "$conn application_name=lket-b2a-test" big 2> err &
	pid=$!
	n=0
	while [ $n -lt 200 ] && [ "$(q "select count(*) from pg_stat_activity where application_name = 'lket-b2a-test'")" != 1 ]; do
		sleep 0.05; n=$((n + 1))
	done
	sleep 0.3
	q "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'lket-b2a-test'" > /dev/null
	wait $pid
	st=$?
	check "pg: a lost connection is reported, nothing left" "2 1 0" \
		"$st $(grep -ci 'PostgreSQL:.*\(terminat\|connection\|closed\)' err) $(q "select count(*) from pg_namespace where nspname = 'big'")"
	[ "$st" = 2 ] || cat err
fi

echo "db: $pass passed, $fail failed"
[ "$fail" = 0 ]
