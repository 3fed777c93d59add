#!/bin/sh
# Database outputs of lket-b2a, end to end: generated traces loaded into
# SQLite and into a throwaway PostgreSQL cluster this test starts itself
# (initdb + pg_ctl in a temporary folder, Unix socket only), queried back
# and compared with lket.out; every output read back value for value
# (roundtrip.py); metadata that SQL names do not take; lket-b2a(1)'s
# queries timed on a million events; SQLite's memory at 1 M and 4 M
# events; several hosts in one database (lket-gen rpc: an NFS client and
# its server): one run, two loads at once, a third host later, a host
# dropped, a host reloaded, lket-b2a(1)'s queries across hosts; and the
# bad cases: a full disk (a small tmpfs, when run as
# root), a refused connection, a missing permission, a server that goes
# away mid-load.  Nothing half-loaded may remain.
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

here=$(cd "$(dirname "$0")" && pwd)
cd "$work" || exit 1
"$gen" golden t && "$gen" strings s && "$gen" latency l && "$gen" -p golden p &&
	"$gen" -n 300000 bench b && "$gen" dbnames d && "$gen" -n 4000 many m &&
	"$gen" -n 1000000 bench q && "$gen" stacks k && "$gen" -n 40 rpc r > truth &&
	"$gen" -n 200000 bench h1 && "$gen" -n 200000 bench h2 ||
	{ echo "lket-gen failed"; exit 1; }
"$b2a" -q -o t.out t
# the text, JSON and CSV of the golden traces, times in nanoseconds (p:
# format version 2, whose lost lines name their CPU, one of them records
# the tracer dropped)
for n in t s l p; do
	# (status 1: the golden trace lost a flush)
	"$b2a" -q -t raw -o $n.raw $n; "$b2a" -q -t raw -f json -o $n.json $n
	"$b2a" -q -t raw -f csv -o $n.csv $n
done
# two hosts (r: the same outputs, each event with its host)
two="client=r-client server=r-server"
"$b2a" -q -t raw -o r.raw $two; "$b2a" -q -t raw -f json -o r.json $two
"$b2a" -q -t raw -f csv -o r.csv $two
# events per host, from lket.out (the host after the time)
host_counts=$(awk '{ print $2 }' r.raw | LC_ALL=C sort | uniq -c | awk '{ print $2 "|" $1 }')
# each RPC as lket.out has it: the client's time from execute to
# release, the server's from process to send (the same xid)
rpc_times=$(awk '$7 == "sunrpc.sched.execute.entry" { split($8, a, "="); c[a[2]] = $1 }
	$7 == "sunrpc.sched.release_task.entry" { split($8, a, "="); r[a[2]] = $1 }
	$7 == "sunrpc.svc.process.entry" { split($11, a, "="); p[a[2]] = $1 }
	$7 == "sunrpc.svc.send.entry" { split($10, a, "="); s[a[2]] = $1 }
	END { for (x in c) if (x in r && x in p && x in s)
		print x "|" r[x] - c[x] "|" s[x] - p[x] "|" (c[x] < p[x] && s[x] < r[x]) }' r.raw | LC_ALL=C sort)
# lket-b2a(1)'s query, per client, server and procedure, from lket.out
rpc_by_proc=$(awk '$7 == "sunrpc.sched.execute.entry" { split($8, a, "="); c[a[2]] = $1; ch[a[2]] = $2 }
	$7 == "sunrpc.sched.release_task.entry" { split($8, a, "="); r[a[2]] = $1 }
	$7 == "sunrpc.svc.process.entry" { split($11, a, "="); p[a[2]] = $1; sh[a[2]] = $2; split($14, b, "="); pr[a[2]] = b[2] }
	$7 == "sunrpc.svc.send.entry" { split($10, a, "="); s[a[2]] = $1 }
	END { for (x in c) if (x in r && x in p && x in s) {
		k = ch[x] "|" sh[x] "|" pr[x]; n[k]++; cs[k] += r[x] - c[x]; ss[k] += s[x] - p[x] }
		for (k in n) print k "|" n[k] "|" cs[k] "|" ss[k] }' r.raw | LC_ALL=C sort)
rpc_doc=$(sed -n '/^SELECT c.host AS client/,/^ GROUP BY/p' "$here/../../man/lket-b2a.1" | sed 's/\\-/-/g')
# lket-b2a(1), SEVERAL HOSTS IN ONE DATABASE: each RPC's time at the
# client and at the server
# (and, the clocks aligned, the server's time within the client's)
rpc_query="select c.xid, r.time - c.time, x.time - s.time,
    case when c.time < s.time and x.time < r.time then 1 else 0 end
  from sunrpc_sched_execute_entry c
  join sunrpc_sched_release_task_entry r on r.host = c.host and r.xid = c.xid
  join sunrpc_svc_process_entry s on s.rq_xid = c.xid and s.host <> c.host
  join sunrpc_svc_send_entry x on x.host = s.host and x.rq_xid = s.rq_xid"
roundtrip() { # NAME [PGCONN SCHEMA PSQL]: with the SQLite database NAME.db
	if out=$("$here/roundtrip.py" $n.raw $n.json $n.csv $n.db "$@" 2>&1); then
		ok "roundtrip $n: $(echo "$out" | grep -c '^ok') outputs equal lket.out value for value"
	else
		bad "roundtrip $n" "$out"
	fi
}
# per event counts of a trace's lket.out
counts() { awk '{ print $6 }' "$1" | LC_ALL=C sort | uniq -c | awk '{ print $2 "|" $1 }'; }
"$b2a" -q -o d.out d && "$b2a" -q -o m.out m
# lket-b2a(1)'s queries (EXAMPLES), each given 10 s on a million events
slowest_reads="select e.tid, e.comm, r.time - e.time as ns
  from syscall_entry e join syscall_return r on r.tid = e.tid
  and r.time = (select min(time) from syscall_return
                where tid = e.tid and time > e.time)
  where e.syscall_name = 'read' order by ns desc limit 10"
by_address="select a.request_addr, c.time - a.time as ns
  from ioscheduler_elv_add_request_hex a
  join ioscheduler_elv_completed_request_hex c using (request_addr)
  order by ns desc limit 10"
timed() { # NAME COMMAND...: fails past 10 s
	name=$1
	shift
	start=$(date +%s%N)
	if timeout 10 "$@" > /dev/null 2> err; then
		ok "$name: $((($(date +%s%N) - start) / 1000000)) ms"
	else
		bad "$name: over 10 s, or failed" "$(cat err)"
	fi
}
# each host's first_time and last_time: the min and max time of its
# events (the lost rows are not events); NULL and 0 events for a host
# that has none
first_last="select t.host, case when e.host is null
  then coalesce(t.first_time, 'NULL') || ' ' || coalesce(t.last_time, 'NULL') || ' ' || t.events
  else (t.first_time = e.first) || ' ' || (t.last_time = e.last) end
  from trace t left join (select host, min(time) as first, max(time) as last
  from events where event not like 'lket.%' group by host) e using (host) order by 1"
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
	check "sqlite: indexes on time and (tid, time)" "1|1" \
		"$(sqlite3 t.db "select count(*) filter (where name = 'syscall_entry_time'), count(*) filter (where name = 'syscall_entry_tid_time') from sqlite_master where type = 'index'")"
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
	"$b2a" -q -f none -d s.db s
	"$b2a" -q -f none -d p.db p
	"$b2a" -q -f none -d r.db $two
	for n in t s l p r; do roundtrip; done
	check "sqlite: two hosts: events per host equal lket.out's" "$host_counts" \
		"$(sqlite3 r.db "select host, count(*) from events group by 1 order by 1")"
	check "sqlite: two hosts: each RPC's time at the client and the server" \
		"$rpc_times" "$(sqlite3 r.db "$rpc_query" | LC_ALL=C sort)"
	check "sqlite: two hosts: lket-b2a(1)'s RPC times per procedure" \
		"$rpc_by_proc" "$(sqlite3 r.db "$rpc_doc" | LC_ALL=C sort)"
	check "sqlite: two hosts: a trace row each, the server's clock aligned" \
		"client|0|0|80 server|1|1|81" \
		"$(sqlite3 r.db "select host, clock_offset <> 0, clock_uncertainty > 0, events from trace order by 1" | xargs)"
	"$b2a" -q -f none --host lab-1 -d h.db s
	check "sqlite: one trace, --host names it" "lab-1|$(wc -l < s.raw)" \
		"$(sqlite3 h.db "select host, count(*) from events group by 1")"
	# trace.first_time and last_time: nanoseconds of the trace clock, as
	# every time column, of the first and last events written (filtered,
	# several hosts' too; records before them that are not events do not
	# count); NULL for a host without events
	"$b2a" -q -f none -d f.db --event syscall,pagefault t
	"$b2a" -q -f none -d g.db --from 0.0000015 t
	"$b2a" -q -f none -d rf.db --event sunrpc.svc.send $two
	check "sqlite: trace.first_time and last_time are the events' first and last times" \
		"localhost|1 1 localhost|1 1 localhost|1 1 client|1 1 server|1 1 client|NULL NULL 0 server|1 1" \
		"$(for db in t f g r rf; do sqlite3 $db.db "$first_last"; done | xargs)"
	check "sqlite: kernel addresses as text shows them, and as 64 bits" \
		"0xffff888000100000|-131391638470656|5" \
		"$(sqlite3 l.db "select h.request_addr, r.request_addr, (select count(distinct request_addr) from ioscheduler_elv_add_request) from ioscheduler_elv_add_request_hex h join ioscheduler_elv_add_request r using (time) order by time limit 1")"
	check "sqlite: strings valid UTF-8, no control character (Python's sqlite3)" \
		"$(printf 'x,y"z\\x0d\\nw\\\\v\\x01\\x7f\360\237\230\200|\\xfe\\xff a"b,c\\\\d\\xff')" \
		"$(python3 -c 'import sqlite3; print(*sqlite3.connect("s.db").execute("select filename, comm from iosyscall_open_entry").fetchone())')"

	# metadata that lket.out takes: every event in the database, each
	# rename noted once
	"$b2a" -f none -d d.db d 2> err
	check "sqlite: taken names, duplicate fields: loaded, renames noted once" \
		"0 18 0 $(counts d.out | xargs)" \
		"$? $(grep -c '^lket-b2a: note: d.db: ' err) $(sort err | uniq -d | wc -l) $(sqlite3 d.db "select event, count(*) from events group by 1" | LC_ALL=C sort | xargs)"
	check "sqlite: five fields named tid" "1|2|3|4|5" \
		"$(sqlite3 d.db "select f_tid, f_tid_2, f_tid_3, f_tid_4, f_tid_5 from dup_fields")"
	check "sqlite: three fields named len, numbered as JSON's keys" "7|8|9" \
		"$(sqlite3 d.db "select len, len_2, len_3 from dup_plain")"
	"$b2a" -f none -d m.db m 2> err
	check "sqlite: 4000 events: 400 tables, the rest in other_events, noted once" \
		"0 1 $(wc -l < m.out) 3600 request_addr=0xffff888000000f9f what=\"x\"" \
		"$? $(grep -c 'go to other_events' err) $(sqlite3 m.db "select count(*) from events") $(sqlite3 m.db "select count(*) from other_events") $(sqlite3 m.db "select fields from other_events where event = 'many.e3999'")"

	# documented queries, a million events; memory flat with the trace
	"$b2a" -q -f none -d q.db --report q.report q
	timed "sqlite: the ten slowest reads, 1 M events" sqlite3 q.db "$slowest_reads"
	timed "sqlite: latency_by_event, 1 M events" sqlite3 q.db "select * from latency_by_event"
	timed "sqlite: requests by address" sqlite3 l.db "$by_address"
	"$gen" -n 4000000 bench q4
	m1=$(/usr/bin/time -f %M "$b2a" -q -f none -d q1.db q 2>&1 > /dev/null | tail -1)
	m4=$(/usr/bin/time -f %M "$b2a" -q -f none -d q4.db q4 2>&1 > /dev/null | tail -1)
	rm -f q1.db q4.db q4_*
	if [ $((m4 * 2)) -le $((m1 * 3)) ]; then
		ok "sqlite: peak memory flat: $m1 KiB at 1 M events, $m4 KiB at 4 M"
	else
		bad "sqlite: peak memory grows: $m1 KiB at 1 M events, $m4 KiB at 4 M"
	fi
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
	check "pg: a host the schema has is refused" "2 1" \
		"$? $(grep -c 'schema t has host localhost: give --replace' err)"
	"$b2a" -q -f none --replace --event syscall --pg "$conn" t
	check "pg: --replace reloads it (5 syscalls, 1 lost)" "6" \
		"$(q "select count(*) from t.events")"
	"$b2a" -q -f none --pg "$conn" --schema strings s
	check "pg: invalid UTF-8 and control bytes as \\xNN text" \
		"$(printf 'x,y"z\\x0d\\nw\\\\v\\x01\\x7f\360\237\230\200|\\xfe\\xff')" \
		"$(q "select filename from strings.iosyscall_open_entry")"
	"$b2a" -q -f none --pg "$conn" --report l.report l
	check "pg: latency as tables" "syscall(read)|100|50000|90000|99000" \
		"$(q "select what, count, p50_ns, p90_ns, p99_ns from l.latency_by_event where what = 'syscall(read)'")"
	# t is filtered (--replace --event syscall above): a schema of its own
	"$b2a" -q -f none --pg "$conn" --schema s s
	"$b2a" -q -f none --pg "$conn" --schema whole_t t
	"$b2a" -q -f none --pg "$conn" --schema p p
	for n in t s l p; do
		roundtrip "$conn" $([ $n = t ] && echo whole_t || echo $n) "$pgbin/psql"
	done
	check "pg: kernel addresses as SQLite has them" \
		"$(sqlite3 -separator '|' l.db "select h.request_addr, r.request_addr from ioscheduler_elv_add_request_hex h join ioscheduler_elv_add_request r using (time) order by time")" \
		"$(q "select h.request_addr, r.request_addr from l.ioscheduler_elv_add_request_hex h join l.ioscheduler_elv_add_request r using (time) order by time")"
	"$b2a" -f none --pg "$conn" d 2> err
	check "pg: taken names, duplicate fields: loaded, renames noted once" \
		"0 18 0 $(counts d.out | xargs)" \
		"$? $(grep -c '^lket-b2a: note: PostgreSQL schema d: ' err) $(sort err | uniq -d | wc -l) $(q "select event, count(*) from d.events group by 1" | LC_ALL=C sort | xargs)"
	check "pg: the same tables and columns as SQLite" \
		"$(sqlite3 d.db "select m.name || '.' || p.name from sqlite_master m, pragma_table_info(m.name) p where m.type = 'table' order by 1" | LC_ALL=C sort)" \
		"$(q "select table_name || '.' || column_name from information_schema.columns where table_schema = 'd' and table_name in (select relname from pg_class where relnamespace = 'd'::regnamespace and relkind in ('r', 'p') and not relispartition)" | LC_ALL=C sort)"
	"$b2a" -f none --pg "$conn" m 2> err
	check "pg: 4000 events: 400 tables, the rest in other_events, noted once" \
		"0 1 $(wc -l < m.out) 3600" \
		"$? $(grep -c 'go to other_events' err) $(q "select count(*) from m.events") $(q "select count(*) from m.other_events")"
	"$b2a" -q -f none --pg "$conn" --report q.report q
	timed "pg: the ten slowest reads, 1 M events" "$pgbin/psql" "$conn" -XAtq -c "set search_path to q; $slowest_reads"
	timed "pg: latency_by_event, 1 M events" "$pgbin/psql" "$conn" -XAtq -c "select * from q.latency_by_event"
	timed "pg: requests by address" "$pgbin/psql" "$conn" -XAtq -c "set search_path to l; $by_address"
	"$b2a" -q -f none --pg "$conn" b
	check "pg: 300k events" "$(wc -l < b.out)" "$(q "select count(*) from b.events")"
	"$b2a" -q -f none --pg "$conn" --schema rf --event sunrpc.svc.send $two
	check "pg: trace.first_time and last_time as SQLite's" \
		"$(sqlite3 rf.db "select host, first_time, last_time from trace order by 1")" \
		"$(q "select host, first_time, last_time from rf.trace order by 1")"
	# call stacks as addresses (no test reads the machine's debuginfo)
	"$b2a" -q -f none --no-symbols -d k.db k
	"$b2a" -q -f none --no-symbols --pg "$conn" k
	check "pg: call stacks: 4 distinct of 5, the same table as SQLite's" \
		"4 5 $(sqlite3 -separator '|' k.db "select w.time, s.id, s.depth, s.frames, s.addrs from iosyscall_write_entry w join stacks s on s.id = w.stack order by w.time" | md5sum)" \
		"$(q "select count(*) from k.stacks") $(q "select count(stack) from k.iosyscall_write_entry") $(q "select w.time, s.id, s.depth, s.frames, s.addrs from k.iosyscall_write_entry w join k.stacks s on s.id = w.stack order by w.time" | md5sum)"

	# ---- several hosts in one schema
	"$b2a" -q -f none --pg "$conn" --schema fleet $two
	n=r roundtrip "$conn" fleet "$pgbin/psql"
	check "pg: two hosts in one run: events per host equal lket.out's" \
		"$host_counts" "$(q "select host, count(*) from fleet.events group by 1 order by 1")"
	check "pg: two hosts: each RPC's time at the client and the server" \
		"$rpc_times" "$(q "set search_path to fleet; $rpc_query" | LC_ALL=C sort)"
	check "pg: two hosts: lket-b2a(1)'s RPC times per procedure" \
		"$rpc_by_proc" "$(q "set search_path to fleet; $rpc_doc" | LC_ALL=C sort)"
	# the host of a partition: the label quoted in its bound
	parts="select split_part(pg_get_expr(c.relpartbound, c.oid), '''', 2), count(*)
	  from pg_inherits i join pg_class c on c.oid = i.inhrelid
	  where c.relnamespace = 'fleet'::regnamespace and c.relkind = 'r'
	  group by 1 order by 1"
	# a host's events of each kind, and its processes: its partitions
	check "pg: two hosts: a partition for each table of a host's rows" \
		"$(awk '{ print $2, $7 }' r.raw | LC_ALL=C sort -u | awk '{ n[$1]++ } END { for (h in n) print h "|" n[h] + 1 }' | LC_ALL=C sort | xargs)" \
		"$(q "$parts" | xargs)"
	"$b2a" -q -f none --pg "$conn" --schema fleet client=r-client 2> err
	check "pg: a host loaded already is refused, the schema as it was" \
		"2 1 $(echo $host_counts)" \
		"$? $(grep -c 'schema fleet has host client: give --replace to reload it' err) $(q "select host, count(*) from fleet.events group by 1 order by 1" | xargs)"
	"$b2a" -q -f none --replace --event 'sunrpc.sched.execute*' --pg "$conn" \
		--schema fleet client=r-client
	check "pg: --replace reloads that host only" \
		"client|40 server|$(grep -c ' server ' r.raw)" \
		"$(q "select host, count(*) from fleet.events group by 1 order by 1" | xargs)"
	# two loads at once into one schema, a third host later
	"$b2a" -q -f none --pg "$conn" --schema many --host h1 h1 2> err1 &
	p1=$!
	"$b2a" -q -f none --pg "$conn" --schema many --host h2 h2 2> err2
	s2=$?
	wait $p1
	s1=$?
	"$b2a" -q -o h1.out h1
	check "pg: two loads at once, both whole" \
		"0 0 h1|$(wc -l < h1.out) h2|$(wc -l < h1.out)" \
		"$s1 $s2 $(q "select host, count(*) from many.events group by 1 order by 1" | xargs)"
	[ "$s1$s2" = 00 ] || cat err1 err2
	"$b2a" -q -f none --pg "$conn" --schema many --host h3 s
	check "pg: a third host later, the others untouched" \
		"h1|$(wc -l < h1.out) h2|$(wc -l < h1.out) h3|$(wc -l < s.raw)" \
		"$(q "select host, count(*) from many.events group by 1 order by 1" | xargs)"
	n1=$(q "select count(*) from pg_inherits i join pg_class c on c.oid = i.inhrelid where c.relnamespace = 'many'::regnamespace and pg_get_expr(c.relpartbound, c.oid) = 'FOR VALUES IN (''h1'')'")
	check "pg: dropping a host drops its partitions only" \
		"$n1 h2|$(wc -l < h1.out) h3|$(wc -l < s.raw) h2 h3" \
		"$(q "select many.lket_drop_host('h1')") $(q "select host, count(*) from many.events group by 1 order by 1" | xargs) $(q "select host from many.trace order by 1" | xargs)"

	# bad cases
	q "create schema old; create table old.trace (header boolean, clock text)" > /dev/null
	"$b2a" -q -f none --pg "$conn" --schema old t 2> err
	check "pg: a schema of an lket-b2a without hosts is refused, left as it was" \
		"2 1 1" \
		"$? $(grep -c 'schema old was loaded by an older lket-b2a (no hosts): drop it or give another --schema' err) $(q "select count(*) from pg_class where relnamespace = 'old'::regnamespace")"
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
	while [ $n -lt 200 ] && [ "$(q "select count(*) from pg_stat_activity where application_name = 'lket-b2a-test'")" = 0 ]; do
		sleep 0.05; n=$((n + 1))
	done
	sleep 0.3
	q "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'lket-b2a-test'" > /dev/null
	wait $pid
	st=$?
	check "pg: a lost connection is reported, nothing of the host left" "2 1 0 0" \
		"$st $(grep -ci 'PostgreSQL:.*\(terminat\|connection\|closed\)' err) $(q "select count(*) from big.trace") $(q "select count(*) from pg_class where relnamespace = 'big'::regnamespace and relname like '%#%'")"
	[ "$st" = 2 ] || cat err
fi

echo "db: $pass passed, $fail failed"
[ "$fail" = 0 ]
