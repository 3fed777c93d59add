#!/bin/sh
# Guest test of kernel call stacks (lket_stack(), lket-b2a's symbols).
#
#  1. build (host): addevent.iosyscall.write.entry with a user field
#     "stack" of type ADDRS that the probe body fills with lket_stack();
#     process.fork and process.execve name the processes; and the same
#     hooks with stap -D LKET_STACK=16, every record with a stack, no
#     script (the trace "stackall");
#     and addevent.ioscheduler.elv_add_request with lket_stack();
#  2. guest: dd writes 200 blocks of 512 bytes, each a write(2), traced
#     by one module, then the other; then dd writes 64 blocks of 4 KiB
#     straight to a file on a virtio-scsi disk (oflag=direct), traced by
#     the third: each block is a request;
#  3. host, for each: lket-b2a decodes the trace with the guest kernel's debuginfo
#     (Debian's linux-image-RELEASE-dbg, under /usr/lib/debug): every
#     write of dd has a stack, and every stack has the system call's
#     path, ksys_write (or __x64_sys_write) and do_syscall_64, by name;
#     the kernel's module record was found (no note of missing symbols);
#     with -D LKET_STACK, a tracepoint hook's stack (process.execve)
#     starts at its call site, bprm_execve (after the tracepoint's
#     iterator when it has several probes), none of LKET's own frames;
#     with --no-symbols the same events carry the same number of frames,
#     as addresses; and the JSON output has the stack as an array; every
#     request dd adds has the submitting path: blk_mq_submit_bio, called
#     from submit_bio (submit_bio_noacct...);
#     a return hook's stack (iosyscall.write.return, a kretprobe on the
#     system call) starts where the call returns to, __x64_sys_write or
#     do_syscall_64, with no frame of the return trampoline or of the
#     kretprobe handler (rethook_*, kretprobe_*, *trampoline*);
#  4. NFS server stacks, on a loopback NFSv3 mount (the server set up as
#     nfs.sh does) that dd writes 64 KiB to:
#      - "nfslate": tskdispatch.ctxswitch and nfsd.proc.write.entry
#        and .return with lket_stack(); tracing starts before sunrpc and
#        nfsd are loaded (the guest says they were not), then modprobe,
#        the server, the mount and dd run traced: the modules' records
#        are written as they load, mid-trace, and nfsd's hooks are armed
#        as it loads (tools/stap-runtime-patches/60-*).  The nfsd
#        threads' context switches have stacks through nfsd [nfsd] and
#        svc_recv [sunrpc] (waiting for work), every frame of them
#        symbolised (on PREEMPT_RT but for a kprobe's ftrace trampoline,
#        in no module, right before the probed function's entry; the
#        frames of the tracer's own module, where a task was preempted
#        in its module notifier, from its .ko: lket(5), CALL STACKS);
#      - "nfsearly": addevent.nfsd.proc.write.entry and .return with
#        lket_stack(), the modules loaded before, for a second dd;
#     in both: every WRITE's stack, by function name and module, has
#        nfsd_dispatch [nfsd] and svc_process [sunrpc] (the entry's
#        first frame nfsd3_proc_write [nfsd]); every return's starts at
#        nfsd_dispatch [nfsd], where nfsd3_proc_write returns to, with
#        no trampoline frame; no frame without a module, no missing
#        symbols.
#
# Exit 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
group=stack
. "$(cd "$(dirname "$0")" && pwd)/io-common.sh"

nwrites=200

# ---- 1. build, the five modules side by side (tests/stap-jobs.sh)
build_start lket_stack '
probe register_event {
	register_user_event(GROUP_IOSYSCALL, HOOKID_IOSYSCALL_WRITE_ENTRY,
			    "ADDRS", "stack")
	register_user_event(GROUP_IOSYSCALL, HOOKID_IOSYSCALL_WRITE_RETURN,
			    "ADDRS", "stack")
}
probe addevent.iosyscall.write.entry, addevent.iosyscall.write.return {
	lket_stack()
}
probe addevent.process.fork, addevent.process.execve {}'
LKET_STAP_EXTRA=-DLKET_STACK=16
build_start lket_stackall \
	'probe addevent.iosyscall.write, addevent.process.fork, addevent.process.execve {}'
LKET_STAP_EXTRA=
build_start lket_stackio '
probe register_event {
	register_user_event(GROUP_IOSCHED, HOOKID_IOSCHED_ELV_ADD_REQUEST,
			    "ADDRS", "stack")
}
probe addevent.ioscheduler.elv_add_request { lket_stack() }'
build_start lket_stacknfs '
probe register_event {
	register_user_event(GROUP_NFSD, HOOKID_NFSD_PROC_WRITE_ENTRY,
			    "ADDRS", "stack")
	register_user_event(GROUP_NFSD, HOOKID_NFSD_PROC_WRITE_RETURN,
			    "ADDRS", "stack")
}
probe addevent.nfsd.proc.write.entry, addevent.nfsd.proc.write.return {
	lket_stack()
}'
build_start lket_stacklate '
probe register_event {
	register_user_event(GROUP_TASK, HOOKID_TASK_CTXSWITCH, "ADDRS", "stack")
	register_user_event(GROUP_NFSD, HOOKID_NFSD_PROC_WRITE_ENTRY,
			    "ADDRS", "stack")
	register_user_event(GROUP_NFSD, HOOKID_NFSD_PROC_WRITE_RETURN,
			    "ADDRS", "stack")
}
probe addevent.tskdispatch.ctxswitch, addevent.nfsd.proc.write.entry,
      addevent.nfsd.proc.write.return {
	lket_stack()
}'
built() {	# built NAME: its build ended well; its errors shown
	build_wait "$1"; _rc=$?
	grep -i error "$work/$1.stap.err"
	return $_rc
}
check "build: iosyscall.write.entry with lket_stack() (stap -p4)" built lket_stack
check "build: the same hooks with -D LKET_STACK=16 (stap -p4)" built lket_stackall
check "build: ioscheduler.elv_add_request with lket_stack() (stap -p4)" built lket_stackio
check "build: nfsd.proc.write.entry and .return with lket_stack() (stap -p4)" built lket_stacknfs
check "build: tskdispatch.ctxswitch and nfsd.proc.write with lket_stack() (stap -p4)" built lket_stacklate
skip_guest
[ -f "$work/lket_stack.ko" ] && [ -f "$work/lket_stackall.ko" ] &&
	[ -f "$work/lket_stackio.ko" ] && [ -f "$work/lket_stacknfs.ko" ] &&
	[ -f "$work/lket_stacklate.ko" ] || finish

# the NFS part's traced commands: the first loads the modules and starts
# the server (as nfs.sh does, NFSv3 over 127.0.0.1), mounts and writes;
# the second writes again
cat > "$work/nfs-late.sh" <<'EOS'
set -u
for m in sunrpc lockd nfsd nfs nfsv3; do modprobe $m || echo "modprobe $m failed"; done
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs 2>/dev/null
mount -t nfsd nfsd /proc/fs/nfsd || echo "mount nfsd failed"
rpcbind -w || echo "rpcbind failed"
exportfs -ra || echo "exportfs failed"
rpc.mountd || echo "rpc.mountd failed"
rpc.nfsd 2 || echo "rpc.nfsd failed"
mount -t nfs -o vers=3,nolock,proto=tcp 127.0.0.1:/srv/lket /mnt/nfs3 ||
	echo "mount nfs failed"
dd if=/dev/zero of=/mnt/nfs3/late bs=8192 count=8 conv=fsync 2>&1 || echo "dd failed"
EOS
cat > "$work/nfs-early.sh" <<'EOS'
dd if=/dev/zero of=/mnt/nfs3/early bs=8192 count=8 conv=fsync 2>&1 || echo "dd failed"
EOS

# ---- 2. guest
{ echo "set -u"; echo "RES=$res"; disk_guest_setup; } > "$work/guest.sh"
cat >> "$work/guest.sh" <<EOS
cd "$work"
d=\$(mktemp -d /run/lket-stack.XXXXXX)
for m in stack stackall; do
	"$top/tools/lket-run-traced" -o "$res/\$m" lket_\$m.ko -- \
		dd if=/dev/zero of="\$d/out" bs=512 count=$nwrites > "$res/\$m.out" 2> "$res/\$m.err"
	echo "staprun \$m rc=\$?"
done
"$top/tools/lket-run-traced" -o "$res/stackio" lket_stackio.ko -- \
	dd if=/dev/zero of=/mnt/lket/out bs=4096 count=64 oflag=direct > "$res/stackio.out" 2>&1
echo "staprun stackio rc=\$?"
umount /mnt/lket
# NFS: sunrpc and nfsd must not be loaded yet
grep -cE '^(sunrpc|nfsd) ' /proc/modules > "$res/nfs-loaded-before"
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
mkdir -p /srv/lket /mnt/nfs3 /run/rpcbind /var/lib/nfs/rpc_pipefs
mount -t tmpfs tmpfs /srv/lket
echo '/srv/lket 127.0.0.1(rw,fsid=0,sync,no_subtree_check,no_root_squash,insecure)' > /etc/exports
"$top/tools/lket-run-traced" -o "$res/nfslate" lket_stacklate.ko -- \
	sh "$work/nfs-late.sh" > "$res/nfslate.out" 2>&1
echo "staprun nfslate rc=\$?"
"$top/tools/lket-run-traced" -o "$res/nfsearly" lket_stacknfs.ko -- \
	sh "$work/nfs-early.sh" > "$res/nfsearly.out" 2>&1
echo "staprun nfsearly rc=\$?"
umount /mnt/nfs3
rpc.nfsd 0
exportfs -ua
# the nfsd threads stop after rpc.nfsd returns (nfs.sh)
i=0; while [ \$i -lt 40 ] && pgrep -x nfsd > /dev/null; do sleep 0.5; i=\$((i+1)); done
exit 0
EOS
run_guest "$work/guest.sh" --extra-qemu "$(disk_qemu_args)"

# ---- 3. check, where the modules were built, as a user runs lket-b2a:
# it finds the tracer's own module there (lket-b2a(1), --debuginfo)
cd "$work"
# dd's write entries: " dd iosyscall.write.entry ... stack=[f+0x0, ...]"
dd_stacks() { # FILE: the stack of each, without its brackets
	awk '$5 == "dd" && $6 == "iosyscall.write.entry" {
		i = index($0, " stack=[")
		if (!i) { print "-"; next }
		s = substr($0, i + 8)
		print substr(s, 1, length(s) - 1) }' "$1"
}

check_trace() { # M: the trace $res/M of module lket_M
	m=$1
	if ! ls "$res/$m"_* > /dev/null 2>&1; then
		nok "$m: no trace files"; return
	fi
	decode -o "$res/$m.txt" "$res/$m" 2> "$res/$m.b2a.err" ||
		nok "$m: lket-b2a failed: $(cat "$res/$m.b2a.err")"
	decode --no-symbols -o "$res/$m.raw.txt" "$res/$m" 2> /dev/null ||
		nok "$m: lket-b2a --no-symbols failed"
	decode -f json -o "$res/$m.json" "$res/$m" 2> /dev/null ||
		nok "$m: lket-b2a -f json failed"
	if grep -q "no symbols\|no debuginfo" "$res/$m.b2a.err"; then
		nok "$m: the kernel's symbols were found: $(cat "$res/$m.b2a.err")"
	else
		ok "$m: the kernel's symbols were found (its module record and debuginfo)"
	fi
	dd_stacks "$res/$m.txt" > "$res/$m.stacks"
	awk -v want="$nwrites" -v m="$m" '
		{ n++ }
		$0 == "-" { nostack++; next }
		!/(^|, )(ksys_write|__x64_sys_write)\+0x/ { nowrite++ }
		!/(^|, )do_syscall_64\+0x/ { nosys++ }
		END {
			print (n >= want ? "ok" : "not ok") " - " m ": " n + 0 " write entries of dd (" want " writes)"
			print (n && !nostack ? "ok" : "not ok") " - " m ": every one has a stack (" nostack + 0 " without)"
			print (n && !nowrite ? "ok" : "not ok") " - " m ": every stack has ksys_write or __x64_sys_write (" nowrite + 0 " without)"
			print (n && !nosys ? "ok" : "not ok") " - " m ": every stack has do_syscall_64 (" nosys + 0 " without)"
		}' "$res/$m.stacks" > "$res/$m.check"
	while read -r verdict rest; do
		case $verdict in
		ok) ok "${rest#- }" ;;
		*) nok "${rest#ok - }" ;;
		esac
	done < "$res/$m.check"
	# --no-symbols: the same stacks, as many frames, each "0x..." alone
	dd_stacks "$res/$m.raw.txt" > "$res/$m.raw.stacks"
	if [ -s "$res/$m.raw.stacks" ] &&
	   awk -F', ' '{ print NF }' "$res/$m.stacks" |
		cmp -s - "$(awk -F', ' '{ print NF }' "$res/$m.raw.stacks" > "$res/$m.nf"; echo "$res/$m.nf")" &&
	   ! tr ',' '\n' < "$res/$m.raw.stacks" | tr -d ' ' | grep -qv '^0x[0-9a-f]*$'; then
		ok "$m: --no-symbols: the same stacks, every frame an address"
	else
		nok "$m: --no-symbols: stacks differ from the symbolised ones"
	fi
	if grep '"comm":"dd","event":"iosyscall.write.entry"' "$res/$m.json" |
		grep -q '"stack":\["[^"]*",.*"do_syscall_64+0x'; then
		ok "$m: JSON: the stack is an array of frames"
	else
		nok "$m: JSON: no stack array with do_syscall_64"
	fi
}
check_trace stack
check_trace stackall
# return hooks (kretprobes): dd's write returns, from where the system
# call returns to, no trampoline or handler frame
for m in stack stackall; do
	awk '$5 == "dd" && $6 == "iosyscall.write.return" {
		n++
		i = index($0, " stack=[")
		if (!i) { nostack++; next }
		s = substr($0, i + 8)
		if (s !~ /^(__x64_sys_write|do_syscall_64)\+0x/) notcaller++
		if (s !~ /(^|, )do_syscall_64\+0x/) nosys++
		if (s ~ /rethook|kretprobe|trampoline/) tramp++
	}
	END {
		print (n >= '"$nwrites"' ? "ok" : "not ok") " - " m ": " n + 0 " write returns of dd, each with a stack (" nostack + 0 " without)"
		print (n && !nostack && !notcaller ? "ok" : "not ok") " - " m ": every return stack starts where write returns to, __x64_sys_write or do_syscall_64 (" notcaller + 0 " not)"
		print (n && !nosys ? "ok" : "not ok") " - " m ": every return stack has do_syscall_64 (" nosys + 0 " without)"
		print (n && !tramp ? "ok" : "not ok") " - " m ": no return stack has a trampoline or kretprobe frame (" tramp + 0 " have)"
	}' m="$m" "$res/$m.txt" > "$res/$m.ret.check"
	while read -r verdict rest; do
		case $verdict in
		ok) ok "${rest#- }" ;;
		*) nok "${rest#ok - }" ;;
		esac
	done < "$res/$m.ret.check"
done
# -D LKET_STACK on a tracepoint hook: the stack starts at the tracepoint's
# call site (the LKET module's own frames left out): bprm_execve first,
# or after the tracepoint's iterator (when it has more than one probe)
n=$(grep -Ec ' process.execve .* stack=\[(__traceiter_sched_process_exec\+0x[0-9a-f]+, )?bprm_execve\+0x' "$res/stackall.txt")
if [ "$n" -gt 0 ] && [ "$n" = "$(grep -c ' process.execve ' "$res/stackall.txt")" ]; then
	ok "stackall: every execve's stack (a tracepoint) starts at bprm_execve ($n)"
else
	nok "stackall: execve stacks not from bprm_execve: $(grep -m2 ' process.execve ' "$res/stackall.txt")"
fi
# the IO scheduler: dd's requests, each with its submitting path
if ls "$res"/stackio_* > /dev/null 2>&1 &&
   decode -o "$res/stackio.txt" "$res/stackio" 2> "$res/stackio.b2a.err"; then
	awk '$5 == "dd" && $6 == "ioscheduler.elv_add_request" {
		n++
		# the probed function first (inlined: the function it is in)
		if (!/ stack=\[(blk_mq_bio_to_request\+0x[0-9a-f]+, )?blk_mq_submit_bio\+0x/) nomq++
		if (!/, submit_bio(_noacct)?(_nocheck)?\+0x/) nosubmit++
	}
	END {
		print (n >= 64 ? "ok" : "not ok") " - stackio: " n + 0 " requests of dd (64 writes)"
		print (n && !nomq ? "ok" : "not ok") " - stackio: each stack starts at blk_mq_bio_to_request in blk_mq_submit_bio (" nomq + 0 " not)"
		print (n && !nosubmit ? "ok" : "not ok") " - stackio: each stack has submit_bio (" nosubmit + 0 " without)"
	}' "$res/stackio.txt" > "$res/stackio.check"
	while read -r verdict rest; do
		case $verdict in
		ok) ok "${rest#- }" ;;
		*) nok "${rest#ok - }" ;;
		esac
	done < "$res/stackio.check"
else
	nok "stackio: no trace, or lket-b2a failed: $(cat "$res/stackio.b2a.err" 2>/dev/null)"
fi

# NFS server stacks
if [ "$(cat "$res/nfs-loaded-before" 2>/dev/null)" = 0 ]; then
	ok "nfslate: sunrpc and nfsd were not loaded when tracing started"
else
	nok "nfslate: sunrpc or nfsd loaded before tracing ($(cat "$res/nfs-loaded-before" 2>/dev/null))"
fi
# nfslate: the nfsd threads' context switches, through modules loaded
# while tracing
m=nfslate
if grep -q failed "$res/$m.out" 2>/dev/null; then
	nok "$m: the NFS set-up or dd failed: $(grep failed "$res/$m.out" | head -3)"
fi
if ls "$res/$m"_* > /dev/null 2>&1 &&
   decode -o "$res/$m.txt" "$res/$m" 2> "$res/$m.b2a.err"; then
	if grep -q "no symbols\|no debuginfo" "$res/$m.b2a.err"; then
		nok "$m: symbols missing: $(cat "$res/$m.b2a.err")"
	else
		ok "$m: the symbols of every module were found"
	fi
	awk '$5 == "nfsd" && $6 == "tskdispatch.ctxswitch" {
		n++
		i = index($0, " stack=[")
		if (!i) { nostack++; next }
		s = substr($0, i + 8)
		# on PREEMPT_RT a thread can be preempted in the ftrace
		# trampoline of a kprobe, in no module: its frame comes right
		# before the probed function entry, past the call to __fentry__
		# (+0x5, or +0x9 after an endbr64: 6.12) (lket(5), CALL STACKS)
		t = s
		tramp += gsub(/0x[0-9a-f]+, [a-z_0-9.]+\+0x[59] \[/, "", t)
		if (t ~ /(^|, )0x[0-9a-f]+[],]/ && !raw++) first = s
		if (s ~ /, svc_recv\+0x[0-9a-f]+ \[sunrpc\], / &&
		    s ~ /, nfsd\+0x[0-9a-f]+ \[nfsd\], /) both++
	}
	END {
		print (n && !nostack ? "ok" : "not ok") " - " m ": " n + 0 " context switches of the nfsd threads, each with a stack (" nostack + 0 " without)"
		print (both ? "ok" : "not ok") " - " m ": " both + 0 " of them wait for work, through nfsd [nfsd] and svc_recv [sunrpc]"
		print (n && !raw ? "ok" : "not ok") " - " m ": every frame of them symbolised: the modules recorded as they loaded (" raw + 0 " stacks with an address; " tramp + 0 " kprobe trampoline frames)" (raw ? "; the first: [" first : "")
	}' m="$m" "$res/$m.txt" > "$res/$m.check"
	while read -r verdict rest; do
		case $verdict in
		ok) ok "${rest#- }" ;;
		*) nok "${rest#ok - }" ;;
		esac
	done < "$res/$m.check"
else
	nok "$m: no trace, or lket-b2a failed: $(cat "$res/$m.b2a.err" 2>/dev/null)"
fi
# nfsd's own hooks: armed as nfsd loads (nfslate), or before (nfsearly)
for m in nfslate nfsearly; do
	if [ $m = nfsearly ] && grep -q failed "$res/$m.out" 2>/dev/null; then
		nok "$m: the NFS set-up or dd failed: $(grep failed "$res/$m.out" | head -3)"
	fi
	if ! ls "$res/$m"_* > /dev/null 2>&1 ||
	   ! decode -o "$res/$m.txt" "$res/$m" 2> "$res/$m.b2a.err"; then
		nok "$m: no trace, or lket-b2a failed: $(cat "$res/$m.b2a.err" 2>/dev/null)"
		continue
	fi
	if [ $m = nfsearly ]; then
		if grep -q "no symbols\|no debuginfo\|in no module" "$res/$m.b2a.err"; then
			nok "$m: symbols missing: $(cat "$res/$m.b2a.err")"
		else
			ok "$m: every frame's module recorded and its symbols found"
		fi
	fi
	awk '$6 == "nfsd.proc.write.entry" || $6 == "nfsd.proc.write.return" {
		i = index($0, " stack=[")
		s = i ? substr($0, i + 8) : ""
		if ($6 ~ /entry$/) {
			n++
			if (!i) { nostack++; next }
			if (s !~ /^nfsd3_proc_write\+0x[0-9a-f]+ \[nfsd\], /) nofirst++
			if (s !~ /, nfsd_dispatch\+0x[0-9a-f]+ \[nfsd\]/) nodisp++
			if (s !~ /, svc_process\+0x[0-9a-f]+ \[sunrpc\]/) nosvc++
		} else {
			r++
			if (!i) { nostack++; next }
			if (s !~ /^nfsd_dispatch\+0x[0-9a-f]+ \[nfsd\], /) rnodisp++
			if (s !~ /, svc_process\+0x[0-9a-f]+ \[sunrpc\]/) nosvc++
			if (s ~ /rethook|kretprobe|trampoline/) tramp++
		}
		if (s ~ /(^|, )0x[0-9a-f]+[],]/ && !raw++) first = s
	}
	END {
		print (n && r && !nostack ? "ok" : "not ok") " - " m ": " n + 0 " nfsd WRITEs and " r + 0 " returns, each with a stack (" nostack + 0 " without)"
		print (n && !nofirst ? "ok" : "not ok") " - " m ": every WRITE stack starts at nfsd3_proc_write [nfsd] (" nofirst + 0 " not)"
		print (n && !nodisp ? "ok" : "not ok") " - " m ": every WRITE stack has nfsd_dispatch [nfsd] (" nodisp + 0 " without)"
		print (n && r && !nosvc ? "ok" : "not ok") " - " m ": every stack has svc_process [sunrpc] (" nosvc + 0 " without)"
		print (r && !rnodisp ? "ok" : "not ok") " - " m ": every return stack starts at nfsd_dispatch [nfsd], where the WRITE returns to (" rnodisp + 0 " not)"
		print (r && !tramp ? "ok" : "not ok") " - " m ": no return stack has a trampoline or kretprobe frame (" tramp + 0 " have)"
		print (n && !raw ? "ok" : "not ok") " - " m ": every frame symbolised (" raw + 0 " stacks with an address)" (raw ? "; the first: [" first : "")
	}' m="$m" "$res/$m.txt" > "$res/$m.check"
	while read -r verdict rest; do
		case $verdict in
		ok) ok "${rest#- }" ;;
		*) nok "${rest#ok - }" ;;
		esac
	done < "$res/$m.check"
done
finish
