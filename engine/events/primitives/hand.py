"""Event primitives on hands, the deck and the discard pile, and candidate cards (R6.9).

Choice steps: ``take_discard``, ``discard_replace``, ``discard_event``, ``reveal_resolve``.
"""

from __future__ import annotations

from engine import board, effects, rng
from engine.data import CARDS, listed
from engine.events.script import (
    ask,
    event_available,
    event_label,
    primitive,
    resolve,
    start_event,
)
from engine.flow import Frame, Step, pop, push, register
from engine.state import GameState, log


@primitive
def reveal_hand(g: GameState, f: Frame, whose: str, to: str) -> None:
    """Show a side's whole hand to the other side (from now on in its view)."""
    a, b = resolve(g, f, whose), resolve(g, f, to)
    if a is None or b is None:
        return
    cards = sorted(g["hands"][a])
    g["revealed"][b].append(
        {"card": f["card"], "side": a, "cards": cards, "turn": g["turn"], "seq": g["seq"]}
    )
    log(g, f"{a.title()} reveals his hand to {b.title()}.")
    shown = ", ".join(board.card_label(c) for c in cards) or "no cards"
    log(g, f"{a.title()}'s hand: {shown}.", to=b)


@primitive
def draw(g: GameState, f: Frame, who: str, n: int) -> None:
    """The side draws ``n`` campaign cards (names logged only to it, R17.2)."""
    side = resolve(g, f, who)
    if side is not None:
        board.draw_cards(g, side, n)


@primitive
def take_from_discard(g: GameState, f: Frame, who: str, cards: list[int] | None = None) -> None:
    """The side may take one card from the (public, R17.1) discard pile into its hand.

    ``cards`` limits which cards qualify (e.g. only #42).
    """
    side = resolve(g, f, who)
    if side is None:
        return
    pool = [c for c in g["discard"] if cards is None or c in cards]
    if not pool:
        log(g, f"{event_label(f)}: no card to take from the discard pile.")
        return
    push(g, {"step": "take_discard", "side": side, "only": cards, "card": f["card"]})


@register
class TakeDiscard(Step):
    """Take one card from the discard pile (``take N``) or ``done`` to take none."""

    name = "take_discard"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        only = f["only"]
        pool = sorted({c for c in g["discard"] if only is None or c in only})
        return [*(f"take {c}" for c in pool), "done"]

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        if words[0] == "done":
            log(g, f"{side.title()} takes no card from the discard pile.")
            return
        card = int(words[1])
        g["discard"].remove(card)
        g["hands"][side].append(card)
        log(
            g, f"{side.title()} takes {board.card_label(card)} from the discard pile into his hand."
        )

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return f"{event_label(f)}: 'take N' to add a card from the discard pile to your hand, or 'done'."


@primitive
def replace_cards(g: GameState, f: Frame, who: str) -> None:
    """The side throws away any hand cards; each is replaced from the deck when it is done."""
    side = resolve(g, f, who)
    if side is None or not g["hands"][side]:
        return
    push(g, {"step": "discard_replace", "side": side, "n": 0, "card": f["card"]})


@register
class DiscardReplace(Step):
    """``discard C`` one card at a time, ``done`` draws one replacement per discarded card."""

    name = "discard_replace"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        return [*(f"discard {c}" for c in sorted(g["hands"][side])), "done"]

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        if words[0] == "discard":
            c = int(words[1])
            g["hands"][side].remove(c)
            g["discard"].append(c)
            f["n"] += 1
            log(g, f"{side.title()} discards {board.card_label(c)}.")
            if g["hands"][side]:
                return
        pop(g)
        if f["n"]:
            board.draw_cards(g, side, f["n"])
        else:
            log(g, f"{side.title()} keeps his whole hand.")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return (
            f"{board.card_label(f['card'])}: 'discard C' throws away a hand card; 'done' draws a "
            f"replacement for each ({f['n']} so far)."
        )


@primitive
def event_from_discard(g: GameState, f: Frame, who: str) -> None:
    """#58: the side may take a discarded card and resolve its event at once (no rest cubes)."""
    ask(g, f, who, "discard_event")


@register
class DiscardEvent(Step):
    """``take C`` resolves the event of a discarded card as if the side played it (R6.3)."""

    name = "discard_event"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        pool = sorted({c for c in g["discard"] if event_available(g, c)})
        return [*(f"take {c}" for c in pool), "done"]

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        if words[0] == "done":
            log(g, f"{side.title()} takes no event from the discard pile.")
            return
        c = int(words[1])
        g["discard"].remove(c)
        log(
            g,
            f"{side.title()} takes {board.card_label(c)} from the discard pile and resolves its event (R6.3).",
        )
        start_event(g, side, c, "discard")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return (
            f"{board.card_label(f['card'])}: 'take C' resolves the event of a card in the discard "
            "pile as if you played it (no rest cubes), or 'done'."
        )


def turn_up(g: GameState) -> int | None:
    """Take the top card of the campaign deck, reshuffling the discard pile if needed (R5.1)."""
    if not g["deck"]:
        if not g["discard"]:
            return None
        g["deck"] = g["discard"]
        g["discard"] = []
        rng.shuffle(g["rng"], g["deck"])
        log(g, f"The discard pile is shuffled into a new deck of {len(g['deck'])} cards (R5.1).")
    card: int = g["deck"].pop()
    return card


@primitive
def reveal_and_resolve(g: GameState, f: Frame, n: int, icons: list[str], as_side: str) -> None:
    """Turn up the top ``n`` deck cards (public); those with one of ``icons`` have their
    events resolved in order as if ``as_side`` played them, the others are discarded."""
    shown: list[int] = []
    for _ in range(n):
        c = turn_up(g)
        if c is not None:
            shown.append(c)
    names = (
        listed(board.card_label(c) for c in shown)
        or "no card: the deck and the discard pile are empty"
    )
    log(g, f"{event_label(f)} turns up {names}.")
    push(
        g,
        {
            "step": "reveal_resolve",
            "side": as_side,
            "holding": shown,
            "icons": list(icons),
            "card": f["card"],
        },
    )


@register
class RevealResolve(Step):
    """Resolve the turned-up cards one at a time; holds the ones still waiting."""

    name = "reveal_resolve"
    auto = True

    def run(self, g: GameState, f: Frame) -> None:
        if not f["holding"]:
            pop(g)
            return
        card = f["holding"].pop(0)
        label = board.card_label(card)
        if CARDS[card].icon not in f["icons"]:
            g["discard"].append(card)
            shows = (
                "both icons"
                if CARDS[card].icon == "both"
                else f"only {CARDS[card].icon.title()}'s icon"
            )
            log(g, f"{label} shows {shows} and is discarded.")
        elif not event_available(g, card):
            g["discard"].append(card)
            by = effects.prevented_by(g, card)
            if by:
                log(
                    g,
                    f"{label}: its event is prevented by {board.card_label(by)} (R6.4); "
                    "the card is discarded.",
                )
            else:
                log(g, f"{label} has no event to resolve and is discarded.")
        else:
            log(g, f"The event of {label} is resolved as if {f['side'].title()} played it.")
            start_event(g, f["side"], card, "revealed")


@primitive
def restore_candidate(g: GameState, f: Frame, who: str) -> None:
    """An exhausted candidate card is turned face up again (R6.9)."""
    side = resolve(g, f, who)
    if side is None or g["candidate"][side] != "exhausted":
        return
    g["candidate"][side] = "active"
    log(g, f"{side.title()}'s candidate card is active again (R6.9).")


@primitive
def exhaust_candidate(g: GameState, f: Frame, who: str) -> None:
    """Turn the side's active candidate card to its exhausted side (R6.9)."""
    side = resolve(g, f, who)
    if side is None:
        return
    if g["candidate"][side] == "active":
        g["candidate"][side] = "exhausted"
        log(g, f"{side.title()}'s candidate card is exhausted (R6.9).")
    else:
        log(g, f"{side.title()}'s candidate card is already exhausted.")
