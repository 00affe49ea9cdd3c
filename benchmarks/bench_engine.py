"""Benchmark 1 — the engine: complete random games per second per edition, the median
time to apply one command, and in the same run the JSON round trip of the state
(`to_json` + `from_json`) that every served move pays anyway (the baseline).

    python benchmarks/bench_engine.py [--games N] [--runs R]

Targets (issue 6): >= 100 games/s per edition on one core; apply <= round trip.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from benchmarks.common import Row, print_table, random_game


def games_per_second(edition: str, games: int, offset: int) -> tuple[float, float]:
    """Games per second of wall time and of this process's CPU time (less sensitive to neighbours)."""
    t, c = time.perf_counter(), time.process_time()
    for seed in range(offset, offset + games):
        random_game(seed, edition)
    return games / (time.perf_counter() - t), games / (time.process_time() - c)


def apply_and_roundtrip(edition: str, games: int) -> tuple[list[float], list[float]]:
    """Per command: the apply time (copying API) and the JSON round-trip time of the state."""
    applies: list[float] = []
    trips: list[float] = []
    for seed in range(games):
        _, moves = random_game(10_000 + seed, edition)
        g = engine.new_game(10_000 + seed, edition=edition)
        for side, cmd in moves:
            t0 = time.perf_counter()
            g2 = engine.apply(g, side, cmd)
            t1 = time.perf_counter()
            engine.from_json(engine.to_json(g2))
            t2 = time.perf_counter()
            applies.append(t1 - t0)
            trips.append(t2 - t1)
            g = g2
    return applies, trips


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=40, help="games per timing run")
    ap.add_argument("--runs", type=int, default=5, help="timing runs (median reported)")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, for CI")
    a = ap.parse_args(argv)
    games, runs = (2, 1) if a.smoke else (a.games, a.runs)
    rows: list[Row] = []
    for edition in engine.EDITIONS:
        both = [games_per_second(edition, games, 0) for _ in range(runs)]
        for i, clock in enumerate(("wall", "CPU")):
            gps = [b[i] for b in both]
            rows.append(
                Row(
                    f"random games/s ({edition}, {clock})",
                    games,
                    "games/s",
                    gps,
                    f"{statistics.median(gps) / 100:.2f} × target",
                )
            )
    for edition in engine.EDITIONS:
        applies, trips = apply_and_roundtrip(edition, max(1, games // 4))
        ap_m, rt_m = statistics.median(applies), statistics.median(trips)
        rows.append(
            Row(
                f"apply one command ({edition})",
                len(applies),
                "s",
                applies,
                f"{ap_m / rt_m:.2f} × round trip",
            )
        )
        rows.append(Row(f"JSON round trip ({edition})", len(trips), "s", trips, "1.00 (baseline)"))
    print_table("Engine benchmark (single process)", rows)


if __name__ == "__main__":
    main()
