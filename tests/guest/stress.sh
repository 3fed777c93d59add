#!/bin/sh
# tests/guest/stress.sh: every hook at once ("probe addevent.* {}") under
# a heavy mixed load on both vCPUs of the qemu guest, for STRESS_SECONDS
# (default 60; make check-stress: 300).
#
# The load, all at once, while tools/lket-run-traced traces it:
#   * stress-ng: fork, exec (as nobody: it refuses root), signal, kill,
#     sigq, sigpending, page faults, file IO (hdd) and AIO on the SCSI
#     disk, UDP and pipes;
#   * a virtio-scsi disk (ext4, mq-deadline) with the disk, iosyscall and
#     aio workloads of tests/guest/workloads/ in a loop, UDP over lo
#     (netdev), and tests/tapset/workload.c (signals, fork, exec);
#   * the loopback NFS server of tests/guest/nfs.sh, started and stopped
#     inside the traced time, mounted with NFSv3 and NFSv4.2: the nfs.c
#     workload in a loop on each mount, a writer on the v3 mount and a
#     reader of the same file on the v4 mount, and once the retries a
#     healthy mount never makes (a request dropped while rpc.mountd is
#     stopped; a v3 WRITE answered NFS3ERR_JUKEBOX during a delegation
#     recall).
#
# Fails on: a guest that does not start or times out; any oops, BUG,
# WARNING, lockdep report, RCU stall, soft or hard lockup or hung task in
# the guest's kernel log; a module that is still loaded after the run; a
# workload that failed; a record that lket-b2a cannot decode (any message
# but the dropped-record lines); records the module says it dropped
# ("LKET: N records were dropped") that lket-b2a does not report exactly
# (--stat's "records dropped"; after the load the consumer is stopped for
# 15 s of pipe traffic so that the 1 MiB buffers fill and some are), any
# flush lost in transport, any record the trace's end (lket.cpu_end)
# says was written and no file holds, probe hits stapio says SystemTap
# skipped that lket-b2a does not report exactly (lket.trace_end: a probe
# that fires on a CPU where a handler runs, e.g. an interrupt's hook
# during another hook, is skipped and its record lost, but no longer
# without a trace); fewer hooks fired than STRESS_MIN_HOOKS
# (default 190 of 221 in the short run, 200 from 300 s on), or a hook
# that did not fire and that tests/guest/stress-unreached.txt does not
# name with its reason.
#
# LTTng's own analyses must read the trace's CTF export to the end and
# agree with lket-b2a (tests/ctf/lttng-agree.py).
#
# Prints the hooks that fired, the ones that did not with their reason,
# and the throughput: events/s per CPU, bytes/s, dropped and lost.
#
# Exit: 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${LKET_BUILDDIR:-$top/build}
mkdir -p "$build"
build=$(cd "$build" && pwd)
rel=$("$top/tools/lket-target")
seconds=${STRESS_SECONDS:-60}
case $seconds in ''|*[!0-9]*) echo "stress: bad STRESS_SECONDS $seconds" >&2; exit 1 ;; esac
if [ -z "${STRESS_MIN_HOOKS:-}" ]; then
	if [ "$seconds" -ge 300 ]; then STRESS_MIN_HOOKS=200; else STRESS_MIN_HOOKS=190; fi
fi
unreached=$here/stress-unreached.txt
# its lines with a third column hold for that kernel series only
case $rel in 6.1.*) series=6.1 ;; *) series=6.12 ;; esac
work=$build/guest-tests/stress
res=$work/res

pass=0 failn=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { failn=$((failn + 1)); echo "not ok - $*"; }
finish() {
	echo "stress: $pass passed, $failn failed"
	[ "$failn" = 0 ]
	exit
}
fail() { bad "$*"; finish; }

if [ "${LKET_SKIP_GUEST:-}" = 1 ]; then
	echo "stress: SKIP (LKET_SKIP_GUEST=1)"
	exit 77
fi
for t in stress-ng setpriv rpcbind rpc.nfsd rpc.mountd exportfs mount.nfs mkfs.ext4; do
	command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] || [ -x "/sbin/$t" ] ||
		fail "$t missing: tools/install-deps guest"
done
rm -rf "$work"
mkdir -p "$res"
cd "$work" || fail "no $work"
SYSTEMTAP_DIR=$build/stap-cache LKET_BUILDDIR=$build LKET_KERNEL_RELEASE=$rel
export SYSTEMTAP_DIR LKET_BUILDDIR LKET_KERNEL_RELEASE

# ---- host: lket-b2a, the workloads, the all-hooks module
make -s -C "$top" BUILD="$build" "$build/lket-b2a" "$build/lket-gencat" \
	tapset/lket_catalogue.stp tapset/lket_aliases.stp >/dev/null ||
	fail "make failed"
cc=${CC:-cc}
for w in iosyscall aio netdev; do
	$cc -std=gnu11 -O1 -Wall -Wextra -Werror -o "$w" "$here/workloads/$w.c" ||
		fail "cannot build workload $w"
done
# 32-bit too: x86-64 has no _llseek but for 32-bit programs (gcc-multilib)
$cc -m32 -static -std=gnu11 -O1 -Wall -Wextra -Werror -o iosyscall32 \
	"$here/workloads/iosyscall.c" || fail "cannot build the 32-bit iosyscall workload (gcc-multilib)"
$cc -std=gnu11 -O2 -Wall -Wextra -Werror -static -o nfswl "$here/workloads/nfs.c" ||
	fail "cannot build the nfs workload"
$cc -std=c11 -O2 -Wall -Wextra -Werror -static -o workload "$top/tests/tapset/workload.c" ||
	fail "cannot build tests/tapset/workload.c"
t0=$(date +%s)
# STP_NO_OVERLOAD: under emulation the handlers of every hook at once
# take more than SystemTap's overload guard allows (half of each CPU's
# cycles, measured: 70% in a 300 s run), and it stops the module in the
# middle of the load ("probe overhead exceeded threshold"), as in
# bench/guest.sh.
# shellcheck disable=SC2086 # LKET_STAP_EXTRA: more stap options
"$top/tools/lket-stap" -DSTP_NO_OVERLOAD ${LKET_STAP_EXTRA:-} -p4 -m lket_stress \
	-e 'probe addevent.* {}' >stap.out 2>stap.err ||
	{ cat stap.err; fail "cannot build the all-hooks module"; }
ok "build: the all-hooks module, $(wc -c <lket_stress.ko) bytes, in $(($(date +%s) - t0)) s"
"$build/lket-gencat" probes | sed 's/^addevent\.//' | sort >hooks.all

# ---- guest
# What runs traced: the NFS server and mounts come and go inside it.
cat >load.sh <<LOAD
set -u
W='$work'; R='$res'; S=$seconds
LOAD
cat >>load.sh <<'LOAD'
say() { echo "load: $*"; }
mkdir -p /srv/v4 /mnt/v3 /mnt/v4 /run/rpcbind /var/lib/nfs/rpc_pipefs /run/stress-exec
chmod 777 /run/stress-exec
mount -t tmpfs tmpfs /srv/v4 && mkdir -p /srv/v4/x && mount -t tmpfs tmpfs /srv/v4/x
printf '%s\n' '/srv/v4 127.0.0.1(rw,fsid=0,crossmnt,no_subtree_check,no_root_squash,insecure)' \
	'/srv/v4/x 127.0.0.1(rw,fsid=1,sync,no_subtree_check,no_root_squash,insecure)' >/etc/exports
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs 2>/dev/null
mount -t nfsd nfsd /proc/fs/nfsd
echo 10 >/proc/fs/nfsd/nfsv4gracetime; echo 10 >/proc/fs/nfsd/nfsv4leasetime
echo 10 >/proc/sys/fs/nfs/nlm_grace_period
rpcbind -w || say "rpcbind failed"
exportfs -ra || say "exportfs failed"
rpc.mountd || say "rpc.mountd failed"
rpc.nfsd 4 || say "rpc.nfsd failed"
mount -t nfs -o vers=3,nolock,proto=tcp 127.0.0.1:/srv/v4/x /mnt/v3 || say "mount v3 failed"
mount -t nfs -o vers=4.2 127.0.0.1:/x /mnt/v4 || say "mount v4 failed"
t0=$(date +%s)
end=$((t0 + S))
running() { [ "$(date +%s)" -lt "$end" ]; }

stress-ng --fork 1 --signal 1 --kill 1 --sigq 1 --sigpending 1 --fault 1 \
	--hdd 1 --hdd-bytes 8M --aio 1 --udp 1 --pipe 1 --temp-path /mnt/lket \
	--timeout "${S}s" --metrics-brief >"$R/stress-ng.out" 2>&1 ||
	say "stress-ng failed" &
setpriv --reuid=65534 --regid=65534 --clear-groups stress-ng --exec 1 \
	--temp-path /run/stress-exec --timeout "${S}s" --metrics-brief \
	>"$R/stress-ng-exec.out" 2>&1 || say "stress-ng exec failed" &
# block IO, IO system calls, AIO, UDP, signals
(
	mkdir -p /mnt/lket/io
	n=0
	while running; do
		sh "$W/disk.sh" /mnt/lket/io || say "disk workload failed"
		"$W/iosyscall" /mnt/lket >/dev/null || say "iosyscall workload failed"
		"$W/iosyscall32" /mnt/lket >/dev/null || say "iosyscall (32-bit) workload failed"
		"$W/aio" /mnt/lket >/dev/null || say "aio workload failed"
		"$W/netdev" 127.0.0.1 700 >/dev/null || say "netdev workload failed"
		(cd /run && "$W/workload" stress >/dev/null) || say "tapset workload failed"
		n=$((n + 1))
	done
	say "io rounds $n"
) &
# the NFS workload on each mount
for v in 3 4; do
	(
		n=0
		while running; do
			"$W/nfswl" /mnt/v$v "s${n}_${v}_" >/dev/null || say "nfs workload v$v failed"
			n=$((n + 1))
		done
		say "nfs v$v rounds $n"
	) &
done
# a writer on the v3 mount and a reader of the same file on the v4 mount
(
	while running; do
		dd if=/dev/zero of=/mnt/v3/shared bs=65536 count=16 conv=fsync 2>/dev/null ||
			say "nfs writer failed"
	done
) &
(
	while running; do
		cat /mnt/v4/shared >/dev/null 2>&1
		echo 1 >/proc/sys/vm/drop_caches
	done
) &
# the retries (as tests/guest/nfs.sh): a request dropped while rpc.mountd
# is stopped, then a v3 WRITE answered NFS3ERR_JUKEBOX
(
	mp=$(pidof rpc.mountd)
	kill -STOP $mp
	exportfs -f
	stat /mnt/v3/drop_probe >/dev/null 2>&1 &
	st=$!
	sleep 8
	kill -CONT $mp
	wait $st
	while [ $(($(date +%s) - t0)) -lt 15 ]; do sleep 1; done
	printf 'server\n' >/srv/v4/x/deleg
	exec 3</mnt/v4/deleg
	cat <&3 >/dev/null
	printf 'v3 append\n' >>/mnt/v3/deleg || say "v3 append failed"
	exec 3<&-
	say "retries done"
) &
wait
say "load ended after $(($(date +%s) - t0)) s"
# then the consumer stopped for 15 s of pipe traffic: the 1 MiB buffers
# fill and LKET drops records, which the module counts and lket-b2a must
# report exactly (after the load, so that the records of the rare hooks
# are not among them)
c=$(cat "$R/consumer")
kill -STOP "$c" || say "stopping the consumer failed"
stress-ng --pipe 1 --timeout 15s >/dev/null 2>&1 || say "stress-ng pipe (consumer stopped) failed"
kill -CONT "$c"
say "consumer stopped for 15 s"
umount /mnt/v3 || say "umount v3 failed"
umount /mnt/v4 || say "umount v4 failed"
rpc.nfsd 0
exportfs -ua
i=0; while [ $i -lt 60 ] && pgrep -x nfsd >/dev/null; do sleep 0.5; i=$((i + 1)); done
pgrep -x nfsd >/dev/null && say "nfsd threads did not stop"
exit 0
LOAD

{
	echo "set -u"
	echo "W='$work'; R='$res'"
	echo "RES=\$R"
	echo 'exec >"$R/job.log" 2>&1'
	# the disk as tests/guest/io-common.sh sets it up
	cat <<'EOS'
modprobe virtio_scsi && modprobe sd_mod || { echo "disk modules failed"; exit 1; }
n=0
while [ ! -e /sys/block/sda ] && [ $n -lt 100 ]; do sleep 0.2; n=$((n + 1)); done
dev=sda
[ -e /dev/$dev ] || mknod /dev/$dev b $(cut -d: -f1 /sys/block/$dev/dev) $(cut -d: -f2 /sys/block/$dev/dev)
mkfs.ext4 -q -F /dev/$dev || { echo "mkfs failed"; exit 1; }
mkdir -p /mnt/lket
mount -t ext4 /dev/$dev /mnt/lket || { echo "mount of the disk failed"; exit 1; }
echo mq-deadline >/sys/block/$dev/queue/scheduler || echo "mq-deadline failed"
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
for m in sunrpc lockd nfsd nfs nfsv3 nfsv4; do modprobe $m || echo "modprobe $m failed"; done
# hung tasks: the kernel's own threshold (120 s).  30 s was tried: under
# emulation, with the host busy, an fadvise() waited 31 s for
# lru_add_drain_all()'s mutex behind the drop_caches of the NFS reader and
# then went on: slow, not hung.
[ "$(cat /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null || echo 0)" != 0 ] ||
	echo "hung task detection failed: it is off in this kernel"
EOS
	echo "cd /run"
	# buffers of 1 MiB a CPU (16 by default), which the load fills while
	# the consumer is stopped (load.sh): the records dropped then must be
	# counted alike by the module and by lket-b2a
	echo "'$top/tools/lket-run-traced' -b 1 -o \"\$R/t\" -p \"\$R/consumer\" \"\$W/lket_stress.ko\" -- sh \"\$W/load.sh\" >\"\$R/run.out\" 2>&1"
	cat <<'EOS'
echo "run status $?"
if grep -q '^lket_stress ' /proc/modules; then
	echo "module still loaded"
	rmmod lket_stress; echo "rmmod status $?"
fi
dmesg >"$R/dmesg"
umount /mnt/lket || echo "umount of the disk failed"
exit 0
EOS
} >job.sh
cp "$here/workloads/disk.sh" disk.sh
truncate -s 256M disk.img
qemu_disk="-device virtio-scsi-pci,id=lketscsi -drive file=$work/disk.img,if=none,id=lketdisk,format=raw,cache=unsafe -device scsi-hd,drive=lketdisk,bus=lketscsi.0"
t0=$(date +%s)
rc=0
"$top/tests/vm/lket-vm" run --timeout "${LKET_VM_TIMEOUT:-$((seconds * 4 + 900))}" \
	--results "$res" --extra-qemu "$qemu_disk" --script job.sh >guest.out 2>&1 || rc=$?
guest_s=$(($(date +%s) - t0))
rm -f disk.img
if [ $rc = 0 ]; then
	ok "guest: ran ${seconds} s of load in a ${guest_s} s boot; lket-vm found no panic, Oops, BUG or WARNING"
else
	tail -n 40 guest.out
	tail -n 40 "$res/job.log" 2>/dev/null
	bad "guest: lket-vm status $rc"
fi

# ---- the kernel log: the console and the guest's dmesg
trouble='Oops|BUG:|WARNING:|kernel BUG|general protection fault|Call Trace|lockdep|possible recursive locking|circular locking dependency|inconsistent lock state|suspicious RCU usage|rcu_(sched|preempt) (self-)?detected stall|rcu: INFO|self-detected stall|soft lockup|hard LOCKUP|blocked for more than|hung_task|scheduling while atomic|sleeping function called from invalid context|list_(add|del) corruption|UBSAN|stack-protector|double fault'
if grep -Eh "$trouble" "$res/console.log" "$res/dmesg" 2>/dev/null | sort -u >kernel-trouble.txt &&
   [ -s kernel-trouble.txt ]; then
	bad "kernel log: $(head -n 5 kernel-trouble.txt | tr '\n' '|')"
else
	if [ -s "$res/dmesg" ]; then ok "kernel log: no oops, BUG, WARNING, lockdep, RCU stall, lockup or hung task"
	else bad "kernel log: the guest's dmesg was not saved"; fi
fi
# ---- the run
grep -q '^run status 0$' "$res/job.log" 2>/dev/null &&
	ok "lket-run-traced: the load ran to its end (status 0)" ||
	bad "lket-run-traced: $(grep '^run status' "$res/job.log" 2>/dev/null || echo 'no status')"
if grep -q 'module still loaded' "$res/job.log" 2>/dev/null; then
	bad "module: still loaded after the run ($(grep 'rmmod status' "$res/job.log"))"
else
	ok "module: unloaded when tracing stopped"
fi
if grep -E 'failed|did not stop' "$res/job.log" "$res/run.out" >problems.txt 2>/dev/null; then
	bad "workloads: $(sort -u problems.txt | head -n 5 | tr '\n' '|')"
else
	ok "workloads: $(grep -E '^load: (io|nfs v[34]) rounds|retries done' "$res/run.out" | sed 's/^load: //' | tr '\n' ';')"
fi
grep -q 'successful run completed' "$res/stress-ng.out" 2>/dev/null &&
	grep -q 'successful run completed' "$res/stress-ng-exec.out" 2>/dev/null &&
	ok "stress-ng: both runs completed" ||
	bad "stress-ng: $(tail -n 2 "$res/stress-ng.out" "$res/stress-ng-exec.out" 2>/dev/null | tr '\n' '|')"

# ---- the trace: every record decoded; losses counted the same
ls "$res"/t_* >/dev/null 2>&1 || fail "no trace files"
b2arc=0
"$build/lket-b2a" --stat -o stat.txt "$res/t" 2>b2a.err || b2arc=$?
[ $b2arc -le 1 ] || { head -n 20 b2a.err; fail "lket-b2a --stat: status $b2arc"; }
# the module's own count of the records it dropped (0 when it says nothing)
mdropped=$(sed -n 's/.*LKET: \([0-9]*\) records were dropped.*/\1/p' "$res/run.out" | tail -n 1)
mdropped=${mdropped:-0}
skipped=$(sed -n 's/.*skipped probes: \([0-9]*\).*/\1/p' "$res/run.out" | tail -n 1)
skipped=${skipped:-0}
perrors=$(sed -n 's/.*Number of errors: \([0-9]*\).*/\1/p' "$res/run.out" | tail -n 1)
perrors=${perrors:-0}
events=$(sed -n 's/^events: //p' stat.txt)
lost=$(sed -n 's/^flushes lost: //p' stat.txt)
dropped=$(sed -n 's/^records dropped: //p' stat.txt)
missing=$(sed -n 's/^records missing: //p' stat.txt)
bskipped=$(sed -n 's/^probe hits skipped: //p' stat.txt)
duration=$(sed -n 's/^duration: //p' stat.txt)
[ -n "$events" ] && [ -n "$lost" ] && [ -n "$dropped" ] && [ -n "$missing" ] &&
	[ -n "$bskipped" ] || fail "lket-b2a --stat: no totals in stat.txt"
# lket-b2a's messages: only the dropped-record runs and the skipped probe
# hits it reports (and with them the status 1); anything else is damage,
# and so are messages it did not show unless it says all of them were
# losses its sums count (which the totals above check)
grep -v '^lket-b2a: trace: [0-9]* records of CPU [0-9]* dropped by the tracer, its buffers full, \(between\|after\) \|^lket-b2a: [0-9]* records dropped by the tracer$\|^lket-b2a: trace: SystemTap skipped [0-9]* probe hits (lket.trace_end)\|^lket-b2a: [0-9]* probe hits skipped by SystemTap$\|^lket-b2a: [0-9]* more messages not shown, all about the losses summed up below$' \
	b2a.err >b2a.damage
if [ -s b2a.damage ]; then
	bad "lket-b2a: $(wc -l <b2a.damage) messages about damage: $(head -n 3 b2a.damage | tr '\n' '|')"
else
	ok "lket-b2a: every record of $events decoded, no damage reported"
fi
[ "$perrors" = 0 ] && ok "stapio: no probe errors" || bad "stapio: $perrors probe errors"
# a probe that did not run wrote no record; the trace's end says how
# many (lket.trace_end), and lket-b2a must report exactly stapio's count
if [ "$bskipped" = "$skipped" ]; then
	ok "skipped probe hits: stapio says $skipped, lket-b2a reports $bskipped"
else
	bad "skipped probe hits: stapio says $skipped, lket-b2a reports $bskipped (rebuild with LKET_STAP_EXTRA=-DSTP_TIMING to see which)"
fi
[ "$lost" = 0 ] && ok "transport: no flush lost" || bad "transport: lket-b2a found $lost flushes lost"
[ "$missing" = 0 ] && ok "transport: every record the module wrote is in the files (lket.cpu_end)" ||
	bad "transport: $missing records the module wrote are missing from the files"
if [ "$dropped" = "$mdropped" ]; then
	ok "dropped records: the module counted $mdropped, lket-b2a reports $dropped"
else
	bad "dropped records: the module counted $mdropped, lket-b2a reports $dropped"
fi
# the load really made the module drop records while the consumer was
# stopped (else the comparison above proves little)
[ "$mdropped" -gt 0 ] && ok "dropped records: the stopped consumer made the module drop $mdropped" ||
	bad "dropped records: none while the consumer was stopped"
grep -q 'consumer stopped for 15 s' "$res/run.out" 2>/dev/null ||
	bad "the consumer was not stopped"
if [ "$dropped" = 0 ] && [ "$bskipped" = 0 ] && [ $b2arc != 0 ]; then bad "lket-b2a: status $b2arc with nothing lost"; fi
if [ "$dropped$bskipped" != 00 ] && [ $b2arc != 1 ]; then bad "lket-b2a: status $b2arc with records dropped or skipped"; fi

# ---- hooks that fired
awk '/^events by type:/ { on = 1; getline; next } /^events by/ { on = 0 }
     on && NF == 2 { print $2 }' stat.txt | sort -u >hooks.fired
comm -12 hooks.all hooks.fired >hooks.hit
comm -23 hooks.all hooks.fired >hooks.missed
nall=$(wc -l <hooks.all) nhit=$(wc -l <hooks.hit)
echo "stress: hooks fired ($nhit of $nall):"
fmt -w 100 hooks.hit | sed 's/^/    /'
echo "stress: hooks not fired:"
unexplained=0
while read -r h; do
	why=$(awk -v h="$h" -v s="$series" -F '\t' '$1 == h && ($3 == "" || $3 == s) { print $2 }' "$unreached")
	if [ -n "$why" ]; then
		echo "    $h: $why"
	else
		echo "    $h: NOT EXPECTED (not in tests/guest/stress-unreached.txt)"
		unexplained=$((unexplained + 1))
	fi
done <hooks.missed
if [ "$nhit" -ge "$STRESS_MIN_HOOKS" ]; then
	ok "hooks: $nhit of $nall fired (at least $STRESS_MIN_HOOKS)"
else
	bad "hooks: $nhit of $nall fired, fewer than $STRESS_MIN_HOOKS"
fi
[ "$unexplained" = 0 ] && ok "hooks: every hook that did not fire is named with its reason" ||
	bad "hooks: $unexplained hooks did not fire and have no reason in tests/guest/stress-unreached.txt"

# ---- LTTng's own analyses read the CTF export of every hook's trace to
# the end and agree with lket-b2a (tests/ctf/lttng-agree.py; records
# dropped make lket-b2a's status 1).  Each of LTTng's analysis modules
# once (CPU, syscalls, I/O, scheduling, IRQs): its other views of the
# same modules (iolatencytop, iousagetop, schedtop, schedlog) are minutes
# more of the host's CPU on these 2 M events, and read the smaller
# exports of ctf.sh and sched.sh.
rm -rf t.ctf
b2arc=0
"$build/lket-b2a" --no-symbols --ctf t.ctf "$res/t" 2>/dev/null || b2arc=$?
if [ $b2arc -le 1 ]; then
	# the runs of dropped records lket-b2a --stat reported, shown or not
	# (the damage check above: every message hidden is a loss, a run of
	# them or the skipped probe hits' one, a run too many at most)
	drop_runs=$(awk '/ dropped by the tracer, its buffers full, / { n++ }
		/^lket-b2a: [0-9]* more messages not shown, all about the losses / { n += $2 }
		END { print n + 0 }' b2a.err)
	LKET_AGREE_DROP_RUNS=$drop_runs \
	LKET_AGREE_ANALYSES="cputop syscallstats iolatencystats schedstats irqstats" \
		python3 "$top/tests/ctf/lttng-agree.py" \
		"$build/lket-b2a" "$res/t" t.ctf > lttng.txt 2>&1
	arc=$?
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "${line#ok - }" ;;
		"not ok - "*) bad "${line#not ok - }" ;;
		esac
	done < lttng.txt
	grep -q '^ok - ' lttng.txt && [ $arc -le 1 ] ||
		bad "lttng-agree.py failed (exit $arc): $(tail -n 3 lttng.txt | tr '\n' '|')"
else
	bad "lket-b2a --ctf: status $b2arc"
fi
rm -rf t.ctf

# ---- throughput, from the same run
bytes=$(cat "$res"/t_* | wc -c)
awk -v d="$duration" -v b="$bytes" -v ev="$events" -v dr="$dropped" -v lo="$lost" \
    -v sk="$skipped" -v s="$seconds" '
	/^events by CPU:/ { on = 1; getline; next } /^events by/ { on = 0 }
	on && NF == 2 { cpu[$2] = $1; n++ }
	END {
		if (d <= 0) d = 1
		printf "stress: throughput over %.1f s traced (%d s of load): %d events, %.0f events/s,", d, s, ev, ev / d
		for (c in cpu) printf " cpu%s %.0f/s", c, cpu[c] / d
		printf "; %d bytes, %.0f bytes/s; dropped %d, flushes lost %d, skipped probes %d\n", b, b / d, dr, lo, sk
	}' stat.txt | tee throughput.txt
finish
