"""Several `pbem serve` workers on one PostgreSQL and one mailbox (issue 14, scale-out).

Two real `pbem serve` processes (each with its own run-lock file, as on two machines) share a
PostgreSQL database and the game mailbox of a real mail server. One leads the IMAP fetch, the
other stands by; the leader is SIGKILLed (its database session dies with it, and the advisory
lock with the session), the standby takes the lead, and a move mailed afterwards is applied
exactly once and reported to the player who must decide next (notify decisions).
"""

from __future__ import annotations

import email
import email.policy
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlmodel import Session, col, select

import engine
from pbem.config import as_env
from pbem.games import setup as game_setup
from pbem.store.db import make_engine, migrate
from pbem.store.models import Game, InboundMessage, Move, OutboxMessage
from tests.pbem.mailtools import MailServer, player_mail

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(300)]


def _wait(what: str, check: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


class Worker:
    """One `pbem serve` process with its own lock file (another machine) and log."""

    def __init__(self, name: str, env: dict[str, str], folder: Path) -> None:
        self.log = folder / f"{name}.log"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pbem",
                "-v",
                "serve",
                "--idle-timeout",
                "2",
                "--standby-interval",
                "0.3",
            ],
            env=env | {"PBEM_LOCK_FILE": str(folder / f"{name}.lock")},
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
        )

    def said(self, text: str) -> bool:
        return text in self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[list[Worker]]:
    started: list[Worker] = []
    yield started
    for w in started:
        w.stop()


def test_the_standby_takes_the_lead_when_the_leader_dies_and_applies_the_next_move_once(
    empty_postgres: str, mail_server: MailServer, tmp_path: Path, workers: list[Worker]
) -> None:
    settings = mail_server.game_settings(empty_postgres, "leader-test-secret")
    game = settings.address
    db = make_engine(empty_postgres)
    migrate(db)
    players = {side: mail_server.fresh_address(side) for side in engine.SIDES}
    game_id = game_setup.new_game(db, settings, seed=2, **players)
    env = os.environ | as_env(settings)

    def received(side: str) -> list[email.message.EmailMessage]:
        with mail_server.mailbox(players[side]) as box:
            return [
                email.message_from_bytes(f.raw, policy=email.policy.default)  # type: ignore[misc]
                for f in box.fetch_new()
            ]

    def move(expected_applied: int) -> None:
        with Session(db) as s:
            g = s.get(Game, game_id)
            assert g is not None
            state = engine.from_json(g.snapshot)
        side = sorted(engine.active_sides(state))[0]
        last = received(side)[-1]
        command = engine.legal_commands(state, side)[0]
        mail_server.send(
            player_mail(
                players[side], str(last["Reply-To"]), command, in_reply_to=str(last["Message-ID"])
            ),
            players[side],
            [game],
        )
        _wait(f"move {expected_applied} applied", lambda: applied() == expected_applied)

    def pending_mail() -> int:
        with Session(db) as s:
            return len(
                s.exec(select(OutboxMessage.id).where(col(OutboxMessage.status) != "sent")).all()
            )

    def applied() -> int:
        with Session(db) as s:
            return len(
                s.exec(
                    select(InboundMessage.id).where(col(InboundMessage.outcome) == "applied")
                ).all()
            )

    leader = Worker("a", env, tmp_path)
    workers.append(leader)
    _wait("a to lead", lambda: leader.said("in: "))
    _wait("the welcome mails", lambda: all(len(received(s)) >= 1 for s in engine.SIDES))
    standby = Worker("b", env, tmp_path)
    workers.append(standby)
    _wait("b to stand by", lambda: standby.said("standby: another worker leads"))
    move(1)
    assert not standby.said("in: ")  # the standby never fetched while a led
    # Let a send move 1's reports before it dies: rows a killed worker had claimed wait out their
    # lease (outbox_send.CLAIM_LEASE, minutes) before another worker sends them.
    _wait("the reports of move 1 sent", lambda: not pending_mail())
    reports = {side: len(received(side)) for side in engine.SIDES}

    leader.proc.kill()  # SIGKILL: no cleanup; the lock goes with its database session
    leader.proc.wait(10)
    move(2)  # only b is alive to fetch and apply it
    _wait("b to lead", lambda: standby.said("in: "))
    with Session(db) as s:
        g = s.get(Game, game_id)
        assert g is not None
        deciding = engine.active_sides(engine.from_json(g.snapshot))
    # notify decisions (the default): move 2 is reported to whoever must decide next
    _wait("the reports of move 2", lambda: all(len(received(s)) > reports[s] for s in deciding))
    _wait("the outbox sent", lambda: not pending_mail())
    standby.stop()
    assert standby.proc.returncode == 0, standby.log.read_text()

    with Session(db) as s:
        inbound = s.exec(select(InboundMessage)).all()
        moves = s.exec(select(Move).where(Move.game_id == game_id)).all()
    assert [m.outcome for m in inbound] == ["applied", "applied"]
    assert sorted({m.inbound_id for m in moves if m.source == "mail"}) == sorted(
        m.id for m in inbound
    )  # each mail's commands recorded once, from that mail
    assert len({m.seq for m in moves}) == len(moves)
    db.dispose()
