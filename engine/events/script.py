"""The event registry and interpreter: scripts of ops over the primitive vocabulary (R6.3, R6.4).

An event is a list of ops, each ``(name, args)``, naming a primitive registered with
`primitive` (the vocabulary lives in `engine.events.primitives`, split by what it acts on).
The ``event`` step runs the ops in order; an op that needs a player's choice pushes a
decision step and the interpreter resumes at the next op when that step ends. Afterwards
the card leaves the game, or goes to its persistent space (R6.4). Election Day events
(R13.4) have a second script run on Election Day; debate events (R12) declare their hooks
(``debate_bonus``, ``reveal_first``) in their `EventDef`.

Sides in op arguments are *who-specs*, resolved when the op runs: ``"player"``,
``"opponent"``, ``"kennedy"``, ``"nixon"``, ``"leader:ISSUE"`` or ``"var:NAME"``; a spec that
resolves to nobody makes the op do nothing. This module imports no primitive and no card,
so the phases may import it (no import cycle).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from engine import board
from engine.data import CARDS, issue_name, listed, other
from engine.effects import prevented_by
from engine.flow import Frame, Step, pop, push, register, top
from engine.schema import PersistentKind
from engine.state import GameState, log

Op = tuple[str, dict[str, Any]]
DebateBonus = Callable[[GameState, str], int]  # (g, side) -> extra CP on every issue contest


OpFn = Callable[..., None]


OPS: dict[str, OpFn] = {}


def primitive(fn: OpFn) -> OpFn:
    """Register a primitive under its function name."""
    OPS[fn.__name__] = fn
    return fn


def _stays(card: int, kind: str) -> str:
    """How long a persistent event stays on the board (R6.4)."""
    if kind == "election_day":
        return "until Election Day, when its event takes effect"
    if kind == "debate":
        return "until the end of the Debates"
    names = listed(board.card_label(n) for n in CARDS[card].prevents)
    return f"for the rest of the game: {names} can no longer take effect"


@dataclass(frozen=True)
class EventDef:
    """What a card's event does: ops when played; ops on Election Day (if any); while it is
    in force as a debate event (R12.7), extra CP per issue contest and who reveals first."""

    card: int
    ops: tuple[Op, ...]
    election_day: tuple[Op, ...] = field(default=())
    debate_bonus: DebateBonus | None = None
    reveal_first: str | None = None


EVENTS: dict[int, EventDef] = {}


def op(name: str, **args: Any) -> Op:
    """Build one op row; the name must be a registered primitive."""
    return (name, args)


def event(
    card: int,
    *ops: Op,
    election_day: tuple[Op, ...] = (),
    debate_bonus: DebateBonus | None = None,
    reveal_first: str | None = None,
) -> EventDef:
    """Register the event script of ``card`` (see `EventDef`)."""
    if card in EVENTS:
        raise ValueError(f"event of card {card} defined twice")
    for name, _ in (*ops, *election_day):
        if name not in OPS:
            raise ValueError(f"card {card}: unknown op {name!r}")
    d = EventDef(card, tuple(ops), tuple(election_day), debate_bonus, reveal_first)
    EVENTS[card] = d
    return d


def event_available(g: GameState, card: int) -> bool:
    """Implemented, and not made unplayable by a prevention event in force (R6.4)."""
    return card in EVENTS and prevented_by(g, card) is None


def resolve(g: GameState, f: Frame, spec: str) -> str | None:
    """Resolve a who-spec to a side, or ``None``."""
    if spec == "player":
        return str(f["side"])
    if spec == "opponent":
        return other(f["side"])
    if spec in ("kennedy", "nixon"):
        return spec
    if spec.startswith("leader:"):
        return board.issue_leader(g, spec[7:])
    if spec.startswith("var:"):
        v = f["vars"].get(spec[4:])
        return str(v) if v else None
    raise ValueError(f"bad who-spec {spec!r}")


def nobody(spec: str) -> str:
    """Why a who-spec `resolve`s to no side, as the log says it: 'nobody leads Civil Rights'."""
    if spec.startswith("leader:"):
        return f"nobody leads {issue_name(spec[7:])}"
    return "nobody qualifies"


def ask(g: GameState, f: Frame, who: str, step: str, **keys: Any) -> None:
    """Push the decision ``step`` of this event for the side ``who`` resolves to (nobody: no
    question); the frame holds ``keys`` and the event's card, for the step's prompt."""
    side = resolve(g, f, who)
    if side is not None:
        push(g, {"step": step, "side": side, **keys, "card": f["card"]})


def state_arg(f: Frame, spec: str) -> str | None:
    """A state code, or the state stored in the event's vars for ``"var:NAME"``."""
    if spec.startswith("var:"):
        v = f["vars"].get(spec[4:])
        return str(v) if v else None
    return spec


def set_var(g: GameState, name: str, value: str) -> None:
    """Store a choice in the event frame that is now on top of the stack."""
    f = top(g)
    assert f is not None and f["step"] == "event", "a choice step must sit on its event"
    f["vars"][name] = value


def event_label(f: Frame) -> str:
    """The running event's card, as ``#N Name`` (for messages)."""
    return board.card_label(f["card"])


def start_event(g: GameState, side: str, card: int, source: str) -> None:
    """Resolve ``card``'s event for ``side`` (played, triggered, or by another event)."""
    push(g, {"step": "event", "card": card, "side": side, "pc": 0, "source": source, "vars": {}})


def start_election_event(g: GameState, card: int) -> None:
    """R13.4: run the Election Day script of a persistent event."""
    side = CARDS[card].icon if CARDS[card].icon != "both" else "kennedy"
    push(
        g,
        {
            "step": "event",
            "card": card,
            "side": side,
            "pc": 0,
            "source": "election_day",
            "vars": {},
        },
    )


@register
class EventStep(Step):
    """The interpreter: runs a card's ops; an op may push a decision and we resume after it."""

    name = "event"
    auto = True

    def run(self, g: GameState, f: Frame) -> None:
        fns = OPS
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
            kind = cast(PersistentKind, CARDS[card].persistent)
            g["persistent"][kind].append(card)  # R6.4
            log(g, f"{board.card_label(card)} stays on the board {_stays(card, kind)} (R6.4).")
        else:
            g["removed"].append(card)  # R6.3
