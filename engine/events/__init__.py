"""Card events: a registry of event scripts run by a small interpreter (R6.3, R6.4).

An event is a list of ops, each ``(name, args)``, naming a primitive in
`engine.events.ops`. The ``event`` step runs the ops in order; an op that
needs a player's choice pushes a decision step and the interpreter resumes
at the next op when that step ends. Afterwards the card leaves the game, or
goes to its persistent space (R6.4). Election Day events (R13.4) have a second
script run on Election Day.

Card scripts live in `engine.events.cards_*` modules and register with `event`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.data import CARDS, deck_cards
from engine.effects import prevented_by
from engine.flow import Frame, Step, pop, push, register
from engine.state import GameState

Op = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class EventDef:
    """What a card's event does: ops when played; ops on Election Day (if any)."""

    card: int
    ops: tuple[Op, ...]
    election_day: tuple[Op, ...] = field(default=())


EVENTS: dict[int, EventDef] = {}


def op(name: str, **args: Any) -> Op:
    """Build one op row; the name must be a registered primitive."""
    return (name, args)


def event(card: int, *ops: Op, election_day: tuple[Op, ...] = ()) -> EventDef:
    """Register the event script of ``card``."""
    from engine.events.ops import OPS

    if card in EVENTS:
        raise ValueError(f"event of card {card} defined twice")
    for name, _ in (*ops, *election_day):
        if name not in OPS:
            raise ValueError(f"card {card}: unknown op {name!r}")
    d = EventDef(card, tuple(ops), tuple(election_day))
    EVENTS[card] = d
    return d


def event_available(g: GameState, card: int) -> bool:
    """Implemented, and not made unplayable by a prevention event in force (R6.4)."""
    return card in EVENTS and prevented_by(g, card) is None


def unimplemented_events(edition: str = "zman") -> list[int]:
    """Card numbers of the edition's deck whose event is not implemented yet."""
    _load_cards()
    return sorted(n for n in deck_cards(edition) if n not in EVENTS)


def start_event(g: GameState, side: str, card: int, source: str) -> None:
    """Resolve ``card``'s event for ``side`` (played, triggered, or by another event)."""
    push(g, {"step": "event", "card": card, "side": side, "pc": 0, "source": source, "vars": {}})


def start_election_event(g: GameState, card: int) -> None:
    """R13.4: run the Election Day script of a persistent event."""
    side = CARDS[card].icon if CARDS[card].icon != "both" else "kennedy"
    push(g, {"step": "event", "card": card, "side": side, "pc": 0, "source": "election_day", "vars": {}})


@register
class EventStep(Step):
    """The interpreter: runs a card's ops; an op may push a decision and we resume after it."""

    name = "event"
    auto = True

    def run(self, g: GameState, f: Frame) -> None:
        fns = _ops.OPS
        d = EVENTS[f["card"]]
        ops = d.election_day if f["source"] == "election_day" else d.ops
        stack = g["stack"]
        while f["pc"] < len(ops):
            name, args = ops[f["pc"]]
            f["pc"] += 1
            fns[name](g, f, **args)
            if stack is not g["stack"] or not stack or stack[-1] is not f:
                return
        pop(g)
        self._finish(g, f)

    @staticmethod
    def _finish(g: GameState, f: Frame) -> None:
        card = f["card"]
        if f["source"] == "election_day":
            g["persistent"]["election_day"].remove(card)
            g["removed"].append(card)
            return
        fate = f.get("fate")
        if fate == "discard":
            g["discard"].append(card)
        elif fate == "none":
            pass
        elif CARDS[card].persistent != "none":
            g["persistent"][CARDS[card].persistent].append(card)  # R6.4
        else:
            g["removed"].append(card)  # R6.3


_loaded = False


def _load_cards() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        import importlib
        import pkgutil

        import engine.events as pkg

        for m in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if m.name.startswith("cards_"):
                importlib.import_module(f"engine.events.{m.name}")


from engine.events import ops as _ops  # noqa: E402  (registers the primitive steps)

_load_cards()
