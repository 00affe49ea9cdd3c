"""The game and turn sequence (R4), the initiative phase (R5) and the activity rounds (R6.1).

Steps: ``game`` (auto), ``turn`` (auto, stage machine), ``choose_first`` (decision).
"""

from __future__ import annotations

from engine import board
from engine.data import other
from engine.effects import clear_turn_effects
from engine.flow import Frame, Step, pop, push, register
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
        if t == board.DEBATE_TURN:
            push(g, {"step": "debates", "stage": "start"})
        elif t == board.ELECTION_TURN:
            push(g, {"step": "election", "stage": "bonus"})
        else:
            push(g, {"step": "turn", "stage": "start", "i": 0})


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
            pop(g)

    def _start(self, g: GameState, f: Frame) -> None:
        t = g["turn"]
        g["phase"] = "initiative"
        log(g, f"Turn {t} begins.")
        n = board.hand_size(t)  # R5.1
        for side in ("kennedy", "nixon"):
            board.draw_cards(g, side, n)
        winner = board.initiative_check(g, f"turn {t}")  # R5.2
        f["stage"] = "activity"
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
