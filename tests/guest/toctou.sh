#!/bin/sh
# Guest test: the records of open() and io_submit() name what the kernel
# used, although another thread changes the file name and the iocb while
# the calls run (tests/guest/workloads/toctou.c).
#
#  1. build (host): addevent.iosyscall.open.entry and
#     addevent.aio.io_submit_one.entry in one module;
#  2. guest: the workload, 50 opens and 50 io_submits whose name or iocb
#     is in a page a userfaultfd thread puts in at the kernel's first
#     access (it is not there before: deterministic), then COUNT of each
#     with the name's last byte and the iocb's aio_nbytes flipping;
#  3. host: the calling thread's open.entry records name, in order, the
#     files fstat() found opened, and its io_submit_one.entry records
#     hold, in order, the byte counts the reads completed with.  The
#     workload must have opened both files (the flips did land).
#
# Exit 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
group=toctou
. "$(cd "$(dirname "$0")" && pwd)/io-common.sh"
count=${TOCTOU_COUNT:-3000}

w=$work/toctou
check "build: workload" \
	gcc -O1 -Wall -Wextra -Werror -pthread -o "$w" \
	"$top/tests/guest/workloads/toctou.c"
check "build: open.entry and io_submit_one.entry (stap -p4)" \
	build_module lket_toctou \
	'probe addevent.iosyscall.open.entry {} probe addevent.aio.io_submit_one.entry {}'
skip_guest
[ -f "$work/lket_toctou.ko" ] || finish

cat > "$work/guest.sh" <<EOS
set -u
cd "$work"
d=\$(mktemp -d /run/lket-toctou.XXXXXX)
"$top/tools/lket-run-traced" -o "$res/t" lket_toctou.ko -- "$w" "\$d" $count > "$res/out" 2> "$res/err"
echo "run rc=\$?"
exit 0
EOS
run_guest "$work/guest.sh"
if ! ls "$res/t"_* > /dev/null 2>&1; then
	nok "no trace files"; finish
fi
decode -o "$res/t.txt" "$res/t" 2> "$res/t.b2a.err" ||
	nok "lket-b2a failed: $(cat "$res/t.b2a.err")"

tid=$(awk '$1 == "TID" { print $2 }' "$res/out")
u=$(awk '$1 == "UFFD" { print $2 }' "$res/out")
if [ "${u:-0}" -gt 0 ]; then
	ok "userfaultfd: $u calls found their page missing"
else
	nok "userfaultfd: no call found its page missing (UFFD ${u:-missing})"
fi
# shellcheck disable=SC2046 # two numbers
set -- $(awk '$1 == "FLIPS" { print $2, $3 }' "$res/out")
if [ $# = 2 ] && [ "$1" -gt 0 ] && [ "$2" -gt 0 ]; then
	ok "the flips landed: $1 opens found toctou-a, $2 toctou-b"
else
	nok "the name never changed under open() (FLIPS ${*:-missing}): no race tested"
fi

# field F of the thread's last N records of EVENT, one a line
fields() {
	n=$3
	awk -v tid="$tid" -v ev="$1" -v f="$2" '
	$3 == tid && ($6 == ev || "addevent." $6 == ev) {
		v = ""
		for (i = 7; i <= NF; i++)
			if (index($i, f "=") == 1) { v = substr($i, length(f) + 2); break }
		gsub(/"/, "", v); print v
	}' "$res/t.txt" | tail -n "$n"
}
# compare LABEL WANT GOT: line by line
compare() {
	n=$(wc -l < "$2")
	bad=$(paste "$2" "$3" | awk -F '\t' '$1 != $2' | wc -l)
	if [ "$n" -gt "$count" ] && [ "$(wc -l < "$3")" = "$n" ] && [ "$bad" = 0 ]; then
		ok "$1: $n records, each what the kernel used"
	else
		nok "$1: $(wc -l < "$3") records for $n calls, $bad differ from what the kernel used"
		paste "$2" "$3" | awk -F '\t' '$1 != $2' | head -5
	fi
}
awk '$1 == "OPEN" { print $2 }' "$res/out" > "$work/open.want"
fields addevent.iosyscall.open.entry filename "$(wc -l < "$work/open.want")" > "$work/open.got"
compare "open: file names" "$work/open.want" "$work/open.got"
awk '$1 == "SUBMIT" { print $2 }' "$res/out" > "$work/aio.want"
fields addevent.aio.io_submit_one.entry aio_nbytes "$(wc -l < "$work/aio.want")" > "$work/aio.got"
compare "io_submit: aio_nbytes" "$work/aio.want" "$work/aio.got"
finish
