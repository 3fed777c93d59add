#!/bin/sh
# Runs inside the guest (bench/guest.sh starts it with lket-vm): the same
# getppid loop untraced and under each tracer, alternating, RUNS times, in
# one boot.  Appends to $RES/results one line per run:
#   CONFIG RUN LOOPS LOOP_NS EVENTS_SEEN LOST
# (LOOP_NS: the loop's own time, from bench-loop -t; EVENTS_SEEN/LOST as
# the tracer reports them, -1 when it cannot tell).  A tracer that cannot
# run here writes "CONFIG skip REASON".
#
# Environment: RES, LOOP (bench-loop), LOOPS, RUNS, LKET_KO (module for
# LKET, empty when none could be built), STAP_KO (the same tracepoints with
# empty handlers), B2A (lket-b2a), TRACERS.
set -u
: "${RES:?}" "${LOOP:?}" "${LOOPS:=100000}" "${RUNS:=3}" "${LKET_KO:=}" "${STAP_KO:=}"
: "${TRACERS:=none lket stap ftrace perf bpftrace}"
tmp=/tmp/bench
mkdir -p "$tmp"
out=$RES/results
log=$RES/guest.log
: > "$out"
: > "$log"
t=/sys/kernel/tracing
[ -f $t/trace ] || mount -t tracefs nodev $t 2>/dev/null || :

loop_ns() { tail -n 1 "$tmp/ns" | awk '{ print $2 }'; }
say() { echo "$*" >> "$out"; }

run_none() {
	"$LOOP" -t "$tmp/ns" "$LOOPS"
	say "none $1 $LOOPS $(loop_ns) 0 0"
}

# LKET: the addevent.syscall module built on the host, staprun in bulk
# mode; lket-b2a reports what the transport lost.
run_lket() {
	rm -rf "$tmp/lket" && mkdir -p "$tmp/lket"
	# lket-run-traced: plain staprun -c loses the trace's tail (stapio
	# 4.8 stops reading when the command exits)
	"$RUN_TRACED" -o "$tmp/lket/t" "$LKET_KO" -- "$LOOP" -t "$tmp/ns" "$LOOPS" \
		>> "$log" 2>&1 || { say "lket $1 $LOOPS $(loop_ns) -1 -1"; return; }
	"$B2A" -o "$tmp/lket.out" "$tmp/lket/t" 2> "$tmp/b2a.err"
	seen=$(grep -c ' syscall\.[er].*getppid' "$tmp/lket.out")
	lost=$(sed -n 's/.*lost \([0-9][0-9]*\) flushes.*/\1/p' "$tmp/b2a.err" | awk '{ s += $1 } END { print s + 0 }')
	cat "$tmp/b2a.err" >> "$log"
	say "lket $1 $LOOPS $(loop_ns) $seen $lost"
	rm -rf "$tmp/lket" "$tmp/lket.out"
}

# SystemTap's floor: the same tracepoints and runtime, nothing written.
run_stap() {
	rm -rf "$tmp/stap" && mkdir -p "$tmp/stap"
	"$RUN_TRACED" -o "$tmp/stap/t" "$STAP_KO" -- "$LOOP" -t "$tmp/ns" "$LOOPS" \
		>> "$log" 2>&1 || { say "stap $1 $LOOPS $(loop_ns) -1 -1"; return; }
	say "stap $1 $LOOPS $(loop_ns) -1 0"
	rm -rf "$tmp/stap"
}

# ftrace: trace-cmd record, streaming the ring buffer to a file as a user
# would; its per-CPU statistics give the overruns.
run_ftrace() {
	rm -f "$tmp/trace.dat"
	trace-cmd record -e raw_syscalls -o "$tmp/trace.dat" \
		-F "$LOOP" -t "$tmp/ns" "$LOOPS" > "$tmp/tc.log" 2>&1 || {
		cat "$tmp/tc.log" >> "$log"; say "ftrace $1 $LOOPS $(loop_ns) -1 -1"; return; }
	lost=$(awk '/^overrun:|^dropped events:/ { s += $NF } END { print s + 0 }' "$tmp/tc.log")
	seen=$(trace-cmd report -i "$tmp/trace.dat" 2>/dev/null | grep -c 'NR 110 ')
	say "ftrace $1 $LOOPS $(loop_ns) $seen $lost"
	rm -f "$tmp/trace.dat"
}

run_perf() {
	rm -f "$tmp/perf.data"
	perf record -q -o "$tmp/perf.data" -e raw_syscalls:sys_enter \
		-e raw_syscalls:sys_exit -- "$LOOP" -t "$tmp/ns" "$LOOPS" \
		>> "$log" 2>&1 || { say "perf $1 $LOOPS $(loop_ns) -1 -1"; return; }
	perf report -i "$tmp/perf.data" --stats > "$tmp/stats" 2>/dev/null
	seen=$(awk '/^ *SAMPLE events:/ { print $3; exit }' "$tmp/stats")
	lost=$(awk '/^ *LOST_SAMPLES events:/ { s += $3 } END { print s + 0 }' "$tmp/stats")
	say "perf $1 $LOOPS $(loop_ns) ${seen:--1} $lost"
	rm -f "$tmp/perf.data"
}

# bpftrace writing the fields LKET writes: time, CPU, tid, command, name
# (bpftrace has no syscall name table: the number) and, on return, the
# return value.
run_bpftrace() {
	rm -f "$tmp/bt.txt"
	# 16 MiB of perf buffer a CPU instead of 256 KiB: with the default,
	# bpftrace loses most of the events of this loop
	BPFTRACE_PERF_RB_PAGES=${BPFTRACE_PERF_RB_PAGES:-4096} bpftrace -o "$tmp/bt.txt" -c "$LOOP -t $tmp/ns $LOOPS" -e '
tracepoint:raw_syscalls:sys_enter /pid == cpid/ {
	printf("%llu %d %d %s entry %d\n", nsecs, cpu, tid, comm, args->id); }
tracepoint:raw_syscalls:sys_exit /pid == cpid/ {
	printf("%llu %d %d %s return %d %d\n", nsecs, cpu, tid, comm, args->id, args->ret); }' \
		2> "$tmp/bt.err" || {
		cat "$tmp/bt.err" >> "$log"; say "bpftrace $1 $LOOPS $(loop_ns) -1 -1"; return; }
	lost=$(sed -n 's/.*Lost \([0-9][0-9]*\) events.*/\1/p' "$tmp/bt.err" "$tmp/bt.txt" | awk '{ s += $1 } END { print s + 0 }')
	seen=$(grep -c ' entry 110$\| return 110 ' "$tmp/bt.txt")
	say "bpftrace $1 $LOOPS $(loop_ns) $seen $lost"
	rm -f "$tmp/bt.txt"
}

active=
for c in $TRACERS; do
	case $c in
	lket) [ -n "$LKET_KO" ] && [ -f "$LKET_KO" ] || { say "lket skip ${LKET_WHY:-no module was built}"; continue; } ;;
	stap) [ -n "$STAP_KO" ] && [ -f "$STAP_KO" ] || { say "stap skip ${STAP_WHY:-no module was built}"; continue; } ;;
	ftrace) command -v trace-cmd >/dev/null || { say "ftrace skip no trace-cmd"; continue; } ;;
	perf) command -v perf >/dev/null || { say "perf skip no perf"; continue; } ;;
	bpftrace) command -v bpftrace >/dev/null || { say "bpftrace skip no bpftrace"; continue; } ;;
	esac
	active="$active $c"
done
# a warm-up: page cache, first-use costs of each tool
"$LOOP" "$LOOPS"
for r in $(seq "$RUNS"); do
	for c in $active; do
		echo "guest: run $r: $c" >&2
		"run_$c" "$r"
	done
done
echo "$(uname -r) $(nproc) CPUs" > "$RES/guest-info"
