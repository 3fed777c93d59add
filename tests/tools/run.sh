#!/bin/sh
# tools/lket-run-traced on the host, with stand-ins for staprun and
# modinfo (the real ones run in the guest: tests/transport/run.sh), and
# tools/lket-buildenv's runtime copy:
#  * a -p PIDFILE and a command argument holding quotes and $(...) reach
#    the root shell that runs them as one word each, never as code;
#  * the trace files are 0600 in a folder made 0700 whatever the umask,
#    and an old 0644 file written over is made private first;
#  * a runtime copy that another user may write is refused, and one
#    changed since it was made is made again;
#  * --flight: staprun gets lket_flight=1; SIGUSR1 with no module says
#    so, and Ctrl-C reaches staprun (in the background) and leaves the
#    command to end;
#  * tools/lket-target picks the machine's Debian suite's kernel.
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
for c in 0 1; do : >"${out}_$c" || exit 1; done
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

echo "tools: $pass passed, $fail failed"
[ $fail = 0 ]
