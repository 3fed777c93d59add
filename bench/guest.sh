#!/bin/sh
# make bench, part 3: what tracing costs the traced system.  In one boot of
# the qemu guest (tests/vm/lket-vm, Debian's 6.1 kernel), `bench-loop L`
# (L getppid calls, 2 L raw_syscalls events) runs untraced and under each
# tracer, alternating, RUNS times:
#   none      untraced
#   lket      staprun of `lket-stap -e 'probe addevent.syscall {}'`, built
#             here for the guest kernel (tools/lket-stap, tools/lket-buildenv)
#   stap      SystemTap's floor: the same two raw_syscalls tracepoints, the
#             same options and runtime, handlers that write nothing (-u
#             keeps them): what any SystemTap tracer pays before its first
#             byte, so LKET's own share is lket minus stap
#   ftrace    trace-cmd record -e raw_syscalls -F
#   perf      perf record -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit
#   bpftrace  raw_syscalls tracepoints, printf of the fields LKET writes
# and reports, per tracer, the median extra ns per event over the untraced
# loop, the ratio to the untraced loop and the events lost.  The guest runs
# under software emulation (TCG) unless KVM works: only ratios mean
# anything, never the absolute times.
#
#   bench/guest.sh BUILD    GUEST_LOOPS=50000 GUEST_RUNS=3 BENCH_DIR=...
#
# LTTng: lttng-modules-dkms 2.13.9 of Debian 12 does not build against
# 6.1.0-57 (conflicting types for trace_hrtimer_start), so it is not here.
# LKET_SKIP_GUEST=1 skips this part (exit 77).
set -eu
build=$(cd "${1:?usage: guest.sh BUILD}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
dir=${BENCH_DIR:-$build/bench}/guest
loops=${GUEST_LOOPS:-50000}
runs=${GUEST_RUNS:-3}
note() { echo "guest-bench: $*" >&2; }

if [ "${LKET_SKIP_GUEST:-}" = 1 ]; then
	note "skipped (LKET_SKIP_GUEST=1)"
	exit 77
fi
"$top/tools/install-deps" bench || { note "the peers could not be installed"; exit 1; }

rm -rf "$dir/res"
mkdir -p "$dir/res"
dir=$(cd "$dir" && pwd)

# ---- LKET's module, built on the host for the guest kernel
ko=
why="tools/lket-stap is missing"
if [ -x "$top/tools/lket-stap" ]; then
	note "building the addevent.syscall module for the guest kernel"
	rm -f "$dir/lket_bench.ko"
	# STP_NO_OVERLOAD: under emulation every probe costs ten times or
	# more what it does on hardware, and SystemTap's overload guard
	# (probe time over half of a second of CPU) stops the module in the
	# middle of the loop; the other tracers have no such guard either.
	if (cd "$dir" && "$top/tools/lket-stap" -p4 -m lket_bench \
		-DSTP_NO_OVERLOAD -e 'probe addevent.syscall {}' \
		> "$dir/stap.log" 2>&1); then
		ko=$dir/lket_bench.ko
	else
		why="lket-stap could not build it: $(grep -m 1 -i error "$dir/stap.log" | tr -s ' ' | cut -c 1-120)"
		note "lket-stap could not build the module (see $dir/stap.log)"
	fi
else
	note "tools/lket-stap is missing: no LKET in this run"
fi
floor_ko=
floor_why=$why
if [ -n "$ko" ]; then
	if (cd "$dir" && "$top/tools/lket-stap" -p4 -u -m stap_floor -DSTP_NO_OVERLOAD \
		-e 'probe kernel.trace("raw_syscalls:sys_enter"), kernel.trace("raw_syscalls:sys_exit") {}' \
		> "$dir/stap-floor.log" 2>&1); then
		floor_ko=$dir/stap_floor.ko
	else
		floor_why="the empty module did not build (see $dir/stap-floor.log)"
	fi
fi

t0=$(date +%s)
"$top/tests/vm/lket-vm" run --results "$dir/res" \
	--timeout "${GUEST_TIMEOUT:-1500}" \
	--env RES="$dir/res" --env LOOP="${BENCH_LOOP:-$build/bench-loop}" \
	--env LOOPS="$loops" --env RUNS="$runs" --env LKET_KO="$ko" --env LKET_WHY="$why" \
	--env STAP_KO="$floor_ko" --env STAP_WHY="$floor_why" \
	--env B2A="$build/lket-b2a" --env RUN_TRACED="$top/tools/lket-run-traced" \
	--script "$here/guest-job.sh" || note "the guest job exited $?"
t1=$(date +%s)
[ -s "$dir/res/results" ] || { note "no results came back"; exit 1; }
accel=$(cat "$build/vm/accel-${LKET_KERNEL_RELEASE:-6.1.0-57-amd64}" 2>/dev/null || echo "?")

{
echo "tracing cost in the guest: bench-loop $loops (getppid), $((2 * loops)) events a run, medians of $runs alternating runs"
echo "guest: $(cat "$dir/res/guest-info" 2>/dev/null), accelerator $accel; host $(nproc) x $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1); $(date -u '+%Y-%m-%d %H:%M UTC'); one boot, $((t1 - t0)) s"
echo
awk -v ev=$((2 * loops)) '
$2 == "skip" { skip[$1] = $0; order[++no] = $1; next }
{ if (!($1 in n)) order[++no] = $1
  n[$1]++; ns[$1, n[$1]] = $4; seen[$1, n[$1]] = $5; lost[$1, n[$1]] = $6 }
function med(c, arr,    i, j, k, v, t) {
	k = n[c]
	for (i = 1; i <= k; i++) v[i] = arr[c, i]
	for (i = 2; i <= k; i++) for (j = i; j > 1 && v[j] < v[j - 1]; j--) {
		t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}
END {
	base = med("none", ns)
	printf "| %-9s | %12s | %10s | %14s | %11s | %12s | %10s |\n",
		"tracer", "loop ms", "x untraced", "+ns per event", "x LKET cost",
		"events seen", "lost (max)"
	printf "|-----------|--------------|------------|----------------|------------|--------------|------------|\n"
	lk = ("lket" in n) ? (med("lket", ns) - base) / ev : 0
	for (o = 1; o <= no; o++) {
		c = order[o]
		if (c in skip) { printf "| %-9s | not run: %s |\n", c, substr(skip[c], length(c) + 7); continue }
		m = med(c, ns); extra = (m - base) / ev
		mx = 0; for (i = 1; i <= n[c]; i++) if (lost[c, i] > mx) mx = lost[c, i]
		printf "| %-9s | %12.1f | %9.2fx | %14.0f | %11s | %12s | %10d |\n",
			c, m / 1e6, m / base, extra,
			c == "none" ? "-" : (lk > 0 ? sprintf("%.2fx", extra / lk) : "n/a"),
			c == "none" ? "-" : (med(c, seen) < 0 ? "n/a" : med(c, seen)), mx
	}
}' "$dir/res/results"
echo
echo "loop ms: the loop alone (CLOCK_MONOTONIC in bench-loop), median.  +ns per"
echo "event: (traced - untraced) / events, under emulation: compare, do not quote."
echo "x LKET cost: the tracer's extra time over LKET's.  events seen: what the"
echo "tracer recorded of the loop's $((2 * loops)) (perf: every sample; stap"
echo "records nothing)."
echo "raw runs: $dir/res/results; guest log: $dir/res/guest.log"
} | tee "$dir/../guest.txt"
