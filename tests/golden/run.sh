#!/bin/sh
# Golden tests of lket-b2a: generated traces, and damaged copies of them,
# converted by the plain and the ASan/UBSan build; lket.out, the messages
# on standard error and the exit status must equal tests/golden/NAME.expect.
#
#   tests/golden/run.sh BUILD [CASE...]     UPDATE=1 rewrites the .expect
set -u
build=$(cd "${1:?usage: run.sh BUILD [CASE...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
work=$build/golden
gen=$build/lket-gen
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Each case makes its files in the current (empty) folder and prints the
# lket-b2a arguments.
case_v4()       { $gen golden t; echo t; }
case_v5()       { $gen -f v5 golden t; echo t; }
case_raw()      { $gen -f none golden t; echo t; }
case_swapped()  { $gen -s golden t; echo t; }
case_stpd()     { $gen golden t && mv t_0 stpd_cpu0 && mv t_1 stpd_cpu1; echo; }
case_badmeta()  { $gen badmeta t; echo t; }
case_missing()  { $gen golden t; echo t_0 t_1 t_7; }
case_empty()    { $gen golden t && : > t_2; echo t; }
case_dup()      { $gen golden t && cp t_0 stpd_cpu0; echo t_0 t_1 t_0 stpd_cpu0; }
# 5 stale bytes where a flush header should be: after t_1's first flush
# (8-byte header + a 32-byte syscall.entry record)
case_garbage()  {
	$gen golden t && head -c 40 t_1 > x && printf 'GARBG' >> x &&
		tail -c +41 t_1 >> x && mv x t_1; echo t; }
# the last flush of t_1 loses its last 7 bytes: pdu_len runs past the end
case_truncated() {
	$gen golden t && head -c $(($(wc -c < t_1) - 7)) t_1 > x && mv x t_1
	echo t; }
# unframed: the file ends 3 bytes into a record
case_truncated_raw() {
	$gen -f none golden t && head -c $(($(wc -c < t_1) - 3)) t_1 > x &&
		mv x t_1; echo t; }
# garbage only: nothing decodable in t_1
case_junk()     { $gen golden t && head -c 300 /dev/zero | tr '\0' 'J' > t_1; echo t; }

cases=${*:-v4 v5 raw swapped stpd badmeta missing empty dup garbage truncated truncated_raw junk}
pass=0 fail=0
for c in $cases; do
	for bin in lket-b2a asan/lket-b2a; do
		dir=$work/$c/$(basename "$(dirname "$build/$bin")")
		rm -rf "$dir" && mkdir -p "$dir"
		(
			cd "$dir" || exit 1
			args=$(case_$c) || exit 1
			# shellcheck disable=SC2086
			"$build/$bin" -o lket.out $args 2> stderr
			status=$?
			cat lket.out
			echo "--- stderr"
			cat stderr
			echo "--- exit $status"
		) > "$dir/result" 2>&1
		if [ "${UPDATE:-}" = 1 ] && [ "$bin" = lket-b2a ]; then
			cp "$dir/result" "$here/$c.expect"
		fi
		if diff -u "$here/$c.expect" "$dir/result" > "$dir/diff"; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL golden $c ($bin):"
			head -40 "$dir/diff"
		fi
	done
done
echo "golden: $pass passed, $fail failed"
[ "$fail" = 0 ]
