"""The ``load-game`` stage: lock the game row, load its seats and the position before this mail.

The lock (`pbem.store.db.lock_game`) holds for the mail's transaction: two mails of one game
are applied one after the other, never interleaved. A finished game answers ``game_over``.
"""

from __future__ import annotations

import engine
from pbem.outbox.queue import seats_of
from pbem.pipeline.base import Context, IgnoreMessage, RejectMessage, Stage
from pbem.store.db import lock_game


def load_game(ctx: Context) -> None:
    assert ctx.seat is not None and ctx.inbound is not None
    if ctx.game is None:  # ``invitation`` locked it already
        ctx.game = lock_game(ctx.session, ctx.seat.game_id)
    if ctx.game is None:
        raise IgnoreMessage(f"game {ctx.seat.game_id} is gone")
    ctx.seats = seats_of(ctx.session, ctx.game.id or 0)
    ctx.state = engine.from_json(ctx.game.snapshot)
    ctx.inbound.game_id, ctx.inbound.side = ctx.game.id, ctx.seat.side
    if ctx.game.status != "active":
        raise RejectMessage("the game is over", kind="game_over")


STAGE = Stage("load-game", "lock the game row and load the position before this mail", load_game)
