#!/bin/sh
# bench/lttng-modules.sh BUILD REL: LTTng's kernel modules for the guest
# kernel REL, for bench/guest.sh's "lttng" tracer.  Prints the folder of
# the .ko files; builds them once (a stamp names the package, the kernel
# and the patches).
#
# The source is the lttng-modules-dkms package of REL's own Debian suite
# (runtime/targets): Debian 12's 2.13.9 for 6.1, Debian 13's 2.13.18 for
# 6.12, downloaded, not installed (DKMS would build it for the host's
# kernels).  It is built with that suite's compiler against REL's
# headers: on this machine for its own suite, in the suite's build root
# (tools/lket-buildenv --exec) for another.  Each patch of
# bench/lttng-patches/ that applies is applied first (the file says why):
# a kernel newer than the package, as 6.1.0-57 and 6.12.117 are for
# both (their hrtimer_start; told by the kernel's own header).  The
# guest loads the modules from there
# (bench/guest-job.sh copies them into its /lib/modules, which only the
# guest's overlay sees).
#
# Exit 1, with the reason on stderr, when they cannot be built.
set -eu
build=$(cd "${1:?usage: lttng-modules.sh BUILD REL}" && pwd)
rel=${2:?usage: lttng-modules.sh BUILD REL}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
note() { echo "lttng-modules: $*" >&2; }
die() { note "$*"; exit 1; }

suite=$("$top/tools/lket-target" --suite "$rel")
[ -n "$suite" ] || die "$rel is no target of runtime/targets"
suite=${suite%%-*}
hostsuite=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release | head -n1)
dir=$build/bench/lttng/$rel
mkdir -p "$dir"
# the build roots' folder, absolute: the build runs in the source's folder
rootdir=$(mkdir -p "${LKET_ROOTDIR:-$build/roots}" && cd "${LKET_ROOTDIR:-$build/roots}" && pwd)
# in REL's suite: here, or in its build root
in_suite() {
	if [ "$suite" = "$hostsuite" ]; then
		"$@"
	else
		LKET_ROOTDIR=$rootdir \
			"$top/tools/lket-buildenv" --release "$rel" --builddir "$build" --exec "$@"
	fi
}

# the package, as REL's suite has it
rm -f "$dir"/lttng-modules-dkms_*.deb
(cd "$dir" && in_suite apt-get download -q lttng-modules-dkms) >/dev/null 2>"$dir/download.log" ||
	(cd "$dir" && in_suite sh -c 'apt-get update -q && apt-get download -q lttng-modules-dkms') \
		>/dev/null 2>>"$dir/download.log" ||
	die "apt-get download lttng-modules-dkms ($suite) failed: $dir/download.log"
deb=$(ls "$dir"/lttng-modules-dkms_*.deb)
stamp="${deb##*/} $rel $(cat "$here"/lttng-patches/*.patch "$0" | md5sum | cut -c1-8)"
if [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ] && ls "$dir"/modules/*.ko >/dev/null 2>&1; then
	echo "$dir/modules"
	exit 0
fi

rm -rf "$dir/src" "$dir/modules" "$dir/stamp"
dpkg-deb -x "$deb" "$dir/src"
src=$(echo "$dir"/src/usr/src/lttng-modules-*)
[ -f "$src/Makefile" ] || die "no source in $deb"
for p in "$here"/lttng-patches/*.patch; do
	if patch -d "$src" -p1 --dry-run -s < "$p" >/dev/null 2>&1; then
		patch -d "$src" -p1 -s < "$p" || die "patch ${p##*/} failed"
		note "$rel: applied ${p##*/}"
	fi
done
# what the patches need to know of the kernel, from its own headers (the
# flavour's Makefile includes its common half's)
hdr=/usr/src/linux-headers-$rel
common=$(in_suite sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$hdr/Makefile" | head -n1)
defs=
if in_suite grep -qs 'bool was_armed' "${common:-$hdr}/include/trace/events/timer.h"; then
	defs="$defs -DLKET_HRTIMER_START_WAS_ARMED"
fi
note "$rel: building ${deb##*/} (a few minutes)"
(cd "$src" && in_suite make -j"$(nproc)" KERNELDIR="$hdr" KCPPFLAGS="$defs") \
	>"$dir/build.log" 2>&1 || die "the build failed for $rel: $dir/build.log"
mkdir -p "$dir/modules"
find "$src" -name '*.ko' -exec cp {} "$dir/modules/" \;
# without their debug information, as DKMS installs them: 6.12's are
# 6 GB with it, more than the guest's memory, where they are copied
strip --strip-debug "$dir"/modules/*.ko ||
	die "strip --strip-debug failed on $dir/modules"
ls "$dir"/modules/lttng-tracer.ko >/dev/null 2>&1 || die "no lttng-tracer.ko built: $dir/build.log"
rm -rf "$dir/src"
echo "$stamp" > "$dir/stamp"
echo "$dir/modules"
