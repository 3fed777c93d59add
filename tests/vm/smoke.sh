#!/bin/sh
# Smoke test of the guest test machinery (tests/vm/lket-vm) and of the
# cross-build environment (tools/lket-buildenv):
#
#  1. on the host, build two tiny bulk-mode (-b) stap modules for the
#     guest kernel, with the stap cache in build/stap-cache;
#  2. in one guest boot, run them with staprun:
#       staprun -o RES/trace lket_smoke.ko              (begin probe)
#       staprun -o RES/ctrace -c /bin/true lket_smoke_c.ko  (target process)
#  3. on the host, check the per-CPU files RES/trace_<cpu> hold exactly the
#     framed records: {u32 sequence; u32 pdu_len} then the payload.
#
# Prints timings.  Exit 0 = pass, 1 = fail, 77 = skipped (LKET_SKIP_GUEST=1).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
builddir=${LKET_BUILDDIR:-$top/build}
work=$builddir/smoke
res=$work/results

fail() { echo "smoke: FAIL: $*" >&2; exit 1; }
now() { date +%s.%N; }
dt() { awk "BEGIN { printf \"%.1f\", $2 - $1 }"; }

if [ "${LKET_SKIP_GUEST:-}" = 1 ]; then
	echo "smoke: SKIP (LKET_SKIP_GUEST=1)"
	exit 77
fi

mkdir -p "$work"
rm -rf "$res"
mkdir -p "$res"

stapopts=$("$top/tools/lket-buildenv" ${LKET_KERNEL_RELEASE:+--release "$LKET_KERNEL_RELEASE"} \
	${LKET_BUILDDIR:+--builddir "$LKET_BUILDDIR"})
# A kernel of another Debian suite is built by that suite's stap, in its
# build root (runtime/targets, tools/lket-buildenv).
stap=stap
root=$("$top/tools/lket-buildenv" ${LKET_KERNEL_RELEASE:+--release "$LKET_KERNEL_RELEASE"} \
	${LKET_BUILDDIR:+--builddir "$LKET_BUILDDIR"} --print-root)
[ -z "$root" ] || stap="$top/tools/lket-buildenv ${LKET_KERNEL_RELEASE:+--release $LKET_KERNEL_RELEASE} --builddir $builddir --exec stap"
# Keep stap's cache (compiled modules, kernel autoconf results) in the
# build folder: a warm cache saves about a minute per module.
SYSTEMTAP_DIR=$builddir/stap-cache
export SYSTEMTAP_DIR

# ---- 1. host: compile
t0=$(now)
# The begin probe writes one binary record: %4b = 4-byte 42, %0s = the
# string with its NUL.  timer.s(1) ends the run on its own.
# shellcheck disable=SC2086
(cd "$work" && $stap $stapopts -b -p4 -m lket_smoke \
	-e 'probe begin { printf("%4b%0s", 42, "hello") } probe timer.s(1) { exit() }' >/dev/null) ||
	fail "stap could not build lket_smoke.ko"
# With -c, staprun starts the command, hands its pid to the module as
# target(), and ends when the command exits.
# shellcheck disable=SC2086
(cd "$work" && $stap $stapopts -b -p4 -m lket_smoke_c \
	-e 'probe begin { printf("%4b%0s", target(), "true") }' >/dev/null) ||
	fail "stap could not build lket_smoke_c.ko"
t1=$(now)
echo "smoke: host compile of 2 modules: $(dt "$t0" "$t1") s"

# ---- 2. guest: run
cat >"$work/guest.sh" <<'EOF'
# runs in the guest (lket-vm run --script); SMOKE_DIR and RES from --env
set -u
cd "$SMOKE_DIR"
t() { cut -d' ' -f1 /proc/uptime; }
echo "uptime_at_job $(t)"
a=$(t)
staprun -o "$RES/trace" lket_smoke.ko || { echo "staprun lket_smoke: rc=$?"; exit 1; }
b=$(t)
staprun -o "$RES/ctrace" -c /bin/true lket_smoke_c.ko || { echo "staprun -c: rc=$?"; exit 1; }
c=$(t)
echo "staprun_plain $a $b"
echo "staprun_c $b $c"
lsmod | grep -q lket_smoke && { echo "module still loaded"; exit 1; }
exit 0
EOF
t2=$(now)
rc=0
"$here/lket-vm" run --timeout "${LKET_VM_TIMEOUT:-180}" --results "$res" \
	--env "SMOKE_DIR=$work" --env "RES=$res" --script "$work/guest.sh" \
	>"$work/guest.out" || rc=$?
t3=$(now)
cat "$work/guest.out"
[ $rc = 0 ] || fail "guest job failed (status $rc)"

# ---- 3. host: check the framed bulk output
# check PREFIX EXPECTED_PAYLOAD_HEX: exactly one per-CPU file non-empty,
# holding one frame {seq, len} + payload; from SystemTap 5.0 the frame
# header starts with a magic number, F0 9F A9 BA: {magic, seq, len}.
check() {
	prefix=$1 payload=$2
	ls "$res/$prefix"_* >/dev/null 2>&1 || fail "no $res/${prefix}_<cpu> files came back"
	nonempty=0
	for f in "$res/$prefix"_*; do
		case ${f##*_} in *[!0-9]*) fail "unexpected file $f" ;; esac
		[ -s "$f" ] || continue
		nonempty=$((nonempty + 1))
		hl=$(hdrlen "$f")
		# od: u32 words, then the whole file as hex bytes.
		# shellcheck disable=SC2046 # two numbers
		set -- $(od -An -t u4 -j $((hl - 8)) -N 8 "$f")
		seq=$1 len=$2
		hex=$(od -An -v -t x1 -j "$hl" "$f" | tr -d ' \n')
		size=$(wc -c <"$f")
		echo "smoke: ${f##*/}: seq=$seq len=$len payload=$hex"
		[ "$len" = $((${#payload} / 2)) ] || fail "${f##*/}: pdu_len $len, want $((${#payload} / 2))"
		[ "$size" = $((hl + len)) ] || fail "${f##*/}: $size bytes, want one frame of $((hl + len))"
		[ "$hex" = "$payload" ] || fail "${f##*/}: payload $hex, want $payload"
	done
	[ $nonempty = 1 ] || fail "$nonempty non-empty ${prefix}_<cpu> files, want 1"
}
# hdrlen FILE: the frame header's length, 12 with the magic, else 8
hdrlen() {
	if [ "$(od -An -t x1 -N 4 "$1" | tr -d ' \n')" = f09fa9ba ]; then
		echo 12
	else
		echo 8
	fi
}
# 42 as little-endian u32, then "hello\0"
check trace 2a00000068656c6c6f00
# target() is the pid of /bin/true: any non-zero value; fetch it, rebuild
# the expected payload from it.
cf=$(for f in "$res"/ctrace_*; do [ -s "$f" ] && echo "$f"; done | head -n1)
[ -n "$cf" ] || fail "no data in ctrace_<cpu>"
chl=$(hdrlen "$cf")
pid=$(od -An -t u4 -j "$chl" -N 4 "$cf" | tr -d ' ')
[ "$pid" -gt 1 ] || fail "target() = $pid"
pidhex=$(od -An -t x1 -j "$chl" -N 4 "$cf" | tr -d ' \n')
check ctrace "${pidhex}7472756500"

# ---- timings
job=$(sed -n 's/^uptime_at_job //p' "$work/guest.out")
# shellcheck disable=SC2046 # two numbers
set -- $(sed -n 's/^staprun_plain //p' "$work/guest.out")
plain=$(dt "$1" "$2")
# shellcheck disable=SC2046
set -- $(sed -n 's/^staprun_c //p' "$work/guest.out")
withc=$(dt "$1" "$2")
echo "smoke: guest boot to job: ${job} s (guest uptime)"
echo "smoke: staprun lket_smoke (incl. its 1 s timer): ${plain} s; staprun -c /bin/true: ${withc} s"
echo "smoke: guest round trip (qemu start to exit): $(dt "$t2" "$t3") s"
echo "smoke: total incl. compile: $(dt "$t0" "$t3") s"
echo "smoke: PASS"
