#!/usr/bin/env bash
# venv.sh — source me: make sure the project's virtual environment (.venv, or $PBEM_VENV) exists
# with the project installed in it, then set PY to its python.  A virtual environment keeps
# `pip install` working on systems whose Python refuses it outside one (PEP 668: Debian, Ubuntu).
# EXTRAS (default "dev") picks the optional dependencies; "" installs the server alone.
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
stamp="$VENV/.installed-$(cat pyproject.toml | cksum | cut -d' ' -f1)-${EXTRAS:-none}"
if [ ! -f "$stamp" ]; then
  "$PY" -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
  spec="."; [ -n "$EXTRAS" ] && spec=".[$EXTRAS]"
  if ! "$PY" -m pip install -q --disable-pip-version-check -e "$spec" >"$VENV/install.log" 2>&1 \
     || ! "$PY" -c "import engine, pbem"; then
    tail -n 30 "$VENV/install.log" >&2
    echo "installing the project into $VENV failed (log: $VENV/install.log)" >&2; return 1 2>/dev/null || exit 1
  fi
  rm -f "$VENV"/.installed-*; touch "$stamp"
fi
export PATH="$VENV/bin:$PATH"
