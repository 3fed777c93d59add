#!/bin/sh
# Guest test of the ioscheduler group (tests/vm/README: the qemu guest).
#
#  1. build (host): addevent.ioscheduler in one module; the hook list;
#  2. guest: a virtio-scsi disk (an image in the build folder, scsi-hd),
#     ext4 made in the guest; the disk workload (workloads/disk.sh:
#     O_DIRECT and buffered writes, reads, fsync) traced twice, with the
#     queue's elevator set to none (the multi-queue default) and to
#     mq-deadline;
#  3. host: for the disk's major:minor, every added request is taken off
#     the queue (elv_next_request.return) and completed with the same
#     address; elevator_name says which elevator; writes and reads both.
#
# Exit 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
group=ioscheduler
. "$(cd "$(dirname "$0")" && pwd)/io-common.sh"

check "build: every addevent.ioscheduler hook (stap -p4)" \
	build_module lket_ioscheduler 'probe addevent.ioscheduler {}'
hook_list_check ioscheduler
skip_guest
[ -f "$work/lket_ioscheduler.ko" ] || finish

{ echo "set -u"; echo "RES=$res"; echo "cd $work"; disk_guest_setup
  for e in none mq-deadline; do
	cat <<EOS
echo $e > /sys/block/\$dev/queue/scheduler || exit 1
cat /sys/block/\$dev/queue/scheduler > "$res/sched-$e"
"$top/tools/lket-run-traced" -o "$res/t-$e" lket_ioscheduler.ko -- \
	sh "$top/tests/guest/workloads/disk.sh" /mnt/lket > "$res/out-$e" 2>&1
echo "run $e rc=\$?"
EOS
  done
  echo "umount /mnt/lket; exit 0"; } > "$work/guest.sh"
run_guest "$work/guest.sh" --extra-qemu "$(disk_qemu_args)"

devnum=$(cat "$res/devnum" 2>/dev/null)
major=${devnum%%:*} minor=${devnum#*:}
[ -n "$devnum" ] && ok "guest: the virtio-scsi disk is $devnum" || nok "guest: no disk"
for e in none mq-deadline; do
	grep -q "\[$e\]" "$res/sched-$e" 2>/dev/null && ok "$e: the queue's elevator is $e" ||
		nok "$e: could not select elevator $e"
	if ls "$res/t-$e"_* > /dev/null 2>&1 && decode -o "$res/t-$e.txt" "$res/t-$e" 2> "$res/b2a-$e.err"; then
		ok "$e: lket-b2a decoded the trace"
	else
		nok "$e: no trace or lket-b2a failed: $(cat "$res/b2a-$e.err" 2>/dev/null)"; continue
	fi
	awk -v major="$major" -v minor="$minor" -v elv="$e" -f "$top/tests/guest/io-disk.awk" \
		"$res/t-$e.txt" > "$res/check-$e"
	while read -r verdict rest; do
		case $verdict in ok) ok "${rest#- }" ;; *) nok "${rest#ok - }" ;; esac
	done < "$res/check-$e"
done
finish
