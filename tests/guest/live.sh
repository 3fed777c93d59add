#!/bin/sh
# Guest test of live traces: lket-b2a --follow converting a trace while
# lket-run-traced writes it, with the tracer's live wake-ups and beacons
# (tools/stap-runtime-patches/97-relay-live-beacons.patch).
#
#  1. build (host): the workload (tests/guest/workloads/live.c) and
#     addevent.iosyscall.lseek.entry in one module;
#  2. guest, the trace in a tmpfs (as /tmp is on most systems):
#     - follow: the workload, on CPU 0 alone (CPU 1 idle), makes 20
#       markers 300 ms apart, each an lseek to a distinct offset, and
#       times how long each takes to show in the output of
#       "lket-b2a --follow", started before the tracer (it waits for the
#       files).  The tracer starts on CPU 0 too, so that its begin probes
#       write the metadata there and CPU 1's file holds nothing but
#       beacons (lket-b2a once waited for CPU 1's first event, which came
#       when tracing stopped: every marker then missed);
#     - interrupt: the same, 10 markers, "lket-b2a --follow -o FILE"
#       stopped with SIGINT half-way;
#  3. host:
#     - every marker reached the live output, within LKET_LIVE_BOUND_MS
#       (default 1000: the bound lket(5) gives), p50 and max shown;
#     - lket-b2a --follow ended by itself when the tracer closed its files,
#       exit status 0, and its output is, line for line, that of
#       lket-b2a on the finished trace;
#     - SIGINT: lket-b2a ended within 3 s, not killed by the signal,
#       FILE is in place with no temporary beside it, holds some markers,
#       and is the start of the finished trace's conversion.
#
# Exit 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
group=live
. "$(cd "$(dirname "$0")" && pwd)/io-common.sh"

bound=${LKET_LIVE_BOUND_MS:-1000}
w=$work/live
check "build: workload" \
	gcc -O1 -Wall -Wextra -Werror -o "$w" "$top/tests/guest/workloads/live.c"
check "build: addevent.iosyscall.lseek.entry (stap -p4)" \
	build_module lket_live 'probe addevent.iosyscall.lseek.entry {}'
skip_guest
[ -f "$work/lket_live.ko" ] || finish

cat > "$work/guest.sh" <<EOS
set -u
d=/run/lket-live
mkdir -p \$d && mount -t tmpfs lket-live \$d || exit 1
cd "$work"
# await FILE: until the tracer has made it (5 s at most)
await() {
	n=0
	while [ ! -e "\$1" ] && [ \$n -lt 100 ]; do sleep 0.05; n=\$((n + 1)); done
}
# ended PID SECONDS: PID is gone within SECONDS
ended() {
	n=0
	while kill -0 "\$1" 2> /dev/null && [ \$n -lt \$((\$2 * 10)) ]; do
		sleep 0.1; n=\$((n + 1))
	done
	! kill -0 "\$1" 2> /dev/null
}

# 1. followed to the end, from before the tracer starts
"$builddir/lket-b2a" --follow \$d/t > \$d/live.txt 2> "$res/follow.err" &
b2a=\$!
taskset -c 0 "$top/tools/lket-run-traced" -o \$d/t lket_live.ko -- "$w" \$d 20 300 \$d/live.txt \
	> "$res/out" 2> "$res/err"
echo "run rc=\$?"
if ended \$b2a 20; then
	wait \$b2a
	echo \$? > "$res/follow.rc"
else
	kill \$b2a
	echo "lket-b2a --follow still running 20 s after the trace ended"
fi
cp \$d/t_* \$d/live.txt "$res/"

# 2. stopped with SIGINT
"$top/tools/lket-run-traced" -o \$d/s lket_live.ko -- "$w" \$d 10 300 \
	> "$res/int.out" 2> "$res/int.err" &
run=\$!
await \$d/s_0
"$builddir/lket-b2a" --follow -o \$d/int.txt \$d/s 2> "$res/int.b2a.err" &
b2a=\$!
sleep 1.5
kill -INT \$b2a
if ended \$b2a 3; then
	wait \$b2a
	echo \$? > "$res/int.rc"
else
	kill -9 \$b2a
fi
wait \$run
ls \$d > "$res/int.ls"
cp \$d/s_* "$res/"
[ ! -f \$d/int.txt ] || cp \$d/int.txt "$res/"
exit 0
EOS
run_guest "$work/guest.sh"

# --- 1. followed to the end
check "the workload ran to its end" grep -qx done "$res/out"
lags=$(grep -c '^lag [0-9]* [0-9]*$' "$res/out")
check "every marker reached the live output (${lags:-0} of 20)" test "${lags:-0}" = 20
lag_stats() {
	awk '$1 == "lag" && $3 ~ /^[0-9]+$/ { v[n++] = $3 / 1e6 }
	END {
		if (!n) exit 1
		for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
			if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		printf "%.0f %.0f %.0f\n", v[int((n - 1) / 2)], v[n - 1], v[0]
	}' "$res/out"
}
set -- $(lag_stats) "" "" ""
echo "  live lag (ms), from the lseek to its line in lket-b2a --follow's output: p50 ${1:-?} max ${2:-?} min ${3:-?}"
check "live lag within ${bound} ms: max ${2:-?} ms" test "${2:-999999}" -le "$bound"
check "lket-b2a --follow ended by itself when the tracer closed its files, exit 0" \
	test "$(cat "$res/follow.rc" 2>/dev/null)" = 0
[ -s "$res/follow.err" ] && sed 's/^/  follow: /' "$res/follow.err"
decode -o "$res/post.txt" "$res/t" 2> "$res/post.err"
same() {
	if cmp -s "$res/live.txt" "$res/post.txt"; then
		echo "  $(wc -l < "$res/post.txt") lines, the same"
		return 0
	fi
	diff "$res/post.txt" "$res/live.txt" | head -5
	return 1
}
check "the live output is lket-b2a's output of the finished trace" same
markers=$(grep -c ' iosyscall.lseek.entry .* offset=70[0-9][0-9] whence=0' "$res/post.txt")
check "the finished trace holds the 20 markers (${markers:-0})" test "${markers:-0}" = 20

# --- 2. stopped with SIGINT
rc=$(cat "$res/int.rc" 2>/dev/null)
check "SIGINT: lket-b2a --follow ended within 3 s with exit status 0 or 1 (${rc:-killed})" \
	test "${rc:-x}" = 0 -o "${rc:-x}" = 1
check "SIGINT: -o FILE in place, no temporary beside it ($(tr '\n' ' ' < "$res/int.ls"))" \
	sh -c "[ -f '$res/int.txt' ] && ! grep -q 'int.txt.' '$res/int.ls'"
sed 's/^/  interrupted: /' "$res/int.b2a.err"
decode -o "$res/int.post.txt" "$res/s" 2> /dev/null
prefix() {
	n=$(wc -l < "$res/int.txt")
	got=$(grep -c ' offset=70[0-9][0-9] whence=0' "$res/int.txt")
	echo "  $n lines, $got markers, of $(wc -l < "$res/int.post.txt")"
	[ "$got" -ge 1 ] && [ "$got" -lt 10 ] &&
		head -n "$n" "$res/int.post.txt" | cmp -s - "$res/int.txt"
}
check "SIGINT: FILE holds the markers before the stop (not all 10), the start of the finished trace's output" prefix
finish
