# shellcheck shell=sh
# A throwaway PostgreSQL cluster in a folder of its own, on a Unix socket
# only (no TCP); sourced by tests/db/run.sh and bench/db.sh.
#
#   pg_start DIR   initdb + pg_ctl start in DIR/pg (as nobody when root, as
#                  PostgreSQL will not run as root); sets pgconn, the
#                  libpq connection string; returns non-zero on failure,
#                  with the logs' tail on standard error
#   pg_stop        stops it (immediate: it is thrown away)
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -1)
pgdata=
pgconn=
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi; }

pg_start() {
	[ -n "$pgbin" ] || { echo "PostgreSQL is missing: tools/install-deps build" >&2; return 1; }
	mkdir -p "$1/pg" && [ "$(id -u)" = 0 ] && chown nobody "$1/pg"
	pgdata=$1/pg/data
	if ! as_pg "$pgbin/initdb" -D "$pgdata" -A trust -U lket -E UTF8 \
		--no-sync > "$1/pg/initdb.log" 2>&1 ||
	   ! as_pg "$pgbin/pg_ctl" -D "$pgdata" -l "$1/pg/log" -w \
		-o "-k $1/pg -c listen_addresses= -F" start > /dev/null 2>&1; then
		cat "$1/pg/initdb.log" "$1/pg/log" 2> /dev/null | tail -20 >&2
		pgdata=
		return 1
	fi
	pgconn="host=$1/pg user=lket dbname=postgres"
}

pg_stop() {
	[ -z "$pgdata" ] ||
		as_pg "$pgbin/pg_ctl" -D "$pgdata" -m immediate stop > /dev/null 2>&1
	pgdata=
}
