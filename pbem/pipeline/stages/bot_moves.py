"""The ``bot-moves`` stage: a computer-played seat answers in the same pass.

After a human's move is recorded, every ``bot:`` seat that must decide plays at once (its
commands logged as moves, like a player's, each with its reason), and a question that leaves a
human which their own orders answer ('standing trigger never', a queued line, a forced choice)
is answered as after a human opponent's move, the bot then moving again, until a human must
decide (`pbem.games.bot_turns`). So the report that follows shows the bot's replies and asks
the human for their next real decision. The bot never thinks here, inside the mail's
transaction: without a plan made from the very position it must move in, the stage raises
`pbem.games.bots.ThinkFirst`, and the runner rolls back, thinks and runs the mail again with
the plan (`pbem.pipeline.runner`). See `pbem.games.bots`.
"""

from __future__ import annotations

import engine
from pbem.games.bot_turns import play_until_asked
from pbem.games.bots import store
from pbem.pipeline.base import Context, Stage


def bot_moves(ctx: Context) -> None:
    assert ctx.game is not None and ctx.new_state is not None and ctx.inbound is not None
    if ctx.game.status != "active" or ctx.bots_later:
        return
    deciding = engine.active_sides(ctx.new_state)
    played = play_until_asked(
        ctx.session,
        ctx.settings,
        ctx.game,
        ctx.new_state,
        ctx.seats,
        ctx.now,
        ctx.bot_plans,
        think_here=False,
        inbound_id=ctx.inbound.id,
    )
    if played.moves:
        ctx.before_bots = deciding  # the player's decision ended here (the ``clock`` stage)
        ctx.auto += played.auto
        store(ctx.game, ctx.new_state, ctx.now)
        ctx.session.add(ctx.game)


STAGE = Stage(
    "bot-moves",
    "let computer-played seats make the moves now due (bot:KIND seats), and the humans' orders "
    "answer what they can between them",
    bot_moves,
)
