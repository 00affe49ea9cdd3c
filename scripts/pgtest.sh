#!/usr/bin/env bash
# pgtest.sh install|start|stop|env — a throwaway PostgreSQL on 127.0.0.1 for the persistence tests.
# Installs Debian's postgresql if missing (root), runs its own cluster in $PGTEST_DIR as user postgres
# on a high loopback port, no systemd. `env` prints PBEM_TEST_POSTGRES_URL for eval.
set -euo pipefail
DIR=${PGTEST_DIR:-/tmp/pbem-pgtest}
PORT=${PGTEST_PORT:-54329}
RUN_AS=${PGTEST_USER:-postgres}
DB=pbem_test

bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

install_pkgs() {
  [ -n "$(bindir)" ] && return 0
  local made=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; made=1; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  [ -n "$made" ] && rm -f /usr/sbin/policy-rc.d
  return 0
}

as_user() { if [ "$(id -un)" = "$RUN_AS" ]; then "$@"; else runuser -u "$RUN_AS" -- "$@"; fi; }

start() {
  local B; B=$(bindir)
  [ -n "$B" ] || { echo "PostgreSQL is not installed (run: $0 install)" >&2; exit 1; }
  if [ ! -s "$DIR/PG_VERSION" ]; then
    mkdir -p "$DIR"; chown "$RUN_AS" "$DIR"; chmod 700 "$DIR"
    as_user "$B/initdb" -D "$DIR" -A trust -U postgres >/dev/null
  fi
  as_user "$B/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c fsync=off -c synchronous_commit=off" start >/dev/null
  as_user "$B/psql" -h 127.0.0.1 -p "$PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$DB'" | grep -q 1 \
    || as_user "$B/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB"
  echo "postgres ready on 127.0.0.1:$PORT"
}

stop() {
  local B; B=$(bindir)
  [ -n "$B" ] && [ -s "$DIR/postmaster.pid" ] && as_user "$B/pg_ctl" -D "$DIR" -m fast stop >/dev/null || true
}

case "${1:-}" in
  install) install_pkgs ;;
  start) start ;;
  stop) stop ;;
  env) echo "export PBEM_TEST_POSTGRES_URL=postgresql+psycopg://postgres@127.0.0.1:$PORT/$DB" ;;
  *) echo "usage: $0 install|start|stop|env" >&2; exit 2 ;;
esac
