#!/bin/sh
# Fuzz lket-b2a's reader, decoder and every output (text, --delta, JSON,
# CSV, --stat, --timechart, --report, SQLite, CTF, Perfetto) for a bounded time (libFuzzer, with
# ASan and UBSan), starting from the golden traces and the seed corpus
# kept in tests/fuzz/corpus/ (tests/fuzz/make-corpus.sh), and from what
# earlier runs found (BUILD/fuzz/corpus).  Fails on any crash or sanitizer
# report.  Prints the executions and the coverage reached.
#
#   tests/fuzz/run.sh BUILD SECONDS
set -eu
build=$(cd "${1:?usage: run.sh BUILD SECONDS}" && pwd)
seconds=${2:-60}
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$build/fuzz
mkdir -p "$out/corpus" "$out/seeds"
rm -f "$out/seeds/"*.seed
cd "$top"
# every module of lket-b2a but main.c: the target is its main (and
# --version, which it never gives, prints "fuzz")
clang -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O1 \
	-I/usr/include/postgresql -Ib2a -I. -I"$build/gen" -DLKET_VERSION='"fuzz"' \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-o "$out/fuzz_b2a" tests/fuzz/fuzz_b2a.c \
	$(find b2a -name '*.c' ! -path b2a/main.c | sort) -lsqlite3 -lpq -ldw -lelf
# seeds: each golden trace's two files, after a byte for each output the
# target chooses from (text, JSON, CSV, SQLite, text with --delta, --stat,
# --timechart, --report, CTF, Perfetto) and the split byte (so the split falls near
# the real boundary); and the trace with call stacks
for f in v4 v5 none stacks; do
	if [ $f = stacks ]; then
		"$build/lket-gen" stacks "$out/seeds/$f"
	else
		"$build/lket-gen" -f $f golden "$out/seeds/$f"
	fi
	a=$(wc -c < "$out/seeds/${f}_0")
	b=$(wc -c < "$out/seeds/${f}_1")
	byte=$((a * 255 / (a + b)))
	for o in 0 1 2 3 4 5 6 7 8 9; do
		{ printf "\\$(printf %o "$o")\\$(printf %o "$byte")"
		  cat "$out/seeds/${f}_0" "$out/seeds/${f}_1"; } \
			> "$out/seeds/$f-$o.seed"
	done
	rm -f "$out/seeds/${f}_0" "$out/seeds/${f}_1"
done
cd "$out"
./fuzz_b2a -max_total_time="$seconds" -max_len=65536 -timeout=10 \
	-rss_limit_mb=1024 -print_final_stats=1 corpus seeds "$top/tests/fuzz/corpus" \
	> fuzz.log 2>&1 || {
	tail -60 fuzz.log
	echo "fuzz: FAILED (crash or sanitizer report above; reproducer in $out)"
	exit 1
}
grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' fuzz.log | tail -2
# e.g. "#123456 DONE cov: 2345 ft: 9876 corp: 321/1Mb ..."
sed -n 's/^#\([0-9]*\).*DONE *cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\).*/fuzz: \1 executions, coverage: \2 edges, \3 features, corpus \4 inputs/p' fuzz.log
echo "fuzz: 1 passed, 0 failed ($seconds s, no crash)"
