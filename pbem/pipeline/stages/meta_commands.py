"""The ``meta-commands`` stage: take the help, status, history and card lines out of the mail.

They never change the game. A mail of these lines alone is answered here, one mail per request
(`pbem.pipeline.answers.queue_meta`); with game lines they are answered by ``report``, after
the moves, so a ``status`` shows the position the mail made.
"""

from __future__ import annotations

from pbem.pipeline.answers import ANSWERED, meta_request, queue_meta
from pbem.pipeline.base import Answered, Context, Stage


def meta_commands(ctx: Context) -> None:
    game_lines = []
    for line in ctx.lines:
        request = meta_request(line)
        if request:
            ctx.meta.append(request)
        else:
            game_lines.append(line)
    ctx.lines = game_lines
    if ctx.lines or ctx.undo:
        return
    queue_meta(ctx)
    raise Answered("answered " + ", ".join(ctx.meta))


STAGE = Stage(
    "meta-commands",
    "answer " + ", ".join(f"'{w}'" for w in ANSWERED) + " lines; they never change the game",
    meta_commands,
)
