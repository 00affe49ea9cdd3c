"""The Momentum phase (R10): decay, awards with endorsements, issue decay, issue swap.

Steps: ``momentum`` (auto, works through its ``todo`` list in edition order,
R10.1 / R16.2), ``award_choice``, ``endorse_region`` and ``issue_swap`` (decisions).

The 2nd-issue award may answer the leader's later questions of the phase ahead, in one line
(``endorsement: south, swap defense economy, strategy 40``, engine.commands): `ahead` says which
of them can arise for the leader, `ahead_problem` checks the answers before any draw.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import board
from engine.data import REGIONS, issue_name, other
from engine.flow import Frame, Step, pop, push, register
from engine.phases.strategy import valid_for_stack
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
            f"Momentum decay (R10.2): Kennedy keeps {g['momentum']['kennedy']}, "
            f"Nixon keeps {g['momentum']['nixon']}.",
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

    def ahead_example(self, g: GameState, f: Frame, side: str) -> str:
        a = ahead(g, side)
        parts = ["south", *a.swaps[:1]]  # a region: an endorsement card may name any (R10.5)
        if a.need:
            parts.append("strategy " + " ".join(str(c) for c in a.strategy[: a.need]))
            if a.first:
                parts.append(f"first {side}")
        return f"endorsement: {', '.join(parts)}"

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        a = ahead(g, side)
        asks = ["the region of an endorsement card that names any region (R10.5)"]
        if a.swaps:
            swaps = " / ".join(c.replace("_", " ") for c in a.swaps)
            asks.append(f"your issue swap ({swaps} / no swap, R10.6)")
        if a.need:
            asks.append(f"your campaign-strategy card{'s' if a.need > 1 else ''} (R11.1)")
            if a.first:
                asks.append("with them, who goes first next turn if you win its initiative (R5.2)")
        return (
            "You lead the 2nd issue: take 'momentum' or an 'endorsement' (R10.3). The same line "
            "may answer the rest of your Momentum phase now, before its draws, as in "
            f"'{self.ahead_example(g, f, side)}': {'; '.join(asks)}. What does not arise is "
            "dropped; what you leave out is asked."
        )


@dataclass(frozen=True)
class Ahead:
    """The questions the 2nd-issue leader may still face in this Momentum phase: ``swaps``
    (the swap commands, when they have the media majority, R10.6), ``strategy`` (their valid
    cards, of which ``need`` go on the stack, R11.1) and, with those, ``first``: next turn's
    initiative choice (R5.2, `engine.phases.turn.keep_first`); a region may always be asked."""

    swaps: tuple[str, ...]
    strategy: tuple[int, ...]
    need: int
    first: bool  # next turn starts with an initiative check, answerable with the strategy cards


def ahead(g: GameState, side: str) -> Ahead:
    """What `AwardChoice.prompt` offers to answer ahead. Nothing between the award and these
    questions changes their choices: media, issue order and hand stay as they are (R10.4-R10.6)."""
    swaps: tuple[str, ...] = ()
    if board.media_total(g, side) > board.media_total(g, other(side)):
        o = g["issue_order"]
        swaps = (f"swap {o[0]} {o[1]}", f"swap {o[1]} {o[2]}")
    need = board.strategy_cards(g["turn"])
    valid = tuple(sorted(c for c in g["hands"][side] if valid_for_stack(c)))
    return Ahead(swaps, valid, min(need, len(valid)), g["turn"] + 1 in board.INITIATIVE_TURNS)


def swap_in_order(g: GameState, cmd: str) -> str:
    """``swap economy defense`` as the issue track lists the pair (``swap defense economy``)."""
    words = cmd.split()
    if words[0] != "swap" or len(words) != 3 or not set(words[1:]) <= set(g["issue_order"]):
        return cmd
    return "swap " + " ".join(sorted(words[1:], key=g["issue_order"].index))


def ahead_problem(g: GameState, side: str, line: str, declared: list[str]) -> str | None:
    """Why swaps, strategy cards or an initiative choice declared ahead after the command
    ``line`` starts with cannot be meant, checked before any draw."""
    swaps = [c for c in declared if c.startswith("swap ")]
    cards = [int(c.split()[1]) for c in declared if c.startswith("strategy ")]
    o = g["issue_order"]
    for c in swaps:
        a, b = c.split()[1:]
        if abs(o.index(a) - o.index(b)) != 1:
            order = ", ".join(issue_name(i) for i in o)
            return f"{issue_name(a)} and {issue_name(b)} are not adjacent (the order is {order}; R10.6)"
    if len(swaps) + declared.count("decline") > 1:
        return "one issue swap at most, or 'no swap' (R10.6)"
    for card in cards:
        label = board.card_label(card)
        if card not in g["hands"][side]:
            return f"{label} is not in your hand"
        if not valid_for_stack(card):
            return f"{label} is a Gathering Momentum card and may not go on the stack (R11.2)"
        if cards.count(card) > 1:
            return f"{label} is named twice"
    need = board.strategy_cards(g["turn"])
    if len(cards) > need:
        return f"{len(cards)} strategy cards named: you put {need} on your stack this turn (R11.1)"
    if any(c.startswith("first ") for c in declared) and not cards and line != "strategy":
        return (
            "next turn's initiative is answered with your campaign-strategy cards: name them "
            "too ('strategy 40, first nixon', R5.2)"
        )
    return None


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
            log(g, f"{side.title()} does not swap issues (R10.6).")
            return
        o = g["issue_order"]
        i, j = o.index(words[1]), o.index(words[2])
        o[i], o[j] = o[j], o[i]
        log(
            g,
            f"{side.title()} swaps {issue_name(words[1])} and {issue_name(words[2])} (R10.6).",
        )

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return "You have more media cubes: swap two adjacent issues, or decline (R10.6)."
