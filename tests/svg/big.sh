#!/bin/sh
# The timechart of a 20 M-event generated trace: the SVG within its
# bound (20 MB, lket-b2a(1)), rendered by chromium within 30 s, its boxes
# where it says; and what --timechart costs the conversion (time and
# memory by /usr/bin/time -v, with and without it).  Slow: make bench and
# make check-svg-big, not make check.
#
#   tests/svg/big.sh BUILD [EVENTS]
set -u
build=$(cd "${1:?usage: big.sh BUILD [EVENTS]}" && pwd)
events=${2:-20000000}
here=$(cd "$(dirname "$0")" && pwd)
work=$build/svg/big
bound=$((20 * 1000 * 1000))
limit=30

for tool in xmllint chromium python3 /usr/bin/time; do
	command -v $tool > /dev/null ||
		{ echo "big.sh: $tool is missing (tools/install-deps)" >&2; exit 1; }
done
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
echo "big.sh: generating $events events"
"$build/lket-gen" -n "$events" timechart t || exit 1

# field NAME FILE: a line of /usr/bin/time -v's
field() { sed -n "s/^.*$1: *//p" "$2"; }
# run NAME [OPTION...]: convert t to /dev/null, timed into NAME.time
run() {
	name=$1
	shift
	/usr/bin/time -v -o "$name.time" "$build/lket-b2a" -q -o /dev/null \
		"$@" t > /dev/null 2> "$name.err"
}
run plain || { echo "FAIL big: lket-b2a"; cat plain.err; exit 1; }
run timechart --timechart tc.svg ||
	{ echo "FAIL big: lket-b2a --timechart"; cat timechart.err; exit 1; }
for r in plain timechart; do
	opt=
	[ $r = timechart ] && opt=" --timechart tc.svg"
	echo "lket-b2a -o /dev/null$opt: $(field 'Elapsed (wall clock) time (h:mm:ss or m:ss)' $r.time) elapsed, $(field 'Maximum resident set size (kbytes)' $r.time) KB at most"
done

# the most lanes the options allow: the bound holds still
run procs --timechart many.svg --timechart-procs 100 ||
	{ echo "FAIL big: lket-b2a --timechart-procs 100"; cat procs.err; exit 1; }

fail=0
for f in tc.svg many.svg; do
	size=$(wc -c < $f)
	echo "$f: $size bytes (bound $bound)"
	[ "$size" -le "$bound" ] || { echo "FAIL big: $f over the bound"; fail=1; }
done
xmllint --noout --huge tc.svg many.svg ||
	{ echo "FAIL big: not valid XML"; fail=1; }
dims=$(sed -n 's/^<svg [^>]* width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' tc.svg)
start=$(date +%s.%N)
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--force-device-scale-factor=1 --user-data-dir="$work/.chromium" \
	--window-size="$dims" --screenshot="$work/tc.png" "file://$work/tc.svg" \
	> render.log 2>&1
end=$(date +%s.%N)
secs=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
echo "chromium rendered tc.svg in $secs s (limit $limit s): $work/tc.png"
if [ ! -s tc.png ] || [ "$(echo "$secs $limit" | awk '{ print ($1 > $2) }')" = 1 ]; then
	echo "FAIL big: chromium did not render it in time"; fail=1
elif ! python3 "$here/check.py" pixels tc.svg tc.png; then
	echo "FAIL big: tc.png"; fail=1
fi
[ $fail = 0 ] && echo "ok   big: $events events"
exit $fail
