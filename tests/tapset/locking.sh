#!/bin/sh
# locking: every hook locks the user's globals before the user's probe
# body, on every path through it.  SystemTap 4.8 takes the locks just
# before the first statement that uses a global, even a branch; the
# aliases read _lket_lock_point first (tapset/lket_core.stp).  In the C of
# "probe addevent.* { if (cpu() == 0) count++; count++ }" (stap -p3),
# each probe that uses count takes its locks at the top level of its
# body, no later than that read, and before count is used.  Without the read, the second count++ ran unlocked
# on every CPU but 0.
. "$(dirname "$0")/lib.sh"

cd "$work"
lket_stap -p3 -e 'global lket_test_count
probe addevent.* { if (cpu() == 0) lket_test_count++; lket_test_count++ }' \
	>locking.c 2>stap.out || { cat stap.out >&2; fail "stap -p3 failed"; }
# per probe function that has locks (begin and end probes run alone and
# have none) and uses count: its lock, and where it stands (stap indents
# a probe's top-level statements by 4 and a branch's by more), the first
# read of _lket_lock_point, the first use of count
awk '
function verdict() {
	if (!fn || !locks || !count) return
	probes++
	if (!lock || depth > 4 || point < lock || count < lock) {
		print fn ": lock at line " lock " (indent " depth \
			"), _lket_lock_point at " point ", count used at " count
		bad++
	}
}
/^static void probe_[0-9]+ \(struct context/ {
	verdict(); fn = $3; locks = lock = depth = point = count = n = 0
}
/^}/ { verdict(); fn = "" }
fn { n++ }
fn && /static const struct stp_probe_lock locks\[\]/ { locks = 1 }
fn && !lock && /c->locked == 0/ { lock = n; match($0, /^ */); depth = RLENGTH }
fn && !point && /global\(s___global__lket_lock_point\)/ { point = n }
fn && !count && /global\(s___global_lket_test_count\)/ { count = n }
END {
	print probes " probes use the global, " bad + 0 " of them unlocked on a path"
	exit !(probes > 0 && !bad)
}' locking.c >locking.out || { cat locking.out >&2; fail "a hook leaves the user's globals unlocked"; }
note "PASS ($(tail -1 locking.out))"
