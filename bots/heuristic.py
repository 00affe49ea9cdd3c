"""The heuristic player: scores every legal command with rules of thumb and plays the best.

Everything is in the units of `engine.evaluate` (a margin in electoral votes):

- points to spend (campaign R7, media R8, issues R9, event and debate support): the gain in
  expected electoral votes per CP, travel costed (R7.3), support checks at the bag's odds
  (R3.1, R7.4);
- the action (R6): each card's event against its CP used the best way; an event helping the
  opponent is never played, a card whose event helps the opponent is played for CP only when
  the loss of a likely trigger (R6.7) is priced in, or preempted (R6.8) when that pays;
  with ``simulate`` on, events are tried on a determinised copy and scored by the evaluation;
- strategy cards (R11) for the debates' CP on turns 1-5 and for Election Day checks in the
  card's state on turns 7-8 (R13.3); debate cards (R12) on the candidate's own side;
- every other choice (trigger, awards, swaps, regions, an event's options): one step of
  look-ahead on a determinised copy, scored by the evaluation.

`Heuristic.choose` works on a state that is already a determinisation (the search player's
playouts call it thousands of times); `choose` determinises first.
"""

from __future__ import annotations

import math
import random

import engine
from bots.decision import Decision, forced, heuristic_reason
from engine.determinize import determinize, playout_copy, sampler
from engine.evaluate import evaluate, issue_value, spreads, tilts

__all__ = ["Heuristic", "choose", "decide"]

_SIGN = {"kennedy": 1, "nixon": -1}
_STATE_INFO = {st: (info.ev, info.region) for st, info in engine.STATES.items()}
_REGION_EV = {
    r: sum(ev for ev, region in _STATE_INFO.values() if region == r) for r in engine.REGIONS
}
_ZONE = {st: info.zone for st, info in engine.STATES.items()}
_tanh = math.tanh
CP_USES = ("campaign", "advertise", "position")
POINT_STEPS = frozenset(
    {
        "campaign",
        "advertise",
        "position",
        "place_support",
        "debate_bonus",
        "remove_support",
        "space_points",
    }
)


def _other(side: str) -> str:
    return "nixon" if side == "kennedy" else "kennedy"


def _travel_table() -> dict[str, dict[str, int]]:
    from engine.data import ZONE_DISTANCE  # the board's printed borders (R7.3)

    return {a: {b: ZONE_DISTANCE[(_ZONE[a], _ZONE[b])] for b in _ZONE} for a in _ZONE}


_TRAVEL = _travel_table()  # CP to cross from a state's zone to another's (R7.3)


class _Board:
    """What one decision's scoring needs, computed once: state values and the bag's odds."""

    def __init__(self, g: engine.GameState, side: str) -> None:
        self.g, self.side, self.s = g, side, _SIGN[side]
        self.spreads = spreads(g)
        self.tilt = tilts(g["endorsements"])
        bag = g["bag"]
        total = bag["kennedy"] + bag["nixon"]
        self.p_check = bag[side] / total if total else 0.5  # R3.1 (a refill keeps it near 1/2)
        self.campaign_start: tuple[dict[str, float], dict[str, float]] | None = None

    def gain(self, st: str, points: float, support: int | None = None) -> float:
        """Margin gained by ``points`` of this side's support in ``st`` (negative: loses support)."""
        x = self.g["states"][st] if support is None else support
        t, k = self.tilt[st], self.spreads[st]
        # `carry_probability` inlined, the same arithmetic (the playouts' hottest line)
        before = 0.5 + 0.5 * _tanh((x + t) / k)
        after = 0.5 + 0.5 * _tanh((x + self.s * points + t) / k)
        return 2.0 * _STATE_INFO[st][0] * (after - before) * self.s


class Heuristic:
    """A rule-of-thumb player on a determinised state; ``simulate`` tries events on copies."""

    def __init__(self, rnd: random.Random, simulate: bool = True) -> None:
        self.rnd = rnd
        self.simulate = simulate

    # --- the entry point ---------------------------------------------------------------------

    def choose(self, g: engine.GameState, side: str) -> str:
        legal = engine.legal_commands(g, side)
        if not legal:
            raise ValueError(f"{side} has nothing to decide")
        if len(legal) == 1:
            return legal[0]
        return max(self.scored(g, side, legal))[1]  # = ranked(...)[0]: commands are distinct

    def ranked(self, g: engine.GameState, side: str, legal: list[str]) -> list[tuple[float, str]]:
        """Every legal command with its score, best first (ties in a random order)."""
        return sorted(self.scored(g, side, legal), reverse=True)

    def scored(self, g: engine.GameState, side: str, legal: list[str]) -> list[tuple[float, str]]:
        """Every legal command with its score (and a tie-breaking noise below 1e-6), in order."""
        step = g["stack"][-1]["step"]
        b = _Board(g, side)
        scorer = _STEP_SCORERS.get(step)
        scores = scorer(self, b, legal) if scorer is not None else self._lookahead(b, legal)
        rand = self.rnd.random
        return [(sc + rand() * 1e-6, c) for sc, c in zip(scores, legal, strict=True)]

    # --- point spending ----------------------------------------------------------------------

    def _campaign(self, b: _Board, legal: list[str]) -> list[float]:
        g, side = b.g, b.side
        costs = _TRAVEL[g["token"][side]]
        cp = g["stack"][-1]["cp"]
        out = []
        gains: dict[str, float] = {}
        for c in legal:
            if c.startswith("support "):
                st = c[8:]
                cost = 1 + costs[st]
                if st not in gains:
                    gains[st] = b.gain(st, 1)
                out.append(gains[st] / cost if cost <= cp else -1.0)
            elif c.startswith("check "):
                w = c.split()
                n = int(w[2])
                cost = n + costs[w[1]]
                out.append(b.gain(w[1], n * b.p_check) / cost)
            elif c.startswith("travel "):
                out.append(-0.5)
            else:  # done: CP left are lost (R6.5)
                out.append(0.0)
        return out

    def _place(self, b: _Board, legal: list[str]) -> list[float]:
        out = []
        for c in legal:
            w = c.split()
            if w[0] == "support":
                out.append(b.gain(w[1], 1))
            elif w[0] == "check":  # event points declared as checks (R16.3), per point
                n = int(w[2])
                out.append(b.gain(w[1], n * b.p_check) / n)
            elif w[0] == "remove":  # toward nothing: the opponent's cube, or (if asked) our own
                x = b.g["states"][w[1]]
                out.append(b.gain(w[1], -b.s * (1 if x > 0 else -1) if x else 0))
            elif w[0] == "media":
                out.append(_media_gain(b, w[1]))
            elif w[0] == "issue":
                out.append(_issue_gain(b, w[1], 1))
            else:
                out.append(0.0)
        return out

    def _position(self, b: _Board, legal: list[str]) -> list[float]:
        f = b.g["stack"][-1]
        out = []
        for c in legal:
            w = c.split()
            if w[0] == "issue":
                price = 2 if f["bought"].get(w[1]) else 1
                out.append(_issue_gain(b, w[1], 1) / price)
            else:
                out.append(0.0)
        return out

    # --- the action (R6) ---------------------------------------------------------------------

    def _action(self, b: _Board, legal: list[str]) -> list[float]:
        g, side = b.g, b.side
        cache: dict[tuple[str, int], float] = {}

        def use(kind: str, cp: int) -> float:
            key = (kind, cp)
            if key not in cache:
                cache[key] = _use_value(b, kind, cp)
            return cache[key]

        opp = _other(side)
        opp_momentum = g["momentum"][opp]
        out = []
        for c in legal:
            w = c.split()
            verb = w[0]
            if verb == "candidate":  # R6.9: 5 CP, then the card is exhausted
                out.append(use(w[1], 5) - 6.0)
                continue
            if verb == "pass":
                out.append(-50.0)
                continue
            card = int(w[1])
            info = engine.CARDS[card]
            if verb == "vp":  # R15.1: a weak own card for the Vice President's event
                out.append(6.0 - _card_value(side, card))
                continue
            if verb == "event":
                out.append(self._event_value(b, c, card))
                continue
            value = use(verb, info.cp)
            helps_opp = 1.0 if info.icon == opp else 0.5 if info.icon == "both" else 0.0
            if len(w) > 2:  # preempt: two momentum, no trigger (R6.8)
                value -= 2 * 4.0 + 1.0
            elif helps_opp and opp_momentum >= 1:  # the opponent will likely trigger it (R6.7),
                value -= helps_opp * (_static_event(info.cp) + 2.0) - 4.0  # paying a momentum
            out.append(value)
        return out

    def _event_value(self, b: _Board, cmd: str, card: int) -> float:
        info = engine.CARDS[card]
        if info.icon == _other(b.side):
            return -20.0  # an event helps the candidate on its card
        base = _static_event(info.cp) + (2.0 if info.persistent != "none" else 0.0)
        if not self.simulate:
            return base
        sim = _simulate(b.g, b.side, cmd, self.rnd)
        if sim is None:
            return base
        # the card leaves the hand either way: count it back; the rest-of-turn effects and
        # persistent events the evaluation cannot see keep a part of the static estimate
        return sim + 3.0 + (0.5 * base if info.duration != "instant" else 0.0)

    # --- strategy, debates, Election Day -------------------------------------------------------

    def _strategy(self, b: _Board, legal: list[str]) -> list[float]:
        g, side = b.g, b.side
        out = []
        for c in legal:
            w = c.split()
            if w[0] != "strategy":
                out.append(-1.0)
                continue
            info = engine.CARDS[int(w[1])]
            if g["turn"] < 6:  # into the debate hand (R12.2)
                own = 2.0 if info.icon == side else 1.0 if info.icon == "both" else 0.0
                out.append(info.cp * (1.0 + own))
            else:  # three checks in the card's state on Election Day (R13.3)
                out.append(b.gain(info.state, 3 * b.p_check) if info.state else 0.0)
        return out

    def _debate(self, b: _Board, legal: list[str]) -> list[float]:
        d = b.g["debate"]
        out = []
        for c in legal:
            w = c.split()
            info = engine.CARDS[int(w[1])]
            place = w[2] if len(w) > 2 else info.icon
            if place not in (b.side, "both"):
                out.append(-10.0 + info.cp)
                continue
            issue = info.issue
            if d is None or issue not in d["board"] or issue in d["resolved"]:
                out.append(-5.0)
                continue
            mine = sum(engine.CARDS[x].cp for x in d["board"][issue][b.side])
            theirs = sum(engine.CARDS[x].cp for x in d["board"][issue][_other(b.side)])
            close = 2.0 if mine + info.cp > theirs else 0.0
            out.append(info.cp + close)
        return out

    def _side(self, b: _Board, legal: list[str]) -> list[float]:
        return [1.0 if c.split()[-1] == b.side else 0.0 for c in legal]

    def _cards(self, b: _Board, legal: list[str]) -> list[float]:
        """take/discard a card: keep the best for this side."""
        out = []
        for c in legal:
            w = c.split()
            if len(w) < 2 or not w[1].isdigit():
                out.append(0.0)
            elif w[0] == "discard":
                out.append(-_card_value(b.side, int(w[1])))
            else:
                out.append(_card_value(b.side, int(w[1])))
        return out

    def _cp_choice(self, b: _Board, legal: list[str]) -> list[float]:
        cp = int(b.g["stack"][-1].get("cp", 3))
        return [_use_value(b, c, cp) if c in CP_USES else 0.0 for c in legal]

    # --- everything else: one step of look-ahead --------------------------------------------------

    def _lookahead(self, b: _Board, legal: list[str]) -> list[float]:
        base = evaluate(b.g, b.side)
        out = []
        for c in legal[:80]:
            h = playout_copy(b.g)
            try:
                engine.apply_in_place(h, b.side, c)
            except engine.CommandError:
                out.append(-100.0)
                continue
            out.append(evaluate(h, b.side) - base)
        out.extend(-100.0 for _ in legal[80:])
        return out


_STEP_SCORERS = {
    "campaign": Heuristic._campaign,
    "advertise": Heuristic._place,
    "space_points": Heuristic._place,
    "place_support": Heuristic._place,
    "debate_bonus": Heuristic._place,
    "remove_support": Heuristic._place,
    "position": Heuristic._position,
    "action": Heuristic._action,
    "strategy": Heuristic._strategy,
    "debate_pick": Heuristic._debate,
    "debate_side": Heuristic._side,
    "take_discard": Heuristic._cards,
    "discard_event": Heuristic._cards,
    "discard_replace": Heuristic._cards,
    "cp_choice": Heuristic._cp_choice,
}


def _static_event(cp: int) -> float:
    """What an own event is worth without looking: about as much as its CP used well."""
    return 2.5 * cp + 2.0


def _card_value(side: str, card: int) -> float:
    info = engine.CARDS[card]
    own = 3.0 if info.icon == side else 1.5 if info.icon == "both" else 0.0
    return info.cp + own


def _media_gain(b: _Board, region: str) -> float:
    x: int = b.g["media"][region] * b.s
    weight = _REGION_EV[region] / 30.0
    if x < 0:
        return 2.0 + weight  # takes one of the opponent's cubes (R1.4)
    if x == 0:
        return 2.0 + 1.5 * weight  # the exemption from support checks there (R7.4)
    return 2.0 / (1 + x)


def _issue_gain(b: _Board, issue: str, points: int) -> float:
    g = b.g
    if g["turn"] >= 9:
        return 0.0
    pos = g["issue_order"].index(issue)
    x: int = g["issues"][issue] * b.s
    return issue_value(pos, x + points) - issue_value(pos, x)


def _use_value(b: _Board, kind: str, cp: int) -> float:
    """What ``cp`` CP used for ``kind`` are worth now (R7, R8, R9), spent greedily."""
    if kind == "campaign":
        return _campaign_value(b, cp)
    if kind == "advertise":  # one check per CP, a media point per success (R8.1)
        best = max(_media_gain(b, r) for r in engine.REGIONS)
        return cp * b.p_check * (0.6 * best + 0.8)
    gains = sorted((_issue_gain(b, i, 1) for i in engine.ISSUES), reverse=True)
    value, left = 0.0, cp
    for gn in gains:  # first point in each issue at 1 CP (R9.1)
        if left <= 0 or gn <= 0:
            break
        value += gn
        left -= 1
    if left >= 2:
        value += gains[0] * 0.5 * (left // 2)
    return value


def _campaign_start(b: _Board) -> tuple[dict[str, float], dict[str, float]]:
    """Per state: the support one CP buys (a check's odds where R7.4 applies) and its gain,
    for the states where that gain is positive (no other is ever chosen), in board order."""
    if b.campaign_start is None:
        g, s = b.g, b.s
        support: dict[str, int] = g["states"]
        opp_token = g["token"][_other(b.side)]
        media = g["media"]
        points: dict[str, float] = {}
        gains: dict[str, float] = {}
        for st, (_, region) in _STATE_INFO.items():
            x = support[st]
            checked = (x * s <= -4 or st == opp_token) and media[region] * s <= 0  # R7.4
            points[st] = b.p_check if checked else 1.0
            gain = b.gain(st, points[st], x)
            if gain > 0:
                gains[st] = gain
        b.campaign_start = (points, gains)
    return b.campaign_start


def _campaign_value(b: _Board, cp: int) -> float:
    """Greedy campaign of ``cp`` CP on a scratch copy of the support (R7.1-R7.4)."""
    s = b.s
    support: dict[str, int] = b.g["states"]
    token: str = b.g["token"][b.side]
    points, start = _campaign_start(b)
    gains = dict(start)
    added: dict[str, int] = {}
    total, left = 0.0, cp
    while left > 0:
        best, best_st, best_cost = 0.0, "", 0
        costs = _TRAVEL[token]
        for st, gain in gains.items():
            cost = 1 + costs[st]
            if cost <= left and gain > best * cost:
                best, best_st, best_cost = gain / cost, st, cost
        if not best_st:
            break
        total += gains[best_st]
        # a check's point is only expected: its value counted, the board kept
        if points[best_st] >= 1:
            added[best_st] = added.get(best_st, 0) + 1
            gains[best_st] = b.gain(best_st, 1.0, support[best_st] + s * added[best_st])
        token = best_st
        left -= best_cost
    return total


def _simulate(g: engine.GameState, side: str, cmd: str, rnd: random.Random) -> float | None:
    """Play ``cmd`` on a copy, let a fast player finish this side's follow-up choices, and
    return the change in the evaluation (None if it could not be played)."""
    h = playout_copy(g)
    base = evaluate(g, side)
    try:
        engine.apply_in_place(h, side, cmd)
        fast = Heuristic(rnd, simulate=False)
        for _ in range(40):
            active = engine.active_sides(h)
            if active != {side}:
                break
            top = h["stack"][-1]["step"] if h["stack"] else ""
            if top == "action":
                break
            engine.apply_in_place(h, side, fast.choose(h, side))
    except engine.CommandError:
        return None
    return evaluate(h, side) - base


def choose(state: engine.GameState, side: str, seed: int = 0) -> str:
    """The heuristic's command for ``side``, from what ``side`` may see only."""
    g = determinize(state, side, sampler(seed))
    return Heuristic(random.Random(seed)).choose(g, side)


def decide(state: engine.GameState, side: str, seed: int = 0) -> Decision:
    """`choose` (the same command for the same seed), with its reason from the scoring."""
    g = determinize(state, side, sampler(seed))
    legal = engine.legal_commands(g, side)  # its own commands: the same as in ``state``
    if not legal:
        raise ValueError(f"{side} has nothing to decide")
    if len(legal) == 1:
        return Decision(legal[0], forced(legal[0]))
    ranked = Heuristic(random.Random(seed)).ranked(g, side, legal)
    return Decision(ranked[0][1], heuristic_reason(g["stack"][-1]["step"], ranked))
