#!/bin/sh
# Guest test of the netdev group (tests/vm/README: the qemu guest).
#
#  1. build (host): addevent.netdev in one module; the hook list;
#  2. guest (qemu's -nic none: nothing leaves the guest): two network
#     namespaces joined by a veth pair (veth0 10.77.0.1 here, veth1
#     10.77.0.2 in namespace lketpeer), and lo; the workload
#     (tests/guest/workloads/netdev.c) sends a 1000-byte UDP datagram over
#     the veth pair and a 700-byte one over lo;
#  3. host: transmit records on veth0 and lo and receive records on veth1
#     and lo with the exact lengths (IPv4 total length 1028 / 728; the
#     14-byte Ethernet header on transmit: 1042 / 742), protocol 2048
#     (IPv4; ARP 2054 on veth too), and buffer_length >= data_length.
#
# Exit 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
group=netdev
. "$(cd "$(dirname "$0")" && pwd)/io-common.sh"

w=$work/netdev
check "build: workload" \
	gcc -O1 -Wall -Wextra -Werror -o "$w" "$top/tests/guest/workloads/netdev.c"
check "build: every addevent.netdev hook (stap -p4)" \
	build_module lket_netdev 'probe addevent.netdev {}'
hook_list_check netdev
skip_guest
[ -f "$work/lket_netdev.ko" ] || finish

cat > "$work/load.sh" <<EOS
"$w" 10.77.0.2 1000 && "$w" 127.0.0.1 700
EOS
cat > "$work/guest.sh" <<EOS
set -u
cd "$work"
modprobe veth || exit 1
ip link set lo up
ip netns add lketpeer
ip link add veth0 type veth peer name veth1
ip link set veth1 netns lketpeer
ip addr add 10.77.0.1/24 dev veth0
ip link set veth0 up
ip netns exec lketpeer ip addr add 10.77.0.2/24 dev veth1
ip netns exec lketpeer ip link set veth1 up
ip netns exec lketpeer ip link set lo up
sleep 1
"$top/tools/lket-run-traced" -o "$res/t" lket_netdev.ko -- sh "$work/load.sh" > "$res/out" 2> "$res/err"
echo "run rc=\$?"
exit 0
EOS
run_guest "$work/guest.sh"

if ls "$res"/t_* > /dev/null 2>&1 && decode -o "$res/t.txt" "$res/t" 2> "$res/b2a.err"; then
	ok "lket-b2a decoded the trace"
else
	nok "no trace or lket-b2a failed: $(cat "$res/b2a.err" 2>/dev/null)"
fi
# has EVENT DEV LEN PROTO: a record with these fields and a plausible
# buffer_length
has() {
	awk -v ev="netdev.$1" -v dev="$2" -v len="$3" -v proto="$4" '
	{ e = $6; sub(/^addevent\./, "", e) }
	e == ev && index($0, " netdev_name=\"" dev "\" data_length=" len " protocol=" proto " buffer_length=") {
		split($0, f, "buffer_length="); if (f[2] + 0 >= len + 0) found = 1 }
	END { exit !found }' "$res/t.txt" 2>/dev/null
}
check "veth0 transmits the UDP datagram: data_length=1042 protocol=2048" has transmit veth0 1042 2048
check "veth1 receives it: data_length=1028 protocol=2048" has receive veth1 1028 2048
check "veth0 transmits an ARP request: protocol=2054" has transmit veth0 42 2054
check "veth1 receives the ARP request: data_length=28 protocol=2054" has receive veth1 28 2054
check "lo transmits the UDP datagram: data_length=742 protocol=2048" has transmit lo 742 2048
check "lo receives it: data_length=728 protocol=2048" has receive lo 728 2048
finish
