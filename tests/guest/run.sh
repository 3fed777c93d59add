#!/bin/sh
# run.sh BUILD: every guest test, one after the other: the core groups
# (tests/tapset/guest.sh: syscall, process, signal, tskdispatch,
# pagefault, user data, text mode) and each tests/guest/<group>.sh.
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
pass=0 fail=0 failed=
for t in "$top/tests/tapset/guest.sh" "$here"/*.sh; do
	case ${t##*/} in run.sh|*-common.sh|lib.sh) continue ;; esac
	echo "== guest: ${t#$top/}"
	start=$(date +%s)
	if "$t"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		failed="$failed ${t#$top/}"
	fi
	echo "== guest: ${t#$top/}: $(($(date +%s) - start)) s"
done
[ -z "$failed" ] || echo "guest: failed:$failed"
echo "guest: $pass passed, $fail failed"
[ "$fail" = 0 ]
