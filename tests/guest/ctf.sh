#!/bin/sh
# Guest test of what every trace knows of its tasks, and of the CTF
# export (tests/vm/README: the qemu guest).
#
#  1. build (host): a module of one group without the process group
#     (addevent.iosyscall) and one of the core groups with it
#     (addevent.syscall, addevent.iosyscall, addevent.tskdispatch); the
#     workload tests/guest/workloads/tasks.c,
#     which writes to /dev/null itself, from a thread it renames
#     "lket-worker" and from a child that execs dd: all born after the
#     process snapshot;
#  2. guest: each module traces the workload, one after the other;
#  3. host, iosyscall trace: every event of lket.out has a process ID and
#     name; the writes carry the workload's, the worker thread's (same
#     process, its own name) and dd's;
#     both traces: lket-b2a --ctf, read by babeltrace2 with nothing on
#     its standard error, equal to lket.out (tests/ctf/compare.py); the
#     core trace's sched_switch events name both tasks, its
#     syscall_entry_write events (syscall.entry and the write hook's
#     record as one, with LTTng's fields) come from the worker thread
#     too, and
#     every system call comes after its task's switch-in on that CPU
#     (tests/guest/switch-in.awk), also when the task got the CPU from
#     stapio; LTTng's own analyses read both exports and agree with
#     lket-b2a (tests/ctf/lttng-agree.py: CPU time by thread, system
#     calls by thread, I/O latencies).
#
# Exit 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
group=ctf
. "$(cd "$(dirname "$0")" && pwd)/io-common.sh"

w=$work/tasks
check "build: workload" \
	gcc -O1 -Wall -Wextra -Werror -pthread -o "$w" "$top/tests/guest/workloads/tasks.c"
check "build: addevent.iosyscall alone (stap -p4)" \
	build_module lket_ctf_io 'probe addevent.iosyscall {}'
check "build: addevent.syscall, addevent.iosyscall and addevent.tskdispatch (stap -p4)" \
	build_module lket_ctf_core 'probe addevent.syscall, addevent.iosyscall, addevent.tskdispatch {}'
skip_guest
[ -f "$work/lket_ctf_io.ko" ] && [ -f "$work/lket_ctf_core.ko" ] || finish

cat > "$work/guest.sh" <<EOS
set -u
cd "$work"
for m in io core; do
	"$top/tools/lket-run-traced" -o "$res/\$m" lket_ctf_\$m.ko -- "$w" > "$res/\$m.out" 2> "$res/\$m.err"
	echo "\$m: run rc=\$?"
done
exit 0
EOS
run_guest "$work/guest.sh"

# the workload's own line: "tasks PID worker done, dd PID"
read -r _ wpid _ _ _ ddpid < "$res/io.out" 2>/dev/null
if [ -n "${ddpid:-}" ]; then ok "workload ran: process $wpid, dd $ddpid"
else nok "workload did not run: $(cat "$res/io.out" "$res/io.err" 2>/dev/null)"; finish; fi

for m in io core; do
	if decode -o "$res/$m.txt" --ctf "$res/$m.ctf" "$res/$m" 2> "$res/$m.b2a.err"; then
		ok "$m: lket-b2a wrote lket.out and the CTF trace"
	else
		nok "$m: lket-b2a failed: $(cat "$res/$m.b2a.err")"
	fi
done

# writes COMM PID COUNT: at least 3 write.entry records of count COUNT by
# a thread named COMM of process PID
writes() {
	[ "$(awk -v comm="$1" -v pid="$2" -v count="$3" '
		$6 == "iosyscall.write.entry" && $5 == comm && $4 == pid &&
		index($0, " count=" count) { n++ }
		END { print n + 0 }' "$res/io.txt")" -ge 3 ]
}
# (the snapshot's records come before the snapshot names their writer)
unnamed=$(awk 'NF >= 6 && $6 != "process.snapshot" && ($4 == "-" || $5 == "-")' "$res/io.txt" | wc -l)
check "iosyscall: all $(grep -vc ' process\.snapshot ' "$res/io.txt") events have a process ID and name ($unnamed have not)" \
	[ "$unnamed" = 0 ]
check "iosyscall: the workload's writes, as tasks of process $wpid" writes tasks "$wpid" 64
check "iosyscall: the renamed thread's writes, as lket-worker of process $wpid" \
	writes lket-worker "$wpid" 64
check "iosyscall: dd's writes, as dd of process $ddpid" writes dd "$ddpid" 512

for m in io core; do
	if babeltrace2 --clock-cycles "$res/$m.ctf" > "$res/$m.bt" 2> "$res/$m.bt.err" &&
	   [ ! -s "$res/$m.bt.err" ]; then
		ok "$m: babeltrace2 read $(wc -l < "$res/$m.bt") events, no warning"
	else
		nok "$m: babeltrace2: $(head -5 "$res/$m.bt.err")"
	fi
	check "$m: the CTF events are lket.out's (compare.py)" \
		sh -c "python3 '$top/tests/ctf/compare.py' '$res/$m.txt' '$res/$m.bt' > /dev/null"
done
check "CTF: the environment Trace Compass needs" sh -c "
	grep -q '^	domain = \"kernel\";$' '$res/core.ctf/kernel/metadata' &&
	grep -q '^	tracer_name = \"lttng-modules\";$' '$res/core.ctf/kernel/metadata' &&
	grep -q '^	kernel_release = \"$rel\";$' '$res/core.ctf/kernel/metadata' &&
	grep -q '^	hostname = \"[^\"]\{1,\}\";$' '$res/core.ctf/kernel/metadata'"
# bt_count PATTERN: babeltrace2's lines of the core trace matching it
bt_count() { grep -c -- "$1" "$res/core.bt"; }
check "core: sched_switch events, each from the task it switches out" sh -c "
	[ \$(grep -c ' sched_switch: ' '$res/core.bt') -gt 0 ] &&
	! grep ' sched_switch: ' '$res/core.bt' |
		grep -v 'tid = \([0-9]*\), pid = [-0-9]*, procname = \"[^\"]*\" }, { prev_comm = \"[^\"]*\", prev_tid = \1,'"
# every task, one that got the CPU from stapio too, has its switch-in
awk -f "$top/tests/guest/switch-in.awk" "$res/core.txt" > "$res/core.switch-in"
check "core: every system call after its task's switch-in on that CPU ($(tail -n 1 "$res/core.switch-in"))" \
	grep -q ' 0 without a switch-in$' "$res/core.switch-in"
cpid=$(sed -n 's/^tasks \([0-9]*\) .*/\1/p' "$res/core.out")
check "core: syscall_entry_write from the worker thread, with LTTng's fields" \
	[ "$(bt_count "syscall_entry_write: .*pid = $cpid, procname = \"lket-worker\" }, { fd = [0-9]*, buf = [0-9]*, count = 64, buf_addr = ")" -ge 3 ]
# it is switched in before it renames itself, maybe never after
wtid=$(sed -n "s/.* syscall_entry_write: .*{ tid = \([0-9]*\), pid = $cpid, procname = \"lket-worker\" }.*/\1/p" "$res/core.bt" | head -n 1)
check "core: a sched_switch to the worker thread ($wtid) names it" \
	[ "$(bt_count "sched_switch: .* next_comm = \"\(tasks\|lket-worker\)\", next_tid = ${wtid:-none},")" -gt 0 ]
check "core: the worker's syscall_exit_write events as many as its syscall_entry_write" \
	[ "$(bt_count ' syscall_entry_write: .*procname = "lket-worker"')" = \
	  "$(bt_count ' syscall_exit_write: .*procname = "lket-worker"')" ]
check "core: fork and exec of dd (sched_process_fork, sched_process_exec)" sh -c "
	grep -q ' sched_process_exec: .* filename = \"/bin/dd\"' '$res/core.bt' &&
	grep -q ' sched_process_fork: .* parent_comm = \"tasks\", ' '$res/core.bt'"
# LTTng's own analyses read both exports to the end and agree with
# lket-b2a's figures (tests/ctf/lttng-agree.py): a line each (the
# iosyscall trace has no sched_switch: no thread runs for either)
for m in io core; do
	python3 "$top/tests/ctf/lttng-agree.py" "$builddir/lket-b2a" "$res/$m" \
		"$res/$m.ctf" > "$res/$m.agree" 2>&1
	agree=$?
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "$m: ${line#ok - }" ;;
		"not ok - "*) nok "$m: ${line#not ok - }" ;;
		esac
	done < "$res/$m.agree"
	grep -q '^ok - ' "$res/$m.agree" && [ "$agree" -le 1 ] ||
		nok "$m: lttng-agree.py failed (exit $agree): $(tail -n 3 "$res/$m.agree")"
done
finish
