#!/usr/bin/env bash
# test.sh — the project's whole test run, as CI runs it (.ci/run calls this).
# Installs what the tests need (Python packages; as root also Debian's Dovecot, Postfix and
# PostgreSQL), starts the real mail stack and a PostgreSQL on 127.0.0.1, runs lint, types,
# the test suite and the benchmark smoke runs, and stops every server it started.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}

echo "== install"
$PY -m pip install -q --disable-pip-version-check -e '.[dev]' 2>&1 | grep -v -E 'WARNING|notice' || true

started=()
cleanup() {
  for s in "${started[@]:-}"; do [ -n "$s" ] && bash "scripts/$s" stop >/dev/null 2>&1 || true; done
}
trap cleanup EXIT

if [ "$(id -u)" = 0 ]; then
  echo "== mail stack (Dovecot + Postfix on 127.0.0.1)"
  export MAILSTACK_ANY_USER=1
  bash scripts/mailstack.sh install
  eval "$(bash scripts/mailstack.sh start)" && started+=(mailstack.sh)
  echo "== PostgreSQL on 127.0.0.1"
  bash scripts/pgtest.sh install
  bash scripts/pgtest.sh start && started+=(pgtest.sh)
  eval "$(bash scripts/pgtest.sh env)"
  export PBEM_TEST_POSTGRES_URL
else
  echo "(not root: the real-server tests start what they can or skip)"
fi

echo "== lint and types"
$PY -m ruff check .
$PY -m mypy engine pbem

echo "== tests"
$PY -m pytest -q -p no:cacheprovider "$@"

if [ -f benchmarks/run_all.py ]; then
  echo "== benchmark smoke runs (figures only, never asserted)"
  $PY benchmarks/run_all.py --smoke
fi
