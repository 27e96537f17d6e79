#!/usr/bin/env bash
# Usage: scripts/with-postgres.sh <command...>
# Starts a throwaway PostgreSQL 15 cluster on a free loopback port, runs the command
# with PG_TEST_URL (and PG_TEST_ADMIN_URL) pointing at it, then stops and deletes the
# cluster, whatever the command's outcome. Installs PostgreSQL from Debian when missing.
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
if [ ! -x "$PG_BIN/initdb" ]; then
  echo "with-postgres: PostgreSQL 15 not found, installing from Debian packages" >&2
  apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-15 >&2
fi

port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
dir=$(mktemp -d /tmp/crossroads-pg.XXXXXX)
run_as=()
if [ "$(id -u)" = 0 ]; then
  chown postgres:postgres "$dir"
  run_as=(runuser -u postgres --)
fi

cleanup() {
  "${run_as[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

"${run_as[@]}" "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
# Throwaway cluster: durability off for speed; the bench measures with its own settings.
"${run_as[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o \
  "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=${PG_FSYNC:-off} -c synchronous_commit=${PG_SYNC_COMMIT:-off} -c full_page_writes=off -c max_connections=200 -c shared_buffers=${PG_SHARED_BUFFERS:-256MB}" \
  start >/dev/null
"${run_as[@]}" "$PG_BIN/psql" -h 127.0.0.1 -p "$port" -U postgres -q -c 'CREATE DATABASE crossroads' >/dev/null

export PG_TEST_ADMIN_URL="postgresql://postgres@127.0.0.1:$port/postgres"
export PG_TEST_URL="postgresql://postgres@127.0.0.1:$port/crossroads"
echo "with-postgres: PostgreSQL 15 on 127.0.0.1:$port" >&2
"$@"
