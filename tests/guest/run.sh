#!/bin/sh
# run.sh BUILD: every guest test, one after the other: the core groups
# (tests/tapset/guest.sh: syscall, process, signal, tskdispatch,
# pagefault, user data, text mode) and each tests/guest/<group>.sh, and
# multihost.sh (an NFS client and its server in two guests at once).
# LKET_GUEST_TESTS="core nfs ...": only these (core: the core groups;
# else the name of a tests/guest/ script without .sh).  Without it, every
# test; stress in its short run (STRESS_SECONDS, default 60; make
# check-stress runs the long one).
# Exit 77 (skipped) only with LKET_SKIP_GUEST=1; any other failure fails.
set -u
build=$(cd "${1:?usage: run.sh BUILD}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
LKET_BUILDDIR=$build
export LKET_BUILDDIR
if [ "${LKET_SKIP_GUEST:-}" = 1 ]; then
	echo "guest: skipped (LKET_SKIP_GUEST=1)"
	exit 77
fi
# each test's output is kept too, so that the failures can be repeated
# at the end, where a log cut to its last lines still shows them
logs=$build/guest-tests/logs
rm -rf "$logs" && mkdir -p "$logs"
pass=0 fail=0 failed=
for t in "$top/tests/tapset/guest.sh" "$here"/*.sh; do
	case ${t##*/} in run.sh|*-common.sh|lib.sh) continue ;; esac
	name=${t#$top/}
	short=${t##*/}; short=${short%.sh}
	[ "$name" = tests/tapset/guest.sh ] && short=core
	if [ -n "${LKET_GUEST_TESTS:-}" ]; then
		case " $LKET_GUEST_TESTS " in *" $short "*) ;; *) continue ;; esac
	fi
	log=$logs/$(echo "$name" | tr / _).log
	echo "== guest: $name"
	start=$(date +%s)
	# the test's status, through the pipe to tee
	if { "$t" 2>&1; echo $? >"$log.rc"; } | tee "$log" && [ "$(cat "$log.rc")" = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		failed="$failed $name"
	fi
	echo "== guest: $name: $(($(date +%s) - start)) s"
done
for name in $failed; do
	echo "== guest: why $name failed:"
	grep -E 'not ok|FAIL|fail|WARNING|BUG|Oops' "$logs/$(echo "$name" | tr / _).log" | head -n 30
done
[ -z "$failed" ] || echo "guest: failed:$failed"
echo "guest: $pass passed, $fail failed"
[ "$fail" = 0 ]
