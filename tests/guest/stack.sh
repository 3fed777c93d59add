#!/bin/sh
# Guest test of kernel call stacks (lket_stack(), lket-b2a's symbols).
#
#  1. build (host): addevent.iosyscall.write.entry with a user field
#     "stack" of type ADDRS that the probe body fills with lket_stack();
#     process.fork and process.execve name the processes;
#  2. guest: dd writes 200 blocks of 512 bytes, each a write(2);
#  3. host: lket-b2a decodes the trace with the guest kernel's debuginfo
#     (Debian's linux-image-RELEASE-dbg, under /usr/lib/debug): every
#     write of dd has a stack, and every stack has the system call's
#     path, ksys_write (or __x64_sys_write) and do_syscall_64, by name;
#     the kernel's module record was found (no note of missing symbols);
#     with --no-symbols the same events carry the same number of frames,
#     as addresses; and the JSON output has the stack as an array.
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
skip_guest
[ -f "$work/lket_stack.ko" ] || finish

# ---- 2. guest
cat > "$work/guest.sh" <<EOS
set -u
cd "$work"
d=\$(mktemp -d /run/lket-stack.XXXXXX)
"$top/tools/lket-run-traced" -o "$res/t" lket_stack.ko -- \
	dd if=/dev/zero of="\$d/out" bs=512 count=$nwrites > "$res/out" 2> "$res/err"
echo "staprun rc=\$?"
exit 0
EOS
run_guest "$work/guest.sh"

# ---- 3. check
if ! ls "$res"/t_* > /dev/null 2>&1; then
	nok "no trace files"; finish
fi
decode -o "$res/t.txt" "$res/t" 2> "$res/b2a.err" ||
	nok "lket-b2a failed: $(cat "$res/b2a.err")"
decode --no-symbols -o "$res/raw.txt" "$res/t" 2> "$res/raw.err" ||
	nok "lket-b2a --no-symbols failed: $(cat "$res/raw.err")"
decode -f json -o "$res/t.json" "$res/t" 2> /dev/null ||
	nok "lket-b2a -f json failed"

if grep -q "no symbols for the kernel" "$res/b2a.err"; then
	nok "the kernel's symbols were found: $(cat "$res/b2a.err")"
else
	ok "the kernel's symbols were found (its module record and debuginfo)"
fi

# dd's writes: " dd iosyscall.write.entry ... stack=[f+0x0, g+0x3b, ...]"
awk -v want="$nwrites" '
	$5 == "dd" && $6 == "iosyscall.write.entry" {
		n++
		i = index($0, " stack=[")
		if (!i) { nostack++; next }
		s = substr($0, i + 8)
		if (s !~ /(^|, )(ksys_write|__x64_sys_write)\+0x/) nowrite++
		if (s !~ /(^|, )do_syscall_64\+0x/) nosys++
	}
	END {
		if (n >= want) print "ok - " n " write entries of dd (" want " writes)"
		else print "not ok - " n " write entries of dd, want " want
		print (n && !nostack ? "ok" : "not ok") " - every one has a stack (" nostack + 0 " without)"
		print (n && !nowrite ? "ok" : "not ok") " - every stack has ksys_write or __x64_sys_write (" nowrite + 0 " without)"
		print (n && !nosys ? "ok" : "not ok") " - every stack has do_syscall_64 (" nosys + 0 " without)"
	}' "$res/t.txt" > "$res/check"
while read -r verdict rest; do
	case $verdict in
	ok) ok "${rest#- }" ;;
	*) nok "${rest#ok - }" ;;
	esac
done < "$res/check"

# --no-symbols: the same events, the same frames, as addresses
frames() { # FILE: dd's write entries' frame counts, one a line
	awk '$5 == "dd" && $6 == "iosyscall.write.entry" {
		i = index($0, " stack=["); s = substr($0, i + 8)
		print split(substr(s, 1, index(s, "]") - 1), f, ", ") }' "$1"
}
frames "$res/t.txt" > "$res/frames.sym"
frames "$res/raw.txt" > "$res/frames.raw"
# every frame of the --no-symbols output an address: "0x..." alone
notaddr=$(awk '$5 == "dd" && $6 == "iosyscall.write.entry" {
	i = index($0, " stack=["); s = substr($0, i + 8); s = substr(s, 1, index(s, "]") - 1)
	n = split(s, f, ", ")
	for (k = 1; k <= n; k++) if (f[k] !~ /^0x[0-9a-f]+$/) bad++
} END { print bad + 0 }' "$res/raw.txt")
if [ -s "$res/frames.raw" ] && cmp -s "$res/frames.sym" "$res/frames.raw" &&
   [ "$notaddr" = 0 ]; then
	ok "--no-symbols: the same stacks, every frame an address"
else
	nok "--no-symbols: stacks differ from the symbolised ones ($notaddr frames not addresses)"
fi
if grep '"comm":"dd","event":"iosyscall.write.entry"' "$res/t.json" |
	grep -q '"stack":\["[^"]*",.*"do_syscall_64+0x'; then
	ok "JSON: the stack is an array of frames"
else
	nok "JSON: no stack array with do_syscall_64"
fi
finish
