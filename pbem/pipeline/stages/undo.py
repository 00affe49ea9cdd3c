"""The ``undo`` stage: ``undo`` first in a mail takes back the player's last applied mail.

Runs right after ``extract``. The log is replayed (`pbem.games.undo.replay_moves`) to the
position before that mail; the engine decides whether it may be taken back
(`engine.undo.undo_refusal`: nothing drawn, no simultaneous reveal), and the server that nobody
decided since (the last mail standing is this player's alone). If so the mail's other lines
apply to the restored position, all or nothing as ever; ``record`` logs an ``undo`` move first,
and ``table-talk`` tells the opponent only if they had been sent the move.

Here too a stale mail (``check-fresh``) is rejected unless it changes nothing in the game, and
a mail of table talk alone (or with help/status) is passed on (`pbem.pipeline.talk`).
"""

from __future__ import annotations

from sqlmodel import col, select

from engine.data import other
from engine.undo import undo_refusal
from pbem.games.fairplay.export import engine_seed_of
from pbem.games.undo import position_differs, replay_moves
from pbem.pipeline.answers import meta_request
from pbem.pipeline.base import Answered, Context, RejectMessage, Stage
from pbem.pipeline.talk import post_talk
from pbem.store.models import Move


def _changes_nothing(ctx: Context) -> bool:
    """Only server words (help, status, card, history) and table talk: answered from any
    older report, since they cannot act on a question that is gone."""
    return bool(ctx.lines or ctx.talk) and all(meta_request(line) for line in ctx.lines)


def undo(ctx: Context) -> None:
    assert ctx.game is not None and ctx.state is not None and ctx.seat is not None
    if ctx.stale and not ctx.undo and not _changes_nothing(ctx):
        raise RejectMessage(ctx.stale)
    if not ctx.undo:
        if ctx.talk and all(meta_request(line) for line in ctx.lines):
            post_talk(ctx)  # table talk alone (or with help/status): passed on at once
            if not ctx.lines:
                raise Answered("table talk passed on")
        return
    moves = ctx.session.exec(
        select(Move).where(Move.game_id == ctx.game.id).order_by(col(Move.seq))
    ).all()

    replayed = replay_moves(ctx.game, moves, seed=engine_seed_of(ctx.session, ctx.game))
    if replayed.error or position_differs(replayed.state, ctx.state):
        raise RejectMessage(
            "'undo': the move log cannot rebuild this game, so nothing can be "
            "taken back (an operator can check it with 'pbem replay')"
        )
    last = replayed.mails[-1] if replayed.mails else None
    other_side = other(ctx.side).title()
    if last is None or ctx.side not in last.sides:
        raise RejectMessage(
            "'undo': your last mail cannot be taken back: "
            + ("nothing has been played yet" if last is None else f"{other_side} has decided since")
        )
    if last.sides != {ctx.side}:
        raise RejectMessage(
            f"'undo': your last mail cannot be taken back: moves were made for "
            f"{other_side} after it (standing or queued orders)"
        )
    if last.before is None:
        raise RejectMessage("'undo': your last mail cannot be taken back: it is too old")
    why = undo_refusal(last.before, ctx.state, ctx.state, ctx.side)
    if why:
        raise RejectMessage(
            f"'undo': your last mail cannot be taken back: {why}. Nothing in this mail was applied"
        )
    ctx.results.append({"line": "undo", "ok": True, "message": "your last mail was taken back"})
    ctx.undone, ctx.state = ctx.state, last.before


STAGE = Stage(
    "undo",
    "'undo' first in a mail: restore the position before the player's last mail, "
    "if nothing was revealed since (engine.undo)",
    undo,
)
