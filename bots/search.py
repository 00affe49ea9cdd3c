"""The search player: information-set Monte Carlo tree search with the heuristic as its prior.

At each choice that matters — which card to play and how (R6), triggering (R6.7), the
strategy stack (R11), debate cards (R12), awards, swaps, an event's options — the search
grows a tree over determinisations of what its side may see (`bots.ismcts`: the tree is
shared across them, the heuristic's order is the prior, progressive widening opens the many
CP placements below a card play one by one) until its budget is spent, and plays the
most-tried command. Its reason says how that command did in the simulated games against the
next most promising one.

Choices where points are only being spent (campaign, media, issues, bonus support) are left
to the heuristic at the table (the tree looks at them below the card play that gives the
points): they are many, cheap to score, and rarely decide a game alone (the ``points``
variant searches them too, with a quarter of the budget; benchmarks/README.md §5 measures it).
The budget is a number of playouts (reproducible for a given seed) or seconds of
wall-clock time (the strength a real game gets; on a busy machine it buys fewer playouts,
so the `Decision` says how many it ran).

Two generators, both seeded from the decision's ``seed``: the engine's (`engine.determinize
.sampler`) deals the hidden cards of every determinisation; a ``random.Random`` breaks the
heuristic's ties and picks who moves first in a playout when both sides must.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import engine
from bots.decision import Decision, forced, heuristic_reason, search_reason
from bots.heuristic import POINT_STEPS, Heuristic
from bots.ismcts import VARIANTS, Config, Tree
from engine.determinize import determinize, sampler

__all__ = ["Budget", "Decision", "choose", "decide", "searches"]


@dataclass(frozen=True)
class Budget:
    """How long the search may think: ``seconds`` of wall-clock time, or ``iterations`` playouts;
    ``variant`` names a `bots.ismcts.VARIANTS` configuration (benchmarks: one piece off)."""

    seconds: float | None = None
    iterations: int | None = None
    variant: str = ""

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a budget needs seconds or iterations")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"budget seconds must be positive, not {self.seconds}")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"budget iterations must be at least 1, not {self.iterations}")
        if self.variant not in VARIANTS:
            raise ValueError(
                f"unknown search variant {self.variant!r}: expected one of "
                + ", ".join(v for v in VARIANTS if v)
            )


def searches(state: engine.GameState, legal: list[str], config: Config = VARIANTS[""]) -> bool:
    """Whether the search grows a tree for this decision (``legal``: the side's commands):
    more than one command, at a step that is not point-spending unless ``config`` searches
    those too (else they are left to the heuristic)."""
    return len(legal) > 1 and (
        state["stack"][-1]["step"] not in POINT_STEPS or config.point_share > 0
    )


def choose(state: engine.GameState, side: str, budget: Budget, seed: int = 0) -> str:
    """The search's command for ``side``, from what ``side`` may see only."""
    return decide(state, side, budget, seed).command


def decide(state: engine.GameState, side: str, budget: Budget, seed: int = 0) -> Decision:
    """`choose`, with the reason and the number of playouts run (what a time budget bought)."""
    rnd = random.Random(seed)
    rng = sampler(seed)
    legal = engine.legal_commands(state, side)
    if not legal:
        raise ValueError(f"{side} has nothing to decide")
    if len(legal) == 1:
        return Decision(legal[0], forced(legal[0]))
    root = determinize(state, side, rng)
    ranked = Heuristic(rnd).ranked(root, side, legal)
    config: Config = VARIANTS[budget.variant]
    if not searches(state, legal, config):
        return Decision(ranked[0][1], heuristic_reason(root["stack"][-1]["step"], ranked))
    iterations, seconds = budget.iterations, budget.seconds
    if state["stack"][-1]["step"] in POINT_STEPS:
        share = config.point_share
        iterations = None if iterations is None else max(1, round(iterations * share))
        seconds = None if seconds is None else seconds * share
    tree = Tree(state, side, [c for _, c in ranked], rnd, rng, config)
    playouts = tree.run(iterations, seconds)
    best = tree.best()
    stats = [(s.command, s.visits, s.mean) for s in tree.stats()]
    reason = search_reason(best, stats, playouts, ranked[0][1], tree.plan())
    return Decision(best, reason, playouts)
