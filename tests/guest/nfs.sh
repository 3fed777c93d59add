#!/bin/sh
# tests/guest/nfs.sh: the sunrpc, nfs and nfsd groups in the qemu guest.
#
# One module with every hook of the three groups (and signal.flush, which
# only kernel threads such as lockd's reach); one boot in which the
# guest exports a tmpfs (fsid=0,crossmnt pseudo-root /srv/v4 and the share
# /srv/v4/x, fsid=1) over 127.0.0.1, starts rpcbind, rpc.mountd and
# rpc.nfsd by hand (the guest has no systemd), mounts it with NFSv3
# (nolock) and NFSv4.2, and runs tests/guest/workloads/nfs.c on each
# mount; then provokes the retries a healthy mount never makes (a
# request the server drops while rpc.mountd is stopped; a v3 WRITE
# answered NFS3ERR_JUKEBOX while the v4 mount's read delegation is being
# recalled); then unmounts and stops nfsd.  A second boot, with a small
# memory and a module of the nfs.aop.writepage hooks only, leaves a large
# NFS file dirty and takes anonymous memory until kswapd writes a page of
# it itself (tests/guest/workloads/nfs-reclaim.c); that boot is made on
# 6.1 only, where kswapd writes NFS pages one at a time.  On 6.12 the
# hook fires when a read needs a page that a partial write left dirty and
# not up to date, a step of the first boot.  The traces are
# decoded with build/lket-b2a and checked hook by hook (table below).
#
# Exit: 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
# Prints "nfs: N passed, M failed".
#
# Needs on the host: nfs-kernel-server rpcbind nfs-common (the guest
# sees the host root), linux-image-REL-dbg (module debuginfo).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${LKET_BUILDDIR:-$top/build}
rel=$("$top/tools/lket-target")
# The kernel series: some hooks see other values there (v61 below), and
# nfs.aop.writepage fires elsewhere (tapset/nfs.stp): page reclaim on
# 6.1, a read of a partly written page on 6.12
case $rel in
6.1.*) series=6.1 writepage_by=reclaim ;;
*) series=6.12 writepage_by=read ;;
esac
work=$build/guest-tests/nfs
res=$work/res
resr=$work/res-reclaim

fail() { echo "nfs: FAIL: $*" >&2; echo "nfs: 0 passed, 1 failed"; exit 1; }

if [ "${LKET_SKIP_GUEST:-}" = 1 ]; then
	echo "nfs: SKIP (LKET_SKIP_GUEST=1)"
	exit 77
fi
for t in rpcbind rpc.nfsd rpc.mountd exportfs mount.nfs; do
	command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] || [ -x "/sbin/$t" ] ||
		fail "$t missing: apt-get install -y --no-install-recommends nfs-kernel-server rpcbind nfs-common"
done
[ -x "$build/lket-b2a" ] || fail "$build/lket-b2a missing: make build/lket-b2a"
if [ "${NFS_CHECK_ONLY:-}" != 1 ]; then
rm -rf "$work"
mkdir -p "$res" "$resr"

# ---- host: tools/lket-buildenv's build tree has the -dbg package's
# debuginfo of sunrpc, nfs*, nfsd and lockd in kmod/, so the module("...")
# probes resolve with the standard options; tools/lket-stap uses them.
LKET_KERNEL_RELEASE=$rel
export LKET_KERNEL_RELEASE
[ -x "$top/tools/lket-stap" ] || fail "tools/lket-stap missing"
"$top/tools/lket-buildenv" --release "$rel" >/dev/null || fail "tools/lket-buildenv failed"

cd "$work"
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -static -o nfswl \
	"$here/workloads/nfs.c" || fail "cannot build the workload"
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -static -o nfs-reclaim \
	"$here/workloads/nfs-reclaim.c" || fail "cannot build the reclaim workload"
# NFS_STAP_OPTS: extra stap options (e.g. -t to have staprun break the
# skipped probes down by cause).  The modules are built side by side
# (tests/stap-jobs.sh).
. "$top/tests/stap-jobs.sh"
# shellcheck disable=SC2086
stap_job "$work" lket_nfs ${NFS_STAP_OPTS:-} \
	-e 'probe addevent.sunrpc {} probe addevent.nfs {} probe addevent.nfsd {}
	    probe addevent.signal.flush {}'
mods="lket_nfs lket_nfs_entry"
# (the module of the reclaim boot, only where that boot is made)
if [ $writepage_by = reclaim ]; then
	# shellcheck disable=SC2086
	stap_job "$work" lket_nfs_reclaim ${NFS_STAP_OPTS:-} \
		-e 'probe addevent.nfs.aop.writepage.entry, addevent.nfs.aop.writepage.return {}'
	mods="$mods lket_nfs_reclaim"
fi
# an entry hook whose return hook the script lacks: nothing may hold the
# task marks of busy VFS functions (tapset/nfs.stp) for a return that
# never comes
stap_job "$work" lket_nfs_entry -e 'probe addevent.nfs.fop.read.entry {}'
for m in $mods; do
	stap_wait "$work" $m || { cat "$m.stap.err" >&2; fail "cannot build $m"; }
done

# ---- guest: each staprun's -c command marks that every probe is armed
# (stapio starts it only then; with 600 kprobes that takes seconds under
# emulation), and the job waits for the mark
cat >job.sh <<JOB
set -u
W='$work'; R='$res'
exec >"\$R/job.log" 2>&1
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
for m in sunrpc lockd nfsd nfs nfsv3 nfsv4; do modprobe \$m || echo "modprobe \$m failed"; done
mkdir -p /srv/v4 /mnt/v3 /mnt/v4 /run/rpcbind /var/lib/nfs/rpc_pipefs
mount -t tmpfs tmpfs /srv/v4 && mkdir -p /srv/v4/x && mount -t tmpfs tmpfs /srv/v4/x
printf '%s\n' '/srv/v4 127.0.0.1(rw,fsid=0,crossmnt,no_subtree_check,no_root_squash,insecure)' \
	'/srv/v4/x 127.0.0.1(rw,fsid=1,sync,no_subtree_check,no_root_squash,insecure)' >/etc/exports
staprun -o "\$R/trace" -c "touch /run/lket-armed-nfs; exec sleep 86400" "\$W/lket_nfs.ko" >"\$R/staprun.out" 2>&1 &
sp=\$!
i=0; while [ \$i -lt 240 ] && [ ! -e /run/lket-armed-nfs ]; do sleep 0.5; i=\$((i+1)); done
[ -e /run/lket-armed-nfs ] || echo "staprun nfs: its probes were not armed in 120 s: failed"
sleep 2
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs 2>/dev/null
mount -t nfsd nfsd /proc/fs/nfsd
echo 10 >/proc/fs/nfsd/nfsv4gracetime; echo 10 >/proc/fs/nfsd/nfsv4leasetime
# lockd's grace period (50 s by default) also holds back delegations
echo 10 >/proc/sys/fs/nfs/nlm_grace_period
rpcbind -w || echo "rpcbind failed"
exportfs -ra || echo "exportfs failed"
rpc.mountd || echo "rpc.mountd failed"
rpc.nfsd 4 || echo "rpc.nfsd failed"
t0=\$(date +%s)
echo "step mount3"
mount -t nfs -o vers=3,nolock,proto=tcp 127.0.0.1:/srv/v4/x /mnt/v3 || echo "mount v3 failed"
"\$W/nfswl" /mnt/v3 v3_ >"\$R/wl3.out" 2>&1 || echo "workload v3 failed"
grep ' /mnt/v3 ' /proc/mounts >"\$R/mounts3"
# entry only, a second module beside the first: 100 reads of one file,
# 50 by processes of their own, 50 by this shell (more than the 64 marks
# a table holds)
echo "step entryonly"
printf 'x\n' >/mnt/v3/v3_entry
staprun -o "\$R/entry" -c "touch /run/lket-armed-entry; exec sleep 86400" "\$W/lket_nfs_entry.ko" >"\$R/staprun-entry.out" 2>&1 &
ep=\$!
i=0; while [ \$i -lt 240 ] && [ ! -e /run/lket-armed-entry ]; do sleep 0.5; i=\$((i+1)); done
[ -e /run/lket-armed-entry ] || echo "staprun entry: its probes were not armed in 120 s: failed"
sleep 2
echo "entryonly shell \$\$"
i=0
while [ \$i -lt 50 ]; do
	head -c 1 /mnt/v3/v3_entry >/dev/null || echo "entryonly read failed"
	read -r x </mnt/v3/v3_entry || echo "entryonly read failed"
	i=\$((i+1))
done
kill -TERM \$ep; wait \$ep; echo "staprun entry status \$?"
echo "step mount4"
mount -t nfs -o vers=4.2 127.0.0.1:/x /mnt/v4 || echo "mount v4 failed"
"\$W/nfswl" /mnt/v4 v4_ >"\$R/wl4.out" 2>&1 || echo "workload v4 failed"
# drop: with rpc.mountd stopped and the auth cache flushed, the stat's
# first v3 call waits for the cache upcall (5 s), is deferred and dropped
# (svc_drop), then processed again once rpc.mountd answers
echo "step drop"
mp=\$(pidof rpc.mountd)
kill -STOP \$mp
exportfs -f
stat "/mnt/v3/v3_drop_probe" >/dev/null 2>&1 &
st=\$!
sleep 8
kill -CONT \$mp
wait \$st
# jukebox: the v4 mount holds a read delegation on v3_deleg; a v3 WRITE
# of it breaks the lease, nfsd answers NFS3ERR_JUKEBOX, and the client
# restarts the call after rpc_delay(5 s).  Delegations wait for the end
# of both grace periods (10 s).
echo "step jukebox"
while [ \$((\$(date +%s) - t0)) -lt 15 ]; do sleep 1; done
printf 'server\\n' >/srv/v4/x/v3_deleg
exec 3</mnt/v4/v3_deleg
cat <&3 >/dev/null
grep -q 'type: deleg' /proc/fs/nfsd/clients/*/states ||
	echo "jukebox step failed: no delegation granted"
printf 'v3 append\\n' >>/mnt/v3/v3_deleg || echo "v3 append failed"
exec 3<&-
sleep 3
umount /mnt/v3 || echo "umount v3 failed"
umount /mnt/v4 || echo "umount v4 failed"
rpc.nfsd 0
exportfs -ua
# the nfsd threads stop, and the service is destroyed, after rpc.nfsd
# returns: wait for them (under emulation that took more than a second)
i=0; while [ \$i -lt 40 ] && pgrep -x nfsd >/dev/null; do sleep 0.5; i=\$((i+1)); done
sleep 1
kill -TERM \$sp; wait \$sp; echo "staprun status \$?"
JOB
rc=0
"$top/tests/vm/lket-vm" run --timeout "${LKET_VM_TIMEOUT:-900}" --results "$res" \
	--script job.sh >guest.out 2>&1 || rc=$?
[ $rc = 0 ] || { tail -n 40 guest.out >&2; cat "$res/job.log" >&2 2>/dev/null; fail "guest job failed (status $rc)"; }
if grep -E 'failed' "$res/job.log" >&2; then fail "guest setup or workload failed (see $res/job.log)"; fi

# ---- reclaim boot: 1 GiB, dirty limits above the memory (in bytes:
# ratios shrink with the memory left as anonymous memory grows, and the
# flusher then starts writing) so that the flusher leaves the dirty pages
# to page reclaim, and kswapd woken early (watermark_scale_factor); the
# classic LRU (Debian's 6.1 leaves MGLRU off, which never writes pages).
# nfs_writepage() refuses reclaim's writes while the mount has more than
# nfs_congestion_kb in flight: with no flusher writing, it has none.
if [ $writepage_by = reclaim ]; then
cat >job-reclaim.sh <<JOB
set -u
W='$work'; R='$resr'
exec >"\$R/job.log" 2>&1
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
for m in sunrpc lockd nfsd nfs nfsv3; do modprobe \$m || echo "modprobe \$m failed"; done
mkdir -p /srv/r /mnt/r /run/rpcbind /run/lket-trace
mount -t tmpfs tmpfs /srv/r
echo '/srv/r 127.0.0.1(rw,fsid=2,no_subtree_check,no_root_squash,insecure)' >/etc/exports
staprun -o /run/lket-trace/trace -c "touch /run/lket-armed-reclaim; exec sleep 86400" "\$W/lket_nfs_reclaim.ko" >"\$R/staprun.out" 2>&1 &
sp=\$!
i=0; while [ \$i -lt 240 ] && [ ! -e /run/lket-armed-reclaim ]; do sleep 0.5; i=\$((i+1)); done
[ -e /run/lket-armed-reclaim ] || echo "staprun reclaim: its probes were not armed in 120 s: failed"
sleep 2
mount -t nfsd nfsd /proc/fs/nfsd
rpcbind -w || echo "rpcbind failed"
exportfs -ra || echo "exportfs failed"
rpc.mountd || echo "rpc.mountd failed"
rpc.nfsd 2 || echo "rpc.nfsd failed"
mount -t nfs -o vers=3,nolock,proto=tcp 127.0.0.1:/srv/r /mnt/r || echo "mount reclaim failed"
[ -w /sys/kernel/mm/lru_gen/enabled ] && echo 0 >/sys/kernel/mm/lru_gen/enabled
sysctl -q -w vm.dirty_bytes=8589934592 vm.dirty_background_bytes=6442450944 \
	vm.dirty_expire_centisecs=360000 vm.dirty_writeback_centisecs=0 \
	vm.watermark_scale_factor=1000 || echo "sysctl failed"
echo "step reclaim"
grep ' /mnt/r ' /proc/mounts >"\$R/mounts"
"\$W/nfs-reclaim" /mnt/r/reclaim_data 300 700 >"\$R/wl.out" 2>&1 || echo "reclaim workload failed"
grep -E 'nr_vmscan_write|pgscan_kswapd' /proc/vmstat
umount /mnt/r || echo "umount reclaim failed"
rpc.nfsd 0
kill -TERM \$sp; wait \$sp; echo "staprun status \$?"
cp /run/lket-trace/trace_* "\$R/"
JOB
# Memory pressure does not always go the same way: now and then the NFS
# pages stay congested and kswapd writes none of them (nr_vmscan_write 0)
# in all of the workload's rounds.  That boot says nothing about the
# hooks; up to two more boots are tried, and said so.  Anything else fails
# at once.
for attempt in 1 2 3; do
	rc=0
	"$top/tests/vm/lket-vm" run --mem 1G --timeout "${LKET_VM_TIMEOUT:-900}" --results "$resr" \
		--script job-reclaim.sh >guest-reclaim.out 2>&1 || rc=$?
	[ $rc = 0 ] || { tail -n 40 guest-reclaim.out >&2; cat "$resr/job.log" >&2 2>/dev/null; fail "reclaim guest job failed (status $rc)"; }
	if [ "$attempt" != 3 ] && grep -qx 'reclaim workload failed' "$resr/job.log" &&
	   grep -qx 'nr_vmscan_write 0' "$resr/job.log" &&
	   [ "$(grep -c failed "$resr/job.log")" = 1 ]; then
		cp "$resr/job.log" "$resr/job-$attempt.log"
		cp "$resr/wl.out" "$resr/wl-$attempt.out" 2>/dev/null
		echo "nfs: reclaim boot $attempt: kswapd wrote no page ($(cat "$resr/wl.out" 2>/dev/null | tail -n 1)); one more boot"
		continue
	fi
	break
done
if grep -E 'failed' "$resr/job.log" >&2; then fail "reclaim boot: setup or workload failed (see $resr/job.log)"; fi
fi

fi
cd "$work"
"$build/lket-b2a" -o trace.out "$res/trace" 2>b2a.err || { cat b2a.err >&2; fail "lket-b2a failed"; }
if [ $writepage_by = reclaim ]; then
	"$build/lket-b2a" -o trace-reclaim.out "$resr/trace" 2>b2a-reclaim.err ||
		{ cat b2a-reclaim.err >&2; fail "lket-b2a failed (reclaim trace)"; }
fi

# ---- checks: hook -> required values
pass=0 failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "nfs: not ok - $*" >&2; }
# need DESCRIPTION EXTENDED-REGEXP [TRACE]: a line of TRACE (trace.out)
# matches; unless tests/guest/nfs-unreached.txt says that this test does
# not reach it on this kernel series, and why (counted, and printed)
skipn=0
unreached() { # DESCRIPTION: listed there for this series (then counted)
	why=$(awk -F '\t' -v s="$series" -v d="$1" '$1 == s && $2 == d { print $3 }' "$here/nfs-unreached.txt")
	[ -n "$why" ] || return 1
	skipn=$((skipn + 1)); echo "nfs: not reached on $series - $1: $why"
}
need() {
	unreached "$1" && return
	if grep -qE "$2" "${3:-trace.out}"; then ok; else bad "$1: /$2/"; fi
}
# v61 VALUE OTHER: VALUE on 6.1, OTHER on 6.12 (where the probed function
# changed: tapset/<group>.stp's kernel-doc says how)
v61() { if [ "$series" = 6.1 ]; then printf '%s' "$1"; else printf '%s' "$2"; fi; }

p3=$(sed -n 's/^nfs: start pid=\([0-9]*\).*/\1/p' "$res/wl3.out")
p4=$(sed -n 's/^nfs: start pid=\([0-9]*\).*/\1/p' "$res/wl4.out")
f3=$(sed -n 's/^nfs: fileid name=v3_data fileid=\([0-9]*\)/\1/p' "$res/wl3.out")
f4=$(sed -n 's/^nfs: fileid name=v4_data fileid=\([0-9]*\)/\1/p' "$res/wl4.out")
d3=$(sed -n 's/^nfs: start .*dir_fileid=\([0-9]*\)/\1/p' "$res/wl3.out")
[ -n "$p3" ] && [ -n "$p4" ] && [ -n "$f3" ] && [ -n "$f4" ] || fail "workload output incomplete"
W3=" $p3 [^ ]+ [^ ]+"; W4=" $p4 [^ ]+ [^ ]+"
# lket-b2a prints some fields in hex (flags, handles)
N='(0x[0-9a-f]+|[0-9]+)'; X='-?(0x[0-9a-f]+|[0-9]+)'

# sunrpc: clnt
# the v3 mount gives no port: rpcbind finds it (port=0)
need "create_client (mount, NFS program)" ' sunrpc\.clnt\.create_client\.entry servername="127\.0\.0\.1" prog=100003 vers=3 prot=6 port=0 authflavor=1'
need "create_client v4" ' sunrpc\.clnt\.create_client\.entry servername="127\.0\.0\.1" prog=100003 vers=4 prot=6 port=2049 '
need "create_client return" ' sunrpc\.clnt\.create_client\.return return=-?[1-9][0-9]*'
need "clone_client (mount)" ' sunrpc\.clnt\.clone_client\.entry servername="127\.0\.0\.1" prog=100003 vers=(3|4) prot=6 port=2049 authflavor=1'
need "clone_client return" ' sunrpc\.clnt\.clone_client\.return return=-?[1-9]'
need "shutdown_client (umount)" ' sunrpc\.clnt\.shutdown_client\.entry servername="127\.0\.0\.1" prog=100003 clones=[0-9]+ tasks=[0-9]+ rpccnt=[1-9]'
need "shutdown_client return" ' sunrpc\.clnt\.shutdown_client\.return return=0'
need "bind_new_program (NFSv3 ACL client)" ' sunrpc\.clnt\.bind_new_program\.entry servername="127\.0\.0\.1" old_prog=100003 old_vers=3 prog=100227 vers=3'
need "bind_new_program return" ' sunrpc\.clnt\.bind_new_program\.return return=-?[1-9]'
need "call_sync (v3 LOOKUP of v3_missing)" "$W3 sunrpc\.clnt\.call_sync\.entry servername=\"127\.0\.0\.1\" prog=100003 vers=3 proc=3 flags=$N"
need "call_sync v4 COMPOUND" "$W4 sunrpc\.clnt\.call_sync\.entry servername=\"127\.0\.0\.1\" prog=100003 vers=4 proc=1 "
need "call_sync return -ENOENT (missing)" "$W3 sunrpc\.clnt\.call_sync\.return return=-2"
need "call_async (v3 WRITE)" ' sunrpc\.clnt\.call_async\.entry servername="127\.0\.0\.1" prog=100003 vers=3 proc=7 flags='
need "call_async (v3 READ)" ' sunrpc\.clnt\.call_async\.entry servername="127\.0\.0\.1" prog=100003 vers=3 proc=6 '
need "call_async (v3 COMMIT)" ' sunrpc\.clnt\.call_async\.entry servername="127\.0\.0\.1" prog=100003 vers=3 proc=21 '
need "call_async return" ' sunrpc\.clnt\.call_async\.return return=-?[1-9]'
# sunrpc: svc
need "svc register (rpc.nfsd)" ' sunrpc\.svc\.register\.entry sv_name="nfsd" prog=100003 prot=6 port=2049'
need "svc register return" ' sunrpc\.svc\.register\.return return=0'
need "svc create (nfsd)" ' sunrpc\.svc\.create\.entry prog=100003 pg_nvers=[0-9]+ bufsize=[1-9]'
need "svc create return" ' sunrpc\.svc\.create\.return return=-?[1-9]'
need "svc destroy (rpc.nfsd 0)" ' sunrpc\.svc\.destroy\.entry sv_name="nfsd" sv_prog=100003 sv_nrthreads=0'
need "svc destroy return" ' sunrpc\.svc\.destroy\.return return=0'
need "svc process" ' sunrpc\.svc\.process\.entry sv_name="nfsd" sv_prog=100003 peer_ip=2130706433 rq_xid=[0-9]+ rq_prog=100003 rq_vers=3 rq_proc=3'
need "svc process return" " sunrpc\.svc\.process\.return return=$(v61 1 0)"
need "svc authorise" ' sunrpc\.svc\.authorise\.entry sv_name="nfsd" peer_ip=2130706433 rq_xid=[0-9]+ rq_prog=100003 rq_vers=3 rq_proc=7'
need "svc authorise return" ' sunrpc\.svc\.authorise\.return return=0'
need "svc recv" " sunrpc\.svc\.recv\.entry sv_name=\"nfsd\" timeout=$(v61 '[1-9]' '0$')"
need "svc recv return" " sunrpc\.svc\.recv\.return return=$(v61 '[1-9]' '0$')"
need "svc send" ' sunrpc\.svc\.send\.entry sv_name="nfsd" peer_ip=2130706433 rq_xid=[0-9]+ rq_prog=100003 rq_vers=4 rq_proc=1'
need "svc send return" " sunrpc\.svc\.send\.return return=$(v61 '[1-9]' '0$')"
# sunrpc: sched
need "new_task" ' sunrpc\.sched\.new_task\.entry xid=[0-9]+ prog=100003 vers=3 prot=6 flags='
need "new_task return" ' sunrpc\.sched\.new_task\.return return=-?[1-9]'
need "release_task" ' sunrpc\.sched\.release_task\.entry xid=[1-9][0-9]* prog=100003 vers=3 prot=6 flags='
need "release_task return" ' sunrpc\.sched\.release_task\.return return=0'
need "execute" ' sunrpc\.sched\.execute\.entry xid=[0-9]+ prog=100003 vers=(3|4) prot=6 tk_pid=[0-9]+ tk_flags='
need "execute return" ' sunrpc\.sched\.execute\.return return=0'
# xids: the v3 xids the client released were processed by the server
sed -n 's/.* sunrpc\.sched\.release_task\.entry xid=\([0-9]*\) prog=100003 vers=3 .*/\1/p' trace.out | sort -u >xid.client
sed -n 's/.* sunrpc\.svc\.process\.entry .* rq_xid=\([0-9]*\) rq_prog=\(100003\|100227\) rq_vers=3 .*/\1/p' trace.out | sort -u >xid.server
sed -n 's/.* nfsd\.dispatch\.entry proto=6 version=3 xid=\(-\{0,1\}[0-9]*\) .*/\1/p' trace.out |
	awk '{ x = $1; if (x < 0) x += 4294967296; printf "%.0f\n", x }' | sort -u >xid.nfsd
nx=$(wc -l <xid.client)
if [ "$nx" -ge 10 ] && [ -z "$(comm -23 xid.client xid.server)" ]; then ok; else bad "client v3 xids ($nx) not all in svc.process: $(comm -23 xid.client xid.server | head -3 | tr '\n' ' ')"; fi
if [ -n "$(comm -12 xid.server xid.nfsd)" ] && [ -z "$(comm -23 xid.nfsd xid.server)" ]; then ok; else bad "nfsd.dispatch xids differ from svc.process"; fi

# nfs: fop (fileid low 32 bits; dev 0:N)
F3=$((f3 & 0xffffffff)); F4=$((f4 & 0xffffffff))
D="major_device=0 minor_device=$N"
need "fop.open v3" "$W3 nfs\.fop\.open\.entry $D fileid=$F3 flag=$N filename=\"v3_data\""
need "fop.open v4" "$W4 nfs\.fop\.open\.entry $D fileid=$F4 flag=$N filename=\"v4_data\""
need "fop.open return" "$W3 nfs\.fop\.open\.return return=0"
need "fop.checkflags" "$W3 nfs\.fop\.checkflags\.entry flag=$N"
need "fop.checkflags return" "$W3 nfs\.fop\.checkflags\.return return=0"
need "fop.write" "$W3 nfs\.fop\.write\.entry $D fileid=$F3 buf_addr=$N count=8192 offset=0"
need "fop.write return" "$W3 nfs\.fop\.write\.return return=8192"
need "fop.aio_write" "$W4 nfs\.fop\.aio_write\.entry $D fileid=$F4 buf_addr=$N count=8192 offset=0"
need "fop.aio_write pwrite" "$W3 nfs\.fop\.aio_write\.entry $D fileid=$F3 buf_addr=$N count=10 offset=4100"
need "fop.aio_write return" "$W3 nfs\.fop\.aio_write\.return return=8192"
need "fop.fsync" "$W3 nfs\.fop\.fsync\.entry $D fileid=$F3 ndirty=$N"
need "fop.fsync return" "$W3 nfs\.fop\.fsync\.return return=0"
need "fop.llseek" "$W3 nfs\.fop\.llseek\.entry $D fileid=$F3 offset=0 origin=0"
need "fop.llseek v4" "$W4 nfs\.fop\.llseek\.entry $D fileid=$F4 offset=0 origin=0"
need "fop.llseek return" "$W3 nfs\.fop\.llseek\.return return=0"
need "fop.read" "$W3 nfs\.fop\.read\.entry $D fileid=$F3 buf_addr=$N count=8192 offset=0"
need "fop.read return" "$W3 nfs\.fop\.read\.return return=8192"
need "fop.aio_read" "$W4 nfs\.fop\.aio_read\.entry $D fileid=$F4 buf_addr=$N count=8192 offset=0"
need "fop.aio_read return" "$W4 nfs\.fop\.aio_read\.return return=8192"
need "fop.mmap" "$W3 nfs\.fop\.mmap\.entry $D fileid=$F3 vm_start=$N vm_end=$N vm_flags=$N"
need "fop.mmap return" "$W3 nfs\.fop\.mmap\.return return=0"
need "fop.lock" "$W3 nfs\.fop\.lock\.entry $D fileid=$F3 fl_start=0 fl_end=99 fl_type=1 fl_flag=$N cmd=6"
need "fop.lock unlock v4" "$W4 nfs\.fop\.lock\.entry $D fileid=$F4 fl_start=0 fl_end=99 fl_type=2 fl_flag=$N cmd=6"
need "fop.lock return" "$W3 nfs\.fop\.lock\.return return=0"
need "fop.sendfile" "$W3 nfs\.fop\.sendfile\.entry $D fileid=$F3 count=4096 ppos=0"
need "fop.sendfile return" "$W3 nfs\.fop\.sendfile\.return return=4096"
need "fop.flush" "$W3 nfs\.fop\.flush\.entry $D fileid=$F3 ndirty=$N"
need "fop.flush v4" "$W4 nfs\.fop\.flush\.entry $D fileid=$F4 ndirty=$N"
need "fop.flush return" "$W3 nfs\.fop\.flush\.return return=0"
need "fop.release" "$W3 nfs\.fop\.release\.entry $D fileid=$F3 mode=$X"
need "fop.release return" "$W3 nfs\.fop\.release\.return return=0"
# nfs: aop
need "aop.prepare_write" "$W3 nfs\.aop\.prepare_write\.entry fileid=$f3 page_address=$N page_index=0"
need "aop.prepare_write pwrite" "$W3 nfs\.aop\.prepare_write\.entry fileid=$f3 page_address=$N page_index=1"
need "aop.prepare_write return" "$W3 nfs\.aop\.prepare_write\.return return=0"
# the 8192 bytes written at once: two pages on 6.1, one folio of both
# (or two of a page) on 6.12
need "aop.commit_write" "$W3 nfs\.aop\.commit_write\.entry fileid=$f3 page_address=$N $(v61 'page_index=1 offset=0 count=4096' '(page_index=1 offset=0 count=4096|page_index=0 offset=0 count=8192)')"
need "aop.commit_write pwrite" "$W3 nfs\.aop\.commit_write\.entry fileid=$f3 page_address=$N page_index=1 offset=4 count=10"
need "aop.commit_write return" "$W3 nfs\.aop\.commit_write\.return return=$(v61 4096 '(4096|8192)')"
need "aop.set_page_dirty" "$W3 nfs\.aop\.set_page_dirty\.entry page_address=$N page_flag=$N"
need "aop.set_page_dirty return" "$W3 nfs\.aop\.set_page_dirty\.return return=1"
need "aop.writepages" " nfs\.aop\.writepages\.entry fileid=$f3 wpages=[1-9][0-9]* nr_to_write=[1-9]"
need "aop.writepages return" " nfs\.aop\.writepages\.return return=0"
need "aop.readpages (read after drop)" "$W3 nfs\.aop\.readpages\.entry fileid=$f3 rpages=[1-9][0-9]* nr_pages=[1-9]"
need "aop.readpages return" "$W3 nfs\.aop\.readpages\.return return=0"
need "aop.readpage (read-modify-write)" "$W3 nfs\.aop\.readpage\.entry fileid=$f3 rsize=[1-9][0-9]* page_address=$N page_index=1"
need "aop.readpage return" "$W3 nfs\.aop\.readpage\.return return=0"
need "aop.release_page (fadvise)" "nfs\.aop\.release_page\.entry page_address=$N page_index=[01]"
need "aop.release_page return" " nfs\.aop\.release_page\.return return=$N"
# nfs: proc
PD="major_dev=0 minor_dev=$N"
need "proc.lookup v3 (v3_missing)" "$W3 nfs\.proc\.lookup\.entry $PD fileid=$d3 version=3 filename=\"v3_missing\""
need "proc.lookup v4" "$W4 nfs\.proc\.lookup\.entry $PD fileid=$N version=4 filename=\"v4_missing\""
need "proc.lookup return -ENOENT" "$W3 nfs\.proc\.lookup\.return return=-2"
need "proc.create v3" "$W3 nfs\.proc\.create\.entry $PD fileid=$d3 version=3 filename=\"v3_data\" mode=33188"
need "proc.create v4 (mknod)" "$W4 nfs\.proc\.create\.entry $PD fileid=$N version=4 filename=\"v4_node\" mode=33152"
need "proc.create return" "$W3 nfs\.proc\.create\.return return=0"
need "proc.open v3" "$W3 nfs\.proc\.open\.entry $PD fileid=$f3 version=3 filename=\"v3_data\" flag=$N mode=$N"
need "proc.open return" "$W3 nfs\.proc\.open\.return return=0"
need "proc.write" " nfs\.proc\.write\.entry $PD fileid=$f3 version=3 count=8192 offset=0"
need "proc.write return" " nfs\.proc\.write\.return return=0"
need "proc.write_setup (unstable)" " nfs\.proc\.write_setup\.entry $PD fileid=$f3 version=3 how=$N count=8192 offset=0"
need "proc.write_setup v4" " nfs\.proc\.write_setup\.entry $PD fileid=$f4 version=4 how=$N count=8192 offset=0"
need "proc.write_done" " nfs\.proc\.write_done\.entry $PD fileid=$f3 version=3 status=$X count=8192"
need "proc.write_done return" " nfs\.proc\.write_done\.return return=0"
need "proc.commit" " nfs\.proc\.commit\.entry $PD fileid=$f3 version=3 count=0 offset=0"
need "proc.commit return" " nfs\.proc\.commit\.return return=0"
need "proc.commit_setup" " nfs\.proc\.commit_setup\.entry $PD fileid=$f3 version=3 how=$N count=0 offset=0"
need "proc.commit_done" " nfs\.proc\.commit_done\.entry $PD fileid=$f3 version=3 status=0 count=0"
need "proc.commit_done return" " nfs\.proc\.commit_done\.return return=0"
need "proc.read" " nfs\.proc\.read\.entry $PD fileid=$f3 version=3 count=8192 offset=0"
need "proc.read return" " nfs\.proc\.read\.return return=0"
need "proc.read_setup" " nfs\.proc\.read_setup\.entry $PD fileid=$f3 version=3 count=8192 offset=0"
need "proc.read_setup v4" " nfs\.proc\.read_setup\.entry $PD fileid=$f4 version=4 count=8192 offset=0"
need "proc.read_done" " nfs\.proc\.read_done\.entry $PD fileid=$f3 version=3 status=$N count=8192"
need "proc.read_done return" " nfs\.proc\.read_done\.return return=0"
need "proc.release" "$W3 nfs\.proc\.release\.entry $PD fileid=$f3 version=3 filename=\"v3_data\" flag=$N mode=$N"
need "proc.release return" "$W3 nfs\.proc\.release\.return return=0"
need "proc.rename" "$W3 nfs\.proc\.rename\.entry version=3 major_old=0 minor_old=$N old_fileid=$d3 old_name=\"v3_data\" major_new=0 minor_new=$N new_fileid=$d3 new_name=\"v3_renamed\""
need "proc.rename v4" "$W4 nfs\.proc\.rename\.entry version=4 .* old_name=\"v4_data\" .* new_name=\"v4_renamed\""
need "proc.rename return" "$W3 nfs\.proc\.rename\.return return=0"
need "proc.remove" "$W3 nfs\.proc\.remove\.entry $PD fileid=$d3 version=3 filename=\"v3_renamed\""
need "proc.remove v4" "$W4 nfs\.proc\.remove\.entry $PD fileid=$N version=4 filename=\"v4_renamed\""
need "proc.remove return" "$W3 nfs\.proc\.remove\.return return=0"

# nfsd: the server's file handles name the client's fileids
FH="fh_size=$N fhandle0=$X fhandle1=$X fhandle2=$X"
# fhandle1 >> 32 is the inode number: compare with awk on the decoded lines
fhcheck() {	# fhcheck DESC HOOK-REGEXP FIELD INO
	if awk -v ino="$4" -v f="$3" '$0 ~ re { for (i = 1; i <= NF; i++) if (index($i, f "=") == 1) { v = substr($i, length(f) + 2); hi = int(v / 4294967296); if (v < 0) hi += 4294967296 - 1; if (hi == ino) found = 1 } } END { exit !found }' re="$2" trace.out; then ok; else bad "$1: $2 with $3>>32 = $4"; fi
}
need "nfsd.dispatch v3" " nfsd\.dispatch\.entry proto=6 version=3 xid=$X proc=3 client_ip=2130706433"
need "nfsd.dispatch v4" " nfsd\.dispatch\.entry proto=6 version=4 xid=$X proc=1 client_ip=2130706433"
need "nfsd.dispatch return" " nfsd\.dispatch\.return return=1"
need "nfsd.lookup (v3_missing)" " nfsd\.lookup\.entry $FH filename=\"v3_missing\""
: fhcheck "nfsd.lookup dir handle" 'nfsd\.lookup\.entry .*filename="v3_missing"' fhandle1 "$d3"
need "nfsd.lookup return nfserr_noent" " nfsd\.lookup\.return return=2"
need "nfsd.proc.lookup" " nfsd\.proc\.lookup\.entry $FH version=3 filename=\"v3_missing\""
need "nfsd.proc.lookup export-root handle (FILEID_ROOT, 8 bytes)" " nfsd\.proc\.lookup\.entry fh_size=8 fhandle0=0x100010001 " ; :  'nfsd\.proc\.lookup\.entry .*filename="v3_missing"' fhandle1 "$d3"
need "nfsd.proc.lookup return" " nfsd\.proc\.lookup\.return return=0"
need "nfsd.proc.create" " nfsd\.proc\.create\.entry $FH version=3 filename=\"v3_data\""
need "nfsd.proc.create return" " nfsd\.proc\.create\.return return=0"
need "nfsd.createv3 v3" " nfsd\.createv3\.entry $FH filename=\"v3_data\" createmode=2 iap_valid=$N iap_mode=$N"
need "nfsd.createv3 v4 (OPEN create)" " nfsd\.createv3\.entry $FH filename=\"v4_data\" createmode=[23] iap_valid=$N iap_mode=$N"
need "nfsd.createv3 return" " nfsd\.createv3\.return return=0"
need "nfsd.create (mkdir)" " nfsd\.create\.entry $FH filename=\"v3_dir\" type=16384 iap_valid=$N iap_mode=493"
need "nfsd.create v4 (mkdir)" " nfsd\.create\.entry $FH filename=\"v4_dir\" type=16384 "
need "nfsd.create return" " nfsd\.create\.return return=0"
need "nfsd.open (readdir / file cache)" " nfsd\.open\.entry $FH type=(16384|32768) access=$N"
need "nfsd.open return" " nfsd\.open\.return return=0"
need "nfsd.write" " nfsd\.write\.entry $FH count=8192 offset=0 iov_len=[1-9][0-9]* vlen=[1-9]"
fhcheck "nfsd.write file handle = client fileid" 'nfsd\.write\.entry .* count=8192 offset=0' fhandle1 "$f3"
need "nfsd.write return" " nfsd\.write\.return return=0"
need "nfsd.proc.write" " nfsd\.proc\.write\.entry $FH version=3 count=8192 offset=0 iov_len=0 vlen=0"
fhcheck "nfsd.proc.write file handle" 'nfsd\.proc\.write\.entry .* count=8192 offset=0' fhandle1 "$f3"
need "nfsd.proc.write return" " nfsd\.proc\.write\.return return=0"
need "nfsd.commit" " nfsd\.commit\.entry $FH count=0 offset=0"
fhcheck "nfsd.commit file handle" 'nfsd\.commit\.entry ' fhandle1 "$f3"
need "nfsd.commit return" " nfsd\.commit\.return return=0"
need "nfsd.proc.commit" " nfsd\.proc\.commit\.entry $FH version=3 count=0 offset=0"
need "nfsd.proc.commit return" " nfsd\.proc\.commit\.return return=0"
need "nfsd.read" " nfsd\.read\.entry $FH count=8192 offset=0 $(v61 'iov_len=4096 vlen=2' 'iov_len=0 vlen=0')"
fhcheck "nfsd.read file handle" 'nfsd\.read\.entry .* count=8192 offset=0' fhandle1 "$f3"
need "nfsd.read return" " nfsd\.read\.return return=0"
need "nfsd.proc.read" " nfsd\.proc\.read\.entry $FH version=3 count=8192 offset=0 iov_len=0 vlen=0"
need "nfsd.proc.read return" " nfsd\.proc\.read\.return return=0"
need "nfsd.proc.compound" " nfsd\.proc\.compound\.entry number=[1-9]"
need "nfsd.proc.compound return" " nfsd\.proc\.compound\.return return=0"
need "nfsd.rename" " nfsd\.rename\.entry old_fhsize=$N old_fh0=$X old_fh1=$X old_fh2=$X old_name=\"v3_data\" new_fhsize=$N new_fh0=$X new_fh1=$X new_fh2=$X new_name=\"v3_renamed\""
need "nfsd.rename v4" " nfsd\.rename\.entry .*old_name=\"v4_data\" .*new_name=\"v4_renamed\""
need "nfsd.rename return" " nfsd\.rename\.return return=0"
need "nfsd.proc.rename" " nfsd\.proc\.rename\.entry old_fhsize=$N .*old_name=\"v3_data\" .*new_name=\"v3_renamed\""
need "nfsd.proc.rename return" " nfsd\.proc\.rename\.return return=0"
need "nfsd.unlink" " nfsd\.unlink\.entry $FH filename=\"v3_renamed\" type=-16384"
need "nfsd.unlink v4" " nfsd\.unlink\.entry $FH filename=\"v4_renamed\" type=0"
need "nfsd.unlink return" " nfsd\.unlink\.return return=0"
need "nfsd.proc.remove" " nfsd\.proc\.remove\.entry $FH version=3 filename=\"v3_renamed\""
need "nfsd.proc.remove return" " nfsd\.proc\.remove\.return return=0"
need "nfsd.close" " nfsd\.close\.entry filename=\"v[34]_(data|renamed)\""
need "nfsd.close return" " nfsd\.close\.return return=0"

# sunrpc: the retries of steps drop and jukebox
# (the first call of the stat: ACCESS of the directory, or the LOOKUP)
need "svc.drop (v3 call deferred while rpc.mountd is stopped)" ' sunrpc\.svc\.drop\.entry sv_name="nfsd" peer_ip=2130706433 rq_xid=[0-9]+ rq_prog=100003 rq_vers=3 rq_proc=(3|4)$'
need "svc.drop return" ' sunrpc\.svc\.drop\.return return=0'
# the dropped request is processed again once rpc.mountd answers, and the
# client's task ends with the same xid
dr=$(sed -n 's/.* sunrpc\.svc\.drop\.entry .* rq_xid=\([0-9]*\) rq_prog=100003 rq_vers=3 rq_proc=\([0-9]*\)$/\1 \2/p' trace.out | head -n1)
dx=${dr% *} dproc=${dr#* }
if [ -n "$dr" ] &&
   [ "$(grep -c " sunrpc\.svc\.process\.entry .* rq_xid=$dx rq_prog=100003 rq_vers=3 rq_proc=$dproc\$" trace.out)" -ge 2 ] &&
   grep -q " sunrpc\.sched\.release_task\.entry xid=$dx prog=100003 vers=3 " trace.out; then ok
else bad "dropped xid ${dx:-none}: not processed twice by nfsd and released by the client"; fi
need "clnt.restart_call (v3 WRITE answered NFS3ERR_JUKEBOX)" " sunrpc\.clnt\.restart_call\.entry tk_pid=[0-9]+ tk_flags=$N"
need "clnt.restart_call return" ' sunrpc\.clnt\.restart_call\.return return=1'
# NFS_JUKEBOX_RETRY_TIME is 5 s: 1250 jiffies at Debian's HZ=250
need "sched.delay (jukebox back-off)" " sunrpc\.sched\.delay\.entry xid=[0-9]+ prog=100003 tk_pid=[0-9]+ tk_flags=$N delay=1250"
need "sched.delay return" ' sunrpc\.sched\.delay\.return return=0'
# the delayed task is the one restarted, and its xid is a v3 WRITE that
# nfsd processed
dl=$(sed -n 's/.* sunrpc\.sched\.delay\.entry xid=\([0-9]*\) prog=100003 tk_pid=\([0-9]*\) .* delay=1250$/\1 \2/p' trace.out | head -n1)
dxid=${dl% *} dpid=${dl#* }
if [ -n "$dl" ] &&
   grep -q " sunrpc\.clnt\.restart_call\.entry tk_pid=$dpid " trace.out &&
   grep -q " sunrpc\.svc\.process\.entry .* rq_xid=$dxid rq_prog=100003 rq_vers=3 rq_proc=7\$" trace.out; then ok
else bad "delayed task (${dl:-none}): no restart_call of it, or nfsd processed no v3 WRITE with its xid"; fi

# signal.flush (group signal): no system call reaches flush_signals() on
# 6.1, but lockd's thread calls it on itself as it stops (rpc.nfsd 0)
need "signal.flush (lockd stopping)" ' signal\.flush\.entry pid=[0-9]+$'
awk '/ sunrpc\.svc\.recv\.entry sv_name="lockd" / { print $3 }' trace.out | sort -u >tid.lockd
if unreached "signal.flush from lockd's thread"; then :
elif awk 'NR == FNR { lockd[$1] = 1; next }
	/ signal\.flush\.entry / { p = $NF; sub(/^pid=/, "", p); if (p != $3) wrong++; else if (p in lockd) n++ }
	END { exit !(n > 0 && !wrong) }' tid.lockd trace.out; then ok
else bad "signal.flush: no record from lockd's thread, or pid differs from the thread"; fi

if [ $writepage_by = read ]; then
# nfs.aop.writepage: the workload's read of its partly written page 0
# (the "partial" step); its return 0
fw=$(sed -n 's/^nfs: partial name=v3_partial fileid=\([0-9]*\)$/\1/p' "$res/wl3.out")
wsize=$(sed -n 's/.*[ ,]wsize=\([0-9]*\).*/\1/p' "$res/mounts3")
[ -n "$fw" ] && [ -n "$wsize" ] || fail "partial step output incomplete"
need "aop.writepage (a read writes the partly written page first)" "$W3 nfs\.aop\.writepage\.entry fileid=$fw wsize=$wsize page_address=$N page_index=0$"
if awk -v p="$p3" '$3 == p && / nfs\.aop\.writepage\.entry / { e++ }
	$3 == p && / nfs\.aop\.writepage\.return return=0$/ { r++ }
	END { exit !(e > 0 && e == r) }' trace.out; then ok
else bad "aop.writepage: entries of the workload without their return 0"; fi
else
# nfs.aop.writepage: the reclaim boot
fr=$(sed -n 's/^nfs-reclaim: fileid name=reclaim_data fileid=\([0-9]*\) .*/\1/p' "$resr/wl.out")
npages=$(sed -n 's/^nfs-reclaim: .* pages=\([0-9]*\) .*/\1/p' "$resr/wl.out")
wsize=$(sed -n 's/.*[ ,]wsize=\([0-9]*\).*/\1/p' "$resr/mounts")
[ -n "$fr" ] && [ -n "$npages" ] && [ -n "$wsize" ] || fail "reclaim workload output incomplete"
need "aop.writepage (kswapd writes a page of reclaim_data)" " kswapd[0-9]* nfs\.aop\.writepage\.entry fileid=$fr wsize=$wsize page_address=$N page_index=[0-9]+" trace-reclaim.out
# pages of the file only; and every entry has its return (0, or
# AOP_WRITEPAGE_ACTIVATE when the mount is congested and the page stays)
if awk -v n="$npages" '/ nfs\.aop\.writepage\.entry / { e++; sub(/.*page_index=/, ""); if ($1 + 0 >= n) badidx++ }
	/ nfs\.aop\.writepage\.return return=(0|524288)$/ { r++ }
	END { exit !(e > 0 && e == r && !badidx) }' trace-reclaim.out; then ok
else bad "aop.writepage: entries without returns, or page_index beyond the file's $npages pages"; fi
need "aop.writepage return" " kswapd[0-9]* nfs\.aop\.writepage\.return return=(0|524288)" trace-reclaim.out
# each page written (return 0) was counted in the mount's vfswritepage,
# which the workload watched until it moved
vwp=$(sed -n 's/^nfs-reclaim: vfswritepage=\([0-9]*\) .*/\1/p' "$resr/wl.out")
written=$(grep -c ' nfs\.aop\.writepage\.return return=0$' trace-reclaim.out || :)
if [ -n "$vwp" ] && [ "$vwp" -gt 0 ] && [ "$written" -ge "$vwp" ]; then ok
else bad "aop.writepage: $written pages written in the trace, vfswritepage ${vwp:-?}"; fi
if grep -qiE 'lost|skipped|WARNING' "$resr/staprun.out"; then bad "staprun (reclaim) reported: $(head -3 "$resr/staprun.out")"; else ok; fi
if grep -qi 'sequence\|lost\|gap' b2a-reclaim.err; then bad "lket-b2a (reclaim): $(head -3 b2a-reclaim.err)"; else ok; fi
fi

# entry only: every read recorded (before: 64, then "more than 64 tasks"
# warnings), nothing dropped
"$build/lket-b2a" -o entry.out "$res/entry" 2>b2a-entry.err || bad "lket-b2a (entry only): $(head -3 b2a-entry.err)"
esh=$(sed -n 's/^entryonly shell //p' "$res/job.log")
nsh=$(grep -cE " $esh $esh [^ ]+ nfs\.fop\.read\.entry " entry.out || :)
nhead=$(grep -cE " head nfs\.fop\.read\.entry " entry.out || :)
if [ -n "$esh" ] && [ "$nsh" -ge 50 ] && [ "$nhead" -ge 50 ]; then ok
else bad "entry only: $nsh reads of the shell, $nhead of head recorded (want 50 and 50)"; fi
if grep -qiE 'lket nfs|lost|skipped|WARNING' "$res/staprun-entry.out"; then
	bad "staprun (entry only) reported: $(head -3 "$res/staprun-entry.out")"; else ok; fi
if grep -qi 'sequence\|lost\|gap\|dropped' b2a-entry.err; then bad "lket-b2a (entry only): $(head -3 b2a-entry.err)"; else ok; fi

# every hook at once: no lost records, no warnings (the guest harness
# fails on an Oops, BUG or WARNING in the console)
if grep -qiE 'lost|skipped|WARNING' "$res/staprun.out"; then bad "staprun reported: $(head -3 "$res/staprun.out")"; else ok; fi
if grep -qi 'sequence\|lost\|gap' b2a.err; then bad "lket-b2a: $(head -3 b2a.err)"; else ok; fi

msg="nfs: $pass passed, $failn failed"
[ "$skipn" = 0 ] || msg="$msg, $skipn not reached on $series (tests/guest/nfs-unreached.txt)"
echo "$msg"
[ "$failn" = 0 ]
