# shellcheck shell=sh
# Shared by the tests of tests/tapset/ (sourced, not run).
#
# top      the source tree
# build    the build folder (LKET_BUILDDIR or top/build)
# work     a fresh folder for this test: build/tapset-tests/NAME
# lket_stap ARGS...   tools/lket-stap, which adds -b, -I tapset and the
#                     cross-build options for the guest kernel
# fail MSG / skip MSG
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${LKET_BUILDDIR:-$top/build}
name=$(basename "$0" .sh)${1:+-$1}
work=$build/tapset-tests/$name

fail() { echo "$name: FAIL: $*" >&2; exit 1; }
skip() { echo "$name: SKIP: $*" >&2; exit 77; }
note() { echo "$name: $*" >&2; }

lket_stap() { "$top/tools/lket-stap" "$@"; }

# The generated pieces the tapsets need.
[ -x "$build/lket-gencat" ] || fail "$build/lket-gencat missing: run make"
for f in lket_catalogue.stp lket_aliases.stp; do
	[ -f "$top/tapset/$f" ] || fail "tapset/$f missing: run make"
done

# The groups implemented so far: those with a tapset/<group>.stp.
lket_groups() {
	"$build/lket-gencat" groups | while read -r g; do
		if [ -f "$top/tapset/$g.stp" ]; then echo "$g"; fi
	done
}

rm -rf "$work"
mkdir -p "$work"
