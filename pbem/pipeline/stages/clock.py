"""The ``clock`` stage: run the clocks for the recorded move: stop the mover's, start the next.

`pbem.games.timekeeping.moves.after_move` charges the mover's time and starts the clock of the
side asked next (after an accepted ``undo``, from the clocks as they were before the undone
mail); a player back from vacation by this move is told so among the results of
their orders.
"""

from __future__ import annotations

from pbem.games.timekeeping.moves import after_move
from pbem.pipeline.base import Context, Stage


def clock(ctx: Context) -> None:
    assert ctx.game is not None and ctx.state is not None and ctx.new_state is not None
    back = after_move(
        ctx.session,
        ctx.settings,
        ctx.game,
        ctx.state,
        ctx.new_state,
        ctx.side,
        ctx.now,
        seats=ctx.seats,
        mid=ctx.before_bots,
        undone=ctx.undone is not None,
    )
    for note in back:  # the player's report says so under "results of your orders"
        ctx.results.append({"line": "vacation end", "ok": True, "message": note})


STAGE = Stage(
    "clock", "run the clocks for the recorded move: stop the mover's, start the next", clock
)
