"""Bot seats left to move: the worker pass plays them (each game in its own transaction).

A bot normally answers in the same transaction as the human mail that made it due (the
pipeline's ``bot-moves`` stage); after an error, or in a game created with the bot to move,
`catch_up` settles what is left and mails the humans the result.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

import engine
from pbem.config import Settings
from pbem.games.bots import BOT_PREFIX, play_bots, store
from pbem.games.mailing import queue_mail
from pbem.games.timekeeping import tick as clocks
from pbem.outbox.queue import refresh_key, seats_of
from pbem.store.db import lock_game, transaction
from pbem.store.models import Game, Seat

__all__ = ["catch_up"]


def catch_up(db: Engine, settings: Settings, now: datetime) -> int:
    """Play bot seats due in any active game (each game in its own transaction); returns moves made."""
    with Session(db) as s:
        # a range on the indexed address column ('bot:' <= email < 'bot;'), not a LIKE scan
        ids = sorted(
            set(
                s.exec(
                    select(Seat.game_id)
                    .join(Game, col(Game.id) == Seat.game_id)
                    .where(
                        col(Seat.email) >= BOT_PREFIX,
                        col(Seat.email) < BOT_PREFIX[:-1] + ";",
                        Game.status == "active",
                    )
                ).all()
            )
        )
    if not ids:
        return 0

    made = 0
    for game_id in ids:
        with transaction(db) as s:
            game = lock_game(s, game_id)
            if game is None or game.status != "active":
                continue
            state = engine.from_json(game.snapshot)
            seats = seats_of(s, game_id)
            moves = play_bots(s, settings, game, state, seats, now)
            if not moves:
                continue
            made += len(moves)
            store(game, state, now)
            clocks.sync(s, game, state, now)  # the human's clock starts now
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
    return made
