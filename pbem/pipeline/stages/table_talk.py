"""The ``table-talk`` stage: pass an applied mail's ``say`` lines on; rewind after an ``undo``.

After an accepted ``undo`` each seat's reported log is rewound to the restored position, and
the opponent, if they had been sent the move, is told it was taken back (and sent a status
mail when the question they were asked is withdrawn).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine
from pbem.games.mailing import queue_mail
from pbem.outbox import notes as tabletalk
from pbem.pipeline.base import Context, Stage
from pbem.pipeline.talk import post_talk
from pbem.store.models import Seat


def table_talk(ctx: Context) -> None:
    assert ctx.game is not None and ctx.state is not None
    if ctx.undone is not None:
        size = len(ctx.state["log"])  # the position the undo restored
        for side, seat in ctx.seats.items():
            seen = ctx.undone["log"][size : seat.last_log]
            seat.last_log = min(seat.last_log, size)
            ctx.session.add(seat)
            if side != ctx.side and seen:  # they were sent the move: say it was taken back
                asked = side not in engine.active_sides(ctx.new_state or ctx.state)
                tabletalk.post(
                    ctx.session,
                    ctx.game.id or 0,
                    to_side=side,
                    from_side=ctx.side,
                    kind="undo",
                    text=_undo_notice(ctx.side, side, seen, asked),
                    now=ctx.now,
                )
                if asked:
                    _tell_now(ctx, seat)  # a question they were asked is withdrawn
    if ctx.talk:
        post_talk(ctx)


STAGE = Stage(
    "table-talk",
    "after an applied mail: pass its 'say' lines on; after an undo, rewind "
    "the seats' reported log and tell the opponent if they had seen the move",
    table_talk,
)


def _undo_notice(mover: str, to: str, seen: Sequence[Mapping[str, Any]], withdrawn: bool) -> str:
    """ "Kennedy took back …", the log lines *to* had been sent that no longer stand (indented),
    and whether the question they were sent is gone."""
    lines = [f"  {e['text']}" for e in seen if e.get("to") in (None, to)]
    end = (
        "The position is as it was before them; the question you were sent about it is "
        "withdrawn: nothing for you to send now."
        if withdrawn
        else "The position is as it was before them."
    )
    return "\n".join(
        [
            f"{mover.title()} took back their last move (undo). These lines, which "
            "you were sent, no longer stand:",
            *lines,
            end,
        ]
    )


def _tell_now(ctx: Context, seat: Seat) -> None:
    assert ctx.game is not None and ctx.inbound is not None
    state = ctx.new_state or ctx.state
    assert state is not None
    queue_mail(
        ctx.session,
        ctx.settings,
        kind="status",
        game=ctx.game,
        seat=seat,
        state=state,
        cause=f"in{ctx.inbound.id}.undo",
        now=ctx.now,
    )
