#!/bin/sh
# make bench: lket-b2a's speed and memory on generated traces of 10 M and
# 20 M events (syscall entry/return with names, context switches, page
# faults on 2 CPUs, as the runtime writes them), converted to lket.out.
# Whole-process figures from /usr/bin/time, best of RUNS runs.  lket.out
# goes to OUT_DIR: /dev/shm/lket-bench when /dev/shm has 4 GB free (the
# converter's speed, not the disk's writeback), else BENCH_DIR.
# Then the exports of EXPORT_EVENTS events of the same mix: --ctf and
# --perfetto side by side (events per CPU second, peak RSS, output bytes
# per event), and -f none, the converter with no output, for the floor.
# Then two hosts: the CPU time per event of HOST_EVENTS events as two
# hosts' traces of half as many each (a=, b=: a first pass over both for
# their RPCs, then the merge) against one trace of HOST_EVENTS, as a
# ratio: one of each in turn, RUNS times, the median.
# Last the CTF export: the CPU time (user + system) of --ctf on
# CTF_EVENTS events of the mix, the median of RUNS; with BASE=the build
# folder of another tree (the previous release's, say), its lket-b2a
# beside this one's, one of each in turn.
#
#   bench/run.sh BUILD      RUNS=3 EVENTS="10000000 20000000" BENCH_DIR=...
#                           EXPORT_EVENTS=10000000 HOST_EVENTS=4000000
#                           CTF_EVENTS=5000000 BASE=... OUT_DIR=...
set -eu
build=$(cd "${1:?usage: run.sh BUILD}" && pwd)
runs=${RUNS:-3}
dir=${BENCH_DIR:-$build/bench}
mkdir -p "$dir"
if [ -z "${OUT_DIR:-}" ]; then
	OUT_DIR=$dir
	shm_free=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
	[ "${shm_free:-0}" -ge 4000000 ] && OUT_DIR=/dev/shm/lket-bench
fi
mkdir -p "$OUT_DIR"
out=$OUT_DIR/lket.out
echo "lket-b2a alone, realistic mix, lket.out in $OUT_DIR, best of $runs runs"
command -v /usr/bin/time >/dev/null || {
	echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }

printf '%-10s %12s %10s %12s %10s %10s\n' events "input MB" seconds "events/s" "MB/s in" "peak RSS"
for n in ${EVENTS:-10000000 20000000}; do
	"$build/lket-gen" -n "$n" bench "$dir/t$n"
	in_bytes=$(cat "$dir/t${n}"_* | wc -c)
	best=
	for _ in $(seq "$runs"); do
		rm -f "$out"
		/usr/bin/time -f '%e %M' -o "$dir/time" \
			"$build/lket-b2a" -q -o "$out" "$dir/t$n" || true
		read -r secs rss < "$dir/time"
		if [ -z "$best" ] ||
		   [ "$(awk "BEGIN { print ($secs < $best) }")" = 1 ]; then
			best=$secs best_rss=$rss
		fi
	done
	awk -v n="$n" -v b="$in_bytes" -v s="$best" -v r="$best_rss" 'BEGIN {
		if (s == 0) s = 0.001
		printf "%-10d %12.1f %10.2f %12.0f %10.0f %8.1f MiB\n",
			n, b / 1e6, s, n / s, b / 1e6 / s, r / 1024 }'
	rm -f "$dir/t${n}"_*
done
echo "output: $(wc -c < "$out") bytes of lket.out for the last trace"
rm -f "$out"

# the exports: user + system seconds (what the other jobs of a shared
# machine disturb least), best of RUNS
n=${EXPORT_EVENTS:-10000000}
"$build/lket-gen" -n "$n" bench "$dir/x"
echo "exports of $n events, best of $runs runs (CPU: user + system)"
printf '%-12s %8s %8s %12s %10s %12s %8s\n' export seconds "CPU s" "CPU ev/s" \
	"peak RSS" "output MB" "B/event"
for e in none ctf perfetto; do
	best='' rss=''
	for _ in $(seq "$runs"); do
		rm -rf "$OUT_DIR/x.ctf" "$OUT_DIR/x.pftrace"
		case $e in
		none) set -- -f none ;;
		ctf) set -- --ctf "$OUT_DIR/x.ctf" ;;
		perfetto) set -- --perfetto "$OUT_DIR/x.pftrace" ;;
		esac
		/usr/bin/time -f '%e %U %S %M' -o "$dir/time" \
			"$build/lket-b2a" -q "$@" "$dir/x" || true
		read -r secs u s r < "$dir/time"
		cpu=$(awk "BEGIN { print $u + $s }")
		if [ -z "$best" ] ||
		   [ "$(awk "BEGIN { print ($cpu < $best) }")" = 1 ]; then
			best=$cpu el=$secs rss=$r
		fi
	done
	case $e in
	none) bytes=0 ;;
	ctf) bytes=$(cat "$OUT_DIR/x.ctf"/kernel/* | wc -c) ;;
	perfetto) bytes=$(wc -c < "$OUT_DIR/x.pftrace") ;;
	esac
	awk -v e="$e" -v n="$n" -v el="$el" -v c="$best" -v r="$rss" -v b="$bytes" 'BEGIN {
		if (c == 0) c = 0.001
		printf "%-12s %8.2f %8.2f %12.0f %8.1f MiB %12.1f %8.1f\n",
			e == "none" ? "(-f none)" : "--" e, el, c, n / c, r / 1024,
			b / 1e6, b / n }'
done
rm -rf "$dir/x"_* "$OUT_DIR/x.ctf" "$OUT_DIR/x.pftrace"

# two hosts against one trace of their size: user + system seconds
n=${HOST_EVENTS:-4000000}
"$build/lket-gen" -n "$n" bench "$dir/one"
"$build/lket-gen" -n $((n / 2)) bench "$dir/ha"
"$build/lket-gen" -n $((n / 2)) bench "$dir/hb"
cpu() { # COMMAND...: user + system seconds
	/usr/bin/time -f '%U %S' -o "$dir/time" "$@" || true
	awk '{ print $1 + $2 }' "$dir/time"
}
: > "$dir/ratio"
for _ in $(seq "$runs"); do
	one=$(cpu "$build/lket-b2a" -q -o "$out" "$dir/one")
	two=$(cpu "$build/lket-b2a" -q -o "$out" a="$dir/ha" b="$dir/hb")
	echo "$one $two" | awk '{ printf "%.3f %.3f %.4f\n", $1, $2, $2 / $1 }' >> "$dir/ratio"
done
sort -n -k3 "$dir/ratio" | awk -v n="$n" '{ r[NR] = $3; o[NR] = $1; t[NR] = $2 }
	END { m = int((NR + 1) / 2)
		printf "two hosts, %d events: %.2f s CPU against %.2f s for one trace: %+.0f%% per event (median of %d)\n",
			n, t[m], o[m], (r[m] - 1) * 100, NR }'
rm -f "$out" "$dir/one"_* "$dir/ha"_* "$dir/hb"_* "$dir/ratio"

# --ctf: user + system seconds, this build's and BASE's in turn
n=${CTF_EVENTS:-5000000}
"$build/lket-gen" -n "$n" bench "$dir/ctf"
: > "$dir/ctf.cpu"
for _ in $(seq "$runs"); do
	k=0
	for b in "$build" ${BASE:+"$BASE"}; do
		# a folder each: another release may lay its trace out otherwise
		k=$((k + 1))
		echo "$b $(cpu "$b/lket-b2a" -q --replace --ctf "$OUT_DIR/ctf$k" "$dir/ctf")" \
			>> "$dir/ctf.cpu"
	done
done
for b in "$build" ${BASE:+"$BASE"}; do
	awk -v b="$b" '$1 == b { print $2 }' "$dir/ctf.cpu" | sort -n |
		awk -v b="$b" -v n="$n" '{ t[NR] = $1 }
		END { m = int((NR + 1) / 2)
			printf "--ctf, %d events: %.2f s CPU (%.2f to %.2f), %.0f ns per event (median of %d): %s\n",
				n, t[m], t[1], t[NR], t[m] / n * 1e9, NR, b }'
done
rm -rf "$OUT_DIR/ctf1" "$OUT_DIR/ctf2" "$dir/ctf"_* "$dir/ctf.cpu"
