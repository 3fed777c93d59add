#!/bin/sh
# Golden tests of lket-b2a: generated traces, and damaged copies of them,
# converted by the plain and the ASan/UBSan build; lket.out, the messages
# on standard error and the exit status must equal tests/golden/NAME.expect.
#
#   tests/golden/run.sh BUILD [CASE...]     UPDATE=1 rewrites the .expect
#
# LKET_B2A=PATH: that lket-b2a alone (an installed one, or the package's
# build), instead of BUILD's two; BUILD still gives lket-gen.
set -u
build=$(cd "${1:?usage: run.sh BUILD [CASE...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
work=$build/golden
gen=$build/lket-gen
# lket-run-traced --rotate's writer; the installed one: LKET_ROTATE
rotate=${LKET_ROTATE:-$build/lket-rotate}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# the modes of what lket-b2a makes must not depend on the caller's umask
umask 022

# Each case makes its files in the current (empty) folder and prints the
# lket-b2a arguments; they follow "-o lket.out" unless the case makes a
# file named default-output.  Standard input is the case's file (or
# FIFO) named stdin, else /dev/null.  A run that hangs is stopped after 20
# seconds (exit 124), and so must be a case's FIFO writers: see fifo().
case_v4()       { $gen golden t; echo t; }
case_v5()       { $gen -f v5 golden t; echo t; }
# a real trace of SystemTap 5.1 (bulk frames behind their magic) on
# Debian 13's 6.12: the signal group's guest test (tests/tapset/guest.sh)
real612() { cp "$here/traces/signal-6.12_0" t_0 && cp "$here/traces/signal-6.12_1" t_1; }
case_real612()  { real612; echo t; }
# its last frame cut short; its first file's second frame without magic
case_real612_cut() { real612 && truncate -s -5 t_1; echo t; }
case_real612_magic() { real612 && printf 'XXXX' | dd of=t_0 bs=1 seek=1275 conv=notrunc 2>/dev/null; echo t; }
case_raw()      { $gen -f none golden t; echo t; }
case_swapped()  { $gen -s golden t; echo t; }
case_stpd()     { $gen golden t && mv t_0 stpd_cpu0 && mv t_1 stpd_cpu1; echo; }
# the prefix finds NAMEcpuN and NAME_cpuN files too; a folder stands for
# the per-CPU files in it, of one trace only
case_prefix_cpu() { $gen golden t && mv t_0 tracecpu0 && mv t_1 tracecpu1; echo trace; }
case_prefix_ucpu() { $gen golden t && mv t_0 trace_cpu0 && mv t_1 trace_cpu1; echo trace; }
case_prefix_first() {
	$gen golden t && mv t_0 trace_0 && mv t_1 trace_cpu1; echo trace; }
case_folder()   { mkdir d && $gen golden d/t && touch d/notes d/lket.out; echo d; }
case_folder_cpu() {
	mkdir d && $gen golden d/t && mv d/t_0 d/stpd_cpu0 &&
		mv d/t_1 d/stpd_cpu1; echo d/; }
case_folder_two() { mkdir d && $gen golden d/t && cp d/t_0 d/u_0; echo d; }
case_folder_none() { mkdir d && touch d/notes; echo d; }
# FIFOs, pipes, standard input: read without waiting in open() for a
# writer.  fifo FILE... runs in the background a writer that copies each
# t_N, in the order given, into the FIFO N (made here).
fifo() {
	for f; do mkfifo "$f"; done
	{ timeout 20 sh -c 'for f; do cat "t_$f" > "$f"; done' sh "$@"; } \
		> /dev/null 2>&1 &
}
case_fifo()     { $gen golden t && fifo 0 1; echo 0 1; }
# the writer fills CPU 1's FIFO first: opening CPU 0's first would wait
# for a writer that waits for CPU 1's reader
case_fifo_order() { $gen golden t && fifo 1 0; echo 0 1; }
# - is standard input, a pipe here; its CPU comes from its records
case_stdin()    { $gen golden t && mv t_0 t_stdin && fifo stdin; echo - t_1; }
case_stdin_twice() { $gen golden t && cp t_0 stdin; echo - t_1 -; }
# a FIFO whose writer writes nothing
case_fifo_empty() {
	$gen golden t && mkfifo e &&
		{ timeout 20 sh -c ': > e' > /dev/null 2>&1 & }; echo t e; }
# --follow: the files grow while lket-b2a reads them, a piece at a time
# (frames and records cut anywhere), from a writer that holds them open,
# as stapio does, and closes them at the end: lket.out is case v4's
grow() {
	$gen golden src && split -b 1500 src_0 p0. && split -b 1500 src_1 p1. &&
		: > t_0 && : > t_1 &&
		{ timeout 20 sh -c 'exec 3>> t_0 4>> t_1
		for s in $(ls p0.* p1.* | sed "s/^p[01]\.//" | sort -u); do
			[ ! -f "p0.$s" ] || cat "p0.$s" >&3
			[ ! -f "p1.$s" ] || cat "p1.$s" >&4
			sleep 0.02
		done' > /dev/null 2>&1 & }
}
case_follow() { grow; echo --follow t; }
# started before the tracer: it waits for the files to appear
case_follow_wait() {
	$gen golden src &&
		{ timeout 20 sh -c 'sleep 0.3; cp src_0 t_0; cp src_1 t_1' > /dev/null 2>&1 & }
	echo --follow t; }
# the same in JSON Lines, filtered: case json's lines of CPU 1
case_follow_json() { grow; echo --follow -f json --cpu 1 t; }
# --follow writes lines as they come: nothing that needs the whole trace
case_follow_report() { $gen golden t; echo --follow --report r t; }
case_follow_db() { $gen golden t; echo --follow -d t.db t; }
case_badmeta()  { $gen badmeta t; echo t; }
# no metadata for groups 1 and 2: decoded with the built-in catalogue,
# said once per event; process events still name the processes
case_nometa()   { $gen nometa t; echo t; }
case_missing()  { $gen golden t; echo t_0 t_1 t_7; }
case_empty()    { $gen golden t && : > t_2; echo t; }
case_dup()      { $gen golden t && cp t_0 stpd_cpu0; echo t_0 t_1 t_0 stpd_cpu0; }
# format version 2: each CPU numbers its flushes; the golden trace's lost
# flush is CPU 0's.  Named in another order, the trace header is in the
# second file and is still read first.
case_pcpu()     { $gen -p golden t; echo t; }
case_pcpu_order() { $gen -p golden t; echo t_1 t_0; }
# CPU 1's second flush (8-byte header, 28-byte packet record, a 40-byte
# syscall.return record) cut out: a gap in its own numbers
case_pcpu_lost() {
	$gen -p golden t && head -c 68 t_1 > x && tail -c +145 t_1 >> x &&
		mv x t_1; echo t; }
# format version 3: the trace ends with lket.cpu_end (CPU 0, CPU 1) and
# lket.trace_end, three frames at the end of t_0 (from byte 42829); t_1's
# last two frames start at byte 511.  Nothing is lost but the dropped
# record a packet reports.
case_end()      { $gen -p -e golden t; echo t; }
# t_1's last two frames were never read: no gap in its frame numbers,
# but lket.cpu_end says two records are missing
case_end_tail() { $gen -p -e golden t && head -c 511 t_1 > x && mv x t_1; echo t; }
case_end_tail_stat() {
	$gen -p -e golden t && head -c 511 t_1 > x && mv x t_1; echo --stat t; }
# 30 runs of records the tracer dropped: 20 messages shown, the rest
# counted as losses the sums count (no damage hidden); without the end
# frames (t_0 from byte 44755), the count says damage is among the hidden
case_drops()    { $gen -p -e drops t; echo t; }
case_drops_noend() { $gen -p -e drops t && truncate -s 44755 t_0; echo t; }
# a frame in the middle lost as well (case_pcpu_lost's): a gap, and the
# count says where the records went
end_gap() {
	$gen -p -e "$@" golden t && head -c 68 t_1 > x && tail -c +145 t_1 >> x &&
		head -c 435 x > t_1; }
case_end_gap()  { end_gap; echo t; }
# the same, a flight recording (lket.flight): the gap and the records
# the count misses were written over, not lost (notes, exit 0)
case_flight()   { end_gap -F; echo t; }
case_flight_stat() { end_gap -F; echo --stat t; }
# a CPU whose buffer went round before the trace's start was on it: CPU
# 1's file starts at its flush 2 (its first, 68 bytes, written over),
# CPU 0's with the trace's start; every CPU's written-over flushes named
case_flight_start() {
	$gen -p -e -F golden t && tail -c +69 t_1 > x && mv x t_1; echo t; }
# a rotated trace (lket-run-traced --rotate): lket-rotate's files of
# 32 KiB, the newest 2 of each CPU kept; read all together, then one
# alone (a CPU's first file left: its copies make it decode alone; the
# end is in CPU 0's last file), then CPU 0's two with CPU 1's last
rotated() {
	$gen -p -e -n 2500 timechart t > /dev/null &&
		"$rotate" -s 32768 -n 2 -o r t_0 t_1 2> rotate.err &&
		rm t_0 t_1; }
case_rotated()  { rotated; echo r; }
# --follow on a rotated trace still written: lket-rotate reads the
# trace from FIFOs a piece at a time (as lket-run-traced --rotate has
# it read stapio's), and makes each CPU's next file meanwhile; lket-b2a,
# started on its first files, reads every file made after them, each
# one's copies stepped over: lket.out is the offline conversion of the
# whole trace, every line of it
follow_rotated() {
	$gen -p -e -n 1000 timechart t > /dev/null && echo t > offline &&
		split -b 4000 t_0 p0. && split -b 4000 t_1 p1. && mkfifo f_0 f_1 &&
		{ timeout 20 "$rotate" -s 32768 -n 100 -o r f_0 f_1 > /dev/null 2> rotate.err & } &&
		{ timeout 20 sh -c 'exec 3> f_0 4> f_1
		for s in $(ls p0.* p1.* | sed "s/^p[01]\.//" | sort -u); do
			[ ! -f "p0.$s" ] || cat "p0.$s" >&3
			[ ! -f "p1.$s" ] || cat "p1.$s" >&4
			sleep 0.02
		done' > /dev/null 2>&1 & }
	# the first files are there when lket-b2a starts
	while [ ! -s r_0.0 ] || [ ! -s r_1.0 ]; do sleep 0.01; done
}
case_follow_rotated() { follow_rotated; echo --follow r; }
case_rotated_one() { rotated; echo "$(ls r_1.* | head -n 1)"; }
case_rotated_two() { rotated; echo $(ls r_0.* | head -n 2) "$(ls r_1.* | tail -n 1)"; }
# the end itself was never read: how much is lost cannot be told
# each file's records name the other's CPU: damage about the two files
# in turn, at most 20 messages about each, not all of them
case_cap_alternate() {
	$gen wakeups t && mv t_0 x && mv t_1 t_0 && mv x t_1; echo t; }
case_end_none() { $gen -p -e golden t && head -c 42829 t_0 > x && mv x t_0; echo t; }
# SystemTap skipped probe hits: records lost that no count of LKET's has
case_end_skipped() { $gen -p -e -k 14 golden t; echo -f json t; }
# only CPU 0's file: CPU 1 left out, not lost
case_end_onefile() { $gen -p -e golden t; echo t_0; }
# 5 stale bytes where a flush header should be: after t_1's first flush
# (8-byte header + a 32-byte syscall.entry record)
case_garbage()  {
	$gen golden t && head -c 40 t_1 > x && printf 'GARBG' >> x &&
		tail -c +41 t_1 >> x && mv x t_1; echo t; }
# a flush header whose length is damaged, its number and the record
# after it intact: t_1's second flush (460, at byte 40) says 0 bytes; in
# SystemTap 5.0's framing, t_1's last flush (472, at byte 386) says
# 0xffffffff.  Each is damage, its records read up to the next flush
# header or the end of the file, and not lost (no lket.lost line): only
# the golden trace's own lost flush, 466, is
case_flush_len0() {
	$gen golden t && printf '\000\000\000\000' |
		dd of=t_1 bs=1 seek=44 conv=notrunc 2> /dev/null; echo t; }
case_flush_len_max() {
	$gen -f v5 golden t && printf '\377\377\377\377' |
		dd of=t_1 bs=1 seek=394 conv=notrunc 2> /dev/null; echo t; }
# the last flush of t_1 loses its last 7 bytes: pdu_len runs past the end
case_truncated() {
	$gen golden t && head -c $(($(wc -c < t_1) - 7)) t_1 > x && mv x t_1
	echo t; }
# unframed: the file ends 3 bytes into a record
case_truncated_raw() {
	$gen -f none golden t && head -c $(($(wc -c < t_1) - 3)) t_1 > x &&
		mv x t_1; echo t; }
# garbage inside big flushes of CPU 1 (lket-gen bigflush): the records
# after it are read, the flushes are damaged, none of them lost; with
# format version 3 none of the records is missing either
case_bigflush() { $gen bigflush t; echo --stat t; }
case_bigflush_text() { $gen bigflush t; echo --to 0.00000006 t; }
case_bigflush_end() { $gen -p -e bigflush t; echo --stat t; }
# garbage only: nothing decodable in t_1
case_junk()     { $gen golden t && head -c 300 /dev/zero | tr '\0' 'J' > t_1; echo t; }

# a file without an LKET record in it is no trace: refused (exit 2),
# named, nothing written (lket.out stays as it was): a text file; bytes
# with what reads as a flush in them, of a record that neither metadata
# nor LKET's catalogue knows ([119:85]); as one of a trace's files (case
# junk), it is named and the others are converted
case_notrace_text() {
	echo old > lket.out && cksum lket.out > keep && printf 'not a trace\n' > notes
	echo notes; }
case_notrace_records() {
	echo old > lket.out && cksum lket.out > keep &&
		printf 'some text first\n\001\000\000\000\030\000\000\000KL\030\000\030\000\000\000\001\000\000\000\000\000\000\000\000\000\125\167\005\000\000\000' > x_0
	echo x_0; }

# JSON Lines and CSV; strings to escape, valid and invalid UTF-8
case_json()     { $gen golden t; echo -f json t; }
case_csv()      { $gen golden t; echo -f csv t; }
# without -o: lket.json, lket.csv, not lket.out
case_json_default() { $gen golden t && touch default-output; echo -f json --pid 4250 t; }
case_csv_default() { $gen golden t && touch default-output; echo -f csv --pid 4250 t; }
# a field name met twice in an event: JSON's keys numbered as the
# databases' columns (tid, tid_2, ...); the text and CSV as the metadata
case_json_dupnames() { $gen dbnames t; echo -f json --event dup.fields t; }
# the same names in JSON and SQLite: a name met again numbered alike in
# both (len, len_2, len_3), a common column's name with f_ in the
# database alone (f_tid, f_tid_2, ...)
case_json_sqlite_dupnames() { $gen dbnames t; echo -f json -d t.db --event 'dup.*' t; }
case_json_wall() { $gen golden t; echo -f json -t wall -i t; }
case_csv_rel()  { $gen golden t; echo -f csv -t rel -N t; }
case_strings()  { $gen strings t; echo t; }
case_json_strings() { $gen strings t; echo -f json t; }
case_csv_strings() { $gen strings t; echo -f csv t; }
# filters: the process map and lost flushes still work
case_filter_pid()   { $gen golden t; echo --pid 4242 t; }
case_filter_tid()   { $gen golden t; echo --tid 4243,4250 -f json t; }
case_filter_comm()  { $gen golden t; echo --comm 'work*' --comm true t; }
case_filter_cpu()   { $gen golden t; echo --cpu 1 t; }
case_filter_event() { $gen golden t; echo --event iosyscall,'process.f*',pagefault t; }
case_filter_rel()   { $gen golden t; echo --from 0.0000015 --to .0000025 t; }
case_filter_wall()  { $gen golden t; echo -t wall --from 2025-11-29T13:00:05.000002 --to 2025-11-29T13:00:05.000003Z -f csv t; }
case_filter_all()   { $gen golden t; echo --pid 4242 --cpu 0 --event 'syscall.*' --from 0.000001 t; }
# wall-clock times: with no trace header (t_1 alone) -t wall is refused
# as --from DATE is; an offset near 2^63 ns (year 2262) is a date, not a
# negative number; a time past 2^64 ns is reported, and one past 2^63
# ns for the databases: those rows are not stored, the others are
case_wall_noheader() { $gen golden t; echo -t wall t_1; }
case_wall_big()     { $gen -w 9223372035854775000 golden t; echo -t wall --event syscall t; }
case_wall_overflow() { $gen late t; echo -t wall t; }
case_sqlite_late()  { $gen late t; echo -f none -d t.db t; }
# one corrupt time stamp, at 2^63 + 1 ns (t_1's first record, its time
# at byte 16): lket.out and the database hold every other event, each
# says what it could not hold (exit 1)
case_sqlite_corrupt_ts() {
	$gen golden t && printf '\001\000\000\000\000\000\000\200' |
		dd of=t_1 bs=1 seek=16 conv=notrunc 2> /dev/null
	echo -d t.db t; }
case_filter_bad()   { $gen golden t; echo --from 13:00 t; }
case_filter_to_edge() { $gen golden t; echo --to 2025-11-29T13:00:05 t; }
# --stat: counts by type, CPU and process, the span, the lost flush; of
# the filtered events only; text only
case_stat()         { $gen golden t; echo --stat t; }
case_stat_filter()  { $gen golden t; echo --stat -t rel -i --pid 4242 t; }
case_stat_json()    { $gen golden t; echo --stat -f json t; }
# --delta: since the previous printed event; a gap's line has none
case_delta()        { $gen golden t; echo --delta t; }
case_delta_filter() { $gen golden t; echo --delta -t rel -C --cpu 1 t; }
# --where: field values; events without the field do not pass
case_where_string() { $gen golden t; echo --where 'syscall_name==get*' t; }
case_where_int()    { $gen golden t; echo --where 'data_length>=74' --where 'priority!=7' t; }
case_where_hex()    { $gen golden t; echo --where 'memory_address>0x7f0000000000' -f csv t; }
case_where_all()    { $gen golden t; echo --where flags==0x41 --where mode==420 --where 'filename==*quoted*' t; }
case_where_neg()    { $gen golden t; echo --where 'return<0' t; }
case_where_bad()    { $gen golden t; echo --where 'syscall_name<read' t; }
# SQLite: the tables, queried back
case_sqlite()   { $gen golden t; echo -f none -d t.db t; }
case_sqlite_strings() { $gen strings t; echo -f none -d t.db t; }
case_sqlite_exists() { $gen golden t && echo keep > t.db; echo -d t.db t; }
case_sqlite_replace() { $gen golden t && echo old > t.db; echo -f none --replace -d t.db --event syscall t; }
# a database cannot go to standard output: no file named -
case_sqlite_stdout() { $gen golden t; echo -f none -d - t; }
# nor over what is not a regular file (a FIFO here: a test that failed
# must not be able to replace a device of the machine)
case_sqlite_device() { $gen golden t && mkfifo pipe; echo -f none --replace -d pipe t; }
case_sqlite_unwritable() { $gen golden t; echo -d no/such/dir/t.db t; }
# latency reports on planted latencies
case_report()   { $gen latency t; echo -f none --report report t; }
case_report_pid() { $gen latency t; echo -f none --report report --pid 5002 t; }
# a report alone, as -d or --ctf alone, writes no lket.out (an old one
# stays as it was); --stat's summary alone goes to standard output
case_report_alone() {
	$gen latency t && touch default-output && echo old > lket.out &&
		cksum lket.out > keep; echo --report report --offcpu offcpu t; }
case_stat_alone() {
	$gen golden t && touch default-output && echo old > lket.out &&
		cksum lket.out > keep; echo --stat --cpu 1 t; }
case_report_sqlite() { $gen latency t; echo -f none -d t.db --report report t; }
# scheduling latency, wake-up to switch-in, per thread too: the latencies
# lket-gen planted (its "wakeups"): 6001 0.5 us x10, 6002 1..10 us, 6004
# (wakeup_new) 5 us; 6003 absorbs its wake-up while it runs; 6005 never
# runs (unmatched 1/0); the three new events in lket.out, and in the
# database's rows and latency table
case_sched_report() { $gen wakeups t; echo --report report t; }
case_sched_sqlite() { $gen wakeups t; echo -f none -d t.db --report report t; }
# a filter on one thread: the wake-ups and switches it leaves out are no
# damage (no "ends 0 ns before it began", exit 0); the thread's own
# latencies, 1 to 10 us, though its wake-ups are 6001's records and its
# switches in the idle task's (not 6001's 0.5 us, which 6002 woke); the
# same for its sleeps and its CPU time (146 us, as unfiltered)
case_sched_report_tid() { $gen wakeups t; echo -f none --report report --tid 6002 t; }
# cat switches sh in as it exits: sh's sleep is sh's, not cat's
case_offcpu_comm() { $gen exits t; echo -f none --offcpu offcpu --comm cat t; }
case_stat_tid() { $gen wakeups t; echo --stat --tid 6002 t; }
case_stat_pid() { $gen wakeups t; echo --stat --pid 6000 t; }
# a filter on the records, not the threads: a run counts when its
# switch in or out passed (CPU 1's runs)
case_stat_cpu() { $gen wakeups t; echo --stat --cpu 1 t; }
# off-CPU time of the same trace: 6001 asleep 19.9 us x10 and 6002
# 79.9 us x9, each woken by the other (pong); 6003 preempted, never
# asleep; the last sleeps never end and are left out
case_offcpu() { $gen wakeups t; echo -f none --offcpu offcpu --offcpu-folded folded t; }
# the critical path of 6001: its runs, and while it is blocked, 6002's
# runnable and running time until it wakes 6001 (1970.990 us running,
# 1825.990 of them 6001's; 59.000 runnable, 5 of them 6001's: 6002 is
# runnable from its first wake-up, before its first switch in); a thread
# without switches; a thread ID that is none
case_critpath() { $gen wakeups t; echo -f none --critical-path 6001 --critical-path-out path t; }
# rcu_preempt woken by a timer's interrupt that hit ls: the descent ends
# there (not "blocked on ls"); woken then by a task the trace shows only
# from 10 us into that sleep: those 10 us are rcu_preempt's, blocked
case_critpath_irq() { $gen irqwake t; echo -f none --critical-path 8201 --critical-path-out path t; }
case_critpath_none() { $gen wakeups t; echo -f none --critical-path 7777 --critical-path-out path t; }
case_critpath_bad() { $gen wakeups t; echo -f none --critical-path 0 t; }
# tasks that exit: prev_state TASK_DEAD is 128 (not -128) in every
# output; the exit ends no analysis' view of the switch: sh's 9 us sleep
# until cat wakes it, and its switch in by the exiting cat; cat runs
# 10 us and then has no time (not 775 us running after its exit)
case_exits() { $gen exits t; echo --offcpu offcpu --critical-path 8101 --critical-path-out path t; }
case_exits_child() { $gen exits t; echo -f none --critical-path 8102 --critical-path-out path t; }
case_exits_json() { $gen exits t; echo -f json -d t.db t; }
case_exits_csv() { $gen exits t; echo -f csv --where prev_state==128 t; }
# --offcpu onto an input, or onto another output: refused, nothing written
case_clash_offcpu() { $gen wakeups t && cksum t_1 > keep; echo --offcpu t_1 t; }
case_clash_offcpu_folded() {
	$gen wakeups t; echo --offcpu offcpu --offcpu-folded offcpu t; }
# nothing pairs (no entry/return events); t_1 alone, without the
# trace's metadata, pairs by the catalogue's; a negative latency, in the
# report and the database's histogram: both clean under UBSan
case_report_none() { $gen -n 3 many t; echo -f none --report report t; }
case_report_catalogue() { $gen golden t; echo -f none --report report t_1; }
# known events under other IDs: tracked, flagged and reported by name
case_moved()    { $gen moved t; echo --report report t; }
# one group and the always-on task records: every thread named, also
# those born after the snapshot, renamed by exec and by prctl
case_tasks()    { $gen tasks t; echo t; }
case_tasks_json() { $gen tasks t; echo -f json --comm 'dd*' t; }
case_report_backwards() { $gen backwards t; echo -d t.db --report report t; }
# -o, --report and -d never destroy an input or an earlier output: a
# clash is refused before anything is written, a failed conversion leaves
# what was there (files listed in "keep" must not change)
case_clash_input() { $gen golden t && cksum t_0 t_1 > keep; echo -o t_0 t; }
case_clash_link() {
	$gen golden t && ln -s t_1 out && cksum t_0 t_1 > keep; echo -o out t; }
case_clash_hardlink() {
	$gen golden t && ln t_1 r && cksum t_0 t_1 > keep; echo --report r t; }
# standard input is the file it comes from
case_clash_stdin() { $gen golden t && mv t_0 stdin && cksum stdin t_1 > keep; echo -o stdin - t_1; }
case_clash_db_input() { $gen golden t && cksum t_0 t_1 > keep; echo -f none -d t_1 t; }
case_clash_rpc_input() {
	$gen -n 3 rpc t > truth && cksum t-server_0 > keep
	echo --rpc-report t-server_0 client=t-client server=t-server; }
case_clash_db()  { $gen golden t; echo -d t.db -o ./t.db t; }
case_clash_report() {
	$gen latency t && echo old > report && cksum report > keep
	echo -o report --report report t; }
case_clash_db_report() { $gen latency t; echo -f none -d t.db --report t.db t; }
# the pictures are outputs like the others: never over an input or
# another output; a bad --timechart-procs is refused
case_clash_timechart() {
	$gen golden t && cksum t_0 t_1 > keep; echo --timechart t_1 t; }
case_clash_histogram_link() {
	$gen latency t && ln -s t_0 h.svg && cksum t_0 t_1 > keep
	echo -f none --histogram h.svg t; }
case_clash_pictures() { $gen golden t; echo --timechart p.svg --histogram ./p.svg t; }
case_keep_timechart() {
	echo old > p.svg && cksum p.svg > keep; echo --timechart p.svg nosuch; }
case_timechart_procs() { $gen golden t; echo --timechart p.svg --timechart-procs 0 t; }
case_keep_nosuch() {
	echo old > lket.out && echo old > report && cksum lket.out report > keep
	echo --report report nosuch; }
case_keep_db()  {
	$gen golden t && echo old > lket.out && echo keep > t.db &&
		cksum lket.out > keep; echo -d t.db t; }
# --ctf DIR: a folder with other files in it, or a trace without
# --replace, is refused and stays as it was; so does lket.out
case_ctf_notempty() {
	$gen golden t && mkdir d && echo mine > d/notes && echo old > lket.out &&
		cksum d/notes lket.out > keep; echo -o lket.out --ctf d t; }
case_ctf_exists() {
	$gen golden t && mkdir d && echo '/* CTF 1.8 */' > d/metadata &&
		: > d/stream_0 && cksum d/metadata d/stream_0 > keep
	echo --ctf d/ t; }
# nor a folder that holds an input (--replace would remove it): the
# trace's own files (stream_N, a CTF trace's names), one beside an old
# export's metadata, reached through a link to the folder
case_ctf_input() {
	mkdir d && $gen golden d/stream && echo '/* CTF 1.8 */' > d/metadata &&
		cksum d/metadata d/stream_0 d/stream_1 > keep; echo --ctf d d/stream; }
case_ctf_replace_input() {
	mkdir d && $gen golden d/stream && cksum d/stream_0 d/stream_1 > keep
	echo --ctf d --replace d/stream; }
case_ctf_link_input() {
	mkdir d && $gen golden d/stream && ln -s d l &&
		cksum d/stream_0 d/stream_1 > keep; echo --replace --ctf l/ d/stream; }
case_ctf_nofolder() { $gen golden t; echo --ctf nosuch/d t; }
# no fixed buffer cuts a message: an output's failure naming a path of
# 600 bytes is said whole (it was cut at 511)
case_ctf_nofolder_long() {
	$gen golden t; echo --ctf "nosuch/$(printf '%0600d' 0)" t; }
case_replace_output() { $gen golden t && echo old > lket.out; echo --event process.fork t; }
# -q: nothing on standard error, lost flushes still exit 1
case_quiet()    { $gen golden t; echo -q --event process.fork t; }
# --version; a bad option is one line and a pointer to --help, named
# lket-b2a whatever the path it was run by
case_version()  { echo --version; }
case_badopt()   { $gen golden t; echo --x t; }
case_badopt_arg() { $gen golden t; echo t --pid; }
# Call stacks (lket_stack()'s ADDRS fields), symbolised from a debuginfo
# folder made here: the kernel and modules of stack-*.s (my_mod's file
# named with '-', other.ko of another build than the trace says), never
# the machine's own.  The same with and without debuginfo but for the
# frames (checked after the cases); a stack that runs past its record is
# shown raw, an address in no module and the mismatched build ID said once.
stack_debuginfo() {
	mkdir d && cc -nostdlib -static -no-pie -Wl,--build-id=none \
		-Wl,-Ttext=0xffffffff81000000 -Wl,-e,_stext \
		-o d/vmlinux "$here/stack-kernel.s" &&
		cc -c -o d/my-mod.ko "$here/stack-module.s" &&
		cp d/my-mod.ko d/other.ko
}
case_stacks()   { $gen stacks t && stack_debuginfo; echo --debuginfo d t; }
case_stacks_nodebug() { $gen stacks t; echo --debuginfo nothing-here t; }
case_stacks_raw() { $gen stacks t && stack_debuginfo; echo --no-symbols --debuginfo d t; }
case_stacks_json() { $gen stacks t && stack_debuginfo; echo -f json --debuginfo d t; }
case_stacks_csv() { $gen stacks t && stack_debuginfo; echo -f csv --debuginfo d t; }
case_stacks_sqlite() { $gen stacks t && stack_debuginfo; echo -f none -d t.db --debuginfo d t; }
case_stacks_swapped() { $gen -s stacks t && stack_debuginfo; echo --debuginfo d t; }
# Modules loaded while tracing: records mid-trace, for the events after
# them; the newest module where an address is
case_stacks_late() { $gen stackslate t && stack_debuginfo; echo --debuginfo d t; }

# Two hosts, an NFS client and its server (lket-gen rpc): one timeline,
# each line with its host; the server's clock runs 40 ppm fast and its
# header is 1.5 ms off.  rpc-check: no server receives a call before its
# client sent it, the offset found is within its uncertainty of the
# truth (lket-gen's), the drift within its range
case_hosts()    {
	$gen -n 40 rpc t > truth && touch rpc-check
	echo --rpc-report rpc client=t-client server=t-server; }
case_hosts_json() { $gen -n 3 rpc t > truth; echo -f json client=t-client server=t-server; }
case_hosts_csv() { $gen -n 3 rpc t > truth; echo -f csv -t rel server=t-server client=t-client; }
# no RPCs: the wall clocks; the same thread IDs on both, each named by
# its own host's processes; a host's lost flushes on its line
case_hosts_nopairs() { $gen golden a && $gen -s golden b; echo a=a b=b; }
case_hosts_folder() {
	mkdir c s && $gen -n 3 rpc t > truth && mv t-client_* c && mv t-server_* s
	echo --event 'sunrpc.svc*' server=s client=c; }
# what takes one trace for now, and labels missing
case_hosts_stat() { $gen -n 3 rpc t > truth; echo --stat client=t-client server=t-server; }
# one SQLite database of both hosts: a host column, a trace row each
case_hosts_sqlite() { $gen -n 3 rpc t > truth; echo -f none -d t.db client=t-client server=t-server; }
case_hosts_unlabelled() { $gen -n 3 rpc t > truth; echo client=t-client t-server; }
case_hosts_nofiles() { $gen -n 3 rpc t > truth; echo client=t-client server=nosuch; }
case_hosts_pipe() { $gen -n 3 rpc t > truth && mkfifo p; echo client=t-client server=p; }
# --host: a label as LABEL=TRACE takes; one trace's only
case_host_bad() { $gen golden t; echo -f none -d t.db --host a/b t; }
# a label with a character no label has; a device as input
case_host_label_bad() { $gen -n 3 rpc t > truth; echo 'my+host=t-client' b=t-server; }
case_input_device() { $gen golden t; echo /dev/zero t; }
case_host_labels() { $gen -n 3 rpc t > truth; echo -f none -d t.db --host x client=t-client server=t-server; }
# CPU 300 (format version 4): its records keep their hook and CPU
case_cpu300() { $gen -p -e -c 300 golden t && mv t_1 t_300; echo t; }
case_cpu300_json() { $gen -p -e -c 300 golden t && mv t_1 t_300; echo -f json -o lket.json t; }
case_cpu300_filter() { $gen -p -e -c 300 golden t && mv t_1 t_300; echo --stat --cpu 300 t; }
# outputs are private to their owner (0600, folders 0700) whatever the
# umask; a file replaced keeps its mode
case_modes() {
	echo "lket.out m.db c c/kernel c/kernel/metadata c/kernel/stream_0 tc.svg" > show-modes
	$gen golden t; echo -d m.db --ctf c --timechart tc.svg t; }
case_modes_kept() {
	touch lket.out && chmod 644 lket.out && echo lket.out > show-modes
	$gen golden t; echo t; }
case_rpc_report_one() { $gen golden t; echo --rpc-report rpc t; }
case_report_stdout() { $gen latency t; echo -o - --report - --event syscall.entry --pid 5001 t; }

# --perfetto FILE: Perfetto's protobuf trace of the run, decoded by protoc
# against the project's schema (b2a/output/perfetto/lket_perfetto.proto)
# and checked against the run's own events, written as JSON Lines beside
# it (tests/perfetto/pfcheck.py): each event where lket-b2a(1) says it
# goes, with its values, and nothing else; wake-up flows; the losses as
# markers and stats; then the RPC flows against --rpc-report, the
# critical path against --critical-path's, the stacks symbolised.  Damage
# and every kind of loss: dropped records, a lost flush, records missing
# at the end, a flight recording's, probe hits skipped.
case_perfetto() { $gen golden t; echo -f json --perfetto t.pftrace t; }
case_perfetto_filter() { $gen golden t; echo -f json --pid 4242 --perfetto t.pftrace t; }
case_perfetto_wakeups() {
	$gen wakeups t; echo -f json --perfetto t.pftrace --critical-path 6001 --critical-path-out path t; }
case_perfetto_tasks() { $gen tasks t; echo -f json --perfetto t.pftrace t; }
case_perfetto_latency() { $gen latency t; echo -f json --perfetto t.pftrace t; }
case_perfetto_strings() { $gen strings t; echo -f json --perfetto t.pftrace t; }
case_perfetto_timechart() { $gen -n 3000 timechart t; echo -f json --perfetto t.pftrace t; }
case_perfetto_stacks() {
	$gen stacks t && stack_debuginfo; echo -f json --debuginfo d --perfetto t.pftrace t; }
case_perfetto_hosts() {
	$gen -n 40 rpc t > truth; echo -f json --perfetto t.pftrace --rpc-report rpc client=t-client server=t-server; }
case_perfetto_drops() { $gen -p -e drops t; echo -f json --perfetto t.pftrace t; }
case_perfetto_end_gap() { end_gap; echo -f json --perfetto t.pftrace t; }
case_perfetto_flight() { end_gap -F; echo -f json --perfetto t.pftrace t; }
case_perfetto_skipped() { $gen -p -e -k 14 golden t; echo -f json --perfetto t.pftrace t; }
case_perfetto_garbage() {
	$gen golden t && head -c 40 t_1 > x && printf 'GARBG' >> x &&
		tail -c +41 t_1 >> x && mv x t_1; echo -f json --perfetto t.pftrace t; }
case_perfetto_junk() {
	$gen golden t && head -c 300 /dev/zero | tr '\0' 'J' > t_1
	echo -f json --perfetto t.pftrace t; }
case_perfetto_moved() { $gen moved t; echo -f json --perfetto t.pftrace t; }
# a wall-clock offset near 2^63 ns: no REALTIME past 2262 (nor an
# overflow under UBSan)
case_perfetto_wall_big() {
	$gen -w 9223372035854775000 golden t; echo -f json --perfetto t.pftrace t; }
# not over an input, nor two whole documents on standard output
case_clash_perfetto() {
	$gen golden t && cksum t_0 t_1 > keep; echo --perfetto t_1 t; }
case_clash_perfetto_stdout() { $gen golden t; echo --perfetto - --timechart - t; }

# The Perfetto trace decoded and checked against the run's JSON events.
perfetto_check() {
	if ! command -v protoc > /dev/null; then
		echo "protoc is missing (tools/install-deps)"
		return
	fi
	protoc -I"$here/../../b2a/output/perfetto" \
		--decode=lket.perfetto.Trace lket_perfetto.proto \
		< t.pftrace > t.pftrace.txt 2> protoc.err
	echo "protoc --decode: exit $?, $(grep -c . protoc.err) messages"
	set --
	[ -f rpc ] && set -- "$@" --rpc rpc
	[ -f path ] && set -- "$@" --path path
	python3 "$here/../perfetto/pfcheck.py" lket.out t.pftrace.txt \
		"$@" --stderr stderr
}

# Two hosts' lket.out and standard error against lket-gen rpc's truth.
rpc_check() {
	awk '
	$7 == "sunrpc.sched.execute.entry" {
		for (i = 8; i <= NF; i++) if ($i ~ /^xid=/) sent[substr($i, 5)] = NR; calls++ }
	$7 == "sunrpc.svc.process.entry" {
		for (i = 8; i <= NF; i++) if ($i ~ /^rq_xid=/) {
			x = substr($i, 8); got++
			if (x in sent) matched++
			if (x in sent && sent[x] > NR) early++ } }
	END { printf "%d calls, %d received, %d of them matched, %d received before sent\n",
		calls, got, matched, early + 0 }' lket.out
	awk -v truth="$(cat truth)" '
	/host server: offset .* at / {
		split(truth, t, " "); c0 = t[2]; s0 = t[3]; ppm = t[4]
		off = $5 + 0; unc = $8 + 0; at = $11; sub(/,$/, "", at)
		s = at * 1e9; tt = (s - s0) / (1 + ppm / 1e6)
		want = c0 + tt - s
		d = $14; lo = $15; hi = $17; sub(/^\(/, "", lo); sub(/\)/, "", hi)
		dt = -ppm / (1 + ppm / 1e6)
		printf "offset within the uncertainty of the truth: %s\n",
			(off - want <= unc && want - off <= unc) ? "yes" : "NO"
		printf "uncertainty under 100 us (one way takes 30 to 180 us): %s\n",
			unc < 100000 ? "yes" : "NO"
		printf "true drift within the range found: %s\n",
			(lo + 0 <= dt && dt <= hi + 0) ? "yes" : "NO" }' stderr
}

# A case that wrote "offline", the arguments of a conversion of the
# finished trace: lket.out against that conversion's, by the same
# lket-b2a ($bin), rather than its lines.  1: no such case.
offline_check() {
	[ -f offline ] || return 1
	# shellcheck disable=SC2046
	"$bin" -o offline.out $(cat offline) 2> /dev/null
	echo "--- lket.out against the offline conversion of $(cat offline) ($(wc -l < offline.out) lines)"
	if cmp -s offline.out lket.out; then
		echo "the same"
	else
		diff offline.out lket.out > offline.diff
		echo "differs: $(grep -c '^<' offline.diff) lines missing, $(grep -c '^>' offline.diff) lines more"
	fi
}

# What a case wrote besides lket.out.
extras() {
	for f in report rpc offcpu folded path lket.json lket.csv; do
		if [ -f $f ]; then echo "--- $f"; cat $f; fi
	done
	if [ -f t.db ] && command -v sqlite3 > /dev/null; then
		echo "--- t.db"
		if ! sqlite3 t.db "select count(*) from sqlite_master" > /dev/null 2>&1; then
			cat t.db
			return
		fi
		# the load's time is not known in advance: 1 when there
		cp t.db dump.db
		sqlite3 dump.db "update trace set load_ns = load_ns > 0"
		for tab in $(sqlite3 t.db "select name from sqlite_master where type = 'table' order by name"); do
			echo "-- $tab"
			sqlite3 -header -quote dump.db "select * from \"$tab\""
		done
		rm dump.db
		echo "-- events"
		sqlite3 -header t.db "select event, count(*) from events group by event order by event"
		echo "-- indexes"
		sqlite3 t.db "select name from sqlite_master where type = 'index' order by name"
	fi
	if [ -f keep ]; then
		echo "--- keep"
		# shellcheck disable=SC2046
		cksum $(awk '{ print $3 }' keep) | diff keep - && echo unchanged
	fi
	if [ -f show-modes ]; then
		echo "--- modes"
		# shellcheck disable=SC2046
		stat -c '%a %n' $(cat show-modes)
	fi
	if [ -e ./- ]; then echo "--- a file named -"; fi
	if [ -f rpc-check ]; then echo "--- rpc-check"; rpc_check; fi
	if [ -f t.pftrace ]; then echo "--- perfetto"; perfetto_check; fi
	ls | grep tmp- || true
}

# Every case_NAME() above, in the order defined; each must have its
# NAME.expect, and each .expect its case.
cases=${*:-$(sed -n 's/^case_\([a-z0-9_]*\)().*/\1/p' "$0")}
pass=0 fail=0
if [ $# = 0 ]; then
	for e in "$here"/*.expect; do
		c=$(basename "$e" .expect)
		case " $(echo $cases) " in
		*" $c "*) ;;
		*) fail=$((fail + 1)); echo "FAIL golden $c: $c.expect but no case_$c" ;;
		esac
	done
fi
bins="$build/lket-b2a $build/asan/lket-b2a"
[ -n "${LKET_B2A:-}" ] && bins=$LKET_B2A
# each binary's results in a folder of its own: BUILD's plain one in
# NAME/BUILD's name, the ASan one in NAME/asan, LKET_B2A's in NAME/given
label() {
	case $1 in
	"${LKET_B2A:-}") echo given ;;
	*) basename "$(dirname "$1")" ;;
	esac
}
for c in $cases; do
	for bin in $bins; do
		dir=$work/$c/$(label "$bin")
		rm -rf "$dir" && mkdir -p "$dir"
		(
			cd "$dir" || exit 1
			args=$(case_$c) || exit 1
			out="-o lket.out"
			[ -f default-output ] && out=
			in=/dev/null
			[ -e stdin ] && in=stdin
			# shellcheck disable=SC2086
			timeout 20 "$bin" $out $args < "$in" 2> stderr
			status=$?
			offline_check || cat lket.out 2> /dev/null
			extras
			echo "--- stderr"
			cat stderr
			echo "--- exit $status"
		) > "$dir/result" 2>&1
		if [ "${UPDATE:-}" = 1 ] && [ "$bin" = "$build/lket-b2a" ]; then
			cp "$dir/result" "$here/$c.expect"
		fi
		if diff -u "$here/$c.expect" "$dir/result" > "$dir/diff"; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL golden $c ($bin):"
			head -40 "$dir/diff"
		fi
	done
done
# A call stack decodes the same with and without debuginfo but for its
# frames: each frame a symbol or an address, as many of them
stack_shape() {
	sed '/^--- stderr$/,$d' "$1" | awk '{
		i = index($0, " stack=[")
		if (!i) { print; next }
		s = substr($0, i + 8)
		print substr($0, 1, i - 1) " stack=" (s == "]" ? 0 : split(s, f, ", ")) " frames"
	}'
}
case " $(echo $cases) " in
*" stacks "*" stacks_nodebug "*)
	for bin in $bins; do
		sub=$(label "$bin")
		stack_shape "$work/stacks_nodebug/$sub/result" > "$work/stacks.shape"
		if stack_shape "$work/stacks/$sub/result" | diff -u "$work/stacks.shape" -; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL golden: stacks and stacks_nodebug differ but for the frames ($bin)"
		fi
	done ;;
esac
echo "golden: $pass passed, $fail failed"
[ "$fail" = 0 ]
