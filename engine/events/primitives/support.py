"""Event primitives on state support and candidate tokens: gain, lose, place, remove.

Support gained by events needs no checks (R6.10) except in the GMT edition where the
opponent carries or occupies the state (R16.3: declared once per state per event, ``check
ST N``); losses are limited to what is on the board (R6.6). Choice steps:
``place_support``, ``remove_support``.
"""

from __future__ import annotations

from engine import board
from engine.data import STATES, counted, listed, sign
from engine.events.script import (
    ask,
    event_label,
    nobody,
    primitive,
    resolve,
    state_arg,
)
from engine.flow import Frame, Step, pop, push, register
from engine.phases import cp as cp_phase
from engine.state import GameState, log


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


def _area(states: list[str] | None, regions: list[str] | None) -> str:
    """Where `states_in` looks, as the log says it: 'in the South or the Midwest'."""
    if states:
        return "in " + listed((STATES[s].name for s in states), "or")
    if regions:
        return "in " + listed((f"the {r.title()}" for r in regions), "or")
    return "in any state"


@primitive
def gain_support(g: GameState, f: Frame, who: str, state: str, n: int) -> None:
    """Gain ``n`` state support (R6.10; R16.3 in GMT) at a state or ``var:`` state."""
    side, st = resolve(g, f, who), state_arg(f, state)
    if st is None:
        return
    if side is None:
        log(g, f"{event_label(f)}: {nobody(who)}, so no support goes to {STATES[st].name}.")
        return
    got = event_gain(g, side, st, n)
    log(g, f"{side.title()} gains {got} support in {STATES[st].name}.")


@primitive
def lose_state_support(g: GameState, f: Frame, who: str, state: str, n: int) -> None:
    """Lose up to ``n`` own cubes in a state (R6.6)."""
    side = resolve(g, f, who)
    if side is not None:
        board.lose_logged(g, "states", state, side, n)


@primitive
def support_checks(g: GameState, f: Frame, who: str, state: str, n: int) -> None:
    """``n`` support checks for support in a state or ``var:`` state, no R7.4 (Election Day, R13.4)."""
    side, st = resolve(g, f, who), state_arg(f, state)
    if side is None or st is None:
        return
    wins = board.support_checks(g, side, n, STATES[st].name)
    board.gain(g, "states", st, side, wins)


@primitive
def token_loss(g: GameState, f: Frame, who: str, n: int) -> None:
    """The side loses up to ``n`` cubes in the state where its own token stands."""
    side = resolve(g, f, who)
    if side is not None:
        board.lose_logged(g, "states", g["token"][side], side, n)


@primitive
def move_token(g: GameState, f: Frame, who: str, state: str) -> None:
    """Move a candidate token to a state or ``var:`` state at no travel cost."""
    side, st = resolve(g, f, who), state_arg(f, state)
    if side is None or st is None:
        return
    g["token"][side] = st
    log(g, f"{side.title()}'s token moves to {STATES[st].name} at no cost.")


_REGION_ADJECTIVE = {
    "west": "Western",
    "midwest": "Midwestern",
    "south": "Southern",
    "east": "Eastern",
}


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
    log(
        g,
        f"{side.title()} leads more {_REGION_ADJECTIVE[region]} states and adds support in "
        f"{counted(len(empty), 'empty state')}.",
    )


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
    if who.startswith("leader:") and resolve(g, f, who) is None:
        log(g, f"{event_label(f)}: {nobody(who)}, so no one places support.")
        return
    ask(g, f, who, "place_support", left=n, per=per, allowed=states_in(states, regions), placed={})


@primitive
def place_support_var(
    g: GameState, f: Frame, who: str, n: int, per: int | None, region: str
) -> None:
    """`place_support` within the region stored in the var ``region`` (``"var:NAME"``)."""
    r = state_arg(f, region)
    if r is None:
        return
    place_support(g, f, who, n, per=per, regions=[r])


@primitive
def place_support_empty(g: GameState, f: Frame, who: str, n: int, per: int | None = None) -> None:
    """Place up to ``n`` support only in states where neither side has any (#67)."""
    empty = [s for s in STATES if g["states"][s] == 0]
    if not empty:
        log(g, f"{board.card_label(f['card'])}: there is no state without support.")
        return
    place_support(g, f, who=who, n=n, per=per, states=empty)


@primitive
def remove_support(
    g: GameState,
    f: Frame,
    who: str,
    n: int,
    target: str | None = None,
    per: int | None = None,
    states: list[str] | None = None,
    regions: list[str] | None = None,
    optional: bool = True,
) -> None:
    """The side removes ``target``'s state cubes there, one ``remove ST`` at a time: up to
    ``n`` (``optional``), or exactly ``n`` of its own (``target`` omitted, not optional).

    Losses are limited to what is on the board (R6.6): with no cube there to remove nothing
    is asked; a forced loss of everything there is taken without a question.
    """
    side, tgt = resolve(g, f, who), resolve(g, f, target or who)
    if side is None or tgt is None:
        whose = who if side is None else target or who
        log(g, f"{event_label(f)}: {nobody(whose)}, so nothing happens.")
        return
    allowed = states_in(states, regions)
    area = _area(states, regions)
    if optional:
        if not any(board.cubes_of(g["states"][s], tgt) for s in allowed):
            log(g, f"{event_label(f)}: {tgt.title()} has no support {area} to remove (R6.6).")
            return
    else:
        room = {s: min(board.cubes_of(g["states"][s], tgt), per or 99) for s in allowed}
        if sum(room.values()) <= n:
            for s, k in room.items():
                if k:
                    board.lose_logged(g, "states", s, tgt, k)
            lost = sum(room.values())
            if lost:
                log(g, f"{tgt.title()} loses {lost} support {area} in all (R6.6).")
            else:
                log(g, f"{tgt.title()} has no support {area} to lose (R6.6).")
            return
    push(
        g,
        {
            "step": "remove_support",
            "side": side,
            "target": tgt,
            "left": n,
            "per": per,
            "allowed": allowed,
            "removed": {},
            "optional": optional,
            "card": f["card"],
        },
    )


@primitive
def unpledge(g: GameState, f: Frame, states: list[str]) -> None:
    """These states give no EV to Kennedy if he wins them with fewer than 4 cubes (R14.1)."""
    for s in states:
        if s not in g["unpledged"]:
            g["unpledged"].append(s)
    names = listed(STATES[s].name for s in states)
    log(
        g,
        f"{event_label(f)}: {names} give their EV to nobody if Kennedy wins them with fewer than 4 support.",
    )


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
    def _room(f: Frame, st: str, checked: list[str]) -> int:
        """How many of the event's points may still go to ``st`` (0 once checks were drawn
        there, R16.3 ruling)."""
        per: int | None = f["per"]
        left: int = f["left"]
        if st in checked:
            return 0
        return left if per is None else min(left, per - f["placed"].get(st, 0))

    @staticmethod
    def _gmt_legal(g: GameState, f: Frame, side: str) -> list[str]:
        checked = cp_phase.checked_states(f)
        per: int | None = f["per"]
        left: int = f["left"]
        placed: dict[str, int] = f["placed"]
        required = board.checks_rule(g, side)  # R16.3 (this is the GMT edition)
        out: list[str] = []
        for st in f["allowed"]:  # `_room`, inlined: this listing runs at every GMT placement
            room = left if per is None else min(left, per - placed.get(st, 0))
            if room < 1 or st in checked:
                continue
            if required(st):
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
        if g["edition"] == "gmt":  # the one state the command names, as `_gmt_legal` lists it
            words = cmd.split(" ")
            st = words[1] if len(words) > 1 else ""
            if st not in f["allowed"]:
                return False
            room = self._room(f, st, cp_phase.checked_states(f))
            if room < 1:
                return False
            if board.checks_required(g, side, st):
                return len(words) == 3 and cmd in cp_phase.check_commands(st, room)
            return cmd == _SUPPORT[st]
        st = cmd[8:]  # 'support ST'
        per = f["per"]
        return (
            cmd.startswith("support ")
            and st in f["allowed"]
            and (per is None or f["placed"].get(st, 0) < per)
        )

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
            log(
                g,
                f"{side.title()} places {got} of {n} declared support in {STATES[st].name} (R16.3).",
            )
        else:
            log(g, f"{side.title()} places support in {STATES[st].name}.")
        f["placed"][st] = f["placed"].get(st, 0) + n
        f["left"] -= n
        checked = cp_phase.checked_states(f)
        if f["left"] <= 0 or not any(self._room(f, s, checked) > 0 for s in f["allowed"]):
            pop(g)  # nothing but 'done' is left

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        cap = f" (max {f['per']} per state)" if f["per"] else ""
        checks = (
            " ('check ST N' declares N points at once where R16.3 requires support checks)"
            if (g["edition"] == "gmt")
            else ""
        )
        return (
            f"{board.card_label(f['card'])}: place up to {f['left']} more state support{cap}, "
            f"'support ST' each{checks}, or 'done'."
        )


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
