#!/bin/sh
# baduse: what a user who gets the tapset wrong is told at build time, by
# tools/lket-stap, before any module is built:
#   1. a hook that does not exist (addevent.syscall.nosuch, a group
#      addevent.nosuch, the pair name of a hook that has only .entry and
#      .return): an error naming it and what does exist;
#   2. a hook whose kernel function this kernel lacks (a copy of the
#      tapsets in which signal.do_action probes a function no kernel
#      has): an error naming the hook, the function and the way out
#      ("?", which must then build);
#   3. user data whose printf does not match its register_user_event()
#      (a wrong width; a type without a name): an error naming both; the
#      matching script passes.
. "$(dirname "$0")/lib.sh"

cd "$work"
n=0
# expect NAME STATUS-WANTED(0|fail) STAP-COMMAND... : run, keep stderr in NAME.err
expect() {
	c=$1 want=$2; shift 2
	rc=0
	"$@" >"$c.out" 2>"$c.err" || rc=$?
	if [ "$want" = 0 ] && [ $rc != 0 ]; then
		cat "$c.err" >&2; fail "$c: status $rc, expected success"
	fi
	if [ "$want" = fail ] && [ $rc = 0 ]; then
		fail "$c: succeeded, expected an error"
	fi
	n=$((n + 1))
}
# says NAME TEXT: NAME.err has the fixed string TEXT on a lket-stap line
says() {
	grep '^lket-stap: error:' "$1.err" | grep -qF -- "$2" ||
		{ cat "$1.err" >&2; fail "$1: no lket-stap error saying: $2"; }
}

# 1. hooks that do not exist
expect nosuch fail lket_stap -p2 -e 'probe addevent.syscall.nosuch {}'
says nosuch 'no hook addevent.syscall.nosuch in the LKET tapsets'
says nosuch 'The hooks of addevent.syscall are: addevent.syscall.entry addevent.syscall.return'
expect nogroup fail lket_stap -p2 -e 'probe addevent.nosuch {}'
says nogroup 'no hook addevent.nosuch'
says nogroup 'The groups are: addevent.aio '
says nogroup ' addevent.tskdispatch'
expect nopair fail lket_stap -p2 -e 'probe addevent.sunrpc.svc.destroy {}'
says nopair 'The hooks of addevent.sunrpc.svc.destroy are: addevent.sunrpc.svc.destroy.entry addevent.sunrpc.svc.destroy.return'

# 2. a kernel function the hook needs is missing: a copy of the source
# tree's tools and tapsets, with signal.do_action on a function that no
# kernel has
mkdir tree
cp -r "$top/tools" "$top/tapset" "$top/runtime" tree/
sed -i 's/kernel\.function("do_sigaction")/kernel.function("lket_no_such_function")/' \
	tree/tapset/signal.stp
grep -q lket_no_such_function tree/tapset/signal.stp ||
	fail "tapset/signal.stp no longer probes do_sigaction: update this test"
expect nofunc fail tree/tools/lket-stap -p2 -e 'probe addevent.signal.do_action.entry {}'
says nofunc 'hook addevent.signal.do_action.entry cannot be placed'
says nofunc 'the kernel image has no function lket_no_such_function on kernel '
says nofunc 'probe addevent.signal.do_action.entry ? {}'
# the same through a group alias
expect nofunc_group fail tree/tools/lket-stap -p2 -e 'probe addevent.signal {}'
says nofunc_group 'hook addevent.signal.do_action.entry cannot be placed'
# and the way out it gives builds
expect nofunc_optional 0 tree/tools/lket-stap -p2 \
	-e 'probe addevent.signal.do_action.entry ?, addevent.signal.send.entry {}'

# 3. user data
cat >good.stp <<'STP'
probe register_event
{
	register_user_event(GROUP_PROCESS, HOOKID_PROCESS_FORK,
			    "INT32:STRING", "prio:parent_comm")
}
probe addevent.process.fork
{
	printf("%4b%0s", $child->prio, kernel_string($parent->comm))
}
STP
sed 's/%4b%0s/%8b%0s/' good.stp >width.stp
sed 's/"prio:parent_comm"/"prio"/' good.stp >names.stp
sed 's/"%4b%0s", \$child->prio, /"%0s", /' good.stp >short.stp
expect userdata_good 0 lket_stap -p1 good.stp
expect userdata_width fail lket_stap -p1 width.stp
says userdata_width 'user data of addevent.process.fork: register_user_event() declares "INT32:STRING" (prio:parent_comm), but the probe'"'"'s printf("%8b%0s") writes "INT64:STRING"'
expect userdata_short fail lket_stap -p1 short.stp
says userdata_short 'printf("%0s") writes "STRING"'
expect userdata_names fail lket_stap -p1 names.stp
says userdata_names '"INT32:STRING", "prio"): 2 types but 1 names'
# the same with -e
expect userdata_e fail lket_stap -p1 -e "$(cat width.stp)"
says userdata_e 'user data of addevent.process.fork'
note "PASS ($n cases)"
