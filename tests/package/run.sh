#!/bin/sh
# The Debian packages (debian/), made and used the way Debian makes and
# users install them:
#   1. the source as a fresh clone of this tree would have it (the files
#      git knows, tracked or not ignored, as they are in the working tree)
#      is built by dpkg-buildpackage, as a user, in a minimal root of this
#      machine's Debian release (debootstrap) with only its Build-Depends
#      and build-essential, the way Debian's buildds build;
#   2. lintian finds no error and no warning in what it made;
#   3. apt installs the packages in another copy of that minimal root;
#      there stap lists the syscall group's hooks without -I (for the
#      machine's target kernel, whose headers are installed there: this
#      machine's own kernel is no Debian kernel), man finds the pages,
#      autopkgtest runs debian/tests against the installed packages, and
#      purging them leaves no file behind.
#
#   tests/package/run.sh BUILD
#
# As root (debootstrap, chroot).  The minimal root and the packages apt
# downloads are kept in BUILD/package for the next run; the rest is made
# anew.  LKET_DEBIAN_MIRROR: the mirror (default http://deb.debian.org/debian).
# LKET_PACKAGE_SUITE: another Debian release's roots than this machine's
# (trixie on Debian 12), its first target kernel for stap, that kernel's
# debuginfo from LKET_PACKAGE_DEBUG (default /usr/lib/debug; the build
# root's, BUILD/roots/trixie/usr/lib/debug, once lket-buildenv made it).
set -eu
build=$(cd "${1:?usage: run.sh BUILD}" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
hostsuite=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release | head -n1)
suite=${LKET_PACKAGE_SUITE:-$hostsuite}
work=$build/package
[ "$suite" = "$hostsuite" ] || work=$build/package-$suite
mkdir -p "$work"
mirror=${LKET_DEBIAN_MIRROR:-http://deb.debian.org/debian}
echo "VERSION_CODENAME=$suite" > "$work/os-release"
rel=$(LKET_OS_RELEASE=$work/os-release LKET_KERNEL_RELEASE= "$top/tools/lket-target")
dbg=${LKET_PACKAGE_DEBUG:-/usr/lib/debug}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   package: $*"; }
nok() { fail=$((fail + 1)); echo "FAIL package: $*"; }
die() { echo "FAIL package: $*"; echo "package: $pass passed, $((fail + 1)) failed"; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot)"
[ -n "$suite" ] || die "no VERSION_CODENAME in /etc/os-release: not a Debian machine"
for c in debootstrap lintian autopkgtest dpkg-parsechangelog git; do
	command -v $c > /dev/null || die "$c missing: tools/install-deps all"
done
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
mkdir -p "$work/apt-archives/partial"

# in_ns ROOT BINDS CMD [ARG]...: CMD, on this machine, in a mount
# namespace of its own (its mounts vanish with it) where ROOT has /proc,
# /dev and BINDS, a list of MODE:SRC:DST (MODE rw or ro; DST in ROOT)
in_ns() {
	ns_root=$1 ns_binds=$2
	shift 2
	cp /etc/resolv.conf "$ns_root/etc/resolv.conf"
	unshare --mount --propagation private -- sh -c '
		set -e
		r=$0 binds=$1
		shift
		mount -t proc proc "$r/proc"
		mount --bind /dev "$r/dev"
		for b in $binds; do
			mode=${b%%:*} b=${b#*:}
			mkdir -p "$r${b#*:}"
			mount --bind -o "$mode" "${b%%:*}" "$r${b#*:}"
		done
		exec "$@"
	' "$ns_root" "$ns_binds" "$@"
}
# inroot ROOT CMD [ARG]...: CMD as root in ROOT, with the shared folder
# of downloaded packages
archives=rw:$work/apt-archives:/var/cache/apt/archives
inroot() {
	ir_root=$1
	shift
	in_ns "$ir_root" "$archives" chroot "$ir_root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}
# apt-get install in ROOT, after a fresh package list once
aptin() {
	r=$1
	shift
	# apt downloads as its own user, _apt
	inroot "$r" chown _apt:root /var/cache/apt/archives/partial
	inroot "$r" apt-get install -y --no-install-recommends "$@" ||
	{ inroot "$r" apt-get update && inroot "$r" apt-get install -y --no-install-recommends "$@"; }
}

# 0. the minimal root, with the release's updates and security archive
#    (the kernel's packages come from there)
base=$work/base-$suite
if [ ! -f "$base/.lket-base" ]; then
	echo "package: debootstrap $suite into $base (a few minutes)"
	rm -rf "$base.tmp"
	debootstrap --variant=minbase "$suite" "$base.tmp" "$mirror" \
		> "$work/debootstrap.log" 2>&1 ||
		die "debootstrap $suite failed: see $work/debootstrap.log"
	cat > "$base.tmp/etc/apt/sources.list" <<-EOF
	deb $mirror $suite main
	deb $mirror $suite-updates main
	deb http://deb.debian.org/debian-security $suite-security main
	EOF
	inroot "$base.tmp" apt-get update > "$work/base-update.log" 2>&1 ||
		die "apt-get update in $base failed: see $work/base-update.log"
	# apt's own downloads go to the shared folder, not into the root
	rm -f "$base.tmp"/var/cache/apt/archives/*.deb
	touch "$base.tmp/.lket-base"
	mv "$base.tmp" "$base"
fi

# 1. the build, in a copy of the root
broot=$work/build-root
rm -rf "$broot" && cp -a "$base" "$broot"
src=$broot/build/lket-$version
mkdir -p "$src"
(cd "$top" && git ls-files -z --cached --others --exclude-standard) |
	(cd "$top" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
	(cd "$top" && tar --null -T - -cf -) | tar -C "$src" -xf - ||
	die "copying the source tree to $src failed"
echo "package: installing the Build-Depends in $broot"
if aptin "$broot" build-essential > "$work/build-deps.log" 2>&1 &&
   inroot "$broot" sh -c "cd /build/lket-$version && apt-get build-dep -y ./" >> "$work/build-deps.log" 2>&1; then
	ok "Build-Depends installed in a minimal $suite root"
else
	die "installing the Build-Depends failed: see $work/build-deps.log"
fi
inroot "$broot" useradd --home-dir /build --no-create-home builder
inroot "$broot" chown -R builder: /build
echo "package: dpkg-buildpackage -us -uc -b, as a user, in $broot"
if inroot "$broot" setpriv --reuid=builder --regid=builder --init-groups \
	sh -c "cd /build/lket-$version && HOME=/build dpkg-buildpackage -us -uc -b" \
	> "$work/build.log" 2>&1; then
	ok "dpkg-buildpackage -us -uc -b"
else
	tail -30 "$work/build.log"
	die "dpkg-buildpackage failed: see $work/build.log"
fi
out=$work/out
rm -rf "$out" && mkdir -p "$out"
cp "$broot"/build/*.deb "$broot"/build/*.changes "$broot"/build/*.buildinfo "$out/"
changes=$(ls "$out"/*.changes)
ls "$out"

# 2. lintian, on everything the build made, as a user
chmod -R a+rX "$out"
if setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/nonexistent \
	lintian --fail-on error,warning "$changes" > "$work/lintian.log" 2>&1; then
	ok "lintian: no error, no warning"
else
	nok "lintian:"
fi
sed 's/^/  lintian: /' "$work/lintian.log"

# 3. installed in a fresh copy of the root
iroot=$work/install-root
rm -rf "$iroot" && cp -a "$base" "$iroot"
mkdir -p "$iroot/debs"
cp "$out"/lket_*.deb "$out"/lket-b2a_*.deb "$iroot/debs/"
debs=$(cd "$iroot/debs" && ls ./*.deb | sed 's|^\./|/debs/|')
echo "package: apt-get install ./lket_*.deb ./lket-b2a_*.deb in $iroot"
if aptin "$iroot" $debs man-db "linux-headers-$rel" \
	> "$work/install.log" 2>&1; then
	ok "apt-get install of the packages, with their Depends"
else
	tail -20 "$work/install.log"
	die "apt-get install failed: see $work/install.log"
fi
echo "package: the files of lket and lket-b2a:"
inroot "$iroot" dpkg -L lket lket-b2a | sed 's/^/  /'

# stap finds the hooks in its own tapset folder: the syscall group's, as
# the catalogue names them
"$build/lket-gencat" probes | grep '^addevent\.syscall\.' | sort > "$work/hooks.want"
if inroot "$iroot" stap -r "$rel" -l 'addevent.syscall.*' > "$work/hooks.got" 2> "$work/hooks.err" &&
   sort "$work/hooks.got" | diff "$work/hooks.want" - > "$work/hooks.diff"; then
	ok "stap -r $rel -l 'addevent.syscall.*' lists the group's $(wc -l < "$work/hooks.want") hooks, without -I"
else
	nok "stap -l 'addevent.syscall.*' in $iroot:"
	cat "$work/hooks.diff" "$work/hooks.err" 2> /dev/null | head -20
fi
for page in lket lket-b2a lket-stap lket-run-traced lket-buildenv lket-target; do
	if p=$(inroot "$iroot" man -w "$page" 2>&1); then
		ok "man -w $page: $p"
	else
		nok "man -w $page: $p"
	fi
done

# autopkgtest: debian/tests against the installed packages, in the root,
# the tapset test for the target kernel.  Its debuginfo is Debian's
# linux-image-REL-dbg, which make check installs on this machine for the
# guest (tools/install-deps): shown read-only in the root, not unpacked
# there again (5 GB).
# lket-stap's tree and stap's cache where the use below, as root, has
# them by default: it then builds on the tracepoint queries the test
# built (minutes of CPU) rather than building them again
user_cache="--env=LKET_BUILDDIR=/root/.cache/lket --env=SYSTEMTAP_DIR=/root/.systemtap"
# the kernel's debuginfo in the root, read-only
kernel_binds="ro:$dbg/boot:/usr/lib/debug/boot ro:$dbg/lib/modules/$rel:/usr/lib/debug/lib/modules/$rel"
if [ -f "$dbg/boot/vmlinux-$rel" ]; then
	if in_ns "$iroot" "$kernel_binds" autopkgtest --no-built-binaries \
		--env=LKET_KERNEL_RELEASE="$rel" $user_cache "$out"/lket_*.deb "$out"/lket-b2a_*.deb "$src" \
		-- chroot "$iroot" > "$work/autopkgtest.log" 2>&1; then
		ok "autopkgtest: $(sed -n '/@@@ summary/,$s/^\([a-z-]*\) *\(PASS\|SKIP\|FAIL\).*/\1 \2/p' "$work/autopkgtest.log" | paste -sd, -)"
	else
		sed -n '/@@@ summary/,$p' "$work/autopkgtest.log" | head -10
		nok "autopkgtest: see $work/autopkgtest.log"
	fi
else
	nok "autopkgtest: no $dbg/boot/vmlinux-$rel (linux-image-$rel-dbg; tools/install-deps all)"
fi
grep -h 'probe points elaborated\|^golden:' "$work/autopkgtest.log" | sed 's/^/  autopkgtest: /'

# purge leaves nothing: the files of the root with the packages' Depends
# but without the packages, before and after an install, use and purge
# (/proc, /dev, caches, logs, home folders and dpkg's own records aside).
# The use: a module built for the kernel, as a user would (lket-stap
# keeps its runtime copy and kernel tree in ~/.cache/lket, never in
# /usr), and a trace converted.
files() {
	inroot "$iroot" sh -c 'find / -xdev \( -path /proc -o -path /dev -o -path /tmp \
		-o -path /var/cache -o -path /var/log -o -path /var/lib/dpkg \
		-o -path /var/lib/apt -o -path /run -o -path /root \) -prune -o -print' | sort
}
inroot "$iroot" dpkg --purge lket lket-b2a > "$work/purge.log" 2>&1
files > "$work/files.before"
if inroot "$iroot" dpkg -i $debs >> "$work/purge.log" 2>&1 &&
   in_ns "$iroot" "$archives $kernel_binds" chroot "$iroot" /usr/bin/env -i HOME=/root \
	PATH=/usr/sbin:/usr/bin:/sbin:/bin sh -c 'cd /tmp && lket-stap -r "$0" -p4 -m lket_use \
	-e "probe addevent.syscall.entry {}"' "$rel" >> "$work/purge.log" 2>&1 &&
   "$build/lket-gen" latency "$iroot/tmp/t" > /dev/null && inroot "$iroot" lket-b2a -o /tmp/lket.out /tmp/t >> "$work/purge.log" 2>&1 &&
   inroot "$iroot" dpkg --purge lket lket-b2a >> "$work/purge.log" 2>&1; then
	files > "$work/files.after"
	if diff "$work/files.before" "$work/files.after" > "$work/files.diff"; then
		ok "dpkg --purge lket lket-b2a leaves no file"
	else
		nok "purge left files behind:"; head -20 "$work/files.diff"
	fi
else
	nok "install and purge: see $work/purge.log"
fi

echo "package: $pass passed, $fail failed"
[ "$fail" = 0 ]
