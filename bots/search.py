"""The search player: determinised Monte Carlo search with heuristic playouts.

At each choice that matters — which card to play and how (R6), triggering (R6.7), the
strategy stack (R11), debate cards (R12), awards, swaps, an event's options — the search
takes the heuristic's best few commands as candidates and, until its budget is spent,
repeats: sample a state consistent with what its side may see (`engine.determinize`: the
opponent's cards, the deck and every future draw are drawn anew each time), pick a
candidate by UCB1, play it, let the fast heuristic play both sides to the end of the turn
(to the end of the game on Election Day), and score the position with
`engine.evaluate.win_probability`. It plays the candidate with the best mean.

Choices where points are only being spent (campaign, media, issues, bonus support) are
left to the heuristic: they are many, cheap to score, and rarely decide a game alone.
The budget is a number of playouts (reproducible for a given seed) or seconds of
wall-clock time (the strength a real game gets; on a busy machine it buys fewer playouts,
so `decide` also reports how many it ran).

Two generators, both seeded from the decision's ``seed``: the engine's (`engine.determinize
.sampler`) deals the hidden cards of every determinisation; a ``random.Random`` breaks the
heuristic's ties and picks who moves first in a playout when both sides must.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

import engine
from bots.heuristic import POINT_STEPS, Heuristic
from engine.determinize import determinize, sampler
from engine.evaluate import win_probability
from engine.schema import Rng

__all__ = ["Budget", "Decision", "choose", "decide"]

CANDIDATES = 5
EXPLORATION = 0.5
MAX_PLAYOUT_MOVES = 600
HORIZON_ACTIONS = 4  # a playout stops after this many further actions (R6.1), or at the turn's end


@dataclass(frozen=True)
class Budget:
    """How long the search may think: ``seconds`` of wall-clock time, or ``iterations`` playouts."""

    seconds: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a budget needs seconds or iterations")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"budget seconds must be positive, not {self.seconds}")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"budget iterations must be at least 1, not {self.iterations}")


@dataclass(frozen=True)
class Decision:
    """The search's command and how many playouts chose it (0: forced, or left to the heuristic)."""

    command: str
    playouts: int


def choose(state: engine.GameState, side: str, budget: Budget, seed: int = 0) -> str:
    """The search's command for ``side``, from what ``side`` may see only."""
    return decide(state, side, budget, seed).command


def decide(state: engine.GameState, side: str, budget: Budget, seed: int = 0) -> Decision:
    """`choose`, with the number of playouts run (what a time budget bought on this machine)."""
    rnd = random.Random(seed)
    rng = sampler(seed)
    legal = engine.legal_commands(state, side)
    if not legal:
        raise ValueError(f"{side} has nothing to decide")
    if len(legal) == 1:
        return Decision(legal[0], 0)
    root = determinize(state, side, rng)
    heuristic = Heuristic(rnd)
    ranked = heuristic.ranked(root, side, legal)
    step = root["stack"][-1]["step"]
    if step in POINT_STEPS:
        return Decision(ranked[0][1], 0)
    candidates = [c for _, c in ranked[:CANDIDATES]]
    return _search(state, side, candidates, budget, rnd, rng)


def _search(
    state: engine.GameState,
    side: str,
    candidates: list[str],
    budget: Budget,
    rnd: random.Random,
    rng: Rng,
) -> Decision:
    n = [0] * len(candidates)
    total = [0.0] * len(candidates)
    deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else math.inf
    limit = budget.iterations if budget.iterations is not None else 1 << 30
    fast = Heuristic(rnd, simulate=False)
    i = 0
    while i < limit and (i < len(candidates) or time.perf_counter() < deadline):
        if i < len(candidates):
            k = i  # every candidate once first, the heuristic's best first
        else:
            log_n = math.log(i)
            k = max(
                range(len(candidates)),
                key=lambda j: total[j] / n[j] + EXPLORATION * math.sqrt(log_n / n[j]),
            )
        g = determinize(state, side, rng)
        total[k] += _playout(g, side, candidates[k], fast)
        n[k] += 1
        i += 1
    best = max(range(len(candidates)), key=lambda j: (total[j] / n[j] if n[j] else -1.0, -j))
    return Decision(candidates[best], i)


def _playout(
    g: engine.GameState, side: str, cmd: str, fast: Heuristic, horizon: int = HORIZON_ACTIONS
) -> float:
    """Play ``cmd``, then both sides with the fast heuristic for ``horizon`` more actions (to
    the end of the turn at most; to the end of the game on Election Day), and evaluate."""
    turn = g["turn"]
    engine.apply_in_place(g, side, cmd)
    rnd = fast.rnd
    actions = 0
    for _ in range(MAX_PLAYOUT_MOVES):
        active = engine.active_sides(g)
        if not active or (g["turn"] != turn and turn < 9):
            break
        if g["stack"][-1]["step"] == "action":
            actions += 1
            if actions > horizon and turn < 9:
                break
        who = min(active) if len(active) == 1 else rnd.choice(sorted(active))
        engine.apply_in_place(g, who, fast.choose(g, who))
    return win_probability(g, side)
