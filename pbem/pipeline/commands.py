"""Handlers that act on a player's mail: extract lines, answer help/status, apply, record, report.

All command lines of one mail apply atomically on a copy of the position:
either every line applies, or none does and the reply names the failing line
(R17: the reply then shows the position *before* the mail, so a deliberately
failing line can never be used to peek at draws or re-roll them).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func
from sqlmodel import select

import engine
from pbem.mail import extract_commands
from pbem.models import Move
from pbem.notify import queue_reports
from pbem.pipeline.base import Answered, Context, RejectMessage, handler
from pbem.replies import queue_mail, seats_of

META_COMMANDS = tuple(engine.META_WORDS)


@handler("extract", "take the command lines from the reply (quotes and signatures stripped)")
def extract(ctx: Context) -> None:
    assert ctx.parsed is not None
    found = extract_commands(ctx.parsed.text, max_lines=ctx.settings.max_lines)
    ctx.lines, ctx.ignored = list(found.lines), list(found.ignored)
    if not ctx.lines:
        raise RejectMessage("no command found in your mail (send 'help' for the command list)")


@handler("meta-commands", "answer 'help' and 'status' lines; they never change the game")
def meta_commands(ctx: Context) -> None:
    game_lines = []
    for line in ctx.lines:
        word = line.strip().lower()
        if word in META_COMMANDS:
            ctx.meta.append(word)
        else:
            game_lines.append(line)
    ctx.lines = game_lines
    if ctx.lines:
        return
    _queue_meta(ctx)
    raise Answered("answered " + ", ".join(ctx.meta))


def _queue_meta(ctx: Context) -> None:
    assert ctx.game is not None and ctx.seat is not None and ctx.state is not None
    assert ctx.inbound is not None and ctx.parsed is not None
    for kind in dict.fromkeys(ctx.meta):
        queue_mail(ctx.session, ctx.settings, kind=kind, game=ctx.game, seat=ctx.seat,
                   state=ctx.state, cause=f"in{ctx.inbound.id}", now=ctx.now,
                   in_reply_to=ctx.parsed.message_id, advance_log=False)


@handler("apply", "apply every line to a copy of the position, all or nothing")
def apply_commands(ctx: Context) -> None:
    assert ctx.state is not None
    g = engine.copy_state(ctx.state)
    for i, line in enumerate(ctx.lines):
        try:
            engine.apply_in_place(g, ctx.side, line)
        except engine.CommandError as exc:
            why = _safe_reason(exc, i, ctx.state, g)
            ctx.results.append({"line": line, "ok": False, "message": why})
            ctx.results.extend({"line": rest, "ok": False, "message": "not read (after the error)"}
                               for rest in ctx.lines[i + 1:])
            for r in ctx.results[:i]:
                r.update(ok=False, message="fine on its own, but not applied: a mail applies "
                                           "all or nothing")
            raise RejectMessage(f"line {i + 1} {line!r}: {why}") from None
        ctx.results.append({"line": line, "ok": True, "message": "ok"})
    ctx.new_state = g


def _hidden_drawn(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """True if applying lines consumed randomness or drew from a hidden deck."""
    return (before["rng"] != after["rng"] or len(before["deck"]) != len(after["deck"])
            or len(before["endorse_deck"]) != len(after["endorse_deck"]))


def _safe_reason(exc: engine.CommandError, i: int, before: dict[str, Any],
                 after: dict[str, Any]) -> str:
    """The error as the player may see it (R17: never the position after the prefix).

    On the first line the engine's full message (with what is legal now) is the
    truth about the position before the mail. After earlier lines it would
    describe the position they produced, so only the reason is given, and not
    even that if those lines drew cards or cubes (no peeking by failing on purpose).
    """
    if i == 0:
        return str(exc)
    if _hidden_drawn(before, after):
        return (f"{exc.kind}: this line could not follow the lines before it (details withheld: "
                "they drew cards or cubes, which a rejected mail may not reveal, R17)")
    return f"{exc.kind}: {exc.text!r}: {exc.reason}"


@handler("record", "append the moves and store the new snapshot")
def record(ctx: Context) -> None:
    assert ctx.game is not None and ctx.new_state is not None and ctx.inbound is not None
    game, s = ctx.game, ctx.session
    seq = s.exec(select(func.max(Move.seq)).where(Move.game_id == game.id)).one() or 0
    assert game.id is not None
    moves = [(ctx.side, line) for line in ctx.lines] + [(a.side, a.command) for a in ctx.auto]
    for offset, (side, line) in enumerate(moves):
        s.add(Move(game_id=game.id, seq=seq + offset + 1, side=side, command=line,
                   inbound_id=ctx.inbound.id, created_at=ctx.now))
    game.snapshot = engine.to_json(ctx.new_state)
    game.version += 1
    game.updated_at = ctx.now
    if engine.result(ctx.new_state) is not None:
        game.status = "over"
    s.add(game)
    ctx.inbound.outcome = "applied"


@handler("report", "queue reports to the seats that should hear of this mail (pbem.notify)")
def report(ctx: Context) -> None:
    assert ctx.game is not None and ctx.new_state is not None and ctx.seat is not None
    queue_reports(ctx)
    if ctx.meta:
        ctx.state = ctx.new_state
        ctx.seat = seats_of(ctx.session, ctx.game.id or 0)[ctx.side]
        _queue_meta(ctx)
