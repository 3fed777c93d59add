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
run locking
# The build tests compile one module each, a job per core at a time
# (each stap runs one compiler at a time); their output is shown in order.
jobs=$(nproc 2>/dev/null || echo 1)
logs=$build/tapset-tests/build-logs
rm -rf "$logs" && mkdir -p "$logs"
groups="$("$build/lket-gencat" groups | grep -vx lket) all"
printf '%s\n' $groups | xargs -P "$jobs" -I{} sh -c \
	'"$1" "$3" >"$2/$3.log" 2>&1; echo $? >"$2/$3.rc"' sh "$here/build-group.sh" "$logs" {}
for g in $groups; do
	echo "== tapset/build-group $g"
	cat "$logs/$g.log"
	if [ "$(cat "$logs/$g.rc")" = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
echo "tapset: $pass passed, $fail failed"
[ "$fail" = 0 ]
