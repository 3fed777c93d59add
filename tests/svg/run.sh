#!/bin/sh
# lket-b2a's pictures (--timechart, --histogram) of generated traces:
# valid XML (xmllint); the lanes, boxes and markers those of the lket.out
# and latency report of the same conversion (check.py); rendered by a
# real browser (chromium --headless) into BUILD/svg/CASE/*.png, which
# must not be blank and must show each box's colour where the SVG puts
# it.  The PNGs stay for a person to look at.
#
#   tests/svg/run.sh BUILD [CASE...]
set -u
build=$(cd "${1:?usage: run.sh BUILD [CASE...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
work=$build/svg
gen=$build/lket-gen
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

for tool in xmllint chromium python3; do
	command -v $tool > /dev/null ||
		{ echo "run.sh: $tool is missing (tools/install-deps)" >&2; exit 1; }
done

# Each case makes trace t in the current (empty) folder and prints the
# lket-b2a options that go with it.
case_timechart() { $gen -n 20000 timechart t; }
# few events, a lost flush, signals, a fork and an exec
case_golden()    { $gen golden t; }
# no context switches: process lanes and histograms, and a note
case_latency()   { $gen latency t; }
# the scheduler's events only: CPU lanes, tasks that only run and wait
case_sched()     { $gen -n 5000 timechart t; echo --event tskdispatch; }
# more tasks than lanes: the rest in others
case_procs()     { $gen -n 5000 timechart t; echo --timechart-procs 3; }
# no metadata for syscall and process: decoded by the catalogue
case_nometa()    { $gen nometa t; }
# process names with quotes, <, control bytes and invalid UTF-8
case_strings()   { $gen strings t; }
# more histograms than drawn, their percentiles close together
case_pairs()     { $gen pairs t; }
# a task that exits, a kworker whose switch-out is missing: their lanes
# end (lket-gen prints the exits, which lket.out does not show)
case_lanes()     { $gen lanes t > exits; }
# damaged: CPU 1's file cut 7 bytes short; what is left is drawn
case_truncated() {
	$gen -n 3000 timechart t && head -c $(($(wc -c < t_1) - 7)) t_1 > x &&
		mv x t_1; }

# wake-ups: marked on the woken task's lane, its wait drawn from them
case_wakeups()  { $gen wakeups t; }

cases="timechart golden latency sched procs nometa strings lanes pairs truncated wakeups"
[ $# -gt 0 ] && cases=$*

# render SVG PNG: chromium's screenshot of the SVG at its own size
render() {
	size=$(sed -n 's/^<svg [^>]* width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' "$1")
	timeout 60 chromium --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --force-device-scale-factor=1 \
		--user-data-dir="$work/.chromium" --window-size="$size" \
		--screenshot="$2" "file://$1" > render.log 2>&1 && [ -s "$2" ]
}

fail=0
for c in $cases; do
	for b2a in "$build/lket-b2a" "$build/asan/lket-b2a"; do
		[ -x "$b2a" ] || continue
		flavour=$(basename "$(dirname "$b2a")")
		d=$work/$c/$flavour
		rm -rf "$d" && mkdir -p "$d" && cd "$d" || exit 1
		name="$c ($flavour/lket-b2a)"
		if ! opts=$("case_$c" 2> gen.log); then
			echo "FAIL $name: lket-gen"; fail=1; continue
		fi
		exits=
		[ -f exits ] && exits=exits
		procs=$(echo "$opts" | sed -n 's/.*--timechart-procs \([0-9]*\).*/\1/p')
		# shellcheck disable=SC2086
		"$b2a" -q -o lket.out --report report --timechart timechart.svg \
			--histogram histogram.svg $opts t > b2a.log 2>&1
		st=$?
		if [ $st -gt 1 ]; then
			echo "FAIL $name: lket-b2a exit $st"; cat b2a.log
			fail=1; continue
		fi
		if ! xmllint --noout timechart.svg histogram.svg 2> xml.log; then
			echo "FAIL $name: not valid XML"; head -5 xml.log
			fail=1; continue
		fi
		if ! python3 "$here/check.py" timechart lket.out timechart.svg \
			${procs:-16} ${exits:-} > check.log ||
		   ! python3 "$here/check.py" histogram report histogram.svg \
			>> check.log; then
			echo "FAIL $name: the pictures differ from lket.out"
			cat check.log; fail=1; continue
		fi
		# a browser's rendering, once per case
		if [ "$flavour" = asan ]; then
			echo "ok   $name: $(head -1 check.log)"; continue
		fi
		for p in timechart histogram; do
			if ! render "$d/$p.svg" "$d/$p.png"; then
				echo "FAIL $name: chromium cannot render $p.svg"
				tail -3 render.log; fail=1; continue 2
			fi
			if ! python3 "$here/check.py" pixels $p.svg $p.png \
				>> check.log; then
				echo "FAIL $name: $p.png"; tail -5 check.log
				fail=1; continue 2
			fi
		done
		echo "ok   $name: $(head -1 check.log); $d/*.png"
	done
done
exit $fail
