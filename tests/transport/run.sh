#!/bin/sh
# Transport stress test: SystemTap's bulk (relay) transport as LKET uses
# it, with the runtime copy from tools/lket-buildenv, in the qemu guest.
#
#  1. host: build txcheck and the workload lkettx-work (build/transport/),
#     and the module txstress.stp: 6000 flushes from its begin probe, one
#     per getppid() of lkettx-work, a trailer from its end probe; flush
#     sizes 24..608 bytes, so flushes end at every offset of the 4 KiB
#     sub-buffers, including the last 1-8 bytes (issue (a));
#  2. guest, one boot, three runs, each with a workload that makes 3000
#     getppid() calls and exits at once (issue (b), the lost tail):
#       sigint   staprun in the background, workload, then kill -INT
#       traced   tools/lket-run-traced -o ... MODULE -- lkettx-work 3000
#       unpinned staprun in the background, records written in place
#                by a slow writer (inplace=1, kind 4); stapio's threads
#                moved to CPU 0 while the work runs on CPU 1, then CPU 1 taken
#                offline and back (3 x 10000 calls), then kill -INT: a
#                reader must switch its buffer on the buffer's own CPU
#                whatever CPU it runs on (runtime patch 80)
#     (Plain "staprun -c" is not one of them: stapio 4.8 stops its
#     readers by itself when the command exits, and the tail is lost
#     whatever the module does; lket-run-traced is the way to run one.)
#  3. host: txcheck each run: every frame parses, no sequence gap, all
#     records there (begin, work, trailer); and staprun printed no
#     "transport failures" / "not read" warning.
#
# Prints "transport: N passed, M failed".  Exit 0 = pass, 1 = fail,
# 77 = skipped (LKET_SKIP_GUEST=1).  LKET_TX_RUNTIME=DIR builds against
# another runtime copy (e.g. an unpatched one, to see the failures).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
builddir=${LKET_BUILDDIR:-$top/build}
work=$builddir/transport
res=$work/results
nbegin=6000
nwork=3000
# the unpinned run: each of its three workloads
nunpinned=10000

fail() { echo "transport: FAIL: $*" >&2; echo "transport: 0 passed, 1 failed"; exit 1; }

if [ "${LKET_SKIP_GUEST:-}" = 1 ]; then
	echo "transport: SKIP (LKET_SKIP_GUEST=1)"
	exit 77
fi

mkdir -p "$work"
rm -rf "$res"
mkdir -p "$res"

# ---- 1. host: build
cc=${CC:-cc}
$cc -O2 -Wall -std=gnu99 -o "$work/txcheck" "$here/txcheck.c" || fail "cannot build txcheck"
$cc -O2 -Wall -o "$work/lkettx-work" "$here/txwork.c" || fail "cannot build lkettx-work"
stapopts=$("$top/tools/lket-buildenv" ${LKET_KERNEL_RELEASE:+--release "$LKET_KERNEL_RELEASE"} \
	${LKET_BUILDDIR:+--builddir "$LKET_BUILDDIR"}) || fail "lket-buildenv failed"
# A kernel of another Debian suite is built by that suite's stap, in its
# build root (runtime/targets, tools/lket-buildenv).
stap=stap
root=$("$top/tools/lket-buildenv" ${LKET_KERNEL_RELEASE:+--release "$LKET_KERNEL_RELEASE"} \
	${LKET_BUILDDIR:+--builddir "$LKET_BUILDDIR"} --print-root) || fail "lket-buildenv failed"
[ -z "$root" ] || stap="$top/tools/lket-buildenv ${LKET_KERNEL_RELEASE:+--release $LKET_KERNEL_RELEASE} --builddir $builddir --exec stap"
if [ -n "${LKET_TX_RUNTIME:-}" ]; then
	stapopts="${stapopts% -R *} -R $LKET_TX_RUNTIME"
fi
SYSTEMTAP_DIR=$builddir/stap-cache
export SYSTEMTAP_DIR
# -g: the module writes its records straight into the print buffer.
# STP_NO_OVERLOAD: the unpinned run's writer is slow on purpose.
# shellcheck disable=SC2086
(cd "$work" && $stap $stapopts -g -b -DSTP_NO_OVERLOAD -p4 -m lkettx "$here/txstress.stp" >/dev/null) ||
	fail "stap could not build lkettx.ko"

# ---- 2. guest
cat >"$work/guest.sh" <<'EOS'
# runs in the guest; W (workdir), RES, TOP, NWORK, NUNPINNED from --env
set -u
cd "$W"
t() { cut -d' ' -f1 /proc/uptime; }
save() { cp /run/tx/"$1"_* "$RES"/ 2>/dev/null; rm -f /run/tx/"$1"_*; }
# staprun NAME in the background, until its files are there
start() {
	staprun -o /run/tx/"$1" lkettx.ko ${2:-} 2>"$RES/$1.err" &
	sp=$!
	i=0
	while ! ls /run/tx/"$1"_* >/dev/null 2>&1 && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 1
}
mkdir -p /run/tx
# Output goes to the guest's tmpfs first: over 9p every write(2) costs
# milliseconds under TCG.
a=$(t)
start sigint
"$W/lkettx-work" "$NWORK"
kill -INT $sp
wait $sp
echo "sigint rc=$? $a $(t)"
save sigint

# lket-run-traced's files are private whatever the umask, in a folder it
# makes 0700; an old file it writes over is made private first
a=$(t)
mkdir -p /run/tx/old && echo old >/run/tx/old/traced_1 && chmod 644 /run/tx/old/traced_1
(umask 022 && "$TOP/tools/lket-run-traced" -o /run/tx/new/traced lkettx.ko -- "$W/lkettx-work" "$NWORK" 2>"$RES/traced.err")
echo "traced rc=$? $a $(t)"
(umask 022 && "$TOP/tools/lket-run-traced" -o /run/tx/old/traced lkettx.ko -- true 2>"$RES/traced-old.err")
echo "traced modes: $(stat -c '%a %n' /run/tx/new /run/tx/new/traced_* /run/tx/old/traced_* | tr '\n' ' ')"
mv /run/tx/new/traced_* /run/tx/
save traced
# stapio pins each reader to its CPU; a taskset (or a cpuset) moves them
# all to CPU 0, so CPU 1's reader switches CPU 1's buffer from CPU 0
# while CPU 1 writes.  Taking CPU 1 offline unpins its reader too.
a=$(t)
cpu1=/sys/devices/system/cpu/cpu1/online
start unpinned inplace=1
taskset -a -p -c 0 $sp >/dev/null || echo "unpinned: taskset failed"
taskset -c 1 "$W/lkettx-work" "$NUNPINNED"
echo 0 >$cpu1 || echo "unpinned: cpu 1 did not go offline"
"$W/lkettx-work" "$NUNPINNED"
echo 1 >$cpu1 || echo "unpinned: cpu 1 did not come back"
taskset -a -p -c 0 $sp >/dev/null || echo "unpinned: taskset failed"
taskset -c 1 "$W/lkettx-work" "$NUNPINNED"
kill -INT $sp
wait $sp
echo "unpinned rc=$? $a $(t)"
save unpinned

lsmod | grep -q lkettx && echo "module still loaded"
exit 0
EOS
rc=0
"$top/tests/vm/lket-vm" run --timeout "${LKET_VM_TIMEOUT:-240}" --results "$res" \
	--env "W=$work" --env "RES=$res" --env "TOP=$top" --env "NWORK=$nwork" --env "NUNPINNED=$nunpinned" \
	--script "$work/guest.sh" >"$work/guest.out" || rc=$?
cat "$work/guest.out"
[ $rc = 0 ] || fail "guest job failed (status $rc)"
grep -q "module still loaded" "$work/guest.out" && fail "module still loaded after the runs"
grep "^unpinned: " "$work/guest.out" && fail "the unpinned run could not move its readers or CPU 1"
modes=$(sed -n 's/^traced modes: //p' "$work/guest.out")
[ -n "$modes" ] || fail "lket-run-traced: no modes"
# shellcheck disable=SC2086 # mode, path, mode, path...
set -- $modes
while [ $# -ge 2 ]; do
	case "$1 $2" in
	"700 /run/tx/new"|"600 /run/tx/"*/traced_[0-9]*) ;;
	*) fail "lket-run-traced: not private: mode $1 of $2" ;;
	esac
	shift 2
done

# ---- 3. host: check
pass=0 failed=0
for run in sigint traced unpinned; do
	why=
	n=$nwork
	[ $run = unpinned ] && n=$((3 * nunpinned))
	line=$(sed -n "s/^$run rc=//p" "$work/guest.out")
	[ -n "$line" ] || why="did not run"
	[ "${line%% *}" = 0 ] || why="${why:+$why; }staprun exit status ${line%% *}"
	if grep -q "transport failures" "$res/$run.err" 2>/dev/null; then
		why="${why:+$why; }$(grep -m1 "transport failures" "$res/$run.err")"
	fi
	if grep -q "not read" "$res/$run.err" 2>/dev/null; then
		why="${why:+$why; }$(grep -m1 "not read" "$res/$run.err")"
	fi
	if ls "$res/$run"_* >/dev/null 2>&1; then
		summary=$("$work/txcheck" "$nbegin" "$n" "$res/$run"_* 2>"$res/$run.check") ||
			why="${why:+$why; }trace incomplete or corrupt"
	else
		summary="no output files"
		why="${why:+$why; }no output files"
	fi
	# shellcheck disable=SC2046 # start and end uptime
	set -- $line
	secs=$( [ $# -ge 3 ] && awk "BEGIN { printf \"%.1f\", $3 - $2 }" || echo "?")
	if [ -z "$why" ]; then
		pass=$((pass + 1))
		echo "transport: PASS $run ($secs s): $summary"
	else
		failed=$((failed + 1))
		echo "transport: FAIL $run ($secs s): $why"
		echo "transport:   $summary"
		head -n 5 "$res/$run.check" | sed 's/^/transport:   /'
		head -n 3 "$res/$run.err" | sed 's/^/transport:   staprun: /'
	fi
done
echo "transport: $pass passed, $failed failed"
[ $failed = 0 ]
