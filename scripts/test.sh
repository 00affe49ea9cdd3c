#!/usr/bin/env bash
# test.sh — the project's whole test run, as CI runs it (.ci/run calls this).
# Installs what the tests need (the project into .venv, see scripts/venv.sh; as root also Debian's
# Dovecot, Postfix and PostgreSQL), starts a private mail stack and PostgreSQL on free 127.0.0.1
# ports in fresh temporary folders (never touching a stack someone else started), runs lint, types,
# the test suite and the benchmark smoke runs, and stops, by PID, every server it started.
# As root it also installs Debian's chromium for the screenshot tests; their PNGs are kept in
# artifacts/screenshots/ (the CI artifacts folder).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== install"
source scripts/venv.sh

# N different free loopback ports, one per line (held open together while chosen)
free_ports() { "$PY" -c 'import sys; sys.path.insert(0, "."); from tests.pbem.mailtools import free_ports; print(*free_ports(int(sys.argv[1])), sep="\n")' "${1:-1}"; }
started=()
cleanup() {
  local s
  for s in "${started[@]:-}"; do
    [ -n "$s" ] || continue
    case "$s" in
      mailstack) bash scripts/mailstack.sh stop >/dev/null 2>&1 || true; rm -rf "$MAILSTACK_DIR" ;;
      pgtest) bash scripts/pgtest.sh stop >/dev/null 2>&1 || true; rm -rf "$PGTEST_DIR" ;;
    esac
  done
}
trap cleanup EXIT

if [ "$(id -u)" = 0 ] && [ -z "${PBEM_TEST_NO_SERVERS:-}" ]; then
  echo "== mail stack (Dovecot + Postfix on 127.0.0.1, private folder and ports)"
  export MAILSTACK_ANY_USER=1
  MAILSTACK_DIR=$(mktemp -d /tmp/pbem-test-mailstack.XXXXXX); export MAILSTACK_DIR
  { read -r IMAP_PORT; read -r LMTP_PORT; read -r SMTP_PORT; } < <(free_ports 3); export IMAP_PORT LMTP_PORT SMTP_PORT
  bash scripts/mailstack.sh install
  started+=(mailstack)
  eval "$(bash scripts/mailstack.sh start)"
  echo "== PostgreSQL on 127.0.0.1 (private folder and port)"
  PGTEST_DIR=$(mktemp -d /tmp/pbem-test-pg.XXXXXX); PGTEST_PORT=$(free_ports 1); export PGTEST_DIR PGTEST_PORT
  bash scripts/pgtest.sh install
  started+=(pgtest)
  bash scripts/pgtest.sh start
  eval "$(bash scripts/pgtest.sh env)"
  export PBEM_TEST_POSTGRES_URL
  if ! command -v chromium >/dev/null; then
    echo "== headless Chromium for the screenshot tests (Debian package)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
  fi
else
  echo "(no private mail stack or PostgreSQL: not root, or PBEM_TEST_NO_SERVERS set; the real-server tests start what they can or skip)"
fi

if [ -n "${PBEM_TEST_SERVERS_ONLY:-}" ]; then  # used by tests/pbem/test_faults_mailstack.py
  echo "servers started: mail in $MAILSTACK_DIR, PostgreSQL in ${PGTEST_DIR:-none}; stopping them"
  exit 0
fi

echo "== lint and types"
"$PY" -m ruff check .
"$PY" -m ruff format --check .
"$PY" -m mypy engine pbem bots

echo "== tests"
"$PY" -m pytest -q -p no:cacheprovider "$@"

if [ -f benchmarks/run_all.py ]; then
  echo "== benchmark smoke runs (figures only, never asserted)"
  "$PY" benchmarks/run_all.py --smoke
fi
