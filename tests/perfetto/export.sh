#!/bin/sh
# lket-b2a --perfetto as a file is written: to standard output the same
# bytes as to a file; a signal that ends an export (^C, kill, a hangup)
# leaves no temporary and the file it was to replace as it was (a file is
# put in place only when complete, as -o's), the process dying of the
# signal; memory flat: the same peak for a trace four times as long.
#
#   tests/perfetto/export.sh BUILD
set -u
build=$(cd "${1:?usage: export.sh BUILD}" && pwd)
work=$build/perfetto-export
gen=$build/lket-gen
b2a=$build/lket-b2a
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# standard output: the same trace as a file
$gen golden t || exit 1
"$b2a" -q --perfetto file.pftrace t
"$b2a" -q --perfetto - t > stdout.pftrace
if [ -s file.pftrace ] && cmp -s file.pftrace stdout.pftrace; then
	ok "--perfetto -: the same $(wc -c < file.pftrace) bytes as to a file"
else
	bad "--perfetto -: not the file's bytes"
fi
# and with the ASan build, which must say nothing
if "$build/asan/lket-b2a" -q --perfetto - t 2> asan.err |
	cmp -s file.pftrace - && [ ! -s asan.err ]; then
	ok "--perfetto - (ASan/UBSan build): the same, nothing said"
else
	bad "--perfetto - (ASan/UBSan build): $(head -3 asan.err)"
fi

# A signal during an export: the file of a smaller trace stays; no
# t.pftrace.tmp-* left; exit 128 + the signal.  The trace is big enough
# for the export to take a second or more; the signal goes as soon as the
# temporary is there.
if ! { $gen strings small && "$b2a" -q --perfetto t.pftrace small &&
	cksum t.pftrace > keep && $gen -n 12000000 syscalls big > /dev/null; }; then
	bad "signals: lket-gen"
fi
for sig in INT:2 TERM:15 HUP:1; do
	if [ ! -f keep ] || [ ! -f big_1 ]; then
		break
	fi
	name=${sig%:*}
	env --default-signal "$b2a" -q -f none --perfetto t.pftrace big &
	pid=$!
	i=0
	while [ $i -lt 1000 ]; do
		set -- t.pftrace.tmp-*
		[ -e "$1" ] && break
		sleep 0.01
		i=$((i + 1))
	done
	if [ $i = 1000 ] || ! kill -s "$name" $pid; then
		why="no t.pftrace.tmp-* in 10 s, or it ended first"
		kill $pid 2> /dev/null
	else
		why=
	fi
	{ wait $pid; } 2> /dev/null
	st=$?
	left=$(find . -name '*.tmp-*' | tr '\n' ' ')
	[ -z "$why" ] && [ $st != $((128 + ${sig#*:})) ] && why="exit $st"
	[ -z "$why" ] && [ -n "$left" ] && why="left $left"
	[ -z "$why" ] && ! cksum t.pftrace | cmp -s keep - &&
		why="the old trace changed"
	if [ -n "$why" ]; then
		bad "SIG$name during --perfetto: $why"
		rm -f t.pftrace.tmp-*
	else
		ok "SIG$name during --perfetto: exit $st, no temporary left, the old trace kept"
	fi
done

# memory: the peak for 4 times the events within 2 MiB of the first's
peak() { # EVENTS: peak RSS (KiB) of exporting a bench trace of them
	$gen -n "$1" bench m > /dev/null &&
		/usr/bin/time -f %M -o rss "$b2a" -q --perfetto /dev/null m &&
		cat rss
}
if command -v /usr/bin/time > /dev/null; then
	a=$(peak 500000) && b=$(peak 2000000)
	if [ -n "$a" ] && [ -n "$b" ] && [ $((b - a)) -lt 2048 ]; then
		ok "flat memory: peak RSS $a KiB at 0.5 M events, $b KiB at 2 M"
	else
		bad "flat memory: peak RSS ${a:-?} KiB at 0.5 M events, ${b:-?} KiB at 2 M"
	fi
else
	bad "flat memory: /usr/bin/time is missing (apt-get install time)"
fi
rm -f big_* m_* small_*
exit $fail
