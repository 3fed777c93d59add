#!/bin/sh
# Drift tests: everything derived from runtime/lket_events.def must agree
# with it, and it must agree with the specification, lket(5), whose hook
# list is kept in tests/catalogue/spec-hooks.txt.
#
#   tests/catalogue/run.sh BUILD
#
# LKET_SPEC (optional): the specification's markdown; the stored hook list
# must then still be what tests/catalogue/spec-hooks.sh makes of it.
set -u
build=${1:?usage: run.sh BUILD}
top=$(cd "$(dirname "$0")/../.." && pwd)
stored=$top/tests/catalogue/spec-hooks.txt
gencat=$build/lket-gencat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
nok() { fail=$((fail + 1)); echo "not ok - $1"; }

# 1. The catalogue holds exactly the hooks and fields lket(5) documents
# (spec-hooks.txt, with the project's decisions on the spec's slips),
# and those LKET adds (new-hooks.txt).
# Return hooks that lket(5) describes only in words get "return(INT64)".
grep -v '^#' "$stored" > "$tmp/spec.stored"
cp "$tmp/spec.stored" "$tmp/spec"
grep -v '^#' "$top/tests/catalogue/new-hooks.txt" > "$tmp/new"
cat "$tmp/new" >> "$tmp/spec"
awk '/^addevent\.(iosyscall|aio|sunrpc|nfs|nfsd)\..*\.entry/ &&
     $1 !~ /nfs\.proc\.(read|write|commit)_setup/ {
	name = $1; sub(/\.entry$/, ".return", name)
	print name " return(INT64)" }' "$tmp/spec" >> "$tmp/spec"
# Fields LKET adds at the end of a record lket(5) defines (readers that
# follow a trace's metadata read both): syscall.return's return value,
# which LTTng's analyses of the CTF export read for every system call.
sed -i 's/^addevent\.syscall\.return syscall_name(STRING)$/&, return(INT64)/' \
	"$tmp/spec"
sort "$tmp/spec" > "$tmp/spec.sorted"
"$gencat" fields | sort > "$tmp/catalogue"
if diff -u "$tmp/spec.sorted" "$tmp/catalogue" > "$tmp/diff"; then
	ok "catalogue matches lket(5): $(wc -l < "$tmp/catalogue") hooks"
else
	nok "catalogue differs from lket(5) (- spec, + catalogue):"
	cat "$tmp/diff"
fi

# 1a. Only when asked: the stored list is still the specification's.
if [ -n "${LKET_SPEC:-}" ]; then
	if "$top/tests/catalogue/spec-hooks.sh" "$LKET_SPEC" > "$tmp/fresh" \
		2> "$tmp/diff" &&
	   grep -v '^#' "$tmp/fresh" | diff -u "$tmp/spec.stored" - \
		> "$tmp/diff"; then
		ok "spec-hooks.txt is what $LKET_SPEC says"
	else
		nok "spec-hooks.txt differs from $LKET_SPEC (- stored, + spec):"
		cat "$tmp/diff"
	fi
fi

# 2. lket(5)'s 221 public probes and the new ones, each (group, hook) once.
n=$("$gencat" probes | wc -l)
want=$((221 + $(wc -l < "$tmp/new")))
[ "$n" = "$want" ] && ok "$want public probes" || nok "$n public probes, not $want"
dups=$("$gencat" probes | sort | uniq -d)
[ -z "$dups" ] && ok "no probe twice" || nok "probes listed twice: $dups"

# 3. The man page lists every probe with its record.
for p in $("$gencat" probes); do
	grep -qx ".B $p" "$build/man/lket.5" || echo "$p"
done > "$tmp/man-missing"
[ -s "$tmp/man-missing" ] && nok "lket.5 lacks: $(cat "$tmp/man-missing")" ||
	ok "lket.5 lists every probe"

# 4. The tapset's catalogue registers every event with the catalogue's
# fields, and has a writer for each.
regs=$(sed -n '/^} lket_hook_meta\[\] = {$/,/^};$/p' "$top/tapset/lket_catalogue.stp" |
	grep -cE '^	\{ [0-9]+, [0-9]+, "[A-Z0-9:]*", "[a-z0-9_:]*", "[a-z0-9_.]+" \},$')
want=$("$gencat" fields | wc -l)
[ "$regs" = "$want" ] && ok "tapset registers $regs events" ||
	nok "tapset registers $regs events, catalogue has $want"

# 5. Every addevent.* alias the tapset defines is in the catalogue (the
# senfile alias of lket(5) excepted), and it defines all of them.
cd "$top"
grep -ho '^probe addevent\.[a-z0-9_.]*' tapset/*.stp 2>/dev/null |
	sed 's/^probe //' | sort -u > "$tmp/defined"
"$gencat" probes | sort > "$tmp/probes"
# beyond the probes: group aliases (addevent.nfs.fop), and lket(5)'s
# misspelt addevent.iosyscall.senfile.*
extra=$(comm -23 "$tmp/defined" "$tmp/probes" | while read -r p; do
	case $p in *.senfile*) continue ;; esac
	grep -q "^$p\." "$tmp/probes" || echo "$p"
done)
[ -z "$extra" ] && ok "tapset defines no probe outside the catalogue" ||
	nok "tapset defines probes the catalogue lacks: $extra"
comm -23 "$tmp/probes" "$tmp/defined" > "$tmp/missing"
[ -s "$tmp/missing" ] &&
	nok "tapset lacks: $(tr '\n' ' ' < "$tmp/missing")" ||
	ok "tapset defines every probe of the catalogue"
# The public aliases are generated (tapset/lket_aliases.stp); a group's
# tapset has the hand-written __lket_<hook> probe of each of its hooks.
for f in tapset/*.stp; do
	g=$(basename "$f" .stp)
	grep -q "^addevent\.$g[.]*" "$tmp/probes" 2>/dev/null || continue
	grep -o '^probe __lket_[a-z0-9_.]*' "$f" | sed 's/^probe __lket_/addevent./' |
		sort -u > "$tmp/hand"
	grep "^addevent\.$g\.\|^addevent\.$g\$" "$tmp/probes" |
		comm -23 - "$tmp/hand" > "$tmp/missing"
	[ -s "$tmp/missing" ] &&
		nok "tapset/$g.stp lacks the __lket_ probe of: $(tr '\n' ' ' < "$tmp/missing")" ||
		ok "tapset/$g.stp has the __lket_ probe of each of its group's hooks"
done

echo "catalogue: $pass passed, $fail failed"
[ "$fail" = 0 ]
