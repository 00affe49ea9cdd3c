"""Election Day, turn 9 (R13), and the final tally with tie-breaks (R14, R16.5).

Steps: ``election`` (auto stage machine), ``election_card`` and
``election_event`` (decisions: the order of one's own strategy cards, and the
initiative player's order of Election Day events).
"""

from __future__ import annotations

from engine import board
from engine.data import CARDS, STATES, WINNING_EV, other
from engine.events import start_election_event
from engine.flow import Frame, Step, pop, push, register
from engine.schema import Result
from engine.state import GameState, log


@register
class Election(Step):
    name = "election"
    auto = True

    def run(self, g: GameState, f: Frame) -> None:
        getattr(self, "_" + f["stage"])(g, f)

    def _bonus(self, g: GameState, f: Frame) -> None:
        g["phase"] = "election"
        log(g, "Turn 9: Election Day (R13).")
        before = dict(g["bag"])
        if g["edition"] == "gmt":  # R16.4
            for s in ("kennedy", "nixon"):
                g["bag"][s] += board.media_total(g, s)
        for space in ("media", "issues"):  # R13.1
            for key, v in g[space].items():
                if v:
                    g["bag"]["kennedy" if v > 0 else "nixon"] += abs(v)
                    g[space][key] = 0
        for s in ("kennedy", "nixon"):
            g["bag"][s] += 2 * g["momentum"][s]
            g["momentum"][s] = 0
        k, n = g["bag"]["kennedy"], g["bag"]["nixon"]
        log(
            g,
            f"Bonus cubes go into the bag (R13.1): {k - before['kennedy']} Kennedy and "
            f"{n - before['nixon']} Nixon; it now holds {k} Kennedy and {n} Nixon cubes.",
        )
        f["stage"] = "initiative"

    def _initiative(self, g: GameState, f: Frame) -> None:
        f["initiative"] = board.initiative_check(g, "Election Day")  # R13.2
        g["no_refill"] = True  # R13.3 begins: the bag is never refilled again
        f["stage"] = "cards"
        f["order"] = [f["initiative"], other(f["initiative"])]

    def _cards(self, g: GameState, f: Frame) -> None:  # R13.3
        if not f["order"]:
            f["stage"] = "events"
            f["events"] = list(g["persistent"]["election_day"])
            return
        side = f["order"][0]
        stack = g["stacks"][side]
        if len(stack) > 1:
            push(g, {"step": "election_card", "side": side})
            return
        if stack:
            resolve_strategy_card(g, side, stack[0])
        f["order"].pop(0)

    def _events(self, g: GameState, f: Frame) -> None:  # R13.4
        left = f["events"]
        if len(left) > 1:
            push(g, {"step": "election_event", "side": f["initiative"], "left": left})
            return
        if left:
            card = left.pop()
            start_election_event(g, card)
            return
        f["stage"] = "undecided"

    def _undecided(self, g: GameState, f: Frame) -> None:  # R13.5
        for st, info in STATES.items():
            if g["states"][st] == 0:
                side = board.owner(g["endorsements"][info.region]) or info.border
                board.gain(g, "states", st, side)
                log(g, f"Undecided {info.name} goes to {side.title()} (R13.5).")
        g["result"] = r = tally(g)
        ev = r["electoral_votes"]
        log(
            g,
            f"Final tally: Kennedy {ev['kennedy']} EV, Nixon {ev['nixon']} EV — {r['winner'].title()} wins (R13.6).",
        )
        pop(g)


def resolve_strategy_card(g: GameState, side: str, card: int) -> None:
    """R13.3: three support checks in the card's state, no R7.4 restrictions."""
    g["stacks"][side].remove(card)
    g["discard"].append(card)
    st = CARDS[card].state
    log(g, f"{side.title()} reveals {board.card_label(card)} for {STATES[st].name}.")
    wins = board.support_checks(g, side, 3, f"{STATES[st].name} (R13.3)")
    board.gain(g, "states", st, side, wins)


def tally(g: GameState) -> Result:
    """R13.6 and R14: EV, states won, tie-breaks; states awarded to nobody by #33."""
    ev = {"kennedy": 0, "nixon": 0}
    won = {"kennedy": 0, "nixon": 0}
    cubes = {"kennedy": 0, "nixon": 0}
    nobody: list[str] = []
    for st, info in STATES.items():
        side = board.owner(g["states"][st])
        if side is None:
            continue
        cubes[side] += abs(g["states"][st])
        if st in g["unpledged"] and side == "kennedy" and g["states"][st] < 4:
            nobody.append(st)
            continue
        ev[side] += info.ev
        won[side] += 1
    tie_break = None
    if ev["kennedy"] >= WINNING_EV or ev["nixon"] >= WINNING_EV or ev["kennedy"] != ev["nixon"]:
        winner = "kennedy" if ev["kennedy"] > ev["nixon"] else "nixon"  # R14.1
    elif won["kennedy"] != won["nixon"]:
        tie_break = "states"  # R14.2
        winner = "kennedy" if won["kennedy"] > won["nixon"] else "nixon"
    elif g["edition"] == "gmt" and cubes["kennedy"] != cubes["nixon"]:
        tie_break = "support"  # R16.5
        winner = "kennedy" if cubes["kennedy"] > cubes["nixon"] else "nixon"
    else:
        tie_break = "kennedy"  # R14.2
        winner = "kennedy"
    return {
        "winner": winner,
        "electoral_votes": ev,
        "states_won": won,
        "support_cubes": cubes,
        "unpledged": nobody,
        "tie_break": tie_break,
    }


@register
class ElectionCard(Step):
    """R13.3: the side resolves its campaign-strategy cards in an order it chooses."""

    name = "election_card"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return [f"resolve {c}" for c in sorted(g["stacks"][side])] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        resolve_strategy_card(g, side, int(words[1]))
        if len(g["stacks"][side]) <= 1:
            pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return (
            "Election Day: choose the next campaign-strategy card to resolve (3 support checks in its "
            "state, R13.3), or declare your whole order at once: 'resolve 36, 58, 55'."
        )


@register
class ElectionEvent(Step):
    """R13.4: the initiative player orders the Election Day events."""

    name = "election_event"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return [f"resolve {c}" for c in sorted(f["left"])] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        card = int(words[1])
        f["left"].remove(card)
        left = f["left"]
        pop(g)
        # keep the remaining order in the election frame
        frame = g["stack"][-1]
        frame["events"] = left
        start_election_event(g, card)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return "Election Day: choose the next Election Day event to resolve (R13.4)."
