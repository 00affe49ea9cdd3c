"""Effects in force: rest-of-turn card effects and the hooks the rules consult.

A card event adds ``{"id": ID, "side": SIDE, "card": N}`` to ``g["effects"]``
(cleared at the end of the turn, R6.3). The rules never look at card numbers:
they ask the hook functions below, and each effect id registers the hooks it
changes in `EFFECTS`. Persistent events in force (R6.4) are the cards in
``g["persistent"]``; `prevented_by` answers for prevention events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.data import CARDS
from engine.schema import CardNo, Region, Side
from engine.schema import Effect as Effect  # re-exported for the cards
from engine.state import GameState


@dataclass(frozen=True)
class EffectRules:
    """The hooks one effect id provides; each is optional."""

    # extra CP for a card the side plays for ``kind`` ("campaign", "advertise", "position", "any")
    cp_delta: Callable[[GameState, Effect, str, str], int] | None = None
    # True if the side may not campaign (spend CP) in a state
    campaign_banned: Callable[[GameState, Effect, str, str], bool] | None = None
    # True if the side pays no travel cost
    travel_free: Callable[[GameState, Effect, str], bool] | None = None
    # "force" / "waive" support checks when the side campaigns in a state; None = rules
    check_mode: Callable[[GameState, Effect, str, str], str | None] | None = None
    # True if the side may not spend momentum
    momentum_locked: Callable[[GameState, Effect, str], bool] | None = None
    # momentum the side must pay to use a card for ``kind`` ("campaign", "event", ...)
    play_cost: Callable[[GameState, Effect, str, str], int] | None = None
    # called after the side plays a card for ``kind``
    on_play: Callable[[GameState, Effect, str, str], None] | None = None
    # True if the side may preempt without spending momentum
    free_preempt: Callable[[GameState, Effect, str], bool] | None = None
    # True if the side may redraw a failed support check once
    redraw: Callable[[GameState, Effect, str], bool] | None = None


EFFECTS: dict[str, EffectRules] = {}


def define(effect_id: str, rules: EffectRules) -> None:
    if effect_id in EFFECTS:
        raise ValueError(f"effect {effect_id!r} defined twice")
    EFFECTS[effect_id] = rules


def add_effect(
    g: GameState, effect_id: str, side: Side, card: CardNo, regions: list[Region] | None = None
) -> None:
    """Put a rest-of-turn effect in force (``regions``: where it applies, if it names any)."""
    if effect_id not in EFFECTS:
        raise KeyError(effect_id)
    e: Effect = {"id": effect_id, "side": side, "card": card}
    if regions is not None:
        e["regions"] = regions
    g["effects"].append(e)


def clear_turn_effects(g: GameState) -> None:
    g["effects"] = []


def _each(g: GameState) -> list[tuple[Effect, EffectRules]]:
    effs = g["effects"]
    if not effs:
        return []
    return [(e, EFFECTS[e["id"]]) for e in effs]


Hooks = list[tuple[Effect, Callable[..., Any]]]


def hooks_of(g: GameState, hook: str) -> Hooks:
    """The (effect, function) pairs in force for ``hook``: hot loops look them up once."""
    return [(e, fn) for e in g["effects"] if (fn := getattr(EFFECTS[e["id"]], hook)) is not None]


def cp_value(g: GameState, side: str, base: int, kind: str) -> int:
    """A card's CP after effects: raised never above 5, lowered never below 1."""
    delta = 0
    for e in g["effects"]:  # query hooks are pure: loop without building (effect, rules) pairs
        fn = EFFECTS[e["id"]].cp_delta
        if fn:
            delta += fn(g, e, side, kind)
    if delta > 0:
        return max(base, min(5, base + delta))
    if delta < 0:
        return min(base, max(1, base + delta))
    return base


def campaign_banned(g: GameState, side: str, st: str, hooks: Hooks | None = None) -> bool:
    """``hooks``: `hooks_of` (g, "campaign_banned"), when the caller has it already."""
    hs = hooks_of(g, "campaign_banned") if hooks is None else hooks
    return any(fn(g, e, side, st) for e, fn in hs)


def travel_free(g: GameState, side: str) -> bool:
    for e in g["effects"]:
        fn = EFFECTS[e["id"]].travel_free
        if fn and fn(g, e, side):
            return True
    return False


def check_mode(g: GameState, side: str, st: str, hooks: Hooks | None = None) -> str | None:
    """``"waive"`` beats ``"force"``; ``None`` means R7.4 decides alone (``hooks`` as above)."""
    hs = hooks_of(g, "check_mode") if hooks is None else hooks
    modes = {fn(g, e, side, st) for e, fn in hs}
    if "waive" in modes:
        return "waive"
    if "force" in modes:
        return "force"
    return None


def momentum_locked(g: GameState, side: str) -> bool:
    for e in g["effects"]:
        fn = EFFECTS[e["id"]].momentum_locked
        if fn and fn(g, e, side):
            return True
    return False


def play_cost(g: GameState, side: str, kind: str) -> int:
    cost = 0
    for e in g["effects"]:
        fn = EFFECTS[e["id"]].play_cost
        if fn:
            cost += fn(g, e, side, kind)
    return cost


def play_cost_cause(g: GameState, side: str, kind: str) -> str:
    """The cards whose effects in force make this play cost momentum (`play_cost`): the cause
    of the log line paying it (#2: 'Nixon loses 1 momentum and now has 0 (#2 Nixon's Knee).')."""
    return "; ".join(
        f"#{e['card']} {CARDS[e['card']].name}"
        for e in g["effects"]
        if (fn := EFFECTS[e["id"]].play_cost) and fn(g, e, side, kind)
    )


def on_play(g: GameState, side: str, kind: str) -> None:
    """Run the effects in force that answer a card play; what they log names their card."""
    if not g["effects"]:
        return
    for e, r in _each(g):
        if r.on_play:
            start = len(g["log"])
            r.on_play(g, e, side, kind)
            for entry in g["log"][start:]:
                entry["why"] = f"#{e['card']} {CARDS[e['card']].name}"


def free_preempt(g: GameState, side: str) -> bool:
    for e in g["effects"]:
        fn = EFFECTS[e["id"]].free_preempt
        if fn and fn(g, e, side):
            return True
    return False


def may_redraw(g: GameState, side: str) -> bool:
    for e in g["effects"]:
        fn = EFFECTS[e["id"]].redraw
        if fn and fn(g, e, side):
            return True
    return False


def prevented_by(g: GameState, card: int) -> int | None:
    """The prevention card in force that makes ``card``'s event unplayable (R6.4)."""
    for p in g["persistent"]["prevention"]:
        if card in CARDS[p].prevents:
            return int(p)
    return None
