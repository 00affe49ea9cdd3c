"""Table talk: a mail's ``say`` lines passed on to the opponent (`pbem.outbox.notes`).

Posted by ``undo`` when a mail is only talk (and help or status), else by ``table-talk`` after
the mail's moves are recorded.
"""

from __future__ import annotations

from pbem.outbox import notes as tabletalk
from pbem.pipeline.base import Context


def opponent(side: str) -> str:
    """The other side."""
    return "nixon" if side == "kennedy" else "kennedy"


def post_talk(ctx: Context) -> None:
    """Pass the mail's ``say`` lines (``ctx.talk``) on to the opponent."""
    assert ctx.game is not None
    tabletalk.post(
        ctx.session,
        ctx.game.id or 0,
        to_side=opponent(ctx.side),
        from_side=ctx.side,
        kind="say",
        text="\n".join(ctx.talk),
        now=ctx.now,
    )
    ctx.talk = []
