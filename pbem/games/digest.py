"""The daily digest: each ``digest`` seat's one mail a day at its hour (see `pbem.games.notify`),
queued by `digest_pass` in every worker pass.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy.engine import Engine
from sqlmodel import select

import engine
from pbem.config import Settings
from pbem.games.notify import mail_seat
from pbem.outbox.queue import refresh_key, seats_of
from pbem.store.db import transaction
from pbem.store.models import Game, Seat, SeatOrders

__all__ = ["digest_pass", "last_digest_time"]


def _naive(dt: datetime) -> datetime:
    return dt.replace(tzinfo=None) if dt.tzinfo else dt


def last_digest_time(now: datetime, hour: int) -> datetime:
    """The latest ``hour``:00 UTC at or before ``now``."""
    at = _naive(now).replace(hour=hour, minute=0, second=0, microsecond=0)
    return at if at <= _naive(now) else at - timedelta(days=1)


def digest_pass(db: Engine, settings: Settings, now: datetime) -> int:
    """Queue the digests that are due at ``now`` (the worker calls this every pass); returns how many."""
    sent = 0
    now = now if now.tzinfo else now.replace(tzinfo=UTC)
    with transaction(db) as s:
        stmt = (
            select(SeatOrders, Seat, Game)
            .where(SeatOrders.notify == "digest")
            .where(SeatOrders.seat_id == Seat.id)
            .where(Seat.game_id == Game.id)
            .where(Game.status == "active")
        )
        for row, seat, game in s.exec(stmt).all():
            due = last_digest_time(now, row.digest_hour)
            if row.digest_at is not None and _naive(row.digest_at) >= due:
                continue

            row.digest_at = now
            s.add(row)
            state = engine.from_json(game.snapshot)
            refresh_key(seat, state)
            deciding = seat.side in engine.active_sides(state)
            log = engine.view(state, seat.side)["log"]
            news = (
                any(e["i"] >= seat.last_log for e in log)
                or (deciding and seat.decision_sig != row.mailed_sig)
                or row.notes != "[]"
            )
            if not news:
                s.add(seat)
                continue
            mail_seat(
                s,
                settings,
                kind="report",
                game=game,
                seat=seat,
                row=row,
                state=state,
                cause=f"digest{_naive(now):%Y%m%d%H}",
                now=now,
                seats=seats_of(s, game.id or 0),
            )
            sent += 1
    return sent
