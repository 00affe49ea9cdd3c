"""Shared helpers for the benchmarks: repeated timing and the printed table.

Every benchmark prints one table: what was measured, N, the median of several
runs, the min–max range, and the ratio to the baseline measured in the same
run (machines here are noisy: ratios are what count).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import engine


@dataclass
class Row:
    what: str
    n: int
    unit: str
    samples: list[float]
    ratio: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.samples)


def repeat(fn: Callable[[], float], runs: int) -> list[float]:
    """Run ``fn`` ``runs`` times; each call returns its own measured figure."""
    return [fn() for _ in range(runs)]


def timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def fmt(x: float) -> str:
    if x == 0:
        return "0"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 1:
        return f"{x:.2f}"
    if abs(x) >= 1e-3:
        return f"{x * 1e3:.3f}m"
    return f"{x * 1e6:.1f}µ"


def print_table(title: str, rows: list[Row]) -> None:
    print(f"\n{title}")
    head = ("measured", "N", "median", "min–max", "unit", "ratio")

    def f(r: Row, x: float) -> str:
        return f"{x:.2f}" if r.unit in ("%", "cores") else fmt(x)

    body = [
        (
            r.what,
            str(r.n),
            f(r, r.median),
            f"{f(r, min(r.samples))}–{f(r, max(r.samples))}",
            r.unit,
            r.ratio,
        )
        for r in rows
    ]
    widths = [max(len(x[i]) for x in (head, *body)) for i in range(len(head))]
    line = "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True))
    print(line)
    print("-" * len(line))
    for b in body:
        print("  ".join(c.ljust(w) for c, w in zip(b, widths, strict=True)))


def random_game(seed: int, edition: str) -> tuple[engine.GameState, list[tuple[str, str]]]:
    """Play a complete game of random legal commands (in place); returns it and its moves."""
    g = engine.new_game(seed, edition=edition)
    rnd = random.Random(seed)
    moves: list[tuple[str, str]] = []
    while engine.result(g) is None:
        side = rnd.choice(sorted(engine.active_sides(g)))
        cmd = rnd.choice(engine.legal_commands(g, side))
        engine.apply_in_place(g, side, cmd)
        moves.append((side, cmd))
    return g, moves
