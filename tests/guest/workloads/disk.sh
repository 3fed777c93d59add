#!/bin/sh
# disk workload of the ioscheduler and scsi guest tests: O_DIRECT and
# buffered writes, reads and fsync on the file system at $1 (on the
# virtio-scsi disk).  Each O_DIRECT transfer is one 65536-byte request.
set -eu
d=$1
dd if=/dev/zero of="$d/direct" bs=65536 count=4 oflag=direct conv=fsync 2>/dev/null
dd if="$d/direct" of=/dev/null bs=65536 count=4 iflag=direct 2>/dev/null
dd if=/dev/zero of="$d/buffered" bs=4096 count=48 conv=fsync 2>/dev/null
sync
echo 3 > /proc/sys/vm/drop_caches
cat "$d/buffered" > /dev/null
rm -f "$d/direct" "$d/buffered"
sync
