"""The engine's public operations: who decides, what is legal, applying a command.

``apply`` never mutates its argument; ``apply_in_place`` is the fast variant
for playouts and bots (on error a multi-step compact command may leave the
state part-applied, so servers use ``apply``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import engine.events.cards
import engine.phases  # noqa: F401  (registers every phase step)
from engine import commands
from engine.data import CARDS, SIDES
from engine.effects import prevented_by
from engine.errors import GameOverError, IllegalCommandError, NotYourTurnError
from engine.flow import STEPS, advance, deciding_sides, step_of, top
from engine.phases.momentum import ahead_problem, swap_in_order
from engine.phases.turn import keep_first
from engine.question import step_name
from engine.state import GameState, copy_state, setup


def new_game(seed: int, *, edition: str = "zman", options: Iterable[str] = ()) -> GameState:
    """Set up a new game (R2, `engine.state.setup`) and run it to the first decision.

    ``edition`` is ``"zman"`` (default) or ``"gmt"``; ``options`` may hold
    ``"vice_presidents"`` and ``"restricted_positioning"``, GMT only (R15.3, R16.7).
    """
    g = setup(seed, edition=edition, options=options)
    advance(g)
    return g


def active_sides(g: GameState) -> set[str]:
    """The sides that must decide now (both for simultaneous steps); empty when over."""
    if g["result"] is not None:
        return set()
    return set(deciding_sides(g))


def legal_commands(g: GameState, side: str) -> list[str]:
    """Every legal command for ``side`` now, as canonical text `apply` accepts."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}: expected 'kennedy' or 'nixon'")
    stack = g["stack"]
    if not stack or g["result"] is not None:
        return []
    f = stack[-1]
    step = STEPS[f["step"]]
    if step.auto or (side != f["side"] if step.one_side else side not in step.sides(g, f)):
        return []
    return step.legal(g, f, side)


def decision(g: GameState, side: str | None) -> str:
    """The current decision in words, for that side (or an observer)."""
    if g["result"] is not None:
        return "The game is over."
    f = top(g)
    if f is None:
        return "The game is over."
    step = step_of(f)
    deciding = deciding_sides(g)
    if side in deciding:
        return step.prompt(g, f, side)
    who = " and ".join(s.title() for s in deciding) or "nobody"
    return f"Waiting for {who} ({step_name(f['step'])})."


def ahead_example(g: GameState, side: str) -> str | None:
    """The current step's one-line example answering ``side``'s next questions ahead, if any."""
    if side not in active_sides(g):
        return None
    f = top(g)
    return None if f is None else step_of(f).ahead_example(g, f, side)


def result(g: GameState) -> dict[str, Any] | None:
    """``None`` until the game ends; then the final tally (R13.6, R14)."""
    r = g["result"]
    return None if r is None else dict(r)


def apply(g: GameState, side: str, text: str) -> GameState:
    """Parse, validate and apply one command line; returns a new state."""
    g2 = copy_state(g)
    apply_in_place(g2, side, text)
    return g2


def apply_logged(g: GameState, side: str, text: str) -> tuple[GameState, list[str]]:
    """As `apply`, and the canonical commands the line stood for, in the order applied
    (``campaign 17: NY 2`` -> ``["campaign 17", "check NY 2"]``): what a move log stores, so
    a later alias or parser change cannot break its replay."""
    g2 = copy_state(g)
    return g2, apply_in_place(g2, side, text)


def apply_in_place(g: GameState, side: str, text: str) -> list[str]:
    """As `apply`, but mutating ``g`` (fast path for playouts); returns the canonical commands
    applied (see `apply_logged`)."""
    if g["result"] is not None:
        raise GameOverError(text, "the game has ended", decision="nothing: the game is over")
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}: expected 'kennedy' or 'nixon'")
    stack = g["stack"]
    if stack:  # fast path: the canonical text of a legal command (as `_is_legal_now`, then `_act`)
        f = stack[-1]
        step = STEPS[f["step"]]
        if (
            not step.auto
            and (side == f["side"] if step.one_side else side in step.sides(g, f))
            and step.is_legal(g, f, side, text)
        ):
            step.act(g, f, side, text.split())
            g["seq"] += 1
            advance(g)
            return [text]
    legal = legal_commands(g, side)
    if not legal:
        raise NotYourTurnError(
            text, f"{side.title()} has nothing to decide now", decision=decision(g, side)
        )
    known: list[str] | None = legal  # still valid for the first step only
    applied: list[str] = []
    parsed = commands.parse(text, legal)
    declared = [
        replace(c, command=swap_in_order(g, c.command))
        for c in parsed
        if isinstance(c, commands.Declared)
    ]
    line = parsed[0].split()[0] if isinstance(parsed[0], str) else ""
    problem = declared and ahead_problem(g, side, line, [d.command for d in declared])
    if problem:  # said before any draw, so it tells nothing (R17)
        raise IllegalCommandError(text, problem, decision=decision(g, side), legal=legal)
    for cmd in parsed:
        if isinstance(cmd, commands.Spend):
            applied.extend(_spend(g, side, text, cmd, known))
        elif not isinstance(cmd, commands.Declared):
            _apply_one(g, side, text, cmd, known)
            applied.append(cmd)
        known = None
    return _with_kept(applied + _declared(g, side, declared), g, side, declared)


def _is_legal_now(g: GameState, side: str, cmd: str) -> bool:
    """``cmd in legal_commands(g, side)``, asking the step (cheaper than listing everything)."""
    f = top(g)
    if f is None:
        return False
    step = step_of(f)
    return not step.auto and side in step.sides(g, f) and step.is_legal(g, f, side, cmd)


def _act(g: GameState, side: str, cmd: str) -> None:
    """Apply one legal canonical command and run the flow to the next decision."""
    f = top(g)
    assert f is not None
    step_of(f).act(g, f, side, cmd.split())
    g["seq"] += 1
    advance(g)


def _apply_one(
    g: GameState, side: str, text: str, cmd: str, legal: list[str] | None = None
) -> None:
    if legal is None:
        if _is_legal_now(g, side, cmd):
            _act(g, side, cmd)
            return
        legal = legal_commands(g, side)
    if cmd not in legal:
        raise IllegalCommandError(
            text, _why(g, side, cmd, legal), decision=decision(g, side), legal=legal
        )
    _act(g, side, cmd)


def _spend(
    g: GameState, side: str, text: str, s: commands.Spend, legal: list[str] | None
) -> list[str]:
    if legal is None:
        legal = legal_commands(g, side)
    check = f"check {s.state} {s.n}"
    if check in legal:
        _apply_one(g, side, text, check, legal)
        return [check]
    support = f"support {s.state}"
    for i in range(s.n):
        _apply_one(g, side, text, support, legal if i == 0 else None)
    return [support] * s.n


def _declared(g: GameState, side: str, declared: list[commands.Declared]) -> list[str]:
    """Apply steps declared before a draw as far as they still apply: while the step on top is
    this side's and one of them (the first written that fits) is legal in it; drop the rest
    (R17: never an error that would tell the player about the draw)."""
    left = [d.n for d in declared]
    done: list[str] = []
    while True:
        f = top(g)
        i = next(
            (
                i
                for i, d in enumerate(declared)
                if left[i]
                and f is not None
                and f["step"] in d.steps
                and _is_legal_now(g, side, d.command)
            ),
            None,
        )
        if i is None:
            return done
        _act(g, side, declared[i].command)
        left[i] -= 1
        done.append(declared[i].command)


def _with_kept(
    applied: list[str], g: GameState, side: str, declared: list[commands.Declared]
) -> list[str]:
    """Keep a declared next-turn initiative choice that did not arise in this mail, when the
    side's turn is over (`keep_first`); the log line then carries it (``strategy 40: first
    nixon``), so a replay keeps it too."""
    first = next(
        (
            d.command
            for d in declared
            if d.steps == commands.INITIATIVE and d.command not in applied
        ),
        None,
    )
    if first is None or not keep_first(g, side, first):
        return applied
    last = max((i for i, c in enumerate(applied) if c.startswith("strategy ")), default=None)
    if last is None:  # nothing of the turn's strategy in this mail: the line is the award's
        return applied
    return [*applied[:last], f"{applied[last]}: {first}", *applied[last + 1 :]]


_CARD_VERBS = ("event", "campaign", "advertise", "position", "strategy", "vp")


def _why(g: GameState, side: str, cmd: str, legal: list[str]) -> str:
    """Say precisely why a readable command is not legal."""
    words = cmd.split()
    if not legal:
        return f"{side.title()} has nothing to decide now"
    verbs = {c.split()[0] for c in legal}
    f = top(g)
    step = f["step"] if f is not None else ""
    card_step = words[0] in _CARD_VERBS and (
        (step == "action" and words[0] != "strategy")
        or (step == "strategy" and words[0] == "strategy")
    )
    if words[0] not in verbs and not card_step:
        choices = [f"'{v}'" for v in dict.fromkeys(c.split()[0] for c in legal)]
        if len(choices) == 1:
            return f"'{words[0]}' is not a choice at this point; the only choice is {choices[0]}"
        named = f"{', '.join(choices[:-1])} or {choices[-1]}"
        return f"'{words[0]}' is not a choice at this point; the choices are {named}"
    if card_step and len(words) > 1:
        card = int(words[1])
        label = f"#{card} {CARDS[card].name}"
        if card not in g["hands"][side]:
            return f"{label} is not in your hand"
        by = prevented_by(g, card)
        if words[0] == "event" and by is not None:
            return f"the event of {label} is prevented by #{by} {CARDS[by].name} (R6.4)"
        if words[0] == "event":
            return f"the event of {label} cannot be played now (not implemented, or its cost cannot be paid)"
        if words[-1] == "preempt":
            return (
                f"preempting {label} needs 2 momentum you may spend, and an event to preempt (R6.8)"
            )
        if words[0] == "strategy":
            return f"{label} is a Gathering Momentum card and may not go on the stack (R11.2)"
    if words[0] in ("support", "check") and len(words) > 1 and f is not None:
        st = words[1]
        if st in (f.get("checked") or ()):
            return (
                f"support checks were already drawn in {st} in this action: no more points may go "
                "there (R7.4, R16.3 rulings: one declaration per state)"
            )
        declare = [c for c in legal if c.startswith(f"check {st} ")]
        if words[0] == "support" and declare:
            return (
                f"{st} needs support checks (R7.4, R16.3): declare every point for it at once, "
                f"'check {st} N' (N from 1 to {len(declare)})"
            )
    if words[0] in ("support", "check", "travel") and len(words) > 1:
        return f"'{cmd}' is not possible now (CP, travel cost, support-check rule R7.4, caps or restrictions)"
    return f"'{cmd}' is not legal now"


def copy(g: GameState) -> GameState:
    return copy_state(g)
