"""Table talk: a mail's ``say`` lines passed on to the opponent (`pbem.outbox.notes`).

Posted by ``undo`` when a mail is only talk (and help or status), else by ``table-talk`` after
the mail's moves are recorded.
"""

from __future__ import annotations

from engine.data import other
from pbem.outbox import notes as tabletalk
from pbem.pipeline.base import Context


def post_talk(ctx: Context) -> None:
    """Pass the mail's ``say`` lines (``ctx.talk``) on to the opponent; the results say so."""
    assert ctx.game is not None
    tabletalk.post(
        ctx.session,
        ctx.game.id or 0,
        to_side=other(ctx.side),
        from_side=ctx.side,
        kind="say",
        text="\n".join(ctx.talk),
        now=ctx.now,
    )
    first = ctx.talk[0].strip() if ctx.talk else ""
    ctx.results.append(
        {
            "line": "say " + (first[:50] + "…" if len(first) > 50 else first),
            "ok": True,
            "message": f"passed to {other(ctx.side).title()} with their next mail",
        }
    )
    ctx.talk = []
