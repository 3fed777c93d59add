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
[ $fail = 0 ] && echo "man: $(cd "$here/man" && ls -- *.1 | tr "\n" " ")and lket.5 build clean"
exit $fail
