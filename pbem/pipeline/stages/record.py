"""The ``record`` stage: append the canonical moves and store the new snapshot.

An accepted ``undo`` is logged first, then the mail's commands as the engine wrote them
(canonical, so `pbem replay` survives a later alias or parser change), then the server's own
moves (``autoplay``). A game whose result is decided is marked over. The mail's game lines are
kept under its reply key, so a re-sent copy is known (``check-repeat``).
"""

from __future__ import annotations

import engine
from pbem.pipeline import repeats
from pbem.pipeline.base import Context, Stage
from pbem.store import move_log
from pbem.store.move_log import DECLINED, MAIL, SERVER, NewMove


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
    own = len(moves) - sum(len(a.applied) for a in ctx.auto)
    sources = [MAIL] * own + [  # a trigger declined by default is nobody's decision
        DECLINED if a.why == "declined" else SERVER for a in ctx.auto for _ in a.applied
    ]
    move_log.append(
        s,
        game.id,
        (
            NewMove(side, command, source, inbound_id=ctx.inbound.id)
            for (side, command), source in zip(moves, sources, strict=True)
        ),
        ctx.now,
    )
    game.snapshot = engine.to_json(ctx.new_state)
    game.version += 1
    game.updated_at = ctx.now
    if engine.result(ctx.new_state) is not None:
        game.status = "over"
    s.add(game)
    ctx.inbound.outcome = "applied"
    repeats.remember(ctx)  # a re-sent copy of this mail is not applied again (check-repeat)


STAGE = Stage("record", "append the canonical moves and store the new snapshot", record)
