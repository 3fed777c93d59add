#!/bin/sh
# shellcheck disable=SC2046,SC2091,SC2317,SC2016,SC2015
# (the workload and the tracers' event options are word lists printed by
# functions and split on purpose; run_* is called as "run_$tracer"; the
# kprobe and bpftrace programs are quoted for their own $; a && b || c
# here means "or say why not")
# Runs inside the guest (bench/guest.sh starts it with lket-vm): in one
# boot, each workload untraced and under each tracer, alternating, RUNS
# times.  Appends to $RES/results one line per run:
#   MODE CONFIG RUN LOOPS LOOP_NS EVENTS_SEEN LOST OTHERS_NS
# (LOOP_NS: the loop's own time, from bench-loop -t, the mean of the
# loops when there are two; EVENTS_SEEN/LOST as the tracer reports them,
# -1 when it cannot tell; OTHERS_NS: what the CPUs the loop did not run
# on ran meanwhile, bench-loop -t's third figure, -1 when it cannot tell:
# with one loop, the tracer's work off the traced CPU).  A tracer that
# cannot run here writes "MODE CONFIG skip REASON".  Modes:
#   syscall   bench-loop LOOPS on CPU 0: getppid, the raw_syscalls
#             tracepoints (addevent.syscall)
#   syscall2  the same loop on both CPUs at once: how the cost per event
#             changes with two busy CPUs
#   kprobe    bench-loop -r LOOPS on CPU 0: read(2) of /dev/zero, a
#             kprobe and a return probe on __x64_sys_read
#             (addevent.iosyscall.read)
#   wakeup    bench-loop -w LOOPS: two threads on CPUs 0 and 1 pass a
#             byte back and forth, 2 LOOPS wake-ups (addevent.tskdispatch's
#             wakeup, wakeup_new and migrate; sched_waking and the others)
#   rate      the rate sweep: for each R of RATES, both CPUs run
#             bench-loop -p R for half a second's worth of calls (R/2),
#             once per tracer; RUN is R and LOOPS is R/2 in its lines
#   cyclictest  (PREEMPT_RT kernels) cyclictest's timer threads on both
#             CPUs for RT_SECONDS beside bench-loop -p RT_RATE on both;
#             its lines: MODE CONFIG RUN P99_US MAX_US EVENTS_SEEN LOST
#
# Environment: RES, LOOP (bench-loop), LOOPS, RUNS, MODES, RATES,
# RT_SECONDS, RT_RATE, TRACERS, B2A (lket-b2a), RUN_TRACED, PROFILE (a
# rate: perf record samples every run but perf's; profile_report), LTTNG_MODULES
# (or LTTNG_WHY: why there are none), and per mode the modules LKET_KO_<mode> and
# STAP_KO_<mode> (empty when none could be built; LKET_WHY_<mode>,
# STAP_WHY_<mode> say why); with LKETB_KO_<mode>, the tracer "lketb" too:
# LKET built another way (bench/guest.sh's GUEST_LKET_B), run with
# LKETB_ENV in lket-run-traced's environment and LKETB_ARGS among its
# options.
set -u
: "${RES:?}" "${LOOP:?}" "${LOOPS:=100000}" "${RUNS:=3}"
: "${MODES:=syscall syscall2 kprobe}" "${RATES:=10000 30000 100000 300000}"
: "${TRACERS:?}"
tmp=/tmp/bench
mkdir -p "$tmp"
out=$RES/results
log=$RES/guest.log
: > "$out"
: > "$log"
# first: the report's header names the guest even if the job is cut short
echo "$(uname -r) $(nproc) CPUs" > "$RES/guest-info"
t=/sys/kernel/tracing
[ -f $t/trace ] || mount -t tracefs nodev $t 2>/dev/null || :

say() { echo "$mode $*" >> "$out"; }
# a run's line: its figures, then the other CPUs' time (the mean of the
# loops'; -1 when a loop could not tell)
result() { say "$* $(others_ns)"; }
others_ns() {
	[ -s "$tmp/ns" ] || { echo -1; return; }
	awk '{ if (NF < 3 || $3 < 0) bad = 1; s += $3; n++ }
	END { printf "%.0f\n", n && !bad ? s / n : -1 }' "$tmp/ns"
}
# the loops' own time: the mean of what this run's loops wrote
# %.0f: mawk's %d stops at 2^31 - 1 (a loop of 2.1 s)
loop_ns() { awk '{ s += $2; n++ } END { printf "%.0f\n", n ? s / n : -1 }' "$tmp/ns"; }
# cyclictest's histogram (a line a microsecond: its count on each CPU):
# the 99th percentile of all CPUs' wake-ups and the largest, in us
# (-1 -1 when it did not run)
rt_latency() {
	awk '/^[0-9]/ { for (i = 2; i <= NF; i++) { c[$1 + 0] += $i; n += $i } }
	/^# Max Latencies:/ { for (i = 4; i <= NF; i++) if ($i + 0 > mx) mx = $i + 0 }
	/^# Histogram Overflows:/ { for (i = 4; i <= NF; i++) n += $i }
	END {
		if (!n) { print "-1 -1"; exit }
		for (b = 0; s < 0.99 * n && b <= 20000; b++) s += c[b]
		# parenthesised: a bare ">" in printf'"'"'s arguments redirects
		printf "%d %d\n", (s >= 0.99 * n ? b - 1 : mx), mx
	}' "$tmp/cyclic" 2>/dev/null || echo "-1 -1"
	rm -f "$tmp/cyclic"
}
# what a run measured, for its line: LOOPS LOOP_NS, or (cyclictest) the
# p99 and largest wake-up latency
figures() {
	if [ "$mode" = cyclictest ]; then rt_latency; else echo "$LOOPS $(loop_ns)"; fi
}

# The workload of the mode, as one command (a script for two loops:
# two.sh [bench-loop option...] COUNT).
cat > "$tmp/two.sh" <<EOF
#!/bin/sh
taskset -c 0 "$LOOP" -t "$tmp/ns" "\$@" & a=\$!
taskset -c 1 "$LOOP" -t "$tmp/ns" "\$@" & b=\$!
wait \$a; wait \$b
EOF
chmod +x "$tmp/two.sh"
TASKSET=$(command -v taskset)
workload() {
	# PROFILE: each run's CPUs sampled (perf record -e cpu-clock on all of
	# them) while its workload runs, after the tracer has started
	[ -z "$profiling" ] || printf 'perf record -a -q -F %s -e cpu-clock -o %s -- ' \
		"$PROFILE" "$tmp/profile.data"
	# taskset by its path: bpftrace -c refuses a name that two PATH
	# folders hold (/bin and /usr/bin, with a merged /usr)
	case $mode in
	syscall) echo "$TASKSET -c 0 $LOOP -t $tmp/ns $LOOPS" ;;
	syscall2) echo "$tmp/two.sh $LOOPS" ;;
	kprobe) echo "$TASKSET -c 0 $LOOP -r -t $tmp/ns $LOOPS" ;;
	wakeup) echo "$LOOP -w -t $tmp/ns $LOOPS" ;;
	rate) echo "$tmp/two.sh -p $rate $LOOPS" ;;
	cyclictest) echo "$tmp/rt.sh" ;;
	esac
}
# cyclictest's timer threads (one a CPU, SCHED_FIFO 95, every ms) for
# RT_SECONDS, beside the paced getppid load on both CPUs; the histogram
# in $tmp/cyclic
cat > "$tmp/rt.sh" <<EOF
#!/bin/sh
"$tmp/two.sh" -p ${RT_RATE:-20000} $((${RT_RATE:-20000} * ${RT_SECONDS:-20})) & l=\$!
cyclictest -m -S -p 95 -i 1000 -D ${RT_SECONDS:-20} -q -h 20000 > "$tmp/cyclic" 2>&1
wait \$l
EOF
chmod +x "$tmp/rt.sh"
# the loop's calls in lket.out, and in trace-cmd's and bpftrace's text
lket_pattern() {
	case $mode in
	kprobe) echo ' iosyscall\.read\.entry fd=[0-9]* .*count=1\( stack=.*\)\{0,1\}$\| iosyscall\.read\.return return=1\( stack=.*\)\{0,1\}$' ;;
	wakeup) echo ' bench-loop tskdispatch\.wakeup tid=.* name="bench-loop" ' ;;
	*) echo ' syscall\.[er].*getppid' ;;
	esac
}
module() { eval "echo \${${1}_KO_$mode:-}"; }

run_none() {
	rm -f "$tmp/ns"
	$(workload)
	result "none $1 $(figures) 0 0"
}

# LKET: the module built on the host, staprun in bulk mode (through
# lket-run-traced: plain staprun -c loses the trace's tail); lket-b2a
# reports what the transport lost.
run_lket() { run_lket_module LKET lket "$1" ""; }
# shellcheck disable=SC2086 # LKETB_ENV: NAME=VALUE words
run_lketb() { run_lket_module LKETB lketb "$1" "${LKETB_ARGS:-}" ${LKETB_ENV:-}; }
run_lket_module() {	# VAR CONFIG RUN "OPTION..." [NAME=VALUE...]
	var=$1 config=$2 run=$3 args=$4
	shift 4
	rm -rf "$tmp/lket" "$tmp/ns" && mkdir -p "$tmp/lket"
	# shellcheck disable=SC2086 # args: lket-run-traced's options, split
	env "$@" "$RUN_TRACED" $args -o "$tmp/lket/t" "$(module "$var")" -- $(workload) \
		>> "$log" 2>&1 || { result "$config $run $(figures) -1 -1"; return; }
	"$B2A" -o "$tmp/lket.out" "$tmp/lket/t" 2> "$tmp/b2a.err"
	seen=$(grep -c "$(lket_pattern)" "$tmp/lket.out")
	# flushes lost in transport, and records the module dropped (buffers
	# full): both count as lost here
	lost=$(sed -n -e 's/.*lost \([0-9][0-9]*\) flushes.*/\1/p' \
		-e 's/.* \([0-9][0-9]*\) records dropped by the tracer$/\1/p' "$tmp/b2a.err" |
		awk '{ s += $1 } END { print s + 0 }')
	cat "$tmp/b2a.err" >> "$log"
	result "$config $run $(figures) $seen $lost"
	rm -rf "$tmp/lket" "$tmp/lket.out"
}

# SystemTap's floor: the same probes and runtime, nothing written.
run_stap() {
	rm -rf "$tmp/stap" "$tmp/ns" && mkdir -p "$tmp/stap"
	"$RUN_TRACED" -o "$tmp/stap/t" "$(module STAP)" -- $(workload) \
		>> "$log" 2>&1 || { result "stap $1 $(figures) -1 -1"; return; }
	result "stap $1 $(figures) -1 0"
	rm -rf "$tmp/stap"
}

# The kprobe mode's events for ftrace and perf: kprobe events on the
# function LKET probes, with the fields LKET records (the syscall
# wrapper's pt_regs: fd in di, buf in si, count in dx).
kprobe_events() {
	echo 'p:lket_read __x64_sys_read fd=+112(%di):s64 buf=+104(%di):u64 count=+96(%di):u64' > $t/kprobe_events &&
		echo 'r:lket_read_ret __x64_sys_read ret=$retval:s64' >> $t/kprobe_events
}
ftrace_events() {
	case $mode in
	kprobe) echo "-e kprobes:lket_read -e kprobes:lket_read_ret" ;;
	wakeup) echo "-e sched:sched_waking -e sched:sched_wakeup_new -e sched:sched_migrate_task" ;;
	*) echo "-e raw_syscalls" ;;
	esac
}

# ftrace: trace-cmd record, streaming the ring buffer to a file as a user
# would (-c: the command's children too, for two loops); its per-CPU
# statistics give the overruns.
run_ftrace() {
	rm -f "$tmp/trace.dat" "$tmp/ns"
	trace-cmd record $(ftrace_events) -o "$tmp/trace.dat" \
		-c -F $(workload) > "$tmp/tc.log" 2>&1 || {
		cat "$tmp/tc.log" >> "$log"; result "ftrace $1 $(figures) -1 -1"; return; }
	lost=$(awk '/^overrun:|^dropped events:/ { s += $NF } END { print s + 0 }' "$tmp/tc.log")
	case $mode in
	kprobe) seen=$(trace-cmd report -i "$tmp/trace.dat" 2>/dev/null | grep -c 'bench-loop.*lket_read') ;;
	wakeup) seen=$(trace-cmd report -i "$tmp/trace.dat" 2>/dev/null | grep -c 'bench-loop.* sched_waking: *comm=bench-loop ') ;;
	*) seen=$(trace-cmd report -i "$tmp/trace.dat" 2>/dev/null | grep -c 'NR 110 ') ;;
	esac
	result "ftrace $1 $(figures) $seen $lost"
	rm -f "$tmp/trace.dat"
}

run_perf() {
	rm -f "$tmp/perf.data" "$tmp/ns"
	case $mode in
	kprobe) ev="-e kprobes:lket_read -e kprobes:lket_read_ret" ;;
	wakeup) ev="-e sched:sched_waking -e sched:sched_wakeup_new -e sched:sched_migrate_task" ;;
	*) ev="-e raw_syscalls:sys_enter -e raw_syscalls:sys_exit" ;;
	esac
	# shellcheck disable=SC2086 # ev: perf's options, split
	perf record -q -o "$tmp/perf.data" $ev -- $(workload) \
		>> "$log" 2>&1 || { result "perf $1 $(figures) -1 -1"; return; }
	perf report -i "$tmp/perf.data" --stats > "$tmp/stats" 2>/dev/null
	seen=$(awk '/^ *SAMPLE events:/ { print $3; exit }' "$tmp/stats")
	lost=$(awk '/^ *LOST_SAMPLES events:/ { s += $3 } END { print s + 0 }' "$tmp/stats")
	result "perf $1 $(figures) ${seen:--1} $lost"
	rm -f "$tmp/perf.data"
}

# bpftrace writing the fields LKET writes: time, CPU, tid, command, and
# the hook's fields (bpftrace has no syscall name table: the number).
run_bpftrace() {
	rm -f "$tmp/bt.txt" "$tmp/ns"
	case $mode in
	kprobe) prog='
kprobe:__x64_sys_read /pid == cpid/ {
	$r = (struct pt_regs *)arg0;
	printf("%llu %d %d %s entry %d %llu %llu\n", nsecs, cpu, tid, comm, $r->di, $r->si, $r->dx); }
kretprobe:__x64_sys_read /pid == cpid/ {
	printf("%llu %d %d %s return %d\n", nsecs, cpu, tid, comm, retval); }' ;;
	wakeup) prog='
tracepoint:sched:sched_waking /pid == cpid/ {
	printf("%llu %d %d %s waking %d %d %s %d\n", nsecs, cpu, tid, comm, args->pid, args->target_cpu, args->comm, args->prio); }
tracepoint:sched:sched_wakeup_new /pid == cpid/ {
	printf("%llu %d %d %s wakeup_new %d %d %s\n", nsecs, cpu, tid, comm, args->pid, args->target_cpu, args->comm); }
tracepoint:sched:sched_migrate_task /pid == cpid/ {
	printf("%llu %d %d %s migrate %d %d %d\n", nsecs, cpu, tid, comm, args->pid, args->orig_cpu, args->dest_cpu); }' ;;
	*) prog='
tracepoint:raw_syscalls:sys_enter /pid == cpid/ {
	printf("%llu %d %d %s entry %d\n", nsecs, cpu, tid, comm, args->id); }
tracepoint:raw_syscalls:sys_exit /pid == cpid/ {
	printf("%llu %d %d %s return %d %d\n", nsecs, cpu, tid, comm, args->id, args->ret); }' ;;
	esac
	# 16 MiB of perf buffer a CPU instead of 256 KiB: with the default,
	# bpftrace loses most of the events of this loop
	BPFTRACE_PERF_RB_PAGES=${BPFTRACE_PERF_RB_PAGES:-4096} bpftrace \
		-o "$tmp/bt.txt" -c "$(workload)" -e "$prog" 2> "$tmp/bt.err" || {
		cat "$tmp/bt.err" >> "$log"; result "bpftrace $1 $(figures) -1 -1"; return; }
	lost=$(sed -n 's/.*Lost \([0-9][0-9]*\) events.*/\1/p' "$tmp/bt.err" "$tmp/bt.txt" | awk '{ s += $1 } END { print s + 0 }')
	case $mode in
	kprobe) seen=$(grep -c ' entry [0-9]* [0-9]* 1$\| return 1$' "$tmp/bt.txt") ;;
	wakeup) seen=$(grep -c ' waking [0-9]* [0-9]* bench-loop ' "$tmp/bt.txt") ;;
	*) seen=$(grep -c ' entry 110$\| return 110 ' "$tmp/bt.txt") ;;
	esac
	result "bpftrace $1 $(figures) $seen $lost"
	rm -f "$tmp/bt.txt"
}

# LTTng: lttng-sessiond, started once a boot with the modules
# bench/lttng-modules.sh built for this kernel ($LTTNG_MODULES); a
# session per run, with the events of the mode in one kernel channel of 8
# sub-buffers of 256 KiB a CPU (2 MiB: ftrace's buffer is 1.4 MiB); the
# events the tracer discarded (buffers full) are the lost, as babeltrace2
# reports them.
lttng_start() {
	[ -n "${LTTNG_MODULES:-}" ] && [ -d "$LTTNG_MODULES" ] ||
		{ echo "${LTTNG_WHY:-no LTTng modules were built}"; return 1; }
	command -v lttng-sessiond >/dev/null || { echo "no lttng-sessiond (lttng-tools)"; return 1; }
	d=/lib/modules/$(uname -r)/extra/lttng
	mkdir -p "$d" && cp "$LTTNG_MODULES"/*.ko "$d"/ && depmod -a ||
		{ echo "the modules could not be installed"; return 1; }
	lttng-sessiond --daemonize >> "$log" 2>&1 ||
		{ echo "lttng-sessiond did not start"; return 1; }
	lttng list --kernel > "$tmp/lttng-list" 2>> "$log" &&
		grep -q sched_switch "$tmp/lttng-list" ||
		{ echo "lttng-sessiond has no kernel tracer (lttng list --kernel)"; return 1; }
}
lttng_events() {
	case $mode in
	kprobe) echo "--function=__x64_sys_read lket_read" ;;
	wakeup) echo "sched_waking,sched_wakeup_new,sched_migrate_task" ;;
	*) echo "--syscall --all" ;;
	esac
}
run_lttng() {
	rm -rf "$tmp/lttng" "$tmp/ns"
	{ lttng create bench --output="$tmp/lttng" &&
	  lttng enable-channel --kernel --subbuf-size=256k --num-subbuf=8 c &&
	  lttng add-context --kernel --channel=c -t tid &&
	  lttng enable-event --kernel --channel=c $(lttng_events) &&
	  lttng start; } >> "$log" 2>&1 || {
		lttng destroy bench >> "$log" 2>&1; result "lttng $1 $(figures) -1 -1"; return; }
	$(workload)
	lttng stop >> "$log" 2>&1
	lttng destroy >> "$log" 2>&1
	babeltrace2 "$tmp/lttng" > "$tmp/lttng.txt" 2> "$tmp/lttng.err"
	lost=$(sed -n 's/.*Tracer discarded \([0-9][0-9]*\) event.*/\1/p' "$tmp/lttng.err" |
		awk '{ s += $1 } END { print s + 0 }')
	# the loop's events: its thread's (the tid with the most of them)
	case $mode in
	kprobe) seen=$(grep ' lket_read_\(entry\|exit\): ' "$tmp/lttng.txt" |
		sed -n 's/.* tid = \([0-9]*\) .*/\1/p' | sort | uniq -c | sort -rn |
		awk 'NR == 1 { print $1 }') ;;
	wakeup) seen=$(grep -c ' sched_waking: .*comm = "bench-loop"' "$tmp/lttng.txt") ;;
	*) seen=$(grep -c ' syscall_\(entry\|exit\)_getppid: ' "$tmp/lttng.txt") ;;
	esac
	result "lttng $1 $(figures) ${seen:--1} $lost"
	rm -rf "$tmp/lttng" "$tmp/lttng.txt"
}

# Which tracers can run in a mode: bpftrace's pid == cpid cannot follow
# the two loops of syscall2.
usable() {
	case $c in
	lket) [ -n "$(module LKET)" ] && [ -f "$(module LKET)" ] ||
		{ say "lket skip $(eval "echo \${LKET_WHY_$mode:-no module was built}")"; return 1; } ;;
	lketb) [ -n "$(module LKETB)" ] && [ -f "$(module LKETB)" ] ;;
	stap) [ -n "$(module STAP)" ] && [ -f "$(module STAP)" ] ||
		{ say "stap skip $(eval "echo \${STAP_WHY_$mode:-no module was built}")"; return 1; } ;;
	ftrace) command -v trace-cmd >/dev/null || { say "ftrace skip no trace-cmd"; return 1; } ;;
	perf) command -v perf >/dev/null || { say "perf skip no perf"; return 1; } ;;
	lttng) [ -z "$lttng_why" ] || { say "lttng skip $lttng_why"; return 1; } ;;
	bpftrace) command -v bpftrace >/dev/null || { say "bpftrace skip no bpftrace"; return 1; }
		case $mode in syscall2|rate|cyclictest) say "bpftrace skip pid == cpid follows one process"; return 1 ;; esac ;;
	esac
}

# A profiled run's samples by command and by where they fell (the kernel,
# a module, a library), then by symbol, in $RES/profile-MODE-CONFIG-RUN.
# Interrupts are off in a SystemTap handler: its samples fall on the
# instruction that turns them on again, in the module, at the handler's
# end.
profiling=
profile_report() {
	{ perf report -i "$tmp/profile.data" --sort comm,dso --stdio 2>&1 | grep -v '^#' | grep . | head -n 30
	  echo
	  perf report -i "$tmp/profile.data" --sort comm,dso,sym --stdio --percent-limit 1 2>&1 |
		grep -v '^#' | grep .; } > "$RES/profile-$mode-$1-$2"
	rm -f "$tmp/profile.data"
}

lttng_why=
case " $TRACERS " in
*" lttng "*) lttng_why=$(lttng_start) || : ;;
esac
for mode in $MODES; do
	if [ "$mode" = kprobe ]; then
		kprobe_events 2>> "$log" || echo "guest: kprobe events could not be made" >&2
	fi
	active=
	for c in $TRACERS; do
		usable && active="$active $c"
	done
	# a warm-up: page cache, first-use costs of each tool (cyclictest:
	# the loads' own)
	rm -f "$tmp/ns"
	all_loops=$LOOPS rate=${RATES%% *}
	[ "$mode" = rate ] && LOOPS=$((rate / 2))
	[ "$mode" = cyclictest ] || $(workload)
	if [ "$mode" = rate ]; then
		for rate in $RATES; do
			LOOPS=$((rate / 2))
			for c in $active; do
				echo "guest: rate $rate: $c" >&2
				"run_$c" "$rate"
			done
		done
		LOOPS=$all_loops
		continue
	fi
	for r in $(seq "$RUNS"); do
		for c in $active; do
			echo "guest: $mode run $r: $c" >&2
			[ -z "${PROFILE:-}" ] || [ "$c" = perf ] || profiling=yes
			"run_$c" "$r"
			[ -z "$profiling" ] || profile_report "$c" "$r"
			profiling=
		done
	done
	if [ "$mode" = kprobe ]; then
		echo > $t/kprobe_events
	fi
done
# every mode ran: what failed is in the results and the log
exit 0
