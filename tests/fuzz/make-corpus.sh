#!/bin/sh
# make-corpus.sh BUILD [PREFIX NAME]...: (re)write the seed corpus kept in
# tests/fuzz/corpus/: traces of lket-gen's kinds, and with PREFIX NAME the
# per-CPU files PREFIX_0 and PREFIX_1 of a real guest trace, each cut to
# its first 24 KiB (a cut record at the end is one more case), as NAME.
# Each seed is the fuzz target's input: a byte choosing the output (they
# take turns, so that every output starts from several seeds), the split
# byte, then the two files laid end to end (tests/fuzz/fuzz_b2a.c).
set -eu
build=$(cd "${1:?usage: make-corpus.sh BUILD [PREFIX NAME]...}" && pwd)
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/tests/fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dir"
n=0
# seed NAME FILE0 FILE1
seed() {
	a=$(wc -c <"$2") b=$(wc -c <"$3")
	byte=$((a * 255 / (a + b)))
	{ printf "\\$(printf %o $((n % 8)))\\$(printf %o "$byte")"
	  cat "$2" "$3"; } >"$dir/$1"
	n=$((n + 1))
}
gen() { # gen NAME LKET-GEN-ARGS...
	name=$1; shift
	rm -f "$tmp"/g_*
	"$build/lket-gen" "$@" "$tmp/g" >/dev/null
	seed "$name" "$tmp/g_0" "$tmp/g_1"
}
if [ $# = 0 ]; then
	rm -f "$dir"/gen-*
	for f in v4 v5 none; do gen "gen-golden-$f" -f $f golden; done
	for k in badmeta nometa strings latency backwards dbnames moved; do
		gen "gen-$k" "$k"
	done
	gen gen-many -n 40 many
	gen gen-syscalls -n 40 syscalls
	gen gen-golden-pcpu -p golden
	gen gen-golden-end -p -e -k 2 golden
fi
while [ $# -ge 2 ]; do
	head -c 24576 "${1}_0" >"$tmp/r0"
	head -c 24576 "${1}_1" >"$tmp/r1"
	n=$(($(ls "$dir" | wc -l)))
	seed "$2" "$tmp/r0" "$tmp/r1"
	shift 2
done
ls -l "$dir"
