#!/bin/sh
# Guest test of the flight recorder (lket-run-traced --flight,
# lket_snapshot(); tools/stap-runtime-patches/98-relay-flight-recorder.patch)
# and of rotation (lket-run-traced --rotate, tools/lket-rotate.c), which
# share its module and boot.
#
#  1. build (host): the workload (tests/guest/workloads/flight.c) and a
#     module of addevent.iosyscall.read.entry and .return whose probe
#     bodies count the records they wrote on CPU 0 (said at the end, in a
#     warning), and of the workload's reads of two bytes (the slow one's:
#     a fast read a loaded host stalls cannot fire it), that calls
#     lket_snapshot() when one took over 50 ms;
#  2. guest, each CPU keeping 1 MB, the trace in a tmpfs:
#     - trigger: the workload, on CPU 0, makes 50000 one-byte reads of
#       /dev/zero, then one read of a FIFO that lasts 300 ms (its writer,
#       started before tracing, waits), then a read a millisecond until
#       told to stop, once the trace has ended (the module unloaded);
#       tracer and writer on CPU 1;
#     - signal: fast reads until told to stop, no slow one; SIGUSR1 to
#       lket-run-traced once the workload has made 50000 reads (some
#       3 MB of records: the ring has gone round), the workload told to
#       stop once the trace has ended (the module unloaded), and then
#       making 1000 more reads: the order is the guest's, whatever the
#       host's load;
#     - stop: 100000 fast reads, no trigger: the snapshot is taken when
#       tracing stops;
#  3. host:
#     - trigger: lket-b2a converts without damage, says it is a flight
#       recording, and says how many records of CPU 0 the recorder
#       wrote over: the reads the module wrote there (the count) less
#       those the snapshot holds, plus at most the module's other
#       records there (lket.cpu_end's count less the reads); or, if the
#       ring never went round (nothing said), the snapshot holds every
#       read the module wrote there; the
#       snapshot holds the trace's start (the process snapshot), the
#       slow read (a return over 50 ms after its entry, of the FIFO's
#       descriptor), at least 1000 reads before it, reads after it (the
#       grace period, 250 ms here: a loaded host may stall the guest for
#       tens of milliseconds), and nothing later than the slow read's return +
#       the grace period (lket.flight's) + 50 ms (the timer's tick and a
#       TCG slack);
#     - signal: the workload ran to its end, the trace ended first (the
#       module wrote fewer read records than the workload's reads make), and
#       the overwrite count is right as above;
#     - stop: the same checks, and the snapshot ends with the workload's
#       last read (its return, then nothing more of CPU 0's);
#  4. rotation (lket-run-traced --rotate 1,2), guest: the workload's
#     150000 reads, over 10 MB of records on CPU 0; host: CPU 0's newest
#     2 files left of at least 10, none over 1 MB, 0600; lket-b2a
#     converts them without damage (the records of the deleted files
#     counted, and named with their span), ending with the workload's
#     last read; each file alone converts without damage, every read
#     record's process known (named by the copies at the file's start).
#
# Exit 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
group=flight
. "$(cd "$(dirname "$0")" && pwd)/io-common.sh"

w=$work/flight
check "build: workload" \
	gcc -O1 -Wall -Wextra -Werror -o "$w" "$top/tests/guest/workloads/flight.c"
# Only the workload's own probes lock a global, so that no probe waits
# for a lock held on the other CPU: under single-threaded TCG one vCPU runs
# at a time, and such a wait lasts until the holder's turn comes back
# (SystemTap skipped the hit after its 1 ms; with no limit, a fast read
# then looked slower than 50 ms and fired the trigger).  The hooks count
# in an aggregate, which takes no lock; the trigger's probes are plain
# ones that leave at once for any other program.
# The grace period is 250 ms here, not lket(5)'s 10: under emulation,
# beside other guests or on a loaded host, the workload's CPU can stand
# still for tens of milliseconds right after its slow read (seen with
# 10 and 25: no read after it in the snapshot); the workload then reads
# once a millisecond, so that 250 ms of reads still leave thousands
# before it in 1 MB.  Only the slow read, the one of two bytes, can fire
# the trigger: under a loaded host a one-byte read of /dev/zero was seen
# to last over 50 ms, and fired it, in all three runs.
LKET_STAP_EXTRA="${LKET_STAP_EXTRA:-} -DLKET_FLIGHT_GRACE_MS=250"
check "build: iosyscall.read hooks and a latency trigger (stap -p4)" \
	build_module lket_flight '
global written0, entered
probe addevent.iosyscall.read.entry, addevent.iosyscall.read.return
{
	if (cpu() == 0)
		written0 <<< 1
}
probe syscall.read
{
	if (execname() != "flight" || count != 2)
		next
	entered[tid()] = gettimeofday_ns()
}
probe syscall.read.return
{
	if (execname() != "flight")
		next
	if (tid() in entered && gettimeofday_ns() - entered[tid()] > 50000000 &&
	    lket_snapshot())
		warn(sprintf("flight: lket_snapshot() by tid %d", tid()))
	delete entered[tid()]
}
probe end
{
	warn(sprintf("flight: CPU 0 read records written %d", @count(written0)))
}'
skip_guest
[ -f "$work/lket_flight.ko" ] || finish

cat > "$work/guest.sh" <<EOS
set -u
d=/run/lket-flight
mkdir -p \$d && mount -t tmpfs lket-flight \$d || exit 1
cd "$work"

# 1. the latency trigger
mkfifo \$d/fifo
# until_module STATE WHO: wait, at most 300 s, until lket_flight is
# STATE (loaded, gone); say if it was not
until_module() {
	n=0
	while :; do
		if [ -e /sys/module/lket_flight ]; then s=loaded; else s=gone; fi
		[ "\$s" != "\$1" ] || return 0
		[ \$n -lt 6000 ] || { echo "\$2: the module not \$1 after 300 s"; return 0; }
		sleep 0.05
		n=\$((n + 1))
	done
}
taskset -c 1 "$w" writer \$d/fifo 300 &
writer=\$!
taskset -c 1 "$top/tools/lket-run-traced" --flight 1 -o \$d/t lket_flight.ko -- \
	"$w" reader 50000 \$d/fifo \$d/tstop > "$res/out" 2> "$res/err" &
run=\$!
# the trace ended by the trigger (the module loaded, then gone), the
# workload told to stop
until_module loaded trigger
until_module gone trigger
touch \$d/tstop
wait \$run
echo "trigger: run rc=\$?"
kill \$writer 2> /dev/null
wait \$writer
cp \$d/t_* "$res/"

# 2. SIGUSR1, once the workload has made 50000 reads, traced (it starts
# once the probes are armed; a loaded host can make that minutes); the
# workload told to stop once the snapshot has ended the trace (the
# module gone), after which it makes 1000 more reads
taskset -c 1 "$top/tools/lket-run-traced" --flight 1 -o \$d/u lket_flight.ko -- \
	"$w" spin \$d/stop \$d/mark 50000 > "$res/sig.out" 2> "$res/sig.err" &
run=\$!
n=0
while [ ! -e \$d/mark ] && [ \$n -lt 6000 ]; do sleep 0.05; n=\$((n + 1)); done
[ -e \$d/mark ] || echo "signal: no 50000 reads in 300 s: signalled all the same"
kill -USR1 \$run
until_module gone signal
touch \$d/stop
wait \$run
echo "signal: run rc=\$?"
cp \$d/u_* "$res/"

# 3. no trigger: the stop
taskset -c 1 "$top/tools/lket-run-traced" --flight 1 -o \$d/v lket_flight.ko -- \
	"$w" reader 100000 > "$res/stop.out" 2> "$res/stop.err"
echo "stop: run rc=\$?"
cp \$d/v_* "$res/"

# 4. rotation: files of 1 MB, 2 a CPU kept
LKET_ROTATE="$builddir/lket-rotate" taskset -c 1 "$top/tools/lket-run-traced" \
	--rotate 1,2 -o \$d/r lket_flight.ko -- \
	"$w" reader 150000 > "$res/rot.out" 2> "$res/rot.err"
echo "rotate: run rc=\$?"
cp \$d/r_* "$res/"
exit 0
EOS
run_guest "$work/guest.sh"

# flight_checks NAME TRACE ERR: what both runs must show; sets written,
# found and over (CPU 0's read records written, in the snapshot, and
# the records lket-b2a says were written over there)
flight_checks() {
	decode -o "$res/$1.txt" "$res/$2" 2> "$res/$1.b2a.err"
	rc=$?
	sed "s/^/  $1: /" "$res/$1.b2a.err"
	# the module's own count of what it skipped, and why if it knows
	grep -i 'skipped' "$res/$3" | sed "s/^/  $1: module: /"
	check "$1: lket-b2a converted the snapshot without damage (exit $rc)" test $rc = 0
	check "$1: lket-b2a says it is a flight recording" \
		grep -q 'a flight recording: each CPU kept its newest' "$res/$1.b2a.err"
	check "$1: the snapshot holds the trace's start (the process snapshot)" \
		grep -q ' process\.snapshot ' "$res/$1.txt"
	written=$(sed -n 's/.*flight: CPU 0 read records written \([0-9]*\).*/\1/p' "$res/$3" | tail -1)
	found=$(awk '$2 == 0 && $6 ~ /^iosyscall\.read\./' "$res/$1.txt" | wc -l)
	counts=$(sed -n 's/.* \([0-9]*\) records of CPU 0 written over by the flight recorder: the tracer wrote \([0-9]*\) there .*/\1 \2/p' \
		"$res/$1.b2a.err")
	over=${counts% *} all=${counts#* }
	if [ -n "$counts" ]; then
		# the ring went round: the CPU's other records (task records
		# of other tasks, the snapshot's) may have been written over
		# too, at most all of them
		echo "  $1: CPU 0: ${written:-?} read records written, ${found:-?} in the snapshot; lket-b2a: $over of $all records written over"
		check "$1: lket-b2a's count of CPU 0's records written over is the reads written less those kept, plus at most the $all - ${written:-?} others the module wrote there ($over)" \
			test -n "$written" -a "$over" -gt 0 -a \
			"$over" -ge "$(( ${written:-0} - ${found:-0} ))" -a \
			"$over" -le "$(( ${written:-0} - ${found:-0} + all - ${written:-0} ))"
	else
		# it did not: nothing written over, every read record kept
		echo "  $1: CPU 0: ${written:-?} read records written, ${found:-?} in the snapshot; lket-b2a: nothing written over"
		check "$1: the ring never went round (lket-b2a says nothing was written over): the snapshot holds all ${written:-?} read records of CPU 0 (${found:-?})" \
			test -n "$written" -a "${found:-0}" = "${written:-x}"
	fi
}

# --- 1. the latency trigger
check "trigger: the workload ran to its end" grep -qx done "$res/out"
check "trigger: lket_snapshot() fired" grep -q 'flight: lket_snapshot() by tid' "$res/err"
flight_checks trigger t err
fd=$(sed -n 's/^fd //p' "$res/out")
grace=$(sed -n 's/.*newest [0-9]* KiB of records, to a snapshot taken \([0-9]*\) ms.*/\1/p' \
	"$res/trigger.b2a.err")
# the slow read, the reads before and after it, and the last record
awk -v fd="${fd:-x}" -v grace="${grace:-0}" '
	$1 > last { last = $1 }
	$2 != 0 || $6 !~ /^iosyscall\.read\./ { next }
	$6 == "iosyscall.read.entry" {
		if (slow) after++; else before++
		entry[$3] = $1; entry_fd[$3] = $7
		next
	}
	!slow && ($3 in entry) && entry_fd[$3] == "fd=" fd &&
	$1 - entry[$3] > 0.05 { slow = $1; lat = $1 - entry[$3] }
	END {
		printf "slow %s lat %.3f before %d after %d last %s grace %d\n",
			slow ? slow : "none", lat, before, after, last, grace
		if (!slow) exit 1
		printf "beyond %.3f\n", last - slow
	}' "$res/trigger.txt" > "$res/slow" 2>&1
cat "$res/slow" | sed 's/^/  trigger: /'
check "trigger: the snapshot holds the slow read (fd ${fd:-?}, over 50 ms)" \
	grep -q '^slow [0-9]' "$res/slow"
before=$(sed -n 's/.* before \([0-9]*\) .*/\1/p' "$res/slow")
after=$(sed -n 's/.* after \([0-9]*\) .*/\1/p' "$res/slow")
beyond=$(sed -n 's/^beyond //p' "$res/slow")
check "trigger: at least 1000 reads before it (${before:-0})" test "${before:-0}" -ge 1000
check "trigger: reads after it, in the grace period (${after:-0})" test "${after:-0}" -ge 1
check "trigger: nothing later than its return + ${grace:-?} ms + 50 ms (the last record: ${beyond:-?} s on)" \
	awk -v b="${beyond:-x}" -v g="${grace:-0}" \
	'BEGIN { exit !(b ~ /^[0-9.]+$/ && b <= (g + 50) / 1000) }'

# --- 2. SIGUSR1
check "signal: the workload ran to its end" grep -qx done "$res/sig.out"
flight_checks signal u sig.err
reads=$(sed -n 's/^reads //p' "$res/sig.out")
check "signal: the trace ended before the workload did (${written:-?} read records written, of the $((2 * ${reads:-0})) its ${reads:-?} reads make)" \
	test -n "$written" -a "${written:-0}" -lt "$((2 * ${reads:-0}))"

# --- 3. the stop
check "stop: the workload ran to its end" grep -qx done "$res/stop.out"
flight_checks stop v stop.err
check "stop: the snapshot ends with the workload's last read ($(awk '$2 == 0' "$res/stop.txt" | tail -1 | cut -d' ' -f5,6))" \
	sh -c "awk '\$2 == 0' '$res/stop.txt' | tail -1 | grep -q ' flight iosyscall\.read\.return return=1\$'"

# --- 4. rotation
check "rotate: the workload ran to its end" grep -qx done "$res/rot.out"
decode -o "$res/rot.txt" "$res/r" 2> "$res/rot.b2a.err"
rc=$?
sed 's/^/  rotate: /' "$res/rot.b2a.err"
files=$(cd "$res" && ls r_0.* | sort -t. -k2 -n | tr '\n' ' ')
echo "  rotate: CPU 0's files: $files($(cd "$res" && ls r_1.* | tr '\n' ' '))"
check "rotate: lket-b2a converted what is left without damage (exit $rc): every record the module counted is in the files or in the deleted ones" \
	test $rc = 0
last=$(cd "$res" && ls r_0.* | sed 's/^r_0\.//' | sort -n | tail -1)
check "rotate: CPU 0 kept its newest 2 files, r_0.$((${last:-2} - 1)) and r_0.${last:-?}, of at least 10 (the workload's 300000 read records, over 10 MB)" \
	test "$(ls "$res"/r_0.* | wc -l)" = 2 -a -f "$res/r_0.$((${last:-2} - 1))" -a "${last:-0}" -ge 9
check "rotate: no file over 1 MB" \
	test "$(find "$res" -name 'r_*' -size +1048576c | wc -l)" = 0
check "rotate: the trace files are 0600" \
	test "$(stat -c %a "$res"/r_* | sort -u)" = 600
check "rotate: lket-b2a names CPU 0's deleted files and their span" \
	grep -q "the files of CPU 0 before this one, $res/r_0\.0 to $res/r_0\.$((${last:-2} - 2)), are not here: they held [0-9]* records, from [0-9.]* to [0-9.]*" \
	"$res/rot.b2a.err"
check "rotate: what is left ends with the workload's last read ($(awk '$2 == 0' "$res/rot.txt" | tail -1 | cut -d' ' -f5,6))" \
	sh -c "awk '\$2 == 0' '$res/rot.txt' | tail -1 | grep -q ' flight iosyscall\.read\.return return=1\$'"
# each file alone: converted without damage, every read record of a
# known process (its task records were in the deleted files: the copies
# at the file's start name it)
for f in "$res"/r_*; do
	decode -o "$f.txt" "$f" 2> "$f.b2a.err"
	rc=$?
	n=$(awk '$6 ~ /^iosyscall\.read\./' "$f.txt" | wc -l)
	anon=$(awk '$6 ~ /^iosyscall\.read\./ && ($4 == "-" || $5 == "-")' "$f.txt" | wc -l)
	check "rotate: $(basename "$f") alone: exit $rc, $n read records, $anon of an unknown process" \
		test $rc = 0 -a "$n" -gt 0 -a "$anon" = 0
done
finish
