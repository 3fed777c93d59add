#!/bin/sh
# guest [GROUP...]: trace tests/tapset/workload.c in the qemu guest, one
# module per group (default: the groups checked below), plus the
# user-data example and a text (-D ASCII_TRACE) trace, all in one boot;
# decode each binary trace with build/lket-b2a and check its lket.out
# lines.  77 = skipped (LKET_SKIP_GUEST=1).
. "$(dirname "$0")/lib.sh"

[ "${LKET_SKIP_GUEST:-}" = 1 ] && skip "LKET_SKIP_GUEST=1"
[ -x "$build/lket-b2a" ] || fail "$build/lket-b2a missing: run make"
groups=${*:-syscall process signal tskdispatch pagefault}
res=$work/res
mkdir -p "$res"
cd "$work"

# ---- host: the workload and the modules
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -static -o workload \
	"$top/tests/tapset/workload.c" || fail "cannot build the workload"
# The modules, built side by side (tests/stap-jobs.sh); checked below.
. "$top/tests/stap-jobs.sh"
mods=
# Each group's module also has the process hooks, as a user would: the
# workload starts after tracing has (tools/lket-run-traced's wrapper forks
# it), so only its fork and execve tell lket-b2a its pid and name.
syscall_mod=
for g in $groups; do
	[ "$g" = syscall ] && syscall_mod=yes
	hooks="addevent.$g"
	[ "$g" = process ] || hooks="$hooks, addevent.process"
	stap_job "$work" "lket_g_$g" -e "probe $hooks {}"
	mods="$mods $g"
done
# lket(5)'s user-data example, on a hook of these groups: two fields
# appended to every process.fork record.
cat >userdata.stp <<'STP'
probe register_event
{
	register_user_event(GROUP_PROCESS, HOOKID_PROCESS_FORK,
			    "INT32:STRING", "prio:parent_comm")
}
probe addevent.process.fork
{
	printf("%4b%0s", $child->prio, kernel_string($parent->comm))
}
STP
stap_job "$work" lket_g_userdata userdata.stp
mods="$mods userdata"
# The tapset's function that takes a kernel pointer, given bad ones: no
# oops (the guest's log fails the test), no fault.
cat >guard.stp <<'STP'
probe begin
{
	_lket_module_loaded(4096)
	_lket_module_loaded(-1)
}
probe addevent.syscall, addevent.process {}
STP
stap_job "$work" lket_g_guard guard.stp
mods="$mods guard"
# User data on every syscall.entry of a workload that makes 20000 more
# calls: records with what the probe body appended fill sub-buffers, and
# some must move to the next one whole.  The body reads the hook's
# syscall_name and syscall_nr, which the record's writer does not need
# (it looks the name up itself: LKET_LOOKUP in the catalogue).
cat >uservol.stp <<'STP'
probe register_event
{
	register_user_event(GROUP_SYSCALL, HOOKID_SYSCALL_ENTRY,
			    "INT32:STRING:STRING:INT32", "caller:pad:name:nr")
}
probe addevent.syscall.entry
{
	printf("%4b%0s%0s%4b", tid(), "0123456789abcdef0123456789abcdef01234567",
	       syscall_name, syscall_nr)
}
probe addevent.process {}
STP
stap_job "$work" lket_g_uservol uservol.stp
mods="$mods uservol"
stap_job "$work" lket_g_ascii -D ASCII_TRACE -e 'probe addevent.process {}'
mods="$mods ascii"
for m in $mods; do
	stap_wait "$work" "lket_g_$m" ||
		{ cat "lket_g_$m.stap.err" >&2; fail "cannot build the $m module"; }
done

# ---- guest: one tools/lket-run-traced per module; the consumer's
# (stapio's) pid is kept to check that it traced nothing of itself.  Traces go to the guest's tmpfs
# and are copied out afterwards: writes to the 9p results share are slow
# enough under emulation to stall stapio's readers.
{
	echo 'set -u'
	echo "cd '$work'"
	echo 'mkdir -p /run/lket'
	for m in $mods; do
		echo "'$top/tools/lket-run-traced' -o '/run/lket/$m' -p '$res/$m.consumer' lket_g_$m.ko -- ./workload $m >'$res/$m.stdout' 2>'$res/$m.stderr' || echo 'staprun $m: status '\$?"
		echo "cp /run/lket/$m* '$res/' && rm -f /run/lket/$m*"
	done
	# CPU 1 offline when tracing starts, onlined meanwhile: the hits there
	# have no SystemTap context and are skipped, counted; the trace goes on
	if [ -n "$syscall_mod" ]; then
		echo "echo 0 >/sys/devices/system/cpu/cpu1/online || echo 'hotplug: cpu 1 stays online'"
		echo "'$top/tools/lket-run-traced' -o /run/lket/hotplug lket_g_syscall.ko -- sh -c 'echo 1 >/sys/devices/system/cpu/cpu1/online && taskset -c 1 ./workload uservol && taskset -c 0 ./workload hotplug' >'$res/hotplug.stdout' 2>'$res/hotplug.stderr' || echo 'staprun hotplug: status '\$?"
		echo "cp /run/lket/hotplug* '$res/' && rm -f /run/lket/hotplug*"
	fi
} >job.sh
rc=0
"$top/tests/vm/lket-vm" run --timeout "${LKET_VM_TIMEOUT:-600}" --results "$res" \
	--script job.sh >guest.out 2>&1 || rc=$?
[ $rc = 0 ] || { tail -n 30 guest.out >&2; fail "guest job failed (status $rc)"; }
if grep 'status' guest.out >&2; then fail "staprun failed"; fi

# ---- host: decode and check
status=0
check() {	# check MODULE DESCRIPTION EXTENDED-REGEXP [MIN]
	n=$(grep -cE "$3" "$1.out" || true)
	if [ "$n" -lt "${4:-1}" ]; then
		echo "$name: $1: missing $2: /$3/ ($n lines)" >&2
		status=1
	fi
}
for m in $mods; do
	[ "$m" = ascii ] && continue
	b2a_rc=0
	"$build/lket-b2a" -o "$m.out" "$res/$m" 2>"$m.b2a.err" || b2a_rc=$?
	if [ "$b2a_rc" != 0 ]; then
		cat "$m.b2a.err" >&2
		echo "$name: $m: lket-b2a status $b2a_rc" >&2
		status=1
	fi
	w=$(sed -n 's/^workload: pid \([0-9]*\) .*/\1/p' "$res/$m.stdout")
	[ -n "$w" ] || { echo "$name: $m: workload did not run" >&2; status=1; continue; }
	if grep 'LKET:' "$res/$m.stderr" >&2; then
		echo "$name: $m: the module warned" >&2
		status=1
	fi
	c=$(cat "$res/$m.consumer")
	# Nothing of the consumer (stapio), but the snapshot's own records
	# and its context switches; and the wake-ups and migrations of
	# interrupts that came while it ran (a timer's, the relay's wake-up of
	# its reader threads), whose record's task is the one interrupted
	if awk -v c="$c" '$6 != "process.snapshot" && $6 != "tskdispatch.ctxswitch" &&
			  $6 != "tskdispatch.wakeup" && $6 != "tskdispatch.migrate" &&
			  ($3 == c || $4 == c)' "$m.out" | grep -q .; then
		echo "$name: $m: events of the consumer (pid $c) were traced" >&2
		status=1
	fi
	W=" $w $w [^ ]+"
	case $m in
	syscall)
		check "$m" "openat entry" "$W syscall\.entry syscall_name=\"openat\""
		check "$m" "openat return" "$W syscall\.return syscall_name=\"openat\""
		check "$m" "unlink entry" "$W syscall\.entry syscall_name=\"unlink\""
		check "$m" "kill entry" "$W syscall\.entry syscall_name=\"kill\"" 3
		;;
	process|userdata)
		check "$m" "the snapshot of init" " process\.snapshot tid=1 pid=1 ppid=0 "
		kid=$(sed -n "s/.* $w $w [^ ]* process\.fork new_tid=\([0-9]*\) .*/\1/p" "$m.out" | head -n1)
		check "$m" "the fork" "$W process\.fork new_tid=$kid new_pid=$kid ppid=$w"
		[ "$m" = process ] && check "$m" "the child's execve" " $kid $kid [^ ]+ process\.execve pid=$kid new_process_name=\"[^\"]*/workload\""
		[ "$m" = userdata ] && check "$m" "user data" "$W process\.fork new_tid=$kid new_pid=$kid ppid=$w prio=120 parent_comm=\"[^\"]*\""
		;;
	uservol)
		pad='pad="0123456789abcdef0123456789abcdef01234567"'
		check "$m" "user data on every getppid, the body's syscall_name and syscall_nr the record's" "$W syscall\.entry syscall_name=\"getppid\" caller=$w $pad name=\"getppid\" nr=110\$" 20000
		if grep ' syscall\.entry ' "$m.out" | grep -v " $pad name=\"[a-z0-9_]*\" nr=[0-9]*\$" | grep -q .; then
			echo "$name: $m: a syscall.entry record without its user data" >&2
			status=1
		fi
		;;
	signal)
		# signal.flush: only kernel threads reach flush_signals() on
		# 6.1; tests/guest/nfs.sh checks it on lockd's thread
		check "$m" "kill" "$W signal\.syskill\.entry pid=$w sig=10" 2
		check "$m" "kill returns 0" "$W signal\.syskill\.return return=0" 2
		check "$m" "kill returns -ESRCH" "$W signal\.syskill\.return return=-3"
		check "$m" "tgkill" "$W signal\.systgkill\.entry tid=$w pid=$w sig=10"
		check "$m" "tgkill returns 0" "$W signal\.systgkill\.return return=0"
		check "$m" "tkill" "$W signal\.systkill\.entry pid=$w sig=10"
		check "$m" "tkill returns 0" "$W signal\.systkill\.return return=0"
		check "$m" "process-wide send" "$W signal\.send\.entry sig=10 shared=1 send2queue=0 pid=$w" 2
		check "$m" "thread send" "$W signal\.send\.entry sig=10 shared=0 send2queue=0 pid=$w" 2
		check "$m" "send returns" "$W signal\.send\.return return=0" 4
		check "$m" "sigaction" "$W signal\.do_action\.entry sig=10 handler=0x[1-9a-f]"
		check "$m" "sigaction returns" "$W signal\.do_action\.return return=0"
		check "$m" "SIG_BLOCK" "$W signal\.procmask\.entry how=0 sigset=0x200"
		check "$m" "SIG_UNBLOCK" "$W signal\.procmask\.entry how=1 sigset=0x200"
		check "$m" "procmask returns" "$W signal\.procmask\.return return=0" 2
		check "$m" "sigpending" "$W signal\.pending\.entry sigset_addr=[^ ]+ setsize=8"
		check "$m" "sigpending returns" "$W signal\.pending\.return return=0"
		;;
	tskdispatch)
		check "$m" "switch away from the workload" " tskdispatch\.ctxswitch prev_pid=$w next_pid=[0-9]+ prev_state=[0-9]+"
		check "$m" "switch to the workload" " tskdispatch\.ctxswitch prev_pid=[0-9]+ next_pid=$w prev_state=[0-9]+"
		check "$m" "idle" " 0 [^ ]+ [^ ]+ tskdispatch\.cpuidle current_pid=0"
		# the consumer's switches too: on each CPU, a switch's prev is
		# the previous switch's next (what lttng-cputop follows)
		awk -v c="$c" '$6 != "tskdispatch.ctxswitch" { next }
			{ prev = substr($7, 10); next_ = substr($8, 10) }
			$4 == c { consumer[prev] = 1 }
			($2 in last) && last[$2] != prev { broken++; if (!shown++) print "  " $0 " after next_pid=" last[$2] > "/dev/stderr" }
			{ last[$2] = next_; n++; to[next_] = 1 }
			END {
				for (t in consumer) if (t in to) tocons++
				printf "%d %d %d\n", n, broken, tocons
			}' "$m.out" >chain.txt
		read -r nsw broken tocons <chain.txt || true
		if [ "${broken:-1}" != 0 ] || [ "${tocons:-0}" = 0 ]; then
			echo "$name: $m: of ${nsw:-no} switches, ${broken:-?} do not start from the previous one's next task on their CPU; switches to the consumer's threads: ${tocons:-0}" >&2
			status=1
		fi
		;;
	pagefault)
		base=$(sed -n 's/^workload: pid [0-9]* pages 0x\([0-9a-f]*\)/\1/p' "$res/$m.stdout")
		i=0
		while [ $i -lt 16 ]; do
			a=$(printf '%x' $((0x$base + i * 4096)))
			check "$m" "the write fault on page $i" "$W pagefault memory_address=0x$a write_access=1"
			i=$((i + 1))
		done
		;;
	esac
done
# The text trace: lines "<ns> <cpu> <tid> <pid> <execname> <event> f=v..."
w=$(sed -n 's/^workload: pid \([0-9]*\) .*/\1/p' "$res/ascii.stdout")
cat "$res"/ascii_* >ascii.out 2>/dev/null || true
check ascii "text fork line" "^[0-9]+ [0-9]+ $w $w workload process\.fork new_tid=[0-9]+ new_pid=[0-9]+ ppid=$w\$"
check ascii "text snapshot line" "^[0-9]+ [0-9]+ [0-9]+ [0-9]+ [^ ]+ process\.snapshot tid=1 pid=1 ppid=0 process_name=\"[^\"]*\"\$"
# names escaped as in lket.out: the workload renamed itself
# 'wl<newline>forged "1\' and forked; no line of the text is anything but
# a record (the payloads of the frames: {u32 sequence; u32 length} each,
# behind a 4-byte magic from SystemTap 5.0)
python3 -c 'import struct, sys
MAGIC = b"\xf0\x9f\xa9\xba"
for name in sys.argv[1:]:
    b = open(name, "rb").read()
    h = 12 if b[:4] == MAGIC else 8
    o = 0
    while o + h <= len(b):
        n = struct.unpack_from("=I", b, o + h - 4)[0]
        sys.stdout.buffer.write(b[o + h:o + h + n])
        o += h + n' "$res"/ascii_* >ascii.txt || fail "cannot read the text trace's frames"
check ascii "the escaped execname of a fork" "^[0-9]+ [0-9]+ $w $w "'wl\\nforged\\x20\\"1\\\\ process\.fork '
record='^[0-9]+ [0-9]+ [0-9]+ [0-9]+ [^ ]+ [a-z_]+(\.[a-z0-9_]+)*( |$)'
if grep -qvE "$record" ascii.txt; then
	echo "$name: ascii: $(grep -cvE "$record" ascii.txt) lines that are no record:" >&2
	grep -vE "$record" ascii.txt | head -n 5 >&2
	status=1
fi

# the CPU onlined mid-trace: the run went on to its end (no "status"
# line above, no "Skipped too many probes"), the trace has its end, with
# the hits skipped there counted, and the second workload (on CPU 0) was
# traced after them
if [ -n "$syscall_mod" ]; then
	b2a_rc=0
	"$build/lket-b2a" -o hotplug.out "$res/hotplug" 2>hotplug.b2a.err || b2a_rc=$?
	skipped=$(sed -n 's/.*SystemTap skipped \([0-9]*\) probe hits.*/\1/p' hotplug.b2a.err)
	w2=$(sed -n 's/^workload: pid \([0-9]*\) .*/\1/p' "$res/hotplug.stdout" | tail -n 1)
	if [ "$b2a_rc" != 1 ] || grep -q 'has no end' hotplug.b2a.err ||
	   [ "${skipped:-0}" -le 100 ] || [ -z "$w2" ] ||
	   ! grep -qE " $w2 $w2 [^ ]+ syscall\.entry syscall_name=\"kill\"" hotplug.out; then
		echo "$name: hotplug: lket-b2a status $b2a_rc (want 1), ${skipped:-no} skipped hits in the trace's end (want over 100), second workload ${w2:-missing} traced?" >&2
		cat hotplug.b2a.err >&2
		status=1
	fi
	if grep -E 'ERROR|Skipped too many' "$res/hotplug.stderr" >&2; then
		echo "$name: hotplug: the run stopped" >&2
		status=1
	fi
fi

[ $status = 0 ] || fail "see above; traces in $work"
note "PASS ($mods)"
