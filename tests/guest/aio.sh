#!/bin/sh
# Guest test of the aio group (tests/vm/README: the qemu guest).
#
#  1. build (host): every addevent.aio.* hook in one module; the hook list;
#  2. guest: the workload (tests/guest/workloads/aio.c) uses native AIO
#     through the raw system calls: io_setup, io_submit of a pwrite, a
#     pread and a poll (distinct fds, offsets, sizes, priorities),
#     io_getevents with and without a timeout, io_cancel (in flight and
#     not), io_destroy;
#  3. host: every call's entry record holds what was passed (the iocb
#     fields exactly as submitted) and its return record what returned.
#
# Exit 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
group=aio
. "$(cd "$(dirname "$0")" && pwd)/io-common.sh"

w=$work/aio
check "build: workload" \
	gcc -O1 -Wall -Wextra -Werror -o "$w" "$top/tests/guest/workloads/aio.c"
check "build: every addevent.aio hook (stap -p4)" \
	build_module lket_aio 'probe addevent.aio {}'
hook_list_check aio
skip_guest
[ -f "$work/lket_aio.ko" ] || finish

cat > "$work/guest.sh" <<EOS
set -u
cd "$work"
# a folder of its own in the guest's /run (its own tmpfs): the guest's
# /tmp is the host's, seen through the root overlay, and may hold anything
d=\$(mktemp -d /run/lket-aio.XXXXXX)
"$top/tools/lket-run-traced" -o "$res/t" lket_aio.ko -- "$w" "\$d" > "$res/out" 2> "$res/err"
echo "run rc=\$?"
exit 0
EOS
run_guest "$work/guest.sh"
check_expect "$res/t" "$res/out" aio
for h in $(sed 's/^addevent\.//' "$work/hooks.cat"); do
	grep -Eq " $h( |$)" "$res/t.txt" 2>/dev/null || nok "hook $h never fired"
done
finish
