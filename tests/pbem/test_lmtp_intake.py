"""LMTP intake (`pbem serve` with PBEM_LMTP_PORT): the listener queues each mail before it
answers 250, answers per recipient (RFC 2033), refuses with 4xx when it cannot store, and
wakes the worker pass, which applies the mail at once.

In-process, on SQLite, with the standard library's LMTP client playing the MTA; the real
Postfix → pbem relay is in test_lmtp_mailstack.py."""

from __future__ import annotations

import os
import smtplib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlmodel import Session, select

from pbem.config import Settings
from pbem.mail.lmtp import ListenError, LmtpServer, Stored, game_recipient
from pbem.store.db import make_engine
from pbem.store.models import InboundMessage, Move, QueuedMail
from pbem.worker.checks import run_checks
from pbem.worker.handover import NO_GAME
from pbem.worker.lmtp_intake import LmtpIntake, store_delivery
from pbem.worker.serve import Stopper, serve_delivered
from pbem.worker.worker_pass import worker_pass
from tests.pbem.harness import EMAILS, Harness
from tests.pbem.mailtools import free_port, wait_until


def _lmtp_settings(h: Harness) -> Settings:
    return h.settings.with_(lmtp_host="127.0.0.1", lmtp_port=free_port())


def _deliver(
    settings: Settings, raw: bytes, rcpts: list[str], sender: str = "jack@players.test"
) -> tuple[list[tuple[int, bytes]], list[tuple[int, bytes]]]:
    """One LMTP transaction as an MTA runs it: the RCPT replies, then one reply per accepted
    recipient after DATA (RFC 2033 §4.2)."""
    with smtplib.LMTP(settings.lmtp_host, settings.lmtp_port, timeout=15) as lmtp:
        assert lmtp.ehlo()[0] == 250  # LHLO
        assert lmtp.mail(sender)[0] == 250
        said = [lmtp.rcpt(r) for r in rcpts]
        accepted = sum(code == 250 for code, _ in said)
        if not accepted:
            return said, []
        code, _ = lmtp.docmd("DATA")
        assert code == 354
        body = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        body = b"\r\n".join(b"." + ln if ln.startswith(b".") else ln for ln in body.split(b"\r\n"))
        lmtp.send(body + (b"" if body.endswith(b"\r\n") else b"\r\n") + b".\r\n")
        return said, [lmtp.getreply() for _ in range(accepted)]


def test_the_game_address_and_its_plus_addresses_are_ours() -> None:
    ours = game_recipient("Game@Example.test")
    assert ours("game@example.test")
    assert ours("GAME+k1a2b3@EXAMPLE.TEST")
    assert ours("game+unsub-x@example.test")
    assert not ours("gamer@example.test")
    assert not ours("game-x@example.test")
    assert not ours("game@example.org")
    assert not ours("player@example.test")
    assert not ours("no-at-sign")


def test_a_move_is_queued_before_250_and_applied_once_by_the_pass(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    settings = _lmtp_settings(h)
    raw = h.reply_bytes("kennedy", h.legal("kennedy")[0])
    to = str(h.last_mail("kennedy")["Reply-To"])
    with LmtpIntake(h.db, settings) as intake:
        said, replies = _deliver(settings, raw, [to, "stranger@pbem.test", "game@pbem.test"])
        assert [code for code, _ in said] == [250, 550, 250]  # unknown recipient: 550 at RCPT
        assert [code for code, _ in replies] == [250, 250]  # one reply per accepted recipient
        assert intake.wake.is_set()  # the pass is woken, not left to a timer
        with Session(h.db) as s:
            queued = list(s.exec(select(QueuedMail)))
        assert len(queued) == 1 and queued[0].mailbox == "lmtp"
        assert f"Delivered-To: {to}".encode() in queued[0].raw  # the envelope reaches the reader
        # the MTA lost our 250 and delivers again: answered 250, not queued twice
        assert [c for c, _ in _deliver(settings, raw, [to])[1]] == [250]
        report = worker_pass(h.db, settings, sender=h.sender)
        assert report.mail.outcomes["applied"] == 1
        # a re-delivery after it was applied is still only "stored before"
        _, again = _deliver(settings, raw, [to])
        assert again == [(250, b"2.0.0 Ok: stored before")]
        assert worker_pass(h.db, settings, sender=h.sender).mail.total == 0
    with Session(h.db) as s:
        assert not list(s.exec(select(QueuedMail)))
        assert len(list(s.exec(select(InboundMessage)))) == 1
        assert len(list(s.exec(select(Move).where(Move.game_id == h.game_id)))) >= 1
    assert len(h.mails_to("kennedy")) >= 2  # the welcome and the report of the move


def test_on_postgresql_a_delivered_move_is_queued_for_its_game(postgres_harness: Harness) -> None:
    h = postgres_harness
    raw = h.reply_bytes("kennedy", h.legal("kennedy")[0])
    assert store_delivery(h.db, h.settings, raw) is Stored.STORED
    stranger = b"From: someone@else.test\r\nTo: game@pbem.test\r\nSubject: hi\r\n\r\nhello\r\n"
    assert store_delivery(h.db, h.settings, stranger) is Stored.STORED
    with Session(h.db) as s:
        games = [q.game_id for q in s.exec(select(QueuedMail).order_by(QueuedMail.id))]
    assert games == [h.game_id, NO_GAME]  # routed by its reply key: games apply in parallel
    assert worker_pass(h.db, h.settings, sender=h.sender).mail.outcomes["applied"] == 1


def test_mail_for_no_game_is_queued_and_decided_by_the_pipeline(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    settings = _lmtp_settings(h)
    stranger = b"From: someone@else.test\r\nTo: game@pbem.test\r\nSubject: hi\r\n\r\nhello\r\n"
    with LmtpIntake(h.db, settings):
        assert [c for c, _ in _deliver(settings, stranger, ["game@pbem.test"])[1]] == [250]
    assert worker_pass(h.db, settings).mail.outcomes["ignored"] == 1  # a stranger: never answered
    assert h.mails_to("kennedy")[-1]["Subject"] == h.mails_to("kennedy")[0]["Subject"]


def _full(db_url: str) -> Any:
    """An engine on ``db_url`` whose connections may not grow the file: SQLite's SQLITE_FULL."""
    full = make_engine(db_url)

    @event.listens_for(full, "connect")
    def _cap(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        pages = cur.execute("PRAGMA page_count").fetchone()[0]
        cur.execute(f"PRAGMA max_page_count={pages}")
        cur.close()

    return full


@contextmanager
def _listener(settings: Settings, store: Callable[[bytes], Stored]) -> Iterator[None]:
    with LmtpServer(
        settings.lmtp_host,
        settings.lmtp_port,
        game_recipient(settings.address),
        store,
        max_bytes=settings.max_bytes,
    ):
        yield


def test_a_full_database_answers_452_for_each_recipient(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    settings = _lmtp_settings(h)
    full = _full(settings.database_url)
    big = h.reply_bytes("kennedy", "status\n" + "x" * 200_000)  # needs new pages
    assert store_delivery(full, settings, big) is Stored.FULL
    with _listener(settings, lambda raw: store_delivery(full, settings, raw)):
        said, replies = _deliver(settings, big, ["game+a@pbem.test", "game+b@pbem.test"])
    assert [c for c, _ in said] == [250, 250]
    assert [c for c, _ in replies] == [452, 452]
    with Session(h.db) as s:
        assert not list(s.exec(select(QueuedMail)))  # nothing half-stored
    full.dispose()


def test_a_store_that_fails_answers_451_so_the_mta_retries(tmp_path: Path) -> None:
    settings = Settings(address="game@pbem.test", lmtp_host="127.0.0.1", lmtp_port=free_port())

    def broken(raw: bytes) -> Stored:
        raise RuntimeError("disk on fire")

    with _listener(settings, broken):
        _, replies = _deliver(settings, b"Subject: x\r\n\r\nx\r\n", ["game@pbem.test"])
    assert [c for c, _ in replies] == [451]


def test_an_unreachable_database_answers_451() -> None:
    url = f"postgresql+psycopg://pbem@127.0.0.1:{free_port()}/pbem?connect_timeout=2"
    settings = Settings(database_url=url, address="game@pbem.test")
    db = make_engine(url)  # nothing listens there: connection refused
    assert store_delivery(db, settings, b"Subject: x\r\n\r\nx\r\n") is Stored.FAILED
    db.dispose()


def test_a_taken_port_is_a_clear_error(tmp_path: Path) -> None:
    settings = Settings(address="game@pbem.test", lmtp_host="127.0.0.1", lmtp_port=free_port())
    with _listener(settings, lambda raw: Stored.STORED), pytest.raises(ListenError) as err:
        LmtpServer(
            "127.0.0.1", settings.lmtp_port, lambda a: True, lambda r: Stored.STORED, max_bytes=10
        ).start()
    assert f"127.0.0.1:{settings.lmtp_port}" in str(err.value)


def test_serve_applies_a_delivered_move_at_once_not_at_the_timer(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    settings = _lmtp_settings(h)
    stopper = Stopper()
    passes: list[str] = []
    loop = threading.Thread(
        target=serve_delivered,
        args=(h.db, settings, h.sender),
        kwargs={"stopper": stopper, "idle_timeout": 300.0, "on_pass": passes.append},
    )
    loop.start()
    try:
        assert wait_until(lambda: len(passes) >= 2, 20)  # the listener note and the first pass
        raw = h.reply_bytes("kennedy", h.legal("kennedy")[0])
        sent = len(h.sender.sent)
        started = time.monotonic()
        _deliver(settings, raw, [str(h.last_mail("kennedy")["Reply-To"])])
        assert wait_until(lambda: len(h.sender.sent) > sent, 20)
        took = time.monotonic() - started
    finally:
        stopper.stop()
        loop.join(20)
    assert not loop.is_alive()
    assert took < 60  # woken by the delivery: the 300 s timer never ran out
    assert any("1 applied" in p for p in passes)
    assert any(EMAILS["kennedy"] in m.recipients for m in h.sender.sent[sent:])


def test_pbem_check_tests_the_listener(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    settings = _lmtp_settings(h)
    down = {name: (ok, detail) for name, ok, detail in run_checks(h.db, settings)}
    assert down["lmtp"][0] is False and "pbem serve" in down["lmtp"][1]
    assert "imap" not in down  # an LMTP site needs no mailbox
    with LmtpIntake(h.db, settings):
        up = {name: (ok, detail) for name, ok, detail in run_checks(h.db, settings)}
    assert up["lmtp"] == (True, f"127.0.0.1:{settings.lmtp_port}: LHLO ok, accepts game@pbem.test")
    with Session(h.db) as s:
        assert not list(s.exec(select(QueuedMail)))  # the check delivers nothing


def test_serve_says_why_it_cannot_listen_and_exits_4(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = os.environ | {
            "PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/s.db",
            "PBEM_ADDRESS": "game@pbem.test",
            "PBEM_SECRET": "a-test-secret-of-some-length",
            "PBEM_LMTP_PORT": str(port),
            "PBEM_LOCK_FILE": str(tmp_path / "s.lock"),
        }
        subprocess.run(
            [sys.executable, "-m", "pbem", "init"], env=env, check=True, capture_output=True
        )
        done = subprocess.run(
            [sys.executable, "-m", "pbem", "serve"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 4  # unreachable: systemd restarts it, the MTA keeps the mail
    assert f"cannot listen for LMTP on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
