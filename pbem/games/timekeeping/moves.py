"""The clocks around a move: hand-overs after a move, sync with the seats, ending a game.

`after_move` runs the clocks for one move (ending the mover's vacation early), `sync`
brings a clock in line with bot seats and who decides, `end_game` ends a game outside the
rules (timeout or resignation) and mails both players the result.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

import engine
from engine.data import other
from pbem.clocks import model
from pbem.clocks.control import fmt_duration
from pbem.config import Settings
from pbem.games.bots import is_bot
from pbem.games.mailing import queue_mail
from pbem.games.timekeeping.records import ensure_clock, load, record_event, store
from pbem.outbox.queue import seats_of
from pbem.store.models import Game, Seat

__all__ = ["after_move", "bot_sides", "end_game", "position_id", "sync"]


def position_id(state: engine.GameState) -> str:
    """Which position a move starts from, as the clock's undo mark names it: the engine's
    command count and log length (an ``undo`` goes back to exactly that position)."""
    return f"{state['seq']}:{len(state['log'])}"


def bot_sides(seats: dict[str, Seat]) -> set[str]:
    """The computer-played sides (``bot:`` seats): no clock runs for them (pbem.games.bots)."""
    return {side for side, seat in seats.items() if is_bot(seat.email)}


def sync(s: Session, game: Game, state: engine.GameState, now: datetime) -> None:
    """Bring a running clock in line with the seats and who decides in ``state``.

    For moves the clock did not see (a computer player's, when the game was created or by
    `pbem.games.bot_catch_up`) and after a seat change: a bot's clock stops, a human who
    must decide and whose clock is stopped starts a new period.
    """
    c = load(game)
    if c is None or game.status != "active":
        return

    assert game.id is not None
    t = now.timestamp()
    model.sync(c, bot_sides(seats_of(s, game.id)), engine.active_sides(state), t)
    store(game, c)
    s.add(game)


def after_move(
    s: Session,
    settings: Settings,
    game: Game,
    before: engine.GameState,
    after: engine.GameState,
    mover: str,
    now: datetime,
    *,
    seats: dict[str, Seat],
    autopilot: bool = False,
    mid: set[str] | None = None,
    undone: bool = False,
) -> list[str]:
    """Run the clocks for a move of ``mover``; returns notes for the game log.

    ``mid``: the deciding sides after ``mover``'s own commands when computer players moved
    next (the ``bot-moves`` handler): the mover's decision ended there, even if the bots
    hand the move straight back. A player's own move ends their vacation early (the unused
    days go back).

    ``undone``: the mail began with an accepted ``undo`` and ``before`` is the position it went
    back to: the clocks first go back to how they were before the undone mail
    (`pbem.clocks.model.restore`), so its increment is not kept and nobody is charged for it.
    """
    t = now.timestamp()
    c = ensure_clock(game, settings, before, t)
    position = position_id(before)
    if undone:
        model.restore(c, position)
    model.mark_before(c, position)
    assert game.id is not None
    robots = bot_sides(seats)
    c["robots"] = sorted(robots)
    notes = []
    if not autopilot and model.on_vacation(c, mover, t):
        refund = model.end_vacation(c, mover, t)
        record_event(
            s,
            game,
            mover,
            "vacation_end",
            f"{mover.title()} is back from vacation ({fmt_duration(refund)} returned)",
            now,
        )
        notes.append(
            f"your move ends your vacation early: welcome back; {fmt_duration(refund)} "
            "went back to your yearly allowance and the clocks run again"
        )
    if mid is not None:
        model.handover(c, engine.active_sides(before), mid, mover, t, autopilot=autopilot)
        model.handover(c, mid, engine.active_sides(after), None, t)
    else:
        model.handover(
            c,
            engine.active_sides(before),
            engine.active_sides(after),
            mover,
            t,
            autopilot=autopilot,
        )
    if engine.result(after) is not None:
        model.stop_all(c, t)
    else:
        model.sync(c, robots, engine.active_sides(after), t)
    store(game, c)
    return notes


def end_game(
    s: Session,
    settings: Settings,
    game: Game,
    state: engine.GameState,
    *,
    winner: str,
    reason: str,
    detail: str,
    now: datetime,
) -> None:
    """End the game outside the rules (timeout or resignation) and mail both the result."""
    game.status, game.ended, game.winner = "over", reason, winner
    game.updated_at = now
    c = load(game)
    if c is not None:
        model.stop_all(c, now.timestamp())
        store(game, c)
    s.add(game)
    ev = record_event(s, game, other(winner), reason, detail, now, key="end")
    assert game.id is not None
    seats = seats_of(s, game.id)
    for seat in seats.values():
        queue_mail(
            s,
            settings,
            kind="game_over",
            game=game,
            seat=seat,
            state=state,
            cause=f"ev{ev.id}",
            now=now,
            seats=seats,
        )
