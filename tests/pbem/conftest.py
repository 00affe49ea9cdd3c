"""Mail-server fixtures for the pbem tests.

* ``mailstack`` (session): the real Dovecot + Postfix stack of ``scripts/mailstack.sh``. Uses a
  running stack when ``MAILSTACK_IMAP_PORT``/``MAILSTACK_SMTP_PORT`` are set (``.ci/run`` does
  ``eval "$(scripts/mailstack.sh start)"``); otherwise, as root, starts a private instance on
  free ports (and stops it at the end — a `tests.pbem.reaper` beside it stops it even when pytest
  is SIGKILLed or timed out); otherwise skips with the reason.
  The stack must run with ``MAILSTACK_ANY_USER=1`` (the script's default) so every test can use
  fresh addresses.
* ``embedded_mail`` (session): :class:`pbem.mail.embedded.EmbeddedMailServers` (pure Python).
* ``mail_server``: parametrised over both, so an integration test runs on each; the
  ``mailstack`` variant carries the ``mailstack`` marker.
* ``bouncing_mailstack`` (module): a private real stack with ``MAILSTACK_ANY_USER=0``: unknown
  local users bounce with a real Postfix DSN.
* ``relaying_mailstack`` (session): a real stack whose Postfix relays ``lmtp-*`` addresses over
  LMTP to ``relay_lmtp_port`` (``MAILSTACK_RELAY_LMTP_PORT``), where a test runs `pbem serve`.
* ``postgres_url``: ``PBEM_TEST_POSTGRES_URL`` (``scripts/pgtest.sh``), or the test is skipped;
  ``empty_postgres``: that URL with every table dropped; ``postgres_harness``: a `Harness`
  with one new game on an emptied PostgreSQL database.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.pbem.harness import Harness
from tests.pbem.mailtools import Capture, MailServer, free_port, free_ports, port_open

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "mailstack.sh"


def _from_environment() -> MailServer | None:
    imap, smtp = os.environ.get("MAILSTACK_IMAP_PORT"), os.environ.get("MAILSTACK_SMTP_PORT")
    if not imap or not smtp:
        return None
    return MailServer(
        kind="mailstack",
        host=os.environ.get("MAILSTACK_HOST", "127.0.0.1"),
        smtp_port=int(smtp),
        imap_port=int(imap),
        domain=os.environ.get("MAILSTACK_DOMAIN", "example.test"),
        password=os.environ.get("MAILSTACK_PASSWORD", "secret"),
        relay_lmtp_port=int(os.environ.get("MAILSTACK_RELAY_LMTP_PORT") or 0),
        relay_prefix=os.environ.get("MAILSTACK_RELAY_PREFIX", "lmtp-"),
        folder=os.environ.get("MAILSTACK_DIR", ""),
    )


@pytest.fixture(scope="session")
def mailstack() -> Iterator[MailServer]:
    server = _from_environment()
    if server is not None:
        if os.environ.get("MAILSTACK_ANY_USER", "1") == "0":
            pytest.skip("the running mailstack has MAILSTACK_ANY_USER=0; tests need fresh users")
        if not port_open(server.host, server.imap_port):
            pytest.skip(f"MAILSTACK_IMAP_PORT={server.imap_port} is set but nothing listens")
        yield server
        return
    with private_mailstack(any_user=True) as started:
        yield started


@contextmanager
def private_mailstack(
    *, any_user: bool, users: str = "", relay: bool = False
) -> Iterator[MailServer]:
    """Start `scripts/mailstack.sh` in a private folder on free ports (root only, else skip).

    ``any_user=False`` (with ``users``, ``"addr:password addr:password"``): only those
    mailboxes exist, and Postfix accepts mail for any other local address and then bounces it
    with a real RFC 3464 DSN to the envelope sender. ``relay``: Postfix hands ``lmtp-*``
    addresses to an LMTP listener on the server's ``relay_lmtp_port``
    (``MAILSTACK_RELAY_LMTP_PORT``).
    """
    if os.geteuid() != 0:
        pytest.skip("no mail stack: set MAILSTACK_* (scripts/mailstack.sh start) or run as root")
    if not (Path("/usr/sbin/dovecot").exists() and Path("/usr/sbin/postfix").exists()):
        pytest.skip("Dovecot/Postfix not installed: run `scripts/mailstack.sh install` (apt, root)")
    state = tempfile.mkdtemp(prefix="pbem-mailstack-")
    os.chmod(state, 0o755)
    imap, lmtp, smtp, relay_port = free_ports(4)
    env = {
        **os.environ,
        "MAILSTACK_DIR": state,
        "MAILSTACK_ANY_USER": "1" if any_user else "0",
        "IMAP_PORT": str(imap),
        "LMTP_PORT": str(lmtp),
        "SMTP_PORT": str(smtp),
        "MAILSTACK_RELAY_LMTP_PORT": str(relay_port) if relay else "",
    }
    if users:
        env["MAIL_USERS"] = users
    started = time.monotonic()
    result = subprocess.run(
        ["bash", str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=180
    )
    if result.returncode != 0:
        subprocess.run(["bash", str(SCRIPT), "stop"], env=env, capture_output=True, timeout=60)
        pytest.skip(f"scripts/mailstack.sh start failed: {result.stderr.strip()[-400:]}")
    print(f"\nmailstack started in {time.monotonic() - started:.2f} s ({state})")
    # Stops this stack if pytest dies without running the `finally` below (SIGKILL, a timeout).
    reaper = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.pbem.reaper",
            str(os.getpid()),
            "bash",
            "-c",
            'bash "$1" stop; rm -rf "$MAILSTACK_DIR"',
            "reaper",
            str(SCRIPT),
        ],
        env=env,
        cwd=SCRIPT.parents[1],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield MailServer(
            "mailstack",
            "127.0.0.1",
            int(env["SMTP_PORT"]),
            int(env["IMAP_PORT"]),
            "example.test",
            "secret",
            relay_port if relay else 0,
            folder=state,
        )
    finally:
        reaper.terminate()
        reaper.wait(10)
        subprocess.run(["bash", str(SCRIPT), "stop"], env=env, capture_output=True, timeout=60)
        shutil.rmtree(state, ignore_errors=True)


BOUNCING_USERS = ("game", "kennedy")  # the only mailboxes of `bouncing_mailstack`


@pytest.fixture(scope="module")
def bouncing_mailstack() -> Iterator[MailServer]:
    """A private real stack where only game@ and kennedy@example.test exist: mail to any other
    local address is accepted by Postfix and bounced with a real RFC 3464 DSN."""
    users = " ".join(f"{u}@example.test:secret" for u in BOUNCING_USERS)
    with private_mailstack(any_user=False, users=users) as server:
        yield server


@pytest.fixture(scope="session")
def relaying_mailstack() -> Iterator[MailServer]:
    """A real stack whose Postfix relays ``lmtp-*`` addresses over LMTP to the server's
    ``relay_lmtp_port`` (a running one with ``MAILSTACK_RELAY_LMTP_PORT``, else a private one)."""
    server = _from_environment()
    if server is not None and server.relay_lmtp_port:
        if not port_open(server.host, server.imap_port):
            pytest.skip(f"MAILSTACK_IMAP_PORT={server.imap_port} is set but nothing listens")
        yield server
        return
    with private_mailstack(any_user=True, relay=True) as started:
        yield started


@pytest.fixture(scope="session")
def embedded_mail() -> Iterator[MailServer]:
    from pbem.mail.embedded import EmbeddedMailServers

    servers = EmbeddedMailServers(domain="example.test")
    servers.start()
    try:
        yield MailServer(
            "embedded",
            servers.host,
            servers.smtp_port,
            servers.imap_port,
            servers.domain,
            "any-password",
        )
    finally:
        servers.stop()


@pytest.fixture(params=["embedded", pytest.param("mailstack", marks=pytest.mark.mailstack)])
def mail_server(request: pytest.FixtureRequest) -> MailServer:
    """Each integration test runs against the embedded servers and the real stack."""
    server: MailServer = request.getfixturevalue(
        "embedded_mail" if request.param == "embedded" else "mailstack"
    )
    return server


@pytest.fixture
def postgres_url() -> str:
    url = os.environ.get("PBEM_TEST_POSTGRES_URL", "")
    if not url:
        pytest.skip("PBEM_TEST_POSTGRES_URL is not set (scripts/pgtest.sh)")
    return url


@pytest.fixture
def empty_postgres(postgres_url: str) -> str:
    """``postgres_url`` with every table dropped (the test migrates it afresh)."""
    from sqlalchemy import text
    from sqlmodel import SQLModel

    from pbem.store.db import make_engine

    db = make_engine(postgres_url)
    SQLModel.metadata.drop_all(db)
    with db.begin() as conn:
        conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    db.dispose()
    return postgres_url


@pytest.fixture
def postgres_harness(tmp_path: Path, empty_postgres: str) -> Iterator[Harness]:
    """A harness with one new game (seed 2) on an emptied PostgreSQL database."""
    harness = Harness(tmp_path, database_url=empty_postgres)
    harness.new_game(seed=2)
    yield harness
    harness.db.dispose()


@pytest.fixture
def smtp_capture() -> Iterator[tuple[Capture, int]]:
    """An in-process aiosmtpd on a free loopback port recording what it is sent: (handler, port)."""
    from aiosmtpd.controller import Controller

    capture = Capture()
    controller = Controller(capture, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield capture, controller.port
    controller.stop()
