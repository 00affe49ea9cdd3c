"""Handlers for ``undo`` (take back the last mail) and ``say`` (table talk for the opponent).

``undo`` runs right after ``extract``: the mail's first line asks to take back the player's
last applied mail. The log is replayed (`pbem.games.undo.replay_moves`) to the position before that
mail; the engine decides whether it may be taken back (`engine.undo.undo_refusal`: nothing drawn,
no simultaneous reveal), and the server that nobody decided since (the last mail standing is
this player's alone). If so the mail's other lines apply to the restored position, all or
nothing as ever; ``record`` logs an ``undo`` move first. The opponent hears of it only if they
had been sent the move. ``table-talk`` (after ``record``) passes the ``say`` lines on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlmodel import col, select

import engine
from engine.undo import undo_refusal
from pbem.games.fairplay.export import engine_seed_of
from pbem.games.mailing import queue_mail
from pbem.games.undo import replay_moves
from pbem.outbox import notes as tabletalk
from pbem.outbox.queue import seats_of
from pbem.pipeline.base import Answered, Context, RejectMessage, handler
from pbem.pipeline.commands import meta_request
from pbem.store.models import Move, Seat


def _changes_nothing(ctx: Context) -> bool:
    """Only server words (help, status, card, history) and table talk: answered from any
    older report, since they cannot act on a question that is gone."""
    return bool(ctx.lines or ctx.talk) and all(meta_request(line) for line in ctx.lines)


def _other(side: str) -> str:
    return "nixon" if side == "kennedy" else "kennedy"


@handler(
    "undo",
    "'undo' first in a mail: restore the position before the player's last mail, "
    "if nothing was revealed since (engine.undo)",
)
def undo(ctx: Context) -> None:
    assert ctx.game is not None and ctx.state is not None and ctx.seat is not None
    if ctx.stale and not ctx.undo and not _changes_nothing(ctx):
        raise RejectMessage(ctx.stale)
    if not ctx.undo:
        if ctx.talk and all(meta_request(line) for line in ctx.lines):
            _post_talk(ctx)  # table talk alone (or with help/status): passed on at once
            if not ctx.lines:
                raise Answered("table talk passed on")
        return
    moves = ctx.session.exec(
        select(Move).where(Move.game_id == ctx.game.id).order_by(col(Move.seq))
    ).all()

    replayed = replay_moves(ctx.game, moves, seed=engine_seed_of(ctx.session, ctx.game))
    if replayed.error or replayed.state != ctx.state:
        raise RejectMessage(
            "'undo': the move log cannot rebuild this game, so nothing can be "
            "taken back (an operator can check it with 'pbem replay')"
        )
    last = replayed.mails[-1] if replayed.mails else None
    other = _other(ctx.side).title()
    if last is None or ctx.side not in last.sides:
        raise RejectMessage(
            "'undo': your last mail cannot be taken back: "
            + ("nothing has been played yet" if last is None else f"{other} has decided since")
        )
    if last.sides != {ctx.side}:
        raise RejectMessage(
            f"'undo': your last mail cannot be taken back: moves were made for "
            f"{other} after it (standing or queued orders)"
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


@handler(
    "table-talk",
    "after an applied mail: pass its 'say' lines on; after an undo, rewind "
    "the seats' reported log and tell the opponent if they had seen the move",
)
def table_talk(ctx: Context) -> None:
    assert ctx.game is not None and ctx.state is not None
    if ctx.undone is not None:
        size = len(ctx.state["log"])  # the position the undo restored
        for side, seat in seats_of(ctx.session, ctx.game.id or 0).items():
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
        _post_talk(ctx)


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


def _post_talk(ctx: Context) -> None:
    assert ctx.game is not None
    tabletalk.post(
        ctx.session,
        ctx.game.id or 0,
        to_side=_other(ctx.side),
        from_side=ctx.side,
        kind="say",
        text="\n".join(ctx.talk),
        now=ctx.now,
    )
    ctx.talk = []
