#!/usr/bin/env bash
# A throwaway PostgreSQL for the test suite and benches: initdb in a temporary folder, a free
# loopback port, no durability (fsync off). `start` prints the postgres:// URL of a superuser;
# `stop DIR` stops and removes it; `down DIR` stops it keeping its data and `up DIR` starts it
# again on the same port (a database that goes away and comes back), or `up DIR PORT` on another
# (clients of its own port still find it down while others work on it). Debian's postgresql
# package provides the binaries.
set -euo pipefail
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bindir/initdb" ] || { echo "postgres-temp: no PostgreSQL server (apt-get install postgresql)" >&2; exit 1; }
# initdb and postgres refuse to run as root: run them as the package's postgres user, from a folder
# it can enter (a clone in a private temporary folder is not one).
as_owner() { if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }

# Starts the server of folder $1 on port $2, or on the port its start chose.
serve() {
  as_owner "$bindir/pg_ctl" -D "$1/data" -l "$1/server.log" -w -o \
    "-p ${2:-$(cat "$1/port")} -k $1 -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" \
    start >/dev/null || { cat "$1/server.log" >&2; return 1; }
}

case "${1:-}" in
start)
  dir=$(mktemp -d /tmp/portolan-pg.XXXXXX)
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
  port=$(node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
  as_owner "$bindir/initdb" -D "$dir/data" -A trust -U portolan --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  echo "$port" >"$dir/port"
  serve "$dir" || exit 1
  echo "postgres://portolan@127.0.0.1:$port/postgres $dir"
  ;;
down)
  dir=${2:?usage: postgres-temp.sh down DIR}
  as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
  ;;
up)
  dir=${2:?usage: postgres-temp.sh up DIR [PORT]}
  serve "$dir" "${3:-}"
  ;;
stop)
  dir=${2:?usage: postgres-temp.sh stop DIR}
  as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  ;;
*)
  echo "usage: postgres-temp.sh start | stop DIR | down DIR | up DIR [PORT]" >&2
  exit 2
  ;;
esac
