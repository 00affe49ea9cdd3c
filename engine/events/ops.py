"""The effect vocabulary of card events: primitives and their choice steps.

Each primitive is ``fn(g, frame, **args)`` where ``frame`` is the running
event (``frame["side"]`` is the player resolving it). Sides in arguments are
*who-specs*, resolved when the op runs: ``"player"``, ``"opponent"``,
``"kennedy"``, ``"nixon"``, ``"leader:ISSUE"`` or ``"var:NAME"``; a spec that
resolves to nobody makes the op do nothing. Support gained by events needs no
checks (R6.10) except in the GMT edition where the opponent carries or
occupies the state (R16.3); losses are limited to what is on the board (R6.6).

Choice steps: ``place_support``, ``remove_support``, ``cp_choice``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import board, effects
from engine.data import REGIONS, STATES, other, sign
from engine.flow import Frame, Step, pop, push, register
from engine.phases import cp as cp_phase
from engine.state import GameState, log

OpFn = Callable[..., None]
OPS: dict[str, OpFn] = {}


def primitive(fn: OpFn) -> OpFn:
    """Register a primitive under its function name."""
    OPS[fn.__name__] = fn
    return fn


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


def event_needs_checks(g: GameState, side: str, st: str) -> bool:
    """R6.10: events place support outright — except R16.3 (GMT), as R7.4 when campaigning."""
    return g["edition"] == "gmt" and board.checks_required(g, side, st)


def event_gain(g: GameState, side: str, st: str, n: int = 1) -> int:
    """``n`` state support from an event, as one declaration (R16.3 ruling: drawn together)."""
    if event_needs_checks(g, side, st):
        n = board.support_checks(g, side, n, f"{STATES[st].name} (R16.3)")
    board.gain(g, "states", st, side, n)
    return n


def states_in(states: list[str] | None = None, regions: list[str] | None = None) -> list[str]:
    """Explicit states, or all states of regions, or all 50."""
    if states:
        return list(states)
    if regions:
        return [s for s in STATES if STATES[s].region in regions]
    return list(STATES)


# -- simple primitives -------------------------------------------------------------------


@primitive
def momentum(g: GameState, f: Frame, who: str = "player", n: int = 1) -> None:
    """Gain (n > 0) or lose (n < 0, never below zero) momentum."""
    side = resolve(g, f, who)
    if side is None:
        return
    if n >= 0:
        board.gain_momentum(g, side, n)
    else:
        board.lose_momentum(g, side, -n)


@primitive
def move_token(g: GameState, f: Frame, who: str, state: str) -> None:
    """Move a candidate token at no travel cost."""
    side = resolve(g, f, who)
    if side is None:
        return
    g["token"][side] = state
    log(g, f"{side.title()}'s token moves to {STATES[state].name} at no cost.")


@primitive
def state_support(g: GameState, f: Frame, who: str, state: str, n: int) -> None:
    """Gain ``n`` support in a named state (R1.4; R16.3 in GMT)."""
    side = resolve(g, f, who)
    if side is None:
        return
    got = event_gain(g, side, state, n)
    log(g, f"{side.title()} gains {got} support in {STATES[state].name}.")


@primitive
def lose_state_support(g: GameState, f: Frame, who: str, state: str, n: int) -> None:
    """Lose up to ``n`` own cubes in a state (R6.6)."""
    side = resolve(g, f, who)
    if side is None:
        return
    k = board.lose(g, "states", state, side, n)
    log(g, f"{side.title()} loses {k} support in {STATES[state].name} (R6.6).")


@primitive
def issue_up(g: GameState, f: Frame, issue: str, n: int = 1) -> None:
    board.move_issue_up(g, issue, n)


@primitive
def issue_support(g: GameState, f: Frame, who: str, issue: str, n: int) -> None:
    """Gain ``n`` issue support (R1.4)."""
    side = resolve(g, f, who)
    if side is None:
        return
    board.gain(g, "issues", issue, side, n)
    log(g, f"{side.title()} gains {n} support on {board.issue_name(issue)}.")


@primitive
def lose_issue_support(g: GameState, f: Frame, who: str, issue: str, n: int) -> None:
    side = resolve(g, f, who)
    if side is None:
        return
    k = board.lose(g, "issues", issue, side, n)
    log(g, f"{side.title()} loses {k} support on {board.issue_name(issue)} (R6.6).")


@primitive
def media(g: GameState, f: Frame, who: str, region: str, n: int = 1) -> None:
    side = resolve(g, f, who)
    if side is None:
        return
    board.gain(g, "media", region, side, n)
    log(g, f"{side.title()} gains {n} media support in the {region.title()}.")


@primitive
def add_effect(g: GameState, f: Frame, effect: str, who: str = "player") -> None:
    """Put a rest-of-turn effect in force (engine.effects)."""
    side = resolve(g, f, who)
    if side is None:
        return
    effects.add_effect(g, effect, side, f["card"])
    log(g, f"{board.card_label(f['card'])} is in force for the rest of the turn.")


@primitive
def support_checks(g: GameState, f: Frame, who: str, state: str, n: int) -> None:
    """``n`` support checks for support in a state (Election Day events)."""
    side = resolve(g, f, who)
    if side is None:
        return
    wins = board.support_checks(g, side, n, STATES[state].name)
    board.gain(g, "states", state, side, wins)


@primitive
def reveal_hand(g: GameState, f: Frame, whose: str, to: str) -> None:
    """Show a side's whole hand to the other side (from now on in its view)."""
    a, b = resolve(g, f, whose), resolve(g, f, to)
    if a is None or b is None:
        return
    cards = sorted(g["hands"][a])
    g["revealed"][b].append({"card": f["card"], "side": a, "cards": cards, "turn": g["turn"], "seq": g["seq"]})
    log(g, f"{a.title()} reveals the hand to {b.title()}.")
    shown = ", ".join(board.card_label(c) for c in cards) or "no cards"
    log(g, f"{a.title()}'s hand: {shown}.", to=b)


@primitive
def token_loss(g: GameState, f: Frame, who: str, n: int) -> None:
    """The side loses up to ``n`` cubes in the state where its own token stands."""
    side = resolve(g, f, who)
    if side is None:
        return
    st = g["token"][side]
    k = board.lose(g, "states", st, side, n)
    log(g, f"{side.title()} loses {k} support in {STATES[st].name} (R6.6).")


@primitive
def gathering_momentum(g: GameState, f: Frame, region: str) -> None:
    """#14-#17: whoever leads more states of the region gains 1 momentum and fills empty states."""
    states = board.region_states(region)
    k = sum(1 for s in states if g["states"][s] > 0)
    n = sum(1 for s in states if g["states"][s] < 0)
    if k == n:
        log(g, f"Kennedy and Nixon lead {k} states each in the {region.title()}: nothing happens.")
        return
    side = "kennedy" if k > n else "nixon"
    board.gain_momentum(g, side, 1)
    empty = [s for s in states if g["states"][s] == 0]
    for s in empty:
        event_gain(g, side, s, 1)
    log(g, f"{side.title()} leads more {region.title()} states and adds support in {len(empty)} empty state(s).")


@primitive
def cp_action(g: GameState, f: Frame, who: str, cp: int) -> None:
    """One CP action of the side's choice worth ``cp`` (no card: no rest cubes, no trigger)."""
    side = resolve(g, f, who)
    if side is None:
        return
    push(g, {"step": "cp_choice", "side": side, "cp": cp})


# -- choices ------------------------------------------------------------------------------


@primitive
def place_support(
    g: GameState,
    f: Frame,
    who: str,
    n: int,
    per: int | None = None,
    states: list[str] | None = None,
    regions: list[str] | None = None,
) -> None:
    """The side places up to ``n`` state support, at most ``per`` per state."""
    side = resolve(g, f, who)
    if side is None:
        return
    push(g, {"step": "place_support", "side": side, "left": n, "per": per,
             "allowed": states_in(states, regions), "placed": {}, "card": f["card"]})


@primitive
def remove_support(
    g: GameState,
    f: Frame,
    who: str,
    target: str,
    n: int,
    per: int | None = None,
    states: list[str] | None = None,
    regions: list[str] | None = None,
    optional: bool = True,
) -> None:
    """The side removes up to ``n`` (exactly, if not optional) of ``target``'s cubes."""
    side, tgt = resolve(g, f, who), resolve(g, f, target)
    if side is None or tgt is None:
        return
    push(g, {"step": "remove_support", "side": side, "target": tgt, "left": n, "per": per,
             "allowed": states_in(states, regions), "removed": {}, "optional": optional,
             "card": f["card"]})


_SUPPORT = {st: f"support {st}" for st in STATES}  # canonical texts, built once
_REMOVE = {st: f"remove {st}" for st in STATES}


@register
class PlaceSupport(Step):
    """Place event support one point at a time: ``support ST``, or ``done`` to stop early.

    GMT (R16.3 ruling): where the opponent carries or occupies the state the player
    declares at once how many of the event's points go there, ``check ST N``, drawn
    together; that state then takes no more of this event's points.
    """

    name = "place_support"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        if g["edition"] == "gmt":
            return self._gmt_legal(g, f, side)
        per = f["per"]
        if per is None:
            return [*map(_SUPPORT.__getitem__, f["allowed"]), "done"]
        placed = f["placed"]
        if not placed and per > 0:  # nothing placed yet: every allowed state
            return [*map(_SUPPORT.__getitem__, f["allowed"]), "done"]
        out = [_SUPPORT[s] for s in f["allowed"] if placed.get(s, 0) < per]
        out.append("done")
        return out

    @staticmethod
    def _gmt_legal(g: GameState, f: Frame, side: str) -> list[str]:
        per, placed, left = f["per"], f["placed"], f["left"]
        checked = cp_phase.checked_states(f)
        out: list[str] = []
        for st in f["allowed"]:
            room = left if per is None else min(left, per - placed.get(st, 0))
            if room < 1 or st in checked:
                continue
            if event_needs_checks(g, side, st):
                out.extend(cp_phase.check_commands(st, room))
            else:
                out.append(_SUPPORT[st])
        out.append("done")
        return out

    def is_legal(self, g: GameState, f: Frame, side: str, cmd: str) -> bool:
        if side != f["side"]:
            return False
        if cmd == "done":
            return True
        if g["edition"] == "gmt":
            return cmd in self._gmt_legal(g, f, side)
        st = cmd[8:]  # 'support ST'
        per = f["per"]
        return (cmd.startswith("support ") and st in f["allowed"]
                and (per is None or f["placed"].get(st, 0) < per))

    def has_legal(self, g: GameState, f: Frame, side: str) -> bool:
        return bool(side == f["side"])  # 'done' is always legal

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        if words[0] == "done":
            pop(g)
            return
        st = words[1]
        n = int(words[2]) if words[0] == "check" else 1
        if words[0] == "check":
            f.setdefault("checked", []).append(st)  # R16.3 ruling: once per state per event
        got = event_gain(g, side, st, n)
        if words[0] == "check":
            log(g, f"{side.title()} places {got} of {n} declared support in {STATES[st].name} (R16.3).")
        else:
            log(g, f"{side.title()} places support in {STATES[st].name}.")
        f["placed"][st] = f["placed"].get(st, 0) + n
        f["left"] -= n
        if f["left"] <= 0 or self.legal(g, f, side) == ["done"]:
            pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        cap = f" (max {f['per']} per state)" if f["per"] else ""
        checks = " ('check ST N' declares N points at once where R16.3 requires support checks)" if (
            g["edition"] == "gmt") else ""
        return (f"{board.card_label(f['card'])}: place up to {f['left']} more state support{cap}, "
                f"'support ST' each{checks}, or 'done'.")


@register
class RemoveSupport(Step):
    """Remove the target's state support one cube at a time: ``remove ST``."""

    name = "remove_support"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        per, tgt = f["per"], f["target"]
        support, sg = g["states"], sign(tgt)
        out = [
            _REMOVE[s]
            for s in f["allowed"]
            if support[s] * sg > 0 and (per is None or f["removed"].get(s, 0) < per)  # cubes_of > 0
        ]
        if f["optional"] or not out:
            out.append("done")
        return out

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        if words[0] == "done":
            pop(g)
            return
        st = words[1]
        board.lose(g, "states", st, f["target"], 1)
        log(g, f"{side.title()} removes one {f['target'].title()} cube from {STATES[st].name}.")
        f["removed"][st] = f["removed"].get(st, 0) + 1
        f["left"] -= 1
        if f["left"] <= 0 or self.legal(g, f, side) == ["done"]:
            pop(g)

    def skip(self, g: GameState, f: Frame) -> None:
        pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        cap = f" (max {f['per']} per state)" if f["per"] else ""
        need = "up to " if f["optional"] else ""
        return f"{board.card_label(f['card'])}: remove {need}{f['left']} {f['target'].title()} state support{cap}, 'remove ST' each."


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


ALL_REGIONS = REGIONS
Args = dict[str, Any]
