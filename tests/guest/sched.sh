#!/bin/sh
# Guest test of the wake-up hooks of the tskdispatch group (wakeup,
# wakeup_new, migrate) and of what lket-b2a makes of them.
#
#  1. build (host): the workload (tests/guest/workloads/sched.c) and
#     addevent.tskdispatch with addevent.process in one module;
#  2. guest: the workload, traced: two threads pinned to CPUs 0 and 1
#     ping-pong over pipes 1000 times, a thread sleeps 10 ms 100 times, a
#     fork, a thread moves itself from CPU 0 to CPU 1;
#  3. host, in lket.out:
#     - the ping-pong: ping's wake-ups are pong's doing and pong's ping's,
#       each on its waker's CPU with the sleeper's CPU as target_cpu, 900
#       or more of each, a few by interrupts as they start;
#     - the sleeper is woken 100 times or more, by the workload 5 times at
#       most (as it starts): by the timer, that is in the interrupt of
#       whatever ran (the idle task most often), or on PREEMPT_RT by a
#       ktimers thread, which runs the timers that are not hard-interrupt
#       ones (a sleeping normal task's);
#     - the fork: one wakeup_new of the child, by the parent;
#     - the move: a migrate of the mover from CPU 0 to CPU 1;
#     - --report's scheduling latency per thread: ping and pong, 900 or
#       more each;
#     - --offcpu: ping's time asleep is mostly in pipe_read, woken by
#       lket-pong from pipe_write (stacks by lket_stack()), and the
#       sleeper's in a nanosleep, woken by the timer; --offcpu-folded has
#       the same, one line per stack, waker and thread;
#     - --critical-path of ping: each time it is blocked on pong, pong's
#       runs up to the wake-up;
#     - --critical-path of the sleeper: the timer's wake-ups are
#       interrupts' (LKET_RECORD_IRQ), not the work of the task they hit;
#       on PREEMPT_RT a ktimers thread's;
#     - the CTF export: LTTng's sched_waking, and lttng-schedstats's
#       latencies of each thread those of lket.out (tests/ctf/lttng-agree.py).
#
# Exit 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
group=sched
. "$(cd "$(dirname "$0")" && pwd)/io-common.sh"

w=$work/sched
check "build: workload" \
	gcc -O1 -Wall -Wextra -Werror -pthread -o "$w" "$top/tests/guest/workloads/sched.c"
# with the kernel stack of every switch and wake-up, for --offcpu
check "build: addevent.tskdispatch with lket_stack() on ctxswitch and wakeup, and addevent.process (stap -p4)" \
	build_module lket_sched '
probe register_event {
	register_user_event(GROUP_TASK, HOOKID_TASK_CTXSWITCH, "ADDRS", "stack")
	register_user_event(GROUP_TASK, HOOKID_TASK_WAKEUP, "ADDRS", "stack")
}
probe addevent.tskdispatch.ctxswitch, addevent.tskdispatch.wakeup {
	lket_stack()
}
probe addevent.tskdispatch.wakeup_new, addevent.tskdispatch.migrate,
      addevent.tskdispatch.cpuidle, addevent.process {}'
skip_guest
[ -f "$work/lket_sched.ko" ] || finish

cat > "$work/guest.sh" <<EOS
set -u
cd "$work"
"$top/tools/lket-run-traced" -o "$res/t" lket_sched.ko -- "$w" > "$res/out" 2> "$res/err"
echo "run rc=\$?"
uname -v > "$res/uname"
exit 0
EOS
run_guest "$work/guest.sh"

t=$res/t.txt
if ls "$res"/t_* > /dev/null 2>&1 && decode -o "$t" "$res/t" 2> "$res/b2a.err"; then
	ok "lket-b2a decoded the trace"
else
	nok "no trace or lket-b2a failed: $(cat "$res/b2a.err" 2>/dev/null)"
fi
check "the workload ran to its end" grep -qx done "$res/out"
tid_of() { awk -v n="$1" '$1 == n { print $2; exit }' "$res/out"; }
main=$(tid_of main) ping=$(tid_of ping) pong=$(tid_of pong)
sleeper=$(tid_of sleep) child=$(tid_of child) mover=$(tid_of move)

# wakers WOKEN: "waker-tid cpu target_cpu waker-comm in-irq" of each
# wake-up of WOKEN; in-irq 1 when its stack goes through an interrupt,
# whose waker is whatever task it interrupted
wakers() {
	awk -v woken="$1" -v ev="${2:-tskdispatch.wakeup}" '
	{ e = $6; sub(/^addevent\./, "", e) }
	e == ev && index($0, " tid=" woken " ") {
		tc = $0; sub(/.* target_cpu=/, "", tc); sub(/ .*/, "", tc)
		print $3, $2, tc, $5, (index($0, "_interrupt+") > 0) }' "$t"
}
# pingpong A B CPU: A's wake-ups by B, once B is pinned and named (its
# comm lket-*), number 900 or more (of 1000 reads, which sleep but where
# the byte came first), each on CPU and aimed at the other CPU; and few
# (10 or less) by others: those that end A's first sleeps, as it pins
# itself to its CPU (the stopper thread, migration/N), touches its pages,
# or waits for a lock of the C library another thread holds, B among them
# before it is pinned
pingpong() {
	wakers "$1" | awk -v by="$2" -v cpu="$3" '
	$1 == by && $4 ~ /^lket-/ { n++; if ($2 != cpu || $3 != 1 - cpu) { bad++; if (bad < 4) print "  " $0 } ; next }
	{ other++; print "  other: " $0 }
	END { print "  " n + 0 " wake-ups by " by ", " bad + 0 " wrong, " other + 0 " by others"
	      exit !(n >= 900 && !bad && other <= 10) }'
}
check "ping ($ping) is woken by pong ($pong), on CPU 1, aimed at CPU 0" \
	pingpong "$ping" "$pong" 1
check "pong ($pong) is woken by ping ($ping), on CPU 0, aimed at CPU 1" \
	pingpong "$pong" "$ping" 0

case $rel in *-rt-*) rt=1 ;; *) rt=0 ;; esac
# timer: 100 wake-ups or more, few (5 at most) by a thread of the
# workload itself, as the sleeper starts: seen, main's fork releasing
# the mmap lock the sleeper waited for (an interrupt's wake-up, the
# timer's or an IO completion's, may come while a thread of the workload
# runs and is not its doing: seen, the 9p reply to the sleeper's first
# printf while pong ran); on RT all by ktimers threads, else some in the
# idle task
timer() {
	wakers "$sleeper" | awk -v rt="$rt" -v w="$main $ping $pong $sleeper $mover" '
	BEGIN { split(w, t); for (i in t) ours[t[i]] = 1 }
	{ n++ } $1 in ours && !$5 { bad++ } $1 == 0 { idle++ }
	$4 ~ /^ktimers\// { kt++ }
	END { print "  " n " wake-ups: " idle + 0 " in the idle task, " kt + 0 " by ktimers, " bad + 0 " by the workload"
	      exit !(n >= 100 && bad <= 5 && (rt ? kt >= 100 : idle > 0)) }'
}
if [ "$rt" = 1 ]; then
	check "the sleeper ($sleeper) is woken 100 times by ktimers threads (PREEMPT_RT)" timer
else
	check "the sleeper ($sleeper) is woken 100 times by the timer, in interrupts (the idle task's among them)" timer
fi
# forked: the threads whose wakeup_new woke CHILD
forked() { [ "$(wakers "$child" tskdispatch.wakeup_new | cut -d' ' -f1)" = "$main" ]; }
check "the fork: one wakeup_new of the child ($child), by the parent ($main)" forked
check "the move: migrate of the mover ($mover) from CPU 0 to CPU 1" awk -v m="$mover" '
	{ e = $6; sub(/^addevent\./, "", e) }
	e == "tskdispatch.migrate" && index($0, " tid=" m " from_cpu=0 to_cpu=1") { found = 1 }
	END { exit !found }' "$t"

# --report's per-thread scheduling latency of ping and pong
decode -f none --report "$res/report" "$res/t" 2> /dev/null
thread_count() {
	awk -v tid="$1" '/^per thread/ { on = 1 }
	on && $1 == "tskdispatch" && $3 == tid { print $6; exit }' "$res/report"
}
for th in "ping $ping" "pong $pong"; do
	set -- $th
	n=$(thread_count "$2")
	check "--report: scheduling latency of $1 ($2): ${n:-no} wake-ups, 900 or more" \
		test "${n:-0}" -ge 900
done
sed -n '/^per thread/,$p' "$res/report" | grep -E "^(event|tskdispatch)" |
	awk -v a="$ping" -v b="$pong" -v c="$sleeper" 'NR == 1 || $3 == a || $3 == b || $3 == c' |
	cut -c1-200

# --offcpu: a thread's rows, "sleeps waker" then its stack lines
decode -f none --offcpu "$res/offcpu" --offcpu-folded "$res/offcpu.folded" \
	"$res/t" 2> "$res/offcpu.err"
rows_of() {
	awk -v tid="$1" '$1 == "thread" { on = $2 == tid; n = 0; next }
	on && NF { if (n++) print }' "$res/offcpu"
}
rows_of "$ping" > "$res/offcpu.ping"
rows_of "$sleeper" > "$res/offcpu.sleep"
head -n 3 "$res/offcpu.ping" | cut -c1-240 | sed 's/^/  ping: /'
head -n 3 "$res/offcpu.sleep" | cut -c1-240 | sed 's/^/  sleeper: /'
# offcpu_check FILE WAKER ASLEEP_IN WAKER_IN MIN: the rows of FILE whose
# waker's name matches WAKER, asleep in a stack through ASLEEP_IN and
# woken from one through WAKER_IN, add up to MIN sleeps or more
offcpu_check() {
	awk -v waker="$2" -v in_="$3" -v from="$4" -v min="$5" '
	function row_end() { if (rows && mine && a && b) n += count; a = b = 0 }
	$1 ~ /^[0-9.]+$/ { row_end(); rows++; count = $2; mine = $3 ~ waker; next }
	$1 == "asleep" && $2 == "in:" { a = index($0, in_) > 0 }
	$1 == "waker:" { b = index($0, from) > 0 }
	END { row_end(); print "  " n + 0 " sleeps in " in_ " woken from " from " (" rows + 0 " rows)"
	      exit !(n >= min) }' "$1"
}
check "--offcpu: ping sleeps in pipe_read, woken by lket-pong in pipe_write, 900 times or more" \
	offcpu_check "$res/offcpu.ping" '^lket-pong$' pipe_read pipe_write 900
if [ "$rt" = 1 ]; then
	check "--offcpu: the sleeper sleeps in do_nanosleep, woken by ktimers threads from hrtimer_wakeup, 90 times or more" \
		offcpu_check "$res/offcpu.sleep" '^ktimers/' do_nanosleep hrtimer_wakeup 90
else
	check "--offcpu: the sleeper sleeps in do_nanosleep, woken by the timer interrupt from hrtimer_wakeup, 90 times or more" \
		offcpu_check "$res/offcpu.sleep" . do_nanosleep hrtimer_wakeup 90
fi
folded_ping() {
	grep -q "^lket-ping-$ping;.*;pipe_read;.*;--;.*;pipe_write;.*;lket-pong [1-9][0-9]*\$" "$res/offcpu.folded"
}
check "--offcpu-folded: ping's stack, outer first, then pong's, inner first" folded_ping

# --critical-path of ping: while ping is blocked on pong, the path goes on
# in pong (runnable, then running) up to the wake-up
decode -f none --critical-path "$ping" --critical-path-out "$res/path" \
	"$res/t" 2> "$res/path.err"
sed -n '1,2p;/blocked on '"$pong"' /{N;N;p;q}' "$res/path" | cut -c1-200
critical() {
	awk -v a="$ping" -v b="$pong" '
	NR > 2 && want { if ($3 != b) bad++; want = 0 }
	$3 == a && $5 == "blocked" && $6 == "on" && $7 == b { n++; want = 1 }
	$3 == b && $5 == "running" { runs++ }
	END { print "  " n + 0 " times blocked on pong, " runs + 0 " of pong.s runs on the path, " bad + 0 " not followed by pong"
	      exit !(n >= 900 && runs >= n && !bad) }' "$res/path"
}
check "--critical-path: ping's path goes through pong's runs, 900 times or more" critical

# --critical-path of the sleeper: the timer's wake-ups are the tracer's
# records of an interrupt (LKET_RECORD_IRQ), which end the descent rather
# than blame the task the interrupt hit; on PREEMPT_RT a ktimers thread
# runs the sleeper's timer, and is the waker the path goes through
decode -f none --critical-path "$sleeper" --critical-path-out "$res/path.sleep" \
	"$res/t" 2> "$res/path.sleep.err"
sleeper_path() {
	awk -v s="$sleeper" -v rt="$rt" '
	$3 == s && $5 == "blocked," && $6 == "woken" && $8 == "an" && $9 == "interrupt" { irq++ }
	$3 == s && $5 == "blocked" && $6 == "on" { on++; if ($0 ~ /\(ktimers\//) kt++ }
	END { print "  " irq + 0 " timer wake-ups of the sleeper by an interrupt, " on + 0 " blocked on a task (" kt + 0 " on ktimers)"
	      exit !(rt ? kt >= 90 && !irq : irq >= 90 && on <= 5) }' "$res/path.sleep"
}
if [ "$rt" = 1 ]; then
	check "--critical-path of the sleeper: blocked on ktimers threads 90 times or more, never on an interrupt (PREEMPT_RT)" sleeper_path
else
	check "--critical-path of the sleeper: woken by the timer's interrupt 90 times or more, blocked on a task 5 times at most (records flagged LKET_RECORD_IRQ)" sleeper_path
fi

# The CTF export, read by LTTng's own analyses
rm -rf "$res/t.ctf"
if decode --no-symbols --ctf "$res/t.ctf" "$res/t" 2> /dev/null &&
   python3 "$top/tests/ctf/lttng-agree.py" "$builddir/lket-b2a" "$res/t" "$res/t.ctf" > "$res/agree" 2>&1; then
	ok "CTF: LTTng's analyses agree with lket-b2a"
else
	nok "CTF: LTTng's analyses: $(grep -v '^ok' "$res/agree" | head -5)"
fi
grep 'schedstats' "$res/agree"
check "CTF: lttng-schedstats read the wake-ups" \
	grep -q '^ok - lttng: lttng-schedstats: .* ([1-9][0-9]* threads, [1-9][0-9]* wake-ups)$' "$res/agree"
rm -rf "$res/t.ctf"
finish
