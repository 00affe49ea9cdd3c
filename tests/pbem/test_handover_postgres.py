"""Applying partitioned by game on PostgreSQL (issue 14, `pbem.worker.handover`), with real workers.

Real `pbem poll` processes (each with its own lock file, as on separate machines) share one
PostgreSQL database and the game mailbox of a real mail server. Two games have three move mails
each in the INBOX. The test holds game X's row lock, so the first worker hands all six mails
over, moves them out of the INBOX, takes game X's lock and then waits inside X's first mail.
- A second worker, meanwhile, applies game Y: different games are applied in parallel, and X,
  held by the first, is left alone; when the row lock goes the first applies X's mails in order.
- The first worker is SIGKILLed while it holds game X (mid-transaction): a second worker
  applies every mail, each once, X's in the order they arrived.
Every wait is for a condition (a lock seen in pg_locks, a process' exit), never a fixed time.
The in-process tests first: duplicates, mail for no game, quarantine, SQLite never hands over.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from imapclient import IMAPClient
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session, col, select

import engine
from benchmarks.bench_mail import _next_move
from benchmarks.pgenv import fresh_database
from pbem.config import Settings, as_env
from pbem.games import setup as game_setup
from pbem.mail import Fetched, InlineImage
from pbem.pipeline.runner import Outcome, process_message
from pbem.store.db import make_engine, migrate, transaction
from pbem.store.models import InboundMessage, MailImage, Move, OutboxMessage, Quarantine, QueuedMail
from pbem.worker import handover, intake
from pbem.worker.handover import GAME_LOCKS, hand_over
from tests.pbem.harness import Harness, player_mail
from tests.pbem.mailtools import MailServer

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(600)]

PER_GAME = 3
WAIT = 240.0  # the longest any one condition may take on a loaded machine


def _wait(what: str, check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@dataclass
class Backlog:
    db: Engine
    env: dict[str, str]
    server: MailServer
    address: str
    games: dict[str, int]  # "X", "Y" -> game id
    mails: dict[str, list[bytes]]  # the move mails of each game, in the order mailed

    def inbox_count(self) -> int:
        with IMAPClient(self.server.host, port=self.server.imap_port, ssl=False) as c:
            c.login(self.address, self.server.password)
            c.select_folder("INBOX")
            return len(c.search(["ALL"]))

    def queued(self) -> int:
        with Session(self.db) as s:
            return len(s.exec(select(QueuedMail.id)).all())

    def inbound(self, game: str) -> list[InboundMessage]:
        with Session(self.db) as s:
            return list(
                s.exec(
                    select(InboundMessage)
                    .where(InboundMessage.game_id == self.games[game])
                    .order_by(col(InboundMessage.id))
                )
            )

    def sql(self, query: str, **params: int) -> int:
        with self.db.connect() as c:
            return int(c.execute(text(query), params).scalar() or 0)

    def holds_game(self, game: str) -> bool:
        """Some session holds the game's advisory lock (`pbem.worker.handover.GameLock`)."""
        return bool(
            self.sql(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                "AND classid = :c AND objid = :g AND objsubid = 2",
                c=GAME_LOCKS,
                g=self.games[game],
            )
        )

    def waiting_on_a_row_lock(self) -> bool:
        return bool(
            self.sql(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()"
            )
        )

    def poll(self, name: str, folder: Path) -> subprocess.Popen[bytes]:
        log = (folder / f"{name}.log").open("w")
        return subprocess.Popen(
            [sys.executable, "-m", "pbem", "-v", "poll"],
            env=self.env | {"PBEM_LOCK_FILE": str(folder / f"{name}.lock")},
            stdout=log,
            stderr=subprocess.STDOUT,
        )


# --- in process: one worker, the hand-over's bookkeeping ------------------------------------------


def _queued(h: Harness) -> list[QueuedMail]:
    with Session(h.db) as s:
        return list(s.exec(select(QueuedMail)))


def test_a_mail_for_a_game_is_handed_over_then_applied_and_a_second_delivery_is_a_duplicate(
    postgres_harness: Harness,
) -> None:
    h = postgres_harness
    side = sorted(engine.active_sides(h.state()))[0]
    raw = h.reply_bytes(side, h.legal(side)[0])
    item = Fetched(uid=7, uidvalidity=1, raw=raw)
    out = hand_over(h.db, h.settings, item, "INBOX")
    assert out is not None and (out.outcome, out.game_id, out.folder) == (
        "queued",
        h.game_id,
        "Processed",
    )
    again = Fetched(uid=8, uidvalidity=1, raw=raw)  # delivered twice, not yet applied
    assert hand_over(h.db, h.settings, again, "INBOX") == Outcome(
        "duplicate", f"duplicate of an earlier mail ({_queued(h)[0].dedupe_key})"
    )
    assert [o.outcome for o in handover.apply_queued(h.db, h.settings)] == ["applied"]
    assert _queued(h) == [] and [(m.uid, m.outcome) for m in h.inbound()] == [(7, "applied")]
    out = hand_over(h.db, h.settings, Fetched(uid=9, uidvalidity=1, raw=raw), "INBOX")
    assert out is not None and out.outcome == "duplicate"  # after it was applied, too


def test_mail_for_no_game_is_processed_at_once_as_on_sqlite(postgres_harness: Harness) -> None:
    h = postgres_harness
    stranger = player_mail("someone@else.test", h.settings.address, "hello")
    assert hand_over(h.db, h.settings, Fetched(1, 1, stranger), "INBOX") is None
    h.inbox.deliver(stranger)
    side = sorted(engine.active_sides(h.state()))[0]
    h.inbox.deliver(h.reply_bytes(side, h.legal(side)[0]))
    stats = intake.poll_once(h.db, h.settings, h.inbox)
    assert (stats.outcomes, stats.handed_over) == ({"ignored": 1, "applied": 1}, 1)
    assert "1 handed over" in stats.summary()
    assert h.inbox.fetch_new() == [] and _queued(h) == []


def test_a_queued_mail_that_crashes_is_quarantined_and_leaves_the_queue(
    postgres_harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pbem.pipeline.runner as runner

    h = postgres_harness
    raw = h.reply_bytes("kennedy", "help")
    assert hand_over(h.db, h.settings, Fetched(3, 1, raw), "INBOX") is not None

    def crash(ctx: object, names: object) -> None:
        raise RuntimeError("pipeline bug")

    monkeypatch.setattr(runner, "run", crash)
    assert [o.outcome for o in handover.apply_queued(h.db, h.settings)] == ["quarantined"]
    with Session(h.db) as s:
        (row,) = s.exec(select(Quarantine)).all()
    assert (row.raw, row.uid) == (raw, 3) and _queued(h) == []


def test_a_database_outage_while_applying_defers_the_queue(
    postgres_harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy.exc import OperationalError

    import pbem.worker.handover as handover

    h = postgres_harness
    assert hand_over(h.db, h.settings, Fetched(4, 1, h.reply_bytes("kennedy", "help")), "INBOX")

    def gone(db: object) -> list[int]:
        raise OperationalError("SELECT", {}, ConnectionError("server closed the connection"))

    monkeypatch.setattr(handover, "_waiting_games", gone)
    assert [o.outcome for o in handover.apply_queued(h.db, h.settings)] == ["deferred"]
    assert len(_queued(h)) == 1  # still queued for the next pass


def test_sqlite_never_hands_over(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    side = sorted(engine.active_sides(h.state()))[0]
    stats = h.reply(side, h.legal(side)[0])
    assert (stats.outcomes, stats.handed_over) == ({"applied": 1}, 0)
    assert _queued(h) == []


def test_two_games_storing_the_same_picture_at_once_both_commit(postgres_harness: Harness) -> None:
    """Found by benchmark 7 once games were applied in parallel: two games at the same stage
    draw the same board picture (content-addressed Content-ID); the second insert waited for
    the first transaction and then failed on the primary key, and its move was quarantined."""
    from pbem.outbox import parts as mailimages

    h = postgres_harness
    part = InlineImage("board-same@1960.pbem", b"\x89PNG same picture", "image/png", "board.png")
    waiting = b"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
    errors: list[BaseException] = []

    def second() -> None:
        try:
            with transaction(h.db) as s:
                mailimages.store(s, [part])
                s.flush()
        except BaseException as exc:
            errors.append(exc)

    with transaction(h.db) as first:
        mailimages.store(first, [part])
        first.flush()  # inserted, not committed: the second worker's insert must wait for it
        t = threading.Thread(target=second)
        t.start()
        _wait("the second insert to wait", lambda: bool(_count(h.db, waiting.decode())))
    t.join(WAIT)
    assert errors == []
    with Session(h.db) as s:
        assert len(s.exec(select(MailImage).where(MailImage.cid == part.cid)).all()) == 1


def _count(db: Engine, query: str) -> int:
    with db.connect() as c:
        return int(c.execute(text(query)).scalar() or 0)


# --- real workers: PostgreSQL, a mail server, `pbem poll` processes ----------------------------


def _make_mails(url: str, settings: Settings, games: dict[str, int]) -> dict[str, list[bytes]]:
    """Each game's next moves, made by playing them on a scratch copy of the database."""
    server = url.rsplit("/", 1)[0] + "/postgres"
    mails: dict[str, list[bytes]] = {name: [] for name in games}
    rnd = random.Random(5)
    with fresh_database(server, url) as scratch:
        sdb = make_engine(scratch)
        for name, gid in games.items():
            for _ in range(PER_GAME):
                raw = _next_move(sdb, settings, gid, rnd)
                assert process_message(sdb, settings, raw).outcome == "applied"
                mails[name].append(raw)
        sdb.dispose()
    return mails


@pytest.fixture
def backlog(empty_postgres: str, mail_server: MailServer) -> Iterator[Backlog]:
    settings = mail_server.game_settings(empty_postgres, "handover-test-secret")
    address = settings.address
    db = make_engine(empty_postgres)
    migrate(db)
    games = {
        name: game_setup.new_game(
            db,
            settings,
            seed=3 + i,
            **{side: mail_server.fresh_address(f"{name}{side}") for side in engine.SIDES},
        )
        for i, name in enumerate("XY")
    }
    db.dispose()  # no session may stay open on the template of the scratch copy
    mails = _make_mails(empty_postgres, settings, games)
    with IMAPClient(mail_server.host, port=mail_server.imap_port, ssl=False) as c:
        c.login(address, mail_server.password)
        for raw in [*mails["X"], *mails["Y"]]:  # X's first: a worker takes the oldest game first
            c.append("INBOX", raw)
    env = os.environ | as_env(settings)
    db = make_engine(empty_postgres)
    yield Backlog(db, env, mail_server, address, games, mails)
    db.dispose()


@pytest.fixture
def procs() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for p in started:
        if p.poll() is None:
            p.kill()
            p.wait(30)


def _hold_row(b: Backlog, game: str) -> Connection:
    """Lock game ``game``'s row from the test: a worker applying it waits inside its mail."""
    conn = b.db.connect()
    conn.execute(text("SELECT id FROM game WHERE id = :g FOR UPDATE"), {"g": b.games[game]})
    return conn


def _first_worker_waits_inside_x(
    b: Backlog, folder: Path, procs: list[subprocess.Popen[bytes]]
) -> subprocess.Popen[bytes]:
    first = b.poll("first", folder)
    procs.append(first)
    _wait("the first worker to hold game X", lambda: b.holds_game("X"))
    _wait("it to wait inside X's first mail", b.waiting_on_a_row_lock)
    # the six mails were handed over (committed) and moved out of the INBOX before any applying
    assert b.queued() == 2 * PER_GAME and b.inbox_count() == 0
    return first


def _assert_each_once_in_order(b: Backlog) -> None:
    for game in b.games:
        rows = b.inbound(game)
        mailed = [
            m.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0].decode() for m in b.mails[game]
        ]
        assert [r.message_id for r in rows] == mailed  # each once, in the order mailed
        assert [r.outcome for r in rows] == ["applied"] * PER_GAME
        with Session(b.db) as s:
            moves = s.exec(
                select(Move)
                .where(Move.game_id == b.games[game], Move.source == "mail")
                .order_by(col(Move.seq))
            ).all()
        ids = [m.inbound_id for m in moves]
        assert ids == sorted(ids) and set(ids) == {r.id for r in rows}
    assert b.queued() == 0


def test_two_workers_apply_different_games_in_parallel_and_one_game_in_order(
    backlog: Backlog, tmp_path: Path, procs: list[subprocess.Popen[bytes]]
) -> None:
    b = backlog
    row = _hold_row(b, "X")
    first = _first_worker_waits_inside_x(b, tmp_path, procs)
    second = b.poll("second", tmp_path)
    procs.append(second)
    assert second.wait(WAIT) == 0, (tmp_path / "second.log").read_text()
    # game Y was applied by the second worker while the first held game X
    assert [r.outcome for r in b.inbound("Y")] == ["applied"] * PER_GAME
    assert b.inbound("X") == [] and first.poll() is None and b.holds_game("X")
    assert "applying what it handed over" in (tmp_path / "second.log").read_text()
    row.rollback()
    row.close()
    assert first.wait(WAIT) == 0, (tmp_path / "first.log").read_text()
    _assert_each_once_in_order(b)
    with Session(b.db) as s:
        assert {r.status for r in s.exec(select(OutboxMessage))} == {"sent"}
        assert max(r.attempts for r in s.exec(select(OutboxMessage))) == 1


def test_a_worker_killed_while_it_holds_a_game_leaves_it_to_another_each_move_once(
    backlog: Backlog, tmp_path: Path, procs: list[subprocess.Popen[bytes]]
) -> None:
    b = backlog
    row = _hold_row(b, "X")
    first = _first_worker_waits_inside_x(b, tmp_path, procs)
    first.kill()  # SIGKILL mid-transaction: X's first mail half processed, X's lock held
    first.wait(WAIT)
    row.rollback()  # its server session wakes up, finds its client gone, rolls back and ends
    row.close()
    _wait("the killed worker's session to let game X go", lambda: not b.holds_game("X"))
    assert b.inbound("X") == [] and b.queued() == 2 * PER_GAME  # nothing lost, nothing half-done
    second = b.poll("second", tmp_path)
    procs.append(second)
    assert second.wait(WAIT) == 0, (tmp_path / "second.log").read_text()
    _assert_each_once_in_order(b)
