"""Fetched mail handed over to every worker and applied game by game (PostgreSQL, many workers).

On PostgreSQL one worker at a time reads the IMAP INBOX (`pbem.worker.leader`). It does not apply
what it reads itself: `hand_over` routes each mail to its game (the first verified reply key in
its headers, as the pipeline's identify-seat finds it) and commits it as a `QueuedMail` row,
raw bytes and all, *before* the IMAP move. A mail already queued or recorded (same dedupe key
or same UID) is a duplicate. Mail that routes to no game (no valid key, garbage, strangers,
bounces, invitations) returns None: the leader processes it at once, exactly as on SQLite.

Every worker, the leader included, then runs `apply_queued`: for each game with queued mail
(oldest first) it tries the game's session-level advisory lock (`GameLock`, on a connection of
its own); the holder applies that game's mails one by one in ``id`` (arrival) order, each in
one transaction of `process_message` that also deletes its queue row. Games held by another
worker are skipped: different games are applied in parallel, one game by one worker at a time,
in order. A worker killed while it holds a game loses its session and with it the lock; its
open transaction rolls back, the row stays queued, and the next worker applies it, once.
SQLite (one worker) never hands over: `pbem.worker.intake.poll_once` processes each mail directly.

Mail delivered over LMTP (`pbem.worker.lmtp_intake`) is queued the same way, on SQLite too,
by `queue_delivery` before the MTA hears "250"; mail that routes to no game (and on SQLite,
where one worker applies everything in arrival order, all of it) is queued under `NO_GAME`,
applied in arrival order like one game's. On SQLite the run lock leaves one worker,
so `GameLock` always holds there.
"""

from __future__ import annotations

import logging
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Any

from sqlalchemy import and_, or_, text, union_all
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from pbem.config import Settings
from pbem.mail import Fetched, parse_message
from pbem.mail.budget import cpu_budget
from pbem.outbox.send import StopAsked, never_stop
from pbem.pipeline.reply_keys import seat_by_key
from pbem.pipeline.runner import Outcome, process_message
from pbem.pipeline.stages.dedupe import dedupe_key
from pbem.sanitize import bounded
from pbem.store.db import is_sqlite, transaction
from pbem.store.failures import database_problem
from pbem.store.models import InboundMessage, QueuedMail

__all__ = [
    "GAME_LOCKS",
    "NO_GAME",
    "GameLock",
    "apply_queued",
    "hand_over",
    "queue_delivery",
    "queued_count",
    "route",
]

log = logging.getLogger("pbem.worker.handover")

GAME_LOCKS = 1960  # first key of the two-key per-game advisory locks (the IMAP lead: one key)
NO_GAME = 0  # the game of a delivered (LMTP) mail that routes to no game: the pipeline decides


@dataclass(frozen=True)
class Route:
    """Where a fetched mail goes: its game and its dedupe key (C1)."""

    game_id: int
    dedupe_key: str


def route(db: Engine, settings: Settings, raw: bytes) -> Route | None:
    """The game of ``raw`` by its first verified reply key (headers only), or None."""
    if len(raw) > settings.max_bytes:
        return None
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0] + b"\r\n\r\n"
    try:
        with cpu_budget(settings.parse_cpu_seconds):
            parsed = parse_message(head, settings.address)
        with Session(db) as s:
            found = seat_by_key(s, raw, parsed, settings)
    except Exception:  # garbage, over budget, a database hiccup: the pipeline decides, as today
        return None
    if found is None:
        return None
    return Route(found[1].game_id, dedupe_key(parsed.message_id, raw))


def hand_over(db: Engine, settings: Settings, item: Fetched, mailbox: str) -> Outcome | None:
    """Queue ``item`` for its game, committed before the caller moves it (C1); a duplicate is
    not queued again; None: it routes to no game, so the caller processes it now."""
    to = route(db, settings, item.raw)
    if to is None:
        return None
    box = bounded(mailbox, 200)
    try:
        with transaction(db) as s:
            if _known(s, to.dedupe_key, box, item):
                return Outcome("duplicate", f"duplicate of an earlier mail ({to.dedupe_key})")
            s.add(
                QueuedMail(
                    game_id=to.game_id,
                    dedupe_key=to.dedupe_key,
                    mailbox=box,
                    uidvalidity=item.uidvalidity,
                    uid=item.uid,
                    raw=item.raw,
                )
            )
            s.flush()
    except IntegrityError:  # another worker queued it a moment ago
        return Outcome("duplicate", f"duplicate (queued concurrently) of {to.dedupe_key}")
    except Exception as exc:
        problem = database_problem(exc)
        if problem is not None:
            return Outcome("deferred", problem.says()[:500], problem=problem)
        log.exception("could not hand a mail over; processing it here")
        return None
    return Outcome("queued", game_id=to.game_id)


def queue_delivery(db: Engine, settings: Settings, raw: bytes, mailbox: str) -> Outcome:
    """Queue a mail the MTA delivered (LMTP), committed before the MTA is answered: "queued"
    for its game (or `NO_GAME`), "duplicate" when the same mail (dedupe key) is queued or
    recorded already. A database error propagates: the caller answers with a 4xx. On SQLite
    one worker applies all queued mail in arrival order, so nothing is routed there."""
    to = None if is_sqlite(db) else route(db, settings, raw)
    key = to.dedupe_key if to is not None else _dedupe_key(settings, raw)
    game_id = to.game_id if to is not None else NO_GAME
    box = bounded(mailbox, 200)
    try:
        with transaction(db) as s:
            if _known(s, key, box):
                return Outcome("duplicate", f"duplicate of an earlier mail ({key})")
            s.add(QueuedMail(game_id=game_id, dedupe_key=key, mailbox=box, raw=raw))
            s.flush()
    except IntegrityError:  # the same mail, delivered on another connection a moment ago
        return Outcome("duplicate", f"duplicate (queued concurrently) of {key}")
    return Outcome("queued", game_id=None if game_id == NO_GAME else game_id)


def _dedupe_key(settings: Settings, raw: bytes) -> str:
    """The dedupe key of a mail that routes to no game (the content hash if its header is
    garbage: the pipeline records it, and a second copy, once)."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0] + b"\r\n\r\n"
    try:
        with cpu_budget(settings.parse_cpu_seconds):
            message_id = parse_message(head, settings.address).message_id
    except Exception:
        message_id = None
    return dedupe_key(message_id, raw)


def _known(s: Session, key: str, mailbox: str, item: Fetched | None = None) -> bool:
    """Recorded or queued already, by dedupe key or by IMAP UID (of a fetched ``item``)."""

    def seen(table: Any) -> Any:
        same = col(table.dedupe_key) == key
        if item is not None:
            same = or_(
                same,
                and_(
                    col(table.mailbox) == mailbox,
                    col(table.uidvalidity) == item.uidvalidity,
                    col(table.uid) == item.uid,
                ),
            )
        return select(table.id).where(same)

    return s.exec(union_all(seen(InboundMessage), seen(QueuedMail)).limit(1)).first() is not None  # type: ignore[call-overload]


class GameLock:
    """``with GameLock(db, game_id) as held:`` — a session-level advisory lock on one game,
    on its own connection; not waited for (False: another worker applies that game now)."""

    def __init__(self, db: Engine, game_id: int) -> None:
        self.db, self.game_id = db, game_id
        self._conn: Any = None

    def __enter__(self) -> bool:
        if is_sqlite(self.db):
            return True  # one worker: the run lock excludes every other
        self._conn = self.db.connect()
        try:
            got = self._conn.execute(
                text("SELECT pg_try_advisory_lock(CAST(:c AS integer), CAST(:g AS integer))"),
                {"c": GAME_LOCKS, "g": self.game_id},
            ).scalar()
            self._conn.commit()
        except BaseException:
            self._close(invalidate=True)
            raise
        if not got:
            self._close()
        return bool(got)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._conn is None:
            return
        try:
            self._conn.execute(
                text("SELECT pg_advisory_unlock(CAST(:c AS integer), CAST(:g AS integer))"),
                {"c": GAME_LOCKS, "g": self.game_id},
            )
            self._conn.commit()
        except Exception:  # closing the session for good releases the lock as well
            self._close(invalidate=True)
            return
        self._close()

    def _close(self, *, invalidate: bool = False) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with suppress(Exception):  # a dead connection may fail to close; gone either way
                if invalidate:
                    conn.invalidate()
                conn.close()


def apply_queued(
    db: Engine,
    settings: Settings,
    *,
    now: datetime | None = None,
    stop: StopAsked = never_stop,
) -> list[Outcome]:
    """Apply the queued mail of every game this worker can lock, until none is left that it
    can (another worker holds the rest, or only deferred mail is left), or until ``stop()``
    says so (asked between two mails); the outcomes."""
    done: list[Outcome] = []
    tried: set[int] = set()  # a row whose deletion failed is never tried twice in a pass
    try:
        while not stop():
            progress = False
            for game_id in _waiting_games(db):
                with GameLock(db, game_id) as held:
                    if held:
                        progress |= _apply_game(db, settings, game_id, now, done, tried, stop)
            if not progress:
                return done
        return done
    except Exception as exc:
        problem = database_problem(exc)
        if problem is None:
            raise
        log.warning("queued mail deferred: %s", problem.says())
        return [*done, Outcome("deferred", problem.says()[:500], problem=problem)]


def _apply_game(
    db: Engine,
    settings: Settings,
    game_id: int,
    now: datetime | None,
    done: list[Outcome],
    tried: set[int],
    stop: StopAsked,
) -> bool:
    """The game's queued mails in arrival order (its lock held), until ``stop()`` says so;
    False if none was applied."""
    applied = False
    while not stop() and (row := _next(db, game_id)) is not None and row.id not in tried:
        tried.add(row.id)  # type: ignore[arg-type]
        out = process_message(
            db,
            settings,
            row.raw,
            mailbox=row.mailbox,
            uidvalidity=row.uidvalidity,
            uid=row.uid,
            now=now,
            queued=row.id,
        )
        done.append(out)
        if out.outcome == "deferred":  # the database is busy: left queued for the next pass
            break
        applied = True
    return applied


def _waiting_games(db: Engine) -> list[int]:
    """Games with queued mail, the one waiting longest first."""
    with Session(db) as s:
        stmt = (
            select(QueuedMail.game_id)
            .group_by(col(QueuedMail.game_id))
            .order_by(func.min(QueuedMail.id))
        )
        return list(s.exec(stmt))


def _next(db: Engine, game_id: int) -> QueuedMail | None:
    with Session(db, expire_on_commit=False) as s:
        row = s.exec(
            select(QueuedMail).where(QueuedMail.game_id == game_id).order_by(col(QueuedMail.id))
        ).first()
        if row is not None:
            s.expunge(row)
        return row


def queued_count(db: Engine) -> int:
    """Mails handed over and not yet applied (every worker's backlog)."""
    with Session(db) as s:
        return int(s.exec(select(func.count()).select_from(QueuedMail)).one())
