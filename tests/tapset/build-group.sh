#!/bin/sh
# build-group GROUP: "probe addevent.GROUP {}" must build (stap -p4) for
# the guest kernel with no error, and with no warning from stap or kbuild.
. "$(dirname "$0")/lib.sh"

group=${1:?usage: build-group.sh GROUP}
[ -f "$top/tapset/$group.stp" ] || fail "no tapset/$group.stp"
cd "$work"
rc=0
lket_stap -p4 -m "lket_build_$group" -e "probe addevent.$group {}" \
	>stap.out 2>&1 || rc=$?
if [ $rc != 0 ] || grep -qi 'warning\|error' stap.out; then
	cat stap.out >&2
	fail "stap -p4 of addevent.$group: status $rc"
fi
[ -f "lket_build_$group.ko" ] || fail "no module written"
note "PASS ($(wc -c <"lket_build_$group.ko") byte module)"
