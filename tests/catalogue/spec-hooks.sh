#!/bin/sh
# Print the 2006 hook list of lket(5) as tests/catalogue/spec-hooks.txt
# stores it: a header, then every hook with its fields, in the order the
# specification lists them, as "lket-gencat fields" writes them.
#
#   tests/catalogue/spec-hooks.sh LKET.5.MD > tests/catalogue/spec-hooks.txt
#
# The specification's slips are mended the way the project decided (see
# runtime/lket_events.def): the misspelt senfile hook, the second
# nfsd.proc.commit.entry (which is nfsd4_proc_compound), "INR8" and
# "minor_devide".
set -eu
spec=${1:?usage: spec-hooks.sh LKET.5.MD}
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$spec" ] || { echo "spec-hooks.sh: $spec: not found" >&2; exit 2; }
sum=$(sha256sum < "$spec" | cut -d' ' -f1)
cat <<END
# The hooks and record fields of LKET's 2006 specification, lket(5), one
# hook a line with its fields, as "lket-gencat fields" writes them;
# tests/catalogue/run.sh compares the catalogue with this list.
# Made from the specification's markdown (lket.5.md, sha256
# $sum) by
#   tests/catalogue/spec-hooks.sh lket.5.md > tests/catalogue/spec-hooks.txt
# with the project's fixes to the specification's slips applied.
END
awk -f "$here/spec-hooks.awk" "$spec" |
	sed -e 's/^process_snapshot()/process.snapshot/' \
	    -e 's/iosyscall\.senfile\./iosyscall.sendfile./' \
	    -e 's/^addevent\.nfsd\.proc\.commit\.entry number(INT32)$/addevent.nfsd.proc.compound.entry number(INT32)/' \
	    -e 's/(INR8)/(INT8)/g' -e 's/minor_devide(/minor_device(/g'
