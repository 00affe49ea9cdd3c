"""Why a one-line CP action cannot be done: the points written cost more than the card gives.

``position 15: civil rights 2, economy 2`` expands to the card play and four issue points; when
the card gives 3 CP the position step ends after the third point and the fourth fails with
"nothing to decide". `overspend` replays the line on a copy whose CP budget is unlimited and
compares what the points cost (travel R7.3, support checks R7.4, the 1-then-2 issue price
R9.1 — the same rules, never a second copy of them) with what the card gives.
"""

from __future__ import annotations

from engine import commands
from engine.api import _apply_one, _spend, apply_in_place, legal_commands
from engine.errors import CommandError
from engine.flow import top
from engine.state import GameState, copy_state

__all__ = ["overspend"]

_UNLIMITED = 10_000
_RULE = {"campaign": "R7", "position": "R9.1"}
_PRICE = {
    "position": "in one action the first point in an issue costs 1 CP and each further point 2; "
}


def overspend(g: GameState, side: str, text: str) -> str | None:
    """ "need N CP, the card gives M" if *text* is a one-line action that overspends, else None
    (a campaign's N split into support and travel)."""
    legal = legal_commands(g, side)
    try:
        cmds = commands.parse(text, legal)
    except CommandError:
        return None
    play = cmds[0]
    if len(cmds) < 2 or not isinstance(play, str) or play.split()[0] not in _RULE:
        return None
    probe = copy_state(g)
    try:
        apply_in_place(probe, side, play)
    except CommandError:
        return None
    frame = top(probe)
    if frame is None or frame["step"] != play.split()[0] or frame.get("side") != side:
        return None
    given: int = frame["cp"]
    frame["cp"] = _UNLIMITED
    for cmd in cmds[1:]:
        if isinstance(cmd, commands.Declared):
            return None
        try:
            if isinstance(cmd, commands.Spend):
                _spend(probe, side, text, cmd, None)
            else:
                _apply_one(probe, side, text, cmd)
        except CommandError:
            return None
        if top(probe) is not frame:
            return None
    needed = _UNLIMITED - frame["cp"]
    if needed <= given:
        return None
    verb = play.split()[0]
    points = sum(frame.get("spent", {}).values())  # campaign: the rest is travel (R7.3)
    why = (
        f" ({points} for support, {needed - points} for travel, R7.3)"
        if 0 < points < needed
        else ""
    )
    return (
        f"the points written need {needed} CP{why}, the card gives {given} ({_RULE[verb]}); "
        f"{_PRICE.get(verb, '')}write fewer points or play a bigger card"
    )
