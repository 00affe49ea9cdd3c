"""The real mail stack for the mail benchmark: a running one (MAILSTACK_* variables) or a private one.

As in ``tests/pbem/conftest.py``: when ``MAILSTACK_IMAP_PORT``/``MAILSTACK_SMTP_PORT`` are set
(``eval "$(scripts/mailstack.sh start)"``) that stack is used; otherwise, as root, a private
Dovecot + Postfix instance is started on free loopback ports and stopped afterwards — also when
the benchmark is stopped with SIGTERM or SIGHUP (``kill PID``), which then unwinds as an exit.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.pbem.mailtools import MailServer, free_ports, port_open

_private_dir: str | None = None  # the folder of the stack `mail_stack` started, while it runs


def state_dir() -> str | None:
    """The folder (MAILSTACK_DIR) of the stack in use, for `benchmarks.cpu.stack_cpu`."""
    return _private_dir or os.environ.get("MAILSTACK_DIR")


SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "mailstack.sh"


class NoMailStack(RuntimeError):
    """No stack is running and none can be started here (not root, or not installed)."""


@contextmanager
def mail_stack() -> Iterator[MailServer]:
    imap, smtp = os.environ.get("MAILSTACK_IMAP_PORT"), os.environ.get("MAILSTACK_SMTP_PORT")
    if imap and smtp:
        server = MailServer(
            "mailstack",
            os.environ.get("MAILSTACK_HOST", "127.0.0.1"),
            int(smtp),
            int(imap),
            os.environ.get("MAILSTACK_DOMAIN", "example.test"),
            os.environ.get("MAILSTACK_PASSWORD", "secret"),
            int(os.environ.get("MAILSTACK_RELAY_LMTP_PORT") or 0),
            os.environ.get("MAILSTACK_RELAY_PREFIX", "lmtp-"),
            os.environ.get("MAILSTACK_DIR", ""),
        )
        if not port_open(server.host, server.imap_port):
            raise NoMailStack(f"MAILSTACK_IMAP_PORT={imap} is set but nothing listens")
        yield server
        return
    if os.geteuid() != 0:
        raise NoMailStack(
            'no mail stack: run `eval "$(scripts/mailstack.sh start)"` or run as root'
        )
    if not (Path("/usr/sbin/dovecot").exists() and Path("/usr/sbin/postfix").exists()):
        raise NoMailStack("Dovecot/Postfix not installed: `scripts/mailstack.sh install` (root)")
    global _private_dir
    state = tempfile.mkdtemp(prefix="pbem-bench-mailstack-")
    os.chmod(state, 0o755)
    imap, lmtp, smtp, relay = free_ports(4)
    env = {
        **os.environ,
        "MAILSTACK_DIR": state,
        "MAILSTACK_ANY_USER": "1",
        "IMAP_PORT": str(imap),
        "LMTP_PORT": str(lmtp),
        "SMTP_PORT": str(smtp),
        "MAILSTACK_RELAY_LMTP_PORT": str(relay),  # lmtp-* addresses go to pbem's LMTP listener
    }
    done = subprocess.run(
        ["bash", str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=180
    )
    _private_dir = state
    before = {sig: signal.signal(sig, _exit_on) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        if done.returncode != 0:
            raise NoMailStack(f"scripts/mailstack.sh start failed: {done.stderr.strip()[-400:]}")
        yield MailServer(
            "mailstack",
            "127.0.0.1",
            int(env["SMTP_PORT"]),
            int(env["IMAP_PORT"]),
            "example.test",
            "secret",
            relay,
            folder=state,
        )
    finally:
        _private_dir = None
        subprocess.run(["bash", str(SCRIPT), "stop"], env=env, capture_output=True, timeout=60)
        shutil.rmtree(state, ignore_errors=True)
        for sig, handler in before.items():
            signal.signal(sig, handler)


def _exit_on(signum: int, frame: object) -> None:
    """A benchmark told to stop (``kill PID``) unwinds, so the private stack is stopped."""
    raise SystemExit(128 + signum)
