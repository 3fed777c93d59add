#!/bin/sh
# Guest test of the scsi group, and of all five IO groups at once
# (tests/vm/README: the qemu guest).
#
#  1. build (host): addevent.scsi in one module; the hook list; then one
#     module with every hook of ioscheduler, scsi, iosyscall (senfile
#     too), aio and netdev enabled at once;
#  2. guest: a virtio-scsi disk (image in the build folder, scsi-hd,
#     elevator none) with ext4 made in the guest; under the all-hooks
#     module, the disk workload (O_DIRECT and buffered writes, reads,
#     fsync), the iosyscall and aio workloads on that disk and UDP over
#     lo;
#  3. host: every started request of the disk goes through scsi ioentry,
#     iodispatching, iodone and iocompleted with its address, 64 KiB
#     O_DIRECT writes and reads with data_direction 1 / 2, reqbuf_len and
#     bytes_done 65536; H:C:T:L as the guest's sysfs says; the iosyscall
#     and aio expectations hold in the same trace; the console shows no
#     oops or warning.
#
# Exit 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
group=scsi
. "$(cd "$(dirname "$0")" && pwd)/io-common.sh"

check "build: every addevent.scsi hook (stap -p4)" \
	build_module lket_scsi 'probe addevent.scsi {}'
hook_list_check scsi
for g in iosyscall aio netdev; do
	check "build: workload $g" gcc -O1 -Wall -Wextra -Werror -o "$work/$g" \
		"$top/tests/guest/workloads/$g.c"
done
check "build: every hook of the five IO groups in one module (stap -p4)" \
	build_module lket_io_all 'probe addevent.ioscheduler {} probe addevent.scsi {}
		probe addevent.iosyscall {} probe addevent.iosyscall.senfile {}
		probe addevent.aio {} probe addevent.netdev {}'
skip_guest
[ -f "$work/lket_io_all.ko" ] || finish

cat > "$work/load.sh" <<EOS
sh "$top/tests/guest/workloads/disk.sh" /mnt/lket
"$work/iosyscall" /mnt/lket > "$res/out-iosyscall"
"$work/aio" /mnt/lket > "$res/out-aio"
"$work/netdev" 127.0.0.1 700
EOS
{ echo "set -u"; echo "RES=$res"; echo "cd $work"; disk_guest_setup
  cat <<EOS
ip link set lo up
echo none > /sys/block/\$dev/queue/scheduler
"$top/tools/lket-run-traced" -o "$res/t" lket_io_all.ko -- sh "$work/load.sh" > "$res/out" 2>&1
echo "run rc=\$?"
umount /mnt/lket
exit 0
EOS
} > "$work/guest.sh"
run_guest "$work/guest.sh" --extra-qemu "$(disk_qemu_args)"

devnum=$(cat "$res/devnum" 2>/dev/null)
major=${devnum%%:*} minor=${devnum#*:}
hctl=$(cat "$res/hctl" 2>/dev/null)
[ -n "$devnum" ] && ok "guest: the virtio-scsi disk is $devnum, SCSI $hctl" || nok "guest: no disk"
if ls "$res"/t_* > /dev/null 2>&1 && decode -o "$res/t.txt" "$res/t" 2> "$res/b2a.err"; then
	ok "lket-b2a decoded the trace"
else
	nok "no trace or lket-b2a failed: $(cat "$res/b2a.err" 2>/dev/null)"
fi
awk -v major="$major" -v minor="$minor" -v elv=none -v scsi=1 \
	-f "$top/tests/guest/io-disk.awk" "$res/t.txt" > "$res/check-disk"
while read -r verdict rest; do
	case $verdict in ok) ok "${rest#- }" ;; *) nok "${rest#ok - }" ;; esac
done < "$res/check-disk"
# host:channel:dev_id:lun of every dispatch of the disk's requests
h=${hctl%%:*} rest=${hctl#*:} c=${rest%%:*} rest=${rest#*:} t=${rest%%:*}
if grep -E ' scsi\.iodispatching ' "$res/t.txt" |
	grep -q " host=$h channel=$c lun=${rest#*:} dev_id=$t device_state=2 "; then
	ok "iodispatching: host=$h channel=$c lun=${rest#*:} dev_id=$t as sysfs's $hctl"
else
	nok "no iodispatching with host=$h channel=$c dev_id=$t"
fi
for g in iosyscall aio; do
	group=$g check_expect "$res/t" "$res/out-$g" "all hooks: $g"
done
group=scsi
grep -q 'skipped probes: [1-9]' "$res/out" && nok "stapio: $(grep 'skipped probes' "$res/out")" ||
	ok "stapio: no probe skipped"
grep -Eq ' netdev\.transmit netdev_name="lo" data_length=742 protocol=2048 ' "$res/t.txt" &&
	ok "all hooks: netdev.transmit on lo" || nok "all hooks: no netdev.transmit on lo"
finish
