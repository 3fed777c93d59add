#!/bin/sh
# make bench: lket-b2a's load rate into SQLite (-d) and into a throwaway
# PostgreSQL cluster (--pg, COPY), next to its text rate, on a generated
# trace of EVENTS events (default 1 M) of the realistic mix bench/run.sh
# uses.  Whole-process figures from /usr/bin/time, best of RUNS runs.
#
#   bench/db.sh BUILD        EVENTS=1000000 RUNS=3
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
pg_start "$work" || { echo "bench/db: no PostgreSQL cluster: PostgreSQL row left out" >&2; }

# time_best LABEL COMMAND...: the best elapsed seconds and peak RSS
time_best() {
	label=$1
	shift
	best=
	for _ in $(seq "$runs"); do
		rm -f t.db
		[ -z "$pgconn" ] || "$pgbin/psql" "$pgconn" -XAtq \
			-c 'drop schema if exists t cascade' > /dev/null 2>&1
		/usr/bin/time -f '%e %M' -o time "$@" > /dev/null 2>&1 || true
		read -r secs rss < time
		if [ -z "$best" ] || [ "$(awk "BEGIN { print ($secs < $best) }")" = 1 ]; then
			best=$secs best_rss=$rss
		fi
	done
	awk -v l="$label" -v n="$n" -v s="$best" -v r="$best_rss" 'BEGIN {
		if (s == 0) s = 0.001
		printf "%-28s %10.2f %12.0f %8.1f MiB\n", l, s, n / s, r / 1024 }'
}

echo "bench/db: files in $base"
printf '%-28s %10s %12s %12s\n' "$n events into" seconds "events/s" "peak RSS"
time_best "text (lket.out)" "$build/lket-b2a" -q -o out t
time_best "SQLite (-d)" "$build/lket-b2a" -q -d t.db t
[ -z "$pgconn" ] ||
	time_best "PostgreSQL (--pg, COPY)" "$build/lket-b2a" -q -f none --pg "$pgconn" t
