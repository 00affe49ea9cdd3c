"""Until a human must decide: the computer players' moves, and the humans' own orders between them.

A bot's move often leaves a human a question their orders answer: a trigger their standing order
declines ('standing trigger never', or the default that declines an event only the opponent can
gain from), a queued line, a forced choice. The server answers it as it does after a human
opponent's move (`pbem.games.orders.settle`), and then the bot may be due again, and so on: a
human is mailed only for a question nothing of theirs answers. This runs after a mail (the
pipeline's ``bot-moves`` stage), in the worker's catch-up pass (`pbem.games.bot_catch_up`) and
after the autopilot (`pbem.games.timekeeping.expiry`).

Each round's bot moves are recorded from a plan thought from exactly that position (`Plans`,
by `engine.to_json`); a position with none raises `pbem.games.bots.ThinkFirst` so the caller
thinks outside the transaction and runs again, or, with ``think_here``, thinks at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session

import engine
from pbem.config import Settings
from pbem.games import orders
from pbem.games.bots import Plan, ThinkFirst, due, is_bot, play_bots, robots_of
from pbem.store import move_log
from pbem.store.models import Game, Move, Seat
from pbem.store.move_log import AFTER_BOT, NewMove

__all__ = ["MAX_ROUNDS", "Plans", "Played", "play_until_asked"]

Plans = dict[str, Plan]  # the bots' plans by the position they were thought from
MAX_ROUNDS = 24  # bot moves, then the humans' orders, at most this many times in one pass


@dataclass
class Played:
    """What `play_until_asked` applied: every move in order, the bots' alone, and the humans'
    orders the server carried out (each also noted in that human's next report)."""

    moves: list[Move] = field(default_factory=list)
    bot_moves: list[Move] = field(default_factory=list)
    auto: list[orders.Auto] = field(default_factory=list)


def play_until_asked(
    session: Session,
    settings: Settings,
    game: Game,
    state: engine.GameState,
    seats: dict[str, Seat],
    now: datetime,
    plans: Plans | None = None,
    *,
    think_here: bool,
    inbound_id: int | None = None,
) -> Played:
    """Play the bots' moves due in ``state`` (mutated), then what the humans' orders answer,
    round after round, until a human must be asked (or the game ends). The humans' moves are
    recorded with ``inbound_id``, the mail whose pass this is (None: the worker's own pass)."""
    out = Played()
    robots = robots_of(seats)
    for i in range(MAX_ROUNDS):
        plan = (plans or {}).get(engine.to_json(state))
        if i and plan is None and not think_here and due(state, robots):
            assert game.id is not None
            raise ThinkFirst(game.id, engine.copy_state(state), robots, chained=True)
        made = play_bots(session, settings, game, state, seats, now, plan, think_here=think_here)
        if not made:
            break
        out.moves += made
        out.bot_moves += made
        autos = _settle_humans(session, state, seats)
        if not autos:
            break
        out.auto += autos
        out.moves += _record(session, game, autos, inbound_id, now)
    return out


def _settle_humans(
    session: Session, state: engine.GameState, seats: dict[str, Seat]
) -> list[orders.Auto]:
    """The questions before the humans that their queued, standing or forced orders answer,
    answered in ``state``; their books keep the notes for their next report."""
    if engine.result(state) is not None:
        return []
    humans = {side: seat for side, seat in seats.items() if not is_bot(seat.email)}
    rows = orders.book_rows(session, humans)
    books = {side: orders.book_of(row, side) for side, row in rows.items()}
    autos = orders.settle(state, books)
    for side, row in rows.items():  # a queue that stopped is noted and emptied, autos or not
        orders.store_book(row, books[side])
        session.add(row)
    return autos


def _record(
    session: Session,
    game: Game,
    autos: list[orders.Auto],
    inbound_id: int | None,
    now: datetime,
) -> list[Move]:
    """The humans' answered questions as moves: with the mail of the pass (if any), but not
    a mail of theirs that 'undo' could take back (`pbem.store.move_log.AFTER_BOT`)."""
    assert game.id is not None
    return move_log.append(
        session,
        game.id,
        (
            NewMove(a.side, command, AFTER_BOT, inbound_id=inbound_id)
            for a in autos
            for command in a.applied
        ),
        now,
    )
