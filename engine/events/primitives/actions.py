"""Event primitives that grant actions or put rest-of-turn effects in force (R6.3).

Choice step: ``cp_choice`` (the kind of a CP action an event grants).
"""

from __future__ import annotations

from engine import board, effects
from engine.data import STATES, listed
from engine.effects import Effect, EffectRules, define
from engine.events.script import (
    event_label,
    primitive,
    resolve,
)
from engine.flow import Frame, Step, pop, push, register
from engine.phases import cp as cp_phase
from engine.state import GameState, log


@primitive
def add_effect(g: GameState, f: Frame, effect: str, who: str = "player") -> None:
    """Put a rest-of-turn effect in force (engine.effects)."""
    side = resolve(g, f, who)
    if side is None:
        return
    effects.add_effect(g, effect, side, f["card"])
    log(g, f"{board.card_label(f['card'])} is in force for the rest of the turn.")


def _banned(g: GameState, e: Effect, side: str, st: str) -> bool:
    return side == e["side"] and STATES[st].region in e["regions"]


define("campaign_ban_regions", EffectRules(campaign_banned=_banned))


@primitive
def ban_campaign(g: GameState, f: Frame, who: str, regions: list[str]) -> None:
    """For the rest of the turn the side may not spend CP campaigning in these regions (R6.3)."""
    side = resolve(g, f, who)
    if side is None:
        return
    effects.add_effect(g, "campaign_ban_regions", side, f["card"], regions=list(regions))
    where = listed((f"the {r.title()}" for r in regions), "or")
    log(
        g,
        f"{side.title()} may not campaign in {where} for the rest of the turn ({event_label(f)}).",
    )


@primitive
def cp_action(g: GameState, f: Frame, who: str, cp: int) -> None:
    """One CP action of the side's choice worth ``cp`` (no card: no rest cubes, no trigger)."""
    side = resolve(g, f, who)
    if side is None:
        return
    push(g, {"step": "cp_choice", "side": side, "cp": cp})


@primitive
def campaign_action(g: GameState, f: Frame, who: str, cp: int, cap: int | None = None) -> None:
    """A campaigning action worth ``cp`` (R7), at most ``cap`` CP per state; no card, no trigger."""
    side = resolve(g, f, who)
    if side is None:
        return
    log(
        g,
        f"{side.title()} campaigns with {cp} CP" + (f", at most {cap} per state." if cap else "."),
    )
    extra = {"cap": cap} if cap is not None else {}
    cp_phase.start(g, side, "campaign", cp, None, **extra)


@register
class CPChoice(Step):
    """Choose the kind of a CP action granted by an event."""

    name = "cp_choice"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return ["campaign", "advertise", "position"] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        log(g, f"{side.title()} uses {f['cp']} CP to {words[0]}.")
        cp_phase.start(g, side, words[0], f["cp"], None)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return f"Use {f['cp']} CP to 'campaign', 'advertise' or 'position'."
