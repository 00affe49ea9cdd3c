"""The ``apply`` stage: apply every line to a copy of the position, all or nothing.

Either every line applies, or none does and the reply names the failing line with the
engine's reason and "did you mean" hints. A line that answers later questions ahead gets, in its
result, what became of each part (`pbem.games.ahead`); the parts kept for a later question go to
the seat's queue (``autoplay``). R17: the reply then shows the position *before* the
mail, and after earlier lines that drew cards or cubes not even the reason is given, so a
deliberately failing line can never be used to peek at draws or re-roll them.
"""

from __future__ import annotations

import engine
from engine.explain import overspend
from pbem.games.ahead import sort_out
from pbem.pipeline.base import Context, RejectMessage, Stage
from pbem.pipeline.lines import did_you_mean


def apply_commands(ctx: Context) -> None:
    assert ctx.state is not None
    g = ctx.state
    start = len(ctx.results)  # an accepted 'undo' is already there
    for i, line in enumerate(ctx.lines):
        try:
            after = engine.copy_state(g)  # g stays the position before the line
            canonical = engine.apply_in_place(after, ctx.side, line)
        except engine.CommandError as exc:
            why = _reason(exc, line, i, ctx.state, g, ctx.side)
            ctx.results.append({"line": line, "ok": False, "message": why})
            ctx.results.extend(
                {"line": rest, "ok": False, "message": "not read (after the error)"}
                for rest in ctx.lines[i + 1 :]
            )
            for r in ctx.results[: start + i]:
                r.update(
                    ok=False,
                    message="fine on its own, but not applied: a mail applies all or nothing",
                )
            if ctx.undone is not None:
                ctx.state = ctx.undone  # nothing applied, not even the undo (R17)
            raise RejectMessage(f"line {i + 1} {line!r}: {why}") from None
        parts = sort_out(g, after, ctx.side, line, canonical) if _declares(line) else None
        g = after
        ctx.applied.extend(canonical)
        ctx.results.append({"line": line, "ok": True, "message": parts.message if parts else "ok"})
        if parts is not None:
            ctx.kept.extend(kept for kept, _ in parts.kept)
    ctx.new_state = g if g is not ctx.state else engine.copy_state(g)


STAGE = Stage("apply", "apply every line to a copy of the position, all or nothing", apply_commands)


def _declares(line: str) -> bool:
    """The line may declare answers ahead (a list after its command: ``endorsement: east,
    strategy 55``, ``advertise 17: east 2``, ``resolve 36 58``); see `pbem.games.ahead`."""
    return len(line.replace(":", " ").replace(",", " ").split()) > 2


def _reason(
    exc: engine.CommandError,
    line: str,
    i: int,
    before: engine.GameState,
    now: engine.GameState,
    side: str,
) -> str:
    """What the player is told: overspend in the one-line form, else the engine's reason with
    "did you mean" (details only where R17 allows them, see `_safe_reason`)."""
    why = _safe_reason(exc, i, before, now)
    if i > 0 and _hidden_drawn(before, now):
        return why
    short = overspend(now, side, line)
    if short:
        return f"{exc.kind}: {short}"
    if isinstance(exc, engine.CommandSyntaxError | engine.IllegalCommandError):
        hints = did_you_mean(line, engine.legal_commands(now, side))
        if hints:
            return why + " — did you mean " + " or ".join(f"'{h}'" for h in hints) + "?"
        first = _answer_first(now, side, line)
        if first:
            return f"{why} — answer this question first: '{first}', then '{line}' on the next line"
    return why


_LET_GO = ("decline", "done")  # the answers that let a question go by (R6.7, an event's "up to")


def _answer_first(g: engine.GameState, side: str, line: str) -> str | None:
    """The answer that lets the question now go by ('decline' a trigger, R6.7), after which
    *line* is legal, so the player meant it for the next question ("event 52" sent while a
    trigger question was open); None if there is none or the answer would draw cards or cubes
    (R17: a rejected mail reveals nothing that was drawn)."""
    for answer in (c for c in engine.legal_commands(g, side) if c in _LET_GO):
        probe = engine.copy_state(g)
        try:
            engine.apply_in_place(probe, side, answer)
            if _hidden_drawn(g, probe) or side not in engine.active_sides(probe):
                continue
            engine.parse(line, engine.legal_commands(probe, side))
        except engine.CommandError:
            continue
        return answer
    return None


def _hidden_drawn(before: engine.GameState, after: engine.GameState) -> bool:
    """True if applying lines consumed randomness or drew from a hidden deck."""
    return (
        before["rng"] != after["rng"]
        or len(before["deck"]) != len(after["deck"])
        or len(before["endorse_deck"]) != len(after["endorse_deck"])
    )


def _safe_reason(
    exc: engine.CommandError, i: int, before: engine.GameState, after: engine.GameState
) -> str:
    """The error as the player may see it (R17: never the position after the prefix).

    The reason only: the mail quotes the line beside it and lists what is legal now (grouped,
    for the position before the mail) below it. After earlier lines that drew cards or cubes
    not even the reason is given (no peeking by failing on purpose).
    """
    if i > 0 and _hidden_drawn(before, after):
        return (
            f"{exc.kind}: this line could not follow the lines before it (details withheld: "
            "they drew cards or cubes, which a rejected mail may not reveal, R17)"
        )
    return f"{exc.kind}: {exc.reason}"
