"""The ``observers`` stage: send the game's observers what this mail made public.

`pbem.games.fairplay.observer_feed.catch_up` decides what each observer is sent (the public
log and events since their last mail); the worker pass calls it too, for what the server
does by itself.
"""

from __future__ import annotations

from pbem.games.fairplay.observer_feed import catch_up
from pbem.pipeline.base import Context, Stage


def observers(ctx: Context) -> None:
    assert ctx.game is not None
    catch_up(ctx.session, ctx.settings, ctx.game, ctx.now)


STAGE = Stage("observers", "send the game's observers what this mail made public", observers)
