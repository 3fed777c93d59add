#!/bin/sh
# doc: the documented addevent.* probes are exactly the defined ones, each
# documented once, and every hook's kernel-doc block names the catalogue's
# fields as its @parameters, in on-disk order ("lket-gencat fields"; the
# field "return" is @retval).  The hooks' blocks are hand-written next to
# their __lket_* probes (tapset/<group>.stp); a field its writer looks
# up (LKET_LOOKUP) is followed by the local it is looked up from
# ("lket-gencat locals"); the group and pair aliases',
# and every hook's "Record:" line, are generated (tapset/lket_aliases.stp).
. "$(dirname "$0")/lib.sh"

cd "$work"
"$build/lket-gencat" fields >fields
"$build/lket-gencat" locals >locals
# "NAME @A @B..." from " * probe NAME - ..." and its " * @A:" lines.
awk '
/^ \* probe addevent\./ { name = $3; params = ""; next }
name != "" && /^ \* @[a-z_0-9]+:/ {
	p = $2; sub(/:$/, "", p); params = params " " p; next
}
/^ \*\// { if (name != "") print name params; name = "" }
' "$top"/tapset/*.stp >documented
grep -ho '^probe addevent\.[a-z0-9_.]*' "$top"/tapset/*.stp |
	sed 's/^probe //' | sort >defined
status=0
cut -d' ' -f1 documented | sort >names
dup=$(uniq -d names)
[ -z "$dup" ] || { echo "documented twice: $dup" >&2; status=1; }
undoc=$(sort -u names | comm -13 - defined)
[ -z "$undoc" ] || { echo "no kernel-doc block: $undoc" >&2; status=1; }
extra=$(sort -u names | comm -23 - defined)
[ -z "$extra" ] || { echo "documented but not defined: $extra" >&2; status=1; }
# A hook documents exactly its catalogue fields.
while read -r p params; do
	grep -q "^$p\( \|$\)" fields || continue
	want=$(awk -v p="$p" 'FILENAME == "locals" { if ($1 == p) from[$2] = $3; next }
	$1 == p {
		s = ""
		for (i = 2; i <= NF; i++) {
			f = $i; sub(/\(.*/, "", f)
			s = s (s == "" ? "" : " ") "@" (f == "return" ? "retval" : f)
			if (f in from) s = s " @" from[f]
		}
		print s; exit }' locals fields)
	[ "$params" = "$want" ] ||
		{ echo "$p: documents \"$params\", catalogue \"$want\"" >&2; status=1; }
done <documented
[ $status = 0 ] || fail "kernel-doc and tapset disagree"
note "PASS ($(wc -l <documented) documented aliases)"
