#!/bin/sh
# The longest stretch with interrupts off while an LKET module starts, on
# the PREEMPT_RT guest kernel: its begin probes (the trace header and
# metadata, the module records with their build IDs, the kallsyms look-ups,
# the process snapshot) run with interrupts off, and on PREEMPT_RT nothing
# else may hold a CPU that long.  Debian's RT kernel has no irqsoff tracer;
# its timerlat tracer (tracefs) measures how late each CPU's timer
# interrupt ran, every TIMERLAT_US, which an irqs-off stretch delays by
# up to its length.  One boot, each phase RUNS times:
#   idle     sleep 3: the guest's own noise
#   start    lket-run-traced of `probe addevent.syscall.entry {}` around
#            true(1): the module's start and end, the system's own tasks
#   tasks    the same with THREADS more waiting threads (the snapshot
#            walks them all; LKET_SNAPSHOT_MAX records, 65536)
# and prints, per phase, the largest timer IRQ latency and thread latency
# (µs) of each run, and, from the module's own timing (-DSTP_TIMING: each
# probe handler's cycles; a begin probe's handler is one stretch with
# interrupts off), the longest begin handler of each run, in µs at the
# guest's TSC rate.  The guest runs under software emulation (TCG) unless
# KVM works: the absolute times are inflated, and timerlat's IRQ latency
# there includes the host's descheduling of the guest's CPUs (the idle
# phase shows how much); compare the phases.
#
#   bench/rt-start.sh BUILD      RUNS=3 THREADS=30000 TIMERLAT_US=1000
set -eu
build=$(mkdir -p "${1:?usage: rt-start.sh BUILD}" && cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
rel=${LKET_KERNEL_RELEASE:-6.1.0-57-rt-amd64}
runs=${RUNS:-3}
threads=${THREADS:-30000}
period=${TIMERLAT_US:-1000}
work=$build/bench/rt-start
res=$work/results
rm -rf "$work" && mkdir -p "$work" "$res"
export LKET_KERNEL_RELEASE=$rel LKET_BUILDDIR=$build
SYSTEMTAP_DIR=$build/stap-cache
export SYSTEMTAP_DIR

gcc -O1 -Wall -Wextra -Werror -pthread -o "$work/threads" \
	"$top/tests/guest/workloads/threads.c"
make -s -C "$top" BUILD="$build" tapset/lket_catalogue.stp tapset/lket_aliases.stp
(cd "$work" && "$top/tools/lket-stap" -DSTP_TIMING -p4 -m lket_rtstart \
	-e 'probe addevent.syscall.entry {}' > /dev/null)

cat > "$work/guest.sh" <<EOS
set -u
cd "$work"
t=/sys/kernel/tracing
[ -d \$t/osnoise ] || mount -t tracefs nodev \$t
echo $period > \$t/osnoise/timerlat_period_us
# measure NAME COMMAND...: timerlat around COMMAND, its trace to NAME
measure() {
	name=\$1; shift
	echo nop > \$t/current_tracer
	echo > \$t/trace
	echo timerlat > \$t/current_tracer
	echo 1 > \$t/tracing_on
	"\$@" > /dev/null 2>&1
	echo 0 > \$t/tracing_on
	cat \$t/trace > "$res/\$name.trace"
	echo nop > \$t/current_tracer
}
grep -m1 "cpu MHz" /proc/cpuinfo > "$res/mhz"
traced() {
	"$top/tools/lket-run-traced" -o "$work/t" lket_rtstart.ko -- true
	# STP_TIMING prints its table into the trace, as text
	cat "$work"/t_* | tr -c '[:print:]' '\n' | grep "cycles:" > "$res/timing-\$name"
	rm -f "$work"/t_*
}
for r in \$(seq $runs); do
	measure idle-\$r sleep 3
	measure start-\$r traced
done
sysctl -qw kernel.threads-max=1000000 kernel.pid_max=4194304 vm.max_map_count=1000000
mkfifo /run/lket-rt-gate
"$work/threads" $threads < /run/lket-rt-gate > "$res/threads.out" 2>&1 &
exec 9> /run/lket-rt-gate
n=0
until grep -q READY "$res/threads.out" 2>/dev/null || [ \$n -ge 600 ]; do
	sleep 1; n=\$((n + 1))
done
for r in \$(seq $runs); do
	measure tasks-\$r traced
done
exec 9>&-
wait
exit 0
EOS
LKET_VM_CPU=${LKET_VM_CPU:-max} "$top/tests/vm/lket-vm" run --timeout 1800 --results "$res" --tcg-threads multi \
	--script "$work/guest.sh" > "$work/guest.out" 2>&1 ||
	{ cat "$work/guest.out"; echo "rt-start: the guest failed" >&2; exit 1; }

echo "rt-start: $rel, timerlat every $period us, $threads threads in 'tasks'"
printf '%-8s %4s %12s %12s   %s\n' phase run irq_max_us thread_max_us "longest begin handler"
for f in "$res"/idle-*.trace "$res"/start-*.trace "$res"/tasks-*.trace; do
	[ -f "$f" ] || continue
	n=${f##*/}; n=${n%.trace}
	awk -v phase="${n%-*}" -v run="${n##*-}" '
	/context +irq +timer_latency/ { for (i = 1; i < NF; i++) if ($i == "timer_latency" && $(i + 1) > irq) irq = $(i + 1) }
	/context +thread +timer_latency/ { for (i = 1; i < NF; i++) if ($i == "timer_latency" && $(i + 1) > th) th = $(i + 1) }
	END { printf "%-8s %4s %12.1f %12.1f", phase, run, irq / 1000, th / 1000 }' "$f"
	# STP_TIMING: "begin(...), (FILE:LINE:COL), hits: 1, cycles: AminBavgCmax, ..."
	e=$res/timing-$n
	if [ -f "$e" ]; then
		awk -v mhz="$(sed 's/.*: *//' "$res/mhz")" '
		/^begin\(/ && match($0, /cycles: [0-9]+min\/[0-9]+avg\/[0-9]+max/) {
			c = substr($0, RSTART, RLENGTH); sub(/.*avg\//, "", c); sub(/max/, "", c)
			if (c + 0 > m) { m = c + 0; pp = $0; sub(/, from:.*/, "", pp) }
		}
		END { if (m) printf "   %10.1f  %s", m / mhz, pp }' "$e"
	fi
	echo
done
