#!/bin/sh
# doc: every public addevent.* alias of the group tapsets has a kernel-doc
# block, and its "Record:" line names the catalogue's fields in on-disk
# order with their types ("lket-gencat fields").
. "$(dirname "$0")/lib.sh"

cd "$work"
"$build/lket-gencat" fields >fields
for g in $(lket_groups); do
	f=$top/tapset/$g.stp
	# "NAME FIELDS" from " * probe NAME - ..." and the next " * Record:" line
	# (joined with its continuation lines).
	awk '
	/^ \* probe addevent\./ { name = $3; rec = ""; inrec = 0; next }
	/^ \* Record: / { rec = substr($0, 12); inrec = 1; next }
	inrec && /^ \* +[a-z_0-9]+\((INT8|INT16|INT32|INT64|STRING)\)/ {
		sub(/^ \* +/, ""); rec = rec " " $0; next
	}
	{ inrec = 0 }
	/^ \*\// {
		sub(/\.( .*)?$/, "", rec)	# a sentence after the field list
		if (name != "") print name "\t" rec
		name = ""
	}
	' "$f"
done >documented
# Leaves must document exactly their catalogue fields; group aliases
# (no catalogue entry) must not claim a record.
status=0
while IFS="$(printf '\t')" read -r p rec; do
	want=$(awk -v p="$p" '$1 == p { sub(/^[^ ]+ ?/, ""); print; exit }' fields)
	if grep -q "^$p\( \|$\)" fields; then
		want="common_data${want:+, $want}"
		got=$(printf '%s' "$rec" | sed 's/, the value of @[a-z_]*$//')
		[ "$got" = "$want" ] || { echo "$p: documented \"$got\", catalogue \"$want\"" >&2; status=1; }
	elif [ -n "$rec" ]; then
		echo "$p: not in the catalogue but documents a record" >&2
		status=1
	fi
done <documented
# Every catalogue probe of these groups is documented.
for g in $(lket_groups); do
	grep "^addevent\.$g[. ]\|^addevent\.$g\$" fields | cut -d' ' -f1
done | while read -r p; do
	cut -f1 documented | grep -qx "$p" || { echo "$p: no kernel-doc block" >&2; exit 1; }
done || status=1
[ $status = 0 ] || fail "kernel-doc and catalogue disagree"
note "PASS ($(wc -l <documented) documented aliases)"
