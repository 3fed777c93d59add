#!/bin/sh
# tests/guest/multihost.sh: two machines, one timeline.  Two qemu guests
# on one private link (lket-vm --link: qemu's socket netdev over the
# host's loopback, nothing else on it) with link-local addresses: an NFS
# server, 169.254.0.1, and its client, 169.254.0.2, each traced with
# addevent.sunrpc, nfs, nfsd and netdev.
#
#  1. host: one module for both guests; a free port for the link;
#  2. server guest: exports a tmpfs over NFSv3 (rpcbind, rpc.mountd,
#     rpc.nfsd started by hand), says so in its results folder (ready),
#     and traces until the host leaves a stop file there (or its own
#     time limit passes);
#  3. client guest, booted once the server is ready: measures the link
#     with ping, then traced: mounts the export (NFSv3 over TCP, 32 KiB
#     reads and writes, no attribute cache) and writes, reads back, stats
#     and removes files, unmounts;
#  4. host: lket-b2a client=... server=... and --rpc-report, and checks
#     that every NFS call of the client finds its server half by xid, that
#     the merged order never has the server take a call in before the
#     client sent it nor the client release it before the server replied,
#     that each call's time splits into out + server + back, that the
#     report agrees, and that the clock alignment's uncertainty is within
#     the link's one-way latency (ping's round trip / 2); then prints the
#     RPC latency table.
#
# The client's calls to rpcbind and rpc.mountd (user-space servers, which
# leave no sunrpc.svc records) are not expected to find a server half.
#
# Exit: 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
# Prints "multihost: N passed, M failed".
#
# Needs on the host: nfs-kernel-server rpcbind nfs-common (the guests see
# the host root), linux-image-REL-dbg (module debuginfo).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${LKET_BUILDDIR:-$top/build}
mkdir -p "$build"
build=$(cd "$build" && pwd)
LKET_BUILDDIR=$build
export LKET_BUILDDIR
rel=$("$top/tools/lket-target")
work=$build/guest-tests/multihost
sres=$work/server
cres=$work/client
srv_ip=169.254.0.1 cli_ip=169.254.0.2
# the longest the server waits for the client to end
tmo=${LKET_VM_TIMEOUT:-600}

fail() { echo "multihost: FAIL: $*" >&2; echo "multihost: 0 passed, 1 failed"; exit 1; }

if [ "${LKET_SKIP_GUEST:-}" = 1 ]; then
	echo "multihost: SKIP (LKET_SKIP_GUEST=1)"
	exit 77
fi
for t in rpcbind rpc.nfsd rpc.mountd exportfs mount.nfs; do
	command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] || [ -x "/sbin/$t" ] ||
		fail "$t missing: apt-get install -y --no-install-recommends nfs-kernel-server rpcbind nfs-common"
done
make -s -C "$top" BUILD="$build" tapset/lket_catalogue.stp \
	tapset/lket_aliases.stp "$build/lket-b2a" >/dev/null || fail "make failed"
start=$(date +%s)
# MULTIHOST_CHECK_ONLY=1: the checks again on the last run's traces
if [ "${MULTIHOST_CHECK_ONLY:-}" != 1 ]; then
rm -rf "$work"
mkdir -p "$sres" "$cres"
cd "$work"

# ---- host: one module for both hosts
LKET_KERNEL_RELEASE=$rel
export LKET_KERNEL_RELEASE
"$top/tools/lket-buildenv" --release "$rel" >/dev/null || fail "tools/lket-buildenv failed"
"$top/tools/lket-stap" -p4 -m lket_mh \
	-e 'probe addevent.sunrpc {} probe addevent.nfs {} probe addevent.nfsd {}
	    probe addevent.netdev {}' >stap.out 2>stap.err ||
	{ cat stap.err >&2; fail "cannot build the module"; }

# A port nothing listens on, from this process's ID; the guest lock
# (see tests/vm/README) keeps other tests' guests from taking it meanwhile.
port=$((20000 + $$ % 20000)) n=0
while ss -Htln "sport = :$port" | grep -q . ; do
	n=$((n + 1))
	[ $n -lt 100 ] || fail "no free port for the link"
	port=$((20000 + (port - 20000 + 97) % 20000))
done

# ---- the server guest
# Each guest's work runs as lket-run-traced's command, which stapio starts
# only once every probe is armed: a fixed wait after staprun started was
# not always enough for the 200 probes of this module (a slow host: the
# mount's first call was half traced).
# job HOST RES SETUP: a guest's job: the modules, SETUP (untraced), then
# HOST-work.sh traced
job() {
	cat <<JOB
set -u
W='$work'; R='$2'
exec >"\$R/job.log" 2>&1
for m in sunrpc lockd nfsd nfs nfsv3; do modprobe \$m || echo "modprobe \$m failed"; done
$3
"$top/tools/lket-run-traced" -o "\$R/trace" "\$W/lket_mh.ko" -- sh "\$W/$1-work.sh" \
	>"\$R/staprun.out" 2>&1
echo "traced run status \$?"
JOB
}
job server "$sres" "mkdir -p /srv/x /run/rpcbind /var/lib/nfs/rpc_pipefs
mount -t tmpfs tmpfs /srv/x
echo '/srv/x $cli_ip(rw,fsid=1,sync,no_subtree_check,no_root_squash,insecure)' >/etc/exports" >server.sh
cat >server-work.sh <<JOB
R='$sres'
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs 2>/dev/null
mount -t nfsd nfsd /proc/fs/nfsd
rpcbind -w || echo "rpcbind failed"
exportfs -ra || echo "exportfs failed"
rpc.mountd || echo "rpc.mountd failed"
rpc.nfsd 2 || echo "rpc.nfsd failed"
: >"\$R/ready"
i=0; while [ \$i -lt $((tmo * 2)) ] && [ ! -e "\$R/stop" ]; do sleep 0.5; i=\$((i+1)); done
[ -e "\$R/stop" ] || echo "no stop from the host: timed out"
rpc.nfsd 0
exportfs -ua
i=0; while [ \$i -lt 40 ] && pgrep -x nfsd >/dev/null; do sleep 0.5; i=\$((i+1)); done
JOB

# ---- the client guest: the workload, a few hundred calls
job client "$cres" "busybox ping -c 20 -i 0.2 $srv_ip >\"\$R/ping.out\" 2>&1 || echo \"ping failed\"
mkdir -p /mnt/x" >client.sh
cat >client-work.sh <<JOB
R='$cres'
mount -t nfs -o vers=3,proto=tcp,mountproto=tcp,nolock,noacl,actimeo=0,rsize=32768,wsize=32768 \
	$srv_ip:/srv/x /mnt/x || echo "mount failed"
dd if=/dev/zero of=/mnt/x/data bs=32k count=32 conv=fsync 2>/dev/null || echo "write failed"
for i in \$(seq 1 30); do echo "\$i" >/mnt/x/f\$i || echo "create failed"; done
ls -l /mnt/x >/dev/null || echo "ls failed"
for i in \$(seq 1 30); do stat /mnt/x/f\$i >/dev/null || echo "stat failed"; done
echo 3 >/proc/sys/vm/drop_caches
cat /mnt/x/data | wc -c >"\$R/read.out" || echo "read failed"
rm /mnt/x/f* || echo "remove failed"
umount /mnt/x || echo "umount failed"
JOB

# an interrupted test leaves no guest behind
trap ': >"$sres/stop"' EXIT
trap 'kill $spid 2>/dev/null; exit 1' INT TERM HUP
spid=
vm() { "$top/tests/vm/lket-vm" run --smp 1 --mem 1G --timeout "$tmo" "$@"; }
vm --results "$sres" --link "listen:$port" --ip "$srv_ip/16" --script server.sh \
	>server.out 2>&1 &
spid=$!
# the server's qemu listens from its start; its job says when nfsd is up
i=0
while ! [ -e "$sres/ready" ] && kill -0 $spid 2>/dev/null && [ $i -lt $((tmo * 2)) ]; do
	sleep 0.5; i=$((i + 1))
done
crc=0
if [ -e "$sres/ready" ]; then
	vm --results "$cres" --link "connect:$port" --ip "$cli_ip/16" --script client.sh \
		>client.out 2>&1 || crc=$?
fi
: >"$sres/stop"
src=0
wait $spid || src=$?
guest_s=$(($(date +%s) - start))
[ -e "$sres/ready" ] || { cat server.out >&2; cat "$sres/job.log" >&2 2>/dev/null; fail "the server guest never got ready (status $src)"; }
[ $src = 0 ] || { tail -n 40 server.out >&2; cat "$sres/job.log" >&2; fail "server guest failed (status $src)"; }
[ $crc = 0 ] || { tail -n 40 client.out >&2; cat "$cres/job.log" >&2; fail "client guest failed (status $crc)"; }
for h in server client; do
	if grep -E 'failed|timed out' "$work/$h/job.log" >&2; then fail "$h: setup or workload failed (see $work/$h/job.log)"; fi
done
echo "$guest_s" >"$work/guest-seconds"
fi
cd "$work"
guest_s=$(cat "$work/guest-seconds")

# ---- checks
pass=0 failn=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { failn=$((failn + 1)); echo "not ok - $*"; }

# no kernel trouble in either guest (lket-vm fails on it too)
for h in server client; do
	if grep -Eq 'Kernel panic|Oops|BUG:|WARNING:|lockdep|possible recursive locking|rcu_sched self-detected|RCU stall|INFO: rcu' "$work/$h/console.log"; then
		bad "$h: kernel trouble in the console: $(grep -Em 3 'panic|Oops|BUG:|WARNING:|lockdep|recursive|rcu|RCU' "$work/$h/console.log")"
	else ok "$h: console clean (no oops, BUG, WARNING, lockdep or RCU report)"; fi
	if grep -qiE 'lost|skipped|WARNING|ERROR' "$work/$h/staprun.out"; then
		bad "$h: staprun reported: $(head -3 "$work/$h/staprun.out")"
	else ok "$h: staprun reported no lost or skipped record"; fi
done
if [ "$(cat "$cres/read.out" 2>/dev/null)" = 1048576 ]; then ok "client read back the 1 MiB it wrote"
else bad "client read back $(cat "$cres/read.out" 2>/dev/null) bytes, not 1048576"; fi

b2a=$build/lket-b2a
"$b2a" -o client.txt "$cres/trace" 2>client.err || { cat client.err >&2; fail "lket-b2a (client) failed"; }
"$b2a" -o server.txt "$sres/trace" 2>server.err || { cat server.err >&2; fail "lket-b2a (server) failed"; }
"$b2a" -o merged.txt --rpc-report rpc.txt client="$cres/trace" server="$sres/trace" 2>merged.err ||
	{ cat merged.err >&2; fail "lket-b2a client=... server=... failed"; }
cat merged.err
for f in client.err server.err merged.err; do
	if grep -qiE 'lost|sequence|gap|dropped' "$f"; then bad "lket-b2a ($f): $(head -3 "$f")"
	else ok "lket-b2a (${f%.err}): no lost flush or dropped record"; fi
done
for f in client.txt server.txt merged.txt; do
	if grep -q ' lket\.\(lost\|dropped\) ' "$f"; then bad "$f has lket.lost or lket.dropped lines"; fi
done

# the link's traffic is in both traces: the server's netdev records of
# eth0, the client's NFS calls from its address
if grep -q ' netdev\.receive netdev_name="eth0" ' server.txt &&
   grep -q ' netdev\.transmit netdev_name="eth0" ' client.txt; then
	ok "netdev: eth0 transmits on the client, receives on the server"
else bad "netdev: no eth0 transmit on the client or receive on the server"; fi
# (awk numbers are doubles: print them with %.0f, %d stops at 2^31)
cli_num=$(echo $cli_ip | awk -F. '{ printf "%.0f", (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')

tns() { # lket.out time -> ns (the awk function)
	echo 'function ns(t,  a) { split(t, a, "."); return a[1] * 1000000000 + a[2] }'
}
# shellcheck disable=SC2016 # awk text
fieldv() { echo 'function fv(name,  i) { for (i = 7; i <= NF; i++) if (index($i, name "=") == 1) return substr($i, length(name) + 2); return "" }'; }

# The client's NFS calls (prog 100003) are the xids it released
# (sunrpc.sched.release_task: the xid of the task's request).  Each must
# find its server half by xid, from the client's address.
#
# sched.execute's xid is the one the transport hands out next (the task
# has no request slot yet, lket(5)): an asynchronous task that another
# takes a slot before gets its xid, and its call has no execute under its
# own xid.  Every call without one must be such a task: as many as there
# are execute records beyond the first of an xid.
#
# pairs.txt: one line per call with all four records, raw times of each
# host in ns (the first execute, the last release, the server's first
# process and first send, as lket-b2a pairs them):
#   xid proc exe rel proc_s send_s
# "missing xid what" for a call without a server half; "noexe xid" for
# one without an execute.
awk -v cli="$cli_num" "$(tns) $(fieldv)"'
	FILENAME == ARGV[1] && $6 == "sunrpc.sched.execute.entry" && fv("prog") == 100003 {
		x = fv("xid"); if (!(x in exe)) exe[x] = ns($1); else dup++ }
	FILENAME == ARGV[1] && $6 == "sunrpc.sched.release_task.entry" && fv("prog") == 100003 {
		x = fv("xid"); if (!(x in rel)) order[++n] = x; rel[x] = ns($1) }
	FILENAME == ARGV[2] && $6 == "sunrpc.svc.process.entry" && fv("rq_prog") == 100003 {
		x = fv("rq_xid"); if (!(x in ps)) { ps[x] = ns($1); pr[x] = fv("rq_proc"); peer[x] = fv("peer_ip") } }
	FILENAME == ARGV[2] && $6 == "sunrpc.svc.send.entry" && fv("rq_prog") == 100003 {
		x = fv("rq_xid"); if (!(x in sd)) sd[x] = ns($1) }
	END {
		for (i = 1; i <= n; i++) {
			x = order[i]
			if (!(x in ps) || !(x in sd) || peer[x] != cli)
				print "missing", x, (x in ps) ? "" : "no-process", (x in sd) ? "" : "no-send", peer[x]
			else if (!(x in exe)) print "noexe", x
			else printf "%s %s %.0f %.0f %.0f %.0f\n", x, pr[x], exe[x], rel[x], ps[x], sd[x]
		}
		print "dup", dup + 0
	}' client.txt server.txt >pairs.txt
released=$(grep -vc '^dup' pairs.txt || :)
missing=$(grep -c '^missing' pairs.txt || :)
noexe=$(grep -c '^noexe' pairs.txt || :)
dup=$(sed -n 's/^dup //p' pairs.txt)
calls=$(grep -Evc '^(missing|noexe|dup)' pairs.txt || :)
if [ "$released" -ge 100 ] && [ "$missing" = 0 ]; then
	ok "every one of the client's $released NFS calls found its server half by xid (from $cli_ip)"
else
	bad "$missing of $released NFS calls found no server half; want 0 of at least 100"
	grep '^missing' pairs.txt | head -n 10
fi
if [ "$noexe" = "$dup" ]; then
	ok "sched.execute: $noexe calls without an execute under their own xid, each one executed under an xid another task took ($dup)"
else
	bad "sched.execute: $noexe calls without an execute under their own xid, but $dup execute records repeat an xid"
fi
sed -i '/^dup /d' pairs.txt

# the merged timeline: the line numbers and aligned times of the four
# events of each call
awk "$(tns) $(fieldv)"'
	$2 == "client" && $7 == "sunrpc.sched.execute.entry" && fv("prog") == 100003 {
		x = fv("xid"); if (!(x in le)) { le[x] = NR; te[x] = ns($1) } }
	$2 == "client" && $7 == "sunrpc.sched.release_task.entry" && fv("prog") == 100003 {
		x = fv("xid"); lr[x] = NR; tr[x] = ns($1) }
	$2 == "server" && $7 == "sunrpc.svc.process.entry" && fv("rq_prog") == 100003 {
		x = fv("rq_xid"); if (!(x in lp)) { lp[x] = NR; tp[x] = ns($1) } }
	$2 == "server" && $7 == "sunrpc.svc.send.entry" && fv("rq_prog") == 100003 {
		x = fv("rq_xid"); if (!(x in ls)) { ls[x] = NR; ts[x] = ns($1) } }
	END {
		for (x in le)
			if ((x in lp) && (x in ls) && (x in lr))
				printf "%s %d %d %d %d %.0f %.0f %.0f %.0f\n", x, le[x], lp[x], ls[x], lr[x], te[x], tp[x], ts[x], tr[x]
	}' merged.txt >merged-pairs.txt
awk '{ n++
	if ($3 < $2 || $7 < $6) { early++; if (!e1) e1 = $1 }
	if ($5 < $4 || $9 < $8) { late++; if (!l1) l1 = $1 } }
	END { printf "%d %d %d %s %s\n", n, early, late, e1 ? e1 : "-", l1 ? l1 : "-" }' \
	merged-pairs.txt >order.txt
read -r on early late e1 l1 <order.txt
if [ "$calls" -ge 100 ] && [ "$on" = "$calls" ] && [ "$early" = 0 ] && [ "$late" = 0 ]; then
	ok "merged order: for all $on calls the server takes the call in after the client executes it, and replies before the client releases it"
else
	bad "merged order: of $on calls (want $calls), $early processed by the server before the client sent them (xid $e1), $late released before the reply (xid $l1)"
fi

# the split: total (client clock) = server (server clock) + wire+queue,
# wire+queue >= 0; and on the merged timeline out (execute to process) +
# back (send to release) = wire+queue, up to the drift's share of the
# server time (1000 ppm at most) and 2 ns of rounding
awk 'NR == FNR { if ($1 != "missing" && $1 != "noexe") { tot[$1] = $4 - $3; srv[$1] = $6 - $5 } next }
	{ x = $1; n++
	  wire = tot[x] - srv[x]; out = $7 - $6; back = $9 - $8
	  if (srv[x] < 0 || wire < 0) neg++
	  d = out + back - wire; if (d < 0) d = -d
	  if (d > srv[x] / 1000 + 2) { off++; if (!o1) o1 = x " (" out "+" back " vs " wire " ns)" }
	  if (n == 1 || out < mo) mo = out; if (n == 1 || back < mb) mb = back }
	END { printf "%d %d %d %.0f %.0f %s\n", n, neg, off, mo, mb, o1 ? o1 : "-" }' \
	pairs.txt merged-pairs.txt >split.txt
read -r sn sneg soff minout minback s1 <split.txt
if [ "$calls" -ge 100 ] && [ "$sn" = "$calls" ] && [ "$sneg" = 0 ]; then
	ok "split: every call's total = server + wire+queue with wire+queue >= 0 ($sn calls)"
else
	bad "split: $sneg of $sn calls (want $calls) with a server time longer than the call"
fi
if [ "$calls" -ge 100 ] && [ "$sn" = "$calls" ] && [ "$soff" = 0 ]; then
	ok "split: on the merged timeline out + back = wire+queue for every call"
else
	bad "split: $soff of $sn calls whose aligned out + back is not their wire+queue: $s1"
fi

# the report agrees: the answered count, and per procedure the count
# and the maximum of each part, to the nanosecond
ans=$(sed -n 's/^client client, server server: \([0-9]*\) of \([0-9]*\) calls answered$/\1/p' rpc.txt)
allpairs=$(awk "$(fieldv)"'
	FILENAME == ARGV[1] && $6 == "sunrpc.sched.execute.entry" { c[fv("prog") " " fv("xid")] = 1 }
	FILENAME == ARGV[2] && $6 == "sunrpc.svc.process.entry" { k = fv("rq_prog") " " fv("rq_xid"); if (k in c && !(k in seen)) { seen[k] = 1; n++ } }
	END { print n + 0 }' client.txt server.txt)
if [ -n "$ans" ] && [ "$ans" = "$allpairs" ]; then ok "rpc report: $ans calls answered, as the traces pair them"
else bad "rpc report: ${ans:-no} calls answered, the traces pair $allpairs"; fi
awk 'BEGIN { split("NULL GETATTR SETATTR LOOKUP ACCESS READLINK READ WRITE CREATE MKDIR SYMLINK MKNOD REMOVE RMDIR RENAME LINK READDIR READDIRPLUS FSSTAT FSINFO PATHCONF COMMIT", nm, " ") }
	$1 != "missing" && $1 != "noexe" { p = "nfs.v3." nm[$2 + 1]; total = $4 - $3; server = $6 - $5
		c[p]++; if (total > mt[p]) mt[p] = total; if (server > ms[p]) ms[p] = server
		if (total - server > mw[p]) mw[p] = total - server }
	END { for (p in c) printf "%s %d %.3f %.3f %.3f\n", p, c[p], mt[p] / 1000, ms[p] / 1000, mw[p] / 1000 }' pairs.txt |
	sort >want-report.txt
awk '/^nfs\.v3\./ { p = $1; c = $2; t = $NF; next }
	p != "" && $1 == "server" { s = $NF; next }
	p != "" && $1 == "wire+queue" { printf "%s %d %s %s %s\n", p, c, t, s, $NF; p = "" }' rpc.txt |
	sort >got-report.txt
if diff want-report.txt got-report.txt >report.diff && [ -s want-report.txt ]; then
	ok "rpc report: per procedure, the count and the maximum total, server and wire+queue times of the traces ($(wc -l <want-report.txt) procedures)"
else
	bad "rpc report differs from the traces (- traces, + report):"; cat report.diff
fi
for p in WRITE READ GETATTR COMMIT; do
	if grep -q "^nfs\.v3\.$p " got-report.txt; then ok "rpc report has nfs.v3.$p calls"
	else bad "rpc report: no nfs.v3.$p"; fi
done

# the alignment: its uncertainty, against the link's one-way latency:
# half the median of ping's round trips (the first one, which waits for
# ARP, left out)
off=$(sed -n 's/.*host server: offset \(-\{0,1\}[0-9]*\) ns +- \([0-9]*\) ns.*from \([0-9]*\) RPCs.*/\1 \2 \3/p' merged.err)
oneway=$(sed -n 's/.* seq=\([0-9]*\) .* time=\([0-9.]*\) ms$/\1 \2/p' "$cres/ping.out" |
	awk '$1 > 0 { print $2 }' | sort -n |
	awk '{ v[++n] = $1 } END { if (n >= 5) printf "%d", v[int((n + 1) / 2)] * 1000000 / 2 }')
# shellcheck disable=SC2086 # offset, uncertainty, RPCs
set -- $off
unc=${2:-} nrpc=${3:-}
if [ -n "$unc" ] && [ -n "$oneway" ] && [ "$unc" -le "$oneway" ]; then
	ok "alignment: offset $1 ns +- $unc ns from $nrpc RPCs, within the link's one-way latency ($oneway ns)"
else
	bad "alignment: uncertainty ${unc:-?} ns, the link's one-way latency ${oneway:-?} ns (ping: $(tail -n 1 "$cres/ping.out"))"
fi

echo "multihost: link one-way latency (median ping round trip / 2): ${oneway:-?} ns; $(tail -n 1 "$cres/ping.out")"
echo "multihost: alignment: $(grep 'host server:' merged.err)"
echo "multihost: smallest aligned out leg ${minout} ns, back leg ${minback} ns"
echo "multihost: RPC latency table (rpc.txt):"
sed -n '/^client client, server server$/,$p' rpc.txt
echo "multihost: module, guests and workload took ${guest_s} s"
echo "multihost: $pass passed, $failn failed"
[ "$failn" = 0 ]
