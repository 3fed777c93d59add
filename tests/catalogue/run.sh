#!/bin/sh
# Drift tests: everything derived from runtime/lket_events.def must agree
# with it, and it must agree with the specification, lket(5).
#
#   tests/catalogue/run.sh BUILD
#
# LKET_SPEC: the specification's markdown (default: ../shared/seeds/lket.5.md
# beside the source tree).
set -u
build=${1:?usage: run.sh BUILD}
top=$(cd "$(dirname "$0")/../.." && pwd)
spec=${LKET_SPEC:-$top/../shared/seeds/lket.5.md}
gencat=$build/lket-gencat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
nok() { fail=$((fail + 1)); echo "not ok - $1"; }

# 1. The catalogue holds exactly the hooks and fields lket(5) documents,
# with the project's decisions on the spec's slips (see lket_events.def):
# the misspelt senfile hook, the second nfsd.proc.commit.entry (which is
# nfsd4_proc_compound), "INR8" and "minor_devide".  Return hooks that
# lket(5) describes only in words get "return(INT64)".
if [ -f "$spec" ]; then
	awk -f "$top/tests/catalogue/spec-hooks.awk" "$spec" |
	sed -e 's/^process_snapshot()/process.snapshot/' \
	    -e 's/iosyscall\.senfile\./iosyscall.sendfile./' \
	    -e 's/^addevent\.nfsd\.proc\.commit\.entry number(INT32)$/addevent.nfsd.proc.compound.entry number(INT32)/' \
	    -e 's/(INR8)/(INT8)/g' -e 's/minor_devide(/minor_device(/g' \
	> "$tmp/spec"
	awk '/^addevent\.(iosyscall|aio|sunrpc|nfs|nfsd)\..*\.entry/ &&
	     $1 !~ /nfs\.proc\.(read|write|commit)_setup/ {
		name = $1; sub(/\.entry$/, ".return", name)
		print name " return(INT64)" }' "$tmp/spec" >> "$tmp/spec"
	sort "$tmp/spec" > "$tmp/spec.sorted"
	"$gencat" fields | sort > "$tmp/catalogue"
	if diff -u "$tmp/spec.sorted" "$tmp/catalogue" > "$tmp/diff"; then
		ok "catalogue matches lket(5): $(wc -l < "$tmp/catalogue") hooks"
	else
		nok "catalogue differs from lket(5) (- spec, + catalogue):"
		cat "$tmp/diff"
	fi
else
	nok "specification not found at $spec (set LKET_SPEC)"
fi

# 2. 221 public probes, each (group, hook) once.
n=$("$gencat" probes | wc -l)
[ "$n" = 221 ] && ok "221 public probes" || nok "$n public probes, not 221"
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
regs=$(grep -c '^	register_sys_event(' "$top/tapset/lket_catalogue.stp")
want=$("$gencat" fields | wc -l)
[ "$regs" = "$want" ] && ok "tapset registers $regs events" ||
	nok "tapset registers $regs events, catalogue has $want"

# 5. Every addevent.* alias the tapset defines is in the catalogue, and a
# group with a tapset file defines all of its probes (the senfile alias
# of lket(5) excepted).
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
for f in tapset/*.stp; do
	g=$(basename "$f" .stp)
	grep -q "^addevent\.$g[.]*" "$tmp/probes" 2>/dev/null || continue
	grep "^addevent\.$g\.\|^addevent\.$g\$" "$tmp/probes" |
		comm -23 - "$tmp/defined" > "$tmp/missing"
	[ -s "$tmp/missing" ] &&
		nok "tapset/$g.stp lacks: $(tr '\n' ' ' < "$tmp/missing")" ||
		ok "tapset/$g.stp defines all of its group's probes"
done

echo "catalogue: $pass passed, $fail failed"
[ "$fail" = 0 ]
