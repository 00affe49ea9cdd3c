"""Computer players for *1960: The Making of the President*, from a side's view only (R17).

``decide(state, side, kind, budget, seed)`` is the one entry point the server (a ``bot:KIND``
seat, the clock's autopilot) and the tournament call: a `Decision`, the command with its
reason in words (from the search's statistics or the heuristic's scoring) and the playouts it
took; ``choose_command`` is its command alone. The players:

- ``random``: a uniformly random legal command (the baseline);
- ``heuristic``: rules of thumb scored in electoral votes (`bots.heuristic`);
- ``search``: information-set Monte Carlo tree search over determinisations, the heuristic
  as its prior and playout policy (`bots.search`, `bots.ismcts`), as strong as its budget
  (seconds per decision, or a number of playouts).

Every player sees the game only through what its side may see: the legal commands (part of
``engine.view``) and `engine.determinize` samples, whose distribution does not depend on the
hidden cards, the deck order or the RNG (tested by permuting them, tests/bots). The package
imports only the engine's public API.
"""

from __future__ import annotations

import engine
from bots import heuristic, random_player, search
from bots.decision import Decision
from bots.ismcts import VARIANTS
from bots.search import Budget

__all__ = [
    "DEFAULT_SECONDS",
    "KINDS",
    "Budget",
    "Decision",
    "choose_command",
    "decide",
    "parse_kind",
]

KINDS = ("random", "heuristic", "search")
DEFAULT_SECONDS = 2.0  # the search's budget for a real game's bot seat


def decide(
    state: engine.GameState,
    side: str,
    kind: str = "heuristic",
    budget: Budget | float | None = None,
    seed: int = 0,
) -> Decision:
    """The ``kind`` player's decision for ``side`` now: a command of `engine.legal_commands`,
    its reason in words, the playouts it took.

    ``budget`` (search only): a `Budget`, or seconds per decision (default `DEFAULT_SECONDS`).
    ``seed`` makes the choice reproducible (for the search, with an iteration budget).
    Raises ValueError for an unknown kind or when ``side`` has nothing to decide.
    """
    if kind == "random":
        return random_player.decide(state, side, seed)
    if kind == "heuristic":
        return heuristic.decide(state, side, seed)
    if kind == "search":
        if budget is None:
            budget = Budget(seconds=DEFAULT_SECONDS)
        elif not isinstance(budget, Budget):
            budget = Budget(seconds=float(budget))
        return search.decide(state, side, budget, seed)
    raise ValueError(f"unknown player {kind!r}: expected one of {', '.join(KINDS)}")


def choose_command(
    state: engine.GameState,
    side: str,
    kind: str = "heuristic",
    budget: Budget | float | None = None,
    seed: int = 0,
) -> str:
    """`decide`'s command alone."""
    return decide(state, side, kind, budget, seed).command


def parse_kind(spec: str) -> tuple[str, Budget | None]:
    """``heuristic``, ``search``, ``search:0.5`` (seconds) or ``search:200i`` (playouts);
    ``search:200i:flat`` names a `bots.ismcts.VARIANTS` configuration (for benchmarks)."""
    kind, _, arg = spec.strip().lower().partition(":")
    if kind not in KINDS:
        raise ValueError(
            f"unknown player {spec!r}: expected one of {', '.join(KINDS)} "
            "(search may take a budget: search:0.5 seconds, search:200i playouts)"
        )
    if not arg:
        return kind, None
    if kind != "search":
        raise ValueError(f"{spec!r}: only the search player takes a budget")
    arg, _, variant = arg.partition(":")
    if variant not in VARIANTS:
        raise ValueError(
            f"{spec!r}: unknown search variant {variant!r} "
            f"(one of {', '.join(v for v in VARIANTS if v)})"
        )
    try:
        if arg.endswith("i"):
            return kind, Budget(iterations=int(arg[:-1]), variant=variant)
        return kind, Budget(seconds=float(arg.rstrip("s")), variant=variant)
    except ValueError as exc:
        raise ValueError(
            f"{spec!r}: bad budget ({exc}); use e.g. search:0.5 or search:200i"
        ) from None
