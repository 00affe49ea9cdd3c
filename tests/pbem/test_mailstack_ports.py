"""The private mail stack's three ports: chosen different, and refused when they are not.

A stack whose SMTP port equals its LMTP port starts "fine" — Dovecot takes the port, Postfix
cannot, and the SMTP banner check is answered by Dovecot's LMTP "220" — and then every mail a
test sends is refused with a 5xx (CI saw it once: a bounce test got ``failed=2``)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.pbem.mailtools import free_ports

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "mailstack.sh"


def test_free_ports_are_different_and_free() -> None:
    for _ in range(50):
        ports = free_ports(3)
        assert len(set(ports)) == 3


def test_the_script_refuses_a_port_used_twice() -> None:
    if os.geteuid() != 0:
        pytest.skip("mailstack.sh start needs root")
    state = tempfile.mkdtemp(prefix="pbem-mailstack-ports-")
    os.rmdir(state)  # the script must not make it: it refuses before touching anything
    imap, smtp = free_ports(2)
    env = {
        **os.environ,
        "MAILSTACK_DIR": state,
        "IMAP_PORT": str(imap),
        "LMTP_PORT": str(smtp),
        "SMTP_PORT": str(smtp),
    }
    done = subprocess.run(
        ["bash", str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=60
    )
    try:
        assert done.returncode == 2
        assert "must differ" in done.stderr
        assert not Path(state).exists()
    finally:
        subprocess.run(["bash", str(SCRIPT), "stop"], env=env, capture_output=True, timeout=60)
        subprocess.run(["rm", "-rf", state], check=False)
