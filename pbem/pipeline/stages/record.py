"""The ``record`` stage: append the canonical moves and store the new snapshot.

An accepted ``undo`` is logged first, then the mail's commands as the engine wrote them
(canonical, so `pbem replay` survives a later alias or parser change), then the server's own
moves (``autoplay``). A game whose result is decided is marked over.
"""

from __future__ import annotations

import engine
from pbem.pipeline import rows
from pbem.pipeline.base import Context, Stage


def record(ctx: Context) -> None:
    assert ctx.game is not None and ctx.new_state is not None and ctx.inbound is not None
    game, s = ctx.game, ctx.session
    assert game.id is not None
    # canonical commands, not the lines as written: a later alias or parser change cannot
    # break `pbem replay` (migration 0005 rewrote the older logs the same way)
    moves = (
        ([(ctx.side, "undo")] if ctx.undone is not None else [])
        + [(ctx.side, cmd) for cmd in ctx.applied]
        + [(a.side, c) for a in ctx.auto for c in a.applied]
    )
    if moves:
        seq = rows.last_move_seq(s, game.id)
        rows.insert_moves(s, game.id, seq + 1, moves, inbound_id=ctx.inbound.id, now=ctx.now)
    game.snapshot = engine.to_json(ctx.new_state)
    game.version += 1
    game.updated_at = ctx.now
    if engine.result(ctx.new_state) is not None:
        game.status = "over"
    s.add(game)
    ctx.inbound.outcome = "applied"


STAGE = Stage("record", "append the canonical moves and store the new snapshot", record)
