#!/bin/sh
# The man pages build without a warning, as man(1) formats them (groff
# -ww, tables through tbl), and no font-alternating macro (.BR, .RI, ...)
# runs on into prose: its arguments are set without spaces between them
# ("anSQLitedatabase").
#
#   tests/man/run.sh BUILD
set -u
build=${1:?usage: run.sh BUILD}
here=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
for page in "$here"/man/*.1 "$build/man/lket.5"; do
	name=$(basename "$page")
	if ! [ -f "$page" ]; then
		echo "FAIL man $name: missing"; fail=1; continue
	fi
	for pre in "" -t; do
		w=$(groff $pre -ww -z -man "$page" 2>&1)
		if [ -n "$w" ]; then
			echo "FAIL man $name (groff $pre -ww):"; echo "$w" | head -10
			fail=1
		fi
	done
	# three plain words in a row among a macro's arguments: prose
	glued=$(awk '/^\.(BR|BI|IR|IB|RB|RI) / {
		line = $0; sub(/^\.[A-Z][A-Z] /, "", line); run = 0
		while (line != "") {
			sub(/^ +/, "", line)
			if (line ~ /^"/) {
				match(line, /^"[^"]*"?/); arg = ""
				line = substr(line, RLENGTH + 1); run = 0; continue
			}
			match(line, /^[^ ]+/); arg = substr(line, 1, RLENGTH)
			line = substr(line, RLENGTH + 1)
			if (arg ~ /^[A-Za-z][A-Za-z-]*[,.;:]?$/) run++; else run = 0
			if (run >= 3) { print FILENAME ":" FNR ": " $0; break }
		}
	}' "$page")
	if [ -n "$glued" ]; then
		echo "FAIL man $name: words run together by a font macro:"
		echo "$glued"; fail=1
	fi
done
# lket-b2a(1)'s SYNOPSIS names every option that --help gives a line, in
# its long form or its letter
if [ -x "$build/lket-b2a" ]; then
	synopsis=$(awk '/^\.SH SYNOPSIS/ { f = 1; next } /^\.SH / { f = 0 } f' \
		"$here/man/lket-b2a.1" | sed 's/\\-/-/g')
	missing=$("$build/lket-b2a" --help |
		sed -n 's/^ *\(-[A-Za-z], \)*\(--[a-z-]*\).*/\1\2/p' |
		while read -r opt; do
			long=${opt##* } short=${opt%%,*}
			[ "$short" = "$opt" ] && short=
			printf '%s\n' "$synopsis" | grep -qE -- "$long([^a-z-]|\$)" &&
				continue
			# a letter alone, or among others (-iNCqh)
			[ -n "$short" ] && printf '%s\n' "$synopsis" |
				grep -qE -- "(^|[ [])-[A-Za-z]*${short#-}[A-Za-z]*( |\$)" && continue
			echo "$long"
		done | tr '\n' ' ')
	if [ -n "$missing" ]; then
		echo "FAIL man lket-b2a.1: options of --help not in its SYNOPSIS: $missing"
		fail=1
	fi
fi
[ $fail = 0 ] && echo "man: $(cd "$here/man" && ls -- *.1 | tr "\n" " ")and lket.5 build clean"
exit $fail
