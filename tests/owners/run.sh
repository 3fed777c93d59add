#!/bin/sh
# The files a build makes that root loads, runs or reads to build what
# it loads: the modules (every *.ko), lket-b2a and lket-rotate, SystemTap's
# patched runtime copies, the kernel build trees (and the debuginfo and
# headers their links point to), stap's caches, the guests' initramfs,
# and the build roots (whose kernels, modules and SystemTap the guests
# and the other suites' builds use).  None may be another user's to
# change:
#  * everything in BUILD is the builder's (the user running this) and
#    writable by no one else (a sticky folder aside), but what is in a
#    private folder (no access for others: stap's cache) and the build
#    roots;
#  * in a build root (BUILD/roots/SUITE or LKET_ROOTDIR/SUITE, and
#    check-package's roots),
#    made by debootstrap and dpkg with their own users, nothing root
#    runs, loads or boots from it is writable by others (/usr, /boot,
#    /etc, /root; a sticky folder aside);
#  * what a kernel tree's links point to (its headers, vmlinux, its
#    modules' debuginfo: the host's, or the root's of its suite), the
#    same.
#
#   tests/owners/run.sh BUILD      prints "owners: N passed, M failed"
set -u
build=$(cd "${1:?usage: run.sh BUILD}" && pwd -P)
top=$(cd "$(dirname "$0")/../.." && pwd)
me=$(id -u)
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# at most 10 of a list, and how many more
some() { awk 'NR <= 10 { printf "%s%s", (NR > 1 ? ", " : ""), $0 } END { if (NR > 10) printf " and %d more", NR - 10 }'; }

# the build roots: debootstrap's trees, each checked on its own
rootdir=${LKET_ROOTDIR:-$build/roots}
roots=$(for d in "$rootdir"/* "$build"/package/*; do
	[ -d "$d/usr" ] && [ -d "$d/etc" ] && echo "$d"
done)
prune=
for r in $roots; do prune="$prune -path $r -prune -o"; done

# 1. BUILD, but the roots and what is in a private folder
# shellcheck disable=SC2086 # the prune list
others=$(find "$build" $prune \( -type d ! -perm /077 ! -path "$build" -prune \) -o \
	\( -type f -o -type d \) \( -perm /022 ! -perm -1000 \) -print | some)
[ -z "$others" ] && ok "$build: no file or folder others may write" ||
	bad "$build: others may write $others"
# shellcheck disable=SC2086
theirs=$(find "$build" $prune \( -type d ! -perm /077 ! -path "$build" -prune \) -o \
	! -uid "$me" -print | some)
[ -z "$theirs" ] && ok "$build: everything is the builder's (uid $me)" ||
	bad "$build: not the builder's (uid $me): $theirs"
# the modules, named: each one root loads
kos=$(find "$build" $prune -name '*.ko' -type f -print 2>/dev/null | wc -l)
badko=$(find "$build" $prune -name '*.ko' -type f \( -perm /022 -o ! -uid "$me" \) -print 2>/dev/null | some)
[ -z "$badko" ] && ok "$build: its $kos modules (*.ko) 0644 or stricter, the builder's" ||
	bad "$build: modules others may write, or not the builder's: $badko"

# 2. each build root: nothing others may write of what root runs there,
# loads from it or boots (its programs, libraries, kernels, modules,
# debuginfo and configuration, its root's home with stap's cache):
# /usr, /boot, /etc, /root (/var is Debian's own: its logs and mail
# are group-writable)
for r in $roots; do
	w=$(for d in usr boot etc root; do
		[ -d "$r/$d" ] && [ ! -L "$r/$d" ] || continue
		find "$r/$d" -xdev \( -type f -o -type d \) -perm /022 ! -perm -1000 -print 2>/dev/null
	done | some)
	[ -z "$w" ] && ok "$r: nothing others may write in /usr, /boot, /etc, /root" ||
		bad "$r: others may write $w"
done

# 3. what the kernel trees' links point to: the host's, or for a
# release of another suite, its root's (the links are that root's paths)
hostsuite=$("$top/tools/lket-target" --host-suite)
# resolve LINK ROOT: what LINK leads to, its absolute links read in ROOT
# ("" for this machine); fails if nothing is there
resolve() {
	rs_t=$1 rs_n=0
	while [ -L "$rs_t" ] && [ $rs_n -lt 40 ]; do
		rs_l=$(readlink "$rs_t")
		case $rs_l in /*) rs_t=$2$rs_l ;; *) rs_t=$(dirname "$rs_t")/$rs_l ;; esac
		rs_n=$((rs_n + 1))
	done
	[ -e "$rs_t" ] && [ ! -L "$rs_t" ] && echo "$rs_t"
}
for k in "$build"/kernel/* "$build"/targets/*/kernel/*; do
	[ -d "$k" ] || continue
	rel=${k##*/}
	suite=$("$top/tools/lket-target" --suite "$rel")
	suite=${suite%%-*}
	root=
	[ -z "$suite" ] || [ "$suite" = "$hostsuite" ] || root=$rootdir/$suite
	find "$k" -maxdepth 2 -type l >"$build/owners.links"
	n=0 w=
	while read -r l; do
		t=$(resolve "$l" "$root") || continue
		n=$((n + 1))
		if [ -n "$(find "$t" -maxdepth 0 -perm /022 ! -perm -1000)" ] ||
		   [ -n "$(find "$t" -maxdepth 0 ! -uid 0 ! -uid "$me")" ]; then
			w="$w $l -> $t ($(stat -c '%a %U' "$t"))"
		fi
	done <"$build/owners.links"
	links=$(wc -l <"$build/owners.links")
	rm -f "$build/owners.links"
	[ "$links" = 0 ] || [ "$n" -gt 0 ] ||
		w=" none of its $links links leads anywhere${root:+ in $root}"
	[ -z "$w" ] && ok "${k#"$build"/}: what its $n links point to (headers, vmlinux, kmod/ debuginfo) root's or the builder's, 0644 or stricter" ||
		bad "${k#"$build"/}: links to what others may write:$w"
done

echo "owners: $pass passed, $fail failed"
[ "$fail" = 0 ]
