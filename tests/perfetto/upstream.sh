#!/bin/sh
# The project's schema (b2a/output/perfetto/lket_perfetto.proto) against
# Perfetto's published protos: every field it declares has, in Perfetto's
# message of the same name, the same number, type and label, and every
# enum value the same number.  Both as protoc reads them
# (proto-fields.py).  Run by make check-perfetto.
#
#   tests/perfetto/upstream.sh PERFETTO_SRC
set -eu
src=$(cd "${1:?usage: upstream.sh PERFETTO_SRC}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
python3 "$here/proto-fields.py" -I "$top/b2a/output/perfetto" \
	"$top/b2a/output/perfetto/lket_perfetto.proto" > "$tmp/ours"
python3 "$here/proto-fields.py" -I "$src" \
	"$src/protos/perfetto/trace/trace.proto" > "$tmp/theirs"
version=$(sed -n 's/^\(v[0-9][0-9.]*\) - .*/\1/p' "$src/CHANGELOG" 2>/dev/null | head -n 1)
# each of ours: its name, then what Perfetto has under that name
awk -v version="${version:-?}" '
NR == FNR { key = $2; $1 = $2 = ""; theirs[key] = substr($0, 3); next }
{
	what = $1; key = $2; $1 = $2 = ""; mine = substr($0, 3)
	n[what]++
	if (!(key in theirs)) {
		printf "not ok - %s %s: Perfetto has no such %s\n", what, key, what
		bad++
	} else if (theirs[key] != mine) {
		printf "not ok - %s %s: ours is %s, Perfetto'"'"'s %s\n", what, key, mine, theirs[key]
		bad++
	}
}
END {
	printf "%s - %d fields and %d enum values of lket_perfetto.proto as in Perfetto %s'"'"'s protos\n",
		bad ? "not ok" : "ok", n["field"], n["value"], version
	exit bad ? 1 : 0
}' "$tmp/theirs" "$tmp/ours"
