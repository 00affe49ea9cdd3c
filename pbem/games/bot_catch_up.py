"""Bot seats left to move: the worker pass plays them, thinking outside any transaction.

A bot normally answers a human's mail in that mail's pass (the pipeline's ``bot-moves``
stage); after an error, or when a mail's bot could not be settled, `catch_up` plays what is
left and mails the humans the result. For each game it reads the position, thinks with no
session open (`pbem.games.bots.think`: the write lock is free for everyone else meanwhile),
then records the plan in a short transaction that re-reads the game: if the position changed
while the bot thought (another worker, a mail, the clock), it thinks again, at most
`pbem.games.bots.MAX_THINKS` times, then leaves the game to the next pass. A move is never lost nor doubled.
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

import engine
from pbem.config import Settings
from pbem.games import bots as bot_seats
from pbem.games.bot_turns import MAX_ROUNDS, Plans, play_until_asked
from pbem.games.mailing import queue_mail
from pbem.games.timekeeping.moves import sync
from pbem.outbox.queue import refresh_key, seats_of
from pbem.store.db import lock_game, transaction
from pbem.store.models import Game, Seat

__all__ = ["catch_up"]

log = logging.getLogger("pbem.bots")


def catch_up(db: Engine, settings: Settings, now: datetime) -> int:
    """Play bot seats due in any active game (each game apart); returns the moves made."""
    with Session(db) as s:
        # a range on the indexed address column ('bot:' <= email < 'bot;'), not a LIKE scan
        ids = sorted(
            set(
                s.exec(
                    select(Seat.game_id)
                    .join(Game, col(Game.id) == Seat.game_id)
                    .where(
                        col(Seat.email) >= bot_seats.BOT_PREFIX,
                        col(Seat.email) < bot_seats.BOT_PREFIX[:-1] + ";",
                        Game.status == "active",
                    )
                ).all()
            )
        )
    return sum(_settle(db, settings, game_id, now) for game_id in ids)


def _settle(db: Engine, settings: Settings, game_id: int, now: datetime) -> int:
    """Think from the game as read, record if it is still that position; returns moves made.
    A bot due again after a human's standing order answered thinks from there, and the whole
    turn is recorded at once (`pbem.games.bot_turns`)."""
    plans: Plans = {}
    changed = rounds = 0  # positions that changed while the bot thought; later rounds
    while changed < bot_seats.MAX_THINKS and rounds < MAX_ROUNDS:
        with Session(db) as s:  # a read: closed before the bot thinks
            game = s.get(Game, game_id)
            if game is None or game.status != "active":
                return 0
            snapshot = game.snapshot
            robots = bot_seats.robots_of(seats_of(s, game_id))
        state = engine.from_json(snapshot)
        if not bot_seats.due(state, robots):
            return 0
        if not _think(settings, game_id, state, robots, plans):
            return 0  # the bot failed at once (logged): the next pass tries again
        try:
            made = _record(db, settings, game_id, snapshot, plans, now)
        except bot_seats.ThinkFirst as need:  # rolled back: a later round of the same turn
            rounds += 1
            if not _think(settings, game_id, need.state, need.robots, plans):
                return 0
            continue
        if made is not None:
            return made
        changed += 1
        log.info("game #%s: the position changed while the bot thought; thinking again", game_id)
    return 0


def _think(
    settings: Settings,
    game_id: int,
    state: engine.GameState,
    robots: dict[str, str],
    plans: Plans,
) -> bool:
    """Add the bots' plan from ``state`` to ``plans`` (thought with no session open) unless
    it is there; False if the bot failed at once."""
    position = engine.to_json(state)
    if position not in plans:
        plan = bot_seats.think(settings, game_id, state, robots)
        if not plan.steps:
            return False
        plans[position] = plan
    return True


def _record(
    db: Engine, settings: Settings, game_id: int, snapshot: str, plans: Plans, now: datetime
) -> int | None:
    """Apply the bots' turn in one short transaction if the game is still at ``snapshot``;
    None if the position changed (nothing written)."""
    with transaction(db) as s:
        game = lock_game(s, game_id)
        if game is None or game.status != "active" or game.snapshot != snapshot:
            return None
        state = engine.from_json(game.snapshot)
        seats = seats_of(s, game_id)
        played = play_until_asked(s, settings, game, state, seats, now, plans, think_here=False)
        if not played.moves:
            return 0
        bot_seats.store(game, state, now)
        sync(s, game, state, now)  # the human's clock starts now
        game.version += 1
        s.add(game)
        kind = "game_over" if game.status == "over" else "report"
        for seat in seats.values():
            refresh_key(seat, state)
            queue_mail(
                s,
                settings,
                kind=kind,
                game=game,
                seat=seat,
                state=state,
                cause=f"v{game.version}",
                now=now,
                seats=seats,
            )
        return len(played.moves)
