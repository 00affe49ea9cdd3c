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
    """Think from the game as read, record if it is still that position; returns moves made."""
    for _ in range(bot_seats.MAX_THINKS):
        with Session(db) as s:  # a read: closed before the bot thinks
            game = s.get(Game, game_id)
            if game is None or game.status != "active":
                return 0
            snapshot = game.snapshot
            robots = bot_seats.robots_of(seats_of(s, game_id))
        state = engine.from_json(snapshot)
        if not bot_seats.due(state, robots):
            return 0
        plan = bot_seats.think(settings, game_id, state, robots)  # no session open
        if not plan.steps:
            return 0  # the bot failed at once (logged): the next pass tries again
        made = _record(db, settings, game_id, snapshot, plan, now)
        if made is not None:
            return made
        log.info("game #%s: the position changed while the bot thought; thinking again", game_id)
    return 0


def _record(
    db: Engine, settings: Settings, game_id: int, snapshot: str, plan: bot_seats.Plan, now: datetime
) -> int | None:
    """Apply ``plan`` in one short transaction if the game is still at ``snapshot``; None if
    the position changed (nothing written)."""
    with transaction(db) as s:
        game = lock_game(s, game_id)
        if game is None or game.status != "active" or game.snapshot != snapshot:
            return None
        state = engine.from_json(game.snapshot)
        seats = seats_of(s, game_id)
        moves = bot_seats.play_bots(s, settings, game, state, seats, now, plan, think_here=False)
        if not moves:
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
        return len(moves)
