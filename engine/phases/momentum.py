"""The Momentum phase (R10): decay, awards with endorsements, issue decay, issue swap.

Steps: ``momentum`` (auto, works through its ``todo`` list in edition order,
R10.1 / R16.2), ``award_choice``, ``endorse_region`` and ``issue_swap`` (decisions).
"""

from __future__ import annotations

from engine import board
from engine.data import REGIONS
from engine.flow import Frame, Step, pop, push, register
from engine.state import GameState, log


def award_endorsement(g: GameState, side: str) -> None:
    """R10.5: draw an endorsement card and place its marker (choose for 'any')."""
    region = board.draw_endorsement(g)
    if region == "any":
        log(g, f"{side.title()} draws an endorsement for any region.")
        push(g, {"step": "endorse_region", "side": side})
    else:
        board.place_endorsement(g, side, region)


@register
class Momentum(Step):
    name = "momentum"
    auto = True

    def run(self, g: GameState, f: Frame) -> None:
        if not f["todo"]:
            pop(g)
            return
        what = f["todo"].pop(0)
        f["doing"] = what  # the log's cause (engine.state.log)
        getattr(self, "_" + what)(g)

    def _decay(self, g: GameState) -> None:  # R10.2
        for side in ("kennedy", "nixon"):
            m = g["momentum"][side]
            g["momentum"][side] = m - m // 2
        log(
            g,
            f"Momentum decay (R10.2): Kennedy {g['momentum']['kennedy']}, Nixon {g['momentum']['nixon']}.",
        )

    def _award3(self, g: GameState) -> None:  # R10.3, 3rd issue
        leader = board.issue_leader(g, g["issue_order"][2])
        if leader:
            board.gain_momentum(g, leader)

    def _award2(self, g: GameState) -> None:  # R10.3, 2nd issue: the leader chooses
        leader = board.issue_leader(g, g["issue_order"][1])
        if leader:
            push(g, {"step": "award_choice", "side": leader})

    def _award1(self, g: GameState) -> None:  # R10.3, 1st issue
        leader = board.issue_leader(g, g["issue_order"][0])
        if leader:
            board.gain_momentum(g, leader)
            award_endorsement(g, leader)

    def _issue_decay(self, g: GameState) -> None:  # R10.4
        for issue, v in g["issues"].items():
            if v:
                g["issues"][issue] = v - 1 if v > 0 else v + 1
        log(g, "Issue decay: one cube leaves every issue tile that has any (R10.4).")

    def _swap(self, g: GameState) -> None:  # R10.6
        k, n = board.media_total(g, "kennedy"), board.media_total(g, "nixon")
        if k != n:
            push(g, {"step": "issue_swap", "side": "kennedy" if k > n else "nixon"})


@register
class AwardChoice(Step):
    """R10.3: the 2nd issue's leader takes 1 momentum or 1 endorsement."""

    name = "award_choice"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return ["momentum", "endorsement"] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        if words[0] == "momentum":
            board.gain_momentum(g, side)  # logged while this frame is up: its cause (R10.3)
            pop(g)
        else:
            pop(g)
            award_endorsement(g, side)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return "You lead the 2nd issue: take 'momentum' or an 'endorsement' (R10.3)."


@register
class EndorseRegion(Step):
    """R10.5: an 'any region' endorsement: the drawer chooses the region."""

    name = "endorse_region"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return [f"region {r}" for r in REGIONS] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        board.place_endorsement(g, side, words[1])

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return "Your endorsement card names any region: choose one (R10.5)."


@register
class IssueSwap(Step):
    """R10.6: the player with more media cubes may swap two adjacent issues."""

    name = "issue_swap"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        o = g["issue_order"]
        return [f"swap {o[0]} {o[1]}", f"swap {o[1]} {o[2]}", "decline"]

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        if words[0] == "decline":
            log(g, f"{side.title()} does not swap issues.")
            return
        o = g["issue_order"]
        i, j = o.index(words[1]), o.index(words[2])
        o[i], o[j] = o[j], o[i]
        log(
            g,
            f"{side.title()} swaps {board.issue_name(words[1])} and {board.issue_name(words[2])} (R10.6).",
        )

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return "You have more media cubes: swap two adjacent issues, or decline (R10.6)."
