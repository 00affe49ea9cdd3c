"""Spending campaign points: campaigning (R7), advertising (R8), positioning (R9).

Each action is a decision step spent one point at a time; ``done`` ends it and
unspent CP are lost (R6.5). Steps: ``campaign``, ``advertise``, ``position``.

R7.4 [ruling]: where support checks are required the player declares the whole number
of CP for that state at once (``check ST N``), and after those draws the state takes
no more CP in the same action (the frame's ``checked`` list), whatever the draws did.
"""

from __future__ import annotations

from engine import board, effects
from engine.board import CARRY
from engine.data import (
    CARDS,
    ISSUES,
    REGIONS,
    STATES,
    TRAVEL,
    TRAVEL_AWAY,
    counted,
    issue_name,
    other,
    sign,
    travel_cost,
)
from engine.flow import Frame, Step, pop, push, register
from engine.state import GameState, log

# Canonical command texts built once (the legal lists are rebuilt on every move).
_STATE_REGIONS = tuple((st, info.region) for st, info in STATES.items())
_SUPPORT = {st: f"support {st}" for st in STATES}
# travel commands from a token state within 0 .. _MAX_TRIP CP (the longest trip, R7.3)
_MAX_TRIP = max(max(costs.values()) for costs in TRAVEL.values())
_TRAVEL_WITHIN = {
    a: tuple(
        tuple(f"travel {b}" for b, cost in TRAVEL_AWAY[a] if cost <= cp)
        for cp in range(_MAX_TRIP + 1)
    )
    for a in STATES
}
_TRAVEL_WITHIN_SET = {
    a: tuple(frozenset(t) for t in within) for a, within in _TRAVEL_WITHIN.items()
}
_TRAVEL = {st: f"travel {st}" for st in STATES}
_REGION = {st: info.region for st, info in STATES.items()}
# states where k CP leave room for at least one point after travel (cost < k), k = 0 .. _MAX_TRIP + 1
_REACH = {
    a: tuple(tuple(b for b in STATES if TRAVEL[a][b] < k) for k in range(_MAX_TRIP + 2))
    for a in STATES
}
_REACH_INDEX = {
    a: tuple({b: i for i, b in enumerate(states)} for states in _REACH[a]) for a in STATES
}
_REACH_SUPPORT = {
    a: tuple(tuple(_SUPPORT[b] for b in states) for states in _REACH[a]) for a in STATES
}
_CHECKS = {st: tuple(f"check {st} {n}" for n in range(1, 11)) for st in STATES}
_MEDIA = tuple(f"media {r}" for r in REGIONS)
_ISSUE = {i: f"issue {i}" for i in ISSUES}


def check_commands(st: str, room: int) -> tuple[str, ...]:
    """``check ST 1`` … ``check ST room``: every declaration ``room`` points allow (R7.4)."""
    if room <= 10:
        return _CHECKS[st][:room]
    return tuple(f"check {st} {n}" for n in range(1, room + 1))


def start(g: GameState, side: str, kind: str, cp: int, card: int | None, **extra: object) -> None:
    """Begin a CP action of ``kind`` worth ``cp`` for ``side``."""
    if kind == "campaign":
        push(g, {"step": "campaign", "side": side, "cp": cp, "card": card, "spent": {}, **extra})
    elif kind == "advertise":
        wins = board.support_checks(g, side, cp, "advertising (R8.1)")
        if wins:
            push(g, {"step": "advertise", "side": side, "left": wins})
    else:
        push(g, {"step": "position", "side": side, "cp": cp, "card": card, "bought": {}})


def needs_check(g: GameState, side: str, st: str) -> bool:
    """R7.4 when campaigning: `board.checks_required`, unless an effect forces or waives checks."""
    if board.has_media(g, side, STATES[st].region):
        return False
    mode = effects.check_mode(g, side, st)
    if mode is not None:
        return mode == "force"
    return board.checks_required(g, side, st)


def checked_states(f: Frame) -> list[str]:
    """The states where checks were drawn in this action: closed to more CP (R7.4 ruling)."""
    checked: list[str] = f.get("checked") or []
    return checked


def travel(g: GameState, side: str, st: str) -> int:
    if effects.travel_free(g, side):
        return 0
    return travel_cost(g["token"][side], st)


def _commands(g: GameState, f: Frame, side: str, where: tuple[tuple[str, str], ...]) -> list[str]:
    """The campaign commands (R7) for the states in ``where`` ((state, region) pairs, in order)."""
    cp: int = f["cp"]
    cap = f.get("cap")
    spent: dict[str, int] = f["spent"]
    # effect hooks are consulted only when an effect providing them is in force
    if g["effects"]:
        banned, modes = effects.hooks_of(g, "campaign_banned"), effects.hooks_of(g, "check_mode")
        free = effects.travel_free(g, side)
    else:
        banned, modes, free = [], [], False
    token: str = g["token"][side]
    costs = TRAVEL[token]
    opp_token = g["token"][other(side)]
    support: dict[str, int] = g["states"]
    s = sign(side)
    media: dict[str, int] = g["media"]
    covered = {r for r in REGIONS if media[r] * s > 0}  # R7.4: own media there, no checks
    checked = checked_states(f)
    if where is _STATE_REGIONS and cap is None and not (banned or modes or free or checked):
        return _plain(g, side, cp, token, covered)
    out: list[str] = []
    for st, region in where:
        if st in checked:  # R7.4 ruling: declared and drawn once per action
            continue
        if banned and effects.campaign_banned(g, side, st, banned):
            continue
        room = cp if free else cp - costs[st]
        if cap is not None:
            room = min(room, cap - spent.get(st, 0))
        if room < 1:
            continue
        if region in covered:
            out.append(_SUPPORT[st])
            continue
        mode = effects.check_mode(g, side, st, modes) if modes else None
        if mode == "force" or (mode != "waive" and (support[st] * s <= -CARRY or opp_token == st)):
            out.extend(check_commands(st, room))
        else:
            out.append(_SUPPORT[st])
    if not free:  # R7.3: travel to another zone
        away = _TRAVEL_WITHIN[token][min(cp, _MAX_TRIP)] if cp >= 0 else ()
        out.extend(
            away if where is _STATE_REGIONS else (t for t in away if t == _TRAVEL[where[0][0]])
        )
    return out


def _plain(g: GameState, side: str, cp: int, token: str, covered: set[str]) -> list[str]:
    """`_commands` for every state when no effect hook or cap applies (the common case, fast)."""
    support: dict[str, int] = g["states"]
    if side == "kennedy":  # R7.4: where the opponent carries the state ...
        need = [st for st, v in support.items() if v <= -CARRY]
    else:
        need = [st for st, v in support.items() if v >= CARRY]
    need.append(g["token"][other(side)])  # ... or has its token
    k = max(0, min(cp, _MAX_TRIP + 1))
    out = list(_REACH_SUPPORT[token][k])
    where = _REACH_INDEX[token][k]
    costs = TRAVEL[token]
    # replace 'support ST' by the 'check ST n' list, last position first so indices hold
    for i, st in sorted(
        ((where[st], st) for st in set(need) if st in where and _REGION[st] not in covered),
        reverse=True,
    ):
        out[i : i + 1] = check_commands(st, cp - costs[st])
    if cp >= 0:
        out.extend(_TRAVEL_WITHIN[token][min(cp, _MAX_TRIP)])
    return out


@register
class Campaign(Step):
    """R7: spend CP point by point on state support and travel."""

    name = "campaign"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        out = _commands(g, f, side, _STATE_REGIONS)  # a fresh list
        out.append("done")
        return out

    def is_legal(self, g: GameState, f: Frame, side: str, cmd: str) -> bool:
        if side != f["side"]:
            return False
        if cmd == "done":
            return True
        words = cmd.split(" ")
        st = words[1] if len(words) > 1 else ""
        if st not in STATES:
            return False  # not canonical: the caller lists everything
        if words[0] != "travel" and st in checked_states(f):
            return False  # R7.4 ruling: no more CP where checks were drawn this action
        if g["effects"] or f.get("cap") is not None:
            return cmd in _commands(g, f, side, ((st, STATES[st].region),))
        # no hook, no cap: `_commands` for this one state, without building its list
        cp: int = f["cp"]
        token: str = g["token"][side]
        if words[0] == "travel":
            return cp >= 0 and cmd in _TRAVEL_WITHIN_SET[token][min(cp, _MAX_TRIP)]
        room = cp - TRAVEL[token][st]
        if room < 1:
            return False
        s = sign(side)
        if g["media"][_REGION[st]] * s > 0 or not (
            g["states"][st] * s <= -CARRY or g["token"][other(side)] == st
        ):
            return cmd == _SUPPORT[st]
        return cmd in check_commands(st, room)  # R7.4

    def has_legal(self, g: GameState, f: Frame, side: str) -> bool:
        return bool(side == f["side"])  # 'done' is always legal

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        verb = words[0]
        if verb == "done":
            if f["cp"]:
                log(g, f"{side.title()} ends the campaign with {f['cp']} CP unspent.")
            pop(g)
            return
        st = words[1]
        cost = travel(g, side, st)
        g["token"][side] = st  # R7.2
        if verb == "travel":
            f["cp"] -= cost
            log(g, f"{side.title()} travels to {STATES[st].name} ({cost} CP, R7.3).")
        else:
            n = int(words[2]) if verb == "check" else 1
            f["cp"] -= cost + n
            f["spent"][st] = f["spent"].get(st, 0) + n
            note = f" after {cost} CP of travel" if cost else ""
            if verb == "check":
                f.setdefault("checked", []).append(st)  # closed for this action (R7.4 ruling)
                if cost:  # the token moved first: every CP of the action is accounted for
                    log(g, f"{side.title()} travels to {STATES[st].name} ({cost} CP, R7.3).")
                wins = board.support_checks(g, side, n, f"{STATES[st].name} (R7.4)")
            else:
                wins = 1
                log(g, f"{side.title()} campaigns in {STATES[st].name}{note}.")
            board.gain(g, "states", st, side, wins)
        if f["cp"] <= 0:
            pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return (
            f"Campaigning with {f['cp']} CP left, token in {STATES[g['token'][side]].name}: "
            "'support ST' adds a point (travel costed), 'check ST N' declares all N support checks "
            "where R7.4 requires them (once per state: no more CP there this action), "
            "'travel ST' moves your token, 'done' ends (R7)."
        )


@register
class Advertise(Step):
    """R8.1: place one media point per successful support check."""

    name = "advertise"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        return list(_MEDIA) if side == f["side"] else []

    def is_legal(self, g: GameState, f: Frame, side: str, cmd: str) -> bool:
        return side == f["side"] and cmd in _MEDIA

    def has_legal(self, g: GameState, f: Frame, side: str) -> bool:
        return bool(side == f["side"])

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        board.gain(g, "media", words[1], side)
        log(g, f"{side.title()} adds media support in the {words[1].title()} (R8.1).")
        f["left"] -= 1
        if f["left"] <= 0:
            pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        if f["left"] == 1:
            return "Advertising: place 1 media point in a region of your choice (R8.1)."
        return (
            f"Advertising: place {counted(f['left'], 'media point')}, each in a region of "
            "your choice (R8.1)."
        )


@register
class Position(Step):
    """R9.1: issue support, first point 1 CP, further points in the same issue 2 CP."""

    name = "position"

    def legal(self, g: GameState, f: Frame, side: str) -> list[str]:
        if side != f["side"]:
            return []
        cp, bought, card = f["cp"], f["bought"], f.get("card")
        # `_price` and `_allowed`, inlined: R15.2 bars the played card's debate issue
        barred = (
            CARDS[card].issue
            if card is not None and "restricted_positioning" in g["options"]
            else None
        )
        out = [
            _ISSUE[i]
            for i in ISSUES
            if (2 if bought.get(i) else 1) <= cp and (barred is None or i != barred)
        ]
        out.append("done")
        return out

    def has_legal(self, g: GameState, f: Frame, side: str) -> bool:
        return bool(side == f["side"])  # 'done' is always legal

    def is_legal(self, g: GameState, f: Frame, side: str, cmd: str) -> bool:
        if side != f["side"]:
            return False
        if cmd == "done":
            return True
        issue = cmd[6:]  # 'issue NAME'
        return (
            _ISSUE.get(issue) == cmd
            and self._price(f, issue) <= f["cp"]
            and self._allowed(g, f, issue)
        )

    @staticmethod
    def _price(f: Frame, issue: str) -> int:
        return 2 if f["bought"].get(issue) else 1

    @staticmethod
    def _allowed(g: GameState, f: Frame, issue: str) -> bool:
        # R15.2: no support on the played card's debate issue
        card = f.get("card")
        if "restricted_positioning" in g["options"] and card is not None:
            return bool(CARDS[card].issue != issue)
        return True

    def act(self, g: GameState, f: Frame, side: str, words: list[str]) -> None:
        if words[0] == "done":
            pop(g)
            return
        issue = words[1]
        f["cp"] -= self._price(f, issue)
        f["bought"][issue] = f["bought"].get(issue, 0) + 1
        board.gain(g, "issues", issue, side)
        log(g, f"{side.title()} positions on {issue_name(issue)} (R9.1).")
        if self.legal(g, f, side) == ["done"]:
            pop(g)

    def prompt(self, g: GameState, f: Frame, side: str) -> str:
        return (
            f"Positioning with {f['cp']} CP left: 'issue NAME' buys a point (1 CP for the first in an "
            "issue, 2 CP for each further one), 'done' ends (R9.1)."
        )
