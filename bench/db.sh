#!/bin/sh
# make bench: lket-b2a's load rate into SQLite (-d) and into a throwaway
# PostgreSQL cluster (--pg, COPY), next to its text rate, on a generated
# trace of EVENTS events (default 1 M) of the realistic mix bench/run.sh
# uses; and two such traces loading at once into one PostgreSQL schema
# (two lket-b2a processes, hosts a and b), whose time per event is given
# as a ratio to the single load's of the same run.  Whole-process figures
# from /usr/bin/time, best of RUNS runs.  B2A_BASE=another lket-b2a (an
# earlier build, say) times its single load too, for the same ratio.
#
#   bench/db.sh BUILD        EVENTS=1000000 RUNS=3 B2A_BASE=
set -eu
build=$(cd "${1:?usage: db.sh BUILD}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
n=${EVENTS:-1000000}
runs=${RUNS:-3}
# in memory when there is room: the figures are lket-b2a's and the
# databases', not this disk's writeback
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
work=$(mktemp -d "$base/lket-bench-db.XXXXXX")
chmod 755 "$work"
. "$top/tests/db/pg-cluster.sh"
trap 'pg_stop; rm -rf "$work"' EXIT INT TERM
cd "$work"

"$build/lket-gen" -n "$n" bench t
"$build/lket-gen" -n "$n" bench u
pg_start "$work" || { echo "bench/db: no PostgreSQL cluster: PostgreSQL row left out" >&2; }

# time_best LABEL EVENTS COMMAND...: the best elapsed seconds (in $best)
# and peak RSS; a run that fails is not counted
time_best() {
	label=$1 events=$2
	shift 2
	best=
	for _ in $(seq "$runs"); do
		rm -f t.db
		[ -z "$pgconn" ] || "$pgbin/psql" "$pgconn" -XAtq \
			-c 'drop schema if exists t cascade; drop schema if exists fleet cascade' > /dev/null 2>&1
		/usr/bin/time -f '%e %M' -o time "$@" > /dev/null 2>&1 ||
			{ echo "bench/db: $label: failed" >&2; continue; }
		read -r secs rss < time
		if [ -z "$best" ] || [ "$(awk "BEGIN { print ($secs < $best) }")" = 1 ]; then
			best=$secs best_rss=$rss
		fi
	done
	[ -n "$best" ] || { best=0 best_rss=0; }
	awk -v l="$label" -v n="$events" -v s="$best" -v r="$best_rss" 'BEGIN {
		if (s == 0) s = 0.001
		printf "%-28s %10.2f %12.0f %8.1f MiB\n", l, s, n / s, r / 1024 }'
}

echo "bench/db: files in $base"
printf '%-28s %10s %12s %12s\n' "$n events into" seconds "events/s" "peak RSS"
time_best "text (lket.out)" "$n" "$build/lket-b2a" -q -o out t
time_best "SQLite (-d)" "$n" "$build/lket-b2a" -q -d t.db t
[ -n "$pgconn" ] || exit 0
time_best "PostgreSQL (--pg, COPY)" "$n" "$build/lket-b2a" -q -f none --pg "$pgconn" t
# both must load whole (the peak RSS is the shell's)
export B2A="$build/lket-b2a" PGCONN="$pgconn"
pair='"$B2A" -q -f none --pg "$PGCONN" --schema fleet --host a t & a=$!
	"$B2A" -q -f none --pg "$PGCONN" --schema fleet --host b u; b=$?
	wait $a && [ $b = 0 ]'
time_best "PostgreSQL, 2 traces at once" $((2 * n)) sh -c "$pair"

# The ratio: on a machine shared with other jobs the load changes from
# one minute to the next, so each round times one load, the pair (and
# B2A_BASE's load) one after the other and takes their ratio; the median
# of RUNS rounds.
secs() { # COMMAND...: elapsed seconds
	"$pgbin/psql" "$pgconn" -XAtq -c 'drop schema if exists t cascade; drop schema if exists fleet cascade' > /dev/null 2>&1
	/usr/bin/time -f %e -o time "$@" > /dev/null 2>&1 || echo "bench/db: $*: failed" >&2
	cat time
}
median() { sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
: > ratio; : > ratio_base
for _ in $(seq "$runs"); do
	one=$(secs "$B2A" -q -f none --pg "$PGCONN" t)
	two=$(secs sh -c "$pair")
	awk -v a="$one" -v b="$two" 'BEGIN { print b / 2 / a }' >> ratio
	[ -z "${B2A_BASE:-}" ] ||
		awk -v a="$(secs "$B2A_BASE" -q -f none --pg "$PGCONN" t)" -v b="$two" \
			'BEGIN { print b / 2 / a }' >> ratio_base
done
printf '2 traces at once into one schema, time per event against 1 trace: %.2f (median of %s rounds; <= 1: at least as fast)\n' \
	"$(median < ratio)" "$runs"
[ -z "${B2A_BASE:-}" ] ||
	printf '  against 1 trace by B2A_BASE: %.2f (median of %s rounds)\n' \
		"$(median < ratio_base)" "$runs"
