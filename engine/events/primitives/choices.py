"""Event primitives that choose: sides and states by rule, states and regions by the
player, endorsements, and conditions that end an event early.

Choice steps: ``pick_state``, ``choose_region``.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import board
from engine.data import ISSUES, REGIONS, STATES, counted, issue_name, other
from engine.events.script import (
    event_label,
    primitive,
    resolve,
    set_var,
)
from engine.flow import Frame, Step, pop, push, register
from engine.state import GameState, log


def _state_leader(g: GameState, states: list[str]) -> str | None:
    """The side with more state support cubes in ``states`` combined (None on a tie)."""
    total = sum(g["states"][s] for s in states)
    return board.owner(total)


@primitive
def set_side(g: GameState, f: Frame, var: str, states: list[str], rule: str = "most_cubes") -> None:
    """Store a side in a var: ``rule="most_cubes"`` = more state cubes in ``states`` combined.

    One colour per state (R1.4), so the signed sum compares the two sides'
    cubes; a tie (or no cubes) stores nobody.
    """
    if rule != "most_cubes":
        raise ValueError(f"unknown rule {rule!r}")
    side = _state_leader(g, states)
    names = " and ".join(STATES[s].name for s in states)
    if side is None:
        log(g, f"{event_label(f)}: neither side has more support in {names}.")
        return
    f["vars"][var] = side
    log(g, f"{event_label(f)}: {side.title()} has more support in {names}.")


StateRule = Callable[[GameState, str, str], bool]


STATE_RULES: dict[str, StateRule] = {
    # R1.5: the opponent leads (1+ cubes) but does not carry (4+)
    "opp_leads_not_carries": lambda g, side, st: (
        board.leads(g, st, other(side)) and not board.carries(g, st, other(side))
    ),
    "any": lambda g, side, st: True,
    "maryland_or_virginia": lambda g, side, st: st in ("MD", "VA"),  # #69
}


@primitive
def pick_state(g: GameState, f: Frame, who: str, var: str, rule: str) -> None:
    """The side chooses one state meeting ``rule`` (see `STATE_RULES`); stored in ``var``."""
    side = resolve(g, f, who)
    if side is None:
        return
    test = STATE_RULES[rule]
    allowed = [s for s in STATES if test(g, side, s)]
    if not allowed:
        log(g, f"{event_label(f)}: no state qualifies, so nothing happens.")
        return
    push(
        g,
        {
            "step": "pick_state",
            "side": side,
            "var": var,
            "rule": rule,
            "allowed": allowed,
            "card": f["card"],
        },
    )


@register
class PickState(Step):
    """Choose one state for an event: ``state ST``."""

    name = "pick_state"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return [f"state {s}" for s in f["allowed"]] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        set_var(g, f["var"], words[1])
        log(g, f"{side.title()} chooses {STATES[words[1]].name}.")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        what = {
            "opp_leads_not_carries": "a state your opponent leads but does not carry (1-3 cubes)"
        }
        return f"{event_label(f)}: choose {what.get(f['rule'], 'a state')}, 'state ST'."


REGION_RULES: dict[str, StateRule] = {
    "any": lambda g, side, r: True,
    "has_media": lambda g, side, r: board.has_media(g, side, r),  # R1.3 media support
}


@primitive
def pick_region(g: GameState, f: Frame, who: str, var: str, rule: str = "any") -> None:
    """The side chooses a region meeting ``rule`` (`REGION_RULES`); stored in ``var``."""
    side = resolve(g, f, who)
    if side is None:
        return
    allowed = [r for r in REGIONS if REGION_RULES[rule](g, side, r)]
    if not allowed:
        log(
            g, f"{event_label(f)}: {side.title()} has no region that qualifies, so nothing happens."
        )
        return
    push(
        g,
        {
            "step": "choose_region",
            "side": side,
            "allowed": allowed,
            "then": "var",
            "var": var,
            "card": f["card"],
        },
    )


@primitive
def endorse(g: GameState, f: Frame, who: str) -> None:
    """The side places one endorsement marker in a region of its choice (R10.5, R1.4)."""
    side = resolve(g, f, who)
    if side is None:
        return
    push(
        g,
        {
            "step": "choose_region",
            "side": side,
            "allowed": list(REGIONS),
            "then": "endorse",
            "card": f["card"],
        },
    )


@register
class ChooseRegion(Step):
    """Choose a region for an event: ``region NAME`` (to endorse there, or to remember)."""

    name = "choose_region"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return [f"region {r}" for r in f["allowed"]] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        region = words[1]
        if f["then"] == "endorse":
            board.place_endorsement(g, side, region)
        else:
            set_var(g, f["var"], region)
            log(g, f"{side.title()} chooses the {region.title()}.")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        if f["then"] == "endorse":
            return (
                f"{event_label(f)}: choose the region for your endorsement marker, 'region NAME'."
            )
        return f"{event_label(f)}: choose a region ({', '.join(f['allowed'])}), 'region NAME'."


SKIP = 1_000_000  # an event pc past any script: the event's remaining ops are skipped


@primitive
def only_if(
    g: GameState, f: Frame, who: str, issue: str | None = None, issues_led: int | None = None
) -> None:
    """Go on with the event only if ``who`` leads ``issue`` / at least ``issues_led`` issues."""
    side = resolve(g, f, who)
    unmet = None if side is not None else "its condition is not met"
    if side is not None and issue is not None and board.issue_leader(g, issue) != side:
        unmet = f"{side.title()} does not lead {issue_name(issue)}"
    led = sum(1 for i in ISSUES if board.issue_leader(g, i) == side) if side else 0
    if unmet is None and side is not None and issues_led is not None and led < issues_led:
        unmet = f"{side.title()} leads fewer than {counted(issues_led, 'issue')}"
    if unmet is not None:
        more = "" if f["pc"] == 1 else " more"  # the event's first op: nothing has happened yet
        log(g, f"{board.card_label(f['card'])}: {unmet}, so nothing{more} happens.")
        f["pc"] = SKIP


@primitive
def let_media_owner(g: GameState, f: Frame, var: str, region: str) -> None:
    """Store in ``var`` the side with media support in ``region`` (R1.3), or nobody."""
    side = board.owner(g["media"][region])
    f["vars"][var] = side
    if side is None:
        log(
            g,
            f"{board.card_label(f['card'])}: nobody has media support in the {region.title()}, so nothing happens.",
        )
