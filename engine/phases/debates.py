"""The Debates, turn 6 (R12).

Steps: ``debates`` (auto stage machine), ``debate_pick`` (simultaneous secret
choice; sequential while a debate event such as #34 makes one side reveal
first), ``debate_order`` and ``debate_bonus`` (decisions).
Debate events in force (R12.7) change totals and the order of picks through the hooks
their `EventDef` declares (``debate_bonus``, ``reveal_first``).
"""

from __future__ import annotations

from engine import board
from engine.data import CARDS, ISSUES, STATES, issue_name
from engine.events.script import EVENTS
from engine.flow import Frame, Step, pop, push, register
from engine.schema import Debate
from engine.state import GameState, log


def reveal_first(g: GameState) -> str | None:
    """The side a debate event in force makes reveal its pick first (#34), if any."""
    card = _reveal_first_card(g)
    return EVENTS[card].reveal_first if card is not None else None


def _reveal_first_card(g: GameState) -> int | None:
    """The debate event in force that makes a side reveal its pick first (#34), if any."""
    for card in g["persistent"]["debate"]:
        if card in EVENTS and EVENTS[card].reveal_first is not None:
            return int(card)
    return None


def debate_of(g: GameState) -> Debate:
    """The debates in progress (R12); only the debate steps and their events ask."""
    d = g["debate"]
    assert d is not None, "no debate in progress"
    return d


def contest_total(g: GameState, issue: str, side: str) -> int:
    """R12.5: the CP of the side's cards on an issue, plus debate events in force (#35)."""
    d = debate_of(g)
    base = sum(CARDS[c].cp for c in d["board"][issue][side])
    for c in g["persistent"]["debate"]:
        bonus = EVENTS[c].debate_bonus if c in EVENTS else None
        if bonus is not None:
            base += bonus(g, side)
    return int(base)


@register
class Debates(Step):
    name = "debates"
    auto = True

    def run(self, g: GameState, f: Frame) -> None:
        getattr(self, "_" + f["stage"])(g, f)

    def _start(self, g: GameState, f: Frame) -> None:
        g["phase"] = "debates"
        log(g, "Turn 6: the Debates (R12).")
        winner = board.initiative_check(g, "the debates")  # R12.1
        g["debate"] = {
            "initiative": winner,
            "hands": {s: sorted(g["stacks"][s]) for s in ("kennedy", "nixon")},  # R12.2
            "board": {i: {"kennedy": [], "nixon": []} for i in ISSUES},  # R12.3
            "resolved": [],
            "pending": [],
            "revealed": [],
        }
        g["stacks"] = {"kennedy": [], "nixon": []}
        f["stage"] = "round"

    def _round(self, g: GameState, f: Frame) -> None:
        d = debate_of(g)
        if len(d["resolved"]) == 3 or not (d["hands"]["kennedy"] or d["hands"]["nixon"]):
            f["stage"] = "finish"
            return
        f["stage"] = "place"
        push(g, {"step": "debate_pick", "picks": {}})

    def _place(self, g: GameState, f: Frame) -> None:
        d = debate_of(g)
        if not d["pending"]:
            # R12.5: the revealed cards are all placed first; then every issue now due is
            # resolved, the one lower on the issue track first
            due = [
                i
                for i in reversed(g["issue_order"])
                if i not in d["resolved"] and any(len(x) >= 2 for x in d["board"][i].values())
            ]
            if due:
                resolve_issue(g, due[0])
                return
            f["stage"] = "round"
            return
        if len(d["pending"]) == 2 and "ordered" not in f:
            f["ordered"] = True
            if all(p[2] is None for p in d["pending"]):  # R12.1: both two-icon, sides open
                push(g, {"step": "debate_order", "side": d["initiative"]})
                return
            d["pending"].sort(key=lambda p: p[0] != d["initiative"])
        if d["pending"][0][2] is None:  # R12.4: a two-icon card's side is chosen as it is placed
            push(g, {"step": "debate_side", "side": d["pending"][0][0], "card": d["pending"][0][1]})
            return
        side, card, place = d["pending"].pop(0)
        if not d["pending"]:
            f.pop("ordered", None)
        issue = CARDS[card].issue
        if issue in d["resolved"]:
            g["discard"].append(card)
            log(
                g,
                f"{board.card_label(card)} goes to the resolved {issue_name(issue)} and is discarded (R12.4).",
            )
            return
        d["board"][issue][place].append(card)
        log(
            g,
            f"{side.title()}'s {board.card_label(card)} goes to {issue_name(issue)} on {place.title()}'s side (R12.4).",
        )

    def _finish(self, g: GameState, f: Frame) -> None:
        d = debate_of(g)
        left = [i for i in reversed(g["issue_order"]) if i not in d["resolved"]]
        if left:  # R12.7: lowest track position first
            resolve_issue(g, left[0])
            return
        for s in ("kennedy", "nixon"):
            g["discard"].extend(d["hands"][s])
        for c in g["persistent"]["debate"]:  # R12.7 [ruling]: debate events leave the game
            g["removed"].append(c)
        g["persistent"]["debate"] = []
        r = d["resolved"]
        g["issue_order"] = [r[2], r[1], r[0]]  # R12.6: first resolved becomes 3rd
        log(
            g,
            "The Debates end; the issue track is now "
            + ", ".join(issue_name(i) for i in g["issue_order"])
            + ".",
        )
        g["debate"] = None
        g["turn"] += 1
        pop(g)


def resolve_issue(g: GameState, issue: str) -> None:
    """R12.5-R12.6: compare totals, award 2/3/4 bonus support, return cards."""
    d = debate_of(g)
    k, n = contest_total(g, issue, "kennedy"), contest_total(g, issue, "nixon")
    winner = "kennedy" if k > n else "nixon" if n > k else d["initiative"]
    d["resolved"].append(issue)
    bonus = len(d["resolved"]) + 1
    tie = " (tie: debate initiative)" if k == n else ""
    log(
        g,
        f"{issue_name(issue)} is resolved: Kennedy {k}, Nixon {n} — {winner.title()} wins{tie} and places {bonus} support (R12.6).",
    )
    for s in ("kennedy", "nixon"):
        g["discard"].extend(d["board"][issue][s])
        d["board"][issue][s] = []
    push(g, {"step": "debate_bonus", "side": winner, "left": bonus})


@register
class DebatePick(Step):
    """R12.4: both choose one debate card secretly; a two-icon card names its side."""

    name = "debate_pick"

    def sides(self, g: GameState, f: Frame) -> list[str]:
        d = debate_of(g)
        waiting = [s for s in ("kennedy", "nixon") if s not in f["picks"] and d["hands"][s]]
        first = reveal_first(g)
        if first in waiting:
            return [first]
        return waiting

    def has_legal(self, g: GameState, f: Frame, side: str) -> bool:
        return side in self.sides(g, f)  # a waiting side holds a card, so `legal` lists it

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side not in self.sides(g, f):
            return []
        out: list[str] = []
        for c in debate_of(g)["hands"][side]:
            out.append(f"debate {c}")
            if CARDS[c].icon == "both":  # the side may be named now, or chosen when placed
                out.extend([f"debate {c} kennedy", f"debate {c} nixon"])
        return out

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        card = int(words[1])
        icon = CARDS[card].icon
        place = words[2] if len(words) > 2 else (None if icon == "both" else icon)
        debate_of(g)["hands"][side].remove(card)
        f["picks"][side] = [side, card, place]
        why = _reveal_first_card(g)
        if why is not None and EVENTS[why].reveal_first == side:
            log(
                g,
                f"{side.title()} must reveal first ({board.card_label(why)}): "
                f"{board.card_label(card)}" + (f" for {place.title()}" if place else "") + ".",
            )
            debate_of(g)["revealed"].append(card)
        else:
            log(
                g,
                f"You choose {board.card_label(card)}"
                + (f" for {place.title()}" if place else "")
                + ".",
                to=side,
            )
        if not self.sides(g, f):
            self.skip(g, f)

    def skip(self, g: GameState, f: Frame) -> None:
        d = debate_of(g)
        picks = [f["picks"][s] for s in ("kennedy", "nixon") if s in f["picks"]]
        shown = "; ".join(
            f"{p[0].title()}: {board.card_label(p[1])}"
            + (f" for {p[2].title()}" if p[2] else " (side to choose)")
            for p in picks
        )
        log(g, f"Debate cards revealed (R12.4): {shown}.")
        d["pending"] = picks
        d["revealed"] = []
        pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return (
            "Debates: choose one card of your debate hand in secret; a two-icon card also names the "
            "side it goes to (R12.4)."
        )


@register
class DebateOrder(Step):
    """R12.1: with two two-icon cards revealed, the initiative player orders placement."""

    name = "debate_order"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return ["first kennedy", "first nixon"] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        debate_of(g)["pending"].sort(key=lambda p: p[0] != words[1])
        log(g, f"{side.title()} chooses to place {words[1].title()}'s debate card first (R12.1).")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return "Both revealed two-icon cards: choose whose card is placed first (R12.1)."


@register
class DebateSide(Step):
    """R12.4: a revealed two-icon card goes on the side its player chooses as it is placed."""

    name = "debate_side"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return ["side kennedy", "side nixon"] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        debate_of(g)["pending"][0][2] = words[1]

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        card = board.card_label(f["card"])
        return f"Debates: your two-icon card {card} is placed now — on Kennedy's or Nixon's side? (R12.4)"


_BONUS = tuple(f"support {s}" for s in STATES)  # canonical texts, built once
_BONUS_SET = frozenset(_BONUS)


@register
class DebateBonus(Step):
    """R12.6: place the bonus support in any states, no support checks."""

    name = "debate_bonus"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return list(_BONUS) if side == f["side"] else []

    def has_legal(self, g: GameState, f: Frame, side: str) -> bool:
        return bool(side == f["side"])

    def is_legal(self, g: GameState, f: Frame, side: str, cmd: str) -> bool:
        return side == f["side"] and cmd in _BONUS_SET

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        board.gain(g, "states", words[1], side)
        log(g, f"{side.title()} places debate support in {STATES[words[1]].name}.")
        f["left"] -= 1
        if f["left"] <= 0:
            pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return f"You won the issue: place {f['left']} state support in any states, one at a time (R12.6)."
