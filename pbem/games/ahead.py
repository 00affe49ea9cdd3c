"""Answers given ahead: what became of each part of a declared one-line form.

A line such as ``endorsement: east, strategy 55, first kennedy`` (R10.3-R11.1, R5.2),
``advertise 17: east 2, west 1`` (R8.1) or ``resolve 36, 58, 55`` (R13.3) declares, before a
draw, answers to questions that may come later (`engine.commands.Declared`). The engine applies
each part while its question is the player's, in the game's order, and leaves the rest. `sort_out`
says, for the player's results block, what happened to every part — applied, kept for a named
later question, or dropped with the reason — and returns the kept parts as lines for the seat's
queue, where each waits for its own question (`pbem.games.orders.asks_for`): the opponent deciding
something in between (their issue swap, their region) no longer loses the player's answer.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import engine
from engine import commands
from engine.phases import momentum

__all__ = ["Sorted", "sort_out"]

STRATEGY_Q = "your campaign-strategy card (R11.1)"
SWAP_Q = "your issue swap (R10.6)"
ELECTION_Q = "your next Election Day card (R13.3)"


@dataclass
class Sorted:
    """The parts of one line: what to tell the player, and the lines kept for the queue."""

    applied: list[str] = field(default_factory=list)
    kept: list[tuple[str, str]] = field(default_factory=list)  # (line, the question it waits for)
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (part, why)

    @property
    def message(self) -> str:
        """The line's result in words (``ok`` when every part was applied)."""
        if not self.kept and not self.dropped:
            return "ok"
        parts = []
        if self.applied:
            parts.append("applied: " + ", ".join(self.applied))
        parts += [f"kept for {q}: '{line}'" for line, q in self.kept]
        parts += [f"dropped '{part}': {why}" for part, why in self.dropped]
        return "; ".join(parts).replace("_", " ")  # civil_rights: as the player writes it


def _strategy_to_come(g: engine.GameState, side: str, turn: int) -> bool:
    """``side`` still puts a campaign-strategy card this turn (R11.1)."""
    if g["turn"] != turn or g["result"] is not None:
        return False
    for f in g["stack"]:
        if f["step"] == "strategy":
            return bool(f["picked"][side] < f["need"])
    return True  # the turn's strategy phase has not begun yet


def _swap_to_come(g: engine.GameState, side: str, turn: int) -> bool:
    """``side`` is still to be asked this Momentum phase's issue swap (R10.6)."""
    if g["turn"] != turn or not momentum.ahead(g, side).swaps:
        return False
    return any(f["step"] == "momentum" and "swap" in f.get("todo", ()) for f in g["stack"])


def _drop_reason(part: commands.Declared) -> str:
    step = part.steps[0]
    if step == "endorse_region":
        return "no endorsement card naming any region was drawn for you (R10.5)"
    if step == "advertise":
        return "your support checks had no more successes to place (R8.1)"
    if step == "issue_swap":
        return "the issue swap is not yours this turn (R10.6: more media cubes than your opponent)"
    return "its question did not arise for you"


def sort_out(
    before: engine.GameState, after: engine.GameState, side: str, line: str, canonical: list[str]
) -> Sorted:
    """What became of each part of ``line``, applied from ``before`` to ``after`` (the engine's
    ``canonical`` commands for it)."""
    out = Sorted()
    try:
        parsed = commands.parse(line, engine.legal_commands(before, side))
    except engine.CommandError:
        return out
    declared = [c for c in parsed if isinstance(c, commands.Declared)]
    if not declared:
        return out
    out.applied = [c for c in parsed if isinstance(c, str)]
    done = Counter(c.split(":")[0] for c in canonical)
    kept_first = any(c.startswith("strategy ") and ": first " in c for c in canonical)
    turn = before["turn"]
    waiting: list[str] = []  # strategy cards kept for later (a 'first' goes with the last)
    for part in declared:
        if part.steps == commands.INITIATIVE:
            continue  # with the strategy cards, below
        placed = min(done[part.command], part.n)
        done[part.command] -= placed
        if placed:
            out.applied.append(part.command if placed == 1 else f"{part.command} x{placed}")
        if placed == part.n or (part.steps == commands.ENDORSE_REGION and placed):
            continue  # a region is declared for two awards; one is all most players get
        if part.steps == commands.STRATEGY and _strategy_to_come(after, side, turn):
            waiting.append(part.command)
        elif part.steps == commands.ISSUE_SWAP and _swap_to_come(after, side, turn):
            out.kept.append((part.command, SWAP_Q))
        elif part.steps == commands.ELECTION and side in engine.active_sides(after):
            out.kept.append((part.command, ELECTION_Q))
        elif part.steps != commands.ADVERTISING or not placed:
            out.dropped.append((part.command, _drop_reason(part)))
        else:
            left = part.n - placed
            out.dropped.append((f"{part.command} x{left}", _drop_reason(part)))
    first = next((d.command for d in declared if d.steps == commands.INITIATIVE), None)
    deciding = sorted(engine.active_sides(after))
    then = "" if side in deciding or not deciding else f", after {' and '.join(deciding).title()}"
    for i, card in enumerate(waiting):
        last = i == len(waiting) - 1
        kept = f"{card}: {first}" if last and first else card
        out.kept.append((kept, STRATEGY_Q + then))
    if first and not waiting:
        if done[first] > 0:  # the initiative came in this very mail and was the player's
            out.applied.append(first)
        elif kept_first:
            out.applied.append(f"{first} (kept for next turn's initiative)")
        elif after["turn"] > turn:
            out.dropped.append((first, "your opponent won the initiative: theirs to choose (R5.2)"))
        else:
            out.dropped.append(
                (first, "next turn's initiative cannot be answered ahead now (R5.2)")
            )
    return out
