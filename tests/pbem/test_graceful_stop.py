"""SIGTERM and SIGINT stop a worker after the mail in hand (docs/OPERATING.md, "Stopping").

`pbem send`, `tick`, `poll` and `serve` (IDLE or LMTP) each finish the mail being applied or
sent (a mail the SMTP server accepted is marked sent before the process ends), begin no other,
say so in one line and exit 0; the next run sends the rest, and no mail goes out twice. Today's
figures against a real Dovecot + Postfix: ``soak/crash_injection.py --sigterm-share 1``.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlmodel import Session, select

from pbem.config import Settings
from pbem.games import setup as game_setup
from pbem.mail import ImapMailbox, MemorySender, SmtpSender
from pbem.mail.embedded import EmbeddedMailServers
from pbem.outbox import send as outbox
from pbem.store.db import make_engine
from pbem.store.models import InboundMessage, OutboxMessage
from pbem.worker.worker_pass import worker_pass
from tests.pbem.fakeservers import ScriptedServer
from tests.pbem.harness import Harness
from tests.pbem.mailtools import free_port, port_open, wait_until

ADDRESS = "game@stop.test"
PLAYERS = {"kennedy": "jack@stop.test", "nixon": "dick@stop.test"}


class SlowSmtp:
    """aiosmtpd handler: keeps each mail once its data has ended (``accepted``: its Message-ID),
    as Postfix does whether or not the client is still there to read the 250; while ``hold``
    is clear, the 250 waits for it (``arrived`` is set then)."""

    def __init__(self) -> None:
        self.arrived = threading.Event()
        self.hold = threading.Event()
        self.accepted: list[str] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.accepted.append(str(msg["Message-ID"]))
        self.arrived.set()
        end = time.monotonic() + 30
        while not self.hold.is_set() and time.monotonic() < end:
            await asyncio.sleep(0.01)
        return "250 2.0.0 accepted"


@pytest.fixture
def smtp() -> Iterator[tuple[SlowSmtp, int]]:
    handler = SlowSmtp()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield handler, controller.port
    finally:
        handler.hold.set()
        controller.stop()


def _rows(db: Any) -> list[OutboxMessage]:
    with Session(db) as s:
        return list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("command", "sig"),
    [
        ("send", signal.SIGTERM),
        ("tick", signal.SIGTERM),
        ("poll", signal.SIGTERM),
        ("poll", signal.SIGINT),
        ("serve", signal.SIGTERM),
        ("serve-lmtp", signal.SIGTERM),
    ],
)
def test_sigterm_mid_send_finishes_that_mail_and_sends_nothing_twice(
    command: str, sig: signal.Signals, tmp_path: Path, smtp: tuple[SlowSmtp, int]
) -> None:
    server, smtp_port = smtp
    url = f"sqlite:///{tmp_path}/stop.db"
    env = os.environ | {
        "PBEM_DATABASE_URL": url,
        "PBEM_ADDRESS": ADDRESS,
        "PBEM_SECRET": "stop-secret-of-the-test",
        "PBEM_SMTP_HOST": "127.0.0.1",
        "PBEM_SMTP_PORT": str(smtp_port),
        "PBEM_SMTP_TLS": "false",
        "PBEM_LOCK_FILE": str(tmp_path / "pbem.lock"),
    }
    subprocess.run([sys.executable, "-m", "pbem", "init"], env=env, check=True, capture_output=True)
    settings = Settings(database_url=url, address=ADDRESS, secret=env["PBEM_SECRET"])
    db = make_engine(url)
    game_setup.new_game(db, settings, seed=3, **PLAYERS)  # two welcome mails, queued
    assert len(_rows(db)) == 2
    args = [command]
    with EmbeddedMailServers(domain="stop.test") as imap:
        if command in ("poll", "serve"):
            env |= {
                "PBEM_IMAP_HOST": imap.host,
                "PBEM_IMAP_PORT": str(imap.imap_port),
                "PBEM_IMAP_SSL": "false",
                "PBEM_IMAP_USER": ADDRESS,
                "PBEM_IMAP_PASSWORD": "x",
            }
        if command == "serve-lmtp":
            args = ["serve"]
            env |= {"PBEM_LMTP_HOST": "127.0.0.1", "PBEM_LMTP_PORT": str(free_port())}
        proc = subprocess.Popen(
            [sys.executable, "-m", "pbem", *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.arrived.wait(60), "the worker never sent"
            proc.send_signal(sig)  # while the SMTP server holds back its 250
            time.sleep(0.5)
            server.hold.set()
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    first, second = _rows(db)
    assert server.accepted == [first.message_id]  # the mail in hand, and no other
    assert first.status == "sent"  # marked before the process ended
    assert second.status == "pending" and second.claimed_by is None  # handed back, due
    assert proc.returncode == 0, err
    assert f"stopped by {sig.name} after the mail in hand" in out
    stats = outbox.drain_outbox(db, settings, SmtpSender("127.0.0.1", smtp_port))  # next run
    assert stats.sent == 1
    assert Counter(server.accepted) == Counter(r.message_id for r in _rows(db))  # each once
    assert all(r.status == "sent" for r in _rows(db))
    db.dispose()


def test_sigterm_in_serves_lmtp_wait_stops_it_at_once(tmp_path: Path) -> None:
    lmtp = free_port()
    env = os.environ | {
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/s.db",
        "PBEM_ADDRESS": ADDRESS,
        "PBEM_SECRET": "x" * 16,
        "PBEM_LMTP_HOST": "127.0.0.1",
        "PBEM_LMTP_PORT": str(lmtp),
        "PBEM_SMTP_PORT": str(free_port()),  # nothing to send: never connected to
    }
    subprocess.run([sys.executable, "-m", "pbem", "init"], env=env, check=True, capture_output=True)
    proc = subprocess.Popen(
        [sys.executable, "-m", "pbem", "serve", "--idle-timeout", "120"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert wait_until(lambda: port_open("127.0.0.1", lmtp), 30)
        time.sleep(1.0)  # its first pass is done: it waits for a delivery
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "stopped by SIGTERM" in out
    assert time.monotonic() - started < 10  # the wait was cut short, not waited out


class StopAfter(MemorySender):
    """A sender that asks for a stop once it has sent ``n`` mails (a signal during a send)."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def asked(self) -> bool:
        return len(self.sent) >= self.n


def test_a_stop_between_sends_hands_the_claimed_rows_back(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    game_setup.new_game(h.db, h.settings, seed=4, kennedy="k@pbem.test", nixon="n@pbem.test")
    game_setup.new_game(h.db, h.settings, seed=5, kennedy="k2@pbem.test", nixon="n2@pbem.test")
    sender = StopAfter(1)
    stats = outbox.drain_outbox(h.db, h.settings, sender, stop=sender.asked)
    assert stats.stopped and stats.sent == 1 and len(sender.sent) == 1
    rows = h.outbox()
    assert [r.status for r in rows] == ["sent", "pending", "pending", "pending"]
    assert all(r.claimed_by is None for r in rows)  # nothing left held: due again at once
    rest = MemorySender()
    assert outbox.drain_outbox(h.db, h.settings, rest).sent == 3
    assert len(sender.sent) + len(rest.sent) == len(rows)


def test_a_stop_while_applying_leaves_the_other_mails_in_the_inbox(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game()
    for side, body in (("kennedy", "first kennedy"), ("nixon", "first nixon")):
        h.inbox.deliver(h.reply_bytes(side, body))
    welcomes = len(h.sender.sent)

    def one_applied() -> bool:  # a signal that came while the first mail was applied
        with Session(h.db) as s:
            return s.exec(select(InboundMessage.id)).first() is not None

    report = worker_pass(h.db, h.settings, inbox=h.inbox, sender=h.sender, stop=one_applied)
    assert report.stopped and report.mail.total == 1
    assert report.sent is None and len(h.sender.sent) == welcomes  # nothing begun after it
    assert h.inbox.folder_uids("Processed") == [1] and h.inbox.folder_uids("INBOX") == [2]
    later = worker_pass(h.db, h.settings, inbox=h.inbox, sender=h.sender)
    assert not later.stopped and later.mail.total == 1 and later.sent is not None
    assert h.inbox.folder_uids("Processed") == [1, 2]


class Interrupted(Exception):
    pass


def _stuck_in_idle() -> ScriptedServer:
    """An IMAP server that takes IDLE and then never says another word (no "+", no BYE)."""
    state = {"idle": False}

    def answer(line: bytes) -> bytes | None:
        tag, _, rest = line.partition(b" ")
        verb = rest.split(b" ", 1)[0].upper()
        if state["idle"]:
            return None
        if verb == b"CAPABILITY":
            return b"* CAPABILITY IMAP4rev1 IDLE\r\n" + tag + b" OK done\r\n"
        if verb == b"SELECT":
            return b"* 0 EXISTS\r\n* OK [UIDVALIDITY 7] ok\r\n" + tag + b" OK [READ-WRITE] done\r\n"
        if verb == b"IDLE":
            state["idle"] = True
            return None
        return tag + b" OK done\r\n"

    return ScriptedServer(b"* OK [CAPABILITY IMAP4rev1 IDLE] ready\r\n", answer)


def test_a_signal_inside_the_idle_exchange_drops_the_connection_at_once() -> None:
    """`pbem serve` ends an IDLE wait by raising from its SIGTERM handler, wherever the
    exchange is: the connection, in an unknown state, is dropped, not logged out (a LOGOUT
    would wait for the server's answer up to the 30 s timeout)."""

    def interrupt(signum: int, frame: Any) -> None:
        raise Interrupted

    with _stuck_in_idle() as server:
        mailbox = ImapMailbox("127.0.0.1", server.port, "game@stop.test", "x")
        mailbox.connect()
        before = signal.signal(signal.SIGALRM, interrupt)
        try:
            signal.setitimer(signal.ITIMER_REAL, 0.3)  # while waiting for the "+ idling"
            with pytest.raises(Interrupted):
                mailbox.idle_wait(60)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, before)
        started = time.monotonic()
        mailbox.close()
        assert time.monotonic() - started < 5
