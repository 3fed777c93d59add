# Shared by the guest tests of the IO groups (ioscheduler, scsi,
# iosyscall, aio, netdev); sourced, not run.  Sets:
#   top builddir rel   the source tree, build folder, guest kernel release
#   stapopts           stap options for the guest kernel
#   SYSTEMTAP_DIR      build/stap-cache
# and provides the counters and helpers every test uses.
#
# stap options: tools/lket-buildenv's, whose tree has the tracepoint
# headers (source) and the module debuginfo (kmod/) these hooks need.

set -u
: "${group:?set group before sourcing io-common.sh}"
top=${top:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${LKET_BUILDDIR:-$top/build}
mkdir -p "$builddir"
builddir=$(cd "$builddir" && pwd)
rel=$("$top/tools/lket-target")
SYSTEMTAP_DIR=$builddir/stap-cache
export SYSTEMTAP_DIR
work=$builddir/guest/$group
res=$work/results
# every run starts from an empty work folder
rm -rf "$work"
mkdir -p "$work" "$res"

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
nok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { # check DESCRIPTION COMMAND...: ok if COMMAND succeeds
	d=$1; shift
	if "$@"; then ok "$d"; else nok "$d"; fi
}
finish() {
	echo "$group: $pass passed, $fail failed"
	[ "$fail" = 0 ] && exit 0
	exit 1
}

stapopts=$("$top/tools/lket-buildenv" --release "$rel" --builddir "$builddir") ||
	{ echo "$group: lket-buildenv failed" >&2; exit 1; }
# every tools/lket-stap of the test builds with them
LKET_BUILDENV_OPTS=$stapopts
export LKET_BUILDENV_OPTS

# The catalogue and lket-b2a must be current (in the build folder in
# use: make check-rt's is not build/).
make -s -C "$top" BUILD="$builddir" tapset/lket_catalogue.stp \
	tapset/lket_aliases.stp "$builddir/lket-b2a" >/dev/null ||
	{ echo "$group: make failed" >&2; exit 1; }

# build_module NAME SCRIPT: compile SCRIPT into $work/NAME.ko for the guest,
# its messages in $work/NAME.stap.err.  build_start NAME SCRIPT begins it
# in the background, beside other builds (tests/stap-jobs.sh), and
# build_wait NAME waits for it.  LKET_STAP_EXTRA: more stap options, e.g.
# -DSTP_TIMING to have the module say at exit why it skipped probes
# (reentrancy, missed kretprobe...).
. "$top/tests/stap-jobs.sh"
build_start() {
	# shellcheck disable=SC2086 # LKET_STAP_EXTRA is a list of options
	stap_job "$work" "$1" ${LKET_STAP_EXTRA:-} -e "$2"
}
build_wait() { stap_wait "$work" "$1"; }
build_module() { build_start "$@" && build_wait "$1"; }


# hook_list GROUP: the addevent.GROUP.* names stap -l lists (pair
# aliases included)
hook_list() {
	"$top/tools/lket-stap" -l "addevent.$1.**" \
		2>/dev/null | grep "^addevent\.$1\." | sort
}

# catalogue_hooks GROUP: the catalogue's probes of GROUP
catalogue_hooks() {
	"$builddir/lket-gencat" probes | grep "^addevent\.$1\." | sort
}

# A kernel of another Debian suite than the host's: its debuginfo is in
# its build root, where lket-b2a is told to look (lket-b2a(1), --debuginfo)
kroot=$("$top/tools/lket-buildenv" --release "$rel" --builddir "$builddir" --print-root) ||
	{ echo "$group: lket-buildenv --print-root failed" >&2; exit 1; }

# decode ARGS...: lket-b2a
decode() {
	"$builddir/lket-b2a" ${kroot:+--debuginfo "$kroot/usr/lib/debug"} "$@"
}

# hook_list_check GROUP EXTRA...: stap -l lists exactly the catalogue's
# GROUP hooks, the EXTRA leaf names, and their pair aliases
hook_list_check() {
	g=$1; shift
	catalogue_hooks "$g" > "$work/hooks.cat"
	{ cat "$work/hooks.cat"; for x in "$@"; do echo "$x"; done; } |
		sort > "$work/hooks.leaf"
	{ cat "$work/hooks.leaf"
	  grep -E '\.(entry|return)$' "$work/hooks.leaf" | sed 's/\.[a-z]*$//'; } |
		sort -u > "$work/hooks.want"
	hook_list "$g" > "$work/hooks.got"
	if diff -u "$work/hooks.want" "$work/hooks.got" > "$work/hooks.diff"; then
		ok "hook list: stap -l 'addevent.$g.**' = $(wc -l < "$work/hooks.cat") catalogue hooks${1:+ + $*} + pair aliases"
	else
		nok "hook list differs (- want, + stap -l):"; cat "$work/hooks.diff"
	fi
}

# skip_guest: end here (77) if LKET_SKIP_GUEST=1
skip_guest() {
	if [ "${LKET_SKIP_GUEST:-}" = 1 ]; then
		echo "$group: $pass passed, $fail failed (guest part skipped: LKET_SKIP_GUEST=1)"
		[ "$fail" = 0 ] && exit 77
		exit 1
	fi
}

# run_guest SCRIPT [LKET-VM OPTIONS...]: one boot running SCRIPT
run_guest() {
	s=$1; shift
	rc=0
	"$top/tests/vm/lket-vm" run --timeout "${LKET_VM_TIMEOUT:-600}" \
		--results "$res" "$@" --script "$s" > "$work/guest.out" 2>&1 || rc=$?
	cat "$work/guest.out"
	if [ "$rc" = 0 ]; then ok "guest: ran the workloads, console clean (no oops or warning)"
	else nok "guest: lket-vm exit status $rc"; fi
}

# check_expect PREFIX EXPECTFILE LABEL: decode PREFIX_*, check EXPECTFILE
check_expect() {
	if ! ls "$1"_* > /dev/null 2>&1; then nok "$3: no trace files"; return; fi
	[ -f "$1.txt" ] || decode -o "$1.txt" "$1" 2> "$1.b2a.err" ||
		nok "$3: lket-b2a failed: $(cat "$1.b2a.err")"
	awk -v group="$group" -v label="$3" -f "$top/tests/guest/io-expect.awk" \
		"$2" "$1.txt" > "$1.check"
	while read -r verdict rest; do
		case $verdict in
		ok) ok "${rest#- }" ;;
		*) nok "${rest#ok - }" ;;
		esac
	done < "$1.check"
}

# The virtio-scsi disk of the ioscheduler and scsi tests: an image file
# in the build folder, as qemu arguments for lket-vm --extra-qemu.
disk_qemu_args() {
	truncate -s 0 "$work/disk.img"
	truncate -s 128M "$work/disk.img"
	echo "-device virtio-scsi-pci,id=lketscsi" \
	     "-drive file=$work/disk.img,if=none,id=lketdisk,format=raw,cache=unsafe" \
	     "-device scsi-hd,drive=lketdisk,bus=lketscsi.0"
}

# The guest's disk set-up (a shell fragment for a guest script): the
# virtio-scsi disk as $dev with an ext4 file system mounted on /mnt/lket,
# its major:minor in $RES/devnum, its H:C:T:L in $RES/hctl.
disk_guest_setup() {
	cat <<'EOS'
modprobe virtio_scsi && modprobe sd_mod || exit 1
n=0
while [ ! -e /sys/block/sda ] && [ $n -lt 100 ]; do sleep 0.2; n=$((n + 1)); done
dev=sda
[ -e /dev/$dev ] || mknod /dev/$dev b $(cut -d: -f1 /sys/block/$dev/dev) $(cut -d: -f2 /sys/block/$dev/dev)
cat /sys/block/$dev/dev > "$RES/devnum"
ls /sys/block/$dev/device/scsi_device > "$RES/hctl"
mkfs.ext4 -q -F /dev/$dev || exit 1
mkdir -p /mnt/lket
mount -t ext4 /dev/$dev /mnt/lket || exit 1
EOS
}
