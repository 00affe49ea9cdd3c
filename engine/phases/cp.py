"""Spending campaign points: campaigning (R7), advertising (R8), positioning (R9).

Each action is a decision step spent one point at a time; ``done`` ends it and
unspent CP are lost (R6.5). Steps: ``campaign``, ``advertise``, ``position``.
"""

from __future__ import annotations

from engine import board, effects
from engine.data import CARDS, ISSUES, REGIONS, STATES, other, travel_cost
from engine.flow import Frame, Step, pop, push, register
from engine.state import GameState, log


def start(g: GameState, side: str, kind: str, cp: int, card: int | None, **extra: object) -> None:
    """Begin a CP action of ``kind`` worth ``cp`` for ``side``."""
    if kind == "campaign":
        push(g, {"step": "campaign", "side": side, "cp": cp, "card": card, "spent": {}, **extra})
    elif kind == "advertise":
        wins = board.support_checks(g, side, cp, "advertising (R8.1)")
        if wins:
            push(g, {"step": "advertise", "side": side, "left": wins})
    else:
        push(g, {"step": "position", "side": side, "cp": cp, "card": card, "bought": {}})


def needs_check(g: GameState, side: str, st: str) -> bool:
    """R7.4 (and effects that force or waive checks)."""
    if board.has_media(g, side, STATES[st].region):
        return False
    mode = effects.check_mode(g, side, st)
    if mode == "waive":
        return False
    if mode == "force":
        return True
    opp = other(side)
    return board.carries(g, st, opp) or g["token"][opp] == st


def travel(g: GameState, side: str, st: str) -> int:
    if effects.travel_free(g, side):
        return 0
    return travel_cost(g["token"][side], st)


@register
class Campaign(Step):
    """R7: spend CP point by point on state support and travel."""

    name = "campaign"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        cp: int = f["cp"]
        cap = f.get("cap")
        out: list[str] = []
        free = effects.travel_free(g, side)
        token = g["token"][side]
        restricted = bool(g["effects"])
        for st in STATES:
            if restricted and effects.campaign_banned(g, side, st):
                continue
            room = cp - (0 if free else travel_cost(token, st))
            if cap is not None:
                room = min(room, cap - f["spent"].get(st, 0))
            if room < 1:
                continue
            if needs_check(g, side, st):
                out.extend(f"check {st} {n}" for n in range(1, room + 1))
            else:
                out.append(f"support {st}")
        if not free:
            here = STATES[token].zone
            out.extend(
                f"travel {st}"
                for st, info in STATES.items()
                if info.zone != here and travel_cost(g["token"][side], st) <= cp
            )
        out.append("done")
        return out

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        verb = words[0]
        if verb == "done":
            if f["cp"]:
                log(g, f"{side.title()} ends the campaign with {f['cp']} CP unspent.")
            pop(g)
            return
        st = words[1]
        cost = travel(g, side, st)
        g["token"][side] = st  # R7.2
        if verb == "travel":
            f["cp"] -= cost
            log(g, f"{side.title()} travels to {STATES[st].name} ({cost} CP, R7.3).")
        else:
            n = int(words[2]) if verb == "check" else 1
            f["cp"] -= cost + n
            f["spent"][st] = f["spent"].get(st, 0) + n
            note = f" after {cost} CP of travel" if cost else ""
            if verb == "check":
                wins = board.support_checks(g, side, n, f"{STATES[st].name} (R7.4)")
            else:
                wins = 1
                log(g, f"{side.title()} campaigns in {STATES[st].name}{note}.")
            board.gain(g, "states", st, side, wins)
        if f["cp"] <= 0:
            pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return (
            f"Campaigning with {f['cp']} CP left, token in {STATES[g['token'][side]].name}: "
            "'support ST' adds a point (travel costed), 'check ST N' declares N support checks where "
            "R7.4 requires them, 'travel ST' moves your token, 'done' ends (R7)."
        )


@register
class Advertise(Step):
    """R8.1: place one media point per successful support check."""

    name = "advertise"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return [f"media {r}" for r in REGIONS] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        board.gain(g, "media", words[1], side)
        log(g, f"{side.title()} adds media support in the {words[1].title()} (R8.1).")
        f["left"] -= 1
        if f["left"] <= 0:
            pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return f"Advertising: place {f['left']} media point(s) in any region(s) (R8.1)."


@register
class Position(Step):
    """R9.1: issue support, first point 1 CP, further points in the same issue 2 CP."""

    name = "position"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        out = [f"issue {i}" for i in ISSUES if self._price(f, i) <= f["cp"] and self._allowed(g, f, i)]
        return [*out, "done"]

    @staticmethod
    def _price(f: Frame, issue: str) -> int:
        return 2 if f["bought"].get(issue) else 1

    @staticmethod
    def _allowed(g: GameState, f: Frame, issue: str) -> bool:
        # R15.2: no support on the played card's debate issue
        card = f.get("card")
        if "restricted_positioning" in g["options"] and card is not None:
            return bool(CARDS[card].issue != issue)
        return True

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        if words[0] == "done":
            pop(g)
            return
        issue = words[1]
        f["cp"] -= self._price(f, issue)
        f["bought"][issue] = f["bought"].get(issue, 0) + 1
        board.gain(g, "issues", issue, side)
        log(g, f"{side.title()} positions on {board.issue_name(issue)} (R9.1).")
        if self.legal(g, f, side) == ["done"]:
            pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return (
            f"Positioning with {f['cp']} CP left: 'issue NAME' buys a point (1 CP for the first in an "
            "issue, 2 CP for each further one), 'done' ends (R9.1)."
        )
