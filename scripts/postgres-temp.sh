#!/usr/bin/env bash
# A throwaway PostgreSQL for the test suite and benches: initdb in a temporary folder, a free
# loopback port, no durability (fsync off). `start` prints the postgres:// URL of a superuser;
# `stop DIR` stops and removes it. Debian's postgresql package provides the binaries.
set -euo pipefail
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bindir/initdb" ] || { echo "postgres-temp: no PostgreSQL server (apt-get install postgresql)" >&2; exit 1; }
# initdb and postgres refuse to run as root: run them as the package's postgres user.
as_owner() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-}" in
start)
  dir=$(mktemp -d /tmp/portolan-pg.XXXXXX)
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
  port=$(node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
  as_owner "$bindir/initdb" -D "$dir/data" -A trust -U portolan --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o \
    "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  echo "postgres://portolan@127.0.0.1:$port/postgres $dir"
  ;;
stop)
  dir=${2:?usage: postgres-temp.sh stop DIR}
  as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  ;;
*)
  echo "usage: postgres-temp.sh start | stop DIR" >&2
  exit 2
  ;;
esac
