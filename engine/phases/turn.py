"""The game and turn sequence (R4), the initiative phase (R5) and the activity rounds (R6.1).

Steps: ``game`` (auto), ``turn`` (auto, stage machine), ``choose_first`` (decision).

A side may answer the next turn's initiative choice ahead, with its last campaign-strategy card
(``strategy 40: first nixon``, R5.2): `keep_first` keeps it in the strategy frame when the other
side has still to place; it travels with the turn's end to the next turn's start (``ahead``),
where it answers the winner's question or is dropped. Only the opponent's hidden pick and the
deal come between. No view shows another side's kept answer (R17).
"""

from __future__ import annotations

from engine import board
from engine.data import other
from engine.effects import clear_turn_effects
from engine.flow import Frame, Step, deciding_sides, pop, push, register, top
from engine.state import GameState, log


@register
class GameStep(Step):
    """The whole game: one frame per turn until the result is known (R4.1-R4.2)."""

    name = "game"
    auto = True

    def run(self, g: GameState, f: Frame) -> None:
        if g["result"] is not None:
            pop(g)
            g["phase"] = "over"
            return
        t = g["turn"]
        ahead = f.pop("ahead", None)  # a kept initiative answer: no initiative in turns 6 and 9
        if t == board.DEBATE_TURN:
            push(g, {"step": "debates", "stage": "start"})
        elif t == board.ELECTION_TURN:
            push(g, {"step": "election", "stage": "bonus"})
        else:
            frame: Frame = {"step": "turn", "stage": "start", "i": 0}
            if ahead:
                frame["ahead"] = ahead
            push(g, frame)


@register
class TurnStep(Step):
    """A normal turn: initiative, five activity phases, momentum, strategy (R4.1)."""

    name = "turn"
    auto = True

    def run(self, g: GameState, f: Frame) -> None:
        stage = f["stage"]
        if stage == "start":
            self._start(g, f)
        elif stage == "activity":
            self._next_action(g, f)
        elif stage == "momentum":
            f["stage"] = "strategy"
            g["phase"] = "momentum"
            push(g, {"step": "momentum", "todo": _momentum_order(g)})
        elif stage == "strategy":
            f["stage"] = "end"
            g["phase"] = "strategy"
            need = board.strategy_cards(g["turn"])
            push(g, {"step": "strategy", "need": need, "picked": {"kennedy": 0, "nixon": 0}})
        else:
            clear_turn_effects(g)
            log(g, f"End of turn {g['turn']}.")
            g["turn"] += 1
            g["first"] = None
            g["round"] = 0
            ahead = f.get("ahead")
            pop(g)
            game = top(g)
            if ahead and game is not None:
                game["ahead"] = ahead  # for the next turn's start

    def _start(self, g: GameState, f: Frame) -> None:
        t = g["turn"]
        g["phase"] = "initiative"
        log(g, f"Turn {t} begins.")
        n = board.hand_size(t)  # R5.1
        for side in ("kennedy", "nixon"):
            board.draw_cards(g, side, n)
        winner = board.initiative_check(g, f"turn {t}")  # R5.2
        f["stage"] = "activity"
        answered = f.pop("ahead", {}).get(winner)
        if answered:
            first = answered.split()[1]
            g["first"] = first
            log(
                g,
                f"{winner.title()} chooses {first.title()} to go first this turn (R5.2, answered ahead).",
            )
            return
        push(g, {"step": "choose_first", "side": winner})

    def _next_action(self, g: GameState, f: Frame) -> None:
        i = f["i"]
        if i >= 10:
            f["stage"] = "momentum"
            return
        g["phase"] = "activity"
        g["round"] = i // 2 + 1
        first = g["first"]
        assert first is not None, "the first player is chosen before the first action (R5.2)"
        side = first if i % 2 == 0 else other(first)
        f["i"] = i + 1
        push(g, {"step": "action", "side": side})


def next_turn_has_initiative(g: GameState) -> bool:
    """The turn after this one starts with an initiative check (not the debates or Election Day)."""
    return g["turn"] + 1 in board.INITIATIVE_TURNS


def keep_first(g: GameState, side: str, cmd: str) -> bool:
    """Keep ``cmd`` (``first nixon``) for the next turn's initiative (R5.2) when ``side`` has put
    its campaign-strategy cards and waits for the other side's (see the module docstring)."""
    f = top(g)
    if f is None or f["step"] != "strategy" or side in deciding_sides(g):
        return False
    if not next_turn_has_initiative(g):
        return False
    f.setdefault("ahead", {})[side] = cmd
    return True


def _momentum_order(g: GameState) -> list[str]:
    if g["edition"] == "gmt":  # R16.2
        return ["decay", "swap", "award3", "award2", "award1", "issue_decay"]
    return ["decay", "award3", "award2", "award1", "issue_decay", "swap"]  # R10.1


@register
class ChooseFirst(Step):
    """R5.2: the initiative winner chooses who goes first in every activity phase."""

    name = "choose_first"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return ["first kennedy", "first nixon"] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        g["first"] = words[1]
        log(g, f"{side.title()} chooses {words[1].title()} to go first this turn (R5.2).")
        pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return f"Turn {g['turn']}: you won the initiative — choose who goes first in every activity phase (R5.2)."
