"""Computer-played seats: ``pbem new --nixon bot:search`` (or ``bot:heuristic``, ``bot:search:5``).

A seat whose address is ``bot:KIND[:BUDGET]`` is played by `bots.choose_command` from its
side's view only (R17). Its moves are decided in the same database transaction as the
human move that made them due (the pipeline's ``bot-moves`` handler) or, for a game
created with the bot to move, when the game is created; `pbem.games.bot_catch_up` in every worker
pass settles anything left (a bot error never costs the human's mail: it is logged and retried).
The bot's commands go into the move log like a player's; it is never mailed.
"""

from __future__ import annotations

import hashlib
import logging
import time
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import func
from sqlmodel import Session, select

import engine
from pbem.config import Settings
from pbem.store.models import Game, Move, Seat

if TYPE_CHECKING:
    import bots

# `bots` (the search and heuristic players, ~0.1 s of imports) is imported by the functions
# that play or parse a bot seat: every poll imports this module, few games have a bot

__all__ = ["BOT_PREFIX", "MAX_BOT_MOVES", "is_bot", "parse_bot", "play_bots", "store"]

log = logging.getLogger("pbem.bots")

BOT_PREFIX = "bot:"
MAX_BOT_MOVES = 2000  # one pass never plays more than this many bot commands (a whole game ~600)


def is_bot(address: str) -> bool:
    """Whether a seat's address names a computer player."""
    return address.strip().lower().startswith(BOT_PREFIX)


def parse_bot(address: str) -> tuple[str, bots.Budget | None]:
    """``bot:heuristic`` -> ("heuristic", None); ``bot:search:5`` -> ("search", 5 s). ValueError if bad."""
    import bots

    return bots.parse_kind(address.strip().lower()[len(BOT_PREFIX) :])


def _seed(settings: Settings, game_id: int, seq: int, side: str) -> int:
    """The bot's private randomness: from the server secret, never from the game's seed (R17.3)."""
    text = f"{settings.secret}:{game_id}:{seq}:{side}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def play_bots(
    session: Session,
    settings: Settings,
    game: Game,
    state: engine.GameState,
    seats: dict[str, Seat],
    now: datetime,
) -> list[Move]:
    """Play every bot seat that must decide, in ``state`` (mutated), until a human must.

    Adds a `Move` per command (no inbound mail) and returns them; the caller stores the
    snapshot. A bot that fails (it never should) stops the loop and is logged, not raised.
    """
    robots = {side: seat for side, seat in seats.items() if is_bot(seat.email)}
    if not robots or engine.result(state) is not None:
        return []
    import bots

    assert game.id is not None
    seq = session.exec(select(func.max(Move.seq)).where(Move.game_id == game.id)).one() or 0
    moves: list[Move] = []
    for _ in range(MAX_BOT_MOVES):
        due = sorted(s for s in engine.active_sides(state) if s in robots)
        if not due:
            break
        side = due[0]
        kind, budget = parse_bot(robots[side].email)
        started = time.perf_counter()
        try:
            cmd = bots.choose_command(
                state, side, kind, budget, _seed(settings, game.id, state["seq"], side)
            )
            engine.apply_in_place(state, side, cmd)
        except Exception:  # the human's move stands; `catch_up` tries again next pass
            log.exception("game #%s: the %s bot (%s) failed to move", game.id, side, kind)
            break
        seq += 1
        move = Move(game_id=game.id, seq=seq, side=side, command=cmd, created_at=now)
        session.add(move)
        moves.append(move)
        log.info(
            "game #%s: %s bot (%s) plays %r in %.2fs",
            game.id,
            side,
            kind,
            cmd,
            time.perf_counter() - started,
        )
    return moves


def store(game: Game, state: engine.GameState, now: datetime) -> None:
    """Write the snapshot after bot moves (and mark the game over if it is)."""
    game.snapshot = engine.to_json(state)
    game.updated_at = now
    if engine.result(state) is not None:
        game.status = "over"
