#!/bin/sh
# Fuzz lket-b2a's reader and decoder for a bounded time (libFuzzer, with
# ASan and UBSan), starting from the golden traces.  Fails on any crash or
# sanitizer report.
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
clang -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O1 \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-o "$out/fuzz_b2a" tests/fuzz/fuzz_b2a.c \
	b2a/diag.c b2a/stream.c b2a/seqtrack.c b2a/merge.c b2a/meta.c \
	b2a/decode.c b2a/procmap.c b2a/outbuf.c b2a/out_text.c b2a/convert.c \
	b2a/source.c \
	b2a/outfmt.c b2a/filter.c b2a/report.c b2a/out_json.c b2a/out_csv.c \
	b2a/out_sqlite.c b2a/sql.c b2a/stat.c b2a/u64map.c b2a/timechart.c \
	b2a/out_timechart.c b2a/svg.c b2a/symbols.c -lsqlite3 -ldw -lelf
# seeds: each golden trace's two files, after a byte for each output the
# target chooses from (text, JSON, CSV, SQLite, text with --delta, --stat,
# --timechart)
# and the split byte (so the split falls near the real boundary); and the
# trace with call stacks
for f in v4 v5 none stacks; do
	if [ $f = stacks ]; then
		"$build/lket-gen" stacks "$out/seeds/$f"
	else
		"$build/lket-gen" -f $f golden "$out/seeds/$f"
	fi
	a=$(wc -c < "$out/seeds/${f}_0")
	b=$(wc -c < "$out/seeds/${f}_1")
	byte=$((a * 255 / (a + b)))
	for o in 0 1 2 3 4 5 6; do
		{ printf "\\$(printf %o "$o")\\$(printf %o "$byte")"
		  cat "$out/seeds/${f}_0" "$out/seeds/${f}_1"; } \
			> "$out/seeds/$f-$o.seed"
	done
	rm -f "$out/seeds/${f}_0" "$out/seeds/${f}_1"
done
cd "$out"
./fuzz_b2a -max_total_time="$seconds" -max_len=65536 -timeout=10 \
	-rss_limit_mb=1024 -print_final_stats=1 corpus seeds > fuzz.log 2>&1 || {
	tail -60 fuzz.log
	echo "fuzz: FAILED (crash or sanitizer report above; reproducer in $out)"
	exit 1
}
grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' fuzz.log | tail -2
echo "fuzz: 1 passed, 0 failed ($seconds s, no crash)"
