"""The clocks as text for the command line: `pbem games`, `pbem show` and `pbem log`.

`clock_line` is the one-line summary of `pbem games`, `show_text` the clock block of
`pbem show`, `events_of` the game log of `pbem log`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from pbem.clocks import model, report
from pbem.clocks.control import fmt_duration
from pbem.clocks.model import ClockState
from pbem.games.timekeeping.records import load
from pbem.store.models import Game, GameEvent

__all__ = ["clock_line", "events_of", "show_text"]


def clock_line(game: Game, now: datetime) -> str:
    """``kennedy on the move 1 d 2 h, 2 d 4 h left; nixon 5 d left`` for `pbem games`."""
    c = load(game)
    if c is None or not model.control_of(c).enabled:
        return "" if c is None else "none"
    if game.ended and game.winner:
        return f"{game.winner} won {report.WHY.get(game.ended, game.ended)}"
    return _clocks_text(c, now)


def _clocks_text(c: ClockState, now: datetime) -> str:
    t = now.timestamp()
    parts = []
    for side, sc in c["sides"].items():
        remaining = model.left(c, side, t)
        text = (
            f"{fmt_duration(remaining)} left"
            if remaining > 0
            else f"OVER by {fmt_duration(-remaining)}"
        )
        if sc["since"] is not None and sc.get("started") is not None:
            text = f"on the move {fmt_duration(t - float(sc['started'] or t))}, {text}"
        if model.on_vacation(c, side, t):
            text += f", on vacation until {model.fmt_time(sc['vac_until'] or t)}"
        parts.append(f"{side} {text}")
    return "; ".join(parts)


def show_text(game: Game, now: datetime) -> str:
    """The clock block of `pbem show`: control, both clocks, the latest clock and seat events."""
    c = load(game)
    if c is None:
        return "\nClock: not started yet (the next tick starts the site default)"
    lines = ["", "Clock: " + model.control_of(c).describe()]
    if model.control_of(c).enabled:
        lines += [f"  {part}" for part in _clocks_text(c, now).split("; ")]
    if game.ended:
        lines.append(f"Ended: {game.ended}, {game.winner} wins")
    return "\n".join(lines)


def events_of(db: Engine, game_id: int) -> list[GameEvent]:
    """The game's clock and seat events in order (for `pbem log`)."""
    with Session(db) as s:
        return list(
            s.exec(
                select(GameEvent).where(GameEvent.game_id == game_id).order_by(col(GameEvent.id))
            )
        )
