#!/bin/sh
# build-group GROUP|all: "probe addevent.GROUP {}" (all: "addevent.*") must build (stap -p4) for
# the guest kernel with no error, and with no warning from stap or kbuild.
. "$(dirname "$0")/lib.sh"

group=${1:?usage: build-group.sh GROUP|all}
# "all": lket(5)'s first example, every hook of every group in one module
probe=addevent.$group
if [ "$group" = all ]; then
	probe='addevent.*'
else
	[ -f "$top/tapset/$group.stp" ] || fail "no tapset/$group.stp"
fi
cd "$work"
rc=0
lket_stap -p4 -m "lket_build_$group" -e "probe $probe {}" \
	>stap.out 2>&1 || rc=$?
if [ $rc != 0 ] || grep -qi 'warning\|error' stap.out; then
	cat stap.out >&2
	fail "stap -p4 of $probe: status $rc"
fi
[ -f "lket_build_$group.ko" ] || fail "no module written"
note "PASS ($(wc -c <"lket_build_$group.ko") byte module)"
