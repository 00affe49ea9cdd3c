"""The Campaign Strategy phase (R11): simultaneous, secret placement on the stacks.

Step: ``strategy`` (decision for both sides at once).
"""

from __future__ import annotations

from engine import board
from engine.data import CARDS, counted
from engine.flow import Frame, Step, pop, register, top
from engine.state import GameState, log


def valid_for_stack(card: int) -> bool:
    """R11.2: Gathering Momentum cards never go on the stack."""
    return not CARDS[card].gathering_momentum


_STRATEGY = {n: f"strategy {n}" for n in CARDS}  # canonical texts, built once


@register
class Strategy(Step):
    """R11.1: each side puts 1 (turns 1-5) or 2 (turns 7-8) cards face down."""

    name = "strategy"

    def sides(self, g: GameState, f: Frame) -> list[str]:
        return ["kennedy", "nixon"]

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if f["picked"][side] >= f["need"] or not g["hands"][side]:
            return []
        # R11.2: with no valid card left the side passes; it still has a decision, so that the
        # opponent cannot learn from who is deciding that the hand holds no valid card (R17.2)
        return [_STRATEGY[c] for c in sorted(g["hands"][side]) if valid_for_stack(c)] or ["pass"]

    def has_legal(self, g: GameState, f: Frame, side: str) -> bool:
        return bool(f["picked"][side] < f["need"] and g["hands"][side])  # then `legal` lists >= 1

    def is_legal(self, g: GameState, f: Frame, side: str, cmd: str) -> bool:
        words = cmd.split(" ")
        if len(words) == 2 and words[0] == "strategy" and words[1].isdigit():
            card = int(words[1])  # one card is enough
            return (
                _STRATEGY.get(card) == cmd
                and card in g["hands"][side]
                and valid_for_stack(card)
                and f["picked"][side] < f["need"]
            )
        return cmd in self.legal(g, f, side)

    def ahead_example(self, g: GameState, f: Frame, side: str) -> str | None:
        if g["turn"] + 1 not in board.INITIATIVE_TURNS:
            return None
        card = next((c for c in sorted(g["hands"][side]) if valid_for_stack(c)), None)
        return None if card is None else f"strategy {card}: first {side}"

    def choices_equivalent(self, g: GameState, f: Frame, side: str) -> bool:
        """Every valid card in hand must go onto the stack (no more of them than picks left,
        R11.1, R11.2): only their order is chosen, and no rule reads it (R11.4 hidden; R12.2 and
        R13.3 take the stack as a set)."""
        valid = sum(1 for c in g["hands"][side] if valid_for_stack(c))
        return bool(0 < valid <= f["need"] - f["picked"][side])

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        if words[0] == "pass":
            f["picked"][side] = f["need"]
            log(g, f"{side.title()} puts no more cards on the campaign-strategy stack (R11.2).")
            if not any(self.has_legal(g, f, s) for s in self.sides(g, f)):
                self.skip(g, f)
            return
        card = int(words[1])
        g["hands"][side].remove(card)
        g["stacks"][side].append(card)
        f["picked"][side] += 1
        log(g, f"{side.title()} puts a card on the campaign-strategy stack.")
        log(g, f"You put {board.card_label(card)} on your campaign-strategy stack.", to=side)
        if not any(self.has_legal(g, f, s) for s in self.sides(g, f)):
            self.skip(g, f)

    def skip(self, g: GameState, f: Frame) -> None:
        for side in ("kennedy", "nixon"):
            left = g["hands"][side]
            if left:
                log(
                    g, f"{side.title()} discards {counted(len(left), 'card')} left in hand (R11.1)."
                )
                g["discard"].extend(sorted(left))
                g["hands"][side] = []
            if g["rest"][side]:
                g["bag"][side] += g["rest"][side]  # R11.3
                cubes = counted(g["rest"][side], "rest cube")
                goes = "goes" if g["rest"][side] == 1 else "go"
                log(g, f"{side.title()}'s {cubes} {goes} into the bag (R11.3).")
                g["rest"][side] = 0
        ahead = f.get("ahead")
        pop(g)
        turn = top(g)
        if ahead and turn is not None:
            turn["ahead"] = ahead  # a next-turn initiative answer (engine.phases.turn)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        left = f["need"] - f["picked"][side]
        text = (
            f"Campaign strategy: put {counted(left, 'more card')} from your hand face down on your "
            "campaign-strategy stack (not a Gathering Momentum card); the rest are discarded (R11)."
        )
        example = self.ahead_example(g, f, side)
        if example:
            text += (
                " Your last card's line may answer next turn's initiative ahead, before the deal, "
                f"as in '{example}': who goes first if you win it (R5.2); otherwise you are asked."
            )
        return text
