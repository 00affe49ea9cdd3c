"""More effect primitives (cards 1-48) and their choice steps.

Builds on `engine.events.ops` (who-specs, `event_gain`, `place_support`). A
state argument written ``"var:NAME"`` is read from the running event's vars,
which choice steps such as ``pick_state`` fill in; a var that was never set
makes the op do nothing.

Primitives: ``rearrange_issues``, ``pick_state``, ``pick_region``,
``set_side``, ``gain_support``, ``token_to``, ``place_support_var``,
``must_remove``, ``remove_up_to``, ``ban_campaign``, ``take_from_discard``, ``issue_choice``,
``endorse``, ``restore_candidate``, ``reveal_and_resolve``, ``unpledge``.

Choice steps: ``order_issues``, ``pick_state``, ``choose_region``,
``take_discard``, ``choose_issue``; automatic: ``reveal_resolve``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import Any

from engine import board, effects, rng
from engine.data import CARDS, ISSUES, REGIONS, STATES, other
from engine.effects import EffectRules, define
from engine.events.ops import place_support as _place_support
from engine.events.ops import primitive, remove_support, resolve, states_in
from engine.flow import Frame, Step, pop, push, register, top
from engine.state import GameState, log

Effect = dict[str, Any]


def state_arg(f: Frame, spec: str) -> str | None:
    """A state code, or the state stored in the event's vars for ``"var:NAME"``."""
    if spec.startswith("var:"):
        v = f["vars"].get(spec[4:])
        return str(v) if v else None
    return spec


def _set_var(g: GameState, name: str, value: str) -> None:
    """Store a choice in the event frame that is now on top of the stack."""
    f = top(g)
    assert f is not None and f["step"] == "event", "a choice step must sit on its event"
    f["vars"][name] = value


def _card(f: Frame) -> str:
    return board.card_label(f["card"])


# -- sides and states chosen by rule -----------------------------------------------------------


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
        log(g, f"{_card(f)}: neither side has more support in {names}.")
        return
    f["vars"][var] = side
    log(g, f"{_card(f)}: {side.title()} has more support in {names}.")


StateRule = Callable[[GameState, str, str], bool]
STATE_RULES: dict[str, StateRule] = {
    # R1.5: the opponent leads (1+ cubes) but does not carry (4+)
    "opp_leads_not_carries": lambda g, side, st: board.leads(g, st, other(side)) and not board.carries(g, st, other(side)),
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
        log(g, f"{_card(f)}: no state qualifies, so nothing happens.")
        return
    push(g, {"step": "pick_state", "side": side, "var": var, "rule": rule, "allowed": allowed,
             "card": f["card"]})


@register
class PickState(Step):
    """Choose one state for an event: ``state ST``."""

    name = "pick_state"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return [f"state {s}" for s in f["allowed"]] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        _set_var(g, f["var"], words[1])
        log(g, f"{side.title()} chooses {STATES[words[1]].name}.")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        what = {"opp_leads_not_carries": "a state your opponent leads but does not carry (1-3 cubes)"}
        return f"{_card(f)}: choose {what.get(f['rule'], 'a state')}, 'state ST'."


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
        log(g, f"{_card(f)}: {side.title()} has no region that qualifies, so nothing happens.")
        return
    push(g, {"step": "choose_region", "side": side, "allowed": allowed, "then": "var", "var": var,
             "card": f["card"]})


@primitive
def endorse(g: GameState, f: Frame, who: str) -> None:
    """The side places one endorsement marker in a region of its choice (R10.5, R1.4)."""
    side = resolve(g, f, who)
    if side is None:
        return
    push(g, {"step": "choose_region", "side": side, "allowed": list(REGIONS), "then": "endorse",
             "card": f["card"]})


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
            _set_var(g, f["var"], region)
            log(g, f"{side.title()} chooses the {region.title()}.")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        if f["then"] == "endorse":
            return f"{_card(f)}: choose the region for your endorsement marker, 'region NAME'."
        return f"{_card(f)}: choose a region ({', '.join(f['allowed'])}), 'region NAME'."


# -- support and tokens at chosen states -----------------------------------------------------


@primitive
def gain_support(g: GameState, f: Frame, who: str, state: str, n: int) -> None:
    """Gain ``n`` state support (R6.10; R16.3 in GMT) at a state or ``var:`` state."""
    from engine.events.ops import event_gain

    side, st = resolve(g, f, who), state_arg(f, state)
    if st is None:
        return
    if side is None:
        log(g, f"{_card(f)}: nobody qualifies, so no support goes to {STATES[st].name}.")
        return
    got = event_gain(g, side, st, n)
    log(g, f"{side.title()} gains {got} support in {STATES[st].name}.")


@primitive
def token_to(g: GameState, f: Frame, who: str, state: str) -> None:
    """Move a candidate token to a state or ``var:`` state at no travel cost."""
    side, st = resolve(g, f, who), state_arg(f, state)
    if side is None or st is None:
        return
    g["token"][side] = st
    log(g, f"{side.title()}'s token moves to {STATES[st].name} at no cost.")


@primitive
def place_support_var(g: GameState, f: Frame, who: str, n: int, per: int | None, region: str) -> None:
    """`place_support` within the region stored in the var ``region`` (``"var:NAME"``)."""
    r = state_arg(f, region)
    if r is None:
        return
    _place_support(g, f, who, n, per=per, regions=[r])


@primitive
def must_remove(
    g: GameState,
    f: Frame,
    who: str,
    n: int,
    per: int | None = None,
    states: list[str] | None = None,
    regions: list[str] | None = None,
) -> None:
    """The side must remove ``n`` of its own state cubes there, choosing where (R6.6).

    If it has no more than ``n`` removable cubes there, all go without a choice.
    """
    side = resolve(g, f, who)
    if side is None:
        log(g, f"{_card(f)}: nobody qualifies, so nothing happens.")
        return
    allowed = states_in(states, regions)
    room = {s: min(board.cubes_of(g["states"][s], side), per or 99) for s in allowed}
    if sum(room.values()) <= n:
        for s, k in room.items():
            if k:
                board.lose(g, "states", s, side, k)
                log(g, f"{side.title()} loses {k} support in {STATES[s].name} (R6.6).")
        log(g, f"{side.title()} loses {sum(room.values())} support in all (R6.6).")
        return
    remove_support(g, f, who, who, n, per=per, states=allowed, optional=False)


@primitive
def remove_up_to(
    g: GameState,
    f: Frame,
    who: str,
    target: str,
    n: int,
    per: int | None = None,
    states: list[str] | None = None,
    regions: list[str] | None = None,
) -> None:
    """`remove_support` (optional, up to ``n``), skipped with a log line when the target
    has no cube there to remove (R6.6), so no empty decision is asked."""
    tgt = resolve(g, f, target)
    allowed = states_in(states, regions)
    if tgt is None or not any(board.cubes_of(g["states"][s], tgt) for s in allowed):
        log(g, f"{_card(f)}: there is no opposing support there to remove (R6.6).")
        return
    remove_support(g, f, who, target, n, per=per, states=allowed)


# -- rest-of-turn campaign bans --------------------------------------------------------------


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
    where = ", ".join(r.title() for r in regions)
    log(g, f"{side.title()} may not campaign in the {where} for the rest of the turn ({_card(f)}).")


# -- issues ----------------------------------------------------------------------------------


@primitive
def rearrange_issues(g: GameState, f: Frame, who: str = "player") -> None:
    """The side puts the three issues in any order on the issue track (R1.10)."""
    side = resolve(g, f, who)
    if side is None:
        return
    push(g, {"step": "order_issues", "side": side, "card": f["card"]})


@register
class OrderIssues(Step):
    """Rearrange the issue track: ``order FIRST SECOND THIRD``."""

    name = "order_issues"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        return ["order " + " ".join(p) for p in permutations(g["issue_order"])]

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        g["issue_order"] = list(words[1:4])
        shown = ", ".join(board.issue_name(i) for i in g["issue_order"])
        log(g, f"{side.title()} rearranges the issue track: {shown}.")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return f"{_card(f)}: put the issues in any order, 1st to 3rd, e.g. 'order economy defense civil_rights'."


@primitive
def issue_choice(g: GameState, f: Frame, who: str, n: int) -> None:
    """The side gains ``n`` issue support, all on one issue of its choice (R1.4)."""
    side = resolve(g, f, who)
    if side is None:
        return
    push(g, {"step": "choose_issue", "side": side, "n": n, "card": f["card"]})


@register
class ChooseIssue(Step):
    """Choose the issue that receives all the event's issue support: ``issue NAME``."""

    name = "choose_issue"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return [f"issue {i}" for i in ISSUES] if side == f["side"] else []

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        pop(g)
        board.gain(g, "issues", words[1], side, f["n"])
        log(g, f"{side.title()} gains {f['n']} support on {board.issue_name(words[1])}.")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return f"{_card(f)}: choose the issue for all {f['n']} issue support, 'issue NAME'."


# -- cards -----------------------------------------------------------------------------------


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
        log(g, f"{_card(f)}: no card to take from the discard pile.")
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
        log(g, f"{side.title()} takes {board.card_label(card)} from the discard pile into hand.")

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return f"{_card(f)}: 'take N' to add a card from the discard pile to your hand, or 'done'."


@primitive
def restore_candidate(g: GameState, f: Frame, who: str) -> None:
    """An exhausted candidate card is turned face up again (R6.9)."""
    side = resolve(g, f, who)
    if side is None or g["candidate"][side] != "exhausted":
        return
    g["candidate"][side] = "active"
    log(g, f"{side.title()}'s candidate card is active again (R6.9).")


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
    names = ", ".join(board.card_label(c) for c in shown) or "nothing (no cards left)"
    log(g, f"{_card(f)} turns up {names}.")
    push(g, {"step": "reveal_resolve", "side": as_side, "holding": shown, "icons": list(icons),
             "card": f["card"]})


@register
class RevealResolve(Step):
    """Resolve the turned-up cards one at a time; holds the ones still waiting."""

    name = "reveal_resolve"
    auto = True

    def run(self, g: GameState, f: Frame) -> None:
        from engine.events import event_available, start_event

        if not f["holding"]:
            pop(g)
            return
        card = f["holding"].pop(0)
        label = board.card_label(card)
        if CARDS[card].icon not in f["icons"]:
            g["discard"].append(card)
            log(g, f"{label} does not carry a {'/'.join(f['icons'])} icon and is discarded.")
        elif not event_available(g, card):
            g["discard"].append(card)
            by = effects.prevented_by(g, card)
            why = f"prevented by {board.card_label(by)} (R6.4)" if by else "has no event to resolve"
            log(g, f"{label}: its event is {why}; the card is discarded.")
        else:
            log(g, f"The event of {label} is resolved as if {f['side'].title()} played it.")
            start_event(g, f["side"], card, "revealed")


# -- Election Day ----------------------------------------------------------------------------


@primitive
def unpledge(g: GameState, f: Frame, states: list[str]) -> None:
    """These states give no EV to Kennedy if he wins them with fewer than 4 cubes (R14.1)."""
    for s in states:
        if s not in g["unpledged"]:
            g["unpledged"].append(s)
    names = ", ".join(STATES[s].name for s in states)
    log(g, f"{_card(f)}: {names} give their EV to nobody if Kennedy wins them with fewer than 4 support.")
