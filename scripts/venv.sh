#!/usr/bin/env bash
# venv.sh — source me: make sure the project's virtual environment (.venv, or $PBEM_VENV) exists
# with the project installed in it, then set PY to its python.  A virtual environment keeps
# `pip install` working on systems whose Python refuses it outside one (PEP 668: Debian, Ubuntu).
# EXTRAS (default "dev") picks the optional dependencies; "" installs the server alone.
# A marker file per install (.installed-<pyproject checksum>-<extras>) says what is installed:
# "dev" holds every extra, so after `scripts/test.sh` the server alone (`scripts/pbem`) needs
# nothing more, and after `scripts/pbem` the tests add only what they need; a changed
# pyproject.toml installs again.
VENV=${PBEM_VENV:-$PWD/.venv}
EXTRAS=${EXTRAS-dev}
BASE_PY=${PYTHON:-python3}
if [ ! -x "$VENV/bin/python" ]; then
  if ! "$BASE_PY" -m venv "$VENV" >/dev/null 2>&1; then
    # Debian/Ubuntu ship venv separately (python3-venv); as root, install it and try again.
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
      rm -rf "$VENV"; "$BASE_PY" -m venv "$VENV"
    else
      echo "cannot create a virtual environment: install python3-venv" >&2; return 1 2>/dev/null || exit 1
    fi
  fi
fi
PY="$VENV/bin/python"
sum=$(cksum < pyproject.toml | cut -d' ' -f1)
stamp="$VENV/.installed-$sum-${EXTRAS:-none}"
if [ ! -f "$stamp" ] && [ ! -f "$VENV/.installed-$sum-dev" ]; then
  "$PY" -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
  spec="."; [ -n "$EXTRAS" ] && spec=".[$EXTRAS]"
  if ! "$PY" -m pip install -q --disable-pip-version-check -e "$spec" >"$VENV/install.log" 2>&1 \
     || ! "$PY" -c "import engine, pbem"; then
    tail -n 30 "$VENV/install.log" >&2
    echo "installing the project into $VENV failed (log: $VENV/install.log)" >&2; return 1 2>/dev/null || exit 1
  fi
  for old in "$VENV"/.installed-*; do  # markers of an older pyproject.toml
    case "$old" in "$VENV/.installed-$sum-"*) ;; *) rm -f "$old" ;; esac
  done
  touch "$stamp"
fi
export PATH="$VENV/bin:$PATH"
