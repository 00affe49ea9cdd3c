"""The ``report`` stage: queue reports to the seats that should hear of this mail.

`pbem.games.notify.queue_reports` decides who is mailed and with what; the mail's help,
status, history and card requests are answered after the moves (`pbem.pipeline.answers`).
"""

from __future__ import annotations

from pbem.games.notify import queue_reports
from pbem.pipeline.answers import queue_meta
from pbem.pipeline.base import Context, Stage


def report(ctx: Context) -> None:
    assert ctx.game is not None and ctx.new_state is not None and ctx.seat is not None
    queue_reports(ctx)
    if ctx.meta:
        ctx.state = ctx.new_state
        ctx.seat = ctx.seats[ctx.side]
        queue_meta(ctx)


STAGE = Stage(
    "report", "queue reports to the seats that should hear of this mail (pbem.games.notify)", report
)
