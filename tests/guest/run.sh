#!/bin/sh
# run.sh BUILD [--target REL "TESTS"]...: the guest tests.
#
# Tests by name: smoke (tests/vm/smoke.sh), transport
# (tests/transport/run.sh), core (tests/tapset/guest.sh: syscall,
# process, signal, tskdispatch, pagefault, user data, text mode) and each
# tests/guest/<name>.sh, multihost (an NFS client and its server in two
# guests at once) among them.
#
# Without --target: every test of one kernel, LKET_KERNEL_RELEASE's (else
# the default), in BUILD; LKET_GUEST_TESTS="core nfs ..." runs only
# these; stress in its short run (STRESS_SECONDS, default 60; make
# check-stress runs the long one).  Each --target adds the TESTS of
# another kernel, in BUILD/targets/REL with the build roots in
# BUILD/roots, as tests/prepare-targets makes them; its tests start once
# it is ready (tests/prepare-targets --start in the background).
#
# LKET_GUEST_JOBS tests run at once: by default one for every CPU.  A
# guest's two emulated CPUs take one host CPU (tests/vm/lket-vm: TCG
# runs them in one thread); a test's stap builds share the CPUs (tests/stap-jobs.sh); and a
# kernel's tracepoint queries are built once, not by two of its tests at
# once (tools/lket-stap, tests/prepare-targets).
# Each test's output is shown whole when it ends, and a table at the end
# has every test's passed/total per kernel.
# Exit 77 (skipped) only with LKET_SKIP_GUEST=1; any other failure fails.
set -u
build=$(cd "${1:?usage: run.sh BUILD [--target REL TESTS]...}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
if [ "${LKET_SKIP_GUEST:-}" = 1 ]; then
	echo "guest: skipped (LKET_SKIP_GUEST=1)"
	exit 77
fi
cpus=$(nproc 2>/dev/null || echo 1)
jobs=${LKET_GUEST_JOBS:-$cpus}
case $jobs in ''|*[!0-9]*|0) echo "guest: LKET_GUEST_JOBS=$jobs is not a count" >&2; exit 2 ;; esac

# The longest first, so that the last to end is a short one (seconds
# here, on 6.1 with TCG: stress 170, nfs 157, core 132, stack 110,
# multihost 100, loss 89, scsi 66...).  A test missing here runs last.
order="stress nfs core stack multihost loss scsi sched iosyscall transport ctf flight live"
order="$order ioscheduler smoke aio toctou netdev latemod"

script_of() {
	case $1 in
	smoke) echo "$top/tests/vm/smoke.sh" ;;
	transport) echo "$top/tests/transport/run.sh" ;;
	core) echo "$top/tests/tapset/guest.sh" ;;
	*) [ -f "$here/$1.sh" ] && echo "$here/$1.sh" ;;
	esac
}
all_tests() {
	echo smoke transport core
	for t in "$here"/*.sh; do
		t=${t##*/}
		case $t in run.sh|*-common.sh) ;; *) echo "${t%.sh}" ;; esac
	done
}
# in_order TESTS...: TESTS, the longest first
in_order() {
	for t in $order; do
		case " $* " in *" $t "*) echo "$t" ;; esac
	done
	for t; do
		case " $order " in *" $t "*) ;; *) echo "$t" ;; esac
	done
}

state=$build/guest-tests/run
rm -rf "$state" && mkdir -p "$state/logs"
queue=$state/queue
: >"$queue"
# queue REL BUILDDIR TESTS...: one line per test: REL BUILDDIR TEST
add() {
	rel=$1 dir=$2; shift 2
	for t in $(in_order "$@"); do
		if [ -z "$(script_of "$t")" ]; then
			echo "guest: no test named $t" >&2
			exit 2
		fi
		grep -qx "$rel $dir $t" "$queue" || echo "$rel $dir $t" >>"$queue"
	done
}
default_rel=$("$top/tools/lket-target") || exit 2
add "$default_rel" "$build" ${LKET_GUEST_TESTS:-$(all_tests)}
targets=$default_rel
while [ $# -gt 0 ]; do
	[ "$1" = --target ] && [ $# -ge 3 ] ||
		{ echo "usage: run.sh BUILD [--target REL TESTS]..." >&2; exit 2; }
	add "$2" "$build/targets/$2" $3
	targets="$targets $2"
	shift 3
done

# ready REL: 0 ready, 1 not yet, 2 never (its preparation failed)
ready() {
	[ "$1" = "$default_rel" ] && return 0
	[ -f "$build/targets/$1/prepared" ] && return 0
	[ -s "$build/targets/prepare.rc" ] && return 2
	[ -f "$build/targets/prepare.log" ] || return 2
	return 1
}

# ended LOG RC SECONDS: a test's end, the status last (the loop below
# takes LOG.rc as the sign that it ended)
ended() {
	echo "$3" >"$1.secs"
	echo "$2" >"$1.rc.tmp"
	mv "$1.rc.tmp" "$1.rc"
}

# start N REL DIR TEST: the test in the background; its name, log, exit
# status and seconds in $state/logs/N.*.  Another kernel's tests are told
# their kernel and the shared build roots; the default kernel's keep
# those of the environment (make check-target-all-REL sets them).
start() {
	n=$1 rel=$2 dir=$3 t=$4
	log=$state/logs/$n
	echo "$rel $t" >"$log.name"
	(
		s=$(date +%s)
		echo $((s - run_start)) >"$log.start"
		if [ "$dir" != "$build" ]; then
			LKET_KERNEL_RELEASE=$rel LKET_ROOTDIR=$build/roots
			export LKET_KERNEL_RELEASE LKET_ROOTDIR
		fi
		LKET_BUILDDIR=$dir "$top/tests/guest-step" "$(script_of "$t")" \
			>"$log.log" 2>&1
		ended "$log" $? $(($(date +%s) - s))
	) </dev/null &
}

# The default kernel's build tree and guest are made once, before the
# tests that share them start.
LKET_BUILDDIR=$build "$top/tools/lket-buildenv" --release "$default_rel" \
	--builddir "$build" >/dev/null || { echo "guest: lket-buildenv failed" >&2; exit 1; }
LKET_BUILDDIR=$build "$top/tests/vm/lket-vm" setup ||
	{ echo "guest: lket-vm setup failed" >&2; exit 1; }

run_start=$(date +%s)
total=$(wc -l <"$queue")
n=0 running=0 done_=0 pass=0 fail=0 failed=
waited=0
: >"$state/started"
while [ "$done_" -lt "$total" ]; do
	# the tests that ended: their output, whole
	for rcf in "$state"/logs/*.rc; do
		[ -f "$rcf" ] || continue
		base=${rcf%.rc}
		read -r rel t <"$base.name"
		echo "== guest: $rel: $t"
		cat "$base.log"
		rc=$(cat "$rcf")
		# and when it ran, from the guest tests' start: what CI's time
		# went on
		secs=$(cat "$base.secs") from=$(cat "$base.start" 2>/dev/null || echo 0)
		echo "== guest: $rel: $t: $secs s (+$from s to +$((from + secs)) s)"
		if [ "$rc" = 0 ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			failed="$failed $rel:$t"
		fi
		echo "$rel $t $rc $base.log" >>"$state/ended"
		mv "$rcf" "$base.status"
		running=$((running - 1)) done_=$((done_ + 1))
	done
	# start what fits, the first ready test of the queue each time
	while [ "$running" -lt "$jobs" ]; do
		next=
		while read -r rel dir t; do
			grep -qx "$rel $t" "$state/started" && continue
			ready "$rel"; r=$?
			if [ $r = 2 ]; then
				# never ready: failed, with the reason
				n=$((n + 1))
				log=$state/logs/$n
				echo "$rel $t" >"$log.name"
				echo "guest: $rel was not prepared: $build/targets/prepare.log says:" >"$log.log"
				tail -n 20 "$build/targets/prepare.log" >>"$log.log" 2>/dev/null
				ended "$log" 1 0
				echo "$rel $t" >>"$state/started"
				running=$((running + 1))
				continue
			fi
			[ $r = 0 ] && { next="$rel $dir $t"; break; }
		done <"$queue"
		[ -n "$next" ] || break
		set -- $next
		n=$((n + 1))
		echo "$1 $3" >>"$state/started"
		start "$n" "$1" "$2" "$3"
		running=$((running + 1))
	done
	[ "$done_" -lt "$total" ] || break
	sleep 1
	waited=$((waited + 1))
	if [ "$waited" -gt 14400 ]; then
		echo "guest: still not done after 4 hours" >&2
		exit 1
	fi
done
wait

# The files the build made that root loads or runs (the modules, the
# runtime copies, the kernel trees, the caches, the roots): none another
# user's to change (tests/owners/run.sh)
echo "== guest: owners"
owners=0
"$top/tests/owners/run.sh" "$build" || owners=1

# passed/total of each test on each kernel, from the line every test
# ends with ("NAME: P passed, F failed")
echo "== guest: passed/total"
{
	printf 'test'
	for rel in $targets; do printf '\t%s' "$rel"; done
	echo
	for t in $(cut -d' ' -f3 "$queue" | awk '!seen[$0]++'); do
		printf '%s' "$t"
		for rel in $targets; do
			line=$(grep "^$rel $t " "$state/ended" | head -n 1)
			if [ -z "$line" ]; then printf '\t-'; continue; fi
			set -- $line
			cell=$(grep -E '^[a-z0-9-]+: [0-9]+ passed, [0-9]+ failed' "$4" | tail -n 1 |
				awk '{ printf "%d/%d", $2, $2 + $4 }')
			[ "$3" = 0 ] || cell="${cell:-0/0} FAIL"
			printf '\t%s' "${cell:-ok}"
		done
		echo
	done
} | tee "$state/table"
# Why each failed, last: what a reader of only the end of make check's
# output sees (the whole log was shown when the test ended)
for name in $failed; do
	rel=${name%%:*} t=${name#*:}
	echo "== guest: why $t failed on $rel:"
	grep "^$rel $t " "$state/ended" | while read -r _ _ _ log; do
		grep -E 'not ok|FAIL|fail|WARNING|BUG|Oops' "$log" | head -n 12
		echo "-- the end of its log:"
		tail -n 8 "$log"
	done
done
[ -z "$failed" ] || echo "guest: failed:$failed"
[ "$owners" = 0 ] || echo "guest: failed: owners (above: files another user may change)"
echo "guest: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$owners" = 0 ]
