"""May a player's last mail be taken back? Decided from the state alone (the `undo` word).

A mail may be undone while nothing it caused was revealed to anyone: it drew nothing (the RNG
counter and the hidden decks are as before it — no card, cube or endorsement drawn, no support
check, R3, R7.4, R8.1), it did not complete a simultaneous choice whose picks are then shown
(strategy R11.1, debate cards R12.4), and nobody decided since (the command counter ``seq`` is
where the mail left it). The server keeps the position before the mail and restores it; this
module only says yes, or precisely why not.
"""

from __future__ import annotations

from engine.data import SIDES
from engine.flow import STEPS, deciding_sides
from engine.state import GameState

__all__ = ["undo_refusal"]


def _other(side: str) -> str:
    return next(s for s in SIDES if s != side)


def undo_refusal(before: GameState, after: GameState, now: GameState, side: str) -> str | None:
    """Why *side* may not take back the mail that turned *before* into *after* (the position is
    *now*), or None if it may."""
    if now["seq"] != after["seq"] or now["rng"] != after["rng"]:
        return "the game has moved on since that mail (a decision was made after it)"
    if (
        before["rng"] != after["rng"]
        or len(before["deck"]) != len(after["deck"])
        or len(before["endorse_deck"]) != len(after["endorse_deck"])
    ):
        return (
            "that mail drew cards, cubes or endorsements (or made support checks): a draw "
            "once made cannot be taken back (R17)"
        )
    stack = before["stack"]
    if stack:
        frame = stack[-1]
        step = STEPS[frame["step"]]
        opponent = _other(side)
        if (
            not step.auto
            and not step.one_side
            and opponent not in deciding_sides(before)
            and (frame["step"] in ("debate_pick", "strategy"))
        ):
            return (
                f"that mail completed a secret choice {opponent.title()} had already made "
                f"({frame['step'].replace('_', ' ')}): both were revealed"
            )
    if after["result"] is not None:
        return "that mail ended the game"
    return None
