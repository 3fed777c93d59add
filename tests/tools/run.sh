#!/bin/sh
# tools/lket-run-traced and tools/lket-stap on the host, with stand-ins
# for staprun, stap and modinfo (the real ones run in the guest:
# tests/transport/run.sh), and tools/lket-buildenv's runtime copy and
# kernel tree:
#  * a -p PIDFILE and a command argument holding quotes and $(...) reach
#    the root shell that runs them as one word each, never as code;
#  * the trace files are 0600 in a folder made 0700 whatever the umask,
#    and an old 0644 file written over is made private first; the same
#    for lket-stap's runs (-o PREFIX, and stpd_cpuN without it);
#  * root writes no trace file or pid file where another user could
#    plant a link (a folder, or one above it, of another user's or that
#    others may write, unless sticky; a link as the file), and loads or
#    runs no module, lket-rotate or stap cache another user could change;
#  * a runtime copy or kernel tree that another user may write is
#    refused, and a runtime copy changed since it was made is made again;
#  * --flight: staprun gets lket_flight=1; SIGUSR1 with no module says
#    so, and Ctrl-C reaches staprun (in the background) and leaves the
#    command to end;
#  * --rotate and lket-rotate (its ASan/UBSan build): files of at most
#    SIZE, the newest N of each CPU, 0600; lket-b2a reads what is left as
#    the whole trace's tail, each file alone as its part, nothing deleted
#    as the whole trace; a CPU never written leaves no file; bad input
#    and an earlier trace's files are refused;
#  * tools/lket-target picks the machine's Debian suite's kernel.
#  * install-deps dbg-filters keeps what runtime/debuginfo names.
#
#   tests/tools/run.sh BUILD        prints "tools: N passed, M failed"
set -u
build=$(cd "${1:?usage: run.sh BUILD}" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$build/tools
rm -rf "$work" && mkdir -p "$work/bin"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# modinfo: the module has LKET's relay drain
cat >"$work/bin/modinfo" <<'EOS'
#!/bin/sh
echo 1
EOS
# staprun -o OUT -c CMD MODULE: makes OUT_0 and OUT_1 as stapio does
# (0666 less the umask, an old file truncated), runs CMD with sh (stapio:
# wordexp(3) and execvp), ends when CMD sends it SIGINT
cat >"$work/bin/staprun" <<'EOS'
#!/bin/sh
# a flight recording: staprun.pl (below)
case " $* " in *" lket_flight=1 "*) exec perl "$0.pl" "$@" ;; esac
while [ $# -gt 1 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	-c) cmd=$2; shift 2 ;;
	-b) shift 2 ;;
	*) break ;;
	esac
done
# STAND_IN_TRACE=PREFIX: what stapio would write, PREFIX_N into OUT_N
for c in 0 1; do
	if [ -n "${STAND_IN_TRACE:-}" ]; then
		cat "${STAND_IN_TRACE}_$c" >"${out}_$c" || exit 1
	else
		: >"${out}_$c" || exit 1
	fi
done
trap 'exit 0' INT
eval "set -- $cmd"
"$@" &
while :; do sleep 0.1; done
EOS
# The same for a flight recording (lket-run-traced --flight), which runs
# staprun in the background, where sh ignores SIGINT: like stapio, this
# one sets its own handlers, and writes the signals it gets and its
# arguments to OUT.staprun.
cat >"$work/bin/staprun.pl" <<'EOS'
use strict;
my @args = @ARGV;
my ($out, $cmd);
while (@ARGV > 1) {
	my $a = shift @ARGV;
	if ($a eq '-o') { $out = shift @ARGV; }
	elsif ($a eq '-c') { $cmd = shift @ARGV; }
	elsif ($a eq '-b') { shift @ARGV; }
	else { unshift @ARGV, $a; last; }
}
for my $c (0, 1) { open(my $f, '>', "${out}_$c") or exit 1; close $f; }
open(my $log, '>>', "$out.staprun") or exit 1;
$log->autoflush(1);
print $log "args: @args\n";
sub caught { print $log "$_[0]\n"; exit 0 }
$SIG{INT} = $SIG{TERM} = \&caught;
my $pid = fork;
exit 1 unless defined $pid;
exec('/bin/sh', '-c', "exec $cmd") or exit 127 if $pid == 0;
select(undef, undef, undef, 0.1) while 1;
EOS
chmod +x "$work/bin/modinfo" "$work/bin/staprun"
: >"$work/m.ko"
run() { (cd "$work" && umask 022 && PATH=$work/bin:$PATH timeout 20 "$top/tools/lket-run-traced" "$@"); }

# a pid file and an argument that are code to a careless shell
# (the commands would run in $work, where both run)
pidfile="$work/p \$(touch pwned); touch pwned2"
arg="it's \$(touch pwned3) \`touch pwned4\`"
run -o "$work/new/t" -p "$pidfile" m.ko -- sh -c 'printf "%s" "$1" > "$2"' sh "$arg" "$work/arg" >"$work/out" 2>&1
rc=$?
[ $rc = 0 ] && ok "lket-run-traced ran the command (status 0)" || bad "lket-run-traced: status $rc: $(cat "$work/out")"
if ls "$work"/pwned* >/dev/null 2>&1; then
	bad "a pid file or argument ran as code: $(ls "$work"/pwned*)"
else
	ok "no pid file or argument ran as code"
fi
[ -s "$pidfile" ] && ok "the pid file is where -p named it" || bad "no pid file named $pidfile"
[ "$(cat "$work/arg" 2>/dev/null)" = "$arg" ] && ok "the argument reached the command whole" ||
	bad "the argument reached the command as '$(cat "$work/arg" 2>/dev/null)'"
modes=$(stat -c '%a' "$work/new" "$work/new/t_0" "$work/new/t_1" 2>&1 | tr '\n' ' ')
[ "$modes" = "700 600 600 " ] && ok "new folder 0700, trace files 0600 under umask 022" ||
	bad "modes of the new folder and files: $modes (want 700 600 600)"

# an old trace written over
mkdir -p "$work/old" && : >"$work/old/t_1" && chmod 644 "$work/old/t_1"
run -o "$work/old/t" m.ko -- true >"$work/out" 2>&1 || bad "lket-run-traced over an old trace: $(cat "$work/out")"
modes=$(stat -c '%a' "$work/old/t_0" "$work/old/t_1" 2>&1 | tr '\n' ' ')
[ "$modes" = "600 600 " ] && ok "an old 0644 trace file written over is 0600" ||
	bad "modes after writing over an old trace: $modes (want 600 600)"

# Root writes where no other user can plant a link for it to follow, and
# runs nothing another user may replace (tools/lket-owner-checks.sh).
# victim: what a planted link points to; it must stay as it is
mkdir -p "$work/safe" && printf 'secret\n' >"$work/safe/victim" && chmod 640 "$work/safe/victim"
victim_same() { [ "$(stat -c %a "$work/safe/victim")/$(cat "$work/safe/victim")" = "640/secret" ]; }
# refused WHAT FOLDER ARGS...: lket-run-traced ARGS is refused, says
# so naming FOLDER, writes nothing there but what was there, runs nothing
refused() {
	rf_what=$1 rf_dir=$2
	shift 2
	rf_before=$(ls -A "$rf_dir" 2>/dev/null | tr '\n' ' ')
	rm -f "$work/ran"
	if run "$@" -- touch "$work/ran" >"$work/out" 2>&1; then
		bad "$rf_what: lket-run-traced ran"
	elif [ -e "$work/ran" ] || [ "$(ls -A "$rf_dir" 2>/dev/null | tr '\n' ' ')" != "$rf_before" ]; then
		bad "$rf_what: refused, but the command ran or files were written: $(ls -A "$rf_dir" | tr '\n' ' ')"
	elif ! victim_same; then
		bad "$rf_what: the file a link points to was changed: $(stat -c %a "$work/safe/victim") $(cat "$work/safe/victim")"
	elif grep -q "$rf_dir" "$work/out"; then
		ok "$rf_what: refused ($(cat "$work/out"))"
	else
		bad "$rf_what: refused without naming $rf_dir: $(cat "$work/out")"
	fi
}
mkdir -p "$work/ww" && chmod 777 "$work/ww"
refused "-o in a folder anyone may write" "$work/ww" -o "$work/ww/t" m.ko
mkdir -p "$work/ww/sub"
refused "-o in a folder below one anyone may write" "$work/ww" -o "$work/ww/sub/t" m.ko
mkdir -p "$work/lnk" && ln -s "$work/safe/victim" "$work/lnk/t_1"
refused "-o over an old trace file that is a link" "$work/lnk" -o "$work/lnk/t" m.ko
refused "-p in a folder anyone may write" "$work/ww" -p "$work/ww/pid" -o "$work/safe/t" m.ko
ln -s "$work/safe/victim" "$work/lnk/pid"
refused "-p naming a link" "$work/lnk" -p "$work/lnk/pid" -o "$work/safe/t" m.ko
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$work/theirs" && chown nobody "$work/theirs"
	refused "-o in another user's folder" "$work/theirs" -o "$work/theirs/t" m.ko
else
	bad "not root: another user's folder not tried"
fi
cp "$work/m.ko" "$work/ww/m.ko"
refused "a module in a folder anyone may write" "$work/ww" -o "$work/safe/t" "$work/ww/m.ko"
cp "$work/m.ko" "$work/safe/w.ko" && chmod 666 "$work/safe/w.ko"
refused "a module anyone may write" "$work/safe/w.ko" -o "$work/safe/t" "$work/safe/w.ko"
# a sticky folder anyone may write (as /tmp): no one else can rename or
# remove the files written there
mkdir -p "$work/sticky" && chmod 1777 "$work/sticky"
run -o "$work/sticky/t" -p "$work/sticky/pid" m.ko -- true >"$work/out" 2>&1 &&
	[ "$(stat -c %a "$work/sticky/t_0" "$work/sticky/pid" | tr '\n' ' ')" = "600 600 " ] &&
	ok "-o and -p in a sticky folder anyone may write: files 0600" ||
	bad "-o and -p in a sticky folder: $(cat "$work/out")"

# lket-stap's runs (pass 5) write the trace as lket-run-traced does:
# 0600 whatever the umask, an old file private first, where no other
# user can plant a link; stap's cache another user may write is refused.
# The stand-in stap writes OUT_0 and OUT_1 (stpd_cpu0, stpd_cpu1 without
# -o) as staprun does: 0666 less the umask, an old file truncated
# -p4 -m NAME writes NAME.ko as stap does (a temporary file renamed,
# 0666 less the umask).  STAND_IN_CLEARS=FILE: while FILE counts above
# 0, a -p4 -m run first clears its umask as SystemTap 5.1's create_dir()
# does, making a cache folder 0777 and a module in it 0666 (counted down)
cat >"$work/bin/stap" <<'EOS'
#!/bin/sh
out= pass=5 mod=
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	-p) pass=$2; shift 2 ;;
	-m) mod=$2; shift 2 ;;
	-[IrRecB]) shift 2 ;;
	*) shift ;;
	esac
done
if [ "$pass" = 4 ] && [ -n "$mod" ] && [ "$mod" != lket_warm ]; then
	echo "$mod" >>"$STAND_IN_LOG"
	n=$(cat "$STAND_IN_CLEARS" 2>/dev/null || echo 0)
	if [ "$n" -gt 0 ]; then
		echo $((n - 1)) >"$STAND_IN_CLEARS"
		umask 0
		mkdir -p "$SYSTEMTAP_DIR/cache/ab/q" && echo cached >"$SYSTEMTAP_DIR/cache/ab/q/$mod.ko"
	fi
	echo module >"$mod.ko.tmp" && mv "$mod.ko.tmp" "$mod.ko"
	exit
fi
[ "$pass" = 5 ] || exit 0
for c in 0 1; do
	echo trace >"${out:-stpd_cpu}${out:+_}$c" || exit 1
done
EOS
chmod +x "$work/bin/stap"
mkdir -p "$work/rt" "$work/kt"
lstap() { (cd "$1" && shift && umask 022 && PATH=$work/bin:$PATH SYSTEMTAP_DIR=$work/stapdir \
	timeout 20 "$top/tools/lket-stap" -r "$work/kt" -R "$work/rt" "$@" -e 'probe begin { exit() }'); }
mkdir -p "$work/ls/old" && : >"$work/ls/old/trace_1" && chmod 644 "$work/ls/old/trace_1"
lstap "$work/ls" -o trace >"$work/out" 2>&1 || bad "lket-stap -o trace: $(cat "$work/out")"
lstap "$work/ls/old" -o trace >>"$work/out" 2>&1 || bad "lket-stap -o trace over an old trace: $(cat "$work/out")"
lstap "$work/ls" >>"$work/out" 2>&1 || bad "lket-stap without -o: $(cat "$work/out")"
modes=$(cd "$work/ls" && stat -c %a trace_0 trace_1 old/trace_0 old/trace_1 stpd_cpu0 stpd_cpu1 2>&1 | tr '\n' ' ')
[ "$modes" = "600 600 600 600 600 600 " ] &&
	ok "lket-stap runs under umask 022: -o trace's files, an old 0644 one written over, and stpd_cpuN, all 0600" ||
	bad "lket-stap runs: modes of trace_0 trace_1 old/trace_0 old/trace_1 stpd_cpu0 stpd_cpu1: $modes (want all 600)"
lstap "$work/ls" -o "$work/ww/trace" >"$work/out" 2>&1 && bad "lket-stap -o in a folder anyone may write: ran" ||
	{ [ ! -e "$work/ww/trace_0" ] && grep -q "$work/ww" "$work/out" &&
		ok "lket-stap -o in a folder anyone may write: refused ($(cat "$work/out"))" ||
		bad "lket-stap -o in a folder anyone may write: $(cat "$work/out")"; }
lstap "$work/lnk" -o t >"$work/out" 2>&1 && bad "lket-stap -o over a link: ran" ||
	{ victim_same && grep -q "./t_1: not a plain file" "$work/out" &&
		ok "lket-stap -o over an old trace file that is a link: refused, the file it points to unchanged" ||
		bad "lket-stap -o over a link: $(cat "$work/out")"; }
# stap's cache: made private (0700) by lket-stap, so that what stap
# writes inside, 0777 and 0666 once it has cleared its umask, no other
# user can reach; one that is not, with a folder anyone may write in it
# (an older lket-stap's, or made by hand), is refused
[ "$(stat -c %a "$work/stapdir")" = 700 ] && ok "lket-stap made stap's cache private (0700)" ||
	bad "stap's cache: mode $(stat -c %a "$work/stapdir") (want 700)"
mkdir -p "$work/stapdir/cache/77" && chmod 777 "$work/stapdir/cache/77"
if lstap "$work/ls" -o trace2 >"$work/out" 2>&1 &&
   [ "$(stat -c %a "$work/ls/trace2_0")" = 600 ]; then
	ok "lket-stap with a folder anyone may write inside its private cache: ran"
else
	bad "lket-stap with a 0777 folder inside its private cache: $(cat "$work/out")"
fi
[ "$(stat -c %a "$work/stapdir/cache/77")" = 755 ] &&
	ok "lket-stap made what stap wrote in its cache its owner's alone (0777 -> 0755)" ||
	bad "a 0777 folder in stap's cache is $(stat -c %a "$work/stapdir/cache/77") after a run"
chmod 755 "$work/stapdir" && chmod 777 "$work/stapdir/cache/77"
lstap "$work/ls" -o trace3 >"$work/out" 2>&1 && bad "lket-stap with a cache anyone may write: ran" ||
	{ [ ! -e "$work/ls/trace3_0" ] && grep -q "$work/stapdir/cache/77 is writable" "$work/out" &&
		ok "lket-stap with a stap cache (0755) anyone may write in: refused ($(cat "$work/out"))" ||
		bad "lket-stap with a cache anyone may write: $(cat "$work/out")"; }
rm -rf "$work/stapdir"
# -p4 -m NAME: a module stap wrote 0666 (its umask cleared) is built
# again, and the second, 0644, replaces it; written 0666 twice, none
mkdir -p "$work/lm"
export STAND_IN_LOG="$work/lm/runs" STAND_IN_CLEARS="$work/lm/clears"
echo 1 >"$STAND_IN_CLEARS"
lstap "$work/lm" -p4 -m lket_x >"$work/out" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(stat -c %a "$work/lm/lket_x.ko" 2>&1)" = 644 ] &&
	[ "$(wc -l <"$STAND_IN_LOG")" = 2 ] && grep -q "building it again" "$work/out" &&
	ok "-p4 -m: a module written 0666 (stap's umask cleared) built again, 0644" ||
	bad "-p4 -m with a cleared umask: status $rc, lket_x.ko $(stat -c %a "$work/lm/lket_x.ko" 2>&1), $(wc -l <"$STAND_IN_LOG") stap runs: $(cat "$work/out")"
modes=$(stat -c %a "$work/stapdir/cache/ab/q" "$work/stapdir/cache/ab/q/lket_x.ko" 2>&1 | tr '\n' ' ')
[ "$modes" = "755 644 " ] &&
	ok "-p4 -m: what stap wrote 0777 and 0666 in its cache made 0755 and 0644" ||
	bad "-p4 -m: the cache's folder and module: $modes (want 755 644)"
echo 2 >"$STAND_IN_CLEARS"
lstap "$work/lm" -p4 -m lket_x >"$work/out" 2>&1 && bad "-p4 -m with a module written 0666 twice: status 0" ||
	{ [ ! -e "$work/lm/lket_x.ko" ] && grep -q "lket_x.ko mode 0666 again: removed" "$work/out" &&
		ok "-p4 -m: a module written 0666 twice is removed, and the run fails" ||
		bad "-p4 -m with a module written 0666 twice: $(ls -l "$work/lm" | tr '\n' ' ') $(cat "$work/out")"; }
unset STAND_IN_LOG STAND_IN_CLEARS

# --flight: staprun gets the buffer size and lket_flight=1; SIGUSR1 with
# no module loaded says so and the run goes on; SIGINT (Ctrl-C) goes on
# to staprun, and lket-run-traced waits for the command, which a
# snapshot does not end, and exits with its status
mkdir -p "$work/fl"
(cd "$work" && umask 022 && PATH=$work/bin:$PATH exec timeout 20 \
	"$top/tools/lket-run-traced" --flight 3 -o "$work/fl/t" m.ko -- \
	sh -c 'sleep 2; echo done >"$1"' sh "$work/fl/cmd") >"$work/out" 2>&1 &
fp=$!
i=0
while [ ! -s "$work/fl/t.staprun" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.3
# the timeout's child: lket-run-traced itself
rt=$(pgrep -P $fp -f lket-run-traced)
kill -USR1 "$rt"; sleep 0.3
kill -INT "$rt"
wait $fp
rc=$?
fl=$(cat "$work/fl/t.staprun" 2>/dev/null | tr '\n' '|')
case $fl in
"args: -b 3 -o $work/fl/t -c "*" m.ko lket_flight=1|INT|") ok "--flight: staprun -b 3 ... lket_flight=1, and Ctrl-C passed on to it" ;;
*) bad "--flight: staprun got: $fl" ;;
esac
[ "$(cat "$work/out")" = "lket-run-traced: no snapshot: /proc/systemtap/m/lket_snapshot cannot be written" ] &&
	ok "--flight: SIGUSR1 with no module loaded: no snapshot, said" ||
	bad "--flight: SIGUSR1: $(cat "$work/out")"
[ $rc = 0 ] && [ "$(cat "$work/fl/cmd" 2>/dev/null)" = done ] &&
	ok "--flight: after Ctrl-C, the command ran to its end, status 0" ||
	bad "--flight: status $rc, the command wrote '$(cat "$work/fl/cmd" 2>/dev/null)': $(cat "$work/out")"

# lket-rotate on a generated trace (flushes of a record each, as the
# runtime writes them): files of 128 KiB, the newest 3 of each CPU
rot=$build/asan/lket-rotate
b2a=$build/lket-b2a
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1
rw=$work/rot
mkdir -p "$rw" && (cd "$rw" && "$build/lket-gen" -p -e -n 20000 timechart t >/dev/null &&
	"$b2a" -q -o full.out t)
# one CPU's lines of a lket.out
cpu_lines() { awk -v c="$2" '$2 == c' "$1"; }
# is file $1 (one CPU's lines) a run of consecutive lines of $2?
is_run() {
	n=$(grep -n -F -x -m 1 "$(head -n 1 "$1")" "$2" | cut -d: -f1)
	[ -n "$n" ] && [ -s "$1" ] &&
		tail -n +"$n" "$2" | head -n "$(wc -l <"$1")" | cmp -s - "$1"
}
if (cd "$rw" && "$rot" -s 131072 -n 3 -o r t_0 t_1 2>rot.err); then
	ok "lket-rotate: 20000 events into files of 128 KiB"
else
	bad "lket-rotate: status $?: $(cat "$rw/rot.err")"
fi
files=$(cd "$rw" && ls r_0.* r_1.* 2>/dev/null | tr '\n' ' ')
n0=$(ls "$rw"/r_0.* 2>/dev/null | wc -l) n1=$(ls "$rw"/r_1.* 2>/dev/null | wc -l)
big=$(find "$rw" -name 'r_*' -size +131072c | wc -l)
modes=$(stat -c %a "$rw"/r_* | sort -u | tr '\n' ' ')
[ "$n0/$n1/$big/$modes" = "3/3/0/600 " ] &&
	ok "lket-rotate: 3 files a CPU kept, none over 128 KiB, mode 0600: $files" ||
	bad "lket-rotate: files $files (CPU 0: $n0, CPU 1: $n1; $big over 128 KiB; modes $modes)"
(cd "$rw" && "$b2a" -o rot.out r 2>rot.b2a)
rc=$?
same=yes
for c in 0 1; do
	cpu_lines "$rw/rot.out" $c >"$rw/rot.$c"
	cpu_lines "$rw/full.out" $c | tail -n "$(wc -l <"$rw/rot.$c")" >"$rw/tail.$c"
	[ -s "$rw/rot.$c" ] && cmp -s "$rw/rot.$c" "$rw/tail.$c" || same="no (CPU $c)"
done
[ $rc = 0 ] && [ "$same" = yes ] && grep -q "before this one, r_0.0 to r_0" "$rw/rot.b2a" &&
	ok "lket-b2a r: each CPU's lines are the whole trace's last ($(wc -l <"$rw/rot.out") lines), the deleted files named" ||
	bad "lket-b2a r: status $rc, the whole trace's tail: $same; $(cat "$rw/rot.b2a")"
alone=0 wrong=
for f in "$rw"/r_*; do
	c=$(basename "$f" | sed 's/^r_\([0-9]*\)\..*/\1/')
	"$b2a" -q -o "$rw/alone.out" "$f" 2>"$rw/alone.err" || wrong="$wrong $(basename "$f") (status $?)"
	cpu_lines "$rw/alone.out" "$c" >"$rw/alone.c"
	cpu_lines "$rw/full.out" "$c" >"$rw/full.c"
	is_run "$rw/alone.c" "$rw/full.c" || wrong="$wrong $(basename "$f") (not the whole trace's lines)"
	alone=$((alone + 1))
done
[ -z "$wrong" ] && [ $alone = 6 ] &&
	ok "lket-b2a on each file alone: exit 0, its lines those of the whole trace, names and all ($alone files)" ||
	bad "lket-b2a on each file alone:$wrong"
# nothing deleted: the same lket.out as the trace's own files
rm -f "$rw"/r_* && (cd "$rw" && "$rot" -s 131072 -n 1000 -o r t_0 t_1 2>/dev/null &&
	"$b2a" -q -o all.out r) && cmp -s "$rw/all.out" "$rw/full.out" &&
	ok "lket-rotate, nothing deleted: lket-b2a's lket.out is the trace's own ($(ls "$rw"/r_* | wc -l) files)" ||
	bad "lket-rotate, nothing deleted: lket.out differs from the trace's own"
# FIFOs, as lket-run-traced hands them to stapio: CPU 2's never opened
# by a writer; the others' writers close when done; SIGTERM ends it.
# timeout --foreground passes the SIGTERM on alone: without it timeout
# sends a SIGCONT after it, which can discard the SIGSTOP of the ptrace
# attach LeakSanitizer makes as the ASan build exits, and the exit hangs
# (seen on a loaded machine: spinning, SIGTERM ignored).
rm -f "$rw"/r_* && mkfifo "$rw/in_0" "$rw/in_1" "$rw/in_2"
(cd "$rw" && exec timeout --foreground 20 "$rot" -s 131072 -n 1000 -o r in_0 in_1 in_2 2>fifo.err) &
rp=$!
cat "$rw/t_1" >"$rw/in_1" && cat "$rw/t_0" >"$rw/in_0"
sleep 0.5
kill -TERM $rp 2>/dev/null
wait $rp
rc=$?
(cd "$rw" && "$b2a" -q -o fifo.out r)
[ $rc = 0 ] && [ ! -e "$rw/r_2.0" ] && cmp -s "$rw/fifo.out" "$rw/full.out" &&
	ok "lket-rotate on FIFOs: SIGTERM ends it (status 0), the trace whole, no file for a CPU never written" ||
	bad "lket-rotate on FIFOs: status $rc, r_2.0: $(ls "$rw/r_2.0" 2>&1), $(cat "$rw/fifo.err")"
# a trace that is not LKET's binary records in flushes
rm -f "$rw"/r_* && printf 'syscall.entry write\n%.0s' $(seq 20) >"$rw/a_0"
if (cd "$rw" && "$rot" -s 131072 -n 2 -o r a_0 2>bad.err); then
	bad "lket-rotate took a text trace"
elif grep -q "a_0: not LKET's binary records" "$rw/bad.err" && cmp -s "$rw/a_0" "$rw/r_0.0"; then
	ok "lket-rotate refuses a text trace, naming it, its bytes kept in r_0.0: $(head -1 "$rw/bad.err")"
else
	bad "lket-rotate on a text trace: $(cat "$rw/bad.err")"
fi

# lket-run-traced --rotate: stapio's files are FIFOs lket-rotate reads
# (the stand-in writes the generated trace into them)
rm -rf "$work/rr" && mkdir -p "$work/rr"
run_rot() { (cd "$work" && umask 022 && PATH=$work/bin:$PATH STAND_IN_TRACE=$rw/t \
	LKET_ROTATE=$rot timeout 20 "$top/tools/lket-run-traced" "$@"); }
run_rot --rotate 1,2 -o "$work/rr/t" m.ko -- true >"$work/out" 2>&1
rc=$?
(cd "$work/rr" && "$b2a" -q -o rr.out t)
[ $rc = 0 ] && cmp -s "$work/rr/rr.out" "$rw/full.out" &&
	[ "$(stat -c %a "$work/rr"/t_* | sort -u)" = 600 ] &&
	ok "--rotate 1,2: the trace in files $(cd "$work/rr" && ls t_* | tr '\n' ' ')(0600), lket-b2a reads it whole" ||
	bad "--rotate 1,2: status $rc: $(cat "$work/out")"
run_rot --rotate 1,2 -o "$work/rr/t" m.ko -- true >"$work/out" 2>&1 &&
	bad "--rotate over an earlier trace's files ran" ||
	{ grep -q "t_0.0: an earlier trace's file" "$work/out" &&
		ok "--rotate over an earlier trace's files: refused, named" ||
		bad "--rotate over an earlier trace: $(cat "$work/out")"; }
for arg in 1 0,2 1,0 x,2 1,2,3 ,2; do
	run_rot --rotate "$arg" -o "$work/rr/u" m.ko -- true >"$work/out" 2>&1 ||
		grep -q "^lket-run-traced: --rotate $arg: MB,N" "$work/out" || break
	arg=
done
[ -z "$arg" ] && ok "--rotate with a bad MB,N (1, 0,2, 1,0, x,2, 1,2,3, ,2): refused" ||
	bad "--rotate $arg: $(cat "$work/out")"
run_rot --rotate 1,2 --flight 1 -o "$work/rr/u" m.ko -- true >"$work/out" 2>&1 &&
	bad "--rotate with --flight ran" ||
	ok "--rotate with --flight: refused ($(cat "$work/out"))"
# root runs lket-rotate: one another user may replace is refused
cp "$rot" "$work/ww/lket-rotate"
export LKET_ROTATE="$work/ww/lket-rotate"
refused "--rotate with an lket-rotate in a folder anyone may write" \
	"$work/ww" --rotate 1,2 -o "$work/rr/v" m.ko
cp "$rot" "$work/safe/lket-rotate" && chmod 777 "$work/safe/lket-rotate"
LKET_ROTATE=$work/safe/lket-rotate
refused "--rotate with an lket-rotate anyone may write" \
	"$work/safe/lket-rotate" --rotate 1,2 -o "$work/rr/v" m.ko
unset LKET_ROTATE

# lket-buildenv's runtime copy, for the default kernel's headers
rel=$("$top/tools/lket-target")
tree=/usr/src/linux-headers-$rel
if [ -f "$tree/Makefile" ] && [ -d /usr/share/systemtap/runtime ]; then
	benv() { "$top/tools/lket-buildenv" --runtime-only --kernel-tree "$tree" --release "$rel" --builddir "$work/benv" 2>"$work/benv.err"; }
	rt=$work/benv/stap-runtime
	if benv >/dev/null && [ -f "$rt/runtime.h" ]; then ok "lket-buildenv made the runtime copy"
	else bad "lket-buildenv: $(cat "$work/benv.err")"; fi
	echo '#error planted' >>"$rt/runtime.h"
	benv >/dev/null
	if grep -q planted "$rt/runtime.h"; then bad "a changed runtime copy was used as it was"
	else ok "a changed runtime copy is made again"; fi
	chmod g+w "$rt/print.c"
	if benv >/dev/null; then bad "a runtime copy others may write was used"
	elif grep -q "another user may write" "$work/benv.err"; then ok "a runtime copy others may write is refused"
	else bad "lket-buildenv: $(cat "$work/benv.err")"; fi
	chmod g-w "$rt/print.c"
	# the kernel tree modules are built from: the same
	kt=$work/benv/kernel/$rel
	benvk() { SYSTEMTAP_DIR=$work/benv/stap-cache "$top/tools/lket-buildenv" --release "$rel" \
		--builddir "$work/benv" 2>"$work/benv.err"; }
	if [ ! -f "/usr/lib/debug/boot/vmlinux-$rel" ]; then
		bad "no /usr/lib/debug/boot/vmlinux-$rel: tools/install-deps guest"
	elif benvk >/dev/null && [ -f "$kt/Makefile" ]; then
		ok "lket-buildenv made the kernel tree"
		for how in "chmod o+w $kt/Makefile" "chmod g+w $kt/include" "chown -h nobody $kt/vmlinux"; do
			[ "$(id -u)" = 0 ] || [ "${how#chown}" = "$how" ] || continue
			$how
			if benvk >/dev/null; then bad "a kernel tree changed by $how was used"
			elif grep -q "another user may write the kernel tree" "$work/benv.err"; then
				ok "a kernel tree after $how is refused"
			else bad "lket-buildenv after $how: $(cat "$work/benv.err")"; fi
			case $how in
			*Makefile) chmod o-w "$kt/Makefile" ;;
			*include) chmod g-w "$kt/include" ;;
			*) chown -h 0 "$kt/vmlinux" ;;
			esac
		done
	else
		bad "lket-buildenv (kernel tree): $(cat "$work/benv.err")"
	fi
else
	bad "no $tree or SystemTap runtime: tools/install-deps guest"
fi

# lket-target: the default kernel is the machine's Debian suite's first
# target (runtime/targets); LKET_KERNEL_RELEASE overrides it
osr() { printf 'VERSION_CODENAME=%s\n' "$1" >"$work/os-release"; }
for suite in bookworm trixie; do
	osr $suite
	want=$(awk -v s=$suite '!/^#/ && $2 == s { print $1; exit }' "$top/runtime/targets")
	got=$(LKET_OS_RELEASE=$work/os-release LKET_KERNEL_RELEASE= "$top/tools/lket-target")
	[ -n "$want" ] && [ "$got" = "$want" ] && ok "lket-target on $suite: $got" ||
		bad "lket-target on $suite: '$got', want '$want'"
	got=$(LKET_OS_RELEASE=$work/os-release "$top/tools/lket-target" --host-suite)
	[ "$got" = $suite ] && ok "lket-target --host-suite on $suite" ||
		bad "lket-target --host-suite on $suite: '$got'"
done
osr sid
got=$(LKET_OS_RELEASE=$work/os-release LKET_KERNEL_RELEASE= "$top/tools/lket-target")
first=$(awk '!/^#/ && NF { print $1; exit }' "$top/runtime/targets")
[ "$got" = "$first" ] && ok "lket-target on a suite without a target: the first, $got" ||
	bad "lket-target on sid: '$got', want '$first'"
got=$(LKET_OS_RELEASE=$work/os-release LKET_KERNEL_RELEASE=9.9-x "$top/tools/lket-target")
[ "$got" = 9.9-x ] && ok "lket-target: LKET_KERNEL_RELEASE first" || bad "lket-target with LKET_KERNEL_RELEASE: '$got'"

# --list: what make check tests; a target marked partial is not in it
all=$(awk '!/^#/ && NF { print $1 }' "$top/runtime/targets")
for r in $all; do
	part=$(awk -v r="$r" '$1 == r && $4 == "partial" { print "partial" }' "$top/runtime/targets")
	if "$top/tools/lket-target" --list | grep -qxF "$r"; then in=listed; else in=unlisted; fi
	case $part/$in in
	partial/unlisted|/listed) ok "lket-target --list: $r ${part:-whole}, $in" ;;
	*) bad "lket-target --list: $r ${part:-whole} but $in" ;;
	esac
done
# --all: every one, in the file's order (lket-buildenv's list of them)
[ "$("$top/tools/lket-target" --all)" = "$all" ] &&
	ok "lket-target --all: the $(echo "$all" | wc -l) targets of runtime/targets" ||
	bad "lket-target --all: '$("$top/tools/lket-target" --all | tr '\n' ' ')'"

# install-deps dbg-filters, as dpkg reads them (the last filter a path
# matches decides; * matches a /): the modules runtime/debuginfo names
# are written, vmlinux too, a driver nobody reads is not
filters=$("$top/tools/install-deps" dbg-filters) || bad "install-deps dbg-filters failed"
dpkg_writes() {
	dw=yes
	for f in $filters; do
		# shellcheck disable=SC2254 # the filter is a pattern
		case $1 in ${f#*=}) case $f in path-exclude=*) dw=no ;; *) dw=yes ;; esac ;; esac
	done
	echo $dw
}
kdbg=/usr/lib/debug/lib/modules/6.1.0-57-amd64/kernel
set -f
for m in $(awk '$1 == "probe" || $1 == "stack" { print $2 }' "$top/runtime/debuginfo") \
	drivers/virtio/virtio_ring.ko /usr/lib/debug/boot/vmlinux-6.1.0-57-amd64; do
	case $m in /*) p=$m ;; *) p=$kdbg/$m ;; esac
	[ "$(dpkg_writes "$p")" = yes ] && ok "dbg-filters: $m written" || bad "dbg-filters: $m not written"
done
for m in drivers/gpu/drm/amd/amdgpu/amdgpu.ko sound/core/snd.ko net/netfilter/nf_tables.ko; do
	[ "$(dpkg_writes "$kdbg/$m")" = no ] && ok "dbg-filters: $m left out" || bad "dbg-filters: $m written"
done
set +f

# lket-gen --help: its options and every scenario, on standard output,
# status 0; a bad option points to it, status 2
"$build/lket-gen" --help >"$work/gen.help" 2>"$work/gen.err"; rc=$?
kinds=$("$build/lket-gen" 2>&1 >/dev/null | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' | wc -l)
[ $rc = 0 ] && [ ! -s "$work/gen.err" ] && grep -q '^  -n EVENTS' "$work/gen.help" &&
	grep -q '^  rpc  ' "$work/gen.help" && [ "$kinds" -gt 20 ] &&
	ok "lket-gen --help: its options and $kinds scenarios, status 0" ||
	bad "lket-gen --help: status $rc, $(head -c 200 "$work/gen.err")"
"$build/lket-gen" -x golden "$work/x" >"$work/gen.out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "^Try 'lket-gen --help'" "$work/gen.out" &&
	ok "lket-gen -x: refused, pointing to --help" ||
	bad "lket-gen -x: status $rc, $(cat "$work/gen.out")"

# what was planted for root to refuse, gone: the build's files are the
# builder's alone (tests/owners)
rm -rf "$work/ww" "$work/theirs" "$work/safe" "$work/lnk" "$work/sticky"

echo "tools: $pass passed, $fail failed"
[ $fail = 0 ]
