"""The ``check-fresh`` stage: an older key is accepted while its question is still being asked.

Each report's reply key carries the seat's key generation. A mail answering an older report
passes when it holds only seat words, or when the question that report asked is still the one
being asked (``support OH`` one point at a time); else it is marked stale, and ``undo`` rejects
it unless it changes nothing in the game (an ``undo``, help, status or table talk).
"""

from __future__ import annotations

from engine.question import question
from pbem.outbox import notes as tabletalk
from pbem.pipeline.base import Context, Stage
from pbem.pipeline.seat_words import only_seat_words


def check_fresh(ctx: Context) -> None:
    assert ctx.key is not None and ctx.seat is not None and ctx.state is not None
    if ctx.key.gen == ctx.seat.key_gen:
        return

    if only_seat_words(ctx):
        return
    asked = tabletalk.asked_under(ctx.session, ctx.seat.game_id, ctx.seat.side, ctx.key.gen)
    if asked is not None and asked == question(ctx.state, ctx.seat.side):
        return  # e.g. 'support OH' one point at a time: still the same step and card
    ctx.stale = (  # decided after `extract`: an 'undo' answers no question and passes
        "your mail answers an older report whose question is no longer the one being asked "
        "(the game has moved on since), so nothing was applied; the current position and "
        "question are below — reply to this mail"
    )


STAGE = Stage(
    "check-fresh", "an older key is accepted while its question is still being asked", check_fresh
)
