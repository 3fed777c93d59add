#!/bin/sh
# CTF export (lket-b2a --ctf), read back by babeltrace2: for generated
# traces, the events babeltrace2 prints must be those of lket.out (as
# many, in the same order on each CPU, the same times, names, threads and
# field values: compare.py), and the flushes lost and records dropped
# must come back as babeltrace2's discarded events, as many.  Then
# --replace, and signals that cut an export short.
#
#   tests/ctf/run.sh BUILD [CASE...]
set -u
build=$(cd "${1:?usage: run.sh BUILD [CASE...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
work=$build/ctf
gen=$build/lket-gen
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# (the cases run in folders of their own)
[ -n "${LTTNG_MODULES_SRC:-}" ] && LTTNG_MODULES_SRC=$(cd "$LTTNG_MODULES_SRC" && pwd)
command -v babeltrace2 > /dev/null ||
	{ echo "run.sh: babeltrace2 is missing (tools/install-deps)" >&2; exit 1; }

# Each case makes trace t in the current (empty) folder.
case_golden()   { $gen golden t; }
case_v5()       { $gen -f v5 golden t; }
case_swapped()  { $gen -s golden t; }
case_pcpu()     { $gen -p golden t; }
# CPU 1's second flush cut out (as tests/golden's pcpu_lost): a lost
# flush on CPU 1, and CPU 0's dropped record
case_pcpu_lost() {
	$gen -p golden t && head -c 68 t_1 > x && tail -c +145 t_1 >> x &&
		mv x t_1; }
case_nometa()   { $gen nometa t; }
# damage (as tests/golden's): reported, the rest exported
case_garbage()  {
	$gen golden t && head -c 40 t_1 > x && printf 'GARBG' >> x &&
		tail -c +41 t_1 >> x && mv x t_1; }
case_truncated() {
	$gen golden t && head -c $(($(wc -c < t_1) - 7)) t_1 > x && mv x t_1; }
case_strings()  { $gen strings t; }
case_dbnames()  { $gen dbnames t; }
# field names alike in their first 127 bytes: CTF members of their own
case_longnames() { $gen longnames t; }
case_latency()  { $gen latency t; }
case_moved()    { $gen moved t; }
# time goes back on CPU 0 for two records: all 8 events read, those two
# at the time of the one before them, and a note that says so
case_backwards() { $gen backwards t; }
check_backwards() {
	[ "$(grep -c . bt.txt)" = 8 ] &&
	"$b2a" --no-symbols --ctf ctf2 t 2>&1 > /dev/null |
		grep -q '^lket-b2a: note: ctf2: 2 events of CPU 0 earlier than the one before them on that CPU (time went back): written with that event.s time$'
}
# more system call classes than CTF_SYSCALL_CLASSES (4096, ctf_int.h):
# 2048 names with classes of their own, entry and exit, the last two
# in LTTng's syscall_entry_unknown and syscall_exit_unknown (never a
# class named syscall_entry alone: LTTng's analyses take it for their
# own callback's and stop), said once
case_sysnames() { $gen -n 2050 sysnames t; }
check_sysnames() {
	[ "$(grep -c '^	name = "syscall_entry_' ctf/kernel/metadata)" = 2049 ] &&
	[ "$(grep -c '^	name = "syscall_exit_' ctf/kernel/metadata)" = 2049 ] &&
	grep -q '^	name = "syscall_entry_unknown";$' ctf/kernel/metadata &&
	grep -q '^	name = "syscall_exit_unknown";$' ctf/kernel/metadata &&
	! grep -q '^	name = "syscall_\(entry\|return\)";$' ctf/kernel/metadata &&
	[ "$(grep -c ' syscall_entry_unknown: ' bt.txt)" = 2 ] &&
	[ "$("$b2a" --no-symbols --ctf ctf2 t 2>&1 > /dev/null |
		grep -c '^lket-b2a: note: ctf2: more than 4096 system call classes: ')" = 1 ]
}
# system calls without a name: LTTng's syscall_entry_unknown and
# syscall_exit_unknown, never a class named syscall_exit_ alone
case_nameless() { $gen nameless t; }
check_nameless() {
	[ "$(grep -c . bt.txt)" = 5 ] &&
	grep -q '^	name = "syscall_entry_rt_sigreturn";$' ctf/kernel/metadata &&
	grep -q '^	name = "syscall_exit_unknown";$' ctf/kernel/metadata &&
	grep -q '^	name = "syscall_entry_unknown";$' ctf/kernel/metadata &&
	! grep -q '^	name = "syscall_\(entry\|exit\)_";$' ctf/kernel/metadata &&
	[ "$(grep -c ' syscall_exit_unknown: ' bt.txt)" = 2 ]
}
# a system call recorded by both syscall.entry and an iosyscall hook:
# once, as LTTng's syscall_entry_NAME with its fields, where the two
# records are next to each other on their CPU, else (for a call whose
# arguments LTTng's analyses read) syscall_entry_unknown and the hook's
# own; the hook's return before syscall.return left out;
# LTTng's analyses read it to the end and agree with lket-b2a
# (lttng-agree.py), an unknown entry that the trace ends before the
# return of counted by neither
case_calls() { $gen calls t; }
check_calls() {
	[ "$(grep -c . bt.txt)" = 27 ] &&
	grep -q '^\[0*4000000100\] .* syscall_entry_openat: .*procname = "cat" }, { dfd = -1, filename = "/etc/passwd", flags = 524288, mode = 0 }$' bt.txt &&
	grep -q '^\[0*4000000200\] .* syscall_exit_openat: .*{ ret = 3, syscall_name = "openat", return = 3 }$' bt.txt &&
	grep -q '^\[0*4000000300\] .* syscall_entry_read: .*{ fd = 3, count = 4096, buf_addr = 0x7FFD1000 }$' bt.txt &&
	grep -q '^\[0*4000000500\] .* syscall_entry_unknown: .*{ syscall_name = "read" }$' bt.txt &&
	grep -q '^\[0*4000000510\] .* iosyscall_read_entry: ' bt.txt &&
	grep -q '^\[0*4000000700\] .* iosyscall_write_entry: ' bt.txt &&
	grep -q '^\[0*4000000790\] .* iosyscall_write_return: ' bt.txt &&
	grep -q '^\[0*4000000800\] .* syscall_entry_lseek: .*{ syscall_name = "lseek" }$' bt.txt &&
	grep -q '^\[0*4000001000\] .* syscall_entry_getpid: ' bt.txt &&
	grep -q '^\[0*4000001200\] .* syscall_entry_tgkill: .*{ tgid = 4301, pid = 4301, sig = 15, tid = 4301, pid_2 = 4301 }$' bt.txt &&
	grep -q '^\[0*4000001400\] .* syscall_entry_kill: .*{ syscall_name = "kill" }$' bt.txt &&
	grep -q '^\[0*4000001500\] .* syscall_exit_kill: .*{ ret = -3, ' bt.txt &&
	grep -q '^\[0*4000001600\] .* syscall_entry_unknown: .*{ syscall_name = "openat" }$' bt.txt &&
	[ "$(grep -c '_return: ' bt.txt)" = 1 ] &&
	python3 "$here/lttng-agree.py" "$b2a" t ctf > agree.txt 2>&1 &&
	grep -q '^ok - lttng: lttng-syscallstats: the system calls of each thread as many as lket.out.s (1 threads, 7 calls)$' agree.txt &&
	grep -q '^ok - lttng: lttng-iolatencystats: 2 I/O calls, ' agree.txt
}
# every system call an entry hook records: its classes have the fields
# lttng-modules' x86-64 instrumentation gives it (LTTNG_MODULES_SRC, its
# source: make check-ctf unpacks the lttng-modules-dkms package)
case_allcalls() { $gen allcalls t; }
check_allcalls() {
	[ -n "${LTTNG_MODULES_SRC:-}" ] || {
		echo "run.sh: LTTNG_MODULES_SRC is not set (make check-ctf)" >&2
		return 1; }
	python3 "$here/lttng-fields.py" "$LTTNG_MODULES_SRC" ctf/kernel/metadata 25
}
# switches to and from the idle task on two CPUs: tid 0 is swapper/N,
# N its CPU, in the context and in prev_comm and next_comm
case_idle() { $gen idle t; }
check_idle() {
	[ "$(grep -c . bt.txt)" = 14 ] && awk '
	{ cpu = $0; sub(/.*cpu_id = /, "", cpu); sub(/ .*/, "", cpu)
	  want = "\"swapper/" cpu "\"" }
	/ tid = 0, / && !index($0, "tid = 0, pid = 0, procname = " want) { bad++ }
	/ prev_tid = 0,/ && !index($0, "prev_comm = " want ", prev_tid = 0,") { bad++ }
	/ next_tid = 0,/ && !index($0, "next_comm = " want ", next_tid = 0,") { bad++ }
	/ next_tid = 0,/ { idle++ }
	END { exit bad || idle != 2 }' bt.txt
}
# wake-ups and a migration: LTTng's sched_waking, sched_wakeup_new and
# sched_migrate_task with its fields; the export in LTTng's session
# layout (kernel/), where LTTng's analyses find the tracer's version,
# without which lttng-schedstats stops at the first wake-up; their
# latencies those lket-b2a's --report gives (lttng-agree.py; the
# per-thread figures: tests/golden/sched_report.expect)
case_wakeups() { $gen wakeups t; }
check_wakeups() {
	[ -f ctf/kernel/metadata ] && [ -f ctf/kernel/stream_0 ] &&
	grep -q '^	tracer_patchlevel = 0;$' ctf/kernel/metadata &&
	[ "$(grep -c ' sched_waking: ' bt.txt)" = 22 ] &&
	grep -q '^\[0*2000100000\] .* sched_waking: { cpu_id = 0 }, { tid = 6001, pid = 6000, procname = "pong" }, { comm = "pong", tid = 6002, prio = 20, target_cpu = 1, ' bt.txt &&
	grep -q ' sched_wakeup_new: { cpu_id = 0 }, .*{ comm = "pong", tid = 6004, prio = 20, target_cpu = 1, ' bt.txt &&
	grep -q ' sched_migrate_task: { cpu_id = 0 }, .*{ comm = "", tid = 6004, prio = 20, orig_cpu = 1, dest_cpu = 0, from_cpu = 1, to_cpu = 0 }$' bt.txt &&
	python3 "$here/lttng-agree.py" "$b2a" t ctf > agree.txt 2>&1 &&
	grep -q '^ok - lttng: lttng-schedstats: the wake-up latencies of each thread as many, as short and as long as lket.out.s (3 threads, 21 wake-ups)$' agree.txt &&
	"$b2a" --report - -f none t | awk '
	/^per thread/ { on = 1 } on && $1 == "tskdispatch" { print $3, $6, $8, $13 }' > threads &&
	lttng-schedstats-mi ctf | python3 -c "
import json, sys
for r in json.load(sys.stdin)[\"results\"][0][\"data\"]:
    print(r[0][\"tid\"], r[1][\"value\"], \"%.3f\" % (r[2][\"value\"] / 1000),
          \"%.3f\" % (r[4][\"value\"] / 1000))" | sort > lttng &&
	sort threads | diff - lttng
}
# a wake-up on CPU 1 in the nanosecond its thread leaves CPU 0: LTTng's
# reader gives CPU 1's event first, so lttng-schedstats ignores the
# wake-up (its thread is still running), and lttng-agree.py's reckoning
# from lket.out, where CPU 0's comes first, must follow LTTng's order
# (lttng-order.py) to agree
case_wakeuptie() { $gen wakeuptie t; }
check_wakeuptie() {
	[ "$(/usr/bin/python3 "$here/lttng-order.py" ctf sched_switch sched_waking | tr '\n' ' ')" = "1 0 1 0 0 " ] &&
	python3 "$here/lttng-agree.py" "$b2a" t ctf > agree.txt 2>&1 &&
	grep -q '^ok - lttng: lttng-schedstats: the wake-up latencies of each thread as many, as short and as long as lket.out.s (0 threads, 0 wake-ups)$' agree.txt
}
# tasks that exit: LTTng's sched_switch prev_state (a signed 64-bit
# field) holds TASK_DEAD as 128, what the kernel's state is, never -128
case_exits() { $gen exits t; }
check_exits() {
	[ "$(grep -c ' sched_switch: .* prev_state = 128, ' bt.txt)" = 2 ] &&
	! grep -q 'prev_state = -' bt.txt
}
# many packets per CPU
case_syscalls() { $gen -n 200000 syscalls t; }
case_many()     { $gen many t; }
# the always-on task records: LTTng's fork, exec and exit events (not in
# lket.out), a rename, and the host name in the metadata
case_tasks()    { $gen tasks t; }
check_tasks() {
	grep -q '^	hostname = "guest";$' ctf/kernel/metadata &&
	grep -q '^	machine = "x86_64";$' ctf/kernel/metadata &&
	[ "$(grep -c . tasks.txt)" = 6 ] &&
	grep -q ' guest sched_process_fork: .*{ tid = 4242, pid = 4242, procname = "sh" }, { parent_comm = "sh", parent_tid = 4242, parent_pid = 4242, child_comm = "sh", child_tid = 5000, child_pid = 5000, tid = 5000, pid = 5000, ppid = 4242, process_name = "sh" }$' tasks.txt &&
	grep -q ' sched_process_exec: .*{ tid = 5000, pid = 5000, procname = "dd" }, { filename = "/usr/bin/dd", tid = 5000, old_tid = 5000, pid = 5000 }$' tasks.txt &&
	grep -q ' sched_process_fork: .*{ parent_comm = "dd", parent_tid = 5000, parent_pid = 5000, child_comm = "dd", child_tid = 5001, child_pid = 5000,' tasks.txt &&
	grep -q ' lket_task_rename: .*{ tid = 5001, pid = 5000, process_name = "dd worker" }$' tasks.txt &&
	grep -q ' sched_process_exit: .*{ comm = "dd worker", tid = 5001, prio = 20, pid = 5000 }$' tasks.txt
}

# call stacks: a sequence of addresses, compared with --no-symbols' lket.out
case_stacks()   { $gen stacks t; }

cases="golden v5 swapped pcpu pcpu_lost nometa garbage truncated strings
	dbnames longnames latency backwards sysnames nameless calls allcalls idle
	moved wakeups wakeuptie exits
	syscalls many
	tasks stacks"
[ $# -gt 0 ] && cases=$*

fail=0
for c in $cases; do
	for b2a in "$build/lket-b2a" "$build/asan/lket-b2a"; do
		[ -x "$b2a" ] || continue
		# ASan is slow: the big cases run with the plain build only
		case $b2a:$c in */asan/*:syscalls|*/asan/*:many) continue ;; esac
		d=$work/$c
		rm -rf "$d" && mkdir -p "$d" && cd "$d" || exit 1
		name="$c ($(basename "$(dirname "$b2a")")/lket-b2a)"
		if ! "case_$c" > gen.log 2>&1; then
			echo "FAIL $name: lket-gen"; fail=1; continue
		fi
		# no symbols: the CTF trace holds addresses, and no test reads
		# the machine's debuginfo
		"$b2a" -q --no-symbols --ctf ctf -o lket.out t > b2a.log 2>&1
		st=$?
		if [ $st -gt 1 ] || [ ! -s ctf/kernel/metadata ]; then
			echo "FAIL $name: lket-b2a exit $st"; cat b2a.log
			fail=1; continue
		fi
		if ! babeltrace2 --clock-cycles ctf > bt.txt 2> bt.err; then
			echo "FAIL $name: babeltrace2 cannot read it"
			head -20 bt.err; fail=1; continue
		fi
		if ! lost=$(TASKS=tasks.txt python3 "$here/compare.py" lket.out bt.txt); then
			echo "FAIL $name: events differ"; fail=1; continue
		fi
		if command -v "check_$c" > /dev/null && ! "check_$c"; then
			echo "FAIL $name: check_$c"; cat tasks.txt
			fail=1; continue
		fi
		discarded=$(sed -n 's/^WARNING: Tracer discarded \([0-9]*\) event.*/\1/p' bt.err |
			awk '{ n += $1 } END { print n + 0 }')
		if [ "$lost" != "$discarded" ]; then
			echo "FAIL $name: $lost lost or dropped, babeltrace2 says $discarded discarded"
			fail=1; continue
		fi
		echo "ok   $name: $(wc -l < bt.txt) events, $discarded discarded"
	done
done
# --replace: a second export takes the first one's place whole (a trace of
# 2 CPUs where there were 2, then of 1 CPU: no stream_1 left), and leaves
# no folder of its own beside it
d=$work/replace
rm -rf "$d" && mkdir -p "$d" && cd "$d" || exit 1
$gen golden t && "$build/lket-b2a" -q --ctf ctf t
"$build/lket-b2a" -q --replace --ctf ctf t_0
st=$?
if [ $st -gt 1 ] || [ -e ctf/kernel/stream_1 ] || [ "$(ls | grep -c ctf)" != 1 ] ||
   ! babeltrace2 ctf > bt.txt 2> bt.err || [ "$(grep -c 'cpu_id = 1' bt.txt)" != 0 ] ||
   [ "$(grep -c 'cpu_id = 0' bt.txt)" = 0 ]; then
	echo "FAIL --replace: exit $st, $(ls | tr '\n' ' ')"; fail=1
else
	echo "ok   --replace: $(wc -l < bt.txt) events of CPU 0 alone"
fi
# A signal that ends an export (^C, kill, a hangup) leaves no temporary,
# neither the folder beside ctf with the streams in it nor lket.out's
# file, and the trace --replace was to replace stays as it was; the
# process dies of the signal (exit status 128 + its number).  The trace
# is big enough for the export to take a second or more; the signal goes
# as soon as the folder is there.
d=$work/signals
rm -rf "$d" && mkdir -p "$d" && cd "$d" || exit 1
$gen strings small && "$build/lket-b2a" -q --ctf ctf small && cksum ctf/* > keep &&
	$gen -n 12000000 syscalls t > /dev/null || { echo "FAIL signals: lket-gen"; fail=1; }
for sig in INT:2 TERM:15 HUP:1; do
	[ -f keep ] && [ -f t_1 ] || break
	name=${sig%:*}
	# an asynchronous command of sh ignores SIGINT: the default back
	env --default-signal "$build/lket-b2a" -q --replace --ctf ctf -o lket.out t &
	pid=$!
	i=0
	while [ $i -lt 1000 ]; do
		set -- ctf.tmp-*
		[ -e "$1" ] && break
		sleep 0.01
		i=$((i + 1))
	done
	if [ $i = 1000 ] || ! kill -s "$name" $pid; then
		why="no ctf.tmp-* in 10 s, or it ended first (a bigger trace?)"
		kill $pid 2> /dev/null
	else
		why=
	fi
	# (sh says what the signal was: not here)
	{ wait $pid; } 2> /dev/null
	st=$?
	left=$(ls | grep -e '\.tmp-' -e '\.old-' -e '^lket\.out$' | tr '\n' ' ')
	if [ -z "$why" ] && [ $st != $((128 + ${sig#*:})) ]; then
		why="exit $st"
	fi
	if [ -z "$why" ] && [ -n "$left" ]; then
		why="left $left"
	fi
	if [ -z "$why" ] && ! cksum ctf/* | cmp -s keep -; then
		why="the old trace changed"
	fi
	if [ -n "$why" ]; then
		echo "FAIL SIG$name during --ctf: $why"; fail=1
		# the next signal on its own
		rm -rf ctf.tmp-* ctf.old-* lket.out lket.out.tmp-*
	else
		echo "ok   SIG$name during --ctf: exit $st, no temporary left, the old trace kept"
	fi
done
rm -f t_0 t_1
exit $fail
