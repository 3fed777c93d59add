# switch-in.awk: in lket.out of a trace with addevent.tskdispatch.ctxswitch
# and system call hooks, every system call of a task on a CPU comes after
# that task's switch-in there: a task never runs without one.  Idle's
# events (tid 0) and the process snapshot are left out; so is a CPU
# before its first switch.  Prints "N events, M without a switch-in" and
# the first few of those.
$6 == "tskdispatch.ctxswitch" {
	split($8, n, "=")
	running[$2] = n[2]
	next
}
$3 != 0 && $6 != "process.snapshot" && ($2 in running) {
	events++
	if ($3 != running[$2] && bad++ < 5)
		print "no switch-in: " $0 " (CPU " $2 " runs " running[$2] ")"
}
END { print events + 0 " events, " bad + 0 " without a switch-in" }
