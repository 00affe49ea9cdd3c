"""The ``observers`` stage: queue the public report to the game's observers.

Observers see the public board and the public log since the mail's position, never a hand or
a secret choice (`pbem.games.fairplay.observers.notify_observers`).
"""

from __future__ import annotations

from pbem.games.fairplay.observers import notify_observers
from pbem.pipeline.base import Context, Stage


def observers(ctx: Context) -> None:

    assert ctx.game is not None and ctx.new_state is not None and ctx.state is not None
    notify_observers(
        ctx.session, ctx.settings, ctx.game, ctx.new_state, since=len(ctx.state["log"]), now=ctx.now
    )


STAGE = Stage("observers", "queue the public report to the game's observers", observers)
