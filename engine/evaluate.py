"""A cheap evaluation of a position, for computer players (no rules are decided here).

`evaluate(g, side)` is a margin in electoral-vote units: the electoral votes ``side`` can
expect from the current state support (each state weighted by a smooth chance of carrying
it, R13.5-R13.6, less sure the bigger the state and the further off Election Day), less what
the opponent can expect, plus what momentum (R10), issue leads (R10.3), media (R8.2),
endorsements (R10.5), the candidate card (R6.9) and the cards still to play are worth in the
same units. `win_probability` turns that margin into a
chance of winning, sharper as Election Day nears; a finished game scores 1, 0 (or ½ for
an impossible tie).

With its weights as they are it reads only public board facts and the sizes of hands and
stacks (R17.1), so it gives the same number in every determinisation of a view; the hands'
terms (`HAND_CP`, `OPPONENT_EVENT`, weighed at nothing) read the cards themselves, which a
player only ever sees in a determinisation (`engine.determinize`: the opponent's are a sample).
Pure and fast (a few microseconds per state).
"""

from __future__ import annotations

import math
from typing import TypedDict

from engine.data import CARDS, REGIONS, STATES, WINNING_EV
from engine.state import GameState

__all__ = [
    "CARRY_CURVE",
    "WEIGHTED_TERMS",
    "carry_probability",
    "curve_spread",
    "curve_width",
    "evaluate",
    "issue_value",
    "spread",
    "spreads",
    "state_value",
    "terms",
    "tilts",
    "turns_left",
    "win_probability",
]

# weights in electoral votes, tuned by hand against the random player; the issue weights by
# heuristic self-play (see benchmarks/README.md)
MOMENTUM = 4.0
MEDIA = 2.0
ENDORSEMENT = 1.5
CANDIDATE_CARD = 6.0
CARD_IN_HAND = 3.0
# the hands' worth beyond their size: at nothing, as the search plays best (benchmarks/README §5)
HAND_CP = 0.0  # each CP of the cards in hand (R6.5)
OPPONENT_EVENT = 0.0  # each card in hand whose event is the opponent's alone (R6.7)
STRATEGY_CARD = 2.5
ISSUE_POSITION = (12.0, 8.0, 4.0)  # leading the 1st, 2nd, 3rd issue (R10.3)
ISSUE_DEPTH = 1.0  # each point of the lead, up to 4 (R10.4 takes one a turn)
# how many cubes of lead make a state fairly safe (`spreads`): SPREAD_BASE + SPREAD_PER_TURN a
# turn left, times (the state's EV / 10) ** SPREAD_EV_POWER; and an empty state's lean (R13.5).
# Fitted to who carried each state in games (benchmarks/fit_evaluation.py): a big state stays
# open far longer than a small one, which the first cube nearly decides
SPREAD_BASE = 0.7
SPREAD_PER_TURN = 0.2
SPREAD_EV_POWER = 1.5
TILT = 0.3
CARRY_CURVE = ("SPREAD_BASE", "SPREAD_PER_TURN", "SPREAD_EV_POWER", "TILT")  # their names, in order
# the width of `win_probability`'s curve, in electoral votes: SCALE_BASE + SCALE_PER_TURN a turn left
SCALE_BASE = 30.0
SCALE_PER_TURN = 14.0

_STATE_LIST = tuple(
    (st, info.ev, info.region, 1 if info.border == "kennedy" else -1) for st, info in STATES.items()
)
_HALF = WINNING_EV - 0.5  # 268.5 of 537
_CARD_CP = {n: card.cp for n, card in CARDS.items()}
_CARD_ICON = {n: card.icon for n, card in CARDS.items()}


def turns_left(turn: int) -> int:
    """Turns still to come after ``turn`` (R4.1; none after Election Day, turn 9, R4.2)."""
    return max(0, 9 - turn)


def _turns_left(g: GameState) -> int:
    return turns_left(int(g["turn"]))


def curve_width(turn: int) -> float:
    """The width of `win_probability`'s curve during ``turn``, in electoral votes."""
    return SCALE_BASE + SCALE_PER_TURN * turns_left(turn)


def curve_spread(turns_left: int, ev: int, base: float, per_turn: float, power: float) -> float:
    """The spread of a state of ``ev`` electoral votes under the curve's constants (`spread`
    with today's; benchmarks/fit_evaluation.py tries others)."""
    return base + per_turn * turns_left * math.pow(ev / 10, power)


def spread(g: GameState, ev: int) -> float:
    """How many cubes of lead make a state of ``ev`` electoral votes fairly safe: wider the
    longer the game goes on."""
    return curve_spread(_turns_left(g), ev, SPREAD_BASE, SPREAD_PER_TURN, SPREAD_EV_POWER)


_SPREADS: dict[tuple[int, float, float, float], dict[str, float]] = {}


def spreads(g: GameState) -> dict[str, float]:
    """Each state's `spread` at this turn."""
    key = (_turns_left(g), SPREAD_BASE, SPREAD_PER_TURN, SPREAD_EV_POWER)
    out = _SPREADS.get(key)
    if out is None:
        out = _SPREADS[key] = {st: spread(g, ev) for st, ev, _, _ in _STATE_LIST}
    return out


def carry_probability(support: float, tilt: float, spread: float) -> float:
    """Kennedy's chance of carrying a state with signed ``support`` (+ Kennedy, - Nixon).

    ``tilt`` leans an empty state toward its Election Day owner (R13.5): + Kennedy.
    """
    return 0.5 + 0.5 * math.tanh((support + tilt) / spread)


_TILTS: dict[tuple[float, tuple[int, ...]], dict[str, float]] = {}  # endorsement signs -> tilts


def tilts(endorsements: dict[str, int]) -> dict[str, float]:
    """Each state's lean toward its Election Day owner (R13.5), + Kennedy: its region's
    endorsements first, else the border colour."""
    key = (TILT, tuple((endorsements[r] > 0) - (endorsements[r] < 0) for r in REGIONS))
    tilt = _TILTS.get(key)
    if tilt is None:
        region_tilt = {r: (TILT if e > 0 else -TILT) if e else 0.0 for r, e in endorsements.items()}
        tilt = {st: region_tilt[region] or TILT * border for st, _, region, border in _STATE_LIST}
        _TILTS[key] = tilt
    return tilt


def state_value(g: GameState, st: str, support: int | None = None) -> float:
    """Kennedy's expected electoral votes from state ``st`` (with ``support`` instead of the board's)."""
    x = g["states"][st] if support is None else support
    return STATES[st].ev * carry_probability(x, tilts(g["endorsements"])[st], spreads(g)[st])


def _expected_kennedy_ev(g: GameState) -> float:
    k = spreads(g)
    tilt = tilts(g["endorsements"])
    support = g["states"]
    total = 0.0
    tanh = math.tanh
    for st, ev, _, _ in _STATE_LIST:
        total += ev * (0.5 + 0.5 * tanh((support[st] + tilt[st]) / k[st]))
    return total


def _hand(g: GameState) -> tuple[int, int]:
    """Kennedy's hand less Nixon's: the cards' CP, the cards carrying only the opponent's icon."""
    hands = g["hands"]
    cp = sum(_CARD_CP[c] for c in hands["kennedy"]) - sum(_CARD_CP[c] for c in hands["nixon"])
    theirs = sum(_CARD_ICON[c] == "nixon" for c in hands["kennedy"]) - sum(
        _CARD_ICON[c] == "kennedy" for c in hands["nixon"]
    )
    return cp, theirs


def issue_value(pos: int, support: int) -> float:
    """What ``support`` (signed: + for the side counted) in the issue at ``pos`` (0-2 in the
    issue order) is worth: the lead itself (R10.3) and its depth, up to 4 points."""
    if not support:
        return 0.0
    value = ISSUE_POSITION[pos] + ISSUE_DEPTH * min(abs(support), 4)
    return value if support > 0 else -value


def _kennedy_margin(g: GameState) -> float:
    """The evaluation from Kennedy's side (Nixon's is its negative)."""
    margin: float = 2.0 * (_expected_kennedy_ev(g) - _HALF)
    momentum: int = g["momentum"]["kennedy"] - g["momentum"]["nixon"]
    stacks: int = len(g["stacks"]["kennedy"]) - len(g["stacks"]["nixon"])
    if g["turn"] >= 9:  # Election Day: momentum becomes bag cubes (R13.1), stacks checks (R13.3)
        return margin + 1.0 * momentum + STRATEGY_CARD * stacks
    margin += MOMENTUM * momentum
    margin += MEDIA * sum(g["media"].values())
    margin += ENDORSEMENT * sum(g["endorsements"].values())
    issues: dict[str, int] = g["issues"]
    for pos, issue in enumerate(g["issue_order"]):
        margin += issue_value(pos, issues[issue])
    cand = g["candidate"]
    margin += CANDIDATE_CARD * ((cand["kennedy"] == "active") - (cand["nixon"] == "active"))
    margin += CARD_IN_HAND * (len(g["hands"]["kennedy"]) - len(g["hands"]["nixon"]))
    if HAND_CP or OPPONENT_EVENT:
        hand_cp, their_events = _hand(g)
        margin += HAND_CP * hand_cp + OPPONENT_EVENT * their_events
    margin += STRATEGY_CARD * stacks
    return margin


class Terms(TypedDict):
    """What the evaluation adds up before Election Day, from Kennedy's side, each unweighted:
    ``ev`` counts as it is, every other key is multiplied by the weight of its name."""

    ev: float  # twice the expected electoral votes above half (R13.5-R13.6)
    MOMENTUM: int
    MEDIA: int
    ENDORSEMENT: int
    ISSUE_POSITION: tuple[int, int, int]  # who leads the 1st, 2nd, 3rd issue: +1, -1 or 0
    ISSUE_DEPTH: int  # the leads' depth, up to 4 each, signed
    CANDIDATE_CARD: int
    CARD_IN_HAND: int
    HAND_CP: int
    OPPONENT_EVENT: int
    STRATEGY_CARD: int


# the terms with a weight of their name in this module, in `Terms` order (all but ``ev``)
WEIGHTED_TERMS: tuple[str, ...] = tuple(name for name in Terms.__annotations__ if name != "ev")


def terms(g: GameState) -> Terms:
    """The evaluation's terms before Election Day (for fitting its weights to games' outcomes):
    ``evaluate(g, "kennedy")`` is ``ev`` plus each other term times its weight."""
    issues: dict[str, int] = g["issues"]
    leads = [issues[issue] for issue in g["issue_order"]]
    sign = [(x > 0) - (x < 0) for x in leads]
    cand = g["candidate"]
    hand_cp, their_events = _hand(g)
    return {
        "ev": 2.0 * (_expected_kennedy_ev(g) - _HALF),
        "MOMENTUM": g["momentum"]["kennedy"] - g["momentum"]["nixon"],
        "MEDIA": sum(g["media"].values()),
        "ENDORSEMENT": sum(g["endorsements"].values()),
        "ISSUE_POSITION": (sign[0], sign[1], sign[2]),
        "ISSUE_DEPTH": sum(s * min(abs(x), 4) for s, x in zip(sign, leads, strict=True)),
        "CANDIDATE_CARD": (cand["kennedy"] == "active") - (cand["nixon"] == "active"),
        "CARD_IN_HAND": len(g["hands"]["kennedy"]) - len(g["hands"]["nixon"]),
        "HAND_CP": hand_cp,
        "OPPONENT_EVENT": their_events,
        "STRATEGY_CARD": len(g["stacks"]["kennedy"]) - len(g["stacks"]["nixon"]),
    }


def evaluate(g: GameState, side: str) -> float:
    """A margin for ``side`` in electoral-vote units (positive: ``side`` is ahead)."""
    m = _kennedy_margin(g)
    return m if side == "kennedy" else -m


def win_probability(g: GameState, side: str) -> float:
    """``side``'s chance of winning as this evaluation sees it; exact once the game is over."""
    r = g["result"]
    if r is not None:
        return 1.0 if r["winner"] == side else 0.0
    z = evaluate(g, side) / curve_width(int(g["turn"]))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
