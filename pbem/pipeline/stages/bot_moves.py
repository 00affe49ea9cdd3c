"""The ``bot-moves`` stage: a computer-played seat answers in the same pass.

After a human's move is recorded, every ``bot:`` seat that must decide plays at once (its
commands logged as moves, like a player's, each with its reason), so the report that follows
already shows the bot's reply and asks the human for the next decision. The bot never thinks
here, inside the mail's transaction: without a plan made from this very position the stage
raises `pbem.games.bots.ThinkFirst`, and the runner rolls back, thinks and runs the mail again
with the plan (`pbem.pipeline.runner`). See `pbem.games.bots`.
"""

from __future__ import annotations

import engine
from pbem.games.bots import play_bots, store
from pbem.pipeline.base import Context, Stage


def bot_moves(ctx: Context) -> None:
    assert ctx.game is not None and ctx.new_state is not None
    if ctx.game.status != "active" or ctx.bots_later:
        return
    deciding = engine.active_sides(ctx.new_state)
    if play_bots(
        ctx.session,
        ctx.settings,
        ctx.game,
        ctx.new_state,
        ctx.seats,
        ctx.now,
        ctx.bot_plan,
        think_here=False,
    ):
        ctx.before_bots = deciding  # the player's decision ended here (the ``clock`` stage)
        store(ctx.game, ctx.new_state, ctx.now)
        ctx.session.add(ctx.game)


STAGE = Stage(
    "bot-moves", "let computer-played seats make the moves now due (bot:KIND seats)", bot_moves
)
