"""The clock on the game row, the game log and notices: load/store the clock JSON, the site default.

`load` and `store` read and write ``Game.clock`` (and ``Game.clock_due``, the time the
next clock work is due); `ensure_clock` gives a game from before clocks the site default;
`record_event` adds a keyed `GameEvent` and `notify` queues a ``notice`` mail about one.
"""

from __future__ import annotations

import json
from datetime import datetime

from sqlmodel import Session

import engine
from pbem.clocks import model
from pbem.clocks.control import TimeControl, parse_control
from pbem.clocks.model import ClockState
from pbem.config import Settings
from pbem.games.mailing import queue_mail
from pbem.games.orders import orders_extra
from pbem.outbox.queue import seats_of
from pbem.store.models import Game, GameEvent, Seat

__all__ = [
    "ensure_clock",
    "load",
    "notify",
    "pending_clock",
    "pending_control",
    "record_event",
    "site_control",
    "start_clock",
    "store",
]


def site_control(settings: Settings) -> TimeControl:
    """The site default time control (``PBEM_CLOCK`` and friends)."""
    return parse_control(
        settings.clock,
        weekend_pause=settings.clock_weekend_pause,
        vacation_days=settings.vacation_days,
        expiry=settings.clock_expiry,
        grace=settings.clock_grace,
        reminders=settings.clock_reminders,
    )


def load(game: Game) -> ClockState | None:
    """The running clock, or None (no clock yet, or one waiting for the game to start)."""
    c = json.loads(game.clock) if game.clock else None
    return None if c is None or c.get("pending") else c


def pending_control(game: Game) -> TimeControl | None:
    """The control chosen for a game that has not started yet (invitations)."""
    c = json.loads(game.clock) if game.clock else None
    return TimeControl.from_dict(c["control"]) if c and c.get("pending") else None


def pending_clock(control: TimeControl) -> str:
    """The ``Game.clock`` of a game not started yet: its control, started with the game."""
    return json.dumps({"control": control.to_dict(), "pending": True})


def store(game: Game, c: ClockState) -> None:
    """Write the clock back with the time its next work is due (None when over)."""
    game.clock = json.dumps(c, sort_keys=True)
    game.clock_due = model.next_due(c) if game.status == "active" else None


def start_clock(
    game: Game, control: TimeControl, state: engine.GameState, now: float
) -> ClockState:
    c = model.start(control, now, engine.active_sides(state))
    store(game, c)
    return c


def ensure_clock(game: Game, settings: Settings, state: engine.GameState, now: float) -> ClockState:
    """The game's clock; a game from before clocks gets the site default, from ``now``."""
    c = load(game)
    if c is not None:
        return c
    return start_clock(game, pending_control(game) or site_control(settings), state, now)


def record_event(
    s: Session, game: Game, side: str, kind: str, detail: str, now: datetime, key: str | None = None
) -> GameEvent:
    """Add a game-log event (flushed: a repeated ``key`` fails here, inside the transaction)."""
    assert game.id is not None
    ev = GameEvent(game_id=game.id, side=side, kind=kind, key=key, detail=detail, created_at=now)
    s.add(ev)
    s.flush()
    return ev


def notify(
    s: Session,
    settings: Settings,
    game: Game,
    state: engine.GameState,
    side: str,
    event: GameEvent,
    now: datetime,
    *,
    subject: str,
    lines: list[str],
    full: bool = False,
    seats: dict[str, Seat] | None = None,
    reply: tuple[str, str] | None = None,
    since: int | None = None,
    log_title: str | None = None,
) -> None:
    """Queue a ``notice`` mail for ``side`` about ``event`` (``full``: with the log from
    ``since``, by default the seat's last report, under ``log_title``, and the board);
    ``reply``: a line the player may send now besides the game's own question, and what it
    does (``claim``, "win on time"), which the mail's header and "How to reply" then offer."""
    assert game.id is not None
    seats = seats if seats is not None else seats_of(s, game.id)
    extra = None
    if log_title is not None:
        extra = {**orders_extra(s, seats[side]), "log_title": log_title}
    queue_mail(
        s,
        settings,
        kind="notice",
        game=game,
        seat=seats[side],
        state=state,
        cause=f"ev{event.id}",
        now=now,
        advance_log=full,
        seats=seats,
        since=since,
        extra=extra,
        context={
            "notice": {
                "subject": subject,
                "lines": lines,
                "full": full,
                "reply": {"line": reply[0], "does": reply[1]} if reply else None,
            }
        },
    )
