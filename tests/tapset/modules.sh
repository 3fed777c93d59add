#!/bin/sh
# modules: scripts whose hooks sit in exactly two kernel modules and no
# vmlinux function must get both modules' symbol data.  SystemTap 4.8
# stops looking one module early in a build tree without modules.dep,
# warns "missing unwind/symbol data for module", and the probes in the
# module it missed never register; tools/lket-buildenv writes the
# modules.dep, and tools/lket-stap turns that warning into an error.
# The warning is only printed when stap translates: a -D of this run's
# own makes the script's hash new, so pass 3 never comes from the cache,
# while the tracepoint and configuration queries that stap caches (minutes
# of compiling with --disable-cache) still do.
. "$(dirname "$0")/lib.sh"

cd "$work"
n=0
for pair in 'sunrpc.svc.process.entry nfsd.proc.read.entry' \
	    'nfs.aop.writepage.entry sunrpc.svc.drop.entry' \
	    'nfs.fop.open.entry nfsd.proc.read.entry'; do
	n=$((n + 1))
	set -- $pair
	rc=0
	lket_stap -p3 -DLKET_MODULES_TEST="$$$(date +%s%N)$n" \
		-e "probe addevent.$1, addevent.$2 {}" \
		>"pass3-$n.c" 2>"stap-$n.err" || rc=$?
	if [ $rc != 0 ] || grep -qi 'warning\|error' "stap-$n.err"; then
		cat "stap-$n.err" >&2
		fail "addevent.$1 with addevent.$2: status $rc"
	fi
done
note "PASS ($n two-module scripts)"
