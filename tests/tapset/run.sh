#!/bin/sh
# run.sh [BUILD]: the tapset tests that need no guest: the documentation
# of every alias, the hook list, one build test per group of the
# catalogue ("probe addevent.GROUP {}", stap -p4 for the guest kernel) and
# one of every hook at once ("probe addevent.* {}"), and the messages a
# wrong use of the tapset gets at build time (baduse).
# The guest tests are tests/guest/run.sh's.
here=$(cd "$(dirname "$0")" && pwd)
[ -n "${1:-}" ] && LKET_BUILDDIR=$(cd "$1" && pwd) && export LKET_BUILDDIR
build=${LKET_BUILDDIR:-$here/../../build}
pass=0 fail=0
run() {
	echo "== tapset/$*"
	if "$here/$1.sh" ${2:+"$2"}; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
}
run doc
run list
run modules
run native
run baduse
for g in $("$build/lket-gencat" groups); do
	[ "$g" = lket ] || run build-group "$g"
done
run build-group all
echo "tapset: $pass passed, $fail failed"
[ "$fail" = 0 ]
