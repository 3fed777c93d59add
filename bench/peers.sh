#!/bin/sh
# make bench, part 2: lket-b2a side by side with its peers, on the same
# workload.  On this machine's own kernel, `bench-loop L` (L getppid calls
# in a tight loop, pinned to CPU 1: 2 L raw_syscalls events) is recorded
#   - by perf:      perf record -e raw_syscalls:sys_enter,sys_exit -> perf.data
#   - by ftrace:    raw_syscalls through tracefs, then trace-cmd extract
#                   --compression none -> trace.dat (trace-cmd record itself
#                   cannot run here: it insists on writing
#                   /proc/sys/kernel/ftrace_enabled, which this kernel refuses)
#   - converted once: perf data convert --to-ctf -> ctf/ (for babeltrace2)
# and the LKET trace of the same events (syscall.entry/return with names,
# as addevent.syscall writes them) comes from `lket-gen -n 2L syscalls`.
# Then, alternating and RUNS times each, every tool turns its trace into
# text in a file:
#   perf script -i perf.data > out      trace-cmd report -i trace.dat > out
#   babeltrace2 ctf > out               lket-b2a -q -o out PREFIX
# and the CTF export is timed too: lket-b2a --ctf (lket-ctf: binary to
# binary, no text), then babeltrace2 reading that (bt2-lket), beside
# babeltrace2 reading perf's CTF of the same number of events.
# Whole-process elapsed time and peak RSS from /usr/bin/time; medians.
#
#   bench/peers.sh BUILD    LOOPS="1000000 10000000" RUNS=3 RUNS_LARGE=2
#                           BENCH_DIR=...
# (RUNS_LARGE: runs at 10 M loops and more, where babeltrace2 alone takes
# over a minute a run; keeps make bench near 15 minutes)
#                           OUT_DIR=...
#
# The text goes to OUT_DIR (default /dev/shm/lket-bench when /dev/shm has
# 12 GB free, else BENCH_DIR/peers): on tmpfs the figures are the tools'
# own, not the disk's writeback.  babeltrace2 writes 6.6 GB at 20 M events.
#
# Needs root (tracefs, perf on tracepoints).  Installs linux-perf,
# trace-cmd, babeltrace2 and time with apt-get when they are missing.
# Writes the table to BENCH_DIR/peers.txt as well as standard output.
set -eu
build=$(cd "${1:?usage: peers.sh BUILD}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-3}
dir=${BENCH_DIR:-$build/bench}/peers
loop=$build/bench-loop
tracefs=/sys/kernel/tracing
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -z "${OUT_DIR:-}" ]; then
	OUT_DIR=$dir
	shm_free=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
	[ "${shm_free:-0}" -ge 12000000 ] && OUT_DIR=/dev/shm/lket-bench
fi
mkdir -p "$OUT_DIR"
out=$OUT_DIR/out

note() { echo "peers: $*" >&2; }
die() { note "$*"; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (tracefs, perf tracepoints)"

# ---- the peers, from Debian's archive
"$top/tools/install-deps" bench || die "the peers could not be installed"
[ -x "$loop" ] || die "$loop missing (make $loop)"

if [ ! -f "$tracefs/trace" ]; then
	mount -t tracefs nodev "$tracefs" 2>/dev/null ||
		die "cannot mount tracefs at $tracefs"
fi
[ -d "$tracefs/events/raw_syscalls" ] ||
	die "this kernel has no raw_syscalls tracepoints"

# ---- recording
saved_kb=$(cat "$tracefs/per_cpu/cpu1/buffer_size_kb")
saved_ow=$(cat "$tracefs/options/overwrite")
ftrace_off() {
	echo 0 > "$tracefs/tracing_on"
	echo 0 > "$tracefs/events/raw_syscalls/enable"
	: > "$tracefs/set_event_pid"
}
ftrace_restore() {
	ftrace_off
	: > "$tracefs/trace"
	echo "$saved_kb" > "$tracefs/per_cpu/cpu1/buffer_size_kb"
	echo "$saved_ow" > "$tracefs/options/overwrite"
	echo 1 > "$tracefs/tracing_on"
}
trap 'ftrace_restore 2>/dev/null || :' EXIT INT TERM

record_perf() {	# LOOPS: perf.data, and perf's count of lost samples
	rm -f "$dir/perf.data"
	# perf's reader on CPU 0, the loop on CPU 1: nothing is lost
	taskset -c 0 perf record -q -m 256M -o "$dir/perf.data" \
		-e raw_syscalls:sys_enter -e raw_syscalls:sys_exit \
		-- taskset -c 1 "$loop" "$1" >&2
	perf_lost=$(perf report -i "$dir/perf.data" --stats 2>/dev/null |
		awk '/^ *LOST_SAMPLES events:/ { s += $3 } END { print s + 0 }')
}

record_ftrace() {	# LOOPS: trace.dat, and ftrace's dropped events
	rm -f "$dir/trace.dat"
	ftrace_off
	: > "$tracefs/trace"
	# about 50 bytes an event in the ring buffer; drop, never overwrite
	echo $(($1 * 2 * 56 / 1024 + 4096)) > "$tracefs/per_cpu/cpu1/buffer_size_kb"
	echo 0 > "$tracefs/options/overwrite"
	echo 1 > "$tracefs/events/raw_syscalls/enable"
	# only the loop's own events: its pid, before it execs the loop
	sh -c "echo \$\$ > $tracefs/set_event_pid && echo 1 > $tracefs/tracing_on &&
		exec taskset -c 1 '$loop' $1"
	ftrace_off
	ftrace_lost=$(awk '/^overrun:|^dropped events:/ { s += $NF } END { print s + 0 }' \
		"$tracefs/per_cpu/cpu1/stats")
	(cd "$dir" && trace-cmd extract --compression none -o trace.dat >/dev/null 2>&1) ||
		die "trace-cmd extract failed"
	: > "$tracefs/trace"
	echo "$saved_kb" > "$tracefs/per_cpu/cpu1/buffer_size_kb"
}

# ---- timing
tool_cmd() {	# TOOL: the command that writes TOOL's text to $dir/out
	case $1 in
	perf) echo "perf script -i $dir/perf.data" ;;
	trace-cmd) echo "trace-cmd report -i $dir/trace.dat" ;;
	babeltrace2) echo "babeltrace2 $dir/ctf" ;;
	lket-b2a) echo "$build/lket-b2a -q -o $out $dir/lket" ;;
	lket-ctf) echo "$build/lket-b2a -q --replace --ctf $dir/lket-ctf $dir/lket" ;;
	bt2-lket) echo "babeltrace2 $dir/lket-ctf" ;;
	esac
}
# lines of each tool's text that are events
count_events() {
	case $1 in
	perf|babeltrace2) grep -c 'raw_syscalls:sys_e' "$out" ;;
	trace-cmd) grep -c ' sys_e[nx]' "$out" ;;
	lket-b2a) grep -c ' syscall\.' "$out" ;;
	lket-ctf) babeltrace2 "$dir/lket-ctf" | grep -c ' syscall_e' ;;
	bt2-lket) grep -c ' syscall_e' "$out" ;;
	esac
}
input_bytes() {
	case $1 in
	perf) du -sb "$dir/perf.data" ;;
	trace-cmd) du -sb "$dir/trace.dat" ;;
	babeltrace2) du -sb "$dir/ctf" ;;
	lket-b2a|lket-ctf) cat "$dir"/lket_* | wc -c ;;
	bt2-lket) du -sb "$dir/lket-ctf" ;;
	esac | awk '{ print $1 }'
}
# what each tool wrote: the text, or the CTF folder
output_bytes() {
	case $1 in
	lket-ctf) du -sb "$dir/lket-ctf" | awk '{ print $1 }' ;;
	*) wc -c < "$out" ;;
	esac
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

tools="perf trace-cmd babeltrace2 lket-b2a lket-ctf bt2-lket"
results=$dir/results
: > "$results"
t_start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
for l in ${LOOPS:-1000000 10000000}; do
	n=$((2 * l))
	note "$n events: recording with perf and ftrace"
	record_perf "$l"
	record_ftrace "$l"
	note "$n events: perf data convert --to-ctf"
	rm -rf "$dir/ctf"
	perf data convert --to-ctf "$dir/ctf" -i "$dir/perf.data" \
		>"$dir/convert.log" 2>&1 || {
		cat "$dir/convert.log" >&2; die "perf data convert --to-ctf failed"; }
	rm -f "$dir"/lket_*
	"$build/lket-gen" -n "$n" syscalls "$dir/lket"
	for t in $tools; do : > "$dir/times.$t"; done
	nruns=$runs
	[ "$l" -ge 10000000 ] && nruns=${RUNS_LARGE:-2}
	for r in $(seq "$nruns"); do
		for t in $tools; do
			note "$n events: run $r/$nruns: $t"
			rm -f "$out"
			cmd=$(tool_cmd "$t")
			case $t in
			lket-b2a|lket-ctf) /usr/bin/time -f '%e %M %U %S' -o "$dir/time" $cmd ;;
			*) /usr/bin/time -f '%e %M %U %S' -o "$dir/time" $cmd > "$out" 2>/dev/null ;;
			esac || note "$t exited $? (run $r)"
			tail -n 1 "$dir/time" >> "$dir/times.$t"
			if [ "$r" = 1 ]; then
				eval "events_$(echo "$t" | tr -- '-2' '_b')=\$(count_events $t)"
				eval "out_$(echo "$t" | tr -- '-2' '_b')=\$(output_bytes $t)"
			fi
		done
	done
	rm -f "$out"
	for t in $tools; do
		v=$(echo "$t" | tr -- '-2' '_b')
		eval "ev=\$events_$v out_b=\$out_$v"
		case $t in perf) lost=$perf_lost ;; trace-cmd) lost=$ftrace_lost ;;
			babeltrace2) lost=$perf_lost ;; *) lost=0 ;; esac
		secs=$(awk '{ print $1 }' "$dir/times.$t" | median)
		rss=$(awk '{ print $2 }' "$dir/times.$t" | median)
		cpu=$(awk '{ print $3 + $4 }' "$dir/times.$t" | median)
		echo "$n $t $ev $(input_bytes "$t") $out_b $secs $rss $lost $cpu $(awk '{ printf "%s/", $1 }' "$dir/times.$t")" >> "$results"
	done
	rm -rf "$dir/perf.data" "$dir/trace.dat" "$dir/ctf" "$dir"/lket_* "$dir/lket-ctf"
done
t_end=$(date +%s)
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- the table
{
echo "lket-b2a and its peers: trace to text in a file ($OUT_DIR); medians of $runs alternating runs (${RUNS_LARGE:-2} at 20 M events and more)"
echo "machine: $(nproc) x $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo), kernel $(uname -r), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "load average at start $load_start, at end $load_end"
echo "peers: $(perf --version), trace-cmd $(trace-cmd 2>&1 | sed -n 's/^trace-cmd version \([^ ]*\).*/\1/p' | head -n 1), $(babeltrace2 --version | head -n 1)"
echo
awk '
{ n[NR] = $1; t[NR] = $2; ev[NR] = $3; inb[NR] = $4; outb[NR] = $5
  s[NR] = $6 > 0 ? $6 : 0.005; rss[NR] = $7; lost[NR] = $8
  c[NR] = $9 > 0 ? $9 : 0.005; all[NR] = $10
  if ($2 == "lket-b2a") { lk[$1] = $3 / s[NR]; lkc[$1] = $3 / c[NR] } }
END {
	printf "| %-8s | %-11s | %9s | %8s | %8s | %8s | %7s | %7s | %9s | %9s | %13s | %6s |\n",
		"events", "tool", "recorded", "input MB", "text MB", "median s",
		"ev/s", "MB/s in", "peak RSS", "CPU ev/s", "LKET is", "lost"
	printf "|----------|-------------|-----------|----------|----------|----------|---------|---------|-----------|-----------|---------------|--------|\n"
	for (i = 1; i <= NR; i++) {
		eps = ev[i] / s[i]
		ratio = t[i] == "lket-b2a" ? "-" : sprintf("%.1fx/%.1fx", lk[n[i]] / eps, lkc[n[i]] / (ev[i] / c[i]))
		printf "| %-8s | %-11s | %9d | %8.1f | %8.1f | %8.2f | %6.2fM | %7.1f | %5.1f MiB | %8.2fM | %13s | %6d |\n",
			sprintf("%gM", n[i] / 1e6), t[i], ev[i], inb[i] / 1e6, outb[i] / 1e6, s[i],
			eps / 1e6, inb[i] / 1e6 / s[i], rss[i] / 1024, ev[i] / c[i] / 1e6, ratio, lost[i]
	}
	print ""
	print "elapsed s of every run, in order:"
	for (i = 1; i <= NR; i++) printf "  %-9s %-11s %s\n", n[i], t[i], all[i]
}' "$results"
echo
echo "ev/s: events recorded / median elapsed s; CPU ev/s: over median user+sys s."
echo "LKET is: lket-b2a's ev/s over the peer's, elapsed/CPU.  lost: events the"
echo "recorder dropped (perf LOST_SAMPLES, ftrace overrun+dropped; babeltrace2"
echo "reads perf's trace).  lket-ctf: lket-b2a --ctf, LKET's trace to CTF (its"
echo "text MB: the CTF folder); bt2-lket: babeltrace2 reading that CTF, to be"
echo "compared with babeltrace2 reading perf's CTF of the same events."
echo "This script took $((t_end - t_start)) s."
} | tee "$dir/../peers.txt"
