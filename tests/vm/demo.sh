#!/bin/sh
# make demo: trace a real workload on Debian's 6.1 kernel in the qemu
# guest with LKET, convert the trace with lket-b2a, show lket.out, draw
# its timechart (timechart.svg, and timechart.png as chromium renders it,
# when chromium is there), and write it as a Perfetto trace
# (trace.pftrace).
#
#   tests/vm/demo.sh BUILD
#
# The script traced is the one lket(5) starts with:
#   probe addevent.syscall, addevent.process, addevent.tskdispatch {}
# and the workload a short shell pipeline that forks, execs, reads files
# and sleeps.  Results: BUILD/demo/trace_<cpu>, BUILD/demo/lket.out,
# BUILD/demo/timechart.svg, BUILD/demo/timechart.png and
# BUILD/demo/trace.pftrace.
set -eu

build=$(cd "${1:?usage: demo.sh BUILD}" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$build/demo
fail() { echo "demo: $*" >&2; exit 1; }

[ "${LKET_SKIP_GUEST:-}" != 1 ] ||
	fail "LKET_SKIP_GUEST=1: the demo needs the guest, nothing to show"
rm -rf "$out"
mkdir -p "$out"

echo "demo: building the LKET module for the guest kernel (lket-stap -p4)"
# STP_NO_OVERLOAD: under emulation (TCG), on a busy host, probes cost
# many times what they do on hardware, and SystemTap's overload check
# would end the run (as in bench/guest.sh)
(cd "$out" && "$top/tools/lket-stap" -p4 -m lket_demo -DSTP_NO_OVERLOAD \
	-e 'probe addevent.syscall, addevent.process, addevent.tskdispatch {}' \
	> /dev/null) || fail "stap could not build the module"

cat > "$out/job.sh" <<'JOB'
set -e
cd "$LKET_VM_RESULTS"
# the workload: a few processes that do real work
cat > workload.sh <<'W'
ls -l /usr/bin > /dev/null
cat /etc/os-release | grep -c ID > /dev/null
sleep 0.2
W
# The trace goes to the guest's memory first: the 9p share the results
# come back through is too slow a disk for the bulk readers to keep up.
mkdir -p /run/lket
"$LKET_TOP/tools/lket-run-traced" -o /run/lket/trace lket_demo.ko -- sh workload.sh
cp /run/lket/trace_* .
JOB

echo "demo: booting Debian's 6.1 kernel in qemu and tracing the workload"
"$top/tests/vm/lket-vm" run --timeout "${LKET_VM_TIMEOUT:-300}" \
	--results "$out" --env "LKET_TOP=$top" -- sh "$out/job.sh" ||
	fail "the traced run failed in the guest (console: $out/console.log)"

status=0
"$build/lket-b2a" -o "$out/lket.out" --timechart "$out/timechart.svg" \
	--perfetto "$out/trace.pftrace" "$out/trace" || status=$?
[ "$status" -le 1 ] || fail "lket-b2a could not convert $out/trace_*"
[ -s "$out/lket.out" ] || fail "the trace came back empty"

echo
echo "demo: $out/lket.out ($(wc -l < "$out/lket.out") events); the first lines:"
head -15 "$out/lket.out"
echo
echo "demo: events per type:"
awk '{ n[$6]++ } END { for (e in n) printf "  %8d  %s\n", n[e], e }' \
	"$out/lket.out" | sort -rn
echo
echo "demo: the workload's own events:"
grep -E ' (sh|ls|cat|grep|sleep) ' "$out/lket.out" | grep -v 'tskdispatch' | head -10
echo
echo "demo: the timechart of the trace: $out/timechart.svg (open it in a browser; hover over a box for details)"
if command -v chromium > /dev/null; then
	size=$(sed -n 's/^<svg [^>]* width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' \
		"$out/timechart.svg")
	timeout 60 chromium --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --force-device-scale-factor=1 \
		--user-data-dir="$out/.chromium" --window-size="$size" \
		--screenshot="$out/timechart.png" "file://$out/timechart.svg" \
		> "$out/chromium.log" 2>&1 &&
		echo "demo: as chromium renders it: $out/timechart.png"
fi
echo "demo: the same trace for Perfetto: $out/trace.pftrace ($(wc -c < "$out/trace.pftrace") bytes): open https://ui.perfetto.dev in a browser and drop the file on it (Open trace file), or query it: trace_processor_shell query $out/trace.pftrace 'select * from sched limit 10'"
[ "$status" = 0 ] || echo "demo: lket-b2a reported damage or lost records (above)"
