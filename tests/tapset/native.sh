#!/bin/sh
# native: a native build (the kernel's own build tree, here given with
# -r TREE) also gets SystemTap's runtime with LKET's transport fixes, so
# that tools/lket-run-traced accepts the module (modinfo
# lket_relay_drain=1); and so does an installed lket-stap ("make
# install"), whose lket-buildenv keeps the runtime copy in ~/.cache/lket.
. "$(dirname "$0")/lib.sh"

rel=$("$top/tools/lket-target")
tree=/usr/src/linux-headers-$rel
[ -f "$tree/Makefile" ] || fail "$tree missing: apt-get install linux-headers-$rel"
cd "$work"
lket_stap -r "$tree" -p4 -m lket_native -e 'probe begin { exit() }' \
	>stap.out 2>&1 || { cat stap.out >&2; fail "native build failed"; }
[ "$(modinfo -F lket_relay_drain lket_native.ko)" = 1 ] ||
	fail "native build: the module lacks the relay drain fix (modinfo lket_relay_drain)"

make -s -C "$top" install DESTDIR="$work/inst" PREFIX=/usr >install.out 2>&1 ||
	{ cat install.out >&2; fail "make install failed"; }
# as a user would run it: no LKET_BUILDDIR (the test harness sets one)
env -u LKET_BUILDDIR XDG_CACHE_HOME="$work/cache" "$work/inst/usr/bin/lket-stap" -n -r "$tree" -p4 \
	-e 'probe begin {}' >dry.out 2>&1 || { cat dry.out >&2; fail "installed lket-stap -n failed"; }
grep -q -- "-R $work/cache/lket/stap-runtime " dry.out ||
	{ cat dry.out >&2; fail "installed lket-stap: no -R to the patched runtime copy"; }
grep -rqs 'MODULE_INFO(lket_relay_drain' "$work/cache/lket/stap-runtime" ||
	fail "installed lket-buildenv: runtime copy not patched"
note "PASS (native module with the drain fix; installed copy patched)"
