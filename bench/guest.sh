#!/bin/sh
# make bench, part 3: what tracing costs the traced system.  In one boot of
# the qemu guest (tests/vm/lket-vm) per kernel, each workload runs
# untraced and under each tracer, alternating, RUNS times
# (bench/guest-job.sh):
#   syscall   `bench-loop L` on CPU 0: L getppid calls, 2 L raw_syscalls
#             events (LKET: addevent.syscall, on the tracepoints)
#   syscall2  the same loop on both CPUs at once (per-event cost with two
#             busy CPUs against one)
#   kprobe    `bench-loop -r L` on CPU 0: L one-byte reads of /dev/zero
#             (LKET: addevent.iosyscall.read, a kprobe and a return probe on
#             __x64_sys_read; the peers: kprobe events on the same
#             function with the same fields, bpftrace kprobe/kretprobe)
#   wakeup    `bench-loop -w L`: L round trips of a byte between two
#             threads pinned to CPUs 0 and 1, 2 L wake-ups (LKET:
#             addevent.tskdispatch.wakeup, wakeup_new and migrate; the
#             peers: the sched_waking, sched_wakeup_new and
#             sched_migrate_task tracepoints)
#   rate      the rate sweep: the getppid loop on both CPUs, each offered
#             R calls a second (bench-loop -p R) for half a second, for
#             each R of GUEST_RATES, once per tracer: the rate each tracer
#             lets the loops reach, and what it loses there
# The tracers:
#   none      untraced
#   lket      staprun of `lket-stap -e 'probe addevent.syscall {}'` (or
#             addevent.iosyscall.read), built here for the guest kernel
#             (tools/lket-stap, tools/lket-buildenv)
#   stap      SystemTap's floor: the same probes, options and runtime,
#             handlers that write nothing (-u keeps them): what any
#             SystemTap tracer pays before its first byte, so LKET's own
#             share is lket minus stap
#   ftrace    trace-cmd record -e raw_syscalls -F (kprobe: -e kprobes:...)
#   perf      perf record -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit
#   bpftrace  the same probes, printf of the fields LKET writes
#   lttng     LTTng's kernel tracer: lttng-sessiond, a session per run,
#             --syscall --all (kprobe: --function=__x64_sys_read; wakeup:
#             the three sched events), with the modules of
#             bench/lttng-modules.sh
# and reports, per mode and tracer, the median extra ns per event over the
# untraced loop, the ratio to the untraced loop and the events lost.  On a
# PREEMPT_RT kernel one more mode:
#   cyclictest  cyclictest (rt-tests) on both CPUs for GUEST_RT_SECONDS
#             while a paced getppid load runs on both, untraced and
#             recorded by each tracer: the p99 and the largest wake-up
#             latency of the timer threads, what a real-time user asks of
#             a tracer first
# The guest runs under software emulation (TCG) unless KVM works: only
# ratios mean anything, never the absolute times.
#
# One boot, and one table a mode, per kernel of GUEST_KERNELS (default:
# every target make check tests, tools/lket-target --list); a kernel of
# another Debian suite in BUILD/targets/REL with its build root in
# BUILD/roots, as make check has them (tests/prepare-targets).
#
#   bench/guest.sh BUILD    GUEST_LOOPS=50000 GUEST_RUNS=3 BENCH_DIR=...
#                           GUEST_KERNELS="REL ..."
#                           GUEST_MODES="syscall syscall2 kprobe wakeup rate"
#                           GUEST_RATES="10000 30000 100000 300000"
#                           GUEST_RT_SECONDS=20 GUEST_RT_RATE=20000
#                           GUEST_TIMEOUT=S: the boot's limit (default
#                           1800, more with cyclictest)
#                           GUEST_LKET_B="-DOPTION ...": LKET built
#                           with these stap options too, run beside the
#                           other tracers as "lketb" (to compare builds)
#                           GUEST_LKET_B_TREE=DIR: "lketb" built by
#                           another checkout's tools/lket-stap, in its
#                           own build folder (to compare versions in one
#                           boot: git worktree add DIR REV; make -C DIR)
#                           GUEST_LKET_B_ENV="NAME=VALUE ...": "lketb"
#                           run with these in lket-run-traced's
#                           environment (a switch of lket-run-traced's
#                           being measured: LKET_PIN_READERS=own)
#                           GUEST_LKET_B_ARGS="OPTION ...": "lketb" run
#                           with these lket-run-traced options ("--flight
#                           64": no consumer during the loop, its
#                           records written at the end: what LKET costs
#                           without one)
#                           GUEST_TRACERS="none lket lketb stap ...":
#                           only these (default: all of them)
#                           GUEST_PROFILE=HZ: each run but perf's is
#                           sampled HZ times a second on every CPU
#                           (perf record -e cpu-clock): where its time
#                           went, by command and module, in
#                           BENCH_DIR/guest/REL/res/profile-MODE-TRACER-RUN
#                           (its times are then not the tracer's alone)
#
# LKET_SKIP_GUEST=1 skips this part (exit 77).
set -eu
build=$(cd "${1:?usage: guest.sh BUILD}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
bench=${BENCH_DIR:-$build/bench}
loops=${GUEST_LOOPS:-50000}
runs=${GUEST_RUNS:-3}
note() { echo "guest-bench: $*" >&2; }

if [ "${LKET_SKIP_GUEST:-}" = 1 ]; then
	note "skipped (LKET_SKIP_GUEST=1)"
	exit 77
fi
"$top/tools/install-deps" bench || { note "the peers could not be installed"; exit 1; }
[ -x "$build/bench-loop" ] ||
	{ note "$build/bench-loop is missing: make bench builds it"; exit 1; }
default_rel=$("$top/tools/lket-target")
kernels=${GUEST_KERNELS:-$("$top/tools/lket-target" --list)}
rates=${GUEST_RATES:-10000 30000 100000 300000}

# ---- the modules, built on the host for the guest kernel: LKET's hooks
# and SystemTap's floor (the same probes, empty handlers) per mode
# STP_NO_OVERLOAD: under emulation every probe costs ten times or more what
# it does on hardware, and SystemTap's overload guard (probe time over half
# of a second of CPU) stops the module in the middle of the loop; the other
# tracers have no such guard either.
build_module() { # NAME SCRIPT [STAP OPTION...]: prints the .ko or nothing
	name=$1 script=$2
	shift 2
	rm -f "$dir/$name.ko"
	# lketb of another checkout: its lket-stap, its build folder and cache
	stap_tool=$top/tools/lket-stap
	case $name in
	lketb_*) [ -z "${GUEST_LKET_B_TREE:-}" ] ||
		stap_tool="env -u LKET_BUILDDIR -u SYSTEMTAP_DIR $GUEST_LKET_B_TREE/tools/lket-stap" ;;
	esac
	# shellcheck disable=SC2086 # stap_tool is a command and its arguments
	if (cd "$dir" && $stap_tool -p4 -m "$name" -DSTP_NO_OVERLOAD \
		"$@" -e "$script" > "$dir/$name.log" 2>&1); then
		echo "$dir/$name.ko"
	else
		note "$name did not build (see $dir/$name.log)"
	fi
}

# bench_kernel REL: one boot of REL, its tables in $bench/guest-REL.txt
bench_kernel() {
rel=$1
kb=$build
if [ "$rel" != "$default_rel" ]; then
	# the kernel's build folder and root, as make check prepares them,
	# with the peers in the root of another suite
	kb=$build/targets/$rel
	"$top/tests/prepare-targets" "$build" "$rel" >&2 ||
		{ note "$rel: tests/prepare-targets failed"; return 1; }
	if [ -n "$(LKET_ROOTDIR=$build/roots "$top/tools/lket-buildenv" --release "$rel" \
		--builddir "$kb" --print-root)" ]; then
		LKET_ROOTDIR=$build/roots "$top/tools/lket-buildenv" --release "$rel" \
			--builddir "$kb" --exec "$top/tools/install-deps" bench >&2 ||
			{ note "$rel: the peers could not be installed in its build root"; return 1; }
	fi
fi
export LKET_KERNEL_RELEASE=$rel LKET_BUILDDIR=$kb LKET_ROOTDIR=$build/roots
export SYSTEMTAP_DIR=$kb/stap-cache
dir=$bench/guest/$rel
rm -rf "$dir/res"
mkdir -p "$dir/res"
dir=$(cd "$dir" && pwd)
modes=${GUEST_MODES:-syscall syscall2 kprobe wakeup rate}
tracers=${GUEST_TRACERS:-none lket lketb stap ftrace lttng perf bpftrace}
lketb=${GUEST_LKET_B:-}${GUEST_LKET_B_TREE:-}${GUEST_LKET_B_ENV:-}${GUEST_LKET_B_ARGS:-}
case $rel in *-rt-amd64) modes="$modes cyclictest" ;; esac

env_modules=
for mode in $modes; do
	case $mode in
	syscall|syscall2|rate|cyclictest)
		lket='probe addevent.syscall {}'
		floor='probe kernel.trace("raw_syscalls:sys_enter"), kernel.trace("raw_syscalls:sys_exit") {}' ;;
	kprobe)
		lket='probe addevent.iosyscall.read {}'
		floor='probe kprobe.function("__x64_sys_read"), kprobe.function("__x64_sys_read").return {}' ;;
	wakeup)
		lket='probe addevent.tskdispatch.wakeup, addevent.tskdispatch.wakeup_new, addevent.tskdispatch.migrate {}'
		floor='probe kernel.trace("sched_waking"), kernel.trace("sched_wakeup_new"), kernel.trace("sched_migrate_task") {}' ;;
	*) note "unknown mode $mode"; exit 2 ;;
	esac
	tag=$(echo "$lket" | md5sum | cut -c 1-8)
	note "$rel: $mode: building the modules for the guest kernel"
	build_module "lket_$tag" "$lket" > /dev/null
	build_module "floor_$tag" "$floor" -u > /dev/null
	# shellcheck disable=SC2086
	[ -z "$lketb" ] || build_module "lketb_$tag" "$lket" ${GUEST_LKET_B:-} > /dev/null
	for m in lket floor lketb; do
		[ $m != lketb ] || [ -n "$lketb" ] || continue
		var=LKET; [ $m = floor ] && var=STAP; [ $m = lketb ] && var=LKETB
		if [ -f "$dir/${m}_$tag.ko" ]; then
			env_modules="$env_modules --env ${var}_KO_$mode=$dir/${m}_$tag.ko"
		else
			env_modules="$env_modules --env ${var}_WHY_$mode=did_not_build"
		fi
	done
done
# LTTng's modules for this kernel (its Debian suite's lttng-modules)
lttng_env="--env LTTNG_WHY=its_modules_did_not_build_(bench/lttng-modules.sh)"
if lttng_mods=$("$here/lttng-modules.sh" "$kb" "$rel"); then
	lttng_env="--env LTTNG_MODULES=$lttng_mods"
fi

# the boot's time limit: 30 minutes, and for cyclictest each run of each
# tracer's seconds and a minute to convert its trace (6.12 RT's boot of
# six tracers, five runs, took 1801 s, its last run cut short)
timeout=1800
case " $modes " in *" cyclictest "*)
	ntracers=$(echo "$tracers" | wc -w)
	timeout=$((timeout + runs * ntracers * (${GUEST_RT_SECONDS:-20} + 60))) ;;
esac
t0=$(date +%s)
# a thread per emulated CPU: the loop's CPU is not shared with the
# tracer's consumer on the other one; every CPU feature QEMU emulates,
# as the figures in bench/README had (tests' guests have a plainer CPU)
# shellcheck disable=SC2086
LKET_VM_CPU=${LKET_VM_CPU:-max} "$top/tests/vm/lket-vm" run --results "$dir/res" --tcg-threads multi \
	--timeout "${GUEST_TIMEOUT:-$timeout}" \
	--env RES="$dir/res" --env LOOP="${BENCH_LOOP:-$build/bench-loop}" \
	--env LOOPS="$loops" --env RUNS="$runs" --env MODES="$modes" \
	--env RATES="$rates" --env RT_SECONDS="${GUEST_RT_SECONDS:-20}" \
	--env RT_RATE="${GUEST_RT_RATE:-20000}" $env_modules $lttng_env \
	${GUEST_LKET_B_ENV:+--env LKETB_ENV="$GUEST_LKET_B_ENV"} \
	${GUEST_LKET_B_ARGS:+--env LKETB_ARGS="$GUEST_LKET_B_ARGS"} \
	--env TRACERS="$tracers" \
	${GUEST_PROFILE:+--env PROFILE="$GUEST_PROFILE"} \
	--env B2A="$kb/lket-b2a" --env RUN_TRACED="$top/tools/lket-run-traced" \
	--script "$here/guest-job.sh" && job_rc=0 || job_rc=$?
[ "$job_rc" = 0 ] || note "$rel: the guest job exited $job_rc"
t1=$(date +%s)
[ -s "$dir/res/results" ] || { note "$rel: no results came back"; return 1; }
accel=$(cat "$kb/vm/accel-$rel" 2>/dev/null || echo "?")
report > "$bench/guest-$rel.txt"
}

# The median of a tracer's figures (arr[c, 1..n[c]]), for report's awk
# programs: a run's figures are few, an insertion sort does
awk_median='
function med(c, arr,    i, j, k, v, t) {
	k = n[c]
	for (i = 1; i <= k; i++) v[i] = arr[c, i]
	for (i = 2; i <= k; i++) for (j = i; j > 1 && v[j] < v[j - 1]; j--) {
		t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}

'

# report: the tables of one kernel's boot, from $dir/res/results
report() {
echo "tracing cost in the guest: bench-loop $loops, $((2 * loops)) events a loop, medians of $runs alternating runs"
echo "guest: $(cat "$dir/res/guest-info" 2>/dev/null), accelerator $accel; host $(nproc) x $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1); $(date -u '+%Y-%m-%d %H:%M UTC'); one boot, $((t1 - t0)) s"
[ "$job_rc" = 0 ] || echo "CUT SHORT: the guest job ended with status $job_rc (124: GUEST_TIMEOUT, ${GUEST_TIMEOUT:-$timeout} s): the last runs are missing"
for mode in $modes; do
echo
if [ "$mode" = rate ]; then
echo "rate: the getppid loop on both CPUs, each offered R calls a second for"
echo "half a second; each cell: the calls a second each loop reached, and the"
echo "events lost (4 events a call pair: 2 loops x enter and exit)"
echo
awk -v rates="$rates" '
$1 != "rate" { next }
$3 == "skip" { skip[$2] = $0; if (!($2 in seen_c)) { order[++no] = $2; seen_c[$2] = 1 }; next }
{ if (!($2 in seen_c)) { order[++no] = $2; seen_c[$2] = 1 }
  got[$2, $3] = $5 > 0 ? $4 * 1e9 / $5 : -1; lost[$2, $3] = $7 }
END {
	nr = split(rates, r, " ")
	printf "| %-9s |", "tracer"
	for (i = 1; i <= nr; i++) printf " %17s |", "offered " r[i]
	printf " %18s |\n", "lossless up to"
	printf "|-----------|"
	for (i = 1; i <= nr; i++) printf "-------------------|"
	printf "--------------------|\n"
	for (o = 1; o <= no; o++) {
		c = order[o]
		if (c in skip) { printf "| %-9s | not run: %s |\n", c, substr(skip[c], 6 + length(c) + 6); continue }
		best = 0; broken = 0
		printf "| %-9s |", c
		for (i = 1; i <= nr; i++) {
			if (!((c, r[i]) in got)) { printf " %17s |", "-"; continue }
			l = lost[c, r[i]]
			printf " %9.0f, %5s |", got[c, r[i]], l < 0 ? "?" : l
			if (l == 0 && !broken && got[c, r[i]] > best) best = got[c, r[i]]
			if (l != 0) broken = 1
		}
		printf " %18s |\n", c == "none" || c == "stap" ? "-" : sprintf("%.0f/s a CPU", best)
	}
}' "$dir/res/results"
continue
fi
if [ "$mode" = cyclictest ]; then
echo "cyclictest: cyclictest -m -S -p 95 -i 1000 on both CPUs for ${GUEST_RT_SECONDS:-20} s,"
echo "beside a getppid load of ${GUEST_RT_RATE:-20000} calls a second on each CPU"
echo "(bench-loop -p), untraced and recorded by each tracer; wake-up latency"
echo "of the timer threads in us, the medians of the runs' figures"
echo
awk "$awk_median"'
$1 != "cyclictest" { next }
$3 == "skip" { skip[$2] = $0; order[++no] = $2; next }
{ if (!($2 in n)) order[++no] = $2
  n[$2]++; p99[$2, n[$2]] = $4; mx[$2, n[$2]] = $5; lost[$2, n[$2]] = $7 }
END {
	b99 = med("none", p99); bmx = med("none", mx)
	printf "| %-9s | %10s | %10s | %12s | %12s | %10s |\n",
		"tracer", "p99 us", "max us", "p99 x none", "max x none", "lost (max)"
	printf "|-----------|------------|------------|--------------|--------------|------------|\n"
	for (o = 1; o <= no; o++) {
		c = order[o]
		if (c in skip) { printf "| %-9s | not run: %s |\n", c, substr(skip[c], length("cyclictest") + length(c) + 8); continue }
		m = 0; for (i = 1; i <= n[c]; i++) if (lost[c, i] > m) m = lost[c, i]
		# parenthesised: a bare ">" in printf'"'"'s arguments redirects
		printf "| %-9s | %10d | %10d | %11.2fx | %11.2fx | %10d |\n", c,
			med(c, p99), med(c, mx), (b99 > 0 ? med(c, p99) / b99 : 0),
			(bmx > 0 ? med(c, mx) / bmx : 0), m
	}
}' "$dir/res/results"
continue
fi
case $mode in
syscall) echo "syscall: getppid loop on one CPU, raw_syscalls tracepoints (LKET: addevent.syscall)" ;;
syscall2) echo "syscall2: the getppid loop on both CPUs at once (loop ms: the mean of the two)" ;;
kprobe) echo "kprobe: read(2) loop, kprobe + return probe on __x64_sys_read (LKET: addevent.iosyscall.read)" ;;
wakeup) echo "wakeup: a byte back and forth between two threads on CPUs 0 and 1 (bench-loop -w), 2 wake-ups a round trip; sched_waking, sched_wakeup_new, sched_migrate_task (LKET: addevent.tskdispatch.wakeup, wakeup_new, migrate)" ;;
esac
echo
want=$((2 * loops))
[ "$mode" = syscall2 ] && want=$((4 * loops))
awk -v mode="$mode" -v ev=$((2 * loops)) -v want=$want "$awk_median"'
$1 != mode { next }
$3 == "skip" { skip[$2] = $0; order[++no] = $2; next }
{ if (!($2 in n)) order[++no] = $2
  n[$2]++; ns[$2, n[$2]] = $5; seen[$2, n[$2]] = $6; lost[$2, n[$2]] = $7
  # the other CPUs time, where a loop ran alone and every run could tell
  if (NF < 8 || $8 < 0) no_oth[$2] = 1; oth[$2, n[$2]] = $8 }
END {
	base = med("none", ns)
	printf "| %-9s | %12s | %10s | %14s | %11s | %11s | %11s | %12s | %10s | %14s |\n",
		"tracer", "loop ms", "x untraced", "+ns per event", "x LKET cost",
		"x ftrace", "x LTTng", "events seen", "lost (max)", "elsewhere ns"
	printf "|-----------|--------------|------------|----------------|-------------|-------------|-------------|--------------|------------|----------------|\n"
	lk = ("lket" in n) ? (med("lket", ns) - base) / ev : 0
	ft = ("ftrace" in n) ? (med("ftrace", ns) - base) / ev : 0
	lt = ("lttng" in n) ? (med("lttng", ns) - base) / ev : 0
	for (o = 1; o <= no; o++) {
		c = order[o]
		if (c in skip) { printf "| %-9s | not run: %s |\n", c, substr(skip[c], length(mode) + length(c) + 8); continue }
		m = med(c, ns); extra = (m - base) / ev
		mx = 0; for (i = 1; i <= n[c]; i++) if (lost[c, i] > mx) mx = lost[c, i]
		printf "| %-9s | %12.1f | %9.2fx | %14.0f | %11s | %11s | %11s | %12s | %10d | %14s |\n",
			c, m / 1e6, m / base, extra,
			c == "none" ? "-" : (lk > 0 ? sprintf("%.2fx", extra / lk) : "n/a"),
			c == "none" ? "-" : (ft > 0 ? sprintf("%.2fx", extra / ft) : "n/a"),
			c == "none" ? "-" : (lt > 0 ? sprintf("%.2fx", extra / lt) : "n/a"),
			c == "none" ? "-" : (med(c, seen) < 0 ? "n/a" : sprintf("%d/%d", med(c, seen), want)), mx,
			mode == "syscall2" || (c in no_oth) ? "-" : sprintf("%.0f", med(c, oth) / ev)
	}
}' "$dir/res/results"
done
echo
echo "loop ms: the loop alone (CLOCK_MONOTONIC in bench-loop), median.  +ns per"
echo "event: (traced - untraced) / events of a loop, under emulation: compare,"
echo "do not quote.  x LKET cost, x ftrace, x LTTng: the tracer's extra time"
echo "over LKET's, ftrace's, LTTng's.  events seen: what the tracer recorded of the"
echo "loop's events (perf: every sample; stap records nothing).  elsewhere ns:"
echo "what the CPUs the loop did not run on ran meanwhile, per event (untraced:"
echo "the guest's own background), where the loop ran alone: the tracer's"
echo "consumer and the writeback it causes, work two busy CPUs pay for."
echo "raw runs: $dir/res/results; guest log: $dir/res/guest.log"
}

mkdir -p "$bench"
: > "$bench/guest-failed"
for rel in $kernels; do
	rm -f "$bench/guest-$rel.txt"
	( bench_kernel "$rel" ) || echo "$rel" >> "$bench/guest-failed"
	[ ! -f "$bench/guest-$rel.txt" ] || cat "$bench/guest-$rel.txt"
	echo
done | tee "$bench/guest.txt"
[ ! -s "$bench/guest-failed" ] || { note "failed: $(cat "$bench/guest-failed")"; exit 1; }
