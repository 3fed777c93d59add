#!/bin/sh
# list [GROUP...]: "stap -l 'addevent.**'" lists exactly the catalogue's
# probes of the groups implemented so far (tapset/<group>.stp exists; or
# of the GROUPs given), plus the group
# aliases: names that are a dotted prefix of catalogue probes
# (addevent.signal, addevent.signal.send...).
. "$(dirname "$0")/lib.sh"

cd "$work"
if [ $# -gt 0 ]; then printf '%s\n' "$@"; else lket_groups; fi >groups
[ -s groups ] || fail "no group tapsets"
"$build/lket-gencat" probes | while read -r p; do
	g=${p#addevent.}
	g=${g%%.*}
	grep -qx "$g" groups && echo "$p"
done | sort >want
# Probes of other groups that do not resolve here are not this test's
# business: keep the lines of these groups.
lket_stap -l 'addevent.**' >listed.raw 2>stap.err || true
for g in $(cat groups); do
	grep -E "^addevent\.$g(\.|\$)" listed.raw || true
done | sort -u >listed

# Every catalogue probe of these groups is listed...
missing=$(comm -23 want listed)
[ -z "$missing" ] || fail "catalogue probes not provided: $missing"
# ...and every other listed name is a group alias of them, or lket(5)'s
# own spelling of the sendfile hooks (iosyscall.senfile.*), kept as an
# alias of iosyscall.sendfile.*.
extra=
for p in $(comm -13 want listed); do
	case $p in
	addevent.iosyscall.senfile|addevent.iosyscall.senfile.entry|\
	addevent.iosyscall.senfile.return)
		grep -qx "${p%%senfile*}sendfile${p#*senfile}" want ||
			grep -q "^${p%%senfile*}sendfile\." want ||
			extra="$extra $p"
		continue ;;
	esac
	grep -q "^$p\." want || extra="$extra $p"
done
[ -z "$extra" ] || fail "probes not in the catalogue:$extra"
note "PASS ($(wc -l <want) probes of: $(tr '\n' ' ' <groups))"
