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
#     from submit_bio (submit_bio_noacct...).
#
# Exit 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
group=stack
. "$(cd "$(dirname "$0")" && pwd)/io-common.sh"

nwrites=200

# ---- 1. build
check "build: iosyscall.write.entry with lket_stack() (stap -p4)" \
	build_module lket_stack '
probe register_event {
	register_user_event(GROUP_IOSYSCALL, HOOKID_IOSYSCALL_WRITE_ENTRY,
			    "ADDRS", "stack")
}
probe addevent.iosyscall.write.entry { lket_stack() }
probe addevent.process.fork, addevent.process.execve {}'
[ -s "$work/lket_stack.stap.err" ] && grep -i error "$work/lket_stack.stap.err"
LKET_STAP_EXTRA=-DLKET_STACK=16
check "build: the same hooks with -D LKET_STACK=16 (stap -p4)" \
	build_module lket_stackall \
	'probe addevent.iosyscall.write.entry, addevent.process.fork, addevent.process.execve {}'
LKET_STAP_EXTRA=
[ -s "$work/lket_stackall.stap.err" ] && grep -i error "$work/lket_stackall.stap.err"
check "build: ioscheduler.elv_add_request with lket_stack() (stap -p4)" \
	build_module lket_stackio '
probe register_event {
	register_user_event(GROUP_IOSCHED, HOOKID_IOSCHED_ELV_ADD_REQUEST,
			    "ADDRS", "stack")
}
probe addevent.ioscheduler.elv_add_request { lket_stack() }'
skip_guest
[ -f "$work/lket_stack.ko" ] && [ -f "$work/lket_stackall.ko" ] &&
	[ -f "$work/lket_stackio.ko" ] || finish

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
exit 0
EOS
run_guest "$work/guest.sh" --extra-qemu "$(disk_qemu_args)"

# ---- 3. check
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
finish
